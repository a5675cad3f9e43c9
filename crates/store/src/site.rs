//! Owns the site's settings (`site_settings`: name–value pairs, read and
//! checked by `plyyard_moderation::SiteSettings`) and the invitations
//! admins make (`invites`, used up by a sign-up in its transaction).

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;
use crate::moderation::{Actor, Entry, log_in_tx};

/// An invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteRow {
    /// The code.
    pub code: String,
    /// The admin who made it (`None`: the command line, or a deleted account).
    pub created_by: Option<String>,
    /// When, Unix milliseconds.
    pub created_at: i64,
    /// The account that used it, if one did.
    pub used_by: Option<String>,
}

impl Store {
    /// The stored settings: `(name, value)` pairs.
    ///
    /// # Errors
    /// A database failure.
    pub async fn site_settings(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT name, value FROM site_settings ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Stores the settings `pairs` and logs the change (`settings`, with
    /// `details`), in one transaction.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn set_site_settings(
        &self,
        by: Actor<'_>,
        pairs: &[(&str, String)],
        details: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        for (name, value) in pairs {
            sqlx::query(
                "INSERT INTO site_settings (name, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (name) DO UPDATE SET value = $2, updated_at = $3",
            )
            .bind(*name)
            .bind(value)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let entry = Entry {
            moderator: by,
            action: "settings",
            target: None,
            details,
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new invitation `code` made by `by`, logged (`invite`).
    ///
    /// # Errors
    /// A database failure (a code already there included).
    pub async fn create_invite(
        &self,
        by: Actor<'_>,
        code: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("INSERT INTO invites (code, created_by, created_at) VALUES ($1, $2, $3)")
            .bind(code)
            .bind(by)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        let entry = Entry {
            moderator: by,
            action: "invite",
            target: None,
            details: "",
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The latest `limit` invitations, the newest first, with the names of
    /// who made and who used them.
    ///
    /// # Errors
    /// A database failure.
    pub async fn invites(&self, limit: u32) -> Result<Vec<InviteRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT i.code, a.username, i.created_at, u.username FROM invites i \
             LEFT JOIN accounts a ON a.player_id = i.created_by \
             LEFT JOIN accounts u ON u.player_id = i.used_by \
             ORDER BY i.created_at DESC, i.code LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(InviteRow {
                    code: r.try_get(0)?,
                    created_by: r.try_get(1)?,
                    created_at: r.try_get(2)?,
                    used_by: r.try_get(3)?,
                })
            })
            .collect()
    }
}

/// Uses invitation `code` for the account `player` inside the sign-up's
/// `tx`; `false` when no unused invitation has that code.
pub(crate) async fn use_invite_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    code: &str,
    player: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let used = sqlx::query(
        "UPDATE invites SET used_by = $1, used_at = $2 WHERE code = $3 AND used_by IS NULL",
    )
    .bind(player)
    .bind(now)
    .bind(code)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(used == 1)
}
