//! The registry of live games ([`Hub`]): each game is loaded at most once,
//! found by id, and forgotten when its actor stops.
//!
//! The registry is handed the function that spawns actors and names no
//! actor itself: it runs each actor's [`Life`] in a task of its own and,
//! by how a run ended ([`Exit`]), forgets a stale actor or unloads an idle
//! one. Asks reach an actor through [`request`], which reloads the game if
//! the actor stopped in between, or [`notify`]; `crate::games` is their
//! public door.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{OnceCell, oneshot};

use super::ask::{Ask, Reply};
use super::cmd::{Cmd, Exit, Handle, Life, Mailbox};
use super::game::LiveGame;
use super::seat::{imported_seats, seat_names};
use crate::cluster::{Cluster, ForwardError, LEASE_TTL};
use crate::metrics::Metrics;
use crate::tuning::LiveTuning;
use plyyard_engine_time::fair::Requester;
use plyyard_engine_time::pool::EnginePool;
use plyyard_store::PlayerId;
use plyyard_store::replay::{rebuild, valid_game_id};
use plyyard_store::{GameKind, Lease, Store};
use plyyard_wire::error::ApiError;

/// Makes the actor of a live game whose computer answers the client of
/// the given keys (by default, its human player): its mailbox and its life,
/// which the registry runs.
pub(super) type Spawn =
    fn(&Arc<LiveDeps>, LiveGame, Option<Vec<Requester>>) -> (Mailbox, Box<dyn Life>);

/// The registry of live games.
#[derive(Debug)]
pub struct Hub {
    live: Mutex<HashMap<String, Arc<OnceCell<Handle>>>>,
    generation: AtomicU64,
    spawn: Spawn,
}

impl Hub {
    /// An empty registry whose actors `spawn` makes.
    pub(super) fn new(spawn: Spawn) -> Hub {
        Hub {
            live: Mutex::default(),
            generation: AtomicU64::new(0),
            spawn,
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<OnceCell<Handle>>>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The slot of game `id`, empty until its actor is set.
    fn slot(&self, id: &str) -> Arc<OnceCell<Handle>> {
        Arc::clone(self.lock().entry(id.to_owned()).or_default())
    }

    /// Forgets game `id` if its slot is the actor of `generation` (or, with
    /// `None`, a slot whose loading failed).
    fn forget(&self, id: &str, generation: Option<u64>) {
        let mut live = self.lock();
        if let Some(slot) = live.get(id) {
            let ours = match (slot.get(), generation) {
                (Some(h), Some(g)) => h.generation == g,
                (None, None) => true,
                _ => false,
            };
            if ours {
                live.remove(id);
            }
        }
    }

    /// Forgets game `id`'s actor of `generation` unless `busy` says, under
    /// the registry's lock, that a command is waiting for it. Senders that
    /// still hold the handle then find it closed and load the game anew.
    fn unload(&self, id: &str, generation: u64, busy: impl FnOnce() -> bool) -> bool {
        let mut live = self.lock();
        if busy() {
            return false;
        }
        if let Some(slot) = live.get(id)
            && slot.get().is_some_and(|h| h.generation == generation)
        {
            live.remove(id);
        }
        true
    }

    /// The games loaded now and their handles.
    fn handles(&self) -> Vec<(String, Handle)> {
        self.lock()
            .iter()
            .filter_map(|(id, slot)| slot.get().map(|h| (id.clone(), h.clone())))
            .collect()
    }

    /// The handle of game `id` if its actor runs here now.
    pub(crate) fn loaded(&self, id: &str) -> Option<Handle> {
        self.lock().get(id).and_then(|slot| slot.get().cloned())
    }

    /// Number of games loaded.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game is loaded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a game's commands go: its actor here, or the node that owns it.
#[derive(Debug, Clone)]
pub(crate) enum Route {
    /// This node runs the game.
    Local(Handle),
    /// Another node owns it.
    Remote(String),
}

/// Why a game was not loaded here.
enum NotLoaded {
    /// Another node owns it.
    Elsewhere(String),
    /// It does not exist, or it cannot be loaded.
    Failed(ApiError),
}

impl From<ApiError> for NotLoaded {
    fn from(e: ApiError) -> NotLoaded {
        NotLoaded::Failed(e)
    }
}

impl From<plyyard_store::StoreError> for NotLoaded {
    fn from(e: plyyard_store::StoreError) -> NotLoaded {
        NotLoaded::Failed(e.into())
    }
}

/// Starts the actor of `live` and the registry's task that runs it.
fn start(shared: &Arc<LiveDeps>, live: LiveGame, client: Option<Vec<Requester>>) -> Handle {
    let id = live.row.id.clone();
    let epoch = live.epoch;
    let generation = shared.hub.generation.fetch_add(1, Ordering::Relaxed);
    let (Mailbox { tx, notices }, life) = (shared.hub.spawn)(shared, live, client);
    tokio::spawn(supervise(Arc::clone(shared), id, generation, epoch, life));
    Handle {
        tx,
        notices,
        generation,
    }
}

/// Runs the actor of game `id` (`generation`) until it is done: a stale
/// actor is forgotten, an idle one unloaded unless a command waits for it
/// (then it runs on). In a cluster, the game's lease is given up then.
async fn supervise(
    shared: Arc<LiveDeps>,
    id: String,
    generation: u64,
    epoch: Option<i64>,
    mut life: Box<dyn Life>,
) {
    loop {
        match life.run().await {
            Exit::Idle(back) => {
                if shared.hub.unload(&id, generation, || back.has_mail()) {
                    break;
                }
                life = back;
            }
            Exit::Stale => {
                shared.hub.forget(&id, Some(generation));
                break;
            }
            Exit::Closed => break,
        }
    }
    if let (Some(c), Some(epoch)) = (&shared.cluster, epoch) {
        match shared.store.release_lease(&id, c.node(), epoch).await {
            // A stopping node's games move at once: the other nodes' sockets
            // resubscribe, and the first to ask takes the game.
            Ok(()) if c.draining() => c.publish_owner_changed(&id),
            Ok(()) => {}
            Err(e) => tracing::warn!(game = %id, "cannot give up the lease: {e}"),
        }
    }
    tracing::debug!(game = %id, "game unloaded");
}

/// Starts the actor of a game just created, whose computer answers the
/// client of `client`, and registers it (its id is fresh: nobody can have
/// asked for it yet). In a cluster this node takes the game's lease first.
///
/// # Errors
/// `internal` if the lease cannot be taken.
pub(super) async fn start_new(
    shared: &Arc<LiveDeps>,
    mut live: LiveGame,
    client: Vec<Requester>,
) -> Result<(), ApiError> {
    let id = live.row.id.clone();
    if let Some(c) = &shared.cluster {
        match shared.store.acquire_lease(&id, c.node(), LEASE_TTL).await? {
            Lease::Held(epoch) => live.epoch = Some(epoch),
            other => return Err(ApiError::internal(format!("new game {id}: {other:?}"))),
        }
    }
    let handle = start(shared, live, Some(client));
    let _ = shared.hub.slot(&id).set(handle);
    Ok(())
}

/// Where game `id`'s commands go: its actor here (loading the game, and in
/// a cluster taking its lease, if nobody runs it), or its owner.
///
/// # Errors
/// `not_found` if there is no such game; `internal` if it cannot be loaded.
pub(crate) async fn route(shared: &Arc<LiveDeps>, id: &str) -> Result<Route, ApiError> {
    if !valid_game_id(id) {
        return Err(ApiError::no_game(id));
    }
    if let Some(h) = shared.hub.loaded(id) {
        return Ok(Route::Local(h));
    }
    if let Some(node) = shared.cluster.as_ref().and_then(|c| c.owner_hint(id)) {
        return Ok(Route::Remote(node));
    }
    let slot = shared.hub.slot(id);
    let loaded = slot.get_or_try_init(|| load(shared, id)).await.cloned();
    match loaded {
        Ok(h) => Ok(Route::Local(h)),
        Err(NotLoaded::Elsewhere(node)) => {
            shared.hub.forget(id, None);
            if let Some(c) = &shared.cluster
                && !node.is_empty()
            {
                c.set_owner(id, &node);
            }
            Ok(Route::Remote(node))
        }
        Err(NotLoaded::Failed(e)) => {
            shared.hub.forget(id, None);
            Err(e)
        }
    }
}

/// Loads game `id` from the database and starts its actor; in a cluster,
/// only once this node holds the game's lease.
async fn load(shared: &Arc<LiveDeps>, id: &str) -> Result<Handle, NotLoaded> {
    let epoch = match &shared.cluster {
        None => None,
        // A stopping node takes no game: it sends commands on to whoever
        // takes the game next.
        Some(c) if c.draining() => {
            let holder = shared.store.lease_holder(id).await?;
            let elsewhere = holder.filter(|n| n != c.node()).unwrap_or_default();
            return Err(NotLoaded::Elsewhere(elsewhere));
        }
        Some(c) => match shared.store.acquire_lease(id, c.node(), LEASE_TTL).await? {
            Lease::Held(epoch) => Some(epoch),
            Lease::Elsewhere(node, left) => {
                c.lease_left(id, left);
                return Err(NotLoaded::Elsewhere(node));
            }
            Lease::NoGame => return Err(ApiError::no_game(id).into()),
        },
    };
    let Some((row, moves)) = shared.store.load_game(id).await? else {
        return Err(ApiError::no_game(id).into());
    };
    shared.metrics.games_loaded.fetch_add(1, Ordering::Relaxed);
    let game = rebuild(&row, &moves).map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
    // An imported game's names and tags come from one read of its PGN's.
    let (names, tags) = if row.kind == GameKind::Imported {
        let info = plyyard_store::reviews::imported(&shared.store, id).await?;
        (imported_seats(info.as_ref()), info.map(|i| i.pgn_tags()))
    } else {
        (seat_names(&shared.store, &row).await?, None)
    };
    // A computer game searches in the share of the client it answered.
    let client = if row.kind == GameKind::Computer {
        super::computer::kept_client(&shared.store, id).await
    } else {
        None
    };
    let mut live = LiveGame::new(row, game, names, tags, &shared.tuning);
    live.epoch = epoch;
    if epoch.is_some() {
        shared.metrics.leases_taken.fetch_add(1, Ordering::Relaxed);
    }
    if let Some(c) = &shared.cluster {
        c.relays.close(id);
        c.forget_owner(id);
        c.publish_owner_changed(id);
    }
    Ok(start(shared, live, client))
}

/// Sends `ask` (a notice) to game `id` if it is loaded here, or to its
/// owner, without waiting; a game in nobody's memory has nobody to tell.
pub(crate) fn notify(shared: &Arc<LiveDeps>, id: &str, ask: Ask) {
    if let Some(h) = shared.hub.loaded(id) {
        // Queued beside the mailbox, never dropped when it is full. An
        // actor that stopped after the handle was read (unloaded, or the
        // process exiting) has nobody to tell, as when it is not loaded.
        if h.notices.send(ask).is_err() {
            tracing::debug!(game = %id, "the game stopped: a notice was not needed");
        }
        return;
    }
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    let Some(node) = c.owner_hint(id) else { return };
    let id = id.to_owned();
    tokio::spawn(async move {
        if let Err(e) = c.forward(&node, &id, ask).await {
            tracing::debug!(game = %id, "a notice was not forwarded: {e:?}");
        }
    });
}

/// How long a command waits for a game whose owner is gone to be taken
/// over (its lease to expire) before the client is told to try again.
const PATIENCE: Duration = Duration::from_secs(12);
/// The pause before asking again where a game is.
const ASK_AGAIN: Duration = Duration::from_millis(100);

/// Sends `ask` to game `id` and waits for the answer:
/// to its actor here (reloading the game if its actor stopped in between),
/// or, in a cluster, to the node that owns it. A command to an owner that
/// is gone waits until the game is taken over (here, once its lease has
/// expired) and goes there.
///
/// # Errors
/// `not_found`; `conflict` when the owner did not answer in time (the
/// command may have been applied: the client reloads); `unavailable` when
/// the bus is down; `internal` if the actor failed.
pub(crate) async fn request(shared: &Arc<LiveDeps>, id: &str, ask: Ask) -> Result<Reply, ApiError> {
    let until = Instant::now() + PATIENCE;
    let mut local_failures = 0;
    loop {
        match route(shared, id).await? {
            Route::Local(h) => {
                let (reply, rx) = oneshot::channel();
                let cmd = Cmd::Ask {
                    ask: ask.clone(),
                    reply,
                };
                if h.tx.send(cmd).await.is_ok()
                    && let Ok(answer) = rx.await
                {
                    return Ok(answer);
                }
                // The actor stopped (unloaded, or its lease lost, while the
                // command was on its way): the command was not applied.
                shared.hub.forget(id, Some(h.generation));
                local_failures += 1;
                if local_failures >= 3 && shared.cluster.is_none() {
                    return Err(ApiError::internal(format!(
                        "game {id}: actor keeps stopping"
                    )));
                }
            }
            Route::Remote(node) => {
                let Some(c) = shared.cluster.clone() else {
                    return Err(ApiError::internal("a remote game without a cluster"));
                };
                if !node.is_empty() {
                    shared.metrics.forwarded.fetch_add(1, Ordering::Relaxed);
                    match c.forward(&node, id, ask.clone()).await {
                        Ok(answer) => return Ok(answer),
                        Err(ForwardError::Failed(e)) => return Err(e),
                        Err(e @ (ForwardError::NoAnswer | ForwardError::Unavailable(_))) => {
                            c.forget_owner(id);
                            return Err(e.to_api(id));
                        }
                        Err(e @ (ForwardError::NotOwner | ForwardError::Gone)) => {
                            c.forget_owner(id);
                            if Instant::now() >= until {
                                return Err(e.to_api(id));
                            }
                            if matches!(e, ForwardError::Gone) {
                                // The owner died: its lease runs out at a
                                // known time; asking before then only loads
                                // the database (thousands of sockets wait
                                // at once when a node dies).
                                let wake = c.lease_expiry(id).unwrap_or_else(Instant::now);
                                let wake = wake.min(until) + jitter();
                                tokio::time::sleep_until(wake.into()).await;
                            }
                        }
                    }
                }
            }
        }
        if Instant::now() >= until {
            return Err(ApiError::new(
                plyyard_wire::error::ErrorCode::Conflict,
                format!("game {id}: no server could take it in time; try again"),
            ));
        }
        tokio::time::sleep(ASK_AGAIN).await;
    }
}

/// A pause of up to 200 ms, so that commands waiting for the same
/// takeover do not all ask at the same instant.
fn jitter() -> Duration {
    Duration::from_millis(rand::random_range(0..200))
}

/// Tells every loaded game that `player`'s seats now show who `player` is
/// (after an account was deleted, say); games not loaded read it when they
/// load.
pub(crate) async fn refresh_seats(shared: &LiveDeps, player: &PlayerId) {
    for (_, h) in shared.hub.handles() {
        let (reply, done) = oneshot::channel();
        let ask = Ask::Reseat {
            from: player.clone(),
            to: player.clone(),
        };
        let cmd = Cmd::Ask { ask, reply };
        if h.tx.send(cmd).await.is_ok() {
            let _ = done.await;
        }
    }
}

/// Stops the actors of the loaded games whose id `which` picks (this node
/// gave up or lost their leases).
pub(crate) async fn release_where(shared: &LiveDeps, which: impl Fn(&str) -> bool) {
    for (id, h) in shared.hub.handles() {
        if which(&id) {
            tracing::info!(game = %id, "this node no longer runs the game");
            let _ = h.tx.send(Cmd::Release).await;
        }
    }
}

/// Everything the live games share.
#[derive(Debug)]
pub struct LiveDeps {
    /// Storage: every commit of a live game goes there first.
    pub store: Store,
    /// The registry of live games.
    pub hub: Hub,
    /// The computer player's engines.
    pub engines: Arc<EnginePool>,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Tunables.
    pub tuning: LiveTuning,
    /// Games starting and ending, for listeners across all games.
    pub life: crate::lifecycle::Lifecycle,
    /// This node's part in a cluster (`None`: it runs alone).
    pub cluster: Option<Arc<Cluster>>,
}

impl LiveDeps {
    /// The live games' dependencies, with `hub` (an empty [`crate::registry`]).
    pub fn new(
        hub: Hub,
        store: Store,
        engines: Arc<EnginePool>,
        metrics: Arc<Metrics>,
        tuning: LiveTuning,
    ) -> LiveDeps {
        LiveDeps {
            store,
            hub,
            engines,
            metrics,
            tuning,
            life: crate::lifecycle::Lifecycle::default(),
            cluster: None,
        }
    }

    /// Announces a game starting or ending to the listeners of every node.
    pub fn announce(&self, event: crate::lifecycle::LifeEvent) {
        match &self.cluster {
            Some(c) => c.publish_life(&event),
            None => self.life.announce(event),
        }
    }
}
