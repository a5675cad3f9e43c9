//! Live games: one tokio task (actor) per game in memory, owning its
//! [`game::Game`], and the [`Hub`] that finds, loads and unloads them.
//!
//! Every change goes through the actor's mailbox, so a game sees one command
//! at a time. A change is tried on a copy of the game, committed to the
//! database, and only then made current, numbered (`v`), kept in a short
//! replay buffer and broadcast to the game's sockets; the caller's reply
//! (the socket's `ack`) comes last. A failed commit leaves the game as it was.
//!
//! Actors are loaded on demand from the database and stop after a spell with
//! no sockets, no commands and no search running.
//!
//! Where each rule lives:
//! - `hub`: the registry — loading a game once, unloading it, and sending
//!   it commands;
//! - `actor`: the actor's loop and its commands, and the one function
//!   that commits every change;
//! - `seat`: who sits where and how a seat is shown;
//! - `computer`: games against the computer — creating them and the
//!   engine's searches;
//! - `feed`: the versioned events, their replay buffer and fan-out;
//! - `view`: what clients see of a game (state, destinations, PGN);
//! - `table`: table games — clocks, deadlines, presence, draw offers,
//!   abort, claims against an away player, rematches, ratings;
//! - `replay`: stored games — ids, rows written for a change, and
//!   rebuilding a game from its rows.

mod actor;
mod computer;
mod feed;
mod hub;
mod replay;
mod seat;
mod table;
mod view;

pub use actor::Cmd;
pub use computer::create_computer_game;
pub use feed::{CatchUp, Event, Subscription};
pub use hub::{Handle, Hub, handle, notify, request};
pub(crate) use replay::summary_of;
pub use seat::{Seat, Seats, refresh_seats, seat_name};
pub use table::{AWAY_CLAIM, FIRST_MOVE, start_table_game};
pub use view::{color_name, rfc3339};
