//! Arena tournaments at run time, over the pure rules of `plyyard-arena`:
//! an Arena is created with validated settings, players join (entry
//! conditions, club membership, once, up to [`MAX_PLAYERS`]), pause and
//! rejoin (with lichess's pause penalties), its creator may terminate it,
//! and a director task, ticking every second, starts it at its time,
//! pairs waves of waiting players into ordinary live games (through
//! `plyyard-live`), scores every game that ends on the players' sheets,
//! stops pairing when pairing closes and finishes it at its end (games
//! still being played then finish normally and still count).
//!
//! - [`arena`]: an Arena as stored and as asked for ([`NewArena`]), its
//!   settings read back;
//! - [`scoring`]: from an Arena's games to each player's sheet, record and
//!   rank (the standings);
//! - [`service`]: [`Tournaments`], the door: every action with its checks;
//! - [`chat`]: an Arena's chat;
//! - [`berserk`]: a player halves their clock for a bonus point;
//! - [`director`]: the tick that starts, pairs, scores and finishes;
//! - [`swiss`], [`swiss_service`], [`swiss_director`]: Swiss tournaments
//!   (FIDE Dutch, by `plyyard-swiss`): the settings and rounds, the doors,
//!   and the tick that pairs rounds and finishes them;
//! - [`error`]: why an action is refused.
//!
//! In a cluster every node runs the director's task but only the holder
//! of the store's task lease directs (see [`director`]); the store's
//! compare-and-set writes keep a game from being scored twice, and it
//! refuses to pair anyone still playing a game of the tournament, so a
//! stale director cannot put a player in two games.
//!
//! The crate knows no HTTP and no SQL: the server's Lichess dialect maps
//! [`TournamentError`] to statuses and the views to lichess's JSON; all
//! SQL is `plyyard_store`'s.

pub mod arena;
pub mod berserk;
pub mod chat;
pub mod director;
pub mod error;
pub mod feed;
pub mod notices;
pub mod scoring;
pub mod service;
pub mod swiss;
pub mod swiss_director;
pub mod swiss_service;

pub use arena::{Arena, NewArena};
pub use error::TournamentError;
pub use scoring::PlayerStanding;
pub use service::{Lists, MAX_PLAYERS, Tournaments, TournamentsDeps};
pub use swiss::{Swiss, SwissSettings, SwissStanding, SwissState};
pub use swiss_service::{MAX_SWISS_PLAYERS, NewSwiss};

#[cfg(test)]
mod swiss_tests;
#[cfg(test)]
mod tests;
