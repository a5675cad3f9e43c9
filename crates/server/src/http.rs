//! HTTP routes: the JSON API, the game websocket, health and metrics, and
//! the embedded web app (single-page: `index.html` for page routes).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use futures_util::{SinkExt, StreamExt};
use include_dir::{Dir, include_dir};
use serde::Deserialize;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};

use crate::actor::{self, Cmd, color_name, rfc3339};
use crate::error::{ApiError, ErrorCode};
use crate::identity::{PlayerId, identify};
use crate::protocol::{GameState, GameSummaryJson, NewComputerGame};
use crate::security::{self, AccountKey, ClientIp, LimitKey};
use crate::socket::{Incoming, MAX_FRAME_BYTES, Outgoing, run_session};
use crate::{AppState, Shared};

static WEB: Dir<'static> = include_dir!("$OUT_DIR/web");

/// Read buffer per websocket: messages are small, so a small buffer keeps
/// many idle sockets cheap (tungstenite's default is 128 KiB).
const SOCKET_READ_BUFFER: usize = 8 * 1024;
/// Bytes gathered before a websocket write (each message is flushed anyway).
const SOCKET_WRITE_BUFFER: usize = 0;
/// Outgoing bytes queued for a slow client before its socket is dropped.
const SOCKET_MAX_WRITE_BUFFER: usize = 1024 * 1024;
/// Largest accepted request body.
const MAX_BODY_BYTES: usize = 16 * 1024;
/// Bundled files whose names carry their content hash (the language
/// tables' chunks): cached for a year, as a changed file gets a new name.
const HASHED_ASSETS: &str = "assets/chunks/";
/// Games listed by `/api/my-games`.
const MY_GAMES_LIMIT: u32 = 50;
/// Responses smaller than this are sent uncompressed.
const COMPRESS_MIN_BYTES: u16 = 256;

/// The application's router.
pub fn router(state: AppState) -> Router {
    // Tag the embedded files now rather than on the first request.
    LazyLock::force(&ASSETS);
    let api = Router::new()
        .route("/api/computer-games", post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/pgn", get(get_pgn))
        .route("/api/games/{id}/socket", get(game_socket))
        .route("/api/my-games", get(my_games))
        .merge(crate::auth::routes::router())
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identify,
        ));
    let routes = Router::new()
        .merge(api)
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .fallback(get(web_asset));
    let guarded = routes
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
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
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("invalid {what}: {e}")))
}

async fn create_game(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    body: JsonBody,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let req: NewComputerGame = json_body(body, "game request")?;
    let key = LimitKey::new(ip, account.as_ref().map(|Extension(a)| a));
    state.limits.check_create_game(&key)?;
    let game = actor::create_computer_game(&state, &player, req).await?;
    Ok((StatusCode::CREATED, Json(game)))
}

async fn get_game(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    let game = actor::request(&state, &id, |reply| Cmd::State {
        viewer: Some(player.clone()),
        reply,
    })
    .await?;
    Ok(Json(game))
}

async fn get_pgn(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let pgn = actor::request(&state, &id, |reply| Cmd::Pgn { reply }).await?;
    let disposition = format!("attachment; filename=\"plyyard-{id}.pgn\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        pgn,
    )
        .into_response())
}

async fn my_games(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
) -> Result<Json<Vec<GameSummaryJson>>, ApiError> {
    let rows = state.store.recent_games(&player.0, MY_GAMES_LIMIT).await?;
    let list = rows
        .into_iter()
        .map(|g| {
            let you = if g.white_player.as_deref() == Some(&player.0) {
                Some(color_name(game::shakmaty::Color::White).to_owned())
            } else {
                Some(color_name(game::shakmaty::Color::Black).to_owned())
            };
            GameSummaryJson {
                id: g.id,
                level: g.level.map(|l| l.as_str().to_owned()),
                you,
                variant: g.variant.as_str().to_owned(),
                status: g.summary.status.as_str().to_owned(),
                result: g.summary.result.as_str().to_owned(),
                reason: g.summary.reason.map(|r| r.as_str().to_owned()),
                plies: g.summary.plies,
                created_at: rfc3339(g.created_at),
                updated_at: rfc3339(g.summary.updated_at),
            }
        })
        .collect();
    Ok(Json(list))
}

#[derive(Debug, Deserialize)]
struct SocketQuery {
    v: Option<u64>,
}

/// Whether the `Origin` of a websocket request is the server's own (see
/// [`security::origin_matches`]; `public_origin` is the origin of
/// `--public-url`). Requests without `Origin` (non-browser clients) pass:
/// browsers always send it on websockets.
pub fn same_origin(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    headers.get(header::ORIGIN).is_none_or(|o| {
        o.to_str()
            .is_ok_and(|o| security::origin_matches(o, headers, public_origin))
    })
}

async fn game_socket(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
    q: Result<Query<SocketQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|_| ApiError::bad_request("`v` must be a non-negative integer"))?;
    let ws = ws.map_err(|e| {
        ApiError::bad_request(format!("not a websocket upgrade: {}", e.body_text()))
    })?;
    if !same_origin(&headers, state.public_origin.as_deref()) {
        return Err(ApiError::forbidden("websocket from a foreign origin"));
    }
    // Refuse unknown games before upgrading, so the client gets a 404.
    actor::handle(&state, &id).await?;
    Ok(ws
        .max_frame_size(MAX_FRAME_BYTES)
        .max_message_size(MAX_FRAME_BYTES)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .write_buffer_size(SOCKET_WRITE_BUFFER)
        .max_write_buffer_size(SOCKET_MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| session(state, id, player, q.v, socket)))
}

async fn session(
    state: Arc<Shared>,
    id: String,
    player: PlayerId,
    since: Option<u64>,
    socket: WebSocket,
) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|o: Outgoing| async move {
        Ok::<_, axum::Error>(match o {
            Outgoing::Text(t) => Message::Text(t.into()),
            Outgoing::Close(code, reason) => Message::Close(Some(axum::extract::ws::CloseFrame {
                code,
                reason: reason.into(),
            })),
        })
    });
    let stream = stream.map(|m| match m {
        Ok(Message::Text(t)) => Incoming::Text(t.as_str().to_owned()),
        Ok(Message::Binary(_)) => Incoming::Binary,
        Ok(Message::Close(_)) => Incoming::Close,
        Ok(Message::Ping(_) | Message::Pong(_)) => Incoming::Other,
        Err(e) => {
            let too_large = e
                .into_inner()
                .downcast_ref::<tokio_tungstenite::tungstenite::Error>()
                .is_some_and(|t| matches!(t, tokio_tungstenite::tungstenite::Error::Capacity(_)));
            if too_large {
                Incoming::TooLarge
            } else {
                Incoming::Close
            }
        }
    });
    run_session(state, id, player, since, Box::pin(sink), Box::pin(stream)).await;
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, e)| e) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        Some("webmanifest") => "application/manifest+json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// An embedded file ready to serve: its bytes and their `ETag`, computed
/// once. The tag is weak (`W/"…"`): the compression layer may send the same
/// content in another encoding.
struct Asset {
    bytes: Bytes,
    etag: HeaderValue,
}

impl Asset {
    fn new(bytes: Bytes) -> Asset {
        use sha2::{Digest, Sha256};
        let tag = format!("W/\"{}\"", hex::encode(&Sha256::digest(&bytes)[..8]));
        Asset {
            etag: HeaderValue::from_str(&tag)
                .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\"")),
            bytes,
        }
    }

    /// Whether an `If-None-Match` value names this asset (weak comparison).
    fn matches(&self, if_none_match: &str) -> bool {
        let ours = self.etag.to_str().unwrap_or_default();
        let strip = |t: &str| t.trim().trim_start_matches("W/").to_owned();
        if_none_match
            .split(',')
            .any(|t| t.trim() == "*" || strip(t) == strip(ours))
    }
}

/// The embedded web app: every file by path, and `index.html` in each
/// language, with their tags.
struct Assets {
    files: HashMap<String, Asset>,
    pages: HashMap<&'static str, Asset>,
}

static ASSETS: LazyLock<Assets> = LazyLock::new(|| {
    let mut files = HashMap::new();
    let mut dirs = vec![&WEB];
    while let Some(d) = dirs.pop() {
        for f in d.files() {
            let path = f.path().to_string_lossy().replace('\\', "/");
            files.insert(path, Asset::new(Bytes::from_static(f.contents())));
        }
        dirs.extend(d.dirs());
    }
    let pages = WEB
        .get_file("index.html")
        .map(|index| {
            let html = String::from_utf8_lossy(index.contents());
            crate::i18n::languages()
                .into_iter()
                .map(|lang| {
                    let page = crate::i18n::localize_page(&html, lang);
                    (lang, Asset::new(Bytes::from(page)))
                })
                .collect()
        })
        .unwrap_or_default();
    Assets { files, pages }
});

async fn web_asset(uri: Uri, headers: HeaderMap) -> Response {
    let assets = &*ASSETS;
    let path = uri.path().trim_start_matches('/');
    let versioned = uri
        .query()
        .is_some_and(|q| q.split('&').any(|p| p.starts_with("v=")));
    let file = assets.files.get(path).filter(|_| path != "index.html");
    let (asset, name) = match file {
        Some(a) if !path.is_empty() => (a, path),
        _ => {
            // Page routes of the single-page app get index.html; a missing
            // asset or file-like path is a real 404.
            let looks_like_file = path.starts_with("assets/")
                || path.rsplit('/').next().is_some_and(|s| s.contains('.'));
            let lang = crate::i18n::choose_for(&headers);
            let page = assets
                .pages
                .get(lang)
                .or_else(|| assets.files.get("index.html"));
            match page {
                Some(p) if !looks_like_file || path == "index.html" => (p, "index.html"),
                _ => return (StatusCode::NOT_FOUND, "not found").into_response(),
            }
        }
    };
    let cache = if name.ends_with(".html") {
        "no-cache"
    } else if versioned || name.starts_with(HASHED_ASSETS) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    let mut resp = if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| asset.matches(v))
    {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(Body::from(asset.bytes.clone()));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(name)),
        );
        r
    };
    let h = resp.headers_mut();
    h.insert(header::ETAG, asset.etag.clone());
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if name == "index.html" {
        h.insert(
            header::VARY,
            HeaderValue::from_static("Accept-Language, Cookie"),
        );
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn content_types_by_extension() {
        assert_eq!(
            content_type("assets/app.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("assets/app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("assets/favicon.svg"), "image/svg+xml");
        assert_eq!(content_type("x"), "application/octet-stream");
    }

    async fn fetch(path: &str, if_none_match: Option<&str>) -> Response {
        let mut h = HeaderMap::new();
        if let Some(tag) = if_none_match {
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(tag).unwrap());
        }
        web_asset(path.parse().unwrap(), h).await
    }

    #[tokio::test]
    async fn assets_have_types_caching_and_etags() {
        let page = fetch("/game/abcdefgh", None).await;
        assert_eq!(page.status(), StatusCode::OK);
        assert_eq!(page.headers()[header::VARY], "Accept-Language, Cookie");
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("ru-RU,ru;q=0.9,en;q=0.5"),
        );
        let ru = web_asset("/".parse().unwrap(), h).await;
        let body = axum::body::to_bytes(ru.into_body(), 1 << 20).await.unwrap();
        let body = String::from_utf8_lossy(&body);
        if WEB.get_file("index.html").is_some_and(|f| {
            f.contents_utf8()
                .is_some_and(|t| t.contains("<html lang=\"en\">"))
        }) {
            assert!(body.contains("<html lang=\"ru\">"), "{body}");
        }
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache");
        let tag = page.headers()[header::ETAG].to_str().unwrap().to_owned();
        let again = fetch("/", Some(&tag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG], tag.as_str());
        assert_eq!(
            fetch(
                "/",
                Some(&format!("\"x\", {}", tag.trim_start_matches("W/")))
            )
            .await
            .status(),
            StatusCode::NOT_MODIFIED
        );

        // The language cookie wins over Accept-Language, and each language
        // of the page has its own tag.
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("ru-RU,ru;q=0.9"),
        );
        h.insert(header::COOKIE, HeaderValue::from_static("plyyard_lang=fr"));
        let fr = web_asset("/".parse().unwrap(), h).await;
        assert_ne!(fr.headers()[header::ETAG], tag.as_str());
        let body = axum::body::to_bytes(fr.into_body(), 1 << 20).await.unwrap();
        if WEB.get_file("index.html").is_some_and(|f| {
            f.contents_utf8()
                .is_some_and(|t| t.contains("<html lang=\"en\">"))
        }) {
            assert!(String::from_utf8_lossy(&body).contains("<html lang=\"fr\">"));
        }
        assert_eq!(fetch("/", Some("\"other\"")).await.status(), StatusCode::OK);
        assert_eq!(
            fetch("/assets/missing.js", None).await.status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            fetch("/robots.txt", None).await.status(),
            StatusCode::NOT_FOUND
        );

        // Every embedded file other than index.html is served as itself.
        let mut files = Vec::new();
        let mut dirs = vec![&WEB];
        while let Some(d) = dirs.pop() {
            files.extend(d.files().map(|f| f.path().to_string_lossy().into_owned()));
            dirs.extend(d.dirs());
        }
        for path in files.iter().filter(|p| p.as_str() != "index.html") {
            let plain = fetch(&format!("/{path}"), None).await;
            assert_eq!(plain.status(), StatusCode::OK, "{path}");
            assert_eq!(
                plain.headers()[header::CONTENT_TYPE],
                content_type(path),
                "{path}"
            );
            let expected = if path.starts_with(HASHED_ASSETS) {
                "public, max-age=31536000, immutable"
            } else {
                "public, max-age=3600"
            };
            assert_eq!(plain.headers()[header::CACHE_CONTROL], expected);
            let versioned = fetch(&format!("/{path}?v=abc"), None).await;
            assert_eq!(
                versioned.headers()[header::CACHE_CONTROL],
                "public, max-age=31536000, immutable"
            );
        }
    }

    #[test]
    fn the_web_app_is_embedded() {
        let index = WEB.get_file("index.html").expect("index.html embedded");
        assert!(
            index.contents().starts_with(b"<!doctype html")
                || index.contents().starts_with(b"<!DOCTYPE html")
        );
    }
}
