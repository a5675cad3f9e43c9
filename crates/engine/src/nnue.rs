//! A neural network evaluation: the network's layout, its file format and
//! integer inference (the search reaches it through the `Evaluator`
//! interface, `crate::evaluator`).
//!
//! The network sees the board twice, once from each side: 768 inputs (own
//! and enemy piece of each role on each square, the board flipped for
//! Black) feed one hidden layer of `hidden` units whose weights both views
//! share. The side to move's units and then the other side's pass through a
//! squared clipped ReLU into one output, with its own output weights for
//! each of [`BUCKETS`] material buckets. Weights are integers: the hidden
//! layer in units of `1 / QA`, the output layer in units of `1 / QB`.
//!
//! The hidden sums (the accumulator) of a position follow from its
//! parent's by adding and removing the inputs of the pieces a move changed:
//! the search keeps one accumulator per ply ([`Network::update`]) and only
//! the output layer runs per evaluation. `nnue_train` (with the `train`
//! feature) fits the weights and writes the file.
//!
//! The hidden weights can depend on where the viewer's own king stands
//! ([`king_bucket`]): with several king buckets a view's accumulator is
//! rebuilt from scratch when its king changes bucket.
//!
//! A network is either the whole evaluation or, with
//! [`Base::Classical`], a learnt correction added to the classical
//! evaluation with its built-in weights.

use std::fmt;
use std::sync::{Arc, OnceLock};

use shakmaty::{Board, Color, Piece, Role, Square};

use crate::eval;

/// Inputs per view: 2 sides × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Output buckets, by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// Quantisation of the hidden layer (its clip value).
pub const QA: i32 = 255;
/// Quantisation of the output layer.
pub const QB: i32 = 32;
/// Largest hidden layer a file may declare: with the weight limits below,
/// one view's output sum then fits an `i32`.
pub const MAX_HIDDEN: usize = 256;
/// Largest hidden weight or bias magnitude: a bias and 32 pieces then sum
/// inside an `i16`.
pub const MAX_W1: i16 = 505;
/// Largest output weight magnitude: an activation (at most [`QA`]) times a
/// weight then fits an `i16`.
pub const MAX_W2: i16 = 127;
/// First bytes of a network file.
pub const MAGIC: &[u8; 8] = b"PLYNNUE3";
/// First bytes of the previous format, still read: no king buckets field
/// (one bucket).
pub const MAGIC_V2: &[u8; 8] = b"PLYNNUE2";
/// The network Expert plays with unless told otherwise: a correction on
/// the classical evaluation; how it was trained is in docs/lab/nnue.md.
const DEFAULT_NETWORK: &[u8] = include_bytes!("../nets/default.nnue");

/// The built-in network, parsed once.
///
/// # Panics
///
/// Panics if the embedded file is not a valid network (a unit test
/// loads it).
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(Network::from_bytes(DEFAULT_NETWORK).expect("the built-in network is valid"))
    })
    .clone()
}

/// Bytes of the header after [`MAGIC`]: hidden size, buckets, scale,
/// base and king buckets ([`MAGIC_V2`] files lack the last).
const HEADER: usize = 20;
/// Bytes of a [`MAGIC_V2`] header.
const HEADER_V2: usize = 16;
/// The views in accumulator order (`Color as usize`).
const VIEWS: [Color; 2] = [Color::Black, Color::White];
/// King bucket counts a network may have (see [`king_bucket`]).
pub const KING_BUCKET_CHOICES: [usize; 2] = [1, 4];

/// What a network's output is added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Base {
    /// Nothing: the network is the whole evaluation.
    #[default]
    Zero,
    /// The classical evaluation with its built-in weights
    /// ([`eval::builtin`]): the network learns what it misses.
    Classical,
}

impl Base {
    fn code(self) -> u32 {
        match self {
            Base::Zero => 0,
            Base::Classical => 1,
        }
    }

    fn from_code(code: u32) -> Option<Base> {
        match code {
            0 => Some(Base::Zero),
            1 => Some(Base::Classical),
            _ => None,
        }
    }

    /// The base's score of `board` for `turn`, in centipawns.
    #[inline]
    pub fn score(self, board: &Board, turn: Color) -> i32 {
        match self {
            Base::Zero => 0,
            Base::Classical => eval::builtin().score(board, turn),
        }
    }
}

/// Input index of a `color` `role` on `sq` as seen from `view`: the
/// viewer's own pieces first, squares flipped vertically for Black.
#[inline]
pub fn feature(view: Color, color: Color, role: Role, sq: Square) -> usize {
    let side = usize::from(color != view);
    let sq = match view {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    };
    side * 384 + (role as usize - 1) * 64 + sq
}

/// King bucket of a view whose own king stands on `king` (in the view's
/// orientation, rank 1 nearest the viewer), for a network with `count`
/// buckets: with 4, a king on its first rank on a wing (files a–c, f–h),
/// on its first rank in the centre (d, e), on its second rank, or further
/// up. Mirroring the files never changes the bucket.
#[inline]
pub fn king_bucket(count: usize, king: usize) -> usize {
    if count == 1 {
        return 0;
    }
    match (king / 8, king % 8) {
        (0, 3 | 4) => 1,
        (0, _) => 0,
        (1, _) => 2,
        _ => 3,
    }
}

/// `view`'s king bucket on `board` (bucket 0 without a king).
#[inline]
fn view_bucket(count: usize, board: &Board, view: Color) -> usize {
    let king = board.king_of(view).map_or(0, |sq| match view {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    });
    king_bucket(count, king)
}

/// The same input seen from the other side (White's index to Black's and
/// back).
#[inline]
pub fn flip(f: usize) -> usize {
    ((f + 384) % INPUTS) ^ 56
}

/// Output bucket of a board: by piece count, kings included.
#[inline]
pub fn bucket(board: &Board) -> usize {
    ((board.occupied().count()).saturating_sub(2) / 4).min(BUCKETS - 1)
}

/// The pieces that differ between two boards: at most [`Changes::MAX`]
/// placed and as many lifted (a legal move changes at most four).
struct Changes {
    added: [(Piece, Square); Changes::MAX],
    removed: [(Piece, Square); Changes::MAX],
    n_added: usize,
    n_removed: usize,
}

impl Changes {
    const MAX: usize = 32;

    /// Compares the boards role by role.
    #[inline]
    fn between(before: &Board, after: &Board) -> Changes {
        let none = (
            Piece {
                color: Color::White,
                role: Role::Pawn,
            },
            Square::A1,
        );
        let mut c = Changes {
            added: [none; Changes::MAX],
            removed: [none; Changes::MAX],
            n_added: 0,
            n_removed: 0,
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (was, is) = (before.by_piece(piece), after.by_piece(piece));
                if was == is {
                    continue;
                }
                for sq in was & !is {
                    c.removed[c.n_removed] = (piece, sq);
                    c.n_removed += 1;
                }
                for sq in is & !was {
                    c.added[c.n_added] = (piece, sq);
                    c.n_added += 1;
                }
            }
        }
        c
    }

    fn added(&self) -> &[(Piece, Square)] {
        &self.added[..self.n_added]
    }

    fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..self.n_removed]
    }
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    NotANetwork,
    /// The declared hidden size, bucket count or king bucket count is not
    /// supported.
    BadShape {
        hidden: usize,
        buckets: usize,
        king_buckets: usize,
    },
    /// The file ends before its weights do, or runs on after them.
    BadLength { expected: usize, found: usize },
    /// A weight is beyond [`MAX_W1`] or [`MAX_W2`].
    WeightOutOfRange,
    /// The header names a base this program does not know.
    UnknownBase(u32),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a Ply Yard network file"),
            NetError::BadShape {
                hidden,
                buckets,
                king_buckets,
            } => write!(
                f,
                "unsupported network shape: {hidden} hidden units, {buckets} buckets, \
                 {king_buckets} king buckets (1..={MAX_HIDDEN} hidden, {BUCKETS} buckets, \
                 king buckets one of {KING_BUCKET_CHOICES:?})"
            ),
            NetError::BadLength { expected, found } => {
                write!(
                    f,
                    "network file has {found} bytes, its header says {expected}"
                )
            }
            NetError::WeightOutOfRange => write!(
                f,
                "a weight is out of range (hidden at most {MAX_W1}, output at most {MAX_W2})"
            ),
            NetError::UnknownBase(code) => write!(
                f,
                "unknown evaluation base {code} (0: none, 1: the classical evaluation)"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised network, ready to evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Centipawns per unit of the output.
    pub(crate) scale: i32,
    king_buckets: usize,
    /// Per king bucket, `INPUTS` rows of `hidden` weights.
    pub(crate) w1: Vec<i16>,
    pub(crate) b1: Vec<i16>,
    /// Per bucket: `hidden` weights for the side to move, then `hidden`
    /// for the other side.
    pub(crate) w2: Vec<i16>,
    /// Per bucket, in units of `1 / (QA * QB)`.
    pub(crate) b2: Vec<i32>,
    base: Base,
}

impl Network {
    /// A network from its integer weights.
    ///
    /// # Panics
    ///
    /// Panics if the slices do not have the sizes `hidden` and
    /// `king_buckets` imply, `hidden` is 0 or above [`MAX_HIDDEN`],
    /// `king_buckets` is not one of [`KING_BUCKET_CHOICES`], or a weight is
    /// beyond [`MAX_W1`] or [`MAX_W2`].
    pub fn new(
        hidden: usize,
        scale: i32,
        king_buckets: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Network {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "hidden size {hidden}");
        assert!(
            KING_BUCKET_CHOICES.contains(&king_buckets),
            "{king_buckets} king buckets"
        );
        assert_eq!(w1.len(), king_buckets * INPUTS * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), BUCKETS * 2 * hidden);
        assert_eq!(b2.len(), BUCKETS);
        assert!(
            Network::in_range(&w1, &b1, &w2),
            "{}",
            NetError::WeightOutOfRange
        );
        Network {
            hidden,
            scale,
            king_buckets,
            w1,
            b1,
            w2,
            b2,
            base: Base::Zero,
        }
    }

    /// The same weights, their output added to `base`.
    pub fn with_base(mut self, base: Base) -> Network {
        self.base = base;
        self
    }

    /// What this network's output is added to.
    pub fn base(&self) -> Base {
        self.base
    }

    fn in_range(w1: &[i16], b1: &[i16], w2: &[i16]) -> bool {
        w1.iter().chain(b1).all(|w| w.abs() <= MAX_W1) && w2.iter().all(|w| w.abs() <= MAX_W2)
    }

    /// Number of hidden units per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of king buckets (see [`king_bucket`]).
    pub fn king_buckets(&self) -> usize {
        self.king_buckets
    }

    /// Bytes of the weights of a network with `hidden` units and
    /// `king_buckets` king buckets.
    fn body_len(hidden: usize, king_buckets: usize) -> usize {
        2 * (king_buckets * INPUTS * hidden + hidden + BUCKETS * 2 * hidden) + 4 * BUCKETS
    }

    /// The network file: [`MAGIC`], then little-endian `hidden`, `buckets`,
    /// `scale`, the base (0 none, 1 classical) and the king buckets (u32,
    /// u32, i32, u32, u32), `w1`, `b1`, `w2` (i16) and `b2` (i32).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            MAGIC.len() + HEADER + Network::body_len(self.hidden, self.king_buckets),
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&self.base.code().to_le_bytes());
        out.extend_from_slice(&(self.king_buckets as u32).to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Reads a network file written by [`Network::to_bytes`] (or by the
    /// previous version, [`MAGIC_V2`]).
    ///
    /// # Errors
    ///
    /// [`NetError`] when the magic, the shape, the base or the length is
    /// wrong, or a weight is out of range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let header = match bytes.get(..MAGIC.len()) {
            Some(m) if m == MAGIC => HEADER,
            Some(m) if m == MAGIC_V2 => HEADER_V2,
            _ => return Err(NetError::NotANetwork),
        };
        if bytes.len() < MAGIC.len() + header {
            return Err(NetError::NotANetwork);
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
        };
        let hidden = u32::from_le_bytes(word(0)) as usize;
        let buckets = u32::from_le_bytes(word(1)) as usize;
        let scale = i32::from_le_bytes(word(2));
        let king_buckets = if header == HEADER {
            u32::from_le_bytes(word(4)) as usize
        } else {
            1
        };
        if !(1..=MAX_HIDDEN).contains(&hidden)
            || buckets != BUCKETS
            || !KING_BUCKET_CHOICES.contains(&king_buckets)
        {
            return Err(NetError::BadShape {
                hidden,
                buckets,
                king_buckets,
            });
        }
        let code = u32::from_le_bytes(word(3));
        let base = Base::from_code(code).ok_or(NetError::UnknownBase(code))?;
        let expected = MAGIC.len() + header + Network::body_len(hidden, king_buckets);
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[MAGIC.len() + header..];
        let rows = king_buckets * INPUTS;
        let (shorts, longs) = body.split_at(2 * (rows * hidden + hidden + BUCKETS * 2 * hidden));
        let mut shorts = shorts
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1: Vec<i16> = shorts.by_ref().take(rows * hidden).collect();
        let b1: Vec<i16> = shorts.by_ref().take(hidden).collect();
        let w2: Vec<i16> = shorts.collect();
        if !Network::in_range(&w1, &b1, &w2) {
            return Err(NetError::WeightOutOfRange);
        }
        let b2 = longs
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network::new(hidden, scale, king_buckets, w1, b1, w2, b2).with_base(base))
    }

    /// Length of an accumulator: the hidden sums of each view, in the order
    /// of `Color as usize`.
    pub fn acc_len(&self) -> usize {
        2 * self.hidden
    }

    /// Adds or removes the input of one piece in `view`'s half `part` of
    /// an accumulator, the view's king being in king bucket `kb`.
    ///
    /// Wrapping arithmetic: the sums stay in range for any legal position,
    /// and an updated accumulator then always equals a refreshed one.
    #[inline]
    fn toggle(
        &self,
        part: &mut [i16],
        view: Color,
        kb: usize,
        piece: Piece,
        sq: Square,
        add: bool,
    ) {
        let h = self.hidden;
        let f = kb * INPUTS + feature(view, piece.color, piece.role, sq);
        let row = &self.w1[f * h..(f + 1) * h];
        if add {
            part.iter_mut()
                .zip(row)
                .for_each(|(a, &w)| *a = a.wrapping_add(w));
        } else {
            part.iter_mut()
                .zip(row)
                .for_each(|(a, &w)| *a = a.wrapping_sub(w));
        }
    }

    /// Fills `view`'s half `part` of an accumulator from the pieces of
    /// `board`.
    fn refresh_view(&self, board: &Board, view: Color, part: &mut [i16]) {
        part.copy_from_slice(&self.b1);
        let kb = view_bucket(self.king_buckets, board, view);
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                self.toggle(part, view, kb, piece, sq, true);
            }
        }
    }

    /// Fills `acc` (of [`Network::acc_len`]) from the pieces of `board`.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        for (view, part) in VIEWS.into_iter().zip(acc.chunks_exact_mut(self.hidden)) {
            self.refresh_view(board, view, part);
        }
    }

    /// Sets `child` to the accumulator of `after` given `parent`, the one
    /// of `before`: in each view whose king stays in its bucket only the
    /// pieces that differ change (two to four for one move), in one pass
    /// over the hidden sums; a view whose king changed bucket is rebuilt.
    pub fn update(&self, before: &Board, after: &Board, parent: &[i16], child: &mut [i16]) {
        let h = self.hidden;
        let changes = Changes::between(before, after);
        for (view, (part, old)) in VIEWS
            .into_iter()
            .zip(child.chunks_exact_mut(h).zip(parent.chunks_exact(h)))
        {
            let kb = view_bucket(self.king_buckets, after, view);
            if kb != view_bucket(self.king_buckets, before, view) {
                self.refresh_view(after, view, part);
                continue;
            }
            let row = |&(piece, sq): &(Piece, Square)| {
                let f = kb * INPUTS + feature(view, piece.color, piece.role, sq);
                &self.w1[f * h..(f + 1) * h]
            };
            match (changes.added(), changes.removed()) {
                ([a], [r]) => {
                    for (((p, &o), &a), &r) in part.iter_mut().zip(old).zip(row(a)).zip(row(r)) {
                        *p = o.wrapping_add(a).wrapping_sub(r);
                    }
                }
                ([a], [r1, r2]) => {
                    let rows = part.iter_mut().zip(old).zip(row(a)).zip(row(r1));
                    for ((((p, &o), &a), &r1), &r2) in rows.zip(row(r2)) {
                        *p = o.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
                    }
                }
                (added, removed) => {
                    part.copy_from_slice(old);
                    for c in removed {
                        self.toggle(part, view, kb, c.0, c.1, false);
                    }
                    for c in added {
                        self.toggle(part, view, kb, c.0, c.1, true);
                    }
                }
            }
        }
    }

    /// Score for `turn` of the board whose accumulator is `acc`, in
    /// centipawns, the base included.
    pub fn output(&self, acc: &[i16], board: &Board, turn: Color) -> i32 {
        let h = self.hidden;
        let b = bucket(board);
        let out_w = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut sum = 0i64;
        for (side, view) in [turn, !turn].into_iter().enumerate() {
            let ws = &out_w[side * h..(side + 1) * h];
            let part = &acc[view as usize * h..(view as usize + 1) * h];
            // By MAX_W2 an activation times a weight fits an i16, and by
            // MAX_HIDDEN one view's sum an i32: 16-bit multiplies suffice.
            let view_sum: i32 = part
                .iter()
                .zip(ws)
                .map(|(&a, &w)| {
                    let c = a.clamp(0, QA as i16);
                    i32::from(c * w) * i32::from(c)
                })
                .sum();
            sum += i64::from(view_sum);
        }
        let out = sum / i64::from(QA) + i64::from(self.b2[b]);
        (out * i64::from(self.scale) / i64::from(QA * QB)) as i32 + self.base.score(board, turn)
    }

    /// Score of `board` for `turn`, in centipawns, from scratch.
    pub fn score(&self, board: &Board, turn: Color) -> i32 {
        let mut acc = [0i16; 2 * MAX_HIDDEN];
        let acc = &mut acc[..self.acc_len()];
        self.refresh(board, acc);
        self.output(acc, board, turn)
    }
}

/// A small network with varied weights from a fixed generator (tests).
#[cfg(test)]
pub(crate) fn sample_net(hidden: usize) -> Network {
    sample_net_kb(hidden, 1)
}

/// [`sample_net`] with `king_buckets` king buckets.
#[cfg(test)]
pub(crate) fn sample_net_kb(hidden: usize, king_buckets: usize) -> Network {
    let mut rng = crate::rng::Rng::new(7);
    let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
    let w1 = (0..king_buckets * INPUTS * hidden)
        .map(|_| small(505) as i16)
        .collect();
    let b1 = (0..hidden).map(|_| small(505) as i16).collect();
    let w2 = (0..BUCKETS * 2 * hidden)
        .map(|_| small(120) as i16)
        .collect();
    let b2 = (0..BUCKETS).map(|_| small(5000) as i32).collect();
    Network::new(hidden, 400, king_buckets, w1, b1, w2, b2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn king_buckets_cover_the_board_and_ignore_mirroring() {
        let mut seen = [0usize; 4];
        for sq in 0..64 {
            assert_eq!(king_bucket(1, sq), 0);
            let kb = king_bucket(4, sq);
            assert_eq!(kb, king_bucket(4, sq ^ 7), "square {sq}");
            seen[kb] += 1;
        }
        assert_eq!(seen, [6, 2, 8, 48]);
        // Black's king on its own first rank is in a first-rank bucket.
        let p = pos("6k1/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(view_bucket(4, p.board(), Color::Black), 0);
        assert_eq!(view_bucket(4, p.board(), Color::White), 1);
    }

    #[test]
    fn features_are_distinct_and_flip_between_views() {
        let mut seen = vec![false; INPUTS];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::ALL {
                    let w = feature(Color::White, color, role, sq);
                    assert!(!seen[w], "{color:?} {role:?} {sq:?}");
                    seen[w] = true;
                    assert_eq!(flip(w), feature(Color::Black, color, role, sq));
                    assert_eq!(flip(flip(w)), w);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn file_round_trip_and_refusals() {
        let net = sample_net(8);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(Network::from_bytes(b"S(1, 2),"), Err(NetError::NotANetwork));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::BadLength { .. })
        ));
        let mut heavy = bytes.clone();
        let last_w2 = bytes.len() - 4 * BUCKETS - 2;
        heavy[last_w2..last_w2 + 2].copy_from_slice(&200i16.to_le_bytes());
        assert_eq!(Network::from_bytes(&heavy), Err(NetError::WeightOutOfRange));
        let mut wide = bytes.clone();
        wide[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wide),
            Err(NetError::BadShape { hidden: 5000, .. })
        ));
        let residual = net.clone().with_base(Base::Classical);
        let bytes = residual.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&residual));
        let mut unknown = bytes.clone();
        unknown[20..24].copy_from_slice(&2u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&unknown), Err(NetError::UnknownBase(2)));
        let mut old = bytes.clone();
        old[7] = b'1';
        assert_eq!(Network::from_bytes(&old), Err(NetError::NotANetwork));
        // The previous format: no king bucket field, one bucket.
        let mut v2 = bytes.clone();
        v2[..8].copy_from_slice(MAGIC_V2);
        v2.drain(24..28);
        assert_eq!(Network::from_bytes(&v2).as_ref(), Ok(&residual));
        let kings = sample_net_kb(8, 4);
        let bytes = kings.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&kings));
        assert_eq!(bytes.len() - v2.len(), 4 + 2 * 3 * INPUTS * 8);
        let mut three = bytes.clone();
        three[24..28].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&three),
            Err(NetError::BadShape {
                king_buckets: 3,
                ..
            })
        ));
    }

    #[test]
    fn classical_base_adds_the_builtin_evaluation() {
        let net = sample_net(8);
        let residual = net.clone().with_base(Base::Classical);
        let mut differ = 0;
        crate::testutil::random_walk(6, 80, 3, |p: &Chess| {
            let classical = crate::eval::Classical::default().score(p.board(), p.turn());
            assert_eq!(
                residual.score(p.board(), p.turn()),
                net.score(p.board(), p.turn()) + classical
            );
            differ += usize::from(classical != 0);
        });
        assert!(differ > 100, "the classical scores were mostly zero");
    }

    #[test]
    fn mirrored_position_scores_the_same_for_its_side_to_move() {
        // Both views share weights, so swapping colours and flipping the
        // board changes nothing for the side to move.
        for net in [sample_net(16), sample_net_kb(16, 4)] {
            for fen in [
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
            ] {
                let p = pos(fen);
                let mut flipped = Board::empty();
                for sq in p.board().occupied() {
                    let pc = p.board().piece_at(sq).expect("occupied");
                    flipped.set_piece_at(
                        sq.flip_vertical(),
                        Piece {
                            color: !pc.color,
                            role: pc.role,
                        },
                    );
                }
                assert_eq!(
                    net.score(p.board(), p.turn()),
                    net.score(&flipped, !p.turn()),
                    "{fen}"
                );
            }
        }
    }

    #[test]
    fn integer_score_matches_the_formula() {
        // One white king and one black king: two inputs per view.
        let net = sample_net(4);
        let p = pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1");
        let h = net.hidden;
        let b = bucket(p.board());
        let mut expected = 0i64;
        for (side, view) in [Color::White, Color::Black].into_iter().enumerate() {
            let own = feature(
                view,
                view,
                Role::King,
                if view == Color::White {
                    Square::E1
                } else {
                    Square::E5
                },
            );
            let other = feature(
                view,
                !view,
                Role::King,
                if view == Color::White {
                    Square::E5
                } else {
                    Square::E1
                },
            );
            for j in 0..h {
                let a = i64::from(net.b1[j])
                    + i64::from(net.w1[own * h + j])
                    + i64::from(net.w1[other * h + j]);
                let c = a.clamp(0, i64::from(QA));
                expected += c * c * i64::from(net.w2[b * 2 * h + side * h + j]);
            }
        }
        let out = expected / i64::from(QA) + i64::from(net.b2[b]);
        let cp = (out * 400 / i64::from(QA * QB)) as i32;
        assert_eq!(net.score(p.board(), p.turn()), cp);
    }

    #[test]
    fn updated_accumulator_equals_a_fresh_one_after_every_move() {
        for kb in KING_BUCKET_CHOICES {
            updated_accumulator_check(&sample_net_kb(8, kb));
        }
    }

    fn updated_accumulator_check(net: &Network) {
        let len = net.acc_len();
        let check = |p: &Chess| {
            let mut parent = vec![0; len];
            net.refresh(p.board(), &mut parent);
            for m in p.legal_moves() {
                let mut child_pos = p.clone();
                child_pos.play_unchecked(m);
                let mut child = vec![0; len];
                net.update(p.board(), child_pos.board(), &parent, &mut child);
                let mut fresh = vec![0; len];
                net.refresh(child_pos.board(), &mut fresh);
                assert_eq!(child, fresh, "{m:?} from {:?}", p.board());
            }
        };
        // Castling both ways, en passant, promotions with and without capture.
        for fen in [
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 9",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1r2k3/P6P/8/8/8/8/p6p/1R2K1N1 w - - 0 1",
        ] {
            check(&pos(fen));
        }
        // Chess960 castling (the king takes its own rook).
        let c960: Chess = "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Chess960)
            .expect("legal");
        check(&c960);
        crate::testutil::random_walk(20, 160, 11, check);
        // Boards more than a move apart: every differing piece is toggled.
        let (a, b) = (Chess::default(), c960);
        let mut parent = vec![0; len];
        net.refresh(a.board(), &mut parent);
        let (mut child, mut fresh) = (vec![0; len], vec![0; len]);
        net.update(a.board(), b.board(), &parent, &mut child);
        net.refresh(b.board(), &mut fresh);
        assert_eq!(child, fresh);
    }

    #[test]
    fn built_in_network_corrects_the_classical_evaluation() {
        let net = default_network();
        assert_eq!(net.base(), Base::Classical);
        let classical = eval::builtin();
        let mut differ = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/5k2/8/3P4/8/8/5K2/8 b - - 0 1",
            "r3k2r/pp1n1ppp/2p1pn2/q7/1bPP4/2N2N2/PP1BQPPP/R3K2R w KQkq - 4 11",
        ] {
            let p = pos(fen);
            let (n, c) = (
                net.score(p.board(), p.turn()),
                classical.score(p.board(), p.turn()),
            );
            // A correction, not a new evaluation: it stays within a pawn
            // of the classical score in ordinary positions.
            assert!((n - c).abs() < 100, "{fen}: network {n}, classical {c}");
            differ += usize::from(n != c);
        }
        assert!(differ >= 3, "the correction is not zero");
        // Material still dominates, for either side to move.
        let up = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            net.score(up.board(), up.turn()) > 600,
            "{}",
            net.score(up.board(), up.turn())
        );
        let down = pos("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(
            net.score(down.board(), down.turn()) < -600,
            "{}",
            net.score(down.board(), down.turn())
        );
    }
}
