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
//! - [`error`]: why an action is refused.
//!
//! One node runs the director: with several nodes each would run one and
//! the store's compare-and-set writes keep a game from being scored twice,
//! but two nodes could pair the same waiting players; a lease for the
//! director is not done yet.
//!
//! The crate knows no HTTP and no SQL: the server's Lichess dialect maps
//! [`TournamentError`] to statuses and the views to lichess's JSON; all
//! SQL is `plyyard_store`'s.

pub mod arena;
pub mod berserk;
pub mod chat;
pub mod director;
pub mod error;
pub mod scoring;
pub mod service;

pub use arena::{Arena, NewArena};
pub use error::TournamentError;
pub use scoring::PlayerStanding;
pub use service::{Lists, MAX_PLAYERS, Tournaments, TournamentsDeps};

#[cfg(test)]
mod tests;
