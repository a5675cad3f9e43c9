//! Review routes: starting, reading and following a game's review, the
//! analysis board's engine lines, and importing games from PGN (see the
//! "Review" section of `docs/protocol.md`).

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use futures_util::{Stream, stream};
use plyyard_game::pgn::PgnImporter;
use plyyard_game::shakmaty::{ByColor, Chess, Position as _};
use plyyard_game::{Game, GameResult, RuleSet};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::security::{AccountKey, ClientIp, Limits};
use crate::{AppState, Shared};
use plyyard_engine_time::reviews::{Busy, Progress, Requester, Snapshot};
use plyyard_live::{Seats, seat_name};
use plyyard_store::reviews::{self as review_store, replay};
use plyyard_store::{GameKind, GameRow, GameStatus, MoveRow, Store, now_ms};

/// Largest PGN accepted by `POST /api/import` (the request body).
pub const MAX_IMPORT_BYTES: usize = 256 * 1024;
/// Most games one import may hold.
pub const MAX_IMPORT_GAMES: usize = 20;
/// Most plies an imported game may have.
pub const MAX_IMPORT_PLIES: usize = 600;
/// Longest FEN accepted.
const MAX_FEN_LEN: usize = 120;
/// The analysis board's time when the request names none.
const DEFAULT_ANALYSIS_MS: u64 = 3_000;
/// Time `POST /api/analysis` thinks when the request names none.
const DEFAULT_POST_ANALYSIS_MS: u64 = 1_000;

/// The review routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/review", get(get_review).post(start_review))
        .route("/api/games/{id}/review/events", get(review_events))
        .route("/api/analysis", post(post_analysis))
        .route("/api/analysis/stream", get(analysis_stream))
        .route(
            "/api/import",
            post(import).layer(DefaultBodyLimit::max(MAX_IMPORT_BYTES)),
        )
}

/// The requester keys of a request.
fn requester(
    state: &Shared,
    player: &PlayerId,
    ip: ClientIp,
    account: Option<&AccountKey>,
) -> Vec<Requester> {
    state.requester(player, ip, account)
}

/// How a player of a reviewed game is shown.
#[derive(Debug, Serialize)]
struct PlayerJson {
    /// `user`, `anonymous`, `computer`, `deleted`, or `pgn` (a name from an
    /// imported PGN).
    kind: String,
    name: Option<String>,
    level: Option<String>,
}

/// A move of a reviewed game with the position after it.
#[derive(Debug, Serialize)]
struct ReviewMove {
    ply: usize,
    uci: String,
    san: String,
    fen: String,
}

/// A stored game as the review shows it.
pub(super) struct Loaded {
    pub(super) row: GameRow,
    pub(super) game: Game,
}

pub(super) async fn load(state: &Shared, id: &str) -> Result<Loaded, ApiError> {
    if id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(ApiError::no_game(id));
    }
    let (row, moves): (GameRow, Vec<MoveRow>) = state
        .store
        .load_game(id)
        .await?
        .ok_or_else(|| ApiError::no_game(id))?;
    let game = replay(&row, &moves).map_err(ApiError::internal)?;
    Ok(Loaded { row, game })
}

/// Whether a game may be reviewed: a finished game, or any imported one;
/// never an aborted game (`*` once ended: called off before both sides had
/// moved, nothing to review).
pub(super) fn reviewable(row: &GameRow) -> Result<(), ApiError> {
    if row.kind == GameKind::Imported {
        return Ok(());
    }
    match row.summary.status {
        GameStatus::Ended if row.summary.result == GameResult::Aborted => Err(ApiError::new(
            ErrorCode::Aborted,
            "the game was aborted: it has no review",
        )),
        GameStatus::Ended => Ok(()),
        GameStatus::Ongoing => Err(ApiError::new(
            ErrorCode::NotOver,
            "the game is not over: a review comes after it",
        )),
    }
}

async fn players(state: &Shared, row: &GameRow) -> Result<ByColor<PlayerJson>, ApiError> {
    if row.kind == GameKind::Imported {
        let info = review_store::imported(&state.store, &row.id).await?;
        let name = |n: Option<&str>| PlayerJson {
            kind: "pgn".into(),
            name: n.map(str::to_owned),
            level: None,
        };
        return Ok(ByColor {
            white: name(info.as_ref().map(|i| i.white.as_str())),
            black: name(info.as_ref().map(|i| i.black.as_str())),
        });
    }
    let seats = Seats::of(row);
    Ok(ByColor {
        white: player_json(&state.store, &seats.white).await?,
        black: player_json(&state.store, &seats.black).await?,
    })
}

/// How a seat is shown in a review.
async fn player_json(store: &Store, seat: &plyyard_live::Seat) -> Result<PlayerJson, ApiError> {
    let s = seat_name(store, seat).await?;
    let kind = serde_json::to_value(s.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    Ok(PlayerJson {
        kind,
        name: s.name,
        level: s.level,
    })
}

/// The game part of a review answer.
async fn game_json(state: &Shared, l: &Loaded, viewer: &PlayerId) -> Result<Value, ApiError> {
    let ByColor { white, black } = players(state, &l.row).await?;
    let you = Seats::of(&l.row)
        .color_of(viewer)
        .map(plyyard_live::color_name);
    let moves: Vec<ReviewMove> = l
        .game
        .history()
        .iter()
        .zip(l.game.positions().skip(1))
        .enumerate()
        .map(|(i, (m, after))| ReviewMove {
            ply: i + 1,
            uci: m.uci.clone(),
            san: m.san.clone(),
            fen: fen_of(&after),
        })
        .collect();
    Ok(json!({
        "id": l.row.id,
        "kind": l.row.kind.as_str(),
        "variant": l.row.variant.as_str(),
        "initial_fen": l.game.initial_fen(),
        "result": l.row.summary.result.as_str(),
        "reason": l.row.summary.reason.map(plyyard_game::Reason::as_str),
        "white": white,
        "black": black,
        "you": you,
        "moves": moves,
    }))
}

fn fen_of(p: &Chess) -> String {
    use plyyard_game::shakmaty::EnPassantMode;
    use plyyard_game::shakmaty::fen::Fen;
    Fen::from_position(p, EnPassantMode::Legal).to_string()
}

/// The stored review of game `id`, unless it was made by an older format
/// of the analysis (then the game is reviewed again, and the new review
/// replaces it).
async fn current_review(
    state: &Shared,
    id: &str,
) -> Result<Option<review_store::StoredReview>, ApiError> {
    let stored = review_store::review(&state.store, id).await?;
    let format = state.reviews.reviewer().format();
    Ok(stored.filter(|s| s.format == format))
}

/// The answer for a stored review, rendered in `lang`.
async fn done_json(
    state: &Shared,
    viewer: &PlayerId,
    l: &Loaded,
    stored: &review_store::StoredReview,
    lang: &'static str,
) -> Result<Value, ApiError> {
    let review = state
        .reviews
        .rendered()
        .get_or_render(&l.row.id, lang, stored, || {
            state.metrics.review_renders.fetch_add(1, Ordering::Relaxed);
            let analysis: Value =
                serde_json::from_str(&stored.analysis).map_err(ApiError::internal)?;
            state
                .reviews
                .reviewer()
                .render(&analysis, &l.game, lang)
                .map_err(ApiError::internal)
        })?;
    Ok(json!({
        "status": "done",
        "lang": lang,
        "game": game_json(state, l, viewer).await?,
        "review": &*review,
    }))
}

#[derive(Debug, Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

fn lang_of(q: &LangQuery, headers: &HeaderMap) -> &'static str {
    q.lang
        .as_deref()
        .and_then(|l| {
            plyyard_i18n::languages()
                .into_iter()
                .find(|x| x.eq_ignore_ascii_case(l))
        })
        .unwrap_or_else(|| crate::i18n::choose_for(headers))
}

fn progress_json(p: &Progress) -> Value {
    serde_json::to_value(p).unwrap_or_else(|_| json!({"status": "failed"}))
}

async fn start_review(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    Path(id): Path<String>,
    q: Query<LangQuery>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let l = load(&state, &id).await?;
    reviewable(&l.row)?;
    if let Some(stored) = current_review(&state, &id).await? {
        let lang = lang_of(&q, &headers);
        return Ok((
            StatusCode::OK,
            Json(done_json(&state, &player, &l, &stored, lang).await?),
        ));
    }
    let who = requester(&state, &player, ip, account.as_ref().map(|Extension(a)| a));
    let rx = state
        .reviews
        .start(&state.store, &id, l.game.clone(), who)?;
    let now = rx.borrow().clone();
    Ok((StatusCode::ACCEPTED, Json(progress_json(&now))))
}

async fn get_review(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
    q: Query<LangQuery>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let l = load(&state, &id).await?;
    // Watched before the store is read, and the store read again once the
    // watch says done: a review that finishes in between is never missed.
    let running = state.reviews.watch(&id);
    for _ in 0..2 {
        if let Some(stored) = current_review(&state, &id).await? {
            let lang = lang_of(&q, &headers);
            return Ok(Json(done_json(&state, &player, &l, &stored, lang).await?));
        }
        if !running
            .as_ref()
            .is_some_and(|rx| matches!(*rx.borrow(), Progress::Done))
        {
            break;
        }
    }
    Ok(Json(match running {
        Some(rx) => progress_json(&rx.borrow()),
        None => json!({"status": "none"}),
    }))
}

/// Server-sent events of a review's progress: `progress` events with the
/// [`Progress`] JSON, the last one `done` or `failed`.
async fn review_events(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let l = load(&state, &id).await?;
    let first = if current_review(&state, &id).await?.is_some() {
        Some(Progress::Done)
    } else {
        None
    };
    let rx = match first {
        Some(_) => None,
        None => state.reviews.watch(&l.row.id),
    };
    let first = first.or_else(|| {
        rx.is_none().then_some(Progress::Failed {
            message: "no review of this game is under way".into(),
        })
    });
    let events = stream::unfold((first, rx, false), follow_progress);
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

type ProgressState = (Option<Progress>, Option<watch::Receiver<Progress>>, bool);

async fn follow_progress(
    (first, rx, ended): ProgressState,
) -> Option<(Result<Event, Infallible>, ProgressState)> {
    if ended {
        return None;
    }
    let event = |p: &Progress| {
        Event::default()
            .event("progress")
            .data(progress_json(p).to_string())
    };
    if let Some(p) = first {
        return Some((Ok(event(&p)), (None, None, true)));
    }
    let mut rx = rx?;
    let now = rx.borrow_and_update().clone();
    if !now.is_final() && rx.changed().await.is_ok() {
        let next = rx.borrow_and_update().clone();
        let last = next.is_final();
        return Some((Ok(event(&next)), (None, Some(rx), last)));
    }
    Some((Ok(event(&now)), (None, None, true)))
}

/// What the analysis board asks about: a FEN, or a position of a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    fen: Option<String>,
    game: Option<String>,
    ply: Option<usize>,
    /// Moves (UCI, separated by spaces or commas) played from there.
    moves: Option<String>,
    movetime_ms: Option<u64>,
}

/// Most moves an analysis request may play from its position.
const MAX_ANALYSIS_MOVES: usize = 40;

/// `pos` after the request's `moves`.
fn play_moves(mut pos: Chess, moves: Option<&str>) -> Result<Chess, ApiError> {
    use plyyard_game::shakmaty::uci::UciMove;
    let list: Vec<&str> = moves
        .unwrap_or_default()
        .split([' ', ','])
        .filter(|m| !m.is_empty())
        .collect();
    if list.len() > MAX_ANALYSIS_MOVES {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_ANALYSIS_MOVES} moves"
        )));
    }
    for text in list {
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::IllegalMove,
                    format!(
                        "{:?} is not a legal move here",
                        text.chars().take(8).collect::<String>()
                    ),
                )
            })?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}

async fn position_of(state: &Shared, req: &AnalysisRequest) -> Result<Chess, ApiError> {
    let start = start_of(state, req).await?;
    play_moves(start, req.moves.as_deref())
}

async fn start_of(state: &Shared, req: &AnalysisRequest) -> Result<Chess, ApiError> {
    match (&req.fen, &req.game) {
        (Some(fen), None) => {
            if fen.len() > MAX_FEN_LEN {
                return Err(ApiError::bad_request(format!(
                    "a FEN has at most {MAX_FEN_LEN} characters"
                )));
            }
            let g = Game::from_fen(fen.trim(), RuleSet::Fide)
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            Ok(g.position().clone())
        }
        (None, Some(id)) => {
            let l = load(state, id).await?;
            let ply = req.ply.unwrap_or(l.game.ply());
            l.game.position_at(ply).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "the game has {} plies; ply {ply} is not one of them",
                    l.game.ply()
                ))
            })
        }
        _ => Err(ApiError::bad_request(
            "give either a FEN (`fen`) or a game and a ply (`game`, `ply`)",
        )),
    }
}

async fn start_analysis(
    state: &AppState,
    who: &[Requester],
    pos: Chess,
    ms: u64,
) -> Result<mpsc::Receiver<Result<Snapshot, Busy>>, ApiError> {
    if pos.legal_moves().is_empty() {
        return Err(ApiError::new(
            ErrorCode::GameOver,
            "the position has no legal move: nothing to analyse",
        ));
    }
    state.limits.check_analysis(who).await?;
    let time = Duration::from_millis(ms.clamp(50, 10_000));
    Ok(Arc::clone(&state.analyses).start(who, pos, time))
}

fn busy() -> ApiError {
    ApiError::rate_limited("the analysis engine is busy; try again in a few seconds", 5)
}

async fn post_analysis(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    body: JsonBody,
) -> Result<Json<Snapshot>, ApiError> {
    let req: AnalysisRequest = json_body(body, "analysis request")?;
    let pos = position_of(&state, &req).await?;
    let who = requester(&state, &player, ip, account.as_ref().map(|Extension(a)| a));
    let ms = req.movetime_ms.unwrap_or(DEFAULT_POST_ANALYSIS_MS);
    let mut rx = start_analysis(&state, &who, pos, ms).await?;
    let mut last = None;
    while let Some(item) = rx.recv().await {
        let snap = item.map_err(|Busy| busy())?;
        let done = snap.done;
        last = Some(snap);
        if done {
            break;
        }
    }
    last.filter(|s| s.done).map(Json).ok_or_else(|| {
        ApiError::new(
            ErrorCode::Conflict,
            "the analysis was replaced by a newer one",
        )
    })
}

/// Whether a `GET` that starts work on the visitor's quota comes from the
/// site's own pages. Browsers send no `Origin` on a same-origin `GET`
/// (`fetch` or `EventSource`), but they do send `Sec-Fetch-Site`:
/// `same-origin` (our pages) or `none` (typed in the address bar) pass,
/// `same-site` and `cross-site` do not. An `Origin`, when sent (a
/// cross-origin `EventSource` or `fetch`), must be the server's own.
/// Clients that send neither header (programs, old browsers) pass.
fn started_here(headers: &HeaderMap, public_origin: Option<&str>) -> bool {
    let fetch_site = headers
        .get("sec-fetch-site")
        .map(|v| v.to_str().unwrap_or_default().to_ascii_lowercase());
    if fetch_site
        .as_deref()
        .is_some_and(|s| s != "same-origin" && s != "none")
    {
        return false;
    }
    headers.get(header::ORIGIN).is_none_or(|o| {
        o.to_str()
            .is_ok_and(|o| crate::security::origin_matches(o, headers, public_origin))
    })
}

/// Server-sent events of the analysis board: `lines` events with a
/// [`Snapshot`] after each finished depth, the last with `done: true`; an
/// `error` event with the error JSON if the engine is busy. Refused with
/// `403 forbidden` when started from another site (see [`started_here`]).
async fn analysis_stream(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    headers: HeaderMap,
    q: Result<Query<AnalysisRequest>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    if !started_here(&headers, state.public_origin.as_deref()) {
        return Err(ApiError::forbidden(
            "cross-site analysis refused: start it from the site's own pages",
        ));
    }
    let Query(req) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let pos = position_of(&state, &req).await?;
    let who = requester(&state, &player, ip, account.as_ref().map(|Extension(a)| a));
    let ms = req.movetime_ms.unwrap_or(DEFAULT_ANALYSIS_MS);
    let rx = start_analysis(&state, &who, pos, ms).await?;
    let events = stream::unfold(Some(rx), |rx| async move {
        let mut rx = rx?;
        let item = rx.recv().await?;
        Some(match item {
            Ok(snap) => {
                let data = serde_json::to_string(&snap).unwrap_or_default();
                let next = (!snap.done).then_some(rx);
                (Ok(Event::default().event("lines").data(data)), next)
            }
            Err(Busy) => {
                let data = json!({"error": {"code": "rate_limited", "message": busy().message}});
                (
                    Ok(Event::default().event("error").data(data.to_string())),
                    None,
                )
            }
        })
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    pgn: String,
}

/// A game stored by an import.
#[derive(Debug, Serialize)]
struct ImportedJson {
    id: String,
    white: String,
    black: String,
    result: String,
    plies: usize,
}

async fn import(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    limits
        .check_import(ip, account.as_ref().map(|Extension(a)| a))
        .await?;
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!("a PGN import is limited to {} KiB", MAX_IMPORT_BYTES / 1024),
            )
        } else {
            ApiError::bad_request(e.body_text())
        }
    })?;
    let req: ImportRequest = json_body(Ok(body), "import request")?;
    let games = read_pgn(&req.pgn)?;
    let now = now_ms();
    store.touch_player(&player.0, now).await?;
    let stored: Vec<(String, plyyard_game::pgn::ImportedGame)> = games
        .into_iter()
        .map(|g| (review_store::new_game_id(), g))
        .collect();
    review_store::import(&store, &player.0, &stored, now).await?;
    let list: Vec<ImportedJson> = stored
        .iter()
        .map(|(id, g)| ImportedJson {
            id: id.clone(),
            white: g.tag("White").unwrap_or("?").to_owned(),
            black: g.tag("Black").unwrap_or("?").to_owned(),
            result: g
                .game
                .outcome()
                .map_or("*", |o| o.result.as_str())
                .to_owned(),
            plies: g.game.ply(),
        })
        .collect();
    Ok((StatusCode::CREATED, Json(json!({ "games": list }))))
}

fn invalid_pgn(message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::InvalidPgn, message)
}

/// Every game of `pgn`, or the importer's first error as it words it.
fn read_pgn(pgn: &str) -> Result<Vec<plyyard_game::pgn::ImportedGame>, ApiError> {
    let mut games = Vec::new();
    for item in PgnImporter::new(pgn.as_bytes()) {
        let g = item.map_err(|e| invalid_pgn(e.to_string()))?;
        if games.len() == MAX_IMPORT_GAMES {
            return Err(invalid_pgn(format!(
                "an import holds at most {MAX_IMPORT_GAMES} games"
            )));
        }
        if g.game.ply() > MAX_IMPORT_PLIES {
            return Err(invalid_pgn(format!(
                "game {}: more than {MAX_IMPORT_PLIES} plies",
                g.number
            )));
        }
        games.push(g);
    }
    if games.is_empty() {
        return Err(invalid_pgn("no game found in the PGN"));
    }
    Ok(games)
}
