//! Clubs — lichess calls them teams: a page with a name and a
//! description, members and leaders, open (joined at once) or closed
//! (joined by a request that a leader accepts or declines), and a chat
//! for its members. Swiss tournaments are club events.
//!
//! - [`rules`]: what a name, a description and a request's message may
//!   be, and a club's id made from its name;
//! - [`error`]: why a club action is refused;
//! - [`service`]: [`Clubs`], every club action with its checks, over the
//!   store (all SQL is `plyyard_store`'s).
//!
//! The crate knows no HTTP: the server's Lichess dialect maps
//! [`ClubError`] to statuses and the rows to lichess's JSON.

pub mod error;
pub mod rules;
pub mod service;

pub use error::ClubError;
pub use service::{ClubPage, ClubView, Clubs, Joined, PAGE_SIZE};

#[cfg(test)]
mod tests;
