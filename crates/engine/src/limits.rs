//! What bounds a search: [`Limits`] (depth, nodes, time, the clock,
//! `searchmoves`) and the side to move's [`Clock`].

use std::time::Duration;

use shakmaty::Move;

/// A player's clock as seen by the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
}

/// When to stop searching; every limit given applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock of the side to move; the engine budgets from it.
    pub clock: Option<Clock>,
    /// Search until stopped (other limits still apply).
    pub infinite: bool,
    /// Only these moves are considered at the root (UCI `searchmoves`);
    /// empty for all. Moves that are not legal in the position are ignored,
    /// and when none is legal every move is searched.
    pub searchmoves: Vec<Move>,
}
