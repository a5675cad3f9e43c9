//! The same-origin rule for state-changing requests and websockets, and
//! the guard every request passes (see the [`super`] documentation,
//! "Cross-site requests").

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, Method, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::client_ip::ClientIp;
use crate::error::ApiError;

/// The origin of a URL (`https://chess.example`): lower-case scheme and
/// host, the port only when it is not the scheme's default; `None` unless
/// the URL is absolute `http` or `https`.
///
/// # Examples
/// ```
/// use plyyard_server::security::origin_of;
/// assert_eq!(origin_of("https://Chess.Example:443/play").as_deref(), Some("https://chess.example"));
/// assert_eq!(origin_of("http://127.0.0.1:8080").as_deref(), Some("http://127.0.0.1:8080"));
/// assert_eq!(origin_of("null"), None);
/// assert_eq!(origin_of("ftp://x"), None);
/// ```
pub fn origin_of(url: &str) -> Option<String> {
    let uri: Uri = url.trim().parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = uri.authority()?;
    if authority.as_str().contains('@') {
        return None;
    }
    let host = authority.host().to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    Some(match authority.port_u16() {
        Some(p) if p != default_port => format!("{scheme}://{host}:{p}"),
        _ => format!("{scheme}://{host}"),
    })
}

/// Whether the `Origin` value `origin` is the server's own: the origin of
/// `public_origin` when set, else `http://` or `https://` followed by the
/// request's `Host` header.
pub fn origin_matches(origin: &str, headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    let Some(origin) = origin_of(origin) else {
        return false;
    };
    if let Some(public) = public_origin {
        return origin_of(public).is_some_and(|p| p == origin);
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let scheme = origin.split("://").next().unwrap_or_default();
    origin_of(&format!("{scheme}://{host}")).is_some_and(|own| own == origin)
}

/// Whether the `Origin` of a websocket request is the server's own (see
/// [`origin_matches`]; `public_origin` is the origin of
/// `--public-url`). Requests without `Origin` (non-browser clients) pass:
/// browsers always send it on websockets.
pub fn same_origin(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    headers.get(header::ORIGIN).is_none_or(|o| {
        o.to_str()
            .is_ok_and(|o| origin_matches(o, headers, public_origin))
    })
}

/// Whether a request with `method` and `headers` may change state: safe
/// methods always; others only with `Sec-Fetch-Site: same-origin` or an
/// `Origin` of the server's own (see [`origin_matches`]).
pub fn same_origin_request(
    method: &Method,
    headers: &HeaderMap,
    public_origin: Option<&str>,
) -> bool {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if fetch_site.is_some_and(|s| s.eq_ignore_ascii_case("same-origin")) {
        return true;
    }
    headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|o| origin_matches(o, headers, public_origin))
}

/// API paths that use no cookie: exchanging an OAuth code for a token,
/// and testing tokens.
const CREDENTIAL_FREE: [&str; 2] = ["/api/token", "/api/token/test"];

/// Whether a request cannot act on a browser's cookies, so that a foreign
/// page sending it gains nothing: an API request authenticated by its
/// `Authorization` header (the identity layer then ignores its cookies, see
/// [`crate::bearer`]), or one of the [`CREDENTIAL_FREE`] paths.
fn carries_no_ambient_authority(req: &Request) -> bool {
    let path = req.uri().path();
    (path.starts_with("/api/") || lichess_api_outside_api(path))
        && (req.headers().contains_key(header::AUTHORIZATION) || CREDENTIAL_FREE.contains(&path))
}

/// The paths of lichess's API that are not under `/api/` (joining and
/// leaving a team, a private message): token requests to them carry no
/// ambient authority either.
fn lichess_api_outside_api(path: &str) -> bool {
    let team = path.strip_prefix("/team/").is_some_and(|rest| {
        rest.split_once('/')
            .is_some_and(|(id, action)| !id.is_empty() && matches!(action, "join" | "quit"))
    });
    let inbox = path
        .strip_prefix("/inbox/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/'));
    team || inbox
}

/// What [`guard`] needs of the server's state (an axum substate).
#[derive(Debug, Clone)]
pub struct Gate {
    /// The only origin allowed to change state, when set
    /// ([`crate::Config::public_url`]).
    pub public_origin: Option<String>,
    /// The proxies whose `X-Forwarded-For` tells the client address
    /// (`None`: none is trusted; see [`crate::Config::trust_proxy`]).
    pub proxies: Option<std::sync::Arc<Vec<ipnet::IpNet>>>,
}

/// Middleware on the whole router: refuses cross-site state changes with
/// `403 forbidden`, and puts the request's [`ClientIp`] in its extensions.
/// Without a [`ConnectInfo`] (a router driven directly, not through
/// [`crate::Server`]), the client is the unspecified address.
pub async fn guard(State(state): State<Gate>, mut req: Request, next: Next) -> Response {
    if !carries_no_ambient_authority(&req)
        && !same_origin_request(req.method(), req.headers(), state.public_origin.as_deref())
    {
        return ApiError::forbidden(
            "cross-site request refused: state-changing requests need a same-origin Origin header",
        )
        .into_response();
    }
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
    let ip = ClientIp::from_request(
        peer,
        req.headers(),
        state.proxies.as_deref().map(Vec::as_slice),
    );
    req.extensions_mut().insert(ip);
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        assert_eq!(
            origin_of("HTTP://Example.COM:80/").as_deref(),
            Some("http://example.com")
        );
        assert_eq!(
            origin_of("https://example.com:8443").as_deref(),
            Some("https://example.com:8443")
        );
        assert_eq!(
            origin_of("https://[::1]:443").as_deref(),
            Some("https://[::1]")
        );
        assert_eq!(origin_of("https://user@example.com"), None);
        assert_eq!(origin_of("example.com"), None);
        assert_eq!(origin_of(""), None);

        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("chess.example"));
        assert!(origin_matches("https://chess.example", &h, None));
        assert!(origin_matches("http://chess.example:80", &h, None));
        assert!(!origin_matches("https://chess.example.evil", &h, None));
        assert!(!origin_matches(
            "https://chess.example",
            &h,
            Some("https://other.example")
        ));
        assert!(origin_matches(
            "https://other.example",
            &h,
            Some("https://other.example/x")
        ));

        let post = Method::POST;
        assert!(!same_origin_request(&post, &h, None));
        assert!(same_origin_request(&Method::GET, &h, None));
        assert!(same_origin_request(&Method::HEAD, &h, None));
        assert!(!same_origin_request(&Method::DELETE, &h, None));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-site"));
        assert!(!same_origin_request(&post, &h, None));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(same_origin_request(&post, &h, None));
        h.remove("sec-fetch-site");
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://chess.example"),
        );
        assert!(same_origin_request(&post, &h, None));
        h.remove(header::HOST);
        assert!(!same_origin_request(&post, &h, None));
    }

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    fn same_origin_h(h: &HeaderMap) -> bool {
        same_origin(h, None)
    }

    #[test]
    fn origin_must_match_host() {
        let h = headers(Some("https://chess.example"), "127.0.0.1:8080");
        assert!(same_origin(&h, Some("https://chess.example/")));
        assert!(!same_origin(&h, Some("http://chess.example")));
        assert!(!same_origin(&h, None));
        assert!(same_origin_h(&headers(None, "127.0.0.1:8080")));
        assert!(same_origin_h(&headers(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
        assert!(same_origin_h(&headers(
            Some("https://Chess.Example"),
            "chess.example"
        )));
        assert!(!same_origin_h(&headers(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin_h(&headers(
            Some("http://127.0.0.1:9999"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin_h(&headers(Some("null"), "127.0.0.1:8080")));
        assert!(!same_origin_h(&headers(
            Some("file://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
    }
}
