//! The TV board: the games in progress read from the store (so every node
//! of a cluster sees the same games), weighed as [`tv`](crate::tv) wants
//! them, and each channel's featured game, kept while it lasts. Read at
//! most once every [`FRESH`]: many viewers cost one query a second.

use std::time::{Duration, Instant};

use tokio::sync::Mutex;

use crate::tv::{Candidate, Channel, Tv};
use plyyard_game::Speed;
use plyyard_store::{GameKind, GameRow, Store, StoreError, now_ms};

/// How long a reading of the games in progress serves.
pub const FRESH: Duration = Duration::from_secs(1);
/// A game in progress that did not change for this long is not shown.
pub const ACTIVE_WITHIN_MS: i64 = 15 * 60 * 1000;
/// Games in progress read at most.
const READ_MAX: u32 = 500;

/// A game TV may show, with what it shows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnAir {
    /// How TV weighs it.
    pub candidate: Candidate,
    /// White's and Black's player ids (`None`: the computer's seat).
    pub players: [Option<String>; 2],
}

#[derive(Debug, Default)]
struct Inner {
    tv: Tv,
    read_at: Option<Instant>,
    /// The games in progress, heaviest first.
    games: Vec<OnAir>,
}

/// The TV board of a node.
#[derive(Debug)]
pub struct TvBoard {
    store: Store,
    inner: Mutex<Inner>,
}

impl TvBoard {
    /// A board reading `store`.
    pub fn new(store: Store) -> TvBoard {
        TvBoard {
            store,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The game `channel` features now, if any.
    ///
    /// # Errors
    /// The store failed.
    pub async fn featured(&self, channel: Channel) -> Result<Option<OnAir>, StoreError> {
        let inner = self.fresh().await?;
        let Some(id) = inner.tv.featured(channel) else {
            return Ok(None);
        };
        Ok(inner.games.iter().find(|g| g.candidate.id == id).cloned())
    }

    /// Every channel with a game, and its game.
    ///
    /// # Errors
    /// The store failed.
    pub async fn channels(&self) -> Result<Vec<(Channel, OnAir)>, StoreError> {
        let inner = self.fresh().await?;
        Ok(Channel::ALL
            .into_iter()
            .filter_map(|c| {
                let id = inner.tv.featured(c)?;
                let g = inner.games.iter().find(|g| g.candidate.id == id)?;
                Some((c, g.clone()))
            })
            .collect())
    }

    /// The `n` heaviest games in progress between people.
    ///
    /// # Errors
    /// The store failed.
    pub async fn in_progress(&self, n: usize) -> Result<Vec<OnAir>, StoreError> {
        let inner = self.fresh().await?;
        Ok(inner
            .games
            .iter()
            .filter(|g| !g.candidate.computer)
            .take(n)
            .cloned()
            .collect())
    }

    /// The state, read again from the store when older than [`FRESH`].
    async fn fresh(&self) -> Result<tokio::sync::MutexGuard<'_, Inner>, StoreError> {
        let mut inner = self.inner.lock().await;
        if inner.read_at.is_some_and(|t| t.elapsed() < FRESH) {
            return Ok(inner);
        }
        let rows = self
            .store
            .games_in_progress(now_ms() - ACTIVE_WITHIN_MS, READ_MAX)
            .await?;
        let mut games = self.weigh(&rows).await?;
        games.sort_by_key(|g| std::cmp::Reverse(g.candidate.weight()));
        let candidates: Vec<Candidate> = games.iter().map(|g| g.candidate.clone()).collect();
        inner.tv.update(&candidates);
        inner.games = games;
        inner.read_at = Some(Instant::now());
        Ok(inner)
    }

    /// The rows as TV weighs them: ratings at each game's speed, bots.
    async fn weigh(&self, rows: &[GameRow]) -> Result<Vec<OnAir>, StoreError> {
        let mut ids: Vec<&str> = rows
            .iter()
            .flat_map(|r| [r.white_player.as_deref(), r.black_player.as_deref()])
            .flatten()
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let ratings = self.store.ratings_of(&ids).await?;
        let bots = self.store.bots_among(&ids).await?;
        let accounts = self.store.seat_infos(&ids).await?;
        let rating_of = |player: &Option<String>, speed: Speed| -> Option<i64> {
            let p = player.as_ref().filter(|p| accounts.contains_key(*p))?;
            let r = ratings
                .get(&(p.clone(), speed))
                .copied()
                .unwrap_or_default();
            Some(plyyard_rating::display(r.glicko.rating))
        };
        Ok(rows
            .iter()
            .map(|r| {
                let control = r.control();
                let speed = control.map_or(Speed::Classical, plyyard_game::TimeControl::speed);
                let perf = plyyard_wire::lichess::perf_of_control(r.variant.as_str(), control);
                let players = [r.white_player.clone(), r.black_player.clone()];
                let computer = r.kind == GameKind::Computer;
                OnAir {
                    candidate: Candidate {
                        id: r.id.clone(),
                        perf,
                        ratings: [rating_of(&players[0], speed), rating_of(&players[1], speed)],
                        bot: players.iter().flatten().any(|p| bots.contains(p)),
                        computer,
                    },
                    players,
                }
            })
            .collect())
    }
}
