//! API credentials: the SQL of `api_tokens` (personal and OAuth access
//! tokens), `oauth_codes` (one-use authorization codes of the PKCE flow),
//! and the irreversible upgrade of an account to a bot.
//!
//! Tokens and codes never reach the database: callers pass the hex SHA-256
//! of the secret. A token row has a public random `id` for listing and
//! revoking.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::accounts::Account;
use crate::db::{Store, get_bool, parsed};
use crate::error::StoreError;

/// Where a token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Created by its owner (`lip_…`).
    Personal,
    /// Obtained by an OAuth client (`lio_…`).
    OAuth,
}

impl TokenKind {
    fn as_str(self) -> &'static str {
        match self {
            TokenKind::Personal => "personal",
            TokenKind::OAuth => "oauth",
        }
    }
}

impl std::str::FromStr for TokenKind {
    type Err = ();

    fn from_str(s: &str) -> Result<TokenKind, ()> {
        match s {
            "personal" => Ok(TokenKind::Personal),
            "oauth" => Ok(TokenKind::OAuth),
            _ => Err(()),
        }
    }
}

/// A token to store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewToken<'a> {
    /// Its public id.
    pub id: &'a str,
    /// The hex SHA-256 of the token.
    pub hash: &'a str,
    /// The account's player id.
    pub player_id: &'a str,
    /// Where it came from.
    pub kind: TokenKind,
    /// Comma-separated scopes.
    pub scopes: &'a str,
    /// What it is for, as its owner wrote.
    pub description: &'a str,
    /// The OAuth client that obtained it.
    pub client_id: Option<&'a str>,
    /// Now, Unix milliseconds.
    pub now: i64,
    /// When it stops working, Unix milliseconds (`None`: never).
    pub expires_at: Option<i64>,
}

/// A stored token (without its secret, which is never stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    /// Its public id.
    pub id: String,
    /// The account's player id.
    pub player_id: String,
    /// Where it came from.
    pub kind: TokenKind,
    /// Comma-separated scopes.
    pub scopes: String,
    /// What it is for.
    pub description: String,
    /// The OAuth client that obtained it.
    pub client_id: Option<String>,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
    /// Last use, Unix milliseconds (updated at most hourly).
    pub last_used_at: Option<i64>,
    /// Expiry, Unix milliseconds.
    pub expires_at: Option<i64>,
}

/// An authorization code to store (PKCE).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthCode {
    /// The hex SHA-256 of the code.
    pub hash: String,
    /// The approving account's player id.
    pub player_id: String,
    /// The client it was issued to.
    pub client_id: String,
    /// The redirect URI it was issued for.
    pub redirect_uri: String,
    /// BASE64URL(SHA-256(code_verifier)).
    pub code_challenge: String,
    /// Comma-separated approved scopes.
    pub scopes: String,
    /// Expiry, Unix milliseconds.
    pub expires_at: i64,
}

/// What upgrading an account to a bot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotUpgrade {
    /// The account is a bot now.
    Done,
    /// It was one already.
    AlreadyBot,
    /// It has played games: refused.
    HasGames,
    /// No such live account.
    NoAccount,
}

const TOKEN_COLUMNS: &str = "t.id, t.player_id, t.kind, t.scopes, t.description, t.client_id, \
     t.created_at, t.last_used_at, t.expires_at";

fn token_from_row(r: &AnyRow, at: usize) -> Result<TokenRow, StoreError> {
    let kind: String = r.try_get(at + 2)?;
    Ok(TokenRow {
        id: r.try_get(at)?,
        player_id: r.try_get(at + 1)?,
        kind: parsed("api_tokens", "kind", &kind)?,
        scopes: r.try_get(at + 3)?,
        description: r.try_get(at + 4)?,
        client_id: r.try_get(at + 5)?,
        created_at: r.try_get(at + 6)?,
        last_used_at: r.try_get(at + 7)?,
        expires_at: r.try_get(at + 8)?,
    })
}

impl Store {
    /// Stores a token unless its account already holds `cap` unexpired
    /// tokens (checked in the same transaction); whether it was stored.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create_token(&self, t: &NewToken<'_>, cap: u32) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let held: i64 = sqlx::query(
            "SELECT COUNT(*) FROM api_tokens WHERE player_id = $1 \
             AND (expires_at IS NULL OR expires_at > $2)",
        )
        .bind(t.player_id)
        .bind(t.now)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        if held >= i64::from(cap) {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO api_tokens (id, hash, player_id, kind, scopes, description, client_id, \
             created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9)",
        )
        .bind(t.id)
        .bind(t.hash)
        .bind(t.player_id)
        .bind(t.kind.as_str())
        .bind(t.scopes)
        .bind(t.description)
        .bind(t.client_id)
        .bind(t.now)
        .bind(t.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The unexpired token whose hash is `hash`, with its live account.
    ///
    /// # Errors
    /// A database failure.
    pub async fn token_by_hash(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<(Account, TokenRow)>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT a.player_id, a.username, a.created_at, CAST(a.bot AS INTEGER), {TOKEN_COLUMNS} \
             FROM api_tokens t JOIN accounts a ON a.player_id = t.player_id \
             WHERE t.hash = $1 AND (t.expires_at IS NULL OR t.expires_at > $2) \
             AND a.deleted_at IS NULL"
        ))
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let account = Account {
                player_id: r.try_get(0)?,
                username: r.try_get(1)?,
                created_at: r.try_get(2)?,
                bot: get_bool(&r, 3)?,
            };
            Ok((account, token_from_row(&r, 4)?))
        })
        .transpose()
    }

    /// Records that token `id` was used at `now`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch_token(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The unexpired tokens of an account, newest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn tokens_of(&self, player_id: &str, now: i64) -> Result<Vec<TokenRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOKEN_COLUMNS} FROM api_tokens t WHERE t.player_id = $1 \
             AND (t.expires_at IS NULL OR t.expires_at > $2) ORDER BY t.created_at DESC, t.id"
        ))
        .bind(player_id)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| token_from_row(r, 0)).collect()
    }

    /// Revokes token `id` of the account; whether there was one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn revoke_token(&self, player_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM api_tokens WHERE player_id = $1 AND id = $2")
            .bind(player_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Revokes the token whose hash is `hash`; whether there was one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn revoke_token_hash(&self, hash: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM api_tokens WHERE hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Stores an authorization code, dropping expired ones.
    ///
    /// # Errors
    /// A database failure.
    pub async fn create_oauth_code(&self, c: &OAuthCode, now: i64) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM oauth_codes WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO oauth_codes (hash, player_id, client_id, redirect_uri, code_challenge, \
             scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&c.hash)
        .bind(&c.player_id)
        .bind(&c.client_id)
        .bind(&c.redirect_uri)
        .bind(&c.code_challenge)
        .bind(&c.scopes)
        .bind(c.expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes the unexpired code whose hash is `hash`: a code is used at
    /// most once, whatever the exchange's outcome.
    ///
    /// # Errors
    /// A database failure.
    pub async fn take_oauth_code(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<OAuthCode>, StoreError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "SELECT hash, player_id, client_id, redirect_uri, code_challenge, scopes, expires_at \
             FROM oauth_codes WHERE hash = $1",
        )
        .bind(hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        sqlx::query("DELETE FROM oauth_codes WHERE hash = $1")
            .bind(hash)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let code = OAuthCode {
            hash: r.try_get(0)?,
            player_id: r.try_get(1)?,
            client_id: r.try_get(2)?,
            redirect_uri: r.try_get(3)?,
            code_challenge: r.try_get(4)?,
            scopes: r.try_get(5)?,
            expires_at: r.try_get(6)?,
        };
        Ok((code.expires_at > now).then_some(code))
    }

    /// Makes a live account with no games a bot, in one transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upgrade_to_bot(&self, player_id: &str) -> Result<BotUpgrade, StoreError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "SELECT CAST(bot AS INTEGER) FROM accounts WHERE player_id = $1 AND deleted_at IS NULL",
        )
        .bind(player_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(r) = row else {
            return Ok(BotUpgrade::NoAccount);
        };
        if get_bool(&r, 0)? {
            return Ok(BotUpgrade::AlreadyBot);
        }
        let games: i64 =
            sqlx::query("SELECT COUNT(*) FROM games WHERE white_player = $1 OR black_player = $1")
                .bind(player_id)
                .fetch_one(&mut *tx)
                .await?
                .try_get(0)?;
        if games > 0 {
            return Ok(BotUpgrade::HasGames);
        }
        sqlx::query("UPDATE accounts SET bot = TRUE WHERE player_id = $1")
            .bind(player_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(BotUpgrade::Done)
    }
}
