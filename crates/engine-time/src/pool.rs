//! The computer player's engines: searches on a bounded pool of blocking
//! threads, shared fairly between clients.
//!
//! A [`Fair`] semaphore caps the searches running at once and serves the
//! waiting ones round-robin by client (address, and account when logged
//! in: both are charged), so one client's many games never push another
//! client's reply back by more than one search per worker. One client runs
//! at most half the workers (rounded up) at once and has at most
//! [`CLIENT_QUEUE`] searches waiting; more are refused with [`Busy`] (a live
//! game keeps its computer move and asks again later, `/api/positions/reply`
//! answers `429`). Each search gets its level's time budget and a stop
//! flag, so a game that takes its move back cancels its search. Engines
//! (with their hash tables) are reused between searches.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use plyyard_game::shakmaty::{Chess, Move};

use crate::fair::{Busy, Fair, Permit, Requester, Shares};

/// Searches one client (each of its keys) may have waiting for a worker.
pub const CLIENT_QUEUE: usize = 4;
/// Searches waiting in all; more are refused.
pub const QUEUE: usize = 1024;

/// The computer's reply never comes sooner than this after the player's
/// move (every level below Expert, which uses its whole budget anyway), so
/// it does not land before the player's own move has finished animating.
/// Scaled by the pool's think factor like the levels' budgets.
pub const MIN_REPLY: Duration = Duration::from_millis(350);

/// What the computer is asked to think about.
#[derive(Debug, Clone)]
pub struct ThinkRequest {
    /// The game's starting position.
    pub start: Chess,
    /// The moves played since.
    pub moves: Vec<Move>,
    /// The strength to play at.
    pub level: plyyard_engine::Level,
    /// Seed of the level's deliberate imprecision.
    pub seed: u64,
    /// The computer's clock, in a game played with one: the search keeps
    /// within it as well as within the level's time.
    pub clock: Option<plyyard_engine::Clock>,
}

/// Below this much time on its clock, the computer answers as soon as it
/// has searched, without the [`MIN_REPLY`] pause.
pub const NO_PAUSE_BELOW: Duration = Duration::from_secs(20);

/// How busy a pool is, for the metrics (`plyyard_engine_queue`,
/// `plyyard_engine_running`).
#[derive(Debug, Default)]
pub struct PoolGauges {
    /// Searches waiting for a worker.
    pub queue: AtomicI64,
    /// Searches running.
    pub running: AtomicI64,
}

/// A bounded pool of engine workers.
pub struct EnginePool {
    fair: Arc<Fair<Requester>>,
    idle: Mutex<Vec<plyyard_engine::Engine>>,
    hash_mb: usize,
    think_factor: f64,
    gauges: Arc<PoolGauges>,
}

impl std::fmt::Debug for EnginePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnginePool")
            .field("fair", &self.fair)
            .field("hash_mb", &self.hash_mb)
            .finish()
    }
}

impl EnginePool {
    /// A pool running at most `workers` searches at once (half of them,
    /// rounded up, for one client), each engine with a hash table of
    /// `hash_mb` MiB and each level's time budget multiplied by
    /// `think_factor`.
    pub fn new(
        workers: usize,
        hash_mb: usize,
        think_factor: f64,
        gauges: Arc<PoolGauges>,
    ) -> EnginePool {
        EnginePool {
            fair: Arc::new(Fair::new(Shares::half(workers, CLIENT_QUEUE, QUEUE))),
            idle: Mutex::new(Vec::new()),
            hash_mb,
            think_factor: if think_factor.is_finite() && think_factor > 0.0 {
                think_factor
            } else {
                1.0
            },
            gauges,
        }
    }

    /// Searches for the computer's move for the client of `client` (see
    /// [`Fair::acquire`]) and holds it until [`MIN_REPLY`] has passed.
    /// `Ok(None)` if `stop` was set (the search was cancelled) or the
    /// position has no legal move.
    ///
    /// # Errors
    /// [`Busy`] when the client has [`CLIENT_QUEUE`] searches waiting
    /// already (or [`QUEUE`] are waiting in all).
    pub async fn think(
        self: &Arc<Self>,
        client: &[Requester],
        req: ThinkRequest,
        stop: Arc<AtomicBool>,
    ) -> Result<Option<Move>, Busy> {
        let started = Instant::now();
        let paced = req.level != plyyard_engine::Level::Expert
            && req.clock.is_none_or(|c| c.time >= NO_PAUSE_BELOW);
        let Some(best) = self.search(client, req, Arc::clone(&stop)).await? else {
            return Ok(None);
        };
        if paced {
            tokio::time::sleep_until((started + MIN_REPLY.mul_f64(self.think_factor)).into()).await;
        }
        Ok((!stop.load(Ordering::Relaxed)).then_some(best))
    }

    /// The engine's full-strength best line in `pos` within `limits` (taken
    /// as given, not scaled by the think factor), queued for a worker in
    /// the turn of the client of `client` like the computer's moves.
    /// `Ok(None)` if the position has no legal move.
    ///
    /// # Errors
    /// [`Busy`] as for [`EnginePool::think`].
    pub async fn analyse(
        self: &Arc<Self>,
        client: &[Requester],
        pos: Chess,
        limits: plyyard_engine::Limits,
    ) -> Result<Option<plyyard_engine::SearchResult>, Busy> {
        let _permit = self.acquire(client).await?;
        self.gauges.running.fetch_add(1, Ordering::Relaxed);
        let pool = Arc::clone(self);
        let result = tokio::task::spawn_blocking(move || {
            let mut engine = pool.take_engine();
            let stop = AtomicBool::new(false);
            let found = engine.search_with_info(&pos, &[], &limits, &stop, &mut |_| {});
            pool.put_engine(engine);
            found
        })
        .await;
        self.gauges.running.fetch_sub(1, Ordering::Relaxed);
        Ok(result
            .inspect_err(|e| tracing::error!("engine analysis failed: {e}"))
            .ok()
            .flatten())
    }

    /// A worker for `client`, counted as queued by the metrics meanwhile.
    async fn acquire(&self, client: &[Requester]) -> Result<Permit<Requester>, Busy> {
        self.gauges.queue.fetch_add(1, Ordering::Relaxed);
        let permit = self.fair.acquire(client).await;
        self.gauges.queue.fetch_sub(1, Ordering::Relaxed);
        permit
    }

    /// How the pool shares its workers, and how many searches run and
    /// wait now.
    pub fn load(&self) -> (Shares, usize, usize) {
        (self.fair.shares(), self.fair.running(), self.fair.waiting())
    }

    fn take_engine(&self) -> plyyard_engine::Engine {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| plyyard_engine::Engine::new(self.hash_mb))
    }

    fn put_engine(&self, engine: plyyard_engine::Engine) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
    }

    async fn search(
        self: &Arc<Self>,
        client: &[Requester],
        req: ThinkRequest,
        stop: Arc<AtomicBool>,
    ) -> Result<Option<Move>, Busy> {
        let _permit = self.acquire(client).await?;
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        self.gauges.running.fetch_add(1, Ordering::Relaxed);
        let pool = Arc::clone(self);
        let result = tokio::task::spawn_blocking(move || pool.search_blocking(&req, &stop)).await;
        self.gauges.running.fetch_sub(1, Ordering::Relaxed);
        Ok(match result {
            Ok(mv) => mv,
            Err(e) => {
                tracing::error!("engine search failed: {e}");
                None
            }
        })
    }

    fn search_blocking(&self, req: &ThinkRequest, stop: &AtomicBool) -> Option<Move> {
        let mut engine = self.take_engine();
        let limits = plyyard_engine::Limits {
            movetime: Some(req.level.think_time().mul_f64(self.think_factor)),
            clock: req.clock,
            ..plyyard_engine::Limits::default()
        };
        let found = engine.search(&req.start, &req.moves, &limits, req.level, req.seed, stop);
        self.put_engine(engine);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        found.map(|r| r.best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn client(n: u8) -> Vec<Requester> {
        vec![Requester::Ip(IpAddr::from([192, 0, 2, n]))]
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_clients_pile_of_searches_does_not_hold_up_another_client() {
        let pool = Arc::new(EnginePool::new(2, 1, 1.0, Arc::new(PoolGauges::default())));
        let limits = plyyard_engine::Limits {
            movetime: Some(Duration::from_millis(150)),
            ..plyyard_engine::Limits::default()
        };
        let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut pile = Vec::new();
        for _ in 0..30 {
            let (pool, limits, done) = (Arc::clone(&pool), limits.clone(), Arc::clone(&done));
            pile.push(tokio::spawn(async move {
                let found = pool.analyse(&client(1), Chess::default(), limits).await;
                if matches!(found, Ok(Some(_))) {
                    done.fetch_add(1, Ordering::SeqCst);
                }
                found.map(|f| f.is_some())
            }));
        }
        while pool.load().2 < CLIENT_QUEUE {
            tokio::task::yield_now().await;
        }
        let other = pool
            .analyse(&client(2), Chess::default(), limits.clone())
            .await;
        let before = done.load(Ordering::SeqCst);
        assert!(matches!(other, Ok(Some(_))));
        // Client 1 runs on one worker at most; client 2 took the other at
        // once, so at most the search running beside it ended first.
        assert!(before <= 1, "{before} of client 1's searches went first");
        let mut refused = 0;
        for p in pile {
            match p.await.unwrap() {
                Ok(found) => assert!(found),
                Err(Busy) => refused += 1,
            }
        }
        assert_eq!(refused, 30 - 1 - CLIENT_QUEUE, "the rest were refused");
        assert_eq!(pool.load().1, 0);
    }
}
