//! Tables: where two players meet. The SQL of `tables`.
//!
//! A table is opened by its host, waits in the lobby (or for its link) until
//! a guest sits down or it expires, then holds one game at a time.

use std::str::FromStr;

use plyyard_game::{RuleSet, Variant};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::backend::Backend;
use crate::db::{Store, parsed};
use crate::error::StoreError;
use crate::games::insert_game_in;
use crate::rows::GameRow;

/// Where a table stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableStatus {
    /// Waiting for a second player.
    Open,
    /// Two players sit; a game is being played or has just ended.
    Playing,
    /// Cancelled by its host, or expired before anyone sat down.
    Closed,
}

impl TableStatus {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Playing => "playing",
            TableStatus::Closed => "closed",
        }
    }
}

impl FromStr for TableStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<TableStatus, String> {
        match s {
            "open" => Ok(TableStatus::Open),
            "playing" => Ok(TableStatus::Playing),
            "closed" => Ok(TableStatus::Closed),
            other => Err(format!("unknown table status {other:?}")),
        }
    }
}

/// A table as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// The short code (upper case).
    pub code: String,
    /// Player id of the host.
    pub host: String,
    /// Player id of the guest, once seated.
    pub guest: Option<String>,
    /// Variant of its games.
    pub variant: Variant,
    /// Base time per player, seconds (30, 45, 90 or whole minutes up to
    /// 180 minutes).
    pub base_s: u32,
    /// Increment per move, seconds.
    pub increment_s: u32,
    /// Rule set.
    pub rules: RuleSet,
    /// Whether its games are rated.
    pub rated: bool,
    /// Whether it is listed in the lobby.
    pub public: bool,
    /// Where it stands.
    pub status: TableStatus,
    /// The current (or last) game.
    pub game_id: Option<String>,
    /// Opening time, Unix milliseconds.
    pub created_at: i64,
    /// When an unjoined table closes, Unix milliseconds.
    pub expires_at: i64,
}

const TABLE_COLUMNS: &str = "code, host_player, guest_player, variant, base_s, increment_s, \
     rules, CAST(rated AS INTEGER), CAST(public AS INTEGER), status, game_id, created_at, expires_at";

fn small(r: &AnyRow, i: usize) -> Result<u32, StoreError> {
    u32::try_from(r.try_get::<i64, _>(i)?).map_err(|_| StoreError::Corrupt {
        table: "tables",
        detail: format!("column {i} out of range"),
    })
}

fn table_from_row(r: &AnyRow) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        code: r.try_get(0)?,
        host: r.try_get(1)?,
        guest: r.try_get(2)?,
        variant: parsed("tables", "variant", &r.try_get::<String, _>(3)?)?,
        base_s: small(r, 4)?,
        increment_s: small(r, 5)?,
        rules: parsed("tables", "rules", &r.try_get::<String, _>(6)?)?,
        rated: r.try_get::<i64, _>(7)? != 0,
        public: r.try_get::<i64, _>(8)? != 0,
        status: parsed("tables", "status", &r.try_get::<String, _>(9)?)?,
        game_id: r.try_get(10)?,
        created_at: r.try_get(11)?,
        expires_at: r.try_get(12)?,
    })
}

impl Store {
    /// Stores the new table `t` unless its host has `max_open` open,
    /// unexpired tables already (`false`, nothing written): the count and
    /// the insert are one transaction, with the host's row locked on
    /// PostgreSQL (SQLite's write transaction is exclusive anyway), so
    /// racing requests cannot pass the cap.
    ///
    /// # Errors
    /// [`StoreError::Taken`] if the code is taken; a database failure.
    pub async fn insert_table(&self, t: &TableRow, max_open: u64) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if self.backend() == Backend::Postgres {
            sqlx::query("SELECT id FROM players WHERE id = $1 FOR UPDATE")
                .bind(&t.host)
                .fetch_optional(&mut *tx)
                .await?;
        }
        if count_open(&mut tx, &t.host, t.created_at).await? >= max_open {
            return Ok(false);
        }
        insert_table_in(&mut tx, t).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a table `t` whose two seats are already taken (status
    /// `playing`, `guest` and `game_id` set) together with its first game
    /// `g`, in one transaction: two players paired by their seeks. Nothing
    /// is written on failure.
    ///
    /// # Errors
    /// [`StoreError::Taken`] if the code is taken; a database failure.
    pub async fn insert_paired_table(&self, t: &TableRow, g: &GameRow) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_game_in(&mut *tx, g).await?;
        insert_table_in(&mut tx, t).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The table with `code`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn table(&self, code: &str) -> Result<Option<TableRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE code = $1"
        ))
        .bind(code)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(table_from_row)
        .transpose()
    }

    /// The open public tables not expired at `now`, newest first.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn lobby(&self, now: i64, limit: u32) -> Result<Vec<TableRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'open' AND public = $1 \
             AND expires_at > $2 ORDER BY created_at DESC, code LIMIT $3"
        ))
        .bind(true)
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(table_from_row)
        .collect()
    }

    /// How many open, unexpired tables `host` has.
    ///
    /// # Errors
    /// A database failure.
    pub async fn open_tables_of(&self, host: &str, now: i64) -> Result<u64, StoreError> {
        let mut conn = self.pool.acquire().await?;
        count_open(&mut conn, host, now).await
    }

    /// Seats `guest` at the open, unexpired table `code` and records its
    /// first game, which must already be stored; `false` if the table was
    /// not open any more (someone else sat first, it expired or closed).
    ///
    /// # Errors
    /// A database failure.
    pub async fn seat_guest(
        &self,
        code: &str,
        guest: &str,
        game_id: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tables SET guest_player = $1, game_id = $2, status = 'playing' \
             WHERE code = $3 AND status = 'open' AND expires_at > $4",
        )
        .bind(guest)
        .bind(game_id)
        .bind(code)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Seats `guest` at the open, unexpired table `code` and stores its
    /// first game `g`, in one transaction; `false` (nothing written) if the
    /// table was not open any more.
    ///
    /// # Errors
    /// A database failure; nothing is written then.
    pub async fn start_table_game(
        &self,
        g: &GameRow,
        code: &str,
        guest: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO players (id, created_at, last_seen_at) VALUES ($1, $2, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(guest)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        insert_game_in(&mut *tx, g).await?;
        let seated = sqlx::query(
            "UPDATE tables SET guest_player = $1, game_id = $2, status = 'playing' \
             WHERE code = $3 AND status = 'open' AND expires_at > $4",
        )
        .bind(guest)
        .bind(&g.id)
        .bind(code)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if seated.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores `g` as the next game at table `code` after game `previous`
    /// (a rematch), in one transaction; `false` (nothing written) if the
    /// table moved on already.
    ///
    /// # Errors
    /// A database failure; nothing is written then.
    pub async fn rematch_game(
        &self,
        g: &GameRow,
        code: &str,
        previous: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        insert_game_in(&mut *tx, g).await?;
        let moved = sqlx::query(
            "UPDATE tables SET game_id = $1 WHERE code = $2 AND game_id = $3 AND status = 'playing'",
        )
        .bind(&g.id)
        .bind(code)
        .bind(previous)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Moves table `code` on from game `previous` to game `next` (a
    /// rematch); `false` if another rematch got there first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn next_table_game(
        &self,
        code: &str,
        previous: &str,
        next: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tables SET game_id = $1 WHERE code = $2 AND game_id = $3 AND status = 'playing'",
        )
        .bind(next)
        .bind(code)
        .bind(previous)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes an open table (its host cancels it, or it expired); `false`
    /// if it was not open.
    ///
    /// # Errors
    /// A database failure.
    pub async fn close_table(&self, code: &str) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE tables SET status = 'closed' WHERE code = $1 AND status = 'open'")
                .bind(code)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes every open table that expired by `now`; returns their codes.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire_tables(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let mut tx = self.begin_write().await?;
        let codes =
            sqlx::query("SELECT code FROM tables WHERE status = 'open' AND expires_at <= $1")
                .bind(now)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.try_get::<String, _>(0))
                .collect::<Result<Vec<_>, _>>()?;
        sqlx::query(
            "UPDATE tables SET status = 'closed' WHERE status = 'open' AND expires_at <= $1",
        )
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(codes)
    }
}

/// How many open tables `host` has that are unexpired at `now`.
async fn count_open(
    conn: &mut sqlx::AnyConnection,
    host: &str,
    now: i64,
) -> Result<u64, StoreError> {
    let n: i64 = sqlx::query(
        "SELECT COUNT(*) FROM tables WHERE host_player = $1 AND status = 'open' \
         AND expires_at > $2",
    )
    .bind(host)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?
    .try_get(0)?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Inserts the table row `t` in `tx`.
pub(crate) async fn insert_table_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    t: &TableRow,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        // `minutes` (no longer read) keeps the whole minutes of the base.
        "INSERT INTO tables (code, host_player, guest_player, variant, base_s, increment_s, \
         rules, rated, public, status, game_id, created_at, expires_at, minutes) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(&t.code)
    .bind(&t.host)
    .bind(&t.guest)
    .bind(t.variant.as_str())
    .bind(i64::from(t.base_s))
    .bind(i64::from(t.increment_s))
    .bind(t.rules.as_str())
    .bind(t.rated)
    .bind(t.public)
    .bind(t.status.as_str())
    .bind(&t.game_id)
    .bind(t.created_at)
    .bind(t.expires_at)
    .bind(i64::from(t.base_s / 60))
    .execute(&mut **tx)
    .await;
    match done {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(StoreError::Taken(t.code.clone()))
        }
        Err(e) => Err(e.into()),
    }
}
