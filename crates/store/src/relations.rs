//! Relations between accounts: the SQL of `relations` (follows and
//! blocks), and whether two players ever met at a game.

use sqlx::Row;

use crate::accounts::Account;
use crate::db::{Store, get_bool};
use crate::error::StoreError;

/// What one account holds about another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelationKind {
    /// It follows the other.
    Follow,
    /// It blocks the other.
    Block,
}

impl RelationKind {
    /// Its name in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            RelationKind::Follow => "follow",
            RelationKind::Block => "block",
        }
    }

    fn parse(s: &str) -> Result<RelationKind, StoreError> {
        match s {
            "follow" => Ok(RelationKind::Follow),
            "block" => Ok(RelationKind::Block),
            other => Err(StoreError::Corrupt {
                table: "relations",
                detail: format!("unknown kind {other:?}"),
            }),
        }
    }
}

/// The columns of a live account joined as `a`, in `Account`'s order.
const ACCOUNT_COLUMNS: &str = "a.player_id, a.username, a.created_at, CAST(a.bot AS INTEGER)";

fn account_of(r: &sqlx::any::AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        player_id: r.try_get(0)?,
        username: r.try_get(1)?,
        created_at: r.try_get(2)?,
        bot: get_bool(r, 3)?,
    })
}

impl Store {
    /// What `owner` holds about `other`, if anything.
    ///
    /// # Errors
    /// A database failure.
    pub async fn relation(
        &self,
        owner: &str,
        other: &str,
    ) -> Result<Option<RelationKind>, StoreError> {
        let row = sqlx::query("SELECT kind FROM relations WHERE owner_id = $1 AND other_id = $2")
            .bind(owner)
            .bind(other)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| RelationKind::parse(&r.try_get::<String, _>(0)?))
            .transpose()
    }

    /// `owner` now holds `kind` about `other` (replacing what it held);
    /// a block also ends `other`'s follow of `owner`. One transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_relation(
        &self,
        owner: &str,
        other: &str,
        kind: RelationKind,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO relations (owner_id, other_id, kind, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (owner_id, other_id) DO UPDATE SET kind = excluded.kind, \
             created_at = CASE WHEN relations.kind = excluded.kind THEN relations.created_at \
             ELSE excluded.created_at END",
        )
        .bind(owner)
        .bind(other)
        .bind(kind.as_str())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if kind == RelationKind::Block {
            sqlx::query(
                "DELETE FROM relations WHERE owner_id = $1 AND other_id = $2 AND kind = 'follow'",
            )
            .bind(other)
            .bind(owner)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `owner` no longer holds `kind` about `other` (nothing changes when
    /// it holds the other kind, or nothing). Whether a row went.
    ///
    /// # Errors
    /// A database failure.
    pub async fn end_relation(
        &self,
        owner: &str,
        other: &str,
        kind: RelationKind,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM relations WHERE owner_id = $1 AND other_id = $2 AND kind = $3",
        )
        .bind(owner)
        .bind(other)
        .bind(kind.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The live accounts `owner` holds `kind` about, newest relation
    /// first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn related_by(
        &self,
        owner: &str,
        kind: RelationKind,
        limit: u32,
    ) -> Result<Vec<Account>, StoreError> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM relations r JOIN accounts a ON a.player_id = r.other_id \
             WHERE r.owner_id = $1 AND r.kind = $2 AND a.deleted_at IS NULL \
             ORDER BY r.created_at DESC, a.username_key LIMIT $3"
        );
        let rows = sqlx::query(&sql)
            .bind(owner)
            .bind(kind.as_str())
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(account_of).collect()
    }

    /// The live accounts that hold `kind` about `other` (its followers,
    /// say), newest relation first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn related_to(
        &self,
        other: &str,
        kind: RelationKind,
        limit: u32,
    ) -> Result<Vec<Account>, StoreError> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM relations r JOIN accounts a ON a.player_id = r.owner_id \
             WHERE r.other_id = $1 AND r.kind = $2 AND a.deleted_at IS NULL \
             ORDER BY r.created_at DESC, a.username_key LIMIT $3"
        );
        let rows = sqlx::query(&sql)
            .bind(other)
            .bind(kind.as_str())
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(account_of).collect()
    }

    /// How many live accounts `player` follows, and how many follow it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn follow_counts(&self, player: &str) -> Result<(u64, u64), StoreError> {
        let count = |sql: &'static str| async move {
            let n: i64 = sqlx::query(sql)
                .bind(player)
                .fetch_one(&self.pool)
                .await?
                .try_get(0)?;
            Ok::<u64, StoreError>(u64::try_from(n).unwrap_or(0))
        };
        let following = count(
            "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.player_id = r.other_id \
             WHERE r.owner_id = $1 AND r.kind = 'follow' AND a.deleted_at IS NULL",
        )
        .await?;
        let followers = count(
            "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.player_id = r.owner_id \
             WHERE r.other_id = $1 AND r.kind = 'follow' AND a.deleted_at IS NULL",
        )
        .await?;
        Ok((following, followers))
    }

    /// Whether `a` and `b` ever sat at the same game (one White, the
    /// other Black).
    ///
    /// # Errors
    /// A database failure.
    pub async fn have_played(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 FROM games WHERE (white_player = $1 AND black_player = $2) \
             OR (white_player = $2 AND black_player = $1) LIMIT 1",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }
}
