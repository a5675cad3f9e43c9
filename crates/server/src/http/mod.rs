//! HTTP: the router and what every request goes through (security guard,
//! compression, body limit, request log), health and metrics, and decoding
//! JSON bodies into clear errors.
//!
//! The routes live by what they serve: `games` (computer games, game state,
//! PGN, the game websocket), `tables` (tables and the lobby), `assets`
//! (the embedded web app), and
//! [`crate::auth::routes`] (accounts).

mod assets;
mod exercises;
mod games;
mod positions;
mod review;
mod tables;

pub use games::same_origin;
pub use tables::{open_tables, table_json};

use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};

use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::identity::identify;
use crate::security;

/// Largest accepted request body.
const MAX_BODY_BYTES: usize = 16 * 1024;
/// Responses smaller than this are sent uncompressed.
const COMPRESS_MIN_BYTES: u16 = 256;

/// The application's router.
pub fn router(state: AppState) -> Router {
    assets::prepare();
    crate::learn::prepare();
    let api = games::routes()
        .merge(tables::routes())
        .merge(positions::routes())
        .merge(exercises::routes())
        .merge(review::routes())
        .merge(crate::auth::routes::router())
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identify,
        ));
    let routes = Router::new()
        .merge(api)
        .merge(crate::learn::routes())
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .fallback(get(assets::web_asset));
    let guarded = routes
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(refuse_nul_in_uri))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            security::guard,
        ))
        .layer(compression());
    security::with_headers(guarded)
        .layer(axum::middleware::from_fn(log_request))
        .with_state(state)
}

/// gzip or brotli, as the client asks, for bodies of at least
/// [`COMPRESS_MIN_BYTES`] that are not already compressed images; never
/// for a websocket upgrade.
fn compression() -> CompressionLayer<impl Predicate> {
    let predicate = SizeAbove::new(COMPRESS_MIN_BYTES)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(not_an_upgrade);
    CompressionLayer::new()
        .gzip(true)
        .br(true)
        .compress_when(predicate)
}

fn not_an_upgrade(
    status: StatusCode,
    _: axum::http::Version,
    _: &HeaderMap,
    _: &axum::http::Extensions,
) -> bool {
    status != StatusCode::SWITCHING_PROTOCOLS
}

/// Logs every request at `debug` (server errors at `warn`), without the
/// query string.
async fn log_request(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let t0 = Instant::now();
    let resp = next.run(req).await;
    let status = resp.status().as_u16();
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    if resp.status().is_server_error() {
        tracing::warn!(%method, %path, status, ms, "request failed");
    } else {
        tracing::debug!(%method, %path, status, ms, "request");
    }
    resp
}

/// The error for text holding a NUL character: PostgreSQL cannot store
/// one, and no name, tag, code or key of ours has one.
fn nul_refused(where_: &str) -> ApiError {
    ApiError::bad_request(format!(
        "NUL characters (U+0000) are not allowed in {where_}"
    ))
}

/// Refuses (`400 bad_request`) a request whose path or query holds an
/// escaped NUL character (`%00`), before any handler passes it on to the
/// database.
async fn refuse_nul_in_uri(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let has_nul = |s: &str| {
        s.as_bytes()
            .windows(3)
            .any(|w| w.eq_ignore_ascii_case(b"%00"))
    };
    let uri = req.uri();
    if has_nul(uri.path()) || uri.query().is_some_and(has_nul) {
        return nul_refused("a URL").into_response();
    }
    next.run(req).await
}

/// Whether the JSON text `json` holds a string with a NUL character (the
/// escape `\u0000`; a raw NUL is no valid JSON anyway).
fn json_has_nul(json: &[u8]) -> bool {
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'\\' => {
                if json.get(i + 1) == Some(&b'u')
                    && json.get(i + 2..i + 6) == Some(b"0000".as_slice())
                {
                    return true;
                }
                i += 2;
            }
            0 => return true,
            _ => i += 1,
        }
    }
    false
}

async fn api_not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "no such API endpoint")
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}

/// A request body as handlers take it, for [`json_body`].
pub type JsonBody = Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>;

/// Decodes a JSON request body, mapping every failure to a clear error
/// naming `what` was expected.
///
/// # Errors
/// `too_large` or `bad_request`.
pub fn json_body<T: serde::de::DeserializeOwned>(
    body: JsonBody,
    what: &str,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!("request bodies are limited to {MAX_BODY_BYTES} bytes"),
            )
        } else {
            ApiError::bad_request(e.body_text())
        }
    })?;
    if json_has_nul(&bytes) {
        return Err(nul_refused(&format!("a {what}")));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("invalid {what}: {e}")))
}

/// Read buffer per websocket: messages are small, so a small buffer keeps
/// many idle sockets cheap (tungstenite's default is 128 KiB).
const SOCKET_READ_BUFFER: usize = 8 * 1024;
/// Bytes gathered before a websocket write (each message is flushed anyway).
const SOCKET_WRITE_BUFFER: usize = 0;
/// Outgoing bytes queued for a slow client before its socket is dropped.
const SOCKET_MAX_WRITE_BUFFER: usize = 1024 * 1024;

/// A websocket upgrade with the limits of every socket we serve (game and
/// lobby alike): frames and messages of at most
/// [`crate::ws::MAX_FRAME_BYTES`], small buffers, and a bounded queue
/// for a slow reader.
fn bounded_socket(ws: axum::extract::ws::WebSocketUpgrade) -> axum::extract::ws::WebSocketUpgrade {
    ws.max_frame_size(crate::ws::MAX_FRAME_BYTES)
        .max_message_size(crate::ws::MAX_FRAME_BYTES)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .write_buffer_size(SOCKET_WRITE_BUFFER)
        .max_write_buffer_size(SOCKET_MAX_WRITE_BUFFER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_characters_are_found_in_json_text() {
        assert!(json_has_nul(br#"{"a":"x\u0000y"}"#));
        assert!(json_has_nul(b"{\"a\":\"\0\"}"));
        assert!(
            !json_has_nul(br#"{"a":"x\\u0000y"}"#),
            "an escaped backslash"
        );
        assert!(json_has_nul(br#"{"a":"x\\\u0000y"}"#));
        assert!(!json_has_nul(br#"{"a":"\u000"#));
        assert!(!json_has_nul(br#"{"a":"\u0001 \n"}"#));
        assert!(!json_has_nul(b"\\"));
    }
}
