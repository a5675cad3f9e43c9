//! Bearer tokens of the Lichess-compatible API: minting the secrets
//! (personal `lip_…`, OAuth `lio_…`, authorization codes `liu_…`), the
//! hash that is all the database keeps, and authenticating a request by
//! its `Authorization: Bearer` header.
//!
//! A request that carries `Authorization` is authenticated by it alone:
//! its cookies are ignored, so it carries no ambient authority (which is
//! why the same-origin rule does not apply to it, see [`crate::security`]).

use axum::Json;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use plyyard_wire::lichess::{ErrorBody, Scopes};
use rand::Rng;
use sha2::{Digest, Sha256};

use plyyard_store::{Account, Store, now_ms};

/// Prefix of personal access tokens.
pub const PERSONAL_PREFIX: &str = "lip_";
/// Prefix of OAuth access tokens.
pub const OAUTH_PREFIX: &str = "lio_";
/// Prefix of OAuth authorization codes.
pub const CODE_PREFIX: &str = "liu_";

/// Random characters after the prefix: 24 alphanumerics of a personal
/// token are 142 bits; 32 of an OAuth token or code, 190.
pub const PERSONAL_CHARS: usize = 24;
/// Random characters of an OAuth token or code.
pub const OAUTH_CHARS: usize = 32;

/// The longest token accepted in a header (lichess allows 512).
pub const MAX_TOKEN_LEN: usize = 512;

/// A token's last use is written at most this often.
const TOUCH_EVERY_MS: i64 = 3600 * 1000;

/// A new secret: `prefix` then `chars` random alphanumerics.
pub fn mint(prefix: &str, chars: usize) -> String {
    let mut s = String::with_capacity(prefix.len() + chars);
    s.push_str(prefix);
    s.extend(
        rand::rng()
            .sample_iter(&rand::distr::Alphanumeric)
            .take(chars)
            .map(char::from),
    );
    s
}

/// What the database keeps of a secret: its SHA-256, hex.
pub fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Whether `s` has the form of a token (`[A-Za-z0-9_]`, at most
/// [`MAX_TOKEN_LEN`]).
pub fn well_formed(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_TOKEN_LEN
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A request authenticated by a token, in its extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenAuth {
    /// The token's account.
    pub account: Account,
    /// The token's public id.
    pub token_id: String,
    /// What it may do.
    pub scopes: Scopes,
    /// The hash of the token (for revoking it by itself).
    pub hash: String,
}

/// Why a bearer request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// `Authorization` is not `Bearer <token>`.
    Malformed,
    /// Unknown, revoked or expired token, or a deleted account.
    NoSuchToken,
    /// The database failed.
    Unavailable,
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let (status, error) = match self {
            Refused::Malformed => (
                StatusCode::UNAUTHORIZED,
                "Invalid authorization header: use `Authorization: Bearer <token>`",
            ),
            Refused::NoSuchToken => (StatusCode::UNAUTHORIZED, "No such token"),
            Refused::Unavailable => (
                StatusCode::SERVICE_UNAVAILABLE,
                "cannot check the token now; try again",
            ),
        };
        let body = ErrorBody {
            error: error.to_owned(),
        };
        (status, Json(body)).into_response()
    }
}

/// The token of an `Authorization` header: `None` when there is no such
/// header, `Some(Err)` when it is not `Bearer <token>`.
pub fn bearer_of(headers: &HeaderMap) -> Option<Result<&str, Refused>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let parsed = value
        .to_str()
        .ok()
        .and_then(|v| {
            let (scheme, token) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        })
        .filter(|t| well_formed(t))
        .ok_or(Refused::Malformed);
    Some(parsed)
}

/// The account and scopes of `token`, noting its use (at most hourly).
///
/// # Errors
/// [`Refused::NoSuchToken`] or [`Refused::Unavailable`].
pub async fn authenticate(store: &Store, token: &str) -> Result<TokenAuth, Refused> {
    let hash = hash(token);
    let now = now_ms();
    let (account, row) = match store.token_by_hash(&hash, now).await {
        Ok(Some(found)) => found,
        Ok(None) => return Err(Refused::NoSuchToken),
        Err(e) => {
            tracing::error!("token lookup failed: {e}");
            return Err(Refused::Unavailable);
        }
    };
    if row.last_used_at.is_none_or(|t| now - t >= TOUCH_EVERY_MS)
        && let Err(e) = store.touch_token(&row.id, now).await
    {
        tracing::warn!("cannot note a token's use: {e}");
    }
    // Scopes were checked when stored; an unknown one (from a later
    // version) is dropped rather than failing the token.
    let scopes = Scopes::of(row.scopes.split(',').filter_map(|s| s.parse().ok()));
    Ok(TokenAuth {
        account,
        token_id: row.id,
        scopes,
        hash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn secrets_are_random_prefixed_and_well_formed() {
        let a = mint(PERSONAL_PREFIX, PERSONAL_CHARS);
        let b = mint(PERSONAL_PREFIX, PERSONAL_CHARS);
        assert_ne!(a, b);
        assert!(a.starts_with("lip_") && a.len() == 28, "{a}");
        assert!(well_formed(&a));
        assert_eq!(hash(&a).len(), 64);
        assert_ne!(hash(&a), hash(&b));
        assert!(!well_formed("lip_a-b"));
        assert!(!well_formed(&"a".repeat(MAX_TOKEN_LEN + 1)));
    }

    #[test]
    fn the_authorization_header_is_read_strictly() {
        let mut h = HeaderMap::new();
        assert!(bearer_of(&h).is_none());
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer lip_abc"),
        );
        assert_eq!(bearer_of(&h), Some(Ok("lip_abc")));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  lip_abc "),
        );
        assert_eq!(bearer_of(&h), Some(Ok("lip_abc")));
        for bad in ["Basic abc", "Bearer", "Bearer a b", "Bearer lip_é"] {
            if let Ok(v) = HeaderValue::from_str(bad) {
                h.insert(header::AUTHORIZATION, v);
                assert_eq!(bearer_of(&h), Some(Err(Refused::Malformed)), "{bad}");
            }
        }
    }
}
