//! Private messages: the SQL of `msg_threads` and `msgs`. A thread holds
//! the messages between two accounts, numbered from 1, with its last
//! message and who has not read it yet, so that an inbox and its unread
//! count take one query each.

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;

/// A message, stored or to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MsgRow {
    /// Its author's player id.
    pub author: String,
    /// Its text.
    pub text: String,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

/// A thread as its reader sees it in the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadRow {
    /// The other player's id.
    pub other: String,
    /// The other player's name (`None` when their account was deleted).
    pub other_name: Option<String>,
    /// The last message.
    pub last: MsgRow,
    /// Whether the last message's recipient has read it.
    pub read: bool,
}

impl ThreadRow {
    /// Whether `reader` has a message here they have not read.
    pub fn unread_by(&self, reader: &str) -> bool {
        !self.read && self.last.author != reader
    }
}

/// The id of the thread between `a` and `b`: both ids, the smaller first.
pub fn thread_id(a: &str, b: &str) -> String {
    if a <= b {
        format!("{a} {b}")
    } else {
        format!("{b} {a}")
    }
}

impl Store {
    /// Adds a message from `from` to `to` at the end of their thread (made
    /// at the first message), which `to` has not read yet. One
    /// transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn add_msg(&self, from: &str, to: &str, msg: &MsgRow) -> Result<(), StoreError> {
        let id = thread_id(from, to);
        let (a, b) = if from <= to { (from, to) } else { (to, from) };
        let mut tx = self.begin_write().await?;
        let seq: i64 = sqlx::query(
            "INSERT INTO msg_threads \
             (id, player_a, player_b, nb_msgs, last_author, last_text, last_at, unread_by) \
             VALUES ($1, $2, $3, 1, $4, $5, $6, $7) \
             ON CONFLICT (id) DO UPDATE SET nb_msgs = msg_threads.nb_msgs + 1, \
             last_author = excluded.last_author, last_text = excluded.last_text, \
             last_at = excluded.last_at, unread_by = excluded.unread_by \
             RETURNING nb_msgs",
        )
        .bind(id.as_str())
        .bind(a)
        .bind(b)
        .bind(from)
        .bind(msg.text.as_str())
        .bind(msg.created_at)
        .bind(to)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        sqlx::query(
            "INSERT INTO msgs (thread_id, seq, author, text, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id.as_str())
        .bind(seq)
        .bind(from)
        .bind(msg.text.as_str())
        .bind(msg.created_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The last `limit` messages between `a` and `b`, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn msgs_between(
        &self,
        a: &str,
        b: &str,
        limit: u32,
    ) -> Result<Vec<MsgRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT author, text, created_at FROM msgs WHERE thread_id = $1 \
             ORDER BY seq DESC LIMIT $2",
        )
        .bind(thread_id(a, b))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut msgs = rows
            .iter()
            .map(|r| {
                Ok(MsgRow {
                    author: r.try_get(0)?,
                    text: r.try_get(1)?,
                    created_at: r.try_get(2)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        msgs.reverse();
        Ok(msgs)
    }

    /// `reader`'s threads, the latest message first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn msg_threads(
        &self,
        reader: &str,
        limit: u32,
    ) -> Result<Vec<ThreadRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT CASE WHEN t.player_a = $1 THEN t.player_b ELSE t.player_a END, a.username, \
             a.deleted_at, t.last_author, t.last_text, t.last_at, t.unread_by \
             FROM msg_threads t \
             LEFT JOIN accounts a ON a.player_id = \
             (CASE WHEN t.player_a = $1 THEN t.player_b ELSE t.player_a END) \
             WHERE t.player_a = $1 OR t.player_b = $1 ORDER BY t.last_at DESC, t.id LIMIT $2",
        )
        .bind(reader)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let deleted: Option<i64> = r.try_get(2)?;
                let unread_by: Option<String> = r.try_get(6)?;
                Ok(ThreadRow {
                    other: r.try_get(0)?,
                    other_name: if deleted.is_some() {
                        None
                    } else {
                        r.try_get(1)?
                    },
                    last: MsgRow {
                        author: r.try_get(3)?,
                        text: r.try_get(4)?,
                        created_at: r.try_get(5)?,
                    },
                    read: unread_by.is_none(),
                })
            })
            .collect()
    }

    /// Whether `author` ever wrote to `reader`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn has_written(&self, author: &str, reader: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM msgs WHERE thread_id = $1 AND author = $2 LIMIT 1")
            .bind(thread_id(author, reader))
            .bind(author)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// `reader` read their thread with `other`. Whether it was unread.
    ///
    /// # Errors
    /// A database failure.
    pub async fn read_thread(&self, reader: &str, other: &str) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE msg_threads SET unread_by = NULL WHERE id = $1 AND unread_by = $2")
                .bind(thread_id(reader, other))
                .bind(reader)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() > 0)
    }

    /// How many of `reader`'s threads end with a message they have not
    /// read.
    ///
    /// # Errors
    /// A database failure.
    pub async fn unread_threads(&self, reader: &str) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM msg_threads WHERE unread_by = $1")
            .bind(reader)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
