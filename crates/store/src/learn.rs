//! Learn progress rows (`learn_progress`): the keys a player has done.
//! The keys' rules are in `plyyard_exercises::progress`.

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;

impl Store {
    /// The keys player `player_id` has done, sorted.
    ///
    /// # Errors
    /// A database failure.
    pub async fn learn_progress(&self, player_id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT key FROM learn_progress WHERE player_id = $1 ORDER BY key")
            .bind(player_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?)
    }

    /// Adds `keys` to the player's progress (keys already there keep their
    /// first time), unless the player would then have more than `cap`
    /// keys; returns the keys in force afterwards and whether they were
    /// added. The player row is created if needed. One transaction.
    ///
    /// # Errors
    /// A database failure; nothing is added then.
    pub async fn add_learn_progress(
        &self,
        player_id: &str,
        keys: &[String],
        cap: usize,
        now: i64,
    ) -> Result<(Vec<String>, bool), StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO players (id, created_at, last_seen_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at",
        )
        .bind(player_id)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let old: Vec<String> =
            sqlx::query("SELECT key FROM learn_progress WHERE player_id = $1 ORDER BY key")
                .bind(player_id)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.try_get::<String, _>(0))
                .collect::<Result<_, _>>()?;
        let new: Vec<&String> = keys
            .iter()
            .filter(|k| old.binary_search(k).is_err())
            .collect();
        if old.len() + new.len() > cap {
            return Ok((old, false));
        }
        for key in &new {
            sqlx::query(
                "INSERT INTO learn_progress (player_id, key, done_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (player_id, key) DO NOTHING",
            )
            .bind(player_id)
            .bind(key.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        let mut all = old;
        all.extend(new.into_iter().cloned());
        all.sort();
        Ok((all, true))
    }
}

/// Moves player `from`'s Learn progress to player `to` (log-in, sign-up),
/// inside the caller's transaction: keys `to` already has keep their time.
pub(super) async fn move_learn_progress(
    conn: &mut sqlx::AnyConnection,
    from: &str,
    to: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO learn_progress (player_id, key, done_at) \
         SELECT $1, key, done_at FROM learn_progress WHERE player_id = $2 \
         ON CONFLICT (player_id, key) DO NOTHING",
    )
    .bind(to)
    .bind(from)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM learn_progress WHERE player_id = $1")
        .bind(from)
        .execute(&mut *conn)
        .await?;
    Ok(())
}
