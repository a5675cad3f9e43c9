//! Personal access tokens: created, listed and revoked by their owner
//! through the web app (`/api/account/tokens`, session cookie and same
//! origin only: a token never mints or sees tokens), and tested by anyone
//! (`POST /api/token/test`, as lichess).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use plyyard_wire::lichess::{OK, Scopes};
use serde::{Deserialize, Serialize};

use super::caller::Caller;
use super::error::{LiError, LiResult};
use crate::bearer::{self, PERSONAL_CHARS, PERSONAL_PREFIX};
use crate::body::{JsonBody, json_body};
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_live::rfc3339;
use plyyard_store::{NewToken, Store, TokenKind, TokenRow, now_ms};

/// Tokens one account may hold at once.
pub const MAX_TOKENS: u32 = 100;
/// Characters of a token's description at most.
pub const MAX_DESCRIPTION: usize = 200;
/// Tokens one `POST /api/token/test` may name at most.
pub const MAX_TESTED: usize = 500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTokenBody {
    description: String,
    scopes: Vec<String>,
}

/// A token as its owner sees it (never its secret, except once at
/// creation in [`Created`]).
#[derive(Serialize)]
struct TokenJson {
    id: String,
    scopes: Vec<String>,
    description: String,
    kind: &'static str,
    client_id: Option<String>,
    created_at: String,
    last_used_at: Option<String>,
    expires_at: Option<String>,
}

impl From<TokenRow> for TokenJson {
    fn from(t: TokenRow) -> TokenJson {
        TokenJson {
            id: t.id,
            scopes: t
                .scopes
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            description: t.description,
            kind: match t.kind {
                TokenKind::Personal => "personal",
                TokenKind::OAuth => "oauth",
            },
            client_id: t.client_id,
            created_at: rfc3339(t.created_at),
            last_used_at: t.last_used_at.map(rfc3339),
            expires_at: t.expires_at.map(rfc3339),
        }
    }
}

/// A token just created, with its secret (shown this once).
#[derive(Debug, Serialize)]
pub struct Created {
    /// Its public id.
    pub id: String,
    /// The secret.
    pub token: String,
    /// Its scopes.
    pub scopes: Vec<String>,
    /// Its description.
    pub description: String,
    /// Creation time, RFC 3339.
    pub created_at: String,
}

/// Creates a personal token of `player_id` (a live account) with `scopes`
/// and a checked `description`.
///
/// # Errors
/// 409 when the account holds [`MAX_TOKENS`] already; a database failure.
pub async fn issue_personal(
    store: &Store,
    player_id: &str,
    scopes: &Scopes,
    description: &str,
) -> LiResult<Created> {
    let token = bearer::mint(PERSONAL_PREFIX, PERSONAL_CHARS);
    let id = bearer::mint("", 16);
    let now = now_ms();
    let stored_scopes = scopes.to_string();
    let stored = store
        .create_token(
            &NewToken {
                id: &id,
                hash: &bearer::hash(&token),
                player_id,
                kind: TokenKind::Personal,
                scopes: &stored_scopes,
                description,
                client_id: None,
                now,
                expires_at: None,
            },
            MAX_TOKENS,
        )
        .await?;
    if !stored {
        return Err(LiError::new(
            StatusCode::CONFLICT,
            format!("an account holds at most {MAX_TOKENS} tokens: revoke one first"),
        ));
    }
    Ok(Created {
        id,
        token,
        scopes: scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        description: description.to_owned(),
        created_at: rfc3339(now),
    })
}

/// The caller's account, when it came with its session (not a token).
fn by_session(caller: &Caller) -> LiResult<()> {
    if caller.token.is_some() {
        return Err(LiError::new(
            StatusCode::FORBIDDEN,
            "tokens are managed with a session (the web app), not with a token",
        ));
    }
    Ok(())
}

/// A description as stored: trimmed, 1 to [`MAX_DESCRIPTION`] characters,
/// no control characters.
pub fn check_description(text: &str) -> LiResult<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(LiError::bad_request("a token needs a description"));
    }
    if text.chars().count() > MAX_DESCRIPTION {
        return Err(LiError::bad_request(format!(
            "a description has at most {MAX_DESCRIPTION} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(LiError::bad_request(
            "a description cannot hold control characters",
        ));
    }
    if let Some(why) = plyyard_social::text::spoofing(text) {
        return Err(LiError::bad_request(format!("a description: {why}")));
    }
    Ok(text.to_owned())
}

/// `POST /api/account/tokens`: a new personal token, shown this once.
pub(super) async fn create(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    body: JsonBody,
) -> LiResult<Response> {
    by_session(&caller)?;
    let req: NewTokenBody = json_body(body, "token request")?;
    let description = check_description(&req.description)?;
    if req.scopes.len() > 20 {
        return Err(LiError::bad_request("too many scopes"));
    }
    let scopes =
        Scopes::parse(&req.scopes.join(",")).map_err(|e| LiError::bad_request(e.to_string()))?;
    if scopes.is_empty() {
        return Err(LiError::bad_request("a token needs at least one scope"));
    }
    let key = AccountKey(caller.account.player_id.clone());
    limits
        .check_credentials(ip, Some(&key))
        .await
        .map_err(crate::error::ApiError::from)?;
    let body = issue_personal(&store, &caller.account.player_id, &scopes, &description).await?;
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Serialize)]
pub(super) struct TokenList {
    tokens: Vec<TokenJson>,
}

/// `GET /api/account/tokens`: the account's tokens, newest first.
pub(super) async fn list(State(store): State<Store>, caller: Caller) -> LiResult<Json<TokenList>> {
    by_session(&caller)?;
    let rows = store.tokens_of(&caller.account.player_id, now_ms()).await?;
    let list = TokenList {
        tokens: rows.into_iter().map(TokenJson::from).collect(),
    };
    Ok(Json(list))
}

/// `DELETE /api/account/tokens/{id}`: revokes one of the account's tokens,
/// ending at once the streams opened with it (on every node).
pub(super) async fn revoke(
    State(store): State<Store>,
    State(social): State<plyyard_social::Social>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    by_session(&caller)?;
    if !bearer::well_formed(&id) || !store.revoke_token(&caller.account.player_id, &id).await? {
        return Err(LiError::not_found("no such token"));
    }
    social.revocation.end_token_streams(&id);
    Ok(Json(OK))
}

/// What `POST /api/token/test` says of one token.
#[derive(Serialize)]
struct Tested {
    #[serde(rename = "userId")]
    user_id: String,
    scopes: String,
    expires: Option<i64>,
}

/// `POST /api/token/test`: a raw body of comma-separated tokens; for each,
/// its user, scopes and expiry, or `null`.
pub(super) async fn test(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    reader: super::caller::Reader,
    body: JsonBody,
) -> LiResult<Response> {
    let bytes = body.map_err(|e| LiError::new(e.status(), e.body_text()))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| LiError::bad_request("the body must be comma-separated tokens"))?;
    let tokens: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > MAX_TESTED {
        return Err(LiError::bad_request(format!(
            "at most {MAX_TESTED} tokens at once"
        )));
    }
    // A read per hundred tokens looked up.
    reader
        .count(
            &limits,
            u32::try_from(tokens.len().div_ceil(100)).unwrap_or(u32::MAX),
        )
        .await?;
    let now = now_ms();
    let mut out: BTreeMap<&str, Option<Tested>> = BTreeMap::new();
    for t in tokens {
        let found = if bearer::well_formed(t) {
            store.token_by_hash(&bearer::hash(t), now).await?
        } else {
            None
        };
        let tested = found.map(|(account, row)| Tested {
            user_id: account.username.to_lowercase(),
            scopes: row.scopes,
            expires: row.expires_at,
        });
        out.insert(t, tested);
    }
    Ok(Json(out).into_response())
}
