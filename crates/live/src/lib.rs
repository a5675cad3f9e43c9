//! Live games: one tokio task (actor) per game in memory, owning its
//! [`plyyard_game::Game`], and the [`Hub`] that finds, loads and unloads them;
//! where games come from.
//! Everyone else reaches them through one door, [`Games`]: a typed method
//! for each thing a caller may ask of a game, and the entry points that
//! create games; the actors' mailbox ([`cmd`]) is private. This crate
//! knows no HTTP.
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
//! Where each rule lives, from the top down (a module uses only modules
//! below it; none uses `actor`):
//! - `actor`: the actor's loop, what each command does, and the one
//!   function that commits every change;
//! - `follow`: following a game's events ([`Follow`]: subscribe, catch
//!   up, in order and once, subscribe again after a gap or a new actor),
//!   the loop of every socket and stream;
//! - `games`: the door ([`Games`]): a typed method per ask, routed by the
//!   registry, and the entry points of `start`;
//! - `start`: where new games come from (computer games, table games,
//!   rematches) and the one constructor of a new game's row;
//! - `hub`: the registry and what the live games share ([`LiveDeps`]) —
//!   loading a game once, running its actor, and
//!   unloading or forgetting it by how the actor's run ended; it is handed
//!   the function that spawns actors ([`registry`]) and names none;
//! - `computer`: the computer's searches;
//! - `game`: a live game as data, what clients see of it, and what players
//!   ask for as pure steps that return the next game;
//! - `table`: table games — clocks, deadlines, presence, away claims,
//!   rematch offers, ratings shown — as pure steps on the table's state;
//! - `cmd`: the mailbox protocol between the registry, the actor and their
//!   callers;
//! - `feed`: the versioned events, their replay buffer and fan-out;
//! - `seat`: who sits where and how a seat is shown;
//! - `view`: how a game is written for clients (colours, times,
//!   destinations, PGN names);
//! - `tuning`: the live games' tunables;
//! - `lifecycle`: games starting and ending, announced to listeners across
//!   all games (the API's event streams);
//! - `node`: a node's tasks in a cluster (serving forwarded commands,
//!   hearing the bus, renewing leases, sweeping, draining);
//! - `cluster`: several nodes — leases, forwarding to a game's owner,
//!   relaying its events; `relay` (other nodes' events fanned out here)
//!   serves it;
//! - `ask`: what a game is asked and answers ([`Action`] and the asks it
//!   makes), and the envelope of a command sent to another node: every
//!   message of live games that crosses nodes, serialisable as written;
//! - `metrics`: the counters the server exports.
//!
//! The computer's engines, shared fairly between clients, are
//! `plyyard_engine_time`'s.
//!
//! Stored games (ids, the rows a change writes, rebuilding a game from its
//! rows) are `plyyard_store::replay`'s.

mod actor;
mod ask;
pub mod cluster;
mod cmd;
mod computer;
mod feed;
mod follow;
mod game;
mod games;
mod hub;
pub mod lifecycle;
pub mod metrics;
pub mod node;
mod relay;
mod seat;
mod start;
mod table;
mod takeback;
mod tuning;
pub mod tv;
pub mod tv_board;
mod view;

#[cfg(test)]
mod flag_tests;
#[cfg(test)]
mod hub_tests;

pub use ask::Action;
pub use cmd::Subscription;
pub use feed::{CatchUp, Event};
pub use follow::{Follow, Update};
pub use games::Games;
pub use hub::{Hub, LiveDeps};
pub use seat::{Seat, Seats, seat_name};
pub use start::PairedGame;
pub use tuning::{AWAY_CLAIM, FIRST_MOVE, IDLE_UNLOAD, LiveTuning};
pub use view::{color_name, rfc3339};

/// The registry of live games, handed the function that spawns their
/// actors.
pub fn registry() -> Hub {
    Hub::new(actor::spawn)
}
