//! Accounts and log-in sessions: the SQL of `accounts` and `sessions`, and
//! moving a browser's anonymous games to an account.
//!
//! Session ids never reach the database: callers pass a hash of the id.

use std::collections::HashMap;

use sqlx::AnyConnection;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::{Store, get_bool};
use crate::error::StoreError;

/// A live (not deleted) account, as the rest of the server sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The account's player id (what games reference).
    pub player_id: String,
    /// The name as typed at sign-up.
    pub username: String,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
    /// A bot account: it plays through the Bot API only (irreversible).
    pub bot: bool,
}

/// An account with its password hash, for log-in checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    /// Who.
    pub account: Account,
    /// The PHC string of the password hash.
    pub password_hash: String,
}

/// A session to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession<'a> {
    /// Hash of the session id (hex).
    pub id_hash: &'a str,
    /// The account's player id.
    pub player_id: &'a str,
    /// Now, Unix milliseconds.
    pub now: i64,
    /// Expiry, Unix milliseconds.
    pub expires_at: i64,
}

/// An account to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewAccount<'a> {
    /// Its new player id.
    pub player_id: &'a str,
    /// The name as typed.
    pub username: &'a str,
    /// The PHC string of its password hash.
    pub password_hash: &'a str,
    /// Now, Unix milliseconds.
    pub now: i64,
}

impl NewAccount<'_> {
    fn account(&self) -> Account {
        Account {
            player_id: self.player_id.to_owned(),
            username: self.username.to_owned(),
            created_at: self.now,
            bot: false,
        }
    }
}

/// A log-in: the new session and what it replaces or takes over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogIn<'a> {
    /// The session to store.
    pub session: NewSession<'a>,
    /// The hash of the session the request had, ended.
    pub replaces: Option<&'a str>,
    /// The anonymous player whose games and Learn progress go to the account.
    pub adopt: Option<&'a str>,
    /// The address (client key) the account logs in from, noted for the
    /// moderators ([`Store::shared_address_games`]).
    pub address: Option<&'a str>,
}

/// Who sits on a seat, for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatInfo {
    /// A player without an account.
    Anonymous,
    /// An account, by name.
    User(String),
    /// An account that was deleted.
    Deleted,
}

fn account_from_row(r: &AnyRow) -> Result<Account, StoreError> {
    Ok(Account {
        player_id: r.try_get(0)?,
        username: r.try_get(1)?,
        created_at: r.try_get(2)?,
        bot: get_bool(r, 3)?,
    })
}

impl Store {
    /// Creates an account (and its player) in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the name is taken in any case; a database failure.
    pub async fn create_account(
        &self,
        player_id: &str,
        username: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<Account, StoreError> {
        let account = NewAccount {
            player_id,
            username,
            password_hash,
            now,
        };
        let mut tx = self.begin_write().await?;
        insert_account(&mut tx, &account).await?;
        tx.commit().await?;
        Ok(account.account())
    }

    /// Signs up: creates the account, uses its `invite` code if it has
    /// one, and starts its session as [`Store::log_in`] does, all in one
    /// transaction, so that a failure leaves neither the name taken nor
    /// the invitation used nor anything else changed.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the name is taken in any case;
    /// [`StoreError::Uninvited`] when no unused invitation has the code; a
    /// database failure.
    pub async fn sign_up(
        &self,
        account: &NewAccount<'_>,
        login: &LogIn<'_>,
        invite: Option<&str>,
    ) -> Result<(Account, Vec<String>), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_account(&mut tx, account).await?;
        if let Some(code) = invite
            && !crate::site::use_invite_in(&mut tx, code, account.player_id, account.now).await?
        {
            return Err(StoreError::Uninvited);
        }
        let ongoing = start_session(&mut tx, login).await?;
        tx.commit().await?;
        Ok((account.account(), ongoing))
    }

    /// Logs in: ends the session the request had, stores the new one, and
    /// gives the anonymous player's games and Learn progress to the
    /// account, in one transaction. Returns the ids of the moved games
    /// still being played.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn log_in(&self, login: &LogIn<'_>) -> Result<Vec<String>, StoreError> {
        let mut tx = self.begin_write().await?;
        let ongoing = start_session(&mut tx, login).await?;
        tx.commit().await?;
        Ok(ongoing)
    }

    /// The live accounts named in `names` (any case), in one query per 500
    /// names, keyed by their lower-cased name.
    ///
    /// # Errors
    /// A database failure.
    pub async fn accounts_named(
        &self,
        names: &[&str],
    ) -> Result<HashMap<String, Account>, StoreError> {
        let mut out = HashMap::with_capacity(names.len());
        let keys: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        for chunk in keys.chunks(500) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT player_id, username, created_at, CAST(bot AS INTEGER) FROM accounts \
                 WHERE username_key IN ({}) AND deleted_at IS NULL",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql);
            for k in chunk {
                q = q.bind(k.as_str());
            }
            for row in q.fetch_all(&self.pool).await? {
                let a = account_from_row(&row)?;
                out.insert(a.username.to_lowercase(), a);
            }
        }
        Ok(out)
    }

    /// The live account named `username` (any case) with its password hash.
    ///
    /// # Errors
    /// A database failure.
    pub async fn account_by_name(&self, username: &str) -> Result<Option<AccountRow>, StoreError> {
        self.live_account("username_key", &username.to_lowercase())
            .await
    }

    /// The live account of `player_id` with its password hash.
    ///
    /// # Errors
    /// A database failure.
    pub async fn account_row(&self, player_id: &str) -> Result<Option<AccountRow>, StoreError> {
        self.live_account("player_id", player_id).await
    }

    async fn live_account(
        &self,
        column: &'static str,
        value: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT player_id, username, created_at, CAST(bot AS INTEGER), password_hash FROM accounts \
             WHERE {column} = $1 AND deleted_at IS NULL"
        ))
        .bind(value)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(AccountRow {
                account: account_from_row(&r)?,
                password_hash: r.try_get(4)?,
            })
        })
        .transpose()
    }

    /// Replaces the password hash of a live account.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_password(&self, player_id: &str, hash: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE accounts SET password_hash = $1 WHERE player_id = $2 AND deleted_at IS NULL",
        )
        .bind(hash)
        .bind(player_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Deletes an account: its sessions and API tokens go, it leaves its
    /// clubs (a club it led alone passes to its longest-standing member),
    /// the challenges it made or received that still wait are cancelled,
    /// its password is wiped, and its games stay (shown as a deleted
    /// player). The name stays reserved. Returns the cancelled challenges
    /// (their other players are to be told).
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn delete_account(
        &self,
        player_id: &str,
        now: i64,
    ) -> Result<Vec<crate::challenges::ChallengeRow>, StoreError> {
        let mut tx = self.begin_write().await?;
        for sql in [
            "DELETE FROM sessions WHERE player_id = $1",
            "DELETE FROM api_tokens WHERE player_id = $1",
            "DELETE FROM oauth_codes WHERE player_id = $1",
            "DELETE FROM account_addresses WHERE player_id = $1",
            "DELETE FROM storm_runs WHERE player_id = $1",
            "DELETE FROM account_prefs WHERE player_id = $1",
        ] {
            sqlx::query(sql).bind(player_id).execute(&mut *tx).await?;
        }
        crate::clubs::leave_all_clubs(&mut tx, player_id).await?;
        let canceled = crate::challenges::cancel_waiting_of(&mut tx, player_id, now).await?;
        sqlx::query(
            "UPDATE accounts SET deleted_at = $1, password_hash = '' \
             WHERE player_id = $2 AND deleted_at IS NULL",
        )
        .bind(now)
        .bind(player_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(canceled)
    }

    /// Stores a new session.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create_session(&self, s: &NewSession<'_>) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        insert_session(&mut conn, s).await
    }

    /// The account of an unexpired session, with the session's last-seen time.
    ///
    /// # Errors
    /// A database failure.
    pub async fn session(
        &self,
        id_hash: &str,
        now: i64,
    ) -> Result<Option<(Account, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT a.player_id, a.username, a.created_at, CAST(a.bot AS INTEGER), s.last_seen_at \
             FROM sessions s JOIN accounts a ON a.player_id = s.player_id \
             WHERE s.id_hash = $1 AND s.expires_at > $2 AND a.deleted_at IS NULL",
        )
        .bind(id_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((account_from_row(&r)?, r.try_get(4)?)))
            .transpose()
    }

    /// Slides a session's expiry.
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch_session(
        &self,
        id_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE id_hash = $3")
            .bind(now)
            .bind(expires_at)
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes one session.
    ///
    /// # Errors
    /// A database failure.
    pub async fn delete_session(&self, id_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes every session of an account but `keep`; returns how many.
    ///
    /// # Errors
    /// A database failure.
    pub async fn delete_other_sessions(
        &self,
        player_id: &str,
        keep: &str,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND id_hash <> $2")
            .bind(player_id)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Deletes expired sessions; returns how many.
    ///
    /// # Errors
    /// A database failure.
    pub async fn purge_sessions(&self, now: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Gives the games of player `from` to player `to`, in one transaction.
    /// Returns the ids of the moved games that are still being played.
    ///
    /// # Errors
    /// A database failure; nothing moves then.
    pub async fn move_games(&self, from: &str, to: &str) -> Result<Vec<String>, StoreError> {
        let mut tx = self.begin_write().await?;
        let ongoing = move_games(&mut tx, from, to).await?;
        tx.commit().await?;
        Ok(ongoing)
    }

    /// Who player `player_id` is, for display.
    ///
    /// # Errors
    /// A database failure.
    pub async fn seat_info(&self, player_id: &str) -> Result<SeatInfo, StoreError> {
        let mut one = self.seat_infos(&[player_id]).await?;
        Ok(one.remove(player_id).unwrap_or(SeatInfo::Anonymous))
    }

    /// [`Store::seat_info`] of several players in one query; a player
    /// without an account is absent from the map.
    ///
    /// # Errors
    /// A database failure.
    pub async fn seat_infos(
        &self,
        players: &[&str],
    ) -> Result<HashMap<String, SeatInfo>, StoreError> {
        let rows = self
            .rows_of_players(
                "SELECT player_id, username, deleted_at FROM accounts",
                players,
            )
            .await?;
        let mut out = HashMap::new();
        for r in rows {
            let info = if r.try_get::<Option<i64>, _>(2)?.is_some() {
                SeatInfo::Deleted
            } else {
                SeatInfo::User(r.try_get(1)?)
            };
            out.insert(r.try_get(0)?, info);
        }
        Ok(out)
    }

    /// `player`'s stored preferences (JSON), if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn prefs(&self, player: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT prefs FROM account_prefs WHERE player_id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Stores `player`'s preferences (JSON), replacing any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_prefs(&self, player: &str, prefs: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO account_prefs (player_id, prefs, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (player_id) DO UPDATE SET prefs = excluded.prefs, updated_at = excluded.updated_at",
        )
        .bind(player)
        .bind(prefs)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Which of `players` are bot accounts.
    ///
    /// # Errors
    /// A database failure.
    pub async fn bots_among(
        &self,
        players: &[&str],
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let rows = self
            .rows_of_players(
                "SELECT player_id, CAST(bot AS INTEGER) FROM accounts",
                players,
            )
            .await?;
        let mut out = std::collections::HashSet::new();
        for r in rows {
            if crate::db::get_bool(&r, 1)? {
                out.insert(r.try_get(0)?);
            }
        }
        Ok(out)
    }

    /// The live account named `username` (any case), without its password.
    ///
    /// # Errors
    /// A database failure.
    pub async fn account_named(&self, username: &str) -> Result<Option<Account>, StoreError> {
        Ok(self.account_by_name(username).await?.map(|a| a.account))
    }

    /// At most `limit` live accounts, neither deleted nor closed, whose
    /// name begins with `prefix` (any case), in name order: `(player id,
    /// name)`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn names_beginning(
        &self,
        prefix: &str,
        limit: u32,
    ) -> Result<Vec<(String, String)>, StoreError> {
        // `_` and `%` match anything in LIKE: escaped, they match themselves.
        let pattern: String = prefix
            .to_lowercase()
            .chars()
            .flat_map(|c| match c {
                '\\' | '_' | '%' => vec!['\\', c],
                c => vec![c],
            })
            .chain(std::iter::once('%'))
            .collect();
        let rows = sqlx::query(
            "SELECT a.player_id, a.username FROM accounts a WHERE a.username_key LIKE $1 ESCAPE '\\' \
             AND a.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM mod_marks m \
             WHERE m.player_id = a.player_id AND m.mark = 'close') \
             ORDER BY a.username_key LIMIT $2",
        )
        .bind(pattern)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut found: Vec<(String, String)> = rows
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, StoreError>>()?;
        // In byte order on both databases (PostgreSQL's collation may differ).
        found.sort_by_key(|(_, name)| name.to_lowercase());
        Ok(found)
    }
}

async fn insert_account(conn: &mut AnyConnection, a: &NewAccount<'_>) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO players (id, created_at, last_seen_at) VALUES ($1, $2, $2)")
        .bind(a.player_id)
        .bind(a.now)
        .execute(&mut *conn)
        .await?;
    let inserted = sqlx::query(
        "INSERT INTO accounts (player_id, username, username_key, password_hash, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(a.player_id)
    .bind(a.username)
    .bind(a.username.to_lowercase())
    .bind(a.password_hash)
    .bind(a.now)
    .execute(&mut *conn)
    .await;
    match inserted {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(StoreError::Taken(a.username.to_owned()))
        }
        Err(e) => Err(e.into()),
    }
}

async fn insert_session(conn: &mut AnyConnection, s: &NewSession<'_>) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO sessions (id_hash, player_id, created_at, last_seen_at, expires_at) \
         VALUES ($1, $2, $3, $3, $4)",
    )
    .bind(s.id_hash)
    .bind(s.player_id)
    .bind(s.now)
    .bind(s.expires_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The steps of [`Store::log_in`], inside the caller's transaction.
async fn start_session(
    conn: &mut AnyConnection,
    login: &LogIn<'_>,
) -> Result<Vec<String>, StoreError> {
    if let Some(old) = login.replaces {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(old)
            .execute(&mut *conn)
            .await?;
    }
    insert_session(conn, &login.session).await?;
    if let Some(address) = login.address {
        crate::addresses::seen_on_address_in(
            conn,
            login.session.player_id,
            address,
            login.session.now,
        )
        .await?;
    }
    let Some(from) = login.adopt else {
        return Ok(Vec::new());
    };
    let to = login.session.player_id;
    crate::learn::move_learn_progress(conn, from, to).await?;
    move_games(conn, from, to).await
}

async fn move_games(
    conn: &mut AnyConnection,
    from: &str,
    to: &str,
) -> Result<Vec<String>, StoreError> {
    let ongoing = sqlx::query(
        "SELECT id FROM games WHERE (white_player = $1 OR black_player = $1) \
         AND status = 'ongoing'",
    )
    .bind(from)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| r.try_get::<String, _>(0))
    .collect::<Result<Vec<_>, _>>()?;
    for column in ["white_player", "black_player"] {
        sqlx::query(&format!(
            "UPDATE games SET {column} = $1 WHERE {column} = $2"
        ))
        .bind(to)
        .bind(from)
        .execute(&mut *conn)
        .await?;
    }
    Ok(ongoing)
}

impl From<SeatInfo> for plyyard_wire::protocol::SeatJson {
    fn from(s: SeatInfo) -> plyyard_wire::protocol::SeatJson {
        let (kind, name) = match s {
            SeatInfo::Anonymous => (plyyard_wire::protocol::SeatKind::Anonymous, None),
            SeatInfo::User(n) => (plyyard_wire::protocol::SeatKind::User, Some(n)),
            SeatInfo::Deleted => (plyyard_wire::protocol::SeatKind::Deleted, None),
        };
        plyyard_wire::protocol::SeatJson {
            kind,
            name,
            level: None,
        }
    }
}
