//! [`Trainer`]: the door the server calls for everything about puzzles.

use std::io::Read;

use plyyard_puzzle::{Angle, Difficulty, RowError};
use plyyard_rating::Glicko2;
use plyyard_store::{PuzzleRoundRow, PuzzleRow, Store, StoreError};

use crate::choose;
use crate::import::{self, ImportFailure, ImportReport};
use crate::solve::{self, Round};

/// Puzzles one request may ask for at most (lichess's `nb` bound).
pub const MAX_BATCH: usize = 50;
/// Solutions one request may send at most.
pub const MAX_SOLUTIONS: usize = 100;
/// Rounds a replay looks through at most.
const REPLAY_ROUNDS: u32 = 10_000;

/// The puzzles a player may replay ([`Trainer::replay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// Puzzles failed at the first attempt in the period.
    pub nb: usize,
    /// Those not played again since, the latest first.
    pub remaining: Vec<String>,
}

/// Why a trainer request is refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainerError {
    /// No such puzzle (or none at all for the angle).
    #[error("no such puzzle")]
    NotFound,
    /// The puzzle was never served to this player: its solution is
    /// refused.
    #[error("puzzle {0} was not served to you")]
    NotServed(String),
    /// The request breaks a bound; the text says which.
    #[error("{0}")]
    Invalid(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The puzzle trainer over one store.
#[derive(Debug, Clone)]
pub struct Trainer {
    pub(crate) store: Store,
}

impl Trainer {
    /// The trainer of the puzzles in `store`.
    pub fn new(store: Store) -> Trainer {
        Trainer { store }
    }

    /// Imports a lichess CSV; see [`import::import`].
    ///
    /// # Errors
    /// See [`import::import`].
    pub async fn import<R: Read + Send + 'static>(
        &self,
        source: R,
        refused: impl FnMut(&RowError),
    ) -> Result<ImportReport, ImportFailure> {
        import::import(&self.store, source, refused).await
    }

    /// How many puzzles there are.
    ///
    /// # Errors
    /// A store failure.
    pub async fn count(&self) -> Result<u64, TrainerError> {
        Ok(self.store.puzzle_count().await?)
    }

    /// Puzzle `id`; when `player` asks for it, it counts as served to
    /// them (so that they may send its solution).
    ///
    /// # Errors
    /// [`TrainerError::NotFound`]; a store failure.
    pub async fn show(
        &self,
        id: &str,
        player: Option<&str>,
        now: i64,
    ) -> Result<PuzzleRow, TrainerError> {
        if !plyyard_puzzle::puzzle::is_valid_id(id) {
            return Err(TrainerError::NotFound);
        }
        let row = self.store.puzzle(id).await?.ok_or(TrainerError::NotFound)?;
        if let Some(p) = player {
            self.store.mark_served(p, &row.id, now).await?;
        }
        Ok(row)
    }

    /// `player`'s puzzle rating and rated rounds (the starting rating
    /// when never rated).
    ///
    /// # Errors
    /// A store failure.
    pub async fn rating(&self, player: &str) -> Result<(Glicko2, i64), TrainerError> {
        Ok(match self.store.puzzle_rating(player).await? {
            Some(r) => (
                Glicko2 {
                    rating: r.glicko.rating,
                    deviation: r.glicko.deviation,
                    volatility: r.glicko.volatility,
                },
                r.games,
            ),
            None => (plyyard_rating::DEFAULT, 0),
        })
    }

    /// The next `nb` puzzles of `angle` for `player` at `difficulty`,
    /// served to them (never one seen before while unseen ones remain).
    ///
    /// # Errors
    /// [`TrainerError::Invalid`] for `nb` out of 1..=[`MAX_BATCH`];
    /// [`TrainerError::NotFound`] when the angle has no puzzle; a store
    /// failure.
    pub async fn next(
        &self,
        player: &str,
        angle: &Angle,
        difficulty: Difficulty,
        nb: usize,
        now: i64,
    ) -> Result<Vec<PuzzleRow>, TrainerError> {
        if !(1..=MAX_BATCH).contains(&nb) {
            return Err(TrainerError::Invalid(format!(
                "nb is a number from 1 to {MAX_BATCH}"
            )));
        }
        let (rating, _) = self.rating(player).await?;
        let target = rating.rating.round() as i64 + i64::from(difficulty.rating_delta());
        let walk = choose::next(&self.store, player, angle.key(), target, nb).await?;
        if walk.ids.is_empty() {
            return Err(TrainerError::NotFound);
        }
        self.store
            .serve_puzzles(
                player,
                angle.key(),
                &walk.ids,
                (walk.cursor.0, &walk.cursor.1),
                now,
            )
            .await?;
        let mut rows = Vec::with_capacity(walk.ids.len());
        for id in &walk.ids {
            if let Some(row) = self.store.puzzle(id).await? {
                rows.push(row);
            }
        }
        Ok(rows)
    }

    /// Records `player`'s rounds `(id, win, rated)` under `angle`; rated
    /// only for an account (`account`) asking for it, once per puzzle.
    ///
    /// # Errors
    /// [`TrainerError::NotServed`] for a puzzle never served to the
    /// player (the rounds before it stay recorded);
    /// [`TrainerError::Invalid`] for too many rounds; a store failure.
    pub async fn solve(
        &self,
        player: &str,
        account: bool,
        angle: &Angle,
        rounds: &[(String, bool, bool)],
        now: i64,
    ) -> Result<Vec<Round>, TrainerError> {
        if rounds.len() > MAX_SOLUTIONS {
            return Err(TrainerError::Invalid(format!(
                "at most {MAX_SOLUTIONS} solutions at once"
            )));
        }
        let mut done = Vec::with_capacity(rounds.len());
        for (id, win, rated) in rounds {
            let round = if plyyard_puzzle::puzzle::is_valid_id(id) {
                solve::record(&self.store, player, id, angle, *win, account && *rated, now).await?
            } else {
                None
            };
            done.push(round.ok_or_else(|| TrainerError::NotServed(id.chars().take(20).collect()))?);
        }
        Ok(done)
    }

    /// The puzzle of day `day` (days since the Unix epoch): the same for
    /// everyone that day, a well-liked one near 1800 when there are such.
    ///
    /// # Errors
    /// [`TrainerError::NotFound`] when there is no puzzle; a store failure.
    pub async fn daily(&self, day: i64) -> Result<PuzzleRow, TrainerError> {
        // Spread the days over 1500..2100 by a fixed scramble of the day.
        let offset = day.wrapping_mul(7919).rem_euclid(600);
        let from = 1500 + offset;
        let walk = self
            .store
            .angle_walk("mix", (from, ""), i64::MAX, 1)
            .await?;
        let id = match walk.first() {
            Some((_, id)) => id.clone(),
            None => self
                .store
                .angle_walk("mix", (i64::MIN, ""), i64::MAX, 1)
                .await?
                .first()
                .map(|w| w.1.clone())
                .ok_or(TrainerError::NotFound)?,
        };
        self.store.puzzle(&id).await?.ok_or(TrainerError::NotFound)
    }

    /// `player`'s puzzles to replay under `angle` (a theme or the mix):
    /// those failed at the first attempt since `since`, the latest first,
    /// and which of them were not played again since (lichess's replay).
    ///
    /// # Errors
    /// [`TrainerError::NotFound`] for an opening (replays are by theme); a
    /// store failure.
    pub async fn replay(
        &self,
        player: &str,
        angle: &Angle,
        since: i64,
    ) -> Result<Replay, TrainerError> {
        if matches!(angle, Angle::Opening(_)) {
            return Err(TrainerError::NotFound);
        }
        let rounds = self
            .store
            .puzzle_rounds(player, since, REPLAY_ROUNDS)
            .await?;
        let failed: Vec<&PuzzleRoundRow> = rounds
            .iter()
            .filter(|r| !r.win)
            .filter(|r| match angle {
                Angle::Theme(_) => r.themes.split_ascii_whitespace().any(|t| t == angle.key()),
                _ => true,
            })
            .collect();
        Ok(Replay {
            nb: failed.len(),
            remaining: failed
                .iter()
                .filter(|r| r.updated_at == r.created_at)
                .map(|r| r.puzzle_id.clone())
                .collect(),
        })
    }

    /// `player`'s rounds since `since`, the latest first, at most `limit`.
    ///
    /// # Errors
    /// A store failure.
    pub async fn history(
        &self,
        player: &str,
        since: i64,
        limit: u32,
    ) -> Result<Vec<PuzzleRoundRow>, TrainerError> {
        Ok(self.store.puzzle_rounds(player, since, limit).await?)
    }
}
