//! Owns Puzzle Storm's stored runs: one row per run an account ended
//! (the rules of a run and its dashboard are `plyyard_puzzle::storm`'s).

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;

/// A stored run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StormRunRow {
    /// When it ended, Unix milliseconds.
    pub ended_at: i64,
    /// Puzzles solved.
    pub score: u32,
    /// Moves played.
    pub moves: u32,
    /// Mistakes.
    pub errors: u32,
    /// The longest combo.
    pub combo: u32,
    /// Seconds played.
    pub time_s: u32,
    /// The highest puzzle rating solved.
    pub highest: u32,
}

impl Store {
    /// Stores `player_id`'s run; `false` (nothing stored) when the player
    /// already has a run ending at that millisecond.
    ///
    /// # Errors
    /// A database failure.
    pub async fn add_storm_run(
        &self,
        player_id: &str,
        r: &StormRunRow,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO storm_runs (player_id, ended_at, score, moves, errors, combo, time_s, \
             highest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (player_id, ended_at) DO NOTHING",
        )
        .bind(player_id)
        .bind(r.ended_at)
        .bind(i64::from(r.score))
        .bind(i64::from(r.moves))
        .bind(i64::from(r.errors))
        .bind(i64::from(r.combo))
        .bind(i64::from(r.time_s))
        .bind(i64::from(r.highest))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `player_id`'s runs ended at `since` or later, the latest first, at
    /// most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn storm_runs(
        &self,
        player_id: &str,
        since: i64,
        limit: u32,
    ) -> Result<Vec<StormRunRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT ended_at, score, moves, errors, combo, time_s, highest FROM storm_runs \
             WHERE player_id = $1 AND ended_at >= $2 ORDER BY ended_at DESC LIMIT $3",
        )
        .bind(player_id)
        .bind(since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let n = |r: &sqlx::any::AnyRow, i: usize| -> Result<u32, StoreError> {
            let v: i64 = r.try_get(i)?;
            Ok(u32::try_from(v).unwrap_or(u32::MAX))
        };
        rows.iter()
            .map(|r| {
                Ok(StormRunRow {
                    ended_at: r.try_get(0)?,
                    score: n(r, 1)?,
                    moves: n(r, 2)?,
                    errors: n(r, 3)?,
                    combo: n(r, 4)?,
                    time_s: n(r, 5)?,
                    highest: n(r, 6)?,
                })
            })
            .collect()
    }

    /// `player_id`'s best score ever (0 without a run).
    ///
    /// # Errors
    /// A database failure.
    pub async fn storm_best(&self, player_id: &str) -> Result<u32, StoreError> {
        let best: Option<i64> =
            sqlx::query_scalar("SELECT MAX(score) FROM storm_runs WHERE player_id = $1")
                .bind(player_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(best.map_or(0, |b| u32::try_from(b).unwrap_or(u32::MAX)))
    }
}
