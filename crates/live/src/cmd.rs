//! The mailbox protocol of a game's actor: the commands it takes
//! ([`Cmd`]: a caller's [`Ask`] or its own reminders), the address they are
//! sent to ([`Handle`]), what a socket gets when it subscribes
//! ([`Subscription`]), and how the registry runs an actor ([`Life`]) and
//! learns how its run ended ([`Exit`]).
//!
//! This module names no actor and no registry: both speak through it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use plyyard_game::shakmaty::Move;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::feed::{CatchUp, Event};
use super::seat::Seats;
use crate::ask::{Ask, Reply};

/// Commands waiting in a game's mailbox before senders wait.
pub(super) const MAILBOX: usize = 64;

/// A command to a game actor: a caller's [`Ask`], answered on `reply`, or
/// one of the actor's own reminders.
#[derive(Debug)]
pub(crate) enum Cmd {
    /// What a caller asks; the answer goes to `reply` (dropped unanswered
    /// for a notice).
    Ask {
        /// The question or action.
        ask: Ask,
        /// Answer.
        reply: oneshot::Sender<Reply>,
    },
    /// A search finished (internal).
    EngineDone {
        /// Which search.
        token: u64,
        /// Its move, `None` if cancelled or failed.
        best: Option<Move>,
    },
    /// The engine pool refused search `token` (its client had as many
    /// searches waiting as it may): the game keeps its turn and asks again
    /// after a while (internal).
    EngineBusy {
        /// Which search.
        token: u64,
    },
    /// Start the computer's search again (internal, after a failed commit
    /// or a refused search).
    Retry,
    /// This node gave up or lost the game's lease: the actor stops at once,
    /// after the commands before this one (internal).
    Release,
}

/// What a new actor is reached by: its mailbox, bounded (a caller waits
/// while it is full), and its notices, which nobody waits for and which
/// must never be lost (a player's socket opening or closing: dropped, the
/// player was shown away while there, or there while away), so that they
/// queue without bound beside it, in order.
#[derive(Debug)]
pub(super) struct Mailbox {
    /// Commands.
    pub(super) tx: mpsc::Sender<Cmd>,
    /// Notices ([`Ask::is_notice`]).
    pub(super) notices: mpsc::UnboundedSender<Ask>,
}

/// The address of a live game actor.
#[derive(Debug, Clone)]
pub struct Handle {
    /// The actor's mailbox.
    pub(super) tx: mpsc::Sender<Cmd>,
    /// The actor's notices.
    pub(super) notices: mpsc::UnboundedSender<Ask>,
    /// Which actor of the game this is (a reloaded game gets a new one).
    pub(super) generation: u64,
}

/// A socket's subscription to a game.
#[derive(Debug)]
pub struct Subscription {
    /// What the client missed.
    pub catch_up: CatchUp,
    /// Events from now on.
    pub events: broadcast::Receiver<Arc<Event>>,
    /// Who plays the game.
    pub seats: Seats,
}

/// A game's actor as the registry runs it: served until it stops or falls
/// idle, and then, if the registry keeps it, served again.
pub(super) trait Life: Send + 'static {
    /// Serves the mailbox until the actor stops or falls idle; says which.
    fn run(self: Box<Self>) -> Pin<Box<dyn Future<Output = Exit> + Send>>;

    /// Whether a command or a notice waits for the actor.
    fn has_mail(&self) -> bool;
}

/// How an actor's run ended.
pub(super) enum Exit {
    /// Nothing ran and nothing came for a while: the registry unloads the
    /// actor (given back) unless a command waits for it.
    Idle(Box<dyn Life>),
    /// The database holds a newer version than the actor, or the node
    /// no longer owns the game: the registry forgets it, and the game
    /// reloads (or is found elsewhere) on its next command.
    Stale,
    /// Every sender is gone.
    Closed,
}
