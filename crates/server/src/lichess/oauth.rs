//! OAuth 2 authorization code flow with PKCE (S256 only), for public
//! clients that need no registration, as lichess offers it:
//!
//! 1. The app sends the player to `/oauth?response_type=code&client_id=…
//!    &redirect_uri=…&code_challenge_method=S256&code_challenge=…&scope=…
//!    &state=…`, a page of the web app, which asks `GET /api/oauth/request`
//!    to check the request and describe it;
//! 2. the logged-in player approves or denies (`POST /api/oauth/approve`,
//!    session and same origin), and is sent to `redirect_uri` with `code`
//!    (`liu_…`, one use, 2 minutes) and `state`, or with
//!    `error=access_denied`;
//! 3. the app exchanges the code (`POST /api/token` with `code_verifier`,
//!    the same `redirect_uri` and `client_id`) for an access token
//!    (`lio_…`, one year), which `DELETE /api/token` revokes.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use plyyard_wire::lichess::Scopes;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use url::Url;

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use crate::bearer::{self, CODE_PREFIX, OAUTH_CHARS, OAUTH_PREFIX, TokenAuth};
use crate::body::{JsonBody, json_body};
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_store::{NewToken, OAuthCode, Store, TokenKind, now_ms};

/// An authorization code works this long.
pub const CODE_TTL_MS: i64 = 2 * 60 * 1000;
/// An OAuth access token works this long (a year, as lichess).
pub const TOKEN_TTL_SECS: i64 = 365 * 24 * 3600;
/// Longest redirect URI, client id and state accepted.
const MAX_URI: usize = 1000;
const MAX_CLIENT_ID: usize = 200;
const MAX_STATE: usize = 1000;
/// OAuth tokens one account may hold (with its personal ones).
const MAX_TOKENS: u32 = super::tokens::MAX_TOKENS;

/// The query of `/oauth` (and the body of an approval).
#[derive(Debug, Clone, Deserialize)]
pub(super) struct AuthRequest {
    response_type: Option<String>,
    client_id: Option<String>,
    redirect_uri: Option<String>,
    code_challenge_method: Option<String>,
    code_challenge: Option<String>,
    scope: Option<String>,
    state: Option<String>,
}

/// A request found valid.
#[derive(Debug)]
struct Valid {
    client_id: String,
    redirect: Url,
    challenge: String,
    scopes: Scopes,
    state: Option<String>,
}

/// Why a request is refused: before its redirect URI is known good (shown
/// to the player only), or after (the app is told through the redirect).
#[derive(Debug)]
enum Refusal {
    Shown(String),
    Redirected {
        error: &'static str,
        description: String,
        redirect: Box<Url>,
    },
}

fn with_params(mut url: Url, params: &[(&str, &str)]) -> String {
    {
        let mut q = url.query_pairs_mut();
        for (k, v) in params {
            q.append_pair(k, v);
        }
    }
    url.to_string()
}

impl Refusal {
    fn into_error(self, state: Option<&str>) -> LiError {
        match self {
            Refusal::Shown(message) => LiError::bad_request(message),
            Refusal::Redirected {
                error,
                description,
                redirect,
            } => {
                let mut params = vec![
                    ("error", error),
                    ("error_description", description.as_str()),
                ];
                if let Some(s) = state {
                    params.push(("state", s));
                }
                let to = with_params(*redirect, &params);
                LiError::bad_request(format!("{description} (back to the app: {to})"))
            }
        }
    }
}

/// Whether a redirect URI may receive codes: absolute, no fragment, and
/// `http(s)`, `ionic`, `capacitor` or a reverse-DNS scheme (with a dot).
fn redirect_uri(raw: &str) -> Result<Url, String> {
    if raw.len() > MAX_URI {
        return Err(format!("redirect_uri is longer than {MAX_URI} characters"));
    }
    let url = Url::parse(raw).map_err(|e| format!("redirect_uri is not an absolute URL: {e}"))?;
    let scheme = url.scheme();
    let allowed =
        matches!(scheme, "http" | "https" | "ionic" | "capacitor") || scheme.contains('.');
    if !allowed {
        return Err(format!(
            "redirect_uri has the scheme {scheme:?}, which cannot receive codes"
        ));
    }
    if url.fragment().is_some() {
        return Err("redirect_uri must not have a fragment".to_owned());
    }
    Ok(url)
}

/// Whether an `http` redirect leaves this machine (the page warns).
fn insecure(url: &Url) -> bool {
    url.scheme() == "http"
        && !matches!(
            url.host_str(),
            Some("localhost" | "127.0.0.1" | "[::1]" | "::1")
        )
}

fn validate(req: &AuthRequest) -> Result<Valid, Refusal> {
    let client_id = req
        .client_id
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| Refusal::Shown("client_id is missing".to_owned()))?;
    if client_id.chars().count() > MAX_CLIENT_ID || client_id.chars().any(char::is_control) {
        return Err(Refusal::Shown(format!(
            "client_id must be printable, at most {MAX_CLIENT_ID} characters"
        )));
    }
    let raw = req
        .redirect_uri
        .as_deref()
        .ok_or_else(|| Refusal::Shown("redirect_uri is missing".to_owned()))?;
    let redirect = redirect_uri(raw).map_err(Refusal::Shown)?;
    let redirected = |error, description: &str| Refusal::Redirected {
        error,
        description: description.to_owned(),
        redirect: Box::new(redirect.clone()),
    };
    if req.state.as_deref().is_some_and(|s| s.len() > MAX_STATE) {
        return Err(redirected("invalid_request", "state is too long"));
    }
    if req.response_type.as_deref() != Some("code") {
        return Err(redirected(
            "unsupported_response_type",
            "response_type must be code",
        ));
    }
    if req.code_challenge_method.as_deref() != Some("S256") {
        return Err(redirected(
            "invalid_request",
            "code_challenge_method must be S256",
        ));
    }
    let challenge = req.code_challenge.as_deref().unwrap_or_default();
    let well_formed = challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !well_formed {
        return Err(redirected(
            "invalid_request",
            "code_challenge must be BASE64URL(SHA256(code_verifier)) without padding",
        ));
    }
    let scopes = Scopes::parse(req.scope.as_deref().unwrap_or_default())
        .map_err(|e| redirected("invalid_scope", &e.to_string()))?;
    Ok(Valid {
        client_id: client_id.to_owned(),
        redirect,
        challenge: challenge.to_owned(),
        scopes,
        state: req.state.clone(),
    })
}

/// What the approval page shows of a request.
#[derive(Serialize)]
pub(super) struct Described {
    client_id: String,
    redirect_uri: String,
    redirect_origin: String,
    insecure: bool,
    scopes: Vec<&'static str>,
}

/// Where the player is sent back, as the consent page names it: the
/// origin of a web address; for an app's own scheme (whose origin is
/// opaque, serialised `null`), the scheme and host (`org.example.app:`).
fn shown_origin(redirect: &Url) -> String {
    match redirect.origin() {
        url::Origin::Tuple(..) => redirect.origin().ascii_serialization(),
        url::Origin::Opaque(_) => match redirect.host_str() {
            Some(host) if !host.is_empty() => format!("{}://{host}", redirect.scheme()),
            _ => format!("{}:", redirect.scheme()),
        },
    }
}

/// `GET /api/oauth/request?…`: whether an authorization request is valid,
/// and what it asks for.
pub(super) async fn describe(
    q: Result<Query<AuthRequest>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Json<Described>> {
    let Query(req) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    let valid = validate(&req).map_err(|r| r.into_error(req.state.as_deref()))?;
    Ok(Json(Described {
        client_id: valid.client_id,
        redirect_origin: shown_origin(&valid.redirect),
        insecure: insecure(&valid.redirect),
        redirect_uri: valid.redirect.to_string(),
        scopes: valid.scopes.iter().map(|s| s.as_str()).collect(),
    }))
}

#[derive(Deserialize)]
pub(super) struct Approval {
    #[serde(flatten)]
    request: AuthRequest,
    approve: bool,
}

#[derive(Serialize)]
pub(super) struct Redirect {
    redirect: String,
}

/// `POST /api/oauth/approve`: the logged-in player's answer; where to send
/// them (with a code, or `error=access_denied`).
pub(super) async fn approve(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    body: JsonBody,
) -> LiResult<Json<Redirect>> {
    if caller.token.is_some() {
        return Err(LiError::new(
            StatusCode::FORBIDDEN,
            "an authorization is approved by the player, not by a token",
        ));
    }
    let a: Approval = json_body(body, "approval")?;
    let valid = validate(&a.request).map_err(|r| r.into_error(a.request.state.as_deref()))?;
    let state = valid.state.clone().unwrap_or_default();
    let mut params: Vec<(&str, &str)> = Vec::new();
    let code;
    if a.approve {
        limits
            .check_credentials(ip, Some(&AccountKey(caller.account.player_id.clone())))
            .await
            .map_err(crate::error::ApiError::from)?;
        code = bearer::mint(CODE_PREFIX, OAUTH_CHARS);
        let now = now_ms();
        store
            .create_oauth_code(
                &OAuthCode {
                    hash: bearer::hash(&code),
                    player_id: caller.account.player_id.clone(),
                    client_id: valid.client_id.clone(),
                    redirect_uri: valid.redirect.to_string(),
                    code_challenge: valid.challenge.clone(),
                    scopes: valid.scopes.to_string(),
                    expires_at: now + CODE_TTL_MS,
                },
                now,
            )
            .await?;
        params.push(("code", &code));
    } else {
        params.push(("error", "access_denied"));
        params.push(("error_description", "the player denied the authorization"));
    }
    if valid.state.is_some() {
        params.push(("state", &state));
    }
    Ok(Json(Redirect {
        redirect: with_params(valid.redirect, &params),
    }))
}

#[derive(Deserialize)]
pub(super) struct TokenRequest {
    grant_type: Option<String>,
    code: Option<String>,
    code_verifier: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
}

#[derive(Serialize)]
struct TokenResponse {
    token_type: &'static str,
    access_token: String,
    expires_in: i64,
}

#[derive(Serialize)]
struct OAuthError {
    error: &'static str,
    error_description: String,
}

fn oauth_error(error: &'static str, description: impl Into<String>) -> Response {
    let body = OAuthError {
        error,
        error_description: description.into(),
    };
    (StatusCode::BAD_REQUEST, Json(body)).into_response()
}

/// Whether `verifier` is a PKCE code verifier (43 to 128 unreserved
/// characters) whose S256 is `challenge`.
fn verifies(verifier: &str, challenge: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
        && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

/// `POST /api/token`: exchanges an authorization code for an access token.
pub(super) async fn exchange(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    Extension(ip): Extension<ClientIp>,
    headers: HeaderMap,
    body: JsonBody,
) -> Response {
    let req: TokenRequest = match decode(&headers, body, "token request") {
        Ok(r) => r,
        Err(e) => return oauth_error("invalid_request", e.message),
    };
    if let Err(e) = limits.check_credentials(ip, None).await {
        return LiError::from(crate::error::ApiError::from(e)).into_response();
    }
    if req.grant_type.as_deref() != Some("authorization_code") {
        return oauth_error(
            "unsupported_grant_type",
            "grant_type must be authorization_code",
        );
    }
    let (Some(code), Some(verifier), Some(redirect), Some(client)) = (
        req.code.as_deref(),
        req.code_verifier.as_deref(),
        req.redirect_uri.as_deref(),
        req.client_id.as_deref(),
    ) else {
        return oauth_error(
            "invalid_request",
            "code, code_verifier, redirect_uri and client_id are required",
        );
    };
    if !bearer::well_formed(code) {
        return oauth_error("invalid_grant", "unknown, used or expired code");
    }
    let now = now_ms();
    let stored = match store.take_oauth_code(&bearer::hash(code), now).await {
        Ok(Some(c)) => c,
        Ok(None) => return oauth_error("invalid_grant", "unknown, used or expired code"),
        Err(e) => return LiError::from(e).into_response(),
    };
    let same_redirect = redirect_uri(redirect).is_ok_and(|u| u.to_string() == stored.redirect_uri);
    if !same_redirect || client.trim() != stored.client_id {
        return oauth_error(
            "invalid_grant",
            "redirect_uri and client_id must be those of the authorization",
        );
    }
    if !verifies(verifier, &stored.code_challenge) {
        return oauth_error(
            "invalid_grant",
            "code_verifier does not match code_challenge",
        );
    }
    let token = bearer::mint(OAUTH_PREFIX, OAUTH_CHARS);
    let id = bearer::mint("", 16);
    let new = NewToken {
        id: &id,
        hash: &bearer::hash(&token),
        player_id: &stored.player_id,
        kind: TokenKind::OAuth,
        scopes: &stored.scopes,
        description: &stored.client_id,
        client_id: Some(&stored.client_id),
        now,
        expires_at: Some(now + TOKEN_TTL_SECS * 1000),
    };
    match store.create_token(&new, MAX_TOKENS).await {
        Ok(true) => Json(TokenResponse {
            token_type: "Bearer",
            access_token: token,
            expires_in: TOKEN_TTL_SECS,
        })
        .into_response(),
        Ok(false) => oauth_error(
            "invalid_grant",
            format!("the account holds {MAX_TOKENS} tokens already: revoke one first"),
        ),
        Err(e) => LiError::from(e).into_response(),
    }
}

/// `DELETE /api/token`: revokes the bearer token of the request, ending
/// at once the streams opened with it (on every node).
pub(super) async fn revoke(
    State(store): State<Store>,
    State(social): State<plyyard_social::Social>,
    token: Option<Extension<TokenAuth>>,
) -> LiResult<StatusCode> {
    let Some(Extension(token)) = token else {
        return Err(LiError::unauthorized());
    };
    store.revoke_token_hash(&token.hash).await?;
    social.revocation.end_token_streams(&token.token_id);
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(redirect: &str) -> AuthRequest {
        AuthRequest {
            response_type: Some("code".into()),
            client_id: Some("example-app".into()),
            redirect_uri: Some(redirect.into()),
            code_challenge_method: Some("S256".into()),
            code_challenge: Some(URL_SAFE_NO_PAD.encode(Sha256::digest(b"v".repeat(43)))),
            scope: Some("board:play challenge:read".into()),
            state: Some("xyz".into()),
        }
    }

    #[test]
    fn custom_scheme_redirects_are_named_by_their_scheme() {
        let shown = |u: &str| shown_origin(&Url::parse(u).unwrap());
        assert_eq!(shown("org.example.app:/cb"), "org.example.app:");
        assert_eq!(shown("myapp://callback/x?y=1"), "myapp://callback");
        assert_eq!(shown("http://127.0.0.1:9000/cb"), "http://127.0.0.1:9000");
        assert_eq!(shown("https://app.example/cb"), "https://app.example");
    }

    #[test]
    fn requests_are_checked_before_any_redirect() {
        assert!(validate(&request("http://127.0.0.1:9000/cb")).is_ok());
        assert!(validate(&request("org.example.app:/cb")).is_ok());
        for bad in [
            "/relative",
            "javascript:alert(1)",
            "https://a.example/#frag",
            "data:text/html,x",
        ] {
            assert!(
                matches!(validate(&request(bad)), Err(Refusal::Shown(_))),
                "{bad}"
            );
        }
        let mut r = request("https://app.example/cb");
        r.code_challenge_method = Some("plain".into());
        assert!(matches!(
            validate(&r),
            Err(Refusal::Redirected {
                error: "invalid_request",
                ..
            })
        ));
        let mut r = request("https://app.example/cb");
        r.scope = Some("web:mod".into());
        assert!(matches!(
            validate(&r),
            Err(Refusal::Redirected {
                error: "invalid_scope",
                ..
            })
        ));
        assert!(insecure(&Url::parse("http://app.example/cb").unwrap()));
        assert!(!insecure(&Url::parse("http://localhost:8000/cb").unwrap()));
    }

    #[test]
    fn pkce_verifiers_are_checked_with_s256() {
        let verifier = "a".repeat(43);
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        assert!(verifies(&verifier, &challenge));
        assert!(!verifies(&"a".repeat(44), &challenge));
        assert!(!verifies(
            "short",
            &URL_SAFE_NO_PAD.encode(Sha256::digest(b"short"))
        ));
    }
}
