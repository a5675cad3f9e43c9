//! Where the waiting seeks are kept: the [`SeekStore`] trait, small enough
//! for a store shared by several servers to take over (the Redis one:
//! [`super::redis::RedisSeeks`]), and [`MemorySeeks`], the pool of this
//! process behind one lock.
//!
//! A store also tells the lobby of every seek that starts or stops
//! waiting, in the order the pool changed (so a socket never sees a seek
//! come back after it left): the in-process store publishes while it
//! holds its lock.

use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::lobby::{Lobby, LobbyMsg};
use crate::pool::{Added, Pair, Pool, Seek, SeekId};
use crate::seek_json::SeekJson;

/// The waiting seeks. Each call changes the pool atomically: a seek is
/// paired, removed or replaced once, whoever calls at the same time.
pub trait SeekStore: Send + Sync + 'static {
    /// A number for a new seek, unique among the seeks of the store.
    fn new_id(&self) -> SeekId;
    /// Notes that `seek`'s seeker waits for an answer (before it is added).
    fn hold(&self, _seek: &Seek) -> impl Future<Output = ()> + Send {
        async {}
    }
    /// Renews the seekers of `ids`, still waiting on this node.
    fn keep(&self, _ids: &[SeekId]) -> impl Future<Output = ()> + Send {
        async {}
    }
    /// Claims the two seekers of a pair for their game: whether each one
    /// still waits; both are claimed (and no longer wait) only when both
    /// do. A store of one process has its seekers' handles at hand: it
    /// answers yes, and the service looks at the handles.
    fn claim(&self, _a: &Seek, _b: &Seek) -> impl Future<Output = (bool, bool)> + Send {
        async { (true, true) }
    }
    /// Adds `seek` (replacing its player's previous one) and pairs it at
    /// once if it can (see [`Pool::add`]).
    fn add(&self, seek: Seek, now: i64) -> impl Future<Output = Added> + Send;
    /// Takes seek `id` out; `None` if it no longer waits (paired, gone).
    fn remove(&self, id: SeekId) -> impl Future<Output = Option<Seek>> + Send;
    /// Takes `player`'s waiting seek out, if any.
    fn remove_player(&self, player: &str) -> impl Future<Output = Option<Seek>> + Send;
    /// Pairs what the ranges widened by `now` allow (see [`Pool::sweep`]).
    fn sweep(&self, now: i64) -> impl Future<Output = Vec<Pair>> + Send;
    /// Every waiting seek, oldest first.
    fn waiting(&self) -> impl Future<Output = Vec<Seek>> + Send;
}

/// The seeks of this process.
#[derive(Debug)]
pub struct MemorySeeks {
    pool: Mutex<Pool>,
    lobby: Lobby,
    next: AtomicU64,
}

impl MemorySeeks {
    /// An empty pool whose changes go to `lobby`.
    pub fn new(lobby: Lobby) -> MemorySeeks {
        MemorySeeks {
            pool: Mutex::new(Pool::default()),
            lobby,
            next: AtomicU64::new(1),
        }
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Pool> {
        // A panic while holding the lock leaves the pool consistent (each
        // step mutates last), so a poisoned lock is still usable.
        self.pool
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn gone(&self, seek: &Seek) {
        self.lobby.publish(&LobbyMsg::SeekRemove { id: seek.id.0 });
    }
}

impl SeekStore for MemorySeeks {
    fn new_id(&self) -> SeekId {
        SeekId(self.next.fetch_add(1, Ordering::Relaxed))
    }

    async fn add(&self, seek: Seek, now: i64) -> Added {
        let mut pool = self.pool();
        let json = SeekJson::from(&seek);
        let added = pool.add(seek, now);
        if let Some(old) = &added.replaced {
            self.gone(old);
        }
        match &added.paired {
            // The new seek never waited: only its partner leaves the lobby.
            Some(Pair(a, b)) => {
                let partner = if a.id.0 == json.id { b } else { a };
                self.gone(partner);
            }
            None => self.lobby.publish(&LobbyMsg::SeekAdd {
                seek: Box::new(json),
            }),
        }
        added
    }

    async fn remove(&self, id: SeekId) -> Option<Seek> {
        let mut pool = self.pool();
        let seek = pool.remove(id)?;
        self.gone(&seek);
        Some(seek)
    }

    async fn remove_player(&self, player: &str) -> Option<Seek> {
        let mut pool = self.pool();
        let seek = pool.remove_player(player)?;
        self.gone(&seek);
        Some(seek)
    }

    async fn sweep(&self, now: i64) -> Vec<Pair> {
        let mut pool = self.pool();
        let pairs = pool.sweep(now);
        for Pair(a, b) in &pairs {
            self.gone(a);
            self.gone(b);
        }
        pairs
    }

    async fn waiting(&self) -> Vec<Seek> {
        self.pool().waiting()
    }
}
