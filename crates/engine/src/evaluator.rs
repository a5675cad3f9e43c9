//! The [`Evaluator`] interface the search calls, and its two
//! implementations: the classical evaluation ([`crate::eval`]) and the
//! neural network ([`crate::nnue`]). It sits above both, so the classical
//! evaluation knows nothing of the network, which adds its output to it.

use shakmaty::{Chess, Position};

use crate::eval::Classical;
use crate::nnue::Network;

/// Anything that can score a position for the side to move, in centipawns.
///
/// The search only ever talks to this trait, so a neural network evaluation
/// can take the place of the classical one.
pub trait Evaluator: Send + Sync {
    /// Score of `pos` from the point of view of the side to move.
    fn evaluate(&self, pos: &Chess) -> i32;

    /// The network behind this evaluation, if it is one: the search then
    /// updates its accumulators move by move instead of calling
    /// [`Evaluator::evaluate`].
    fn network(&self) -> Option<&Network> {
        None
    }
}

impl Evaluator for Classical {
    fn evaluate(&self, pos: &Chess) -> i32 {
        self.score(pos.board(), pos.turn())
    }
}

impl Evaluator for Network {
    fn evaluate(&self, pos: &Chess) -> i32 {
        self.score(pos.board(), pos.turn())
    }

    fn network(&self) -> Option<&Network> {
        Some(self)
    }
}
