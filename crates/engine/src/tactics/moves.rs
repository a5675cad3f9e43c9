//! The first three questions before every move: which moves give check,
//! which capture, and what the opponent threatens (or what the side to
//! move can win).

use std::num::NonZeroU32;

use shakmaty::{Chess, Move, Position, PositionError};

use super::exchange;

/// The legal moves of the side to move that give check, in move-generation
/// order.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::checks;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// // Scholar's mate set up: Qxf7#, Bxf7+ and Qxe5+ are the checks.
/// let pos: Chess = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(checks(&pos).len(), 3);
/// ```
pub fn checks(pos: &Chess) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| gives_check(pos, m))
        .collect()
}

/// The legal captures of the side to move, en passant included, in
/// move-generation order.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::captures;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// // After 1.e4 d5 2.e5 f5, exf6 takes en passant and nothing else captures.
/// let pos: Chess = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let caps = captures(&pos);
/// assert_eq!(caps.len(), 1);
/// assert!(caps[0].is_en_passant());
/// ```
pub fn captures(pos: &Chess) -> Vec<Move> {
    pos.capture_moves().into_iter().collect()
}

/// The legal moves of the side to move that checkmate at once.
pub fn mates_in_one(pos: &Chess) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| mates(pos, m))
        .collect()
}

/// The position with the turn handed to the side not to move and any en
/// passant right dropped; `None` when the side to move is in check (the
/// opponent cannot be on move while giving check).
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::opponent_to_move;
/// use shakmaty::{Chess, Color, Position};
/// let flipped = opponent_to_move(&Chess::default()).unwrap();
/// assert_eq!(flipped.turn(), Color::Black);
/// ```
pub fn opponent_to_move(pos: &Chess) -> Option<Chess> {
    if pos.is_check() {
        return None;
    }
    pos.clone()
        .swap_turn()
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// What a threat would achieve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreatKind {
    /// The move would checkmate.
    Mate,
    /// The capture would win this much material, in centipawns, once the
    /// exchange on its square has run its course (see [`exchange`]).
    Material {
        /// The net gain; always positive.
        gain: NonZeroU32,
    },
}

/// A mate in one or a winning capture: one of the opponent's [`threats`]
/// or one of the side to move's [`opportunities`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threat {
    /// The move, legal in the position it was found in (for a threat,
    /// [`opponent_to_move`]'s).
    pub mv: Move,
    /// What it would achieve.
    pub kind: ThreatKind,
}

impl Threat {
    /// Material won in centipawns (0 for a mate).
    pub fn gain(&self) -> u32 {
        match self.kind {
            ThreatKind::Mate => 0,
            ThreatKind::Material { gain } => gain.get(),
        }
    }
}

/// The opponent's threats: what the side not to move could do if it were
/// its turn — checkmate in one, or capture with a net gain by
/// [`exchange`]. A mating capture is listed once, as a mate. Mates come
/// first, then captures by decreasing gain. Empty when the side to move is
/// in check (see the [module documentation](super)).
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::{ThreatKind, threats};
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// // 1.e4 e5 2.Bc4 Nc6 3.Qh5, Black to move: White threatens Qxf7#.
/// let pos: Chess = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let t = threats(&pos);
/// assert_eq!(t[0].kind, ThreatKind::Mate);
/// assert_eq!(t[0].mv.to().to_string(), "f7");
/// ```
pub fn threats(pos: &Chess) -> Vec<Threat> {
    opponent_to_move(pos).map_or_else(Vec::new, |flipped| opportunities(&flipped))
}

/// The side to move's own chances, the same kinds as [`threats`] and in the
/// same order: its mates in one and its captures with a net gain — for
/// example what a move has just left hanging for the opponent.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::opportunities;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// // White to move can take the loose knight on f6 with the queen.
/// let pos: Chess = "4k3/8/5n2/8/8/8/5Q2/4K3 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let o = opportunities(&pos);
/// assert_eq!(o.len(), 1);
/// assert_eq!(o[0].gain(), 300);
/// ```
pub fn opportunities(pos: &Chess) -> Vec<Threat> {
    let mut found: Vec<Threat> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|mv| threat(pos, mv))
        .collect();
    found.sort_by_key(|t| (t.kind != ThreatKind::Mate, std::cmp::Reverse(t.gain())));
    found
}

fn threat(pos: &Chess, mv: Move) -> Option<Threat> {
    if mates(pos, mv) {
        return Some(Threat {
            mv,
            kind: ThreatKind::Mate,
        });
    }
    if !mv.is_capture() {
        return None;
    }
    let gain = u32::try_from(exchange(pos, mv)).ok()?;
    Some(Threat {
        mv,
        kind: ThreatKind::Material {
            gain: NonZeroU32::new(gain)?,
        },
    })
}

/// Whether legal `m` gives check.
pub(super) fn gives_check(pos: &Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_check()
}

/// Whether legal `m` checkmates.
pub(super) fn mates(pos: &Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_checkmate()
}
