//! The fair-play watch: every rated game is reviewed in the background,
//! at low priority, through the one engine-time queue
//! ([`plyyard_engine_time::Reviews::review_in_background`]), each side is
//! judged by `plyyard_moderation::fairplay`'s signals and verdict table,
//! and the verdicts are stored ([`Watch`]); an account's stored verdicts
//! add up to the moderators' [`Report`]. Nothing here acts on a player.
//!
//! Modules, lowest first: `sides` (a stored game and its review as the
//! signals read them), `report`, `watch`.

mod report;
mod sides;
mod watch;

pub use report::{GameVerdict, Report};
pub use sides::sides_of;
pub use watch::{FAIR_PLAY_LEASE, Watch, WatchDeps, report};
