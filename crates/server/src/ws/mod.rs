//! Websockets: the frames a session reads and writes, independent of the
//! transport ([`Incoming`], [`Outgoing`], [`close`] codes, in `frames`; the
//! [`FloodGuard`] of every socket, in `flood`), and the
//! sessions over them: a game's ([`game`]), the lobby's ([`lobby`]), a
//! feed's ([`feed`]: whole snapshots, such as a tournament's standings)
//! and the site socket of a logged-in account's pages ([`site`]);
//! [`bounded_socket`] sets every socket's limits.

pub mod feed;
mod flood;
mod frames;
pub mod game;
mod limits;
pub mod lobby;
pub mod site;

pub use flood::{FRAMES_PER_SEC, FloodGuard, MAX_STRIKES, Verdict};
pub use frames::{Incoming, MAX_FRAME_BYTES, Outgoing, close};
pub use game::run_session;
pub use limits::{bounded_socket, ended};
