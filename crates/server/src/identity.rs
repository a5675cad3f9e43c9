//! Anonymous players: an id in the signed cookie `plyyard_player`.
//!
//! The cookie value is signed with HMAC-SHA256 (the `cookie` crate's signed
//! jar) under a key derived from the server secret; a cookie that fails the
//! check is treated as absent. A request without a valid cookie gets a fresh
//! id, and the response sets the cookie (HttpOnly, SameSite=Lax, Path=/).

use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::middleware::Next;
use axum::response::Response;
use cookie::{Cookie, CookieJar, Key, SameSite};
use rand::Rng;
use sha2::{Digest, Sha512};

use crate::AppState;

/// Name of the identity cookie.
pub const COOKIE_NAME: &str = "plyyard_player";

/// Length of generated player ids.
const PLAYER_ID_LEN: usize = 22;

/// Lifetime of the cookie: about ten years.
const COOKIE_MAX_AGE_DAYS: i64 = 3650;

/// The verified anonymous player of a request, put in the request's
/// extensions by [`identify`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerId(pub String);

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
    pub fn set_cookie(&self, player: &PlayerId) -> String {
        let mut jar = CookieJar::new();
        let cookie = Cookie::build((COOKIE_NAME, player.0.clone()))
            .http_only(true)
            .same_site(SameSite::Lax)
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

/// Middleware: finds or mints the player id, stores it in the request's
/// extensions, and sets the cookie on the response when it was minted.
pub async fn identify(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let found = req
        .headers()
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|h| state.signer.verify(h));
    let (player, fresh) = match found {
        Some(p) => (p, false),
        None => (new_player_id(), true),
    };
    req.extensions_mut().insert(player.clone());
    let mut resp = next.run(req).await;
    if fresh && let Ok(v) = HeaderValue::from_str(&state.signer.set_cookie(&player)) {
        resp.headers_mut().append(SET_COOKIE, v);
    }
    resp
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
        let set = signer.set_cookie(&player);
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
    fn ids_and_secrets_are_random_and_well_formed() {
        let a = new_player_id();
        let b = new_player_id();
        assert_ne!(a, b);
        assert!(valid_player_id(&a.0));
        assert_eq!(new_secret().len(), 128);
    }
}
