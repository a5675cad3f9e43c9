//! Swiss tournaments: the SQL of `swiss_rounds` and `swiss_byes`
//! (migration 15), and the changes of a Swiss's row and players that only
//! a Swiss makes (a player removed before the start, settings edited).
//! The games are `tournament_pairings` rows with their round
//! ([`crate::Store::insert_tournament_game`]).
//!
//! Pairing a round is one transaction that locks the tournament's row,
//! checks that it is started and that the round is the next one (the
//! previous one finished), and writes the round and its bye: two nodes
//! cannot pair the same round twice.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::Store;
use crate::error::StoreError;
use crate::tournaments::{TournamentStatus, lock_tournament};

/// One paired round of a Swiss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissRoundRow {
    /// The round, 1-based.
    pub round: i64,
    /// When it was paired, Unix milliseconds.
    pub paired_at: i64,
    /// When its last game was scored, Unix milliseconds.
    pub finished_at: Option<i64>,
    /// When the next round is to be paired, if known.
    pub next_round_at: Option<i64>,
}

fn round_from_row(r: &AnyRow) -> Result<SwissRoundRow, StoreError> {
    Ok(SwissRoundRow {
        round: r.try_get(0)?,
        paired_at: r.try_get(1)?,
        finished_at: r.try_get(2)?,
        next_round_at: r.try_get(3)?,
    })
}

impl Store {
    /// Records round `round` of Swiss `id` as paired at `now`, with the
    /// pairing-allocated bye to `bye`; false (nothing written) when the
    /// Swiss is not started, or `round` is not the round after the last
    /// finished one.
    ///
    /// # Errors
    /// A database failure (a player's second bye is refused by the
    /// database); nothing is written then.
    pub async fn pair_swiss_round(
        &self,
        id: &str,
        round: i64,
        bye: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if lock_tournament(&mut tx, id).await? != Some(TournamentStatus::Started) {
            return Ok(false);
        }
        let last = sqlx::query(
            "SELECT round, finished_at FROM swiss_rounds WHERE tournament_id = $1 \
             ORDER BY round DESC LIMIT 1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let next = match last {
            None => 1,
            Some(r) => {
                if r.try_get::<Option<i64>, _>(1)?.is_none() {
                    return Ok(false);
                }
                r.try_get::<i64, _>(0)? + 1
            }
        };
        if next != round {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO swiss_rounds (tournament_id, round, paired_at, finished_at, \
             next_round_at) VALUES ($1, $2, $3, NULL, NULL)",
        )
        .bind(id)
        .bind(round)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if let Some(player) = bye {
            sqlx::query(
                "INSERT INTO swiss_byes (tournament_id, round, player_id) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(round)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Swiss `id`'s paired rounds, round 1 first.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn swiss_rounds(&self, id: &str) -> Result<Vec<SwissRoundRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, paired_at, finished_at, next_round_at FROM swiss_rounds \
             WHERE tournament_id = $1 ORDER BY round",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(round_from_row).collect()
    }

    /// Swiss `id`'s pairing-allocated byes: `(round, player)`, by round.
    ///
    /// # Errors
    /// A database failure.
    pub async fn swiss_byes(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, player_id FROM swiss_byes WHERE tournament_id = $1 \
             ORDER BY round, player_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Marks round `round` of Swiss `id` finished at `now`, the next round
    /// due at `next_round_at` (`None`: when its leader says); false when
    /// it was finished already.
    ///
    /// # Errors
    /// A database failure.
    pub async fn finish_swiss_round(
        &self,
        id: &str,
        round: i64,
        now: i64,
        next_round_at: Option<i64>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE swiss_rounds SET finished_at = $1, next_round_at = $2 \
             WHERE tournament_id = $3 AND round = $4 AND finished_at IS NULL",
        )
        .bind(now)
        .bind(next_round_at)
        .bind(id)
        .bind(round)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets when the round after the last, finished, round of Swiss `id`
    /// is paired; false when the last round is not finished (or none is).
    ///
    /// # Errors
    /// A database failure.
    pub async fn schedule_swiss_round(&self, id: &str, at: i64) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if lock_tournament(&mut tx, id).await? != Some(TournamentStatus::Started) {
            return Ok(false);
        }
        let done = sqlx::query(
            "UPDATE swiss_rounds SET next_round_at = $1 WHERE tournament_id = $2 \
             AND finished_at IS NOT NULL AND round = \
             (SELECT MAX(round) FROM swiss_rounds WHERE tournament_id = $2)",
        )
        .bind(at)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes `player` from tournament `id` before it starts (lichess's
    /// withdrawal from a Swiss not started); false when it has started or
    /// they are not in it.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn remove_tournament_player(
        &self,
        id: &str,
        player: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if lock_tournament(&mut tx, id).await? != Some(TournamentStatus::Created) {
            return Ok(false);
        }
        let done = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(id)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("UPDATE tournaments SET nb_players = nb_players - 1 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Replaces tournament `t.id`'s name, description, settings and
    /// times by `t`'s, only while its status is `status`; false (nothing
    /// changed) otherwise.
    ///
    /// # Errors
    /// A database failure.
    pub async fn edit_tournament(
        &self,
        t: &crate::TournamentRow,
        status: TournamentStatus,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET name = $1, description = $2, settings = $3, \
             starts_at = $4, finishes_at = $5 WHERE id = $6 AND status = $7",
        )
        .bind(&t.name)
        .bind(&t.description)
        .bind(&t.settings)
        .bind(t.starts_at)
        .bind(t.finishes_at)
        .bind(&t.id)
        .bind(status.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
