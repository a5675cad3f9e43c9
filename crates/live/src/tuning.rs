//! The live games' tunables and their defaults.

use std::time::Duration;

/// A live game with no socket and no activity for this long is unloaded
/// (the default of [`LiveTuning::idle_unload`]).
pub const IDLE_UNLOAD: Duration = Duration::from_secs(600);
/// Each side's first move must come within this long (the default of
/// [`crate::LiveTuning::first_move_timeout`]).
pub const FIRST_MOVE: Duration = Duration::from_secs(30);
/// An opponent away this long may be claimed against (the default of
/// [`crate::LiveTuning::away_claim_after`]).
pub const AWAY_CLAIM: Duration = Duration::from_secs(30);

/// The live games' tunables (from the server's flags).
#[derive(Debug, Clone)]
pub struct LiveTuning {
    /// A live game with no socket and no activity for this long is unloaded.
    pub idle_unload: Duration,
    /// At a table, each side's first move must come within this long, or
    /// the game is aborted.
    pub first_move_timeout: Duration,
    /// A table player away this long may be claimed against.
    pub away_claim_after: Duration,
}

impl Default for LiveTuning {
    fn default() -> LiveTuning {
        LiveTuning {
            idle_unload: IDLE_UNLOAD,
            first_move_timeout: FIRST_MOVE,
            away_claim_after: AWAY_CLAIM,
        }
    }
}
