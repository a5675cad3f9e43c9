//! Live games over several nodes ([`Cluster`]): which node runs a game, how
//! the others reach it, and what happens when a node stops or dies.
//!
//! - **Ownership.** A node runs a game's actor only while it holds the
//!   game's lease in the database (`plyyard_store`'s leases: renewed every
//!   [`RENEW_EVERY`], lost after [`LEASE_TTL`], timed by the database's
//!   clock). Each taking raises the game's fencing epoch, which every write
//!   of the actor names: a node that lost its lease cannot write again.
//! - **Forwarding.** A command for a game another node owns travels to that
//!   node over the bus (`remote`'s format) and its answer comes back; an
//!   owner that no longer listens (it died) is waited out until its lease
//!   expires, and the game is taken over here.
//! - **Events.** The owner publishes each event of a game on one of
//!   [`LANES`] topics (chosen by the game's id, so a game's events keep
//!   their order); every node relays the games its sockets watch (`relay`).
//! - **Sweeping.** Every node takes over, now and then, the table games
//!   still being played that nobody owns, so that their clocks and
//!   deadlines run even when no one asks about them.
//! - **Stopping.** [`drain`] stops the node's actors, gives up its leases
//!   and tells the other nodes, so that its games move at once.
//!
//! The lifecycle announcements (games starting and ending) go over the bus
//! too, so every node's listeners hear every game. The node's tasks that
//! do all this (serving forwarded commands, hearing the lanes, renewing,
//! sweeping, draining) are `node`'s.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use plyyard_cluster::inbox::{Inbox, Incoming};
use plyyard_cluster::{Bus, BusError};
use tokio::sync::mpsc;

use crate::ask::{Answer, Ask, Forward, Reply, Unserved};
use crate::lifecycle::LifeEvent;
use crate::relay::Relays;
use plyyard_cluster::topics;
use plyyard_wire::error::{ApiError, ErrorCode};

/// A lease lasts this long unless renewed.
pub const LEASE_TTL: Duration = Duration::from_secs(6);
/// A node renews its leases this often.
pub const RENEW_EVERY: Duration = Duration::from_secs(2);
/// A node looks for games nobody owns this often.
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);
/// A forwarded command's answer must come within this long.
pub const FORWARD_WAIT: Duration = Duration::from_secs(5);
/// How many lanes carry the games' events.
pub const LANES: u64 = topics::GAME_LANES;
/// Orphaned games one sweep takes over at most.
pub(crate) const SWEEP_BATCH: u32 = 64;
/// Games starting and ending, and owners changed.
pub(crate) const LIFE_TOPIC: &str = topics::LIFE;

/// A frame to publish: its topic and bytes.
pub(crate) type Frame = (String, Vec<u8>);

/// Why a forwarded command did not get its answer.
#[derive(Debug)]
pub(crate) enum ForwardError {
    /// That node does not own the game (any more): ask where it is.
    NotOwner,
    /// That node is gone (nobody listens on its topic): the command was
    /// not delivered.
    Gone,
    /// No answer came in time: the command may or may not have been applied.
    NoAnswer,
    /// The bus is down.
    Unavailable(String),
    /// The owner could not serve the command (no such game, or it could
    /// not be loaded): the client's error.
    Failed(ApiError),
}

/// This node's part in a cluster of nodes.
pub struct Cluster {
    bus: Arc<Bus>,
    inbox: Arc<Inbox>,
    incoming: Mutex<Option<mpsc::Receiver<Incoming>>>,
    pub(crate) relays: Relays,
    /// Where other nodes' games were last found.
    owners: Mutex<HashMap<String, String>>,
    /// When other nodes' leases were last seen to run out.
    expiries: Mutex<HashMap<String, Instant>>,
    /// Frames to publish, in order, by the publisher task.
    outgoing: mpsc::UnboundedSender<Frame>,
    outgoing_rx: Mutex<Option<mpsc::UnboundedReceiver<Frame>>>,
    draining: AtomicBool,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.bus.node())
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The frame saying that `game` has a new owner (or none).
pub(crate) fn owner_changed(game: &str) -> Vec<u8> {
    plyyard_cluster::frame::build(&format!("O {game}"), b"")
}

/// The topic of game `game`'s events.
pub(crate) fn lane(game: &str) -> String {
    let mut h = DefaultHasher::new();
    game.hash(&mut h);
    topics::game_lane(h.finish() % LANES)
}

impl Cluster {
    /// This node's part in the cluster on `bus` (call it inside the
    /// runtime; [`start`] starts its tasks).
    pub fn new(bus: Arc<Bus>) -> Arc<Cluster> {
        let (inbox, incoming) = Inbox::start(&bus);
        let (outgoing, outgoing_rx) = mpsc::unbounded_channel();
        Arc::new(Cluster {
            bus,
            inbox,
            incoming: Mutex::new(Some(incoming)),
            relays: Relays::default(),
            owners: Mutex::default(),
            expiries: Mutex::default(),
            outgoing,
            outgoing_rx: Mutex::new(Some(outgoing_rx)),
            draining: AtomicBool::new(false),
        })
    }

    /// This node's id.
    pub fn node(&self) -> &str {
        self.bus.node()
    }

    /// Whether this node is stopping (it takes no game any more).
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// The bus.
    pub(crate) fn bus(&self) -> &Arc<Bus> {
        &self.bus
    }

    /// The commands forwarded to this node (once: the node's task takes them).
    pub(crate) fn take_incoming(&self) -> Option<mpsc::Receiver<Incoming>> {
        lock(&self.incoming).take()
    }

    /// The frames to publish (once: the publisher task takes them).
    pub(crate) fn take_outgoing(&self) -> Option<mpsc::UnboundedReceiver<Frame>> {
        lock(&self.outgoing_rx).take()
    }

    /// From now on this node takes no game.
    pub(crate) fn start_draining(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// Forgets where every other node's game was.
    pub(crate) fn forget_owners(&self) {
        lock(&self.owners).clear();
    }

    /// Another node's lease on `game` runs out in `left` at most.
    pub(crate) fn lease_left(&self, game: &str, left: Duration) {
        let mut expiries = lock(&self.expiries);
        if expiries.len() > 100_000 {
            expiries.clear();
        }
        expiries.insert(game.to_owned(), Instant::now() + left);
    }

    /// When another node's lease on `game` was last seen to run out.
    pub(crate) fn lease_expiry(&self, game: &str) -> Option<Instant> {
        lock(&self.expiries).get(game).copied()
    }

    pub(crate) fn owner_hint(&self, game: &str) -> Option<String> {
        lock(&self.owners).get(game).cloned()
    }

    pub(crate) fn set_owner(&self, game: &str, node: &str) {
        let mut owners = lock(&self.owners);
        if owners.len() > 100_000 {
            owners.clear();
        }
        owners.insert(game.to_owned(), node.to_owned());
    }

    pub(crate) fn forget_owner(&self, game: &str) {
        lock(&self.owners).remove(game);
    }

    /// Publishes event `v` of `game` (its text as sent to sockets).
    pub(crate) fn publish_event(&self, game: &str, v: u64, text: &str) {
        let frame = plyyard_cluster::frame::build(&format!("E {game} {v}"), text.as_bytes());
        let _ = self.outgoing.send((lane(game), frame));
    }

    /// Tells every node that `game` has a new owner (or none): their relays
    /// of it close, so that its sockets subscribe again.
    pub(crate) fn publish_owner_changed(&self, game: &str) {
        let _ = self.outgoing.send((lane(game), owner_changed(game)));
    }

    /// Publishes a lifecycle announcement for every node's listeners.
    pub(crate) fn publish_life(&self, event: &LifeEvent) {
        let body = serde_json::json!({
            "game": event.game,
            "started": event.kind == crate::lifecycle::LifeKind::Started,
            "white": event.players.white,
            "black": event.players.black,
        });
        let _ = self
            .outgoing
            .send((LIFE_TOPIC.to_owned(), body.to_string().into_bytes()));
    }

    /// Sends `ask` for `game` to node `node` and returns the game's reply
    /// (a notice's at once: nobody answers it). A subscription's events
    /// come from this node's relay of the game, joined before asking, so
    /// that nothing falls between the owner's answer and the first event
    /// heard.
    pub(crate) async fn forward(
        &self,
        node: &str,
        game: &str,
        ask: Ask,
    ) -> Result<Reply, ForwardError> {
        let joined = matches!(ask, Ask::Subscribe { .. }).then(|| self.relays.join(game));
        let notice = ask.is_notice();
        let body = serde_json::to_vec(&Forward {
            game: game.to_owned(),
            cmd: ask,
        })
        .map_err(|e| ForwardError::Unavailable(e.to_string()))?;
        if notice {
            self.inbox.notify(node, &body).await.map_err(bus_error)?;
            return Ok(Reply::Done);
        }
        let answer = self
            .inbox
            .request(node, &body, FORWARD_WAIT)
            .await
            .map_err(bus_error)?;
        let answer: Answer = serde_json::from_slice(&answer)
            .map_err(|e| ForwardError::Unavailable(format!("an unreadable answer: {e}")))?;
        match answer {
            Answer::Unserved(Unserved::NotOwner) => Err(ForwardError::NotOwner),
            Answer::Unserved(Unserved::Failed { error }) => Err(ForwardError::Failed(error)),
            Answer::Reply(Reply::Subscribed {
                catch_up, seats, ..
            }) => Ok(Reply::Subscribed {
                catch_up,
                seats,
                events: joined,
            }),
            Answer::Reply(reply) => Ok(reply),
        }
    }
}

fn bus_error(e: BusError) -> ForwardError {
    match e {
        BusError::NoListener(_) => ForwardError::Gone,
        BusError::Timeout(_) => ForwardError::NoAnswer,
        other => ForwardError::Unavailable(other.to_string()),
    }
}

impl ForwardError {
    /// The client's error when asking again is not safe or not possible.
    pub(crate) fn to_api(&self, game: &str) -> ApiError {
        match self {
            ForwardError::NoAnswer => ApiError::new(
                ErrorCode::Conflict,
                format!("game {game}: its server did not answer in time; reload the game"),
            ),
            ForwardError::Unavailable(why) => {
                tracing::warn!(game, "forwarding: {why}");
                ApiError::new(
                    ErrorCode::Unavailable,
                    "the game's server cannot be reached just now; try again in a few seconds",
                )
            }
            ForwardError::Failed(e) => e.clone(),
            ForwardError::NotOwner | ForwardError::Gone => ApiError::new(
                ErrorCode::Conflict,
                format!("game {game}: its server changed meanwhile; try again"),
            ),
        }
    }
}
