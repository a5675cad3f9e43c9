//! The registry of live games ([`Hub`]): each game is loaded at most once,
//! found by id, and forgotten when its actor stops.
//!
//! The registry is handed the function that spawns actors and names no
//! actor itself: it runs each actor's [`Life`] in a task of its own and,
//! by how a run ended ([`Exit`]), forgets a stale actor or unloads an idle
//! one. Commands reach an actor through [`request`], which reloads the game
//! if the actor stopped in between, or [`notify`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{OnceCell, mpsc, oneshot};

use super::cmd::{Cmd, Exit, Handle, Life};
use super::game::LiveGame;
use super::seat::{imported_seats, seat_names};
use crate::engine_pool::EnginePool;
use crate::fair::Requester;
use crate::metrics::Metrics;
use crate::tuning::LiveTuning;
use plyyard_store::PlayerId;
use plyyard_store::replay::{rebuild, valid_game_id};
use plyyard_store::{GameKind, Store};
use wire::error::ApiError;

/// Makes the actor of a live game whose computer answers the client of
/// the given keys (by default, its human player): its mailbox and its life,
/// which the registry runs.
pub(super) type Spawn =
    fn(&Arc<LiveDeps>, LiveGame, Option<Vec<Requester>>) -> (mpsc::Sender<Cmd>, Box<dyn Life>);

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

    /// The handles of the games loaded now.
    fn handles(&self) -> Vec<Handle> {
        self.lock()
            .values()
            .filter_map(|slot| slot.get().cloned())
            .collect()
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

/// Starts the actor of `live` and the registry's task that runs it.
fn start(shared: &Arc<LiveDeps>, live: LiveGame, client: Option<Vec<Requester>>) -> Handle {
    let id = live.row.id.clone();
    let generation = shared.hub.generation.fetch_add(1, Ordering::Relaxed);
    let (tx, life) = (shared.hub.spawn)(shared, live, client);
    tokio::spawn(supervise(Arc::clone(shared), id, generation, life));
    Handle { tx, generation }
}

/// Runs the actor of game `id` (`generation`) until it is done: a stale
/// actor is forgotten, an idle one unloaded unless a command waits for it
/// (then it runs on).
async fn supervise(shared: Arc<LiveDeps>, id: String, generation: u64, mut life: Box<dyn Life>) {
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
    tracing::debug!(game = %id, "game unloaded");
}

/// Starts the actor of a game just created, whose computer answers the
/// client of `client`, and registers it (its id is fresh: nobody can have
/// asked for it yet).
pub(super) fn start_new(shared: &Arc<LiveDeps>, live: LiveGame, client: Vec<Requester>) {
    let id = live.row.id.clone();
    let handle = start(shared, live, Some(client));
    let _ = shared.hub.slot(&id).set(handle);
}

/// The handle of game `id`, loading it from the database if needed.
///
/// # Errors
/// `not_found` if there is no such game; `internal` if it cannot be loaded.
pub async fn handle(shared: &Arc<LiveDeps>, id: &str) -> Result<Handle, ApiError> {
    if !valid_game_id(id) {
        return Err(ApiError::no_game(id));
    }
    let slot = shared.hub.slot(id);
    let result = slot.get_or_try_init(|| load(shared, id)).await.cloned();
    if result.is_err() {
        shared.hub.forget(id, None);
    }
    result
}

/// Loads game `id` from the database and starts its actor.
async fn load(shared: &Arc<LiveDeps>, id: &str) -> Result<Handle, ApiError> {
    let Some((row, moves)) = shared.store.load_game(id).await? else {
        return Err(ApiError::no_game(id));
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
    let live = LiveGame::new(row, game, names, tags, &shared.tuning);
    Ok(start(shared, live, None))
}

/// Sends `cmd` to game `id` if it is loaded, without waiting; a game not
/// in memory has nobody to tell.
pub fn notify(shared: &LiveDeps, id: &str, cmd: Cmd) {
    let handle = shared
        .hub
        .lock()
        .get(id)
        .and_then(|slot| slot.get().cloned());
    let Some(h) = handle else { return };
    match h.tx.try_send(cmd) {
        Ok(()) => {}
        Err(mpsc::error::TrySendError::Full(_)) => {
            tracing::warn!(game = %id, "mailbox full: a notice was dropped");
        }
        // The actor stopped after the handle was read (it was unloaded, or
        // the process is exiting and its tasks are being dropped): a game
        // not running has nobody to tell, as when it is not loaded.
        Err(mpsc::error::TrySendError::Closed(_)) => {
            tracing::debug!(game = %id, "the game stopped: a notice was not needed");
        }
    }
}

/// Sends a command built by `make` to game `id` and waits for the answer,
/// reloading the game if its actor stopped in between.
///
/// # Errors
/// `not_found`, or `internal` if the actor failed.
pub async fn request<T>(
    shared: &Arc<LiveDeps>,
    id: &str,
    make: impl Fn(oneshot::Sender<T>) -> Cmd,
) -> Result<T, ApiError> {
    for _ in 0..3 {
        let h = handle(shared, id).await?;
        let (tx, rx) = oneshot::channel();
        if h.tx.send(make(tx)).await.is_ok()
            && let Ok(answer) = rx.await
        {
            return Ok(answer);
        }
        // The actor stopped (unloaded while the command was on its way):
        // the command was not applied; the game reloads from the database.
        shared.hub.forget(id, Some(h.generation));
    }
    Err(ApiError::internal(format!(
        "game {id}: actor keeps stopping"
    )))
}

/// Tells every loaded game that `player`'s seats now show who `player` is
/// (after an account was deleted, say); games not loaded read it when they
/// load.
pub async fn refresh_seats(shared: &LiveDeps, player: &PlayerId) {
    for h in shared.hub.handles() {
        let (reply, done) = oneshot::channel();
        let cmd = Cmd::Reseat {
            from: player.clone(),
            to: player.clone(),
            reply,
        };
        if h.tx.send(cmd).await.is_ok() {
            let _ = done.await;
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
        }
    }
}
