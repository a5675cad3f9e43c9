//! HTTP: the router and what every request goes through (security guard,
//! compression, body limit, request log), health and metrics.
//!
//! The routes live by what they serve: `games` (computer games, game state,
//! PGN, the game websocket), `tables` (tables and the lobby), `seeks`
//! (quick pairing), `accounts`
//! (accounts and profiles), `social` (relations lists, friends online,
//! the unread count), `moderation` (reports, the moderators' API and
//! pages), `positions`, `exercises`, `review`, `learn`
//! (the Learn pages), and
//! `assets` (the embedded web app). `socket` bounds every websocket
//! (request bodies are decoded by [`crate::body`], shared with the Lichess
//! routes).

mod accounts;
mod analysis;
mod assets;
mod exercises;
mod games;
mod learn;
mod moderation;
mod positions;
mod prefs;
mod review;
mod seeks;
mod site;
mod social;
mod tables;

use std::sync::Arc;
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
use plyyard_live::metrics::Metrics;

/// Responses smaller than this are sent uncompressed.
const COMPRESS_MIN_BYTES: u16 = 256;

/// `/swiss/{id}.trf` is a Swiss's TRF export; any other `/swiss/…` is
/// the web app's.
async fn swiss_file(
    State(state): State<AppState>,
    axum::extract::Path(file): axum::extract::Path<String>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    if file.ends_with(".trf") {
        crate::lichess::swiss::trf(state, &file).await
    } else {
        assets::web_asset(uri, headers).await
    }
}

/// Whether a request asks for JSON (`Accept: application/json`), as
/// lichess's inbox pages answer programs.
fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"))
}

/// `GET /inbox`: the account's conversations as JSON for a program, the
/// web app's inbox page for a browser.
async fn inbox_home(
    State(state): State<AppState>,
    caller: crate::lichess::caller::MaybeCaller,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    if !wants_json(&headers) {
        return assets::web_asset(uri, headers).await;
    }
    let Some(caller) = caller.0 else {
        return crate::lichess::error::LiError::unauthorized().into_response();
    };
    match crate::lichess::inbox::home(&state.social, &caller).await {
        Ok(json) => axum::Json(json).into_response(),
        Err(e) => e.into_response(),
    }
}

/// `GET /inbox/{username}`: the conversation as JSON for a program (see
/// [`crate::lichess::inbox`]), the web app's page for a browser.
async fn inbox_convo(
    State(state): State<AppState>,
    caller: crate::lichess::caller::MaybeCaller,
    axum::extract::Path(username): axum::extract::Path<String>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    if !wants_json(&headers) {
        return assets::web_asset(uri, headers).await;
    }
    let Some(caller) = caller.0 else {
        return crate::lichess::error::LiError::unauthorized().into_response();
    };
    match crate::lichess::inbox::convo(&state.store, &state.social, &caller, &username).await {
        Ok(json) => axum::Json(json).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The application's router.
pub fn router(state: AppState) -> Router {
    assets::prepare();
    learn::prepare();
    let own = games::routes()
        .merge(tables::routes())
        .merge(seeks::routes())
        .merge(positions::routes())
        .merge(exercises::routes())
        .merge(review::routes())
        .merge(analysis::routes())
        .merge(accounts::router())
        .merge(social::routes())
        .merge(moderation::router())
        .merge(site::router())
        .merge(prefs::router())
        .layer(axum::middleware::from_fn(refuse_tokens));
    let inbox = Router::new().route("/inbox", get(inbox_home)).route(
        "/inbox/{username}",
        get(inbox_convo)
            .post(crate::lichess::inbox::post)
            .layer(DefaultBodyLimit::max(crate::lichess::inbox::MAX_BODY_BYTES)),
    );
    let api = own
        .merge(moderation::pages())
        .merge(crate::lichess::routes())
        .merge(inbox)
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            identify,
        ));
    let routes = Router::new()
        .merge(api)
        .merge(learn::routes())
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/swiss/{file}", get(swiss_file))
        .fallback(get(assets::web_asset));
    let guarded = routes
        .layer(DefaultBodyLimit::max(crate::body::MAX_BODY_BYTES))
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

/// Middleware on the web app's own API: a request authenticated by an API
/// token is refused (403). Tokens carry scopes, which only the
/// Lichess-compatible API checks; the web app's endpoints (and its game
/// socket) act for a whole account and take a session.
async fn refuse_tokens(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if req.extensions().get::<crate::bearer::TokenAuth>().is_some() {
        return ApiError::forbidden(
            "API tokens work on the Lichess-compatible API only (docs/api.md); this endpoint takes a session",
        )
        .into_response();
    }
    next.run(req).await
}

/// gzip or brotli, as the client asks, for bodies of at least
/// [`COMPRESS_MIN_BYTES`] that are not already compressed images; never
/// for a websocket upgrade, and never for an event stream (SSE or the
/// Lichess API's NDJSON): a compressor holds lines back until its buffer
/// fills, and stream clients need each line at once.
fn compression() -> CompressionLayer<impl Predicate> {
    let predicate = SizeAbove::new(COMPRESS_MIN_BYTES)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(NotForContentType::const_new(
            crate::lichess::game_stream::NDJSON,
        ))
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
        return crate::body::nul_refused("a URL").into_response();
    }
    next.run(req).await
}

/// Whether the JSON text `json` holds a string with a NUL character (the
/// escape `\u0000`; a raw NUL is no valid JSON anyway).
async fn api_not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "no such API endpoint")
}

async fn metrics(State(metrics): State<Arc<Metrics>>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        metrics.render(),
    )
}
