//! The background task: walks the rated games in the order they were
//! rated, has each one reviewed (at low priority, unless a review is
//! stored already), judges both sides and stores the verdicts. In a
//! cluster only the holder of [`FAIR_PLAY_LEASE`] walks.
//!
//! The walk waits while this node is busy with live games (more than
//! [`WatchDeps::pause_above`] moves a second over the last minute): even
//! at the lowest CPU priority a review's search takes memory bandwidth,
//! caches and database writes from the games. It walks on from where it
//! stopped once the site is quiet again; no game is skipped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plyyard_engine_time::Reviews;
use plyyard_engine_time::reviews::Progress;
use plyyard_game::shakmaty::Color;
use plyyard_live::cluster::Cluster;
use plyyard_moderation::fairplay::{Side, Signal, Signals, verdict};
use plyyard_review::Review;
use plyyard_store::reviews::{self as review_store, replay};
use plyyard_store::{FairPlayRow, GameRow, MoveRow, Store, StoreError, now_ms};

use crate::report::Report;
use crate::sides::sides_of;

/// The task lease of the node that walks the rated games.
pub const FAIR_PLAY_LEASE: &str = "fair-play";
/// How long the lease lasts unless renewed (a review may take a while).
const LEASE_TTL: Duration = Duration::from_secs(120);
/// How often the walk looks for newly rated games.
const POLL: Duration = Duration::from_secs(2);
/// Games taken per look.
const BATCH: u32 = 8;
/// The walk starts this far before the latest judged game, for games
/// rated late on another node's clock.
const MARGIN_MS: i64 = 10 * 60 * 1000;
/// A game whose review failed this many times is stored without a
/// verdict, so that it no longer holds the walk.
const MAX_FAILURES: u32 = 3;
/// The judged games a report reads at most.
const REPORT_GAMES: u32 = 200;

/// What the watch needs.
#[derive(Debug, Clone)]
pub struct WatchDeps {
    /// The store.
    pub store: Store,
    /// The reviews' engines (the one engine-time queue).
    pub reviews: Arc<Reviews>,
    /// The cluster this node belongs to, if any.
    pub cluster: Option<Arc<Cluster>>,
    /// This node's live games' counters (their moves a second).
    pub metrics: Arc<plyyard_live::metrics::Metrics>,
    /// Above this many moves a second on this node, no review starts.
    pub pause_above: f64,
}

/// The fair-play watch.
#[derive(Debug, Clone)]
pub struct Watch {
    deps: WatchDeps,
    failures: Arc<Mutex<HashMap<String, u32>>>,
}

impl Watch {
    /// A watch over `deps`.
    pub fn new(deps: WatchDeps) -> Watch {
        Watch {
            deps,
            failures: Arc::default(),
        }
    }

    /// Runs the walk every [`POLL`] until aborted.
    pub fn spawn(&self) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(POLL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if !me.walking().await {
                    continue;
                }
                if let Err(e) = me.pass().await {
                    tracing::warn!("fair play: {e}");
                }
            }
        })
    }

    /// Whether this node walks: always alone; in a cluster while it holds
    /// the lease (never while it drains).
    async fn walking(&self) -> bool {
        let Some(cluster) = &self.deps.cluster else {
            return true;
        };
        if cluster.draining() {
            return false;
        }
        match self
            .deps
            .store
            .hold_task_lease(FAIR_PLAY_LEASE, cluster.node(), LEASE_TTL)
            .await
        {
            Ok(held) => held.is_some(),
            Err(e) => {
                tracing::warn!("fair play: {e}");
                false
            }
        }
    }

    /// Judges the next rated games not judged yet, at most [`BATCH`]; how
    /// many were stored.
    ///
    /// # Errors
    /// A store failure.
    pub async fn pass(&self) -> Result<usize, StoreError> {
        let store = &self.deps.store;
        if self.busy() {
            return Ok(0);
        }
        let since = (store.fair_play_reached().await? - MARGIN_MS).max(0);
        let mut stored = 0;
        for (id, rated_at) in store.games_to_assess(since, BATCH).await? {
            if self.busy() {
                break;
            }
            if self.judge(&id, rated_at).await? {
                stored += 1;
            }
        }
        Ok(stored)
    }

    /// Whether the live games keep this node too busy for a review now.
    fn busy(&self) -> bool {
        let rate = self.deps.metrics.moves_per_second();
        let busy = rate > self.deps.pause_above;
        if busy {
            tracing::debug!(
                moves_per_second = rate,
                "fair play waits: live games are busy"
            );
        }
        busy
    }

    /// Judges game `id`, rated at `rated_at`; `false` when its review
    /// failed (tried again on a later pass).
    async fn judge(&self, id: &str, rated_at: i64) -> Result<bool, StoreError> {
        let store = &self.deps.store;
        let Some((row, moves)) = store.load_game(id).await? else {
            return Ok(false);
        };
        let sides = if moves.len() < plyyard_moderation::fairplay::MIN_PLIES {
            None
        } else {
            match self.review(&row, &moves).await? {
                Ok(review) => Some(sides_of(&row, &moves, &review)),
                Err(e) if self.failed(id) < MAX_FAILURES => {
                    tracing::warn!(game = %id, "fair play: no review: {e}");
                    return Ok(false);
                }
                Err(e) => {
                    tracing::warn!(game = %id, "fair play: no review, left unjudged: {e}");
                    None
                }
            }
        };
        let rows = rows_of(&row, sides.as_ref(), rated_at);
        store.save_fair_play(&rows).await?;
        self.lock_failures().remove(id);
        for r in rows.iter().filter(|r| r.verdict.is_some()) {
            tracing::info!(game = %id, color = %r.color, verdict = ?r.verdict, signals = %r.signals, "fair play judged");
        }
        Ok(true)
    }

    fn lock_failures(&self) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts one more failure of game `id`'s review; the count.
    fn failed(&self, id: &str) -> u32 {
        let mut failures = self.lock_failures();
        let n = failures.entry(id.to_owned()).or_default();
        *n += 1;
        *n
    }

    /// The game's review: the stored one, or one made now in the
    /// background.
    async fn review(
        &self,
        row: &GameRow,
        moves: &[MoveRow],
    ) -> Result<Result<Review, String>, StoreError> {
        let store = &self.deps.store;
        let reviews = &self.deps.reviews;
        let format = reviews.reviewer().format();
        let stored = review_store::review(store, &row.id).await?;
        if stored.as_ref().is_none_or(|s| s.format != format) {
            let game = match replay(row, moves) {
                Ok(g) => g,
                Err(e) => return Ok(Err(e)),
            };
            match reviews.review_in_background(store, &row.id, game).await {
                Progress::Done => {}
                Progress::Failed { message } => return Ok(Err(message)),
                other => return Ok(Err(format!("review ended {other:?}"))),
            }
        }
        let Some(stored) = review_store::review(store, &row.id).await? else {
            return Ok(Err("the review was not stored".into()));
        };
        Ok(serde_json::from_str(&stored.analysis).map_err(|e| e.to_string()))
    }
}

/// The fair-play report of the account of player `player_id`, from its
/// latest judged games.
///
/// # Errors
/// A store failure.
pub async fn report(store: &Store, player_id: &str) -> Result<Report, StoreError> {
    let rated = store.rated_game_count(player_id).await?;
    let rows = store.fair_play_of(player_id, REPORT_GAMES).await?;
    Ok(Report::of(rated, &rows))
}

/// The stored rows of game `row`'s two players: judged from `sides`, or
/// without a verdict when there are none.
fn rows_of(
    row: &GameRow,
    sides: Option<&plyyard_game::shakmaty::ByColor<Side>>,
    rated_at: i64,
) -> Vec<FairPlayRow> {
    let speed = row.table.as_ref().map(|t| t.control.speed());
    let now = now_ms();
    [Color::White, Color::Black]
        .into_iter()
        .filter_map(|color| {
            let player = match color {
                Color::White => row.white_player.clone(),
                Color::Black => row.black_player.clone(),
            }?;
            let side = sides.map(|s| s.get(color));
            let signals = side.and_then(Signals::of);
            let judged = side
                .zip(signals)
                .map(|(side, s)| (verdict(&s, side.won), s));
            let won = side.is_some_and(|s| s.won);
            Some(FairPlayRow {
                game_id: row.id.clone(),
                color: if color.is_white() { "white" } else { "black" }.to_owned(),
                player_id: player,
                speed,
                verdict: judged.map(|(v, _)| v.key().to_owned()),
                signals: judged.map_or_else(String::new, |(_, s)| keys(&s)),
                acpl: side.filter(|s| !s.losses.is_empty()).map(|s| {
                    let sum: u64 = s.losses.iter().map(|&l| u64::from(l)).sum();
                    i64::try_from(sum / s.losses.len() as u64).unwrap_or(i64::MAX)
                }),
                won,
                rated_at,
                created_at: now,
            })
        })
        .collect()
}

/// The keys of the signals raised, separated by spaces.
fn keys(s: &Signals) -> String {
    s.raised()
        .into_iter()
        .map(Signal::key)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_engine_time::reviews::library;
    use plyyard_game::{GameResult, Speed};
    use plyyard_live::metrics::Metrics;

    const WHITE: &str = "wwwwwwwwwwwwwwwwwwwwww";
    const BLACK: &str = "bbbbbbbbbbbbbbbbbbbbbb";

    /// A rated game with no move (too short to review: judged at once).
    async fn rated_game(store: &Store, id: &str) {
        plyyard_store::testing::table_game(store, id, WHITE, BLACK, true).await;
        store
            .apply_rated_result(id, WHITE, BLACK, Speed::Blitz, GameResult::Draw, now_ms())
            .await
            .unwrap();
    }

    /// No review starts while the live games commit more moves a second
    /// than the watch allows; the game is judged once they calm down.
    #[tokio::test]
    async fn the_walk_waits_while_live_games_are_busy() {
        for (_dir, store) in plyyard_store::testing::stores().await {
            rated_game(&store, "fairbusy").await;
            let metrics = Arc::new(Metrics::default());
            for _ in 0..10 {
                metrics.record_move();
            }
            let watch = |pause_above| {
                Watch::new(WatchDeps {
                    store: store.clone(),
                    reviews: Arc::new(Reviews::new(library(1_000), 1)),
                    cluster: None,
                    metrics: Arc::clone(&metrics),
                    pause_above,
                })
            };
            assert_eq!(watch(1.0).pass().await.unwrap(), 0, "busy: nothing judged");
            assert_eq!(watch(1_000.0).pass().await.unwrap(), 1, "quiet: judged");
            assert_eq!(watch(1_000.0).pass().await.unwrap(), 0, "judged once");
        }
    }
}
