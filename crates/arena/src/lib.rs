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
//! - [`Sheet`]: per-game points and the total; [`performance()`];
//!   [`standings()`];
//! - [`pair_wave`]: the pairing wave over the waiting players;
//! - [`schedule`], [`Pauses`], [`go_berserk`]: the timing decisions.
//!
//! `docs/arena.md` lists every rule with lichess's numbers.
//!
//! ```
//! use plyyard_arena::*;
//! use rand::{SeedableRng, rngs::StdRng};
//! use std::num::NonZeroU32;
//!
//! let now = Timestamp::from_millis(1_800_000_000_000);
//! let arena = ArenaDraft {
//!     clock_base_seconds: 180,
//!     clock_increment_seconds: 0,
//!     minutes: 60,
//!     starts_at: now,
//!     berserkable: true,
//!     streakable: true,
//!     rated: true,
//!     variant: "standard".into(),
//!     conditions: ConditionsDraft::default(),
//!     has_chat: true,
//! }
//! .validate(now)
//! .expect("a plain 3+0 hour");
//!
//! // Two wins light the fire: the third counts 4, berserk adds 1.
//! let win = ArenaGame {
//!     outcome: Outcome::Win,
//!     plies: 50,
//!     berserk: false,
//!     colour: Colour::White,
//!     opponent_rating: 1500,
//! };
//! let games = [win, win, ArenaGame { berserk: true, ..win }];
//! let sheet = Sheet::build(&games, arena.streakable());
//! assert_eq!(sheet.scores_string(), "522");
//! assert_eq!(sheet.total(), 9);
//! assert_eq!(performance(&games), Some(2000));
//!
//! // A wave over four waiting players, 30 s into the Arena.
//! let later = now.after(std::time::Duration::from_secs(30));
//! let waiting: Vec<WaitingPlayer<&str>> = ["ann", "bob", "cy", "di"]
//!     .into_iter()
//!     .zip(1..)
//!     .map(|(id, rank)| WaitingPlayer {
//!         id,
//!         rank: NonZeroU32::new(rank).unwrap(),
//!         rating: 1500,
//!         colours: ColourHistory::EMPTY,
//!         last_opponent: None,
//!         waiting_since: now,
//!     })
//!     .collect();
//! let context = WaveContext {
//!     recently_started: schedule::recently_started(&arena, later),
//!     active_players: 4,
//! };
//! let pairs = pair_wave(&waiting, context, &mut StdRng::seed_from_u64(1));
//! assert_eq!(pairs.len(), 2);
//! assert!(!schedule::pairing_closed(&arena, later));
//! ```

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
