//! Moderation's rows (migration 20): staff roles, the marks on accounts
//! (mute, close, engine), warnings, players' reports and the moderation
//! log. Every change is one transaction with its log entry: an action is
//! either applied and logged or neither. Names of roles, marks, reasons
//! and actions are `plyyard-moderation`'s, passed here as text.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use crate::db::Store;
use crate::db::new_id;
use crate::error::StoreError;

/// Who acts: a moderator's account id, or `None` for the operator's
/// command line.
pub type Actor<'a> = Option<&'a str>;

/// One entry of the moderation log, with names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModLogRow {
    /// The entry's id.
    pub id: String,
    /// When, Unix milliseconds.
    pub at: i64,
    /// Who acted (a username); `None` for the command line.
    pub moderator: Option<String>,
    /// What: the action's log name (`mute`, `unmute`, `role`, `report` …).
    pub action: String,
    /// On whom (a username), if anyone.
    pub target: Option<String>,
    /// Why, or what (the role given, the report's outcome).
    pub details: String,
}

/// A mark on an account, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModMarkRow {
    /// `mute`, `close` or `engine`.
    pub mark: String,
    /// Who set it (a username); `None` for the command line.
    pub moderator: Option<String>,
    /// Why.
    pub reason: String,
    /// When, Unix milliseconds.
    pub at: i64,
}

/// A warning from the moderators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarningRow {
    /// Its id.
    pub id: String,
    /// What the moderators say.
    pub text: String,
    /// When, Unix milliseconds.
    pub at: i64,
}

/// A player's report, with names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// Its id.
    pub id: String,
    /// Who reported (a username).
    pub reporter: String,
    /// The reported account's player id.
    pub reported_id: String,
    /// Who is reported (a username).
    pub reported: String,
    /// `cheat`, `boost`, `abuse` or `other`.
    pub reason: String,
    /// What the reporter wrote.
    pub text: String,
    /// When, Unix milliseconds.
    pub created_at: i64,
    /// When a moderator closed it; `None` while open.
    pub closed_at: Option<i64>,
    /// Who closed it (a username).
    pub closed_by: Option<String>,
    /// What was done, as the moderator said.
    pub outcome: Option<String>,
}

/// A report to store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewReport<'a> {
    /// The reporter's account id.
    pub reporter: &'a str,
    /// The reported account's id.
    pub reported: &'a str,
    /// The reason's name.
    pub reason: &'a str,
    /// The checked text.
    pub text: &'a str,
    /// Now, Unix milliseconds.
    pub now: i64,
}

/// What a mark change did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkChange {
    /// Applied and logged.
    Done,
    /// Nothing to do: the mark was already set (or already lifted).
    Unchanged,
}

/// A moderation entry to log inside a change's transaction.
pub(crate) struct Entry<'a> {
    pub moderator: Actor<'a>,
    pub action: &'a str,
    pub target: Option<&'a str>,
    pub details: &'a str,
    pub now: i64,
}

pub(crate) async fn log_in_tx(
    tx: &mut Transaction<'static, Any>,
    e: &Entry<'_>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO mod_log (id, at, moderator, action, target, details) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(new_id())
    .bind(e.now)
    .bind(e.moderator)
    .bind(e.action)
    .bind(e.target)
    .bind(e.details)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

const LOG_COLUMNS: &str = "l.id, l.at, m.username, l.action, t.username, l.details";
const LOG_FROM: &str = "mod_log l LEFT JOIN accounts m ON m.player_id = l.moderator \
                        LEFT JOIN accounts t ON t.player_id = l.target";

fn log_row(r: &AnyRow) -> Result<ModLogRow, StoreError> {
    Ok(ModLogRow {
        id: r.try_get(0)?,
        at: r.try_get(1)?,
        moderator: r.try_get(2)?,
        action: r.try_get(3)?,
        target: r.try_get(4)?,
        details: r.try_get(5)?,
    })
}

const REPORT_COLUMNS: &str = "r.id, a.username, r.reported, b.username, r.reason, r.text, \
     r.created_at, r.closed_at, c.username, r.outcome";
const REPORT_FROM: &str = "reports r JOIN accounts a ON a.player_id = r.reporter \
     JOIN accounts b ON b.player_id = r.reported \
     LEFT JOIN accounts c ON c.player_id = r.closed_by";

fn report_row(r: &AnyRow) -> Result<ReportRow, StoreError> {
    Ok(ReportRow {
        id: r.try_get(0)?,
        reporter: r.try_get(1)?,
        reported_id: r.try_get(2)?,
        reported: r.try_get(3)?,
        reason: r.try_get(4)?,
        text: r.try_get(5)?,
        created_at: r.try_get(6)?,
        closed_at: r.try_get(7)?,
        closed_by: r.try_get(8)?,
        outcome: r.try_get(9)?,
    })
}

impl Store {
    /// The staff role of account `player_id` (`moderator`, `admin`), if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn staff_role(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT role FROM staff_roles WHERE player_id = $1")
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get(0).map_err(StoreError::from))
            .transpose()
    }

    /// Every account with a staff role: (username, role), by name.
    ///
    /// # Errors
    /// A database failure.
    pub async fn staff(&self) -> Result<Vec<(String, String)>, StoreError> {
        sqlx::query(
            "SELECT a.username, s.role FROM staff_roles s \
             JOIN accounts a ON a.player_id = s.player_id ORDER BY a.username_key",
        )
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
    }

    /// Gives account `target` the staff role `role` (`None`: takes theirs
    /// away) and logs it, in one transaction. [`MarkChange::Unchanged`]
    /// when they already had exactly that.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn set_staff_role(
        &self,
        by: Actor<'_>,
        target: &str,
        role: Option<&str>,
        now: i64,
    ) -> Result<MarkChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let had: Option<String> = sqlx::query("SELECT role FROM staff_roles WHERE player_id = $1")
            .bind(target)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get(0))
            .transpose()?;
        if had.as_deref() == role {
            return Ok(MarkChange::Unchanged);
        }
        sqlx::query("DELETE FROM staff_roles WHERE player_id = $1")
            .bind(target)
            .execute(&mut *tx)
            .await?;
        if let Some(role) = role {
            sqlx::query(
                "INSERT INTO staff_roles (player_id, role, granted_at) VALUES ($1, $2, $3)",
            )
            .bind(target)
            .bind(role)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let details = role.unwrap_or("none");
        let entry = Entry {
            moderator: by,
            action: "role",
            target: Some(target),
            details,
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(MarkChange::Done)
    }

    /// The moderation log, newest first: at most `limit` entries, before
    /// time `before` when given; only those about `target` when given.
    ///
    /// # Errors
    /// A database failure.
    pub async fn mod_log(
        &self,
        target: Option<&str>,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<ModLogRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {LOG_COLUMNS} FROM {LOG_FROM} \
             WHERE ($1 IS NULL OR l.target = $1) AND l.at < $2 \
             ORDER BY l.at DESC, l.id LIMIT $3"
        ))
        .bind(target)
        .bind(before.unwrap_or(i64::MAX))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(log_row)
        .collect()
    }

    /// The marks on account `player_id`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn mod_marks(&self, player_id: &str) -> Result<Vec<ModMarkRow>, StoreError> {
        sqlx::query(
            "SELECT k.mark, m.username, k.reason, k.at FROM mod_marks k \
             LEFT JOIN accounts m ON m.player_id = k.moderator \
             WHERE k.player_id = $1 ORDER BY k.mark",
        )
        .bind(player_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(ModMarkRow {
                mark: r.try_get(0)?,
                moderator: r.try_get(1)?,
                reason: r.try_get(2)?,
                at: r.try_get(3)?,
            })
        })
        .collect()
    }

    /// Whether account `player_id` bears `mark`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn has_mark(&self, player_id: &str, mark: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 FROM mod_marks WHERE player_id = $1 AND mark = $2")
                .bind(player_id)
                .bind(mark)
                .fetch_optional(&self.pool)
                .await?
                .is_some(),
        )
    }

    /// Sets `mark` on account `target` and logs it with `why`, in one
    /// transaction. Closing (`close`) also ends every session of the
    /// account and revokes its API tokens and unexchanged OAuth codes in
    /// the same transaction. [`MarkChange::Unchanged`] (nothing written)
    /// when the mark is there already.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn set_mark(
        &self,
        by: Actor<'_>,
        target: &str,
        mark: &str,
        why: &str,
        now: i64,
    ) -> Result<MarkChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let change = set_mark_in(&mut tx, by, target, (mark, why), now).await?;
        if change == MarkChange::Done {
            tx.commit().await?;
        }
        Ok(change)
    }

    /// Lifts `mark` from account `target` and logs it as `action` with
    /// `why`, in one transaction. [`MarkChange::Unchanged`] (nothing
    /// written) when the mark is not there.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn lift_mark(
        &self,
        by: Actor<'_>,
        target: &str,
        (mark, action): (&str, &str),
        why: &str,
        now: i64,
    ) -> Result<MarkChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let gone = sqlx::query("DELETE FROM mod_marks WHERE player_id = $1 AND mark = $2")
            .bind(target)
            .bind(mark)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Ok(MarkChange::Unchanged);
        }
        let entry = Entry {
            moderator: by,
            action,
            target: Some(target),
            details: why,
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(MarkChange::Done)
    }

    /// Warns account `target` with `text` and logs it, in one transaction.
    /// [`MarkChange::Unchanged`] (nothing written) while an earlier
    /// warning is still unread.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn warn(
        &self,
        by: Actor<'_>,
        target: &str,
        text: &str,
        now: i64,
    ) -> Result<MarkChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let change = warn_in(&mut tx, by, target, text, now).await?;
        if change == MarkChange::Done {
            tx.commit().await?;
        }
        Ok(change)
    }

    /// Withdraws the unread warning of account `target` and logs it as
    /// `unwarn` with `why`. [`MarkChange::Unchanged`] when none is unread.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn withdraw_warning(
        &self,
        by: Actor<'_>,
        target: &str,
        why: &str,
        now: i64,
    ) -> Result<MarkChange, StoreError> {
        let mut tx = self.begin_write().await?;
        let gone = sqlx::query("DELETE FROM mod_warnings WHERE player_id = $1 AND seen_at IS NULL")
            .bind(target)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Ok(MarkChange::Unchanged);
        }
        let entry = Entry {
            moderator: by,
            action: "unwarn",
            target: Some(target),
            details: why,
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(MarkChange::Done)
    }

    /// The unread warning of account `player_id`, if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn unread_warning(&self, player_id: &str) -> Result<Option<WarningRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, text, at FROM mod_warnings WHERE player_id = $1 AND seen_at IS NULL \
             ORDER BY at LIMIT 1",
        )
        .bind(player_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(WarningRow {
                id: r.try_get(0)?,
                text: r.try_get(1)?,
                at: r.try_get(2)?,
            })
        })
        .transpose()
    }

    /// Marks warning `id` of account `player_id` read; whether it was unread.
    ///
    /// # Errors
    /// A database failure.
    pub async fn read_warning(
        &self,
        player_id: &str,
        id: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE mod_warnings SET seen_at = $1 WHERE id = $2 AND player_id = $3 AND seen_at IS NULL",
        )
        .bind(now)
        .bind(id)
        .bind(player_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores a player's report; returns its id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn add_report(&self, r: &NewReport<'_>) -> Result<String, StoreError> {
        let id = new_id();
        sqlx::query(
            "INSERT INTO reports (id, reporter, reported, reason, text, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.as_str())
        .bind(r.reporter)
        .bind(r.reported)
        .bind(r.reason)
        .bind(r.text)
        .bind(r.now)
        .execute(&self.pool)
        .await?;
        Ok(id)
    }

    /// The open reports, oldest first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn open_reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.closed_at IS NULL \
             ORDER BY r.created_at, r.id LIMIT $1"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(report_row)
        .collect()
    }

    /// The reports about account `player_id`, newest first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn reports_about(
        &self,
        player_id: &str,
        limit: u32,
    ) -> Result<Vec<ReportRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.reported = $1 \
             ORDER BY r.created_at DESC, r.id LIMIT $2"
        ))
        .bind(player_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(report_row)
        .collect()
    }

    /// Takes `action` on account `reported` when given (a mark's name
    /// or `warn`, with its reason; one already in place stays as it is),
    /// closes every open report about them with `outcome` (what was
    /// done) and logs both, in one transaction. Returns how many reports
    /// were closed (0: none was open, and nothing is written).
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn close_reports(
        &self,
        by: &str,
        reported: &str,
        action: Option<(&str, &str)>,
        outcome: &str,
        now: i64,
    ) -> Result<u64, StoreError> {
        let mut tx = self.begin_write().await?;
        let reporters: Vec<String> = sqlx::query(
            "SELECT DISTINCT reporter FROM reports WHERE reported = $1 AND closed_at IS NULL \
             ORDER BY reporter",
        )
        .bind(reported)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
        let closed = sqlx::query(
            "UPDATE reports SET closed_at = $1, closed_by = $2, outcome = $3 \
             WHERE reported = $4 AND closed_at IS NULL",
        )
        .bind(now)
        .bind(by)
        .bind(outcome)
        .bind(reported)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if closed == 0 {
            return Ok(0);
        }
        match action {
            Some(("warn", text)) => drop(warn_in(&mut tx, Some(by), reported, text, now).await?),
            Some(mark) => drop(set_mark_in(&mut tx, Some(by), reported, mark, now).await?),
            None => {}
        }
        tell_reporters(&mut tx, &reporters, reported, now).await?;
        let entry = Entry {
            moderator: Some(by),
            action: "report",
            target: Some(reported),
            details: outcome,
            now,
        };
        log_in_tx(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(closed)
    }

    /// The last `limit` chat lines said by `author` anywhere (game rooms,
    /// clubs, Arenas), newest first, shadowed ones included (evidence for
    /// the moderators).
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat_lines_by(
        &self,
        author: &str,
        limit: u32,
    ) -> Result<Vec<(crate::ChatLineRow, bool)>, StoreError> {
        sqlx::query(
            "SELECT game_id, room, author, author_name, text, created_at, CAST(shadow AS INTEGER) \
             FROM chat_lines WHERE author = $1 ORDER BY created_at DESC LIMIT $2",
        )
        .bind(author)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok((
                crate::ChatLineRow {
                    game_id: r.try_get(0)?,
                    room: r.try_get(1)?,
                    author: r.try_get(2)?,
                    author_name: r.try_get(3)?,
                    text: r.try_get(4)?,
                    created_at: r.try_get(5)?,
                },
                crate::db::get_bool(r, 6)?,
            ))
        })
        .collect()
    }
}

/// Sets `mark` (with its reason) on `target` inside `tx`, with its log
/// entry; a close also ends the account's sessions, API tokens and OAuth
/// codes. Writes nothing when the mark is there already.
/// Tells each of `reporters` that their report about `reported` was
/// handled (not how: as on lichess), inside the closing's `tx`.
async fn tell_reporters(
    tx: &mut Transaction<'static, Any>,
    reporters: &[String],
    reported: &str,
    now: i64,
) -> Result<(), StoreError> {
    let name: Option<String> = sqlx::query("SELECT username FROM accounts WHERE player_id = $1")
        .bind(reported)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.try_get(0))
        .transpose()?;
    // As `plyyard_social::notify::Notice::Report` reads it.
    let content = serde_json::json!({"kind": "report", "about": name}).to_string();
    for reporter in reporters {
        sqlx::query(
            "INSERT INTO notifications (id, player_id, kind, content, seen, created_at) \
             VALUES ($1, $2, 'report', $3, FALSE, $4)",
        )
        .bind(new_id())
        .bind(reporter)
        .bind(&content)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

async fn set_mark_in(
    tx: &mut Transaction<'static, Any>,
    by: Actor<'_>,
    target: &str,
    (mark, why): (&str, &str),
    now: i64,
) -> Result<MarkChange, StoreError> {
    let there = sqlx::query("SELECT 1 FROM mod_marks WHERE player_id = $1 AND mark = $2")
        .bind(target)
        .bind(mark)
        .fetch_optional(&mut **tx)
        .await?
        .is_some();
    if there {
        return Ok(MarkChange::Unchanged);
    }
    sqlx::query(
        "INSERT INTO mod_marks (player_id, mark, moderator, reason, at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(target)
    .bind(mark)
    .bind(by)
    .bind(why)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    if mark == "close" {
        for sql in [
            "DELETE FROM sessions WHERE player_id = $1",
            "DELETE FROM api_tokens WHERE player_id = $1",
            "DELETE FROM oauth_codes WHERE player_id = $1",
        ] {
            sqlx::query(sql).bind(target).execute(&mut **tx).await?;
        }
    }
    if mark == "engine" {
        let refunds = crate::refunds::refund_in(tx, target, now).await?;
        if !refunds.is_empty() {
            tracing::info!(player = %target, refunds = refunds.len(), "engine mark: rating points refunded");
        }
    }
    let entry = Entry {
        moderator: by,
        action: mark,
        target: Some(target),
        details: why,
        now,
    };
    log_in_tx(tx, &entry).await?;
    Ok(MarkChange::Done)
}

/// Warns `target` with `text` inside `tx`, with its log entry; writes
/// nothing while an earlier warning is unread.
async fn warn_in(
    tx: &mut Transaction<'static, Any>,
    by: Actor<'_>,
    target: &str,
    text: &str,
    now: i64,
) -> Result<MarkChange, StoreError> {
    let unread = sqlx::query("SELECT 1 FROM mod_warnings WHERE player_id = $1 AND seen_at IS NULL")
        .bind(target)
        .fetch_optional(&mut **tx)
        .await?
        .is_some();
    if unread {
        return Ok(MarkChange::Unchanged);
    }
    sqlx::query(
        "INSERT INTO mod_warnings (id, player_id, moderator, text, at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(new_id())
    .bind(target)
    .bind(by)
    .bind(text)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    let entry = Entry {
        moderator: by,
        action: "warn",
        target: Some(target),
        details: text,
        now,
    };
    log_in_tx(tx, &entry).await?;
    Ok(MarkChange::Done)
}
