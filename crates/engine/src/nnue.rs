//! A neural network evaluation: the network's layout, its file format and
//! integer inference behind the [`Evaluator`] interface.
//!
//! The network sees the board twice, once from each side: 768 inputs (own
//! and enemy piece of each role on each square, the board flipped for
//! Black) feed one hidden layer of `hidden` units whose weights both views
//! share. The side to move's units and then the other side's pass through a
//! squared clipped ReLU into one output, with its own output weights for
//! each of [`BUCKETS`] material buckets. Weights are integers: the hidden
//! layer in units of `1 / QA`, the output layer in units of `1 / QB`.
//!
//! The accumulators are rebuilt from the board at each evaluation: the
//! search hands the evaluator a position, not a move.
//! [`crate::nnue_train`] fits the weights and writes the file.

use std::fmt;

use shakmaty::{Board, Chess, Color, Position, Role, Square};

use crate::eval::Evaluator;

/// Inputs per view: 2 sides × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Output buckets, by the number of pieces on the board.
pub const BUCKETS: usize = 8;
/// Quantisation of the hidden layer (its clip value).
pub const QA: i32 = 255;
/// Quantisation of the output layer.
pub const QB: i32 = 64;
/// Largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;
/// First bytes of a network file.
pub const MAGIC: &[u8; 8] = b"PLYNNUE1";

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

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    NotANetwork,
    /// The declared hidden size or bucket count is not supported.
    BadShape { hidden: usize, buckets: usize },
    /// The file ends before its weights do, or runs on after them.
    BadLength { expected: usize, found: usize },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a Ply Yard network file"),
            NetError::BadShape { hidden, buckets } => write!(
                f,
                "unsupported network shape: {hidden} hidden units, {buckets} buckets \
                 (1..={MAX_HIDDEN} hidden, {BUCKETS} buckets)"
            ),
            NetError::BadLength { expected, found } => {
                write!(
                    f,
                    "network file has {found} bytes, its header says {expected}"
                )
            }
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised network, ready to evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Centipawns per unit of the output.
    scale: i32,
    /// `INPUTS` rows of `hidden` weights.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Per bucket: `hidden` weights for the side to move, then `hidden`
    /// for the other side.
    w2: Vec<i16>,
    /// Per bucket, in units of `1 / (QA * QB)`.
    b2: Vec<i32>,
}

impl Network {
    /// A network from its integer weights.
    ///
    /// # Panics
    ///
    /// Panics if the slices do not have the sizes `hidden` implies or
    /// `hidden` is 0 or above [`MAX_HIDDEN`].
    pub fn new(
        hidden: usize,
        scale: i32,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Network {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "hidden size {hidden}");
        assert_eq!(w1.len(), INPUTS * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), BUCKETS * 2 * hidden);
        assert_eq!(b2.len(), BUCKETS);
        Network {
            hidden,
            scale,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// Number of hidden units per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Size of the file [`Network::to_bytes`] writes for `hidden` units.
    fn file_len(hidden: usize) -> usize {
        MAGIC.len() + 12 + 2 * (INPUTS * hidden + hidden + BUCKETS * 2 * hidden) + 4 * BUCKETS
    }

    /// The network file: [`MAGIC`], then little-endian `hidden`, `buckets`
    /// and `scale` (u32, u32, i32), `w1`, `b1`, `w2` (i16) and `b2` (i32).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::file_len(self.hidden));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Reads a network file written by [`Network::to_bytes`].
    ///
    /// # Errors
    ///
    /// [`NetError`] when the magic, the shape or the length is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < MAGIC.len() + 12 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::NotANetwork);
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
        };
        let hidden = u32::from_le_bytes(word(0)) as usize;
        let buckets = u32::from_le_bytes(word(1)) as usize;
        let scale = i32::from_le_bytes(word(2));
        if !(1..=MAX_HIDDEN).contains(&hidden) || buckets != BUCKETS {
            return Err(NetError::BadShape { hidden, buckets });
        }
        let expected = Network::file_len(hidden);
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[MAGIC.len() + 12..];
        let (shorts, longs) = body.split_at(2 * (INPUTS * hidden + hidden + BUCKETS * 2 * hidden));
        let mut shorts = shorts
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1 = shorts.by_ref().take(INPUTS * hidden).collect();
        let b1 = shorts.by_ref().take(hidden).collect();
        let w2 = shorts.collect();
        let b2 = longs
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network::new(hidden, scale, w1, b1, w2, b2))
    }

    /// Score of `board` for `turn`, in centipawns.
    pub fn score(&self, board: &Board, turn: Color) -> i32 {
        let h = self.hidden;
        let mut acc = [[0i32; MAX_HIDDEN]; 2];
        for view in Color::ALL {
            acc[view as usize][..h]
                .iter_mut()
                .zip(&self.b1)
                .for_each(|(a, &b)| *a = i32::from(b));
        }
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            for view in Color::ALL {
                let f = feature(view, piece.color, piece.role, sq);
                let row = &self.w1[f * h..(f + 1) * h];
                acc[view as usize][..h]
                    .iter_mut()
                    .zip(row)
                    .for_each(|(a, &w)| *a += i32::from(w));
            }
        }
        let b = bucket(board);
        let out_w = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut sum = 0i64;
        for (side, view) in [turn, !turn].into_iter().enumerate() {
            let ws = &out_w[side * h..(side + 1) * h];
            for (&a, &w) in acc[view as usize][..h].iter().zip(ws) {
                let c = a.clamp(0, QA);
                sum += i64::from(c * i32::from(w)) * i64::from(c);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.b2[b]);
        (out * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }
}

impl Evaluator for Network {
    fn evaluate(&self, pos: &Chess) -> i32 {
        self.score(pos.board(), pos.turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Piece};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// A small network with varied weights from a fixed generator.
    fn sample_net(hidden: usize) -> Network {
        let mut rng = crate::level::Rng::new(7);
        let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        let w1 = (0..INPUTS * hidden).map(|_| small(60) as i16).collect();
        let b1 = (0..hidden).map(|_| small(100) as i16).collect();
        let w2 = (0..BUCKETS * 2 * hidden)
            .map(|_| small(120) as i16)
            .collect();
        let b2 = (0..BUCKETS).map(|_| small(5000) as i32).collect();
        Network::new(hidden, 400, w1, b1, w2, b2)
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
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert_eq!(Network::from_bytes(b"S(1, 2),"), Err(NetError::NotANetwork));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::BadLength { .. })
        ));
        let mut wide = bytes.clone();
        wide[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wide),
            Err(NetError::BadShape { hidden: 5000, .. })
        ));
    }

    #[test]
    fn mirrored_position_scores_the_same_for_its_side_to_move() {
        // Both views share weights, so swapping colours and flipping the
        // board changes nothing for the side to move.
        let net = sample_net(16);
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
        assert_eq!(net.evaluate(&p), cp);
    }
}
