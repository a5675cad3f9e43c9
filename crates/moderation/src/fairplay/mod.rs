//! Fair play: the signals of engine use in one player's side of one game
//! ([`signals`]), the verdict they add up to ([`verdict`]), and an
//! account's verdicts weighed together ([`account`]), after lichess's
//! published method (`docs/moderation.md` gives the thresholds and their
//! sources). Numbers in, verdicts out: the review that measures the
//! losses, the clock that measures the move times and the browser that
//! reports a lost focus are all elsewhere. Nothing here acts on a player:
//! moderators read the verdicts and decide.
//!
//! Modules, lowest first: `signals`, `verdict`, `account`.

mod account;
mod signals;
mod verdict;

pub use account::{Assessed, MIN_RATED_GAMES, Summary, summarise, weight};
pub use signals::{FAST_CS, MAX_CP, MIN_PLIES, Side, Signal, Signals, coefficient_of_variation};
pub use verdict::{Verdict, verdict};
