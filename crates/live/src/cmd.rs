//! The mailbox protocol of a game's actor: the commands it takes
//! ([`Cmd`]), the address they are sent to ([`Handle`]), what a socket
//! gets when it subscribes ([`Subscription`]), and how the registry runs an
//! actor ([`Life`]) and learns how its run ended ([`Exit`]).
//!
//! This module names no actor and no registry: both speak through it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use plyyard_game::Reason;
use plyyard_game::shakmaty::Move;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::feed::{CatchUp, Event};
use super::seat::Seats;
use crate::fair::Requester;
use plyyard_store::PlayerId;
use plyyard_wire::error::ApiError;
use plyyard_wire::protocol::GameState;

/// Commands waiting in a game's mailbox before senders wait.
pub(super) const MAILBOX: usize = 64;

/// A command to a game actor.
#[derive(Debug)]
pub enum Cmd {
    /// The state as `viewer` sees it.
    State {
        /// The viewer.
        viewer: Option<PlayerId>,
        /// Answer.
        reply: oneshot::Sender<GameState>,
    },
    /// Subscribe to events, catching up from version `since`.
    Subscribe {
        /// The client's version, if it has one.
        since: Option<u64>,
        /// Answer.
        reply: oneshot::Sender<Subscription>,
    },
    /// `player` plays `uci`.
    Move {
        /// Who asks.
        player: PlayerId,
        /// The move.
        uci: String,
        /// A draw offered with the move (table games).
        draw_offer: bool,
        /// The client's measured lag (table games).
        lag: Duration,
        /// The keys of the client that sent it (its address and account):
        /// the computer's reply is searched in that client's share of the
        /// engine pool.
        client: Vec<Requester>,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` accepts the opponent's draw offer (table games).
    AcceptDraw {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` calls the game off before both sides moved (table games).
    Abort {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` claims the win (or a draw) against an away opponent.
    ClaimAway {
        /// Who asks.
        player: PlayerId,
        /// The win, or a draw.
        win: bool,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` offers or accepts a rematch (table games).
    Rematch {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// A socket of `player` opened (`here`) or closed.
    Presence {
        /// Whose socket.
        player: PlayerId,
        /// Opened or closed.
        here: bool,
    },
    /// `player` takes back their last move and the computer's reply.
    Undo {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` resigns.
    Resign {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` claims a draw, optionally announcing a move.
    Claim {
        /// Who asks.
        player: PlayerId,
        /// What is claimed.
        reason: Reason,
        /// The move announced with the claim.
        uci: Option<String>,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// The game as PGN.
    Pgn {
        /// Answer.
        reply: oneshot::Sender<String>,
    },
    /// The seats of player `from` now belong to player `to` (an anonymous
    /// player logged in: their games moved to the account).
    Reseat {
        /// The former player id.
        from: PlayerId,
        /// The new player id.
        to: PlayerId,
        /// Done.
        reply: oneshot::Sender<()>,
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

/// The address of a live game actor.
#[derive(Debug, Clone)]
pub struct Handle {
    /// The actor's mailbox.
    pub(super) tx: mpsc::Sender<Cmd>,
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

    /// Whether a command waits in the mailbox.
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
