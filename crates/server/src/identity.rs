//! Who makes a request: an account by its API token (`Authorization:
//! Bearer`, see [`crate::bearer`]), a logged-in account (the session cookie
//! `plyyard_session`) or else an anonymous player (an id in the signed
//! cookie `plyyard_player`).
//!
//! The anonymous cookie is signed with HMAC-SHA256 (the `cookie` crate's
//! signed jar) under a key derived from the server secret; a cookie that
//! fails the check is treated as absent. A request with neither a valid
//! session nor a valid player cookie gets a fresh player id, and the
//! response sets the cookie (HttpOnly, SameSite=Lax, Path=/, and Secure
//! when the site is served over HTTPS).
//!
//! Sessions are random 128-bit ids kept server-side, in the database, as a
//! SHA-256 hash only; they expire 30 days after their last use.
//!
//! Every request of an account holds a place in
//! [`plyyard_social::revocation`] under its token or session while it
//! runs: a streamed response of it ends when that credential is ended (a
//! token revoked, a session logged out, the account deleted), and a
//! websocket it opens takes the place along ([`Held`], in the request's
//! extensions).

use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cookie::{Cookie, CookieJar, Key, SameSite};
use rand::Rng;
use sha2::{Digest, Sha256, Sha512};
use std::sync::Arc;

use crate::bearer;
use crate::security::AccountKey;
use plyyard_social::{Credential, Held, Revocation};
pub use plyyard_store::PlayerId;
use plyyard_store::{Account, Store, now_ms};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "plyyard_session";

/// A session expires this long after its last use.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;

/// A session's expiry slides at most this often (one write per hour of use).
const SESSION_TOUCH_MS: i64 = 3600 * 1000;

/// The logged-in account of a request and its session, put in the
/// request's extensions by [`identify`] (as `Option<Session>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The account.
    pub account: Account,
    /// Hash of the session id (what the database knows).
    pub id_hash: String,
}

/// A response extension from a handler that changed who the client is
/// (logged in or out): [`identify`] then leaves the cookies to the handler.
#[derive(Debug, Clone, Copy)]
pub struct IdentityChanged;

/// A new random session id (128 bits, hex) and its hash.
pub fn new_session_id() -> (String, String) {
    let bytes: [u8; 16] = rand::rng().random();
    let id = hex::encode(bytes);
    let hash = session_hash(&id);
    (id, hash)
}

/// The stored form of a session id.
pub fn session_hash(id: &str) -> String {
    hex::encode(Sha256::digest(id.as_bytes()))
}

fn valid_session_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The `Set-Cookie` value carrying session `id` (`None`: delete the cookie).
pub fn session_cookie(id: Option<&str>, secure: bool) -> String {
    let max_age = if id.is_some() {
        cookie::time::Duration::milliseconds(SESSION_TTL_MS)
    } else {
        cookie::time::Duration::ZERO
    };
    Cookie::build((SESSION_COOKIE, id.unwrap_or_default().to_owned()))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(max_age)
        .build()
        .encoded()
        .to_string()
}

/// The `Set-Cookie` value that deletes the anonymous player cookie.
pub fn clear_player_cookie(secure: bool) -> String {
    Cookie::build((COOKIE_NAME, ""))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(cookie::time::Duration::ZERO)
        .build()
        .encoded()
        .to_string()
}

fn cookie_values<'a>(req: &'a Request, name: &'a str) -> impl Iterator<Item = String> + 'a {
    req.headers()
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|h| Cookie::split_parse_encoded(h.to_owned()).flatten())
        .filter(move |c| c.name() == name)
        .map(|c| c.value().to_owned())
}

/// Name of the identity cookie.
pub const COOKIE_NAME: &str = "plyyard_player";

/// Length of generated player ids.
const PLAYER_ID_LEN: usize = 22;

/// Lifetime of the cookie: about ten years.
const COOKIE_MAX_AGE_DAYS: i64 = 3650;

/// Signs and checks identity cookies.
#[derive(Clone)]
pub struct CookieSigner {
    key: Key,
}

impl std::fmt::Debug for CookieSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CookieSigner(..)")
    }
}

impl CookieSigner {
    /// A signer whose key is derived from `secret` (any length, any bytes).
    pub fn new(secret: &[u8]) -> CookieSigner {
        let digest = Sha512::digest(secret);
        CookieSigner {
            key: Key::from(&digest),
        }
    }

    /// The player id in a `Cookie:` header value, if a cookie of ours with a
    /// valid signature is there.
    pub fn verify(&self, cookie_header: &str) -> Option<PlayerId> {
        let mut jar = CookieJar::new();
        for c in Cookie::split_parse_encoded(cookie_header.to_owned()).flatten() {
            if c.name() == COOKIE_NAME {
                jar.add_original(c);
            }
        }
        let id = jar.signed(&self.key).get(COOKIE_NAME)?.value().to_owned();
        valid_player_id(&id).then_some(PlayerId(id))
    }

    /// The `Set-Cookie` header value that carries `player`.
    pub fn set_cookie(&self, player: &PlayerId, secure: bool) -> String {
        let mut jar = CookieJar::new();
        let cookie = Cookie::build((COOKIE_NAME, player.0.clone()))
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(secure)
            .path("/")
            .max_age(cookie::time::Duration::days(COOKIE_MAX_AGE_DAYS))
            .build();
        jar.signed_mut(&self.key).add(cookie);
        jar.delta()
            .next()
            .map(|c| c.encoded().to_string())
            .unwrap_or_default()
    }
}

/// A new random player id (base62).
pub fn new_player_id() -> PlayerId {
    let id: String = rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(PLAYER_ID_LEN)
        .map(char::from)
        .collect();
    PlayerId(id)
}

fn valid_player_id(id: &str) -> bool {
    id.len() == PLAYER_ID_LEN && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A new random server secret, hex-encoded (64 bytes of entropy).
pub fn new_secret() -> String {
    let bytes: [u8; 64] = rand::rng().random();
    hex::encode(bytes)
}

/// What [`identify`] needs of the server's state (an axum substate): the
/// sessions' storage, the cookie signer, and whether cookies are `Secure`.
#[derive(Debug, Clone)]
pub struct Sessions {
    /// Storage of the sessions.
    pub store: Store,
    /// Signs and checks the anonymous player's cookie.
    pub signer: CookieSigner,
    /// Whether cookies must be `Secure` (the public URL is `https`).
    pub secure_cookies: bool,
    /// The places of the accounts' open streams and sockets.
    pub revocation: Arc<Revocation>,
}

/// The unexpired session named by the request's session cookie, sliding
/// its expiry when due; and whether the cookie must be sent again (renewed)
/// or deleted (it names no session).
async fn find_session(state: &Sessions, cookies: &[String]) -> (Option<Session>, Option<String>) {
    let Some(id) = cookies.iter().find(|v| valid_session_id(v)) else {
        let stale = !cookies.is_empty();
        return (
            None,
            stale.then(|| session_cookie(None, state.secure_cookies)),
        );
    };
    let hash = session_hash(id);
    let now = now_ms();
    match state.store.session(&hash, now).await {
        Ok(Some((account, last_seen))) => {
            let mut renew = None;
            if now - last_seen >= SESSION_TOUCH_MS {
                match state
                    .store
                    .touch_session(&hash, now, now + SESSION_TTL_MS)
                    .await
                {
                    Ok(()) => renew = Some(session_cookie(Some(id), state.secure_cookies)),
                    Err(e) => tracing::warn!("cannot slide a session's expiry: {e}"),
                }
            }
            let session = Session {
                account,
                id_hash: hash,
            };
            (Some(session), renew)
        }
        Ok(None) => (None, Some(session_cookie(None, state.secure_cookies))),
        Err(e) => {
            // Treat the caller as anonymous rather than fail every request.
            tracing::error!("session lookup failed: {e}");
            (None, None)
        }
    }
}

/// In a request's extensions when its anonymous player was minted for it
/// (the request carried no player cookie): nothing of that player is
/// stored unless the request itself needs it (a new game does; Learn
/// progress, which the client could never read back without the cookie
/// it has not kept so far, does not).
#[derive(Debug, Clone, Copy)]
pub struct NewVisitor;

/// Middleware: finds the session or the anonymous player (minting one if
/// needed), stores `PlayerId`, `Option<Session>` and, when logged in, the
/// [`AccountKey`] in the request's extensions, and sets the cookies the
/// response needs.
///
/// A request with an `Authorization` header is identified by its bearer
/// token alone (see [`crate::bearer`]): its cookies are ignored, it gets
/// [`TokenAuth`] and `None` as its session, and no cookie is set; a bad or
/// unknown token is refused with 401.
pub async fn identify(State(state): State<Sessions>, mut req: Request, next: Next) -> Response {
    if let Some(token) = bearer::bearer_of(req.headers()) {
        let auth = match token {
            Ok(t) => bearer::authenticate(&state.store, t).await,
            Err(e) => Err(e),
        };
        return match auth {
            Ok(auth) => {
                let player = PlayerId(auth.account.player_id.clone());
                let held = state
                    .revocation
                    .hold(&player.0, Credential::Token(auth.token_id.clone()));
                req.extensions_mut().insert(AccountKey(player.0.clone()));
                req.extensions_mut().insert(player);
                req.extensions_mut().insert(None::<Session>);
                req.extensions_mut().insert::<bearer::TokenAuth>(auth);
                req.extensions_mut().insert(held.clone());
                until_ended(next.run(req).await, &held)
            }
            Err(refused) => refused.into_response(),
        };
    }
    let cookies: Vec<String> = cookie_values(&req, SESSION_COOKIE).take(4).collect();
    let (session, session_set) = find_session(&state, &cookies).await;
    let (player, minted) = match &session {
        Some(s) => (PlayerId(s.account.player_id.clone()), false),
        None => {
            let found = req
                .headers()
                .get_all(COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find_map(|h| state.signer.verify(h));
            match found {
                Some(p) => (p, false),
                None => (new_player_id(), true),
            }
        }
    };
    let held = session.as_ref().map(|s| {
        state
            .revocation
            .hold(&s.account.player_id, Credential::Session(s.id_hash.clone()))
    });
    if let Some(s) = &session {
        req.extensions_mut()
            .insert(AccountKey(s.account.player_id.clone()));
    }
    if let Some(h) = &held {
        req.extensions_mut().insert(h.clone());
    }
    req.extensions_mut().insert(player.clone());
    req.extensions_mut().insert(session);
    if minted {
        req.extensions_mut().insert(NewVisitor);
    }
    let mut resp = next.run(req).await;
    if let Some(h) = &held {
        resp = until_ended(resp, h);
    }
    if resp.extensions().get::<IdentityChanged>().is_some() {
        return resp;
    }
    let mut set = Vec::new();
    set.extend(session_set);
    if minted {
        set.push(state.signer.set_cookie(&player, state.secure_cookies));
    }
    for c in set {
        if let Ok(v) = HeaderValue::from_str(&c) {
            resp.headers_mut().append(SET_COOKIE, v);
        }
    }
    resp
}

/// `resp`, ending when `held` is ended if it is streamed (a body of no
/// known length: the Lichess API's NDJSON streams, exports); any other
/// response is already whole.
fn until_ended(resp: Response, held: &Held) -> Response {
    use axum::body::HttpBody as _;
    use futures_util::StreamExt as _;
    if resp.body().size_hint().exact().is_some() {
        return resp;
    }
    let (parts, body) = resp.into_parts();
    // Fused: a finished body may be polled once more.
    let lines = body.into_data_stream().take_until(held.ended()).fuse();
    Response::from_parts(parts, axum::body::Body::from_stream(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_from_set_cookie(set: &str) -> String {
        set.split(';').next().unwrap().to_owned()
    }

    #[test]
    fn signed_cookie_round_trips_and_rejects_tampering() {
        let signer = CookieSigner::new(b"secret one");
        let player = new_player_id();
        let set = signer.set_cookie(&player, false);
        assert!(!set.contains("Secure"), "{set}");
        assert!(signer.set_cookie(&player, true).contains("Secure"));
        assert!(set.contains("HttpOnly"), "{set}");
        assert!(set.contains("SameSite=Lax"), "{set}");
        assert!(set.contains("Path=/"), "{set}");
        let header = header_from_set_cookie(&set);
        assert_eq!(signer.verify(&header), Some(player.clone()));
        assert_eq!(
            signer.verify(&format!("other=1; {header}; more=2")),
            Some(player.clone())
        );

        // Another secret does not accept it.
        assert_eq!(CookieSigner::new(b"secret two").verify(&header), None);
        // Changing the id inside the cookie breaks the signature.
        let (name_and_mac, id) = header.split_at(header.len() - PLAYER_ID_LEN);
        let mut forged: Vec<u8> = id.bytes().collect();
        forged[0] = if forged[0] == b'a' { b'b' } else { b'a' };
        let forged = format!("{name_and_mac}{}", String::from_utf8(forged).unwrap());
        assert_eq!(signer.verify(&forged), None);
        // Unsigned values are refused.
        assert_eq!(signer.verify(&format!("{COOKIE_NAME}={}", player.0)), None);
        assert_eq!(signer.verify("garbage;;=;"), None);
    }

    #[test]
    fn session_ids_are_random_hex_and_stored_hashed() {
        let (id, hash) = new_session_id();
        assert!(valid_session_id(&id), "{id}");
        assert_ne!(id, hash);
        assert_eq!(hash, session_hash(&id));
        assert_ne!(new_session_id().0, id);
        let set = session_cookie(Some(&id), true);
        for part in [
            "HttpOnly",
            "SameSite=Lax",
            "Secure",
            "Path=/",
            "Max-Age=2592000",
        ] {
            assert!(set.contains(part), "{set}");
        }
        assert!(session_cookie(None, false).contains("Max-Age=0"));
    }

    #[test]
    fn ids_and_secrets_are_random_and_well_formed() {
        let a = new_player_id();
        let b = new_player_id();
        assert_ne!(a, b);
        assert!(valid_player_id(&a.0));
        assert_eq!(new_secret().len(), 128);
    }
}
