//! Notifications: the SQL of `notifications`, what each account is told
//! in the header's bell, kept until pruned (30 days by the caller's rule).

use sqlx::Row;

use crate::db::{Store, get_bool};
use crate::error::StoreError;

/// A notification, stored or to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationRow {
    /// Its id (random, unique).
    pub id: String,
    /// The account told.
    pub player_id: String,
    /// What kind of news (`challenge`, `msg` …).
    pub kind: String,
    /// Its details as JSON.
    pub content: String,
    /// Whether the account has seen it.
    pub seen: bool,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

impl Store {
    /// Stores a notification.
    ///
    /// # Errors
    /// A database failure.
    pub async fn add_notification(&self, n: &NotificationRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO notifications (id, player_id, kind, content, seen, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(n.id.as_str())
        .bind(n.player_id.as_str())
        .bind(n.kind.as_str())
        .bind(n.content.as_str())
        .bind(n.seen)
        .bind(n.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `player`'s last `limit` notifications, newest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn notifications(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<NotificationRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, content, CAST(seen AS INTEGER), created_at FROM notifications \
             WHERE player_id = $1 ORDER BY created_at DESC, id LIMIT $2",
        )
        .bind(player)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(NotificationRow {
                    id: r.try_get(0)?,
                    player_id: player.to_owned(),
                    kind: r.try_get(1)?,
                    content: r.try_get(2)?,
                    seen: get_bool(r, 3)?,
                    created_at: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// How many of `player`'s notifications it has not seen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn unseen_notifications(&self, player: &str) -> Result<u64, StoreError> {
        let n: i64 =
            sqlx::query("SELECT COUNT(*) FROM notifications WHERE player_id = $1 AND seen = $2")
                .bind(player)
                .bind(false)
                .fetch_one(&self.pool)
                .await?
                .try_get(0)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Marks all of `player`'s notifications seen; how many were not.
    ///
    /// # Errors
    /// A database failure.
    pub async fn see_notifications(&self, player: &str) -> Result<u64, StoreError> {
        let done =
            sqlx::query("UPDATE notifications SET seen = $2 WHERE player_id = $1 AND seen = $3")
                .bind(player)
                .bind(true)
                .bind(false)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected())
    }

    /// Deletes every notification made before `before` (Unix ms); how many.
    ///
    /// # Errors
    /// A database failure.
    pub async fn prune_notifications(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM notifications WHERE created_at < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
