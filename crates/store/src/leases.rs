//! Leases for nodes of a cluster: of live games (which node runs a game's
//! actor, [`Store::acquire_lease`], renewing and giving them up, and the
//! games nobody runs, [`Store::orphaned_games`]) and of singleton tasks
//! such as the tournament director ([`Store::hold_task_lease`]). Times come
//! from the database's clock, never a node's.
//!
//! Taking a lease raises the game's `owner_epoch` in the same transaction;
//! the live-game writer checks that epoch on every write (see `writer.rs`),
//! so a node that lost its lease (paused, cut off) can never write again.

use std::time::Duration;

use sqlx::Row;

use crate::backend::{Backend, begin_write};
use crate::db::Store;
use crate::error::StoreError;

/// What [`Store::acquire_lease`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lease {
    /// This node holds the lease now, with this fencing epoch.
    Held(i64),
    /// Another node holds it (its id, empty if it was given up meanwhile)
    /// until it expires, in this long at most.
    Elsewhere(String, Duration),
    /// There is no such game.
    NoGame,
}

/// The database's clock in Unix milliseconds, as an SQL expression.
fn now_ms(backend: Backend) -> &'static str {
    match backend {
        Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        Backend::Sqlite => "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Store {
    /// Takes game `id`'s lease for node `node` for `ttl`, if nobody else
    /// holds it (or theirs expired), raising the game's epoch: the actor of
    /// this node then writes with that epoch.
    ///
    /// # Errors
    /// A database failure.
    pub async fn acquire_lease(
        &self,
        id: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Lease, StoreError> {
        let now = now_ms(self.backend());
        let mut tx = begin_write(&self.pool, self.backend()).await?;
        let Some(epoch) = sqlx::query(
            "UPDATE games SET owner_epoch = owner_epoch + 1 WHERE id = $1 RETURNING owner_epoch",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(Lease::NoGame);
        };
        let epoch: i64 = epoch.try_get(0)?;
        let taken = sqlx::query(&format!(
            "INSERT INTO game_leases (game_id, node_id, epoch, expires_at) \
             VALUES ($1, $2, $3, {now} + $4) \
             ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id, \
             epoch = excluded.epoch, expires_at = excluded.expires_at \
             WHERE game_leases.expires_at < {now} OR game_leases.node_id = excluded.node_id \
             RETURNING node_id"
        ))
        .bind(id)
        .bind(node)
        .bind(epoch)
        .bind(millis(ttl))
        .fetch_optional(&mut *tx)
        .await?;
        if taken.is_some() {
            tx.commit().await?;
            return Ok(Lease::Held(epoch));
        }
        // Someone else holds it: the epoch stays as it was.
        tx.rollback().await?;
        let holder = sqlx::query(&format!(
            "SELECT node_id, expires_at - {now} FROM game_leases WHERE game_id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        match holder {
            Some(row) => {
                let left: i64 = row.try_get(1)?;
                let left = Duration::from_millis(u64::try_from(left).unwrap_or(0));
                Ok(Lease::Elsewhere(row.try_get(0)?, left))
            }
            // Released meanwhile: the caller tries again.
            None => Ok(Lease::Elsewhere(String::new(), Duration::ZERO)),
        }
    }

    /// The node holding game `id`'s lease now, if any holds one that has
    /// not expired.
    ///
    /// # Errors
    /// A database failure.
    pub async fn lease_holder(&self, id: &str) -> Result<Option<String>, StoreError> {
        let now = now_ms(self.backend());
        let row = sqlx::query(&format!(
            "SELECT node_id FROM game_leases WHERE game_id = $1 AND expires_at >= {now}"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Renews every lease node `node` holds for another `ttl`; returns the
    /// games whose lease it still holds (any other is lost).
    ///
    /// # Errors
    /// A database failure.
    pub async fn renew_leases(&self, node: &str, ttl: Duration) -> Result<Vec<String>, StoreError> {
        let now = now_ms(self.backend());
        let rows = sqlx::query(&format!(
            "UPDATE game_leases SET expires_at = {now} + $2 WHERE node_id = $1 RETURNING game_id"
        ))
        .bind(node)
        .bind(millis(ttl))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Gives up game `id`'s lease if node `node` holds it at `epoch`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn release_lease(&self, id: &str, node: &str, epoch: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM game_leases WHERE game_id = $1 AND node_id = $2 AND epoch = $3")
            .bind(id)
            .bind(node)
            .bind(epoch)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives up every lease of node `node`; returns their games.
    ///
    /// # Errors
    /// A database failure.
    pub async fn release_leases(&self, node: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("DELETE FROM game_leases WHERE node_id = $1 RETURNING game_id")
            .bind(node)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Up to `limit` table games still being played that no node holds a
    /// live lease on: someone must run their clocks and deadlines.
    ///
    /// # Errors
    /// A database failure.
    pub async fn orphaned_games(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let now = now_ms(self.backend());
        let rows = sqlx::query(&format!(
            "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
             WHERE g.status = 'ongoing' AND g.kind = 'table' \
             AND (l.game_id IS NULL OR l.expires_at < {now}) LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Takes or renews the lease of task `name` for node `node` for `ttl`:
    /// taken when nobody holds it or the holder's expired (the epoch is
    /// raised), renewed when `node` holds it (the epoch stays). Returns the
    /// epoch held, or `None` while another node holds it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn hold_task_lease(
        &self,
        name: &str,
        node: &str,
        ttl: Duration,
    ) -> Result<Option<i64>, StoreError> {
        let now = now_ms(self.backend());
        let row = sqlx::query(&format!(
            "INSERT INTO task_leases (name, node_id, epoch, expires_at) \
             VALUES ($1, $2, 1, {now} + $3) \
             ON CONFLICT (name) DO UPDATE SET \
             epoch = CASE WHEN task_leases.node_id = excluded.node_id \
                          AND task_leases.expires_at >= {now} \
                     THEN task_leases.epoch ELSE task_leases.epoch + 1 END, \
             node_id = excluded.node_id, expires_at = excluded.expires_at \
             WHERE task_leases.expires_at < {now} OR task_leases.node_id = excluded.node_id \
             RETURNING epoch"
        ))
        .bind(name)
        .bind(node)
        .bind(millis(ttl))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// The node holding task `name`'s lease now, if one holds it unexpired.
    ///
    /// # Errors
    /// A database failure.
    pub async fn task_lease_holder(&self, name: &str) -> Result<Option<String>, StoreError> {
        let now = now_ms(self.backend());
        let row = sqlx::query(&format!(
            "SELECT node_id FROM task_leases WHERE name = $1 AND expires_at >= {now}"
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Gives up task `name`'s lease if node `node` holds it (it expires at
    /// once; the epoch is kept, so the next holder's is higher).
    ///
    /// # Errors
    /// A database failure.
    pub async fn release_task_lease(&self, name: &str, node: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE task_leases SET expires_at = 0 WHERE name = $1 AND node_id = $2")
            .bind(name)
            .bind(node)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
