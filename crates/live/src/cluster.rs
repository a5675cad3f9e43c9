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
//! too, so every node's listeners hear every game.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::Bytes;
use cluster::inbox::{Inbox, Incoming};
use cluster::{Bus, BusError};
use tokio::sync::{broadcast, mpsc};

use crate::cmd::Cmd;
use crate::hub::{self, LiveDeps, Route};
use crate::lifecycle::LifeEvent;
use crate::relay::Relays;
use crate::remote::{Answer, Forward, RemoteError, rebuild, split};
use wire::error::{ApiError, ErrorCode};

/// A lease lasts this long unless renewed.
pub const LEASE_TTL: Duration = Duration::from_secs(10);
/// A node renews its leases this often.
pub const RENEW_EVERY: Duration = Duration::from_secs(3);
/// A node looks for games nobody owns this often.
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);
/// A forwarded command's answer must come within this long.
pub const FORWARD_WAIT: Duration = Duration::from_secs(5);
/// Topics the games' events are spread over.
pub const LANES: u64 = 16;
/// Orphaned games one sweep takes over at most.
const SWEEP_BATCH: u32 = 64;
/// The topic of lifecycle announcements.
const LIFE_TOPIC: &str = "life";

/// A frame to publish: its topic and bytes.
type Frame = (String, Vec<u8>);

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
}

/// This node's part in a cluster of nodes.
pub struct Cluster {
    bus: Arc<Bus>,
    inbox: Arc<Inbox>,
    incoming: Mutex<Option<mpsc::Receiver<Incoming>>>,
    pub(crate) relays: Relays,
    /// Where other nodes' games were last found.
    owners: Mutex<HashMap<String, String>>,
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

/// The topic of game `game`'s events.
fn lane(game: &str) -> String {
    let mut h = DefaultHasher::new();
    game.hash(&mut h);
    format!("game:{}", h.finish() % LANES)
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
        let mut frame = format!("E {game} {v}\n").into_bytes();
        frame.extend_from_slice(text.as_bytes());
        let _ = self.outgoing.send((lane(game), frame));
    }

    /// Tells every node that `game` has a new owner (or none): their relays
    /// of it close, so that its sockets subscribe again.
    pub(crate) fn publish_owner_changed(&self, game: &str) {
        let _ = self
            .outgoing
            .send((lane(game), format!("O {game}\n").into_bytes()));
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

    /// Sends `cmd` for `game` to node `node` and puts its answer in the
    /// command's reply channel.
    pub(crate) async fn forward(
        &self,
        node: &str,
        game: &str,
        cmd: Cmd,
    ) -> Result<(), ForwardError> {
        let Ok((remote, waiting)) = split(cmd) else {
            return Err(ForwardError::NotOwner);
        };
        let joined =
            matches!(waiting, crate::remote::Waiting::Subscribe(_)).then(|| self.relays.join(game));
        let body = serde_json::to_vec(&Forward {
            game: game.to_owned(),
            cmd: remote,
        })
        .map_err(|e| ForwardError::Unavailable(e.to_string()))?;
        if matches!(waiting, crate::remote::Waiting::Nothing) {
            return self.inbox.notify(node, &body).await.map_err(bus_error);
        }
        let answer = self
            .inbox
            .request(node, &body, FORWARD_WAIT)
            .await
            .map_err(bus_error)?;
        let answer: Answer = serde_json::from_slice(&answer)
            .map_err(|e| ForwardError::Unavailable(format!("an unreadable answer: {e}")))?;
        if matches!(answer, Answer::NotOwner) {
            return Err(ForwardError::NotOwner);
        }
        waiting.deliver(answer, joined);
        Ok(())
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
            ForwardError::NotOwner | ForwardError::Gone => ApiError::new(
                ErrorCode::Conflict,
                format!("game {game}: its server changed meanwhile; try again"),
            ),
        }
    }
}

/// Starts this node's cluster tasks: serving forwarded commands, hearing
/// events and announcements, publishing, renewing leases and sweeping.
pub fn start(shared: &Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    if let Some(incoming) = lock(&c.incoming).take() {
        tokio::spawn(serve_forwarded(Arc::clone(shared), incoming));
    }
    if let Some(rx) = lock(&c.outgoing_rx).take() {
        tokio::spawn(publish(Arc::clone(&c.bus), rx));
    }
    for n in 0..LANES {
        let rx = c.bus.subscribe(&format!("game:{n}"));
        tokio::spawn(hear_lane(Arc::clone(&c), rx));
    }
    tokio::spawn(hear_life(Arc::clone(shared), c.bus.subscribe(LIFE_TOPIC)));
    tokio::spawn(catch_up_after_loss(Arc::clone(&c)));
    tokio::spawn(renew(Arc::clone(shared)));
    tokio::spawn(sweep(Arc::clone(shared)));
}

/// Answers the commands other nodes forward to this one, each in a task
/// of its own (a game's actor still takes them one at a time).
async fn serve_forwarded(shared: Arc<LiveDeps>, mut incoming: mpsc::Receiver<Incoming>) {
    while let Some(msg) = incoming.recv().await {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let answer = serve_one(&shared, &msg.body).await;
            if let Some(reply) = msg.reply {
                match serde_json::to_vec(&answer) {
                    Ok(body) => reply.answer(&body).await,
                    Err(e) => tracing::error!("cannot write an answer: {e}"),
                }
            }
        });
    }
}

async fn serve_one(shared: &Arc<LiveDeps>, body: &[u8]) -> Answer {
    let fwd: Forward = match serde_json::from_slice(body) {
        Ok(f) => f,
        Err(e) => {
            let error =
                RemoteError::from(ApiError::bad_request(format!("unreadable command: {e}")));
            return Answer::Failed { error };
        }
    };
    let draining = shared.cluster.as_ref().is_some_and(|c| c.draining());
    if draining {
        return Answer::NotOwner;
    }
    let handle = match hub::route(shared, &fwd.game).await {
        Ok(Route::Local(h)) => h,
        Ok(Route::Remote(_)) => return Answer::NotOwner,
        Err(e) => return Answer::Failed { error: e.into() },
    };
    shared
        .metrics
        .served_forwarded
        .fetch_add(1, Ordering::Relaxed);
    let (cmd, pending) = rebuild(fwd.cmd);
    if handle.tx.send(cmd).await.is_err() {
        return Answer::NotOwner;
    }
    pending.answer().await
}

/// Publishes the queued frames in order.
async fn publish(bus: Arc<Bus>, mut rx: mpsc::UnboundedReceiver<Frame>) {
    let mut warned: Option<Instant> = None;
    while let Some((topic, frame)) = rx.recv().await {
        // While Redis is down, frames are dropped at once rather than each
        // waiting out a timeout: other nodes catch up when it is back.
        if !bus.is_up() {
            continue;
        }
        if let Err(e) = bus.publish(&topic, &frame).await
            && warned.is_none_or(|t| t.elapsed() > Duration::from_secs(5))
        {
            warned = Some(Instant::now());
            tracing::warn!("bus: an event was not published ({e}); other nodes catch up");
        }
    }
}

/// Relays the events heard on one lane.
async fn hear_lane(c: Arc<Cluster>, mut rx: broadcast::Receiver<Bytes>) {
    loop {
        match rx.recv().await {
            Ok(frame) => on_lane_frame(&c, &frame),
            Err(broadcast::error::RecvError::Lagged(_)) => c.relays.close_all(),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

fn on_lane_frame(c: &Cluster, frame: &[u8]) {
    let Some(nl) = frame.iter().position(|&b| b == b'\n') else {
        return;
    };
    let Ok(head) = std::str::from_utf8(&frame[..nl]) else {
        return;
    };
    let mut parts = head.split(' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("E"), Some(game), Some(v)) => {
            let (Ok(v), Ok(text)) = (v.parse(), std::str::from_utf8(&frame[nl + 1..])) else {
                return;
            };
            c.relays.deliver(game, v, text);
        }
        (Some("O"), Some(game), None) => {
            c.relays.close(game);
            c.forget_owner(game);
        }
        _ => tracing::warn!("bus: an unreadable game frame"),
    }
}

/// Delivers the lifecycle announcements of every node to this node's
/// listeners.
async fn hear_life(shared: Arc<LiveDeps>, mut rx: broadcast::Receiver<Bytes>) {
    loop {
        let frame = match rx.recv().await {
            Ok(f) => f,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&frame) else {
            continue;
        };
        let name = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
        let Some(game) = name("game") else { continue };
        let started = v.get("started").and_then(serde_json::Value::as_bool);
        shared.life.announce(LifeEvent {
            game,
            kind: if started == Some(true) {
                crate::lifecycle::LifeKind::Started
            } else {
                crate::lifecycle::LifeKind::Ended
            },
            players: game::shakmaty::ByColor {
                white: name("white"),
                black: name("black"),
            },
        });
    }
}

/// After the bus lost messages, every relay closes so that its sockets
/// catch up from the games' owners.
async fn catch_up_after_loss(c: Arc<Cluster>) {
    let mut again = c.bus.resubscribed();
    while again.changed().await.is_ok() {
        c.relays.close_all();
        lock(&c.owners).clear();
    }
}

/// Renews this node's leases every [`RENEW_EVERY`]; stops the actors of
/// games whose lease was lost, and all of them when renewing failed for
/// longer than a lease lasts less one renewal (another node may own them).
async fn renew(shared: Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    let mut every = tokio::time::interval(RENEW_EVERY);
    let mut renewed = Instant::now();
    loop {
        every.tick().await;
        if c.draining() {
            return;
        }
        c.relays.prune();
        match shared.store.renew_leases(c.node(), LEASE_TTL).await {
            Ok(held) => {
                renewed = Instant::now();
                let held: std::collections::HashSet<String> = held.into_iter().collect();
                hub::release_where(&shared, |id| !held.contains(id)).await;
            }
            Err(e) => {
                tracing::warn!("cannot renew leases: {e}");
                if renewed.elapsed() > LEASE_TTL - RENEW_EVERY {
                    tracing::error!("leases not renewed in time: this node stops its games");
                    hub::release_where(&shared, |_| true).await;
                }
            }
        }
    }
}

/// Takes over, every [`SWEEP_EVERY`], table games still being played that
/// no node owns.
async fn sweep(shared: Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        if c.draining() {
            return;
        }
        let orphans = match shared.store.orphaned_games(SWEEP_BATCH).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("cannot look for orphaned games: {e}");
                continue;
            }
        };
        for id in orphans {
            match hub::route(&shared, &id).await {
                Ok(Route::Local(_)) => tracing::info!(game = %id, "took over an orphaned game"),
                Ok(Route::Remote(_)) => {}
                Err(e) => tracing::warn!(game = %id, "cannot take over: {}", e.message),
            }
        }
    }
}

/// Stops this node's part in the cluster: it takes no game any more,
/// stops its actors (each finishes the command in hand), gives up its
/// leases and tells the other nodes, so that its games move at once.
pub async fn drain(shared: &Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    c.draining.store(true, Ordering::Relaxed);
    hub::release_where(shared, |_| true).await;
    let until = Instant::now() + Duration::from_secs(3);
    while !shared.hub.is_empty() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    match shared.store.release_leases(c.node()).await {
        Ok(games) => {
            tracing::info!(games = games.len(), "leases given up");
            for game in &games {
                let frame = format!("O {game}\n");
                if let Err(e) = c.bus.publish(&lane(game), frame.as_bytes()).await {
                    tracing::warn!("cannot tell other nodes: {e}");
                    break;
                }
            }
        }
        Err(e) => tracing::warn!("cannot give up leases: {e}"),
    }
}
