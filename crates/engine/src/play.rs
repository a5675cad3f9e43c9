//! [`Engine::search`], the move the engine plays at a [`Level`]: Expert's
//! full-strength search, or the choice of a weaker level
//! ([`crate::level`]). It sits above both, so the engine's search knows
//! nothing of the levels.

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move};

use crate::engine::Engine;
use crate::level;
use crate::limits::Limits;
use crate::score::SearchResult;
use crate::strength::Level;

impl Engine {
    /// Searches the position reached from `start` by `moves` and picks a move
    /// the way `level` plays; `seed` drives the weaker levels' choices.
    ///
    /// Returns `None` if the position has no legal move. Moves in `moves`
    /// that are illegal end the history there. Without any limit the search
    /// lasts [`Level::think_time`].
    pub fn search(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        // With no limit at all, a level thinks for its usual time instead of
        // searching until stopped.
        let mut limits = limits.clone();
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && !limits.infinite
        {
            limits.movetime = Some(level.think_time());
        }
        if level == Level::Expert {
            self.search_with_info(start, moves, &limits, stop, &mut |_| {})
        } else {
            self.with_level_eval(|e| level::choose(e, start, moves, &limits, level, seed, stop))
        }
    }
}
