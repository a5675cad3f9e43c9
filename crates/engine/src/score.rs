//! What a search answers: its [`Score`] and the [`SearchResult`] (the move,
//! the line, how deep and how many nodes).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::Move;

/// A search score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in that many moves (negative: being mated).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best_move: Move,
    /// Score of the position after the best line.
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Wall time used.
    pub time: Duration,
}
