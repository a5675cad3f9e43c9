//! Challenges: one account invites another to a game with a clock. The SQL
//! of `challenges`.
//!
//! A challenge is `created` until it is accepted (its id becomes the
//! game's), declined, cancelled by its challenger, or goes `offline` when
//! its challenger has not been seen for a while. Every change of status is
//! a compare-and-set from `created`: of two racing answers, one wins and
//! the other changes nothing.

use std::str::FromStr;

use plyyard_game::Variant;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::{Store, get_bool, parsed};
use crate::error::StoreError;
use crate::games::insert_game_in;
use crate::rows::GameRow;
use crate::tables::{TableRow, insert_table_in};

/// Where a challenge stands (lichess's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    /// Waiting for an answer.
    Created,
    /// Accepted: the game exists, with the challenge's id.
    Accepted,
    /// Declined by the challenged player.
    Declined,
    /// Cancelled by the challenger.
    Canceled,
    /// The challenger went away before an answer.
    Offline,
}

impl ChallengeStatus {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Created => "created",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Canceled => "canceled",
            ChallengeStatus::Offline => "offline",
        }
    }
}

impl FromStr for ChallengeStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<ChallengeStatus, String> {
        [
            ChallengeStatus::Created,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Canceled,
            ChallengeStatus::Offline,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
        .ok_or_else(|| format!("unknown challenge status {s:?}"))
    }
}

/// A challenge as stored (and as the nodes of a cluster tell one another
/// of it).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChallengeRow {
    /// Its id, the game's once accepted.
    pub id: String,
    /// Player id of the challenger.
    pub challenger: String,
    /// Player id of the challenged.
    pub dest: String,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// Why it was declined (a lichess reason key).
    pub decline_reason: Option<String>,
    /// Standard or Chess960.
    pub variant: Variant,
    /// Base time on each clock, seconds (30, 45, 90 or whole minutes up
    /// to 180 minutes).
    pub base_s: u32,
    /// Seconds added per move.
    pub increment_s: u32,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// The challenger's colour as asked: `white`, `black` or `random`.
    pub color: String,
    /// The challenger's colour, drawn at creation when asked `random`.
    pub final_color: String,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
    /// When the challenger was last seen, Unix milliseconds.
    pub seen_at: i64,
    /// Last change, Unix milliseconds.
    pub updated_at: i64,
}

const COLUMNS: &str = "id, challenger, dest, status, decline_reason, variant, base_s, \
     increment_s, CAST(rated AS INTEGER), color, final_color, created_at, seen_at, updated_at";

fn row_of(r: &AnyRow) -> Result<ChallengeRow, StoreError> {
    let status: String = r.try_get(3)?;
    let variant: String = r.try_get(5)?;
    let count = |i: usize| -> Result<u32, StoreError> {
        let v: i64 = r.try_get(i)?;
        u32::try_from(v).map_err(|_| StoreError::Corrupt {
            table: "challenges",
            detail: format!("bad count {v}"),
        })
    };
    Ok(ChallengeRow {
        id: r.try_get(0)?,
        challenger: r.try_get(1)?,
        dest: r.try_get(2)?,
        status: parsed("challenges", "status", &status)?,
        decline_reason: r.try_get(4)?,
        variant: parsed("challenges", "variant", &variant)?,
        base_s: count(6)?,
        increment_s: count(7)?,
        rated: get_bool(r, 8)?,
        color: r.try_get(9)?,
        final_color: r.try_get(10)?,
        created_at: r.try_get(11)?,
        seen_at: r.try_get(12)?,
        updated_at: r.try_get(13)?,
    })
}

/// How many challenges may wait at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengeCaps {
    /// Sent by one challenger.
    pub per_challenger: u32,
    /// Received by one player.
    pub per_dest: u32,
    /// From one challenger to one player.
    pub per_pair: u32,
}

/// The cap a new challenge would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeCap {
    /// The challenger has as many waiting as they may send.
    Challenger,
    /// The player challenged has as many waiting as they may receive.
    Dest,
    /// The challenger has as many waiting for this player as allowed.
    Pair,
}

impl Store {
    /// Stores a new challenge unless it would break one of `caps`
    /// (counted in the same transaction, the player challenged locked for
    /// it, so that challenges sent at once cannot all pass).
    ///
    /// # Errors
    /// A database failure.
    pub async fn create_challenge(
        &self,
        c: &ChallengeRow,
        caps: ChallengeCaps,
    ) -> Result<Result<(), ChallengeCap>, StoreError> {
        let mut tx = self.begin_write().await?;
        // PostgreSQL holds the row until the commit; SQLite's write
        // transaction holds everything already.
        sqlx::query("UPDATE players SET last_seen_at = last_seen_at WHERE id = $1")
            .bind(&c.dest)
            .execute(&mut *tx)
            .await?;
        let count = |sql: &'static str| {
            sqlx::query(sql)
                .bind(c.challenger.as_str())
                .bind(c.dest.as_str())
        };
        let row = count(
            "SELECT \
               (SELECT COUNT(*) FROM challenges WHERE challenger = $1 AND status = 'created'), \
               (SELECT COUNT(*) FROM challenges WHERE dest = $2 AND status = 'created'), \
               (SELECT COUNT(*) FROM challenges WHERE challenger = $1 AND dest = $2 AND status = 'created')",
        )
        .fetch_one(&mut *tx)
        .await?;
        let (sent, received, pair): (i64, i64, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        if sent >= i64::from(caps.per_challenger) {
            return Ok(Err(ChallengeCap::Challenger));
        }
        if pair >= i64::from(caps.per_pair) {
            return Ok(Err(ChallengeCap::Pair));
        }
        if received >= i64::from(caps.per_dest) {
            return Ok(Err(ChallengeCap::Dest));
        }
        sqlx::query(&format!(
            // `minutes` (no longer read) keeps the whole minutes of the base.
            "INSERT INTO challenges ({}, minutes) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            COLUMNS.replace("CAST(rated AS INTEGER)", "rated")
        ))
        .bind(&c.id)
        .bind(&c.challenger)
        .bind(&c.dest)
        .bind(c.status.as_str())
        .bind(&c.decline_reason)
        .bind(c.variant.as_str())
        .bind(i64::from(c.base_s))
        .bind(i64::from(c.increment_s))
        .bind(c.rated)
        .bind(&c.color)
        .bind(&c.final_color)
        .bind(c.created_at)
        .bind(c.seen_at)
        .bind(c.updated_at)
        .bind(i64::from(c.base_s / 60))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// The challenge `id`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(row_of).transpose()
    }

    /// The waiting challenges `player` made or received, oldest first (a
    /// row that cannot be read is left out and logged).
    ///
    /// # Errors
    /// A database failure.
    pub async fn waiting_challenges(&self, player: &str) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM challenges WHERE status = 'created' \
             AND (challenger = $1 OR dest = $1) ORDER BY created_at, id"
        ))
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        // One unreadable row must not hide the others.
        Ok(rows
            .iter()
            .filter_map(|r| {
                row_of(r)
                    .inspect_err(|e| tracing::warn!("challenge skipped: {e}"))
                    .ok()
            })
            .collect())
    }

    /// Moves a waiting challenge to `status` (declined, cancelled or
    /// offline) with `reason`; the row after the change, or `None` if it
    /// was no longer waiting.
    ///
    /// # Errors
    /// A database failure.
    pub async fn settle_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
        reason: Option<&str>,
        now: i64,
    ) -> Result<Option<ChallengeRow>, StoreError> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE challenges SET status = $1, decline_reason = $2, updated_at = $3 \
             WHERE id = $4 AND status = 'created'",
        )
        .bind(status.as_str())
        .bind(reason)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        row_of(&row).map(Some)
    }

    /// Accepts a waiting challenge: marks it accepted and stores its table
    /// and game (whose id is the challenge's), all in one transaction;
    /// whether it was still waiting (if not, nothing is stored).
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn accept_challenge(
        &self,
        id: &str,
        table: &TableRow,
        game: &GameRow,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE challenges SET status = 'accepted', updated_at = $1 \
             WHERE id = $2 AND status = 'created'",
        )
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        insert_game_in(&mut *tx, game).await?;
        insert_table_in(&mut tx, table).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Notes that `challenger` is there at `now`: their waiting challenges
    /// stay alive.
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch_challenges(&self, challenger: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE challenges SET seen_at = $1 WHERE challenger = $2 AND status = 'created'",
        )
        .bind(now)
        .bind(challenger)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Marks `offline` every waiting challenge whose challenger was last
    /// seen before `seen_before`; the challenges it changed.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire_challenges(
        &self,
        seen_before: i64,
        now: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let ids: Vec<String> =
            sqlx::query("SELECT id FROM challenges WHERE status = 'created' AND seen_at < $1")
                .bind(seen_before)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?;
        let mut expired = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = self
                .settle_challenge(&id, ChallengeStatus::Offline, None, now)
                .await?
            {
                expired.push(row);
            }
        }
        Ok(expired)
    }
}

/// Cancels, inside `tx`, every waiting challenge `player` made or received
/// (their account is being deleted); the rows after the change.
pub(crate) async fn cancel_waiting_of(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: &str,
    now: i64,
) -> Result<Vec<ChallengeRow>, StoreError> {
    let ids: Vec<String> = sqlx::query(
        "SELECT id FROM challenges WHERE status = 'created' AND (challenger = $1 OR dest = $1)",
    )
    .bind(player)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| r.try_get(0))
    .collect::<Result<_, _>>()?;
    sqlx::query(
        "UPDATE challenges SET status = 'canceled', updated_at = $1 \
         WHERE status = 'created' AND (challenger = $2 OR dest = $2)",
    )
    .bind(now)
    .bind(player)
    .execute(&mut **tx)
    .await?;
    let mut canceled = Vec::with_capacity(ids.len());
    for id in ids {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
            .bind(&id)
            .fetch_one(&mut **tx)
            .await?;
        canceled.push(row_of(&row)?);
    }
    Ok(canceled)
}
