//! Ply Yard's rules core, on shakmaty: [`Game`] (moves, history, outcomes
//! under the two [`RuleSet`]s, draw offers and claims, clocks as recorded
//! data), [`Clock`] (live clocks with increment, flag and lag allowance,
//! driven by instants passed in), [`notation`] (SAN, long algebraic, UCI,
//! localised letters) and [`pgn`] (export and streaming import).
//!
//! Every part of Ply Yard that needs to know the rules — server, engine,
//! CLI — goes through this crate.

pub use shakmaty;

mod clock;
mod error;
mod game;
pub mod notation;
pub mod pgn;
mod rules;

pub use clock::{
    Clock, ClockError, ClockSnapshot, Moment, Press, Speed, TimeControl, TimeControlError,
    minutes_text,
};
pub use error::{ActionError, ClaimError, GameOverError, MoveError, SetupError};
pub use game::{Game, PlayedMove, Summary};
pub use pgn::{PgnTags, to_pgn};
pub use rules::{GameResult, Outcome, ParseNameError, Reason, RuleSet, Variant};
