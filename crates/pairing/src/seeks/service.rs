//! The seekers and their games: [`Seeks::seek`] puts a seek in the store
//! and hands back a [`SeekHandle`] that answers once paired and cancels
//! the seek when dropped (the request holding it ended, the client left);
//! a pair found by the store (at once, or by the periodic [`Seeks::sweep`])
//! becomes one table game with both seats taken, and both seekers get the
//! same answer.
//!
//! Pairing is atomic: the store hands each seek out in at most one pair.
//! Before the game is made, both seekers must still be there (the store
//! claims them both, or neither); if one left, the other's seek goes back
//! into the pool (keeping its waiting time) and no game is made. Games are
//! made on a task of their own, so a request that ends half-way never
//! leaves half a pairing.
//!
//! In a cluster ([`Seeks::clustered`]) the node that found a pair makes
//! its game, and each seeker hears the answer on the node holding its
//! request: directly on this node, through the bus's `seeks:<node>` topic
//! on another. Each node renews its waiting seekers in the store every few
//! seconds, so the seeks of a node that died leave the pool.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use plyyard_game::RuleSet;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::memory::{MemorySeeks, SeekStore};
use super::redis::RENEW_EVERY;
use crate::pool::{Pair, PoolKey, Seek, SeekId};
use crate::seek_json::{PairedJson, SeekJson};
use crate::tables::new_code;
use plyyard_cluster::topics::seeks_of;
use plyyard_live::Games;
use plyyard_store::{TableRow, TableStatus, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode};

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
    /// The seeker's address (quick pairing pairs two seekers of one
    /// address last).
    pub address: String,
}

/// The quick-pairing service: the store of seeks and the seekers waiting
/// on this server.
#[derive(Debug)]
pub struct Seeks<S: SeekStore = MemorySeeks> {
    store: S,
    waiters: Mutex<HashMap<SeekId, oneshot::Sender<Answer>>>,
    live: Games,
    /// This node's id (empty for a node alone).
    node: String,
    /// The bus to the other nodes, in a cluster.
    bus: Option<Arc<plyyard_cluster::Bus>>,
}

/// An answer for a seeker on another node, on its `seeks:<node>` topic.
#[derive(Debug, Serialize, Deserialize)]
struct Notice {
    /// The seek.
    id: u64,
    /// Its game …
    paired: Option<PairedNotice>,
    /// … or why there is none.
    ended: Option<String>,
}

/// [`PairedJson`] on the bus.
#[derive(Debug, Serialize, Deserialize)]
struct PairedNotice {
    game_id: String,
    code: String,
    white: bool,
}

/// Where the answer for a seeker on another node is kept.
fn answer_key(id: SeekId) -> String {
    format!("seek:answer:{}", id.0)
}

/// How long such an answer is kept.
const ANSWER_KEPT_MS: u64 = 60_000;

impl<S: SeekStore> Seeks<S> {
    /// The service of a node alone over `store`, starting games with `live`.
    pub fn new(store: S, live: Games) -> Seeks<S> {
        Seeks {
            store,
            waiters: Mutex::new(HashMap::new()),
            live,
            node: String::new(),
            bus: None,
        }
    }

    /// The service of a node of a cluster over the cluster's `store`:
    /// it hears the answers for its seekers on `bus` and renews them.
    pub fn clustered(store: S, live: Games, bus: &Arc<plyyard_cluster::Bus>) -> Arc<Seeks<S>> {
        let seeks = Arc::new(Seeks {
            store,
            waiters: Mutex::new(HashMap::new()),
            live,
            node: bus.node().to_owned(),
            bus: Some(Arc::clone(bus)),
        });
        let me = Arc::downgrade(&seeks);
        plyyard_social::outbox::listen(bus, &seeks_of(bus.node()), move |payload| {
            let Some(seeks) = me.upgrade() else {
                return false;
            };
            match serde_json::from_slice::<Notice>(&payload) {
                Ok(n) => seeks.answer(SeekId(n.id), answer_of(n)),
                Err(e) => tracing::warn!("seeks: an unreadable answer was dropped: {e}"),
            }
            true
        });
        tokio::spawn(renew(Arc::downgrade(&seeks)));
        tokio::spawn(catch_up(Arc::downgrade(&seeks), bus.resubscribed()));
        seeks
    }

    /// Hands this node's seekers the answers kept for them (those sent
    /// while the bus was cut off).
    async fn answers_kept(&self) {
        let Some(bus) = &self.bus else { return };
        let ids: Vec<SeekId> = self.waiters().keys().copied().collect();
        if ids.is_empty() {
            return;
        }
        let keys: Vec<String> = ids.iter().map(|id| answer_key(*id)).collect();
        let mut conn = bus.conn();
        let kept: redis::RedisResult<Vec<Option<Vec<u8>>>> =
            redis::cmd("MGET").arg(&keys).query_async(&mut conn).await;
        match kept {
            Ok(kept) => {
                for payload in kept.into_iter().flatten() {
                    if let Ok(n) = serde_json::from_slice::<Notice>(&payload) {
                        self.answer(SeekId(n.id), answer_of(n));
                    }
                }
            }
            Err(e) => tracing::warn!("seeks: kept answers cannot be read: {e}"),
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
        let id = self.store.new_id();
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
            node: self.node.clone(),
            address: seeker.address,
        };
        self.store.hold(&seek).await;
        let added = self.store.add(seek, now_ms()).await;
        if let Some(old) = added.replaced {
            self.tell(&old, Err(ended("replaced by a newer seek")))
                .await;
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
                self.tell(&seek, Err(ended("the seek was cancelled"))).await;
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

    /// Whether `seek`'s seeker waits on this node.
    fn is_mine(&self, seek: &Seek) -> bool {
        seek.node == self.node
    }

    /// Whether `seek`'s seeker is still there, as far as this node knows
    /// (the store claims the seekers of other nodes).
    fn still_here(&self, seek: &Seek) -> bool {
        !self.is_mine(seek) || self.waiters().get(&seek.id).is_some_and(|t| !t.is_closed())
    }

    /// Sends `answer` to `seek`'s seeker, on whichever node waits for it.
    async fn tell(&self, seek: &Seek, answer: Answer) {
        if self.is_mine(seek) {
            self.answer(seek.id, answer);
            return;
        }
        let Some(bus) = &self.bus else { return };
        let notice = match answer {
            Ok(p) => Notice {
                id: seek.id.0,
                paired: Some(PairedNotice {
                    game_id: p.game_id,
                    code: p.code,
                    white: p.color == "white",
                }),
                ended: None,
            },
            Err(e) => Notice {
                id: seek.id.0,
                paired: None,
                ended: Some(e.message),
            },
        };
        let payload = serde_json::to_vec(&notice).unwrap_or_default();
        // Kept a minute too, for a node that misses the message (see
        // `catch_up`).
        let mut conn = bus.conn();
        let kept: redis::RedisResult<()> = redis::cmd("SET")
            .arg(answer_key(seek.id))
            .arg(&payload)
            .arg("PX")
            .arg(ANSWER_KEPT_MS)
            .query_async(&mut conn)
            .await;
        if let Err(e) = kept {
            tracing::warn!("seeks: an answer was not kept: {e}");
        }
        match bus.publish(&seeks_of(&seek.node), &payload).await {
            Ok(0) => tracing::warn!(node = %seek.node, "seeks: a seeker's node is gone"),
            Ok(_) => {}
            Err(e) => tracing::warn!(node = %seek.node, "seeks: an answer was not sent: {e}"),
        }
    }

    /// Makes the game of `pair` and tells both seekers; or, if a seeker
    /// left meanwhile, puts the other's seek back (it may pair again).
    async fn settle(self: Arc<Self>, pair: Pair) {
        let mut next = Some(pair);
        while let Some(Pair(a, b)) = next.take() {
            let (here_a, here_b) = (self.still_here(&a), self.still_here(&b));
            let (wait_a, wait_b) = if here_a && here_b {
                self.store.claim(&a, &b).await
            } else {
                (true, true)
            };
            if !(here_a && here_b && wait_a && wait_b) {
                for (seek, back) in [(a, here_a && wait_a), (b, here_b && wait_b)] {
                    if back {
                        let added = self.store.add(seek, now_ms()).await;
                        if let Some(old) = added.replaced {
                            self.tell(&old, Err(ended("replaced by a newer seek")))
                                .await;
                        }
                        if let Some(p) = added.paired {
                            next = Some(p);
                        }
                    }
                }
                continue;
            }
            match self.start_game(&a, &b).await {
                Ok(game) => {
                    let for_player = |p: &str| PairedJson {
                        game_id: game.game_id.clone(),
                        code: game.code.clone(),
                        url: format!("/t/{}", game.code),
                        color: if game.white == p { "white" } else { "black" },
                    };
                    self.tell(&a, Ok(for_player(&a.player))).await;
                    self.tell(&b, Ok(for_player(&b.player))).await;
                    tracing::info!(game = %game.game_id, table = %game.code, "seeks paired");
                }
                Err(e) => {
                    tracing::warn!("cannot start a paired game: {}", e.message);
                    self.tell(&a, Err(e.clone())).await;
                    self.tell(&b, Err(e)).await;
                }
            }
        }
    }

    /// The table game of `a` (host) and `b`, on a fresh code.
    async fn start_game(&self, a: &Seek, b: &Seek) -> Result<plyyard_live::PairedGame, ApiError> {
        let now = now_ms();
        for attempt in 1..=CODE_ATTEMPTS {
            let table = TableRow {
                code: new_code(),
                host: a.player.clone(),
                guest: Some(b.player.clone()),
                variant: a.key.variant,
                base_s: a.key.minutes * 60,
                increment_s: a.key.increment,
                rules: RuleSet::default(),
                rated: a.key.rated,
                public: false,
                status: TableStatus::Playing,
                game_id: None,
                created_at: now,
                expires_at: now,
            };
            match self.live.start_paired_game(&table).await {
                Err(e) if e.code == ErrorCode::Conflict && attempt < CODE_ATTEMPTS => {}
                done => return done,
            }
        }
        Err(ApiError::internal("no free table code"))
    }
}

/// The answer a [`Notice`] carries.
fn answer_of(n: Notice) -> Answer {
    match (n.paired, n.ended) {
        (Some(p), _) => Ok(PairedJson {
            url: format!("/t/{}", p.code),
            game_id: p.game_id,
            code: p.code,
            color: if p.white { "white" } else { "black" },
        }),
        (None, why) => Err(ended(why.as_deref().unwrap_or("the seek ended"))),
    }
}

/// Renews this node's waiting seekers in the store every [`RENEW_EVERY`],
/// until the service is gone.
async fn renew<S: SeekStore>(seeks: Weak<Seeks<S>>) {
    let mut every = tokio::time::interval(RENEW_EVERY);
    loop {
        every.tick().await;
        let Some(seeks) = seeks.upgrade() else { return };
        let ids: Vec<SeekId> = seeks.waiters().keys().copied().collect();
        seeks.store.keep(&ids).await;
    }
}

/// Reads the kept answers each time the bus came back after a loss,
/// until the service is gone.
async fn catch_up<S: SeekStore>(
    seeks: Weak<Seeks<S>>,
    mut resubscribed: tokio::sync::watch::Receiver<u64>,
) {
    while resubscribed.changed().await.is_ok() {
        let Some(seeks) = seeks.upgrade() else { return };
        seeks.answers_kept().await;
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
