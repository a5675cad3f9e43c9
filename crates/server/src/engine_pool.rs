//! The computer player: engine searches on a bounded pool of blocking
//! threads.
//!
//! A semaphore caps the searches running at once (the rest wait in a queue
//! counted by the metrics); each search gets its level's time budget and a
//! stop flag, so a game that takes its move back cancels its search.
//! Engines (with their hash tables) are reused between searches.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use game::shakmaty::{Chess, Move};
use tokio::sync::Semaphore;

use crate::metrics::Metrics;

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
    pub level: engine::Level,
    /// Seed of the level's deliberate imprecision.
    pub seed: u64,
}

/// A bounded pool of engine workers.
pub struct EnginePool {
    permits: Semaphore,
    idle: Mutex<Vec<engine::Engine>>,
    hash_mb: usize,
    think_factor: f64,
    metrics: Arc<Metrics>,
}

impl std::fmt::Debug for EnginePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnginePool")
            .field("available", &self.permits.available_permits())
            .field("hash_mb", &self.hash_mb)
            .finish()
    }
}

impl EnginePool {
    /// A pool running at most `workers` searches at once, each engine with a
    /// hash table of `hash_mb` MiB and each level's time budget multiplied
    /// by `think_factor`.
    pub fn new(
        workers: usize,
        hash_mb: usize,
        think_factor: f64,
        metrics: Arc<Metrics>,
    ) -> EnginePool {
        EnginePool {
            permits: Semaphore::new(workers.max(1)),
            idle: Mutex::new(Vec::new()),
            hash_mb,
            think_factor: if think_factor.is_finite() && think_factor > 0.0 {
                think_factor
            } else {
                1.0
            },
            metrics,
        }
    }

    /// Searches for the computer's move and holds it until [`MIN_REPLY`]
    /// has passed. Returns `None` if `stop` was set (the search was
    /// cancelled) or the position has no legal move.
    pub async fn think(self: &Arc<Self>, req: ThinkRequest, stop: Arc<AtomicBool>) -> Option<Move> {
        let started = Instant::now();
        let paced = req.level != engine::Level::Expert;
        let best = self.search(req, Arc::clone(&stop)).await?;
        if paced {
            tokio::time::sleep_until((started + MIN_REPLY.mul_f64(self.think_factor)).into()).await;
        }
        (!stop.load(Ordering::Relaxed)).then_some(best)
    }

    /// The engine's full-strength best line in `pos` within `limits` (taken
    /// as given, not scaled by the think factor), queued for a worker like
    /// the computer's moves. `None` if the position has no legal move.
    pub async fn analyse(
        self: &Arc<Self>,
        pos: Chess,
        limits: engine::Limits,
    ) -> Option<engine::SearchResult> {
        self.metrics.engine_queue.fetch_add(1, Ordering::Relaxed);
        let permit = self.permits.acquire().await;
        self.metrics.engine_queue.fetch_sub(1, Ordering::Relaxed);
        let _permit = permit.ok()?;
        self.metrics.engine_running.fetch_add(1, Ordering::Relaxed);
        let pool = Arc::clone(self);
        let result = tokio::task::spawn_blocking(move || {
            let mut engine = pool.take_engine();
            let stop = AtomicBool::new(false);
            let found = engine.search_with_info(&pos, &[], &limits, &stop, &mut |_| {});
            pool.put_engine(engine);
            found
        })
        .await;
        self.metrics.engine_running.fetch_sub(1, Ordering::Relaxed);
        result
            .inspect_err(|e| tracing::error!("engine analysis failed: {e}"))
            .ok()
            .flatten()
    }

    fn take_engine(&self) -> engine::Engine {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| engine::Engine::new(self.hash_mb))
    }

    fn put_engine(&self, engine: engine::Engine) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
    }

    async fn search(self: &Arc<Self>, req: ThinkRequest, stop: Arc<AtomicBool>) -> Option<Move> {
        self.metrics.engine_queue.fetch_add(1, Ordering::Relaxed);
        let permit = self.permits.acquire().await;
        self.metrics.engine_queue.fetch_sub(1, Ordering::Relaxed);
        let _permit = permit.ok()?;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        self.metrics.engine_running.fetch_add(1, Ordering::Relaxed);
        let pool = Arc::clone(self);
        let result = tokio::task::spawn_blocking(move || pool.search_blocking(&req, &stop)).await;
        self.metrics.engine_running.fetch_sub(1, Ordering::Relaxed);
        match result {
            Ok(mv) => mv,
            Err(e) => {
                tracing::error!("engine search failed: {e}");
                None
            }
        }
    }

    fn search_blocking(&self, req: &ThinkRequest, stop: &AtomicBool) -> Option<Move> {
        let mut engine = self.take_engine();
        let limits = engine::Limits {
            movetime: Some(req.level.think_time().mul_f64(self.think_factor)),
            ..engine::Limits::default()
        };
        let found = engine.search(&req.start, &req.moves, &limits, req.level, req.seed, stop);
        self.put_engine(engine);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        found.map(|r| r.best_move)
    }
}
