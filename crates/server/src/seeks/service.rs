//! The seekers and their games: [`Seeks::seek`] puts a seek in the store
//! and hands back a [`SeekHandle`] that answers once paired and cancels
//! the seek when dropped (the request holding it ended, the client left);
//! a pair found by the store (at once, or by the periodic [`Seeks::sweep`])
//! becomes one table game with both seats taken, and both seekers get the
//! same answer.
//!
//! Pairing is atomic: the store hands each seek out in at most one pair.
//! Before the game is made, both seekers must still be there; if one left,
//! the other's seek goes back into the pool (keeping its waiting time) and
//! no game is made. Games are made on a task of their own, so a request
//! that ends half-way never leaves half a pairing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::game::RuleSet;
use tokio::sync::oneshot;

use super::pool::{Pair, PoolKey, Seek, SeekId};
use super::store::{MemorySeeks, SeekStore};
use super::wire::{PairedJson, SeekJson};
use crate::error::{ApiError, ErrorCode};
use crate::tables::new_code;
use live::LiveDeps;
use plyyard_store::{TableRow, TableStatus, now_ms};

/// How often waiting seeks are matched again as their ranges widen.
pub const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// Seeks listed in the lobby's first message at most (later ones come
/// as they are added).
pub const LOBBY_SEEKS: usize = 500;

/// Attempts at a free table code for a paired game.
const CODE_ATTEMPTS: usize = 5;

/// What a seeker is waiting to hear: their game, or why there is none.
type Answer = Result<PairedJson, ApiError>;

/// Who seeks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seeker {
    /// Player id.
    pub player: String,
    /// Name shown in the lobby.
    pub name: String,
    /// Rating at the seek's speed (display points).
    pub rating: i64,
    /// Whether that rating is provisional.
    pub provisional: bool,
}

/// The quick-pairing service: the store of seeks and the seekers waiting
/// on this server.
#[derive(Debug)]
pub struct Seeks<S: SeekStore = MemorySeeks> {
    store: S,
    waiters: Mutex<HashMap<SeekId, oneshot::Sender<Answer>>>,
    next: AtomicU64,
    live: Arc<LiveDeps>,
}

impl<S: SeekStore> Seeks<S> {
    /// The service over `store`, starting games with `live`.
    pub fn new(store: S, live: Arc<LiveDeps>) -> Seeks<S> {
        Seeks {
            store,
            waiters: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            live,
        }
    }

    fn waiters(&self) -> std::sync::MutexGuard<'_, HashMap<SeekId, oneshot::Sender<Answer>>> {
        self.waiters
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Seeks a game of `key` for `seeker`, replacing the seeker's previous
    /// seek (whose request then answers `conflict`). The handle answers
    /// once paired; dropping it cancels the seek.
    pub async fn seek(self: &Arc<Self>, seeker: Seeker, key: PoolKey) -> SeekHandle<S> {
        let id = SeekId(self.next.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        self.waiters().insert(id, tx);
        let handle = SeekHandle {
            id,
            seeks: Arc::clone(self),
            answer: rx,
            answered: false,
        };
        let seek = Seek {
            id,
            player: seeker.player,
            name: seeker.name,
            rating: seeker.rating,
            provisional: seeker.provisional,
            key,
            since: now_ms(),
        };
        let added = self.store.add(seek, now_ms()).await;
        if let Some(old) = added.replaced {
            self.answer(old.id, Err(ended("replaced by a newer seek")));
        }
        if let Some(pair) = added.paired {
            self.settle_later(pair);
        }
        handle
    }

    /// Cancels `player`'s waiting seek; `false` if none waits (it may have
    /// been paired already: its request then answers with the game).
    pub async fn cancel_player(&self, player: &str) -> bool {
        match self.store.remove_player(player).await {
            Some(seek) => {
                self.answer(seek.id, Err(ended("the seek was cancelled")));
                true
            }
            None => false,
        }
    }

    /// Every waiting seek, oldest first.
    pub async fn waiting(&self) -> Vec<Seek> {
        self.store.waiting().await
    }

    /// The lobby's JSON of the waiting seeks, the [`LOBBY_SEEKS`] oldest.
    pub async fn lobby_json(&self) -> Vec<SeekJson> {
        self.waiting()
            .await
            .iter()
            .take(LOBBY_SEEKS)
            .map(SeekJson::from)
            .collect()
    }

    /// Pairs the seeks whose ranges widened enough; returns how many pairs
    /// were found (their games are made on tasks of their own).
    pub async fn sweep(self: &Arc<Self>) -> usize {
        let pairs = self.store.sweep(now_ms()).await;
        let n = pairs.len();
        for pair in pairs {
            self.settle_later(pair);
        }
        n
    }

    fn answer(&self, id: SeekId, answer: Answer) {
        if let Some(tx) = self.waiters().remove(&id) {
            let _ = tx.send(answer);
        }
    }

    fn settle_later(self: &Arc<Self>, pair: Pair) {
        let me = Arc::clone(self);
        tokio::spawn(async move { me.settle(pair).await });
    }

    /// Makes the game of `pair` and tells both seekers; or, if a seeker
    /// left meanwhile, puts the other's seek back (it may pair again).
    async fn settle(self: Arc<Self>, pair: Pair) {
        let mut next = Some(pair);
        while let Some(Pair(a, b)) = next.take() {
            let (ta, tb) = {
                let mut w = self.waiters();
                (w.remove(&a.id), w.remove(&b.id))
            };
            let here =
                |t: &Option<oneshot::Sender<Answer>>| t.as_ref().is_some_and(|t| !t.is_closed());
            if !(here(&ta) && here(&tb)) {
                for (seek, tx) in [(a, ta), (b, tb)] {
                    if let Some(tx) = tx.filter(|t| !t.is_closed()) {
                        self.waiters().insert(seek.id, tx);
                        let added = self.store.add(seek, now_ms()).await;
                        if let Some(old) = added.replaced {
                            self.answer(old.id, Err(ended("replaced by a newer seek")));
                        }
                        if let Some(p) = added.paired {
                            next = Some(p);
                        }
                    }
                }
                continue;
            }
            let (Some(ta), Some(tb)) = (ta, tb) else {
                continue;
            };
            match self.start_game(&a, &b).await {
                Ok(game) => {
                    let for_player = |p: &str| PairedJson {
                        game_id: game.game_id.clone(),
                        code: game.code.clone(),
                        url: format!("/t/{}", game.code),
                        color: if game.white == p { "white" } else { "black" },
                    };
                    let _ = ta.send(Ok(for_player(&a.player)));
                    let _ = tb.send(Ok(for_player(&b.player)));
                    tracing::info!(game = %game.game_id, table = %game.code, "seeks paired");
                }
                Err(e) => {
                    tracing::warn!("cannot start a paired game: {}", e.message);
                    let _ = ta.send(Err(e.clone()));
                    let _ = tb.send(Err(e));
                }
            }
        }
    }

    /// The table game of `a` (host) and `b`, on a fresh code.
    async fn start_game(&self, a: &Seek, b: &Seek) -> Result<live::PairedGame, ApiError> {
        let now = now_ms();
        for attempt in 1..=CODE_ATTEMPTS {
            let table = TableRow {
                code: new_code(),
                host: a.player.clone(),
                guest: Some(b.player.clone()),
                variant: a.key.variant,
                minutes: a.key.minutes,
                increment_s: a.key.increment,
                rules: RuleSet::default(),
                rated: a.key.rated,
                public: false,
                status: TableStatus::Playing,
                game_id: None,
                created_at: now,
                expires_at: now,
            };
            match live::start_paired_game(&self.live, &table).await {
                Err(e) if e.code == ErrorCode::Conflict && attempt < CODE_ATTEMPTS => {}
                done => return done,
            }
        }
        Err(ApiError::internal("no free table code"))
    }
}

/// The error a seek's request answers when it ended without a game.
fn ended(why: &str) -> ApiError {
    ApiError::new(ErrorCode::Conflict, why.to_owned())
}

/// A seek waiting in the pool: [`SeekHandle::paired`] answers once it is
/// paired, and dropping the handle first cancels it (out of the pool and
/// off the lobby).
#[derive(Debug)]
pub struct SeekHandle<S: SeekStore = MemorySeeks> {
    id: SeekId,
    seeks: Arc<Seeks<S>>,
    answer: oneshot::Receiver<Answer>,
    answered: bool,
}

impl<S: SeekStore> SeekHandle<S> {
    /// The seek's number.
    pub fn id(&self) -> SeekId {
        self.id
    }

    /// Waits for the game.
    ///
    /// # Errors
    /// `conflict` when the seek was cancelled or replaced by the same
    /// player; the failure to make the game, if it failed.
    pub async fn paired(&mut self) -> Answer {
        match (&mut self.answer).await {
            Ok(answer) => {
                self.answered = true;
                answer
            }
            Err(_) => Err(ended("the seek ended")),
        }
    }
}

impl<S: SeekStore> Drop for SeekHandle<S> {
    fn drop(&mut self) {
        self.seeks.waiters().remove(&self.id);
        if self.answered {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let seeks = Arc::clone(&self.seeks);
        let id = self.id;
        rt.spawn(async move {
            seeks.store.remove(id).await;
        });
    }
}
