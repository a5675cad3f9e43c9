//! Game chat: the SQL of `chat_lines`, the lines said in each room (player
//! or spectator) of a table game, numbered within their room (and the
//! rooms of clubs and Arenas). A line said while its author is muted
//! (moderation's shadow mute) is stored `shadow`: only its author reads it.

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;

/// How many times a line is numbered again when another one took its
/// number meanwhile.
const INSERT_TRIES: u32 = 5;

/// A line of chat, stored or to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLineRow {
    /// The game.
    pub game_id: String,
    /// `player` or `spectator`.
    pub room: String,
    /// The author's player id.
    pub author: String,
    /// The author's username when they spoke.
    pub author_name: String,
    /// What they said.
    pub text: String,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

impl Store {
    /// Stores a line at the end of its room; returns whether it is a
    /// shadow line (its author is muted: nobody else will read it),
    /// decided in the same transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn add_chat_line(&self, line: &ChatLineRow) -> Result<bool, StoreError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let mut tx = self.begin_write().await?;
            let seq: i64 = sqlx::query(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat_lines WHERE game_id = $1 AND room = $2",
            )
            .bind(line.game_id.as_str())
            .bind(line.room.as_str())
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
            let shadow =
                sqlx::query("SELECT 1 FROM mod_marks WHERE player_id = $1 AND mark = 'mute'")
                    .bind(line.author.as_str())
                    .fetch_optional(&mut *tx)
                    .await?
                    .is_some();
            let done = sqlx::query(
                "INSERT INTO chat_lines (game_id, room, seq, author, author_name, text, created_at, shadow) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(line.game_id.as_str())
            .bind(line.room.as_str())
            .bind(seq)
            .bind(line.author.as_str())
            .bind(line.author_name.as_str())
            .bind(line.text.as_str())
            .bind(line.created_at)
            .bind(shadow)
            .execute(&mut *tx)
            .await;
            match done {
                Ok(_) => {
                    tx.commit().await?;
                    return Ok(shadow);
                }
                Err(sqlx::Error::Database(e))
                    if e.is_unique_violation() && tries < INSERT_TRIES =>
                {
                    drop(tx);
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// The last `limit` lines of a room that everyone reads (shadow
    /// lines left out), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat_lines(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatLineRow>, StoreError> {
        self.chat_lines_for(game_id, room, limit, None).await
    }

    /// The last `limit` lines of a room as account `viewer` reads them
    /// (the shadow lines they said themselves included), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat_lines_for(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
        viewer: Option<&str>,
    ) -> Result<Vec<ChatLineRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT author, author_name, text, created_at FROM chat_lines \
             WHERE game_id = $1 AND room = $2 AND (shadow = FALSE OR author = $4) \
             ORDER BY seq DESC LIMIT $3",
        )
        .bind(game_id)
        .bind(room)
        .bind(i64::from(limit))
        .bind(viewer.unwrap_or(""))
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows
            .iter()
            .map(|r| {
                Ok(ChatLineRow {
                    game_id: game_id.to_owned(),
                    room: room.to_owned(),
                    author: r.try_get(0)?,
                    author_name: r.try_get(1)?,
                    text: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        lines.reverse();
        Ok(lines)
    }
}
