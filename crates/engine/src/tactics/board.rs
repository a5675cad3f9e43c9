//! What the facts are written in: a piece's value on the lessons' scale
//! ([`value`]) and a piece where it stands ([`Placed`]).

use shakmaty::{Role, Square};

/// The value of the king in comparisons and exchanges: more than all the
/// other pieces together, so that it is never traded.
pub const KING_VALUE: i32 = 10_000;

/// A piece's value in centipawns on the lessons' scale: pawn 100, knight
/// 300, bishop 300, rook 500, queen 900, king [`KING_VALUE`].
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::value;
/// use shakmaty::Role;
/// assert_eq!(value(Role::Bishop), 300);
/// assert!(value(Role::King) > value(Role::Queen) * 8);
/// ```
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => KING_VALUE,
    }
}

/// A piece where it stands: its square and what it is (its colour follows
/// from the fact it belongs to).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placed {
    /// Where it stands.
    pub square: Square,
    /// What it is.
    pub role: Role,
}
