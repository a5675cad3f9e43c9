//! Ply Yard's Arena tournaments as pure rules, after lichess's: an Arena
//! runs for a fixed time; players who are waiting are paired again and
//! again, each game scores on the player's sheet (with fire streaks,
//! berserk and the draw rules), and the standings order players by score
//! then performance.
//!
//! This crate is pure: no clock (time comes in as [`Timestamp`]), no
//! storage, no randomness of its own (the pairing wave takes an
//! [`rand::Rng`]), no chess rules. It owns:
//!
//! - [`ArenaDraft`] → [`ArenaSettings`]: validated settings
//!   ([`ArenaClock`], length, start, options, [`Conditions`]);
//! - [`Sheet`]: per-game points and the total; [`performance`];
//!   [`standings`];
//! - [`pair_wave`]: the pairing wave over the waiting players;
//! - [`schedule`], [`Pauses`], [`go_berserk`]: the timing decisions.
//!
//! `docs/arena.md` lists every rule with lichess's numbers.

pub mod berserk;
pub mod clock;
pub mod colour;
pub mod colour_history;
pub mod conditions;
pub mod edge;
pub mod game;
mod matching;
pub mod pause;
pub mod performance;
pub mod schedule;
pub mod settings;
pub mod sheet;
pub mod standings;
pub mod timestamp;
pub mod wave;

pub use berserk::{BerserkError, go_berserk};
pub use clock::{ArenaClock, BerserkedClock, ClockError};
pub use colour::Colour;
pub use colour_history::ColourHistory;
pub use conditions::{Conditions, ConditionsDraft, ConditionsError, Entrant, EntryRefusal};
pub use game::{ArenaGame, Outcome};
pub use pause::{Pauses, RejoinError};
pub use performance::performance;
pub use settings::{ArenaDraft, ArenaSettings, SettingsError};
pub use sheet::{BerserkMark, GameScore, Mark, Sheet, SheetJson};
pub use standings::{Record, Standing, standings};
pub use timestamp::Timestamp;
pub use wave::{Pairing, WaitingPlayer, WaveContext, pair_wave};
