//! Exercise routes: mate drills (`/api/drills`), puzzles
//! (`/api/puzzles`), and Learn progress (`/api/learn/progress`).
//! The judging itself is in [`plyyard_exercises`].

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use plyyard_exercises::drills::{self, Drill, DrillError, DrillMove};
use plyyard_exercises::progress::{self, MAX_KEYS_PER_PLAYER};
use plyyard_exercises::puzzles::{self, Hint, LineError, Puzzle, Verdict};
use serde::{Deserialize, Serialize};

use crate::body::{JsonBody, json_body};
use std::sync::Arc;

use crate::AppState;
use crate::error::{ApiError, ErrorCode};
use crate::identity::{NewVisitor, PlayerId};
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_store::{Store, now_ms};

/// Longest move text accepted (UCI is at most 5 characters).
const MAX_UCI: usize = 8;
/// Longest `moves` query of a hint.
const MAX_HINT_MOVES: usize = 64;

/// The exercise routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/drills", get(list_drills))
        .route("/api/drills/move", post(drill_move))
        .route("/api/puzzles", get(list_puzzles))
        .route("/api/puzzles/{id}/check", post(check_puzzle))
        .route("/api/puzzles/{id}/hint", get(puzzle_hint))
        .route("/api/learn/progress", get(get_progress).post(add_progress))
}

/// Runs `f` on the blocking pool (the drill tables are solved on first use).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(ApiError::internal)
}

async fn list_drills() -> Result<Json<Vec<Drill>>, ApiError> {
    Ok(Json(blocking(drills::drills).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrillMoveReq {
    fen: String,
    uci: String,
}

async fn drill_move(body: JsonBody) -> Result<Json<DrillMove>, ApiError> {
    let req: DrillMoveReq = json_body(body, "drill move")?;
    if req.uci.len() > MAX_UCI {
        return Err(ApiError::new(ErrorCode::IllegalMove, "malformed move"));
    }
    let played = blocking(move || drills::play(&req.fen, &req.uci)).await?;
    played.map(Json).map_err(|e| match e {
        DrillError::NotADrill(m) => ApiError::new(ErrorCode::NotADrill, m),
        DrillError::Illegal(m) => ApiError::new(ErrorCode::IllegalMove, m),
    })
}

/// A puzzle as listed: no solution.
#[derive(Serialize)]
struct PuzzleJson {
    id: &'static str,
    fen: &'static str,
    mate_in: u8,
    turn: &'static str,
}

impl From<&'static Puzzle> for PuzzleJson {
    fn from(p: &'static Puzzle) -> PuzzleJson {
        let white = p.fen.split_whitespace().nth(1) != Some("b");
        PuzzleJson {
            id: &p.id,
            fen: &p.fen,
            mate_in: p.mate_in,
            turn: if white { "white" } else { "black" },
        }
    }
}

async fn list_puzzles() -> Json<Vec<PuzzleJson>> {
    Json(puzzles::shipped().iter().map(PuzzleJson::from).collect())
}

fn puzzle(id: &str) -> Result<&'static Puzzle, ApiError> {
    puzzles::find(id).ok_or_else(|| {
        let shown: String = id.chars().take(32).collect();
        ApiError::new(ErrorCode::NotFound, format!("no puzzle {shown:?}"))
    })
}

fn line_error(e: LineError) -> ApiError {
    match e {
        LineError::Shape(m) => ApiError::bad_request(m),
        LineError::Illegal(m) => ApiError::new(ErrorCode::IllegalMove, m),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    moves: Vec<String>,
}

/// Judges a move and keeps the player's record honest: a wrong move marks
/// the puzzle as helped; a mate counts as solved only if it never was.
async fn check_puzzle(
    State(store): State<Store>,
    Extension(player): Extension<PlayerId>,
    new_visitor: Option<Extension<NewVisitor>>,
    Path(id): Path<String>,
    body: JsonBody,
) -> Result<Json<Verdict>, ApiError> {
    let p = puzzle(&id)?;
    let req: CheckReq = json_body(body, "puzzle answer")?;
    if req.moves.len() > 3 || req.moves.iter().any(|m| m.len() > MAX_UCI) {
        return Err(ApiError::bad_request("at most 3 moves of UCI"));
    }
    let mut verdict = puzzles::check(p, &req.moves).map_err(line_error)?;
    // A browser without its cookie yet cannot read a record back: none is kept.
    if new_visitor.is_none() {
        if !verdict.correct {
            record(&store, &player, progress::puzzle_helped_key(&p.id)).await?;
        } else if verdict.done {
            let helped = progress::puzzle_helped_key(&p.id);
            if !store.learn_progress(&player.0).await?.contains(&helped) {
                verdict.counted =
                    record(&store, &player, progress::puzzle_solved_key(&p.id)).await?;
            }
        }
    }
    Ok(Json(verdict))
}

/// Adds a server-owned progress key for `player`; false when the player's
/// list is full.
async fn record(store: &Store, player: &PlayerId, key: String) -> Result<bool, ApiError> {
    let (_, added) = store
        .add_learn_progress(&player.0, &[key], MAX_KEYS_PER_PLAYER, now_ms())
        .await?;
    Ok(added)
}

#[derive(Deserialize)]
struct HintQuery {
    level: u8,
    #[serde(default)]
    moves: String,
}

/// A hint; the puzzle then no longer counts as solved for the player.
async fn puzzle_hint(
    State(store): State<Store>,
    Extension(player): Extension<PlayerId>,
    new_visitor: Option<Extension<NewVisitor>>,
    Path(id): Path<String>,
    query: Result<Query<HintQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Hint>, ApiError> {
    let p = puzzle(&id)?;
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    if q.moves.len() > MAX_HINT_MOVES {
        return Err(ApiError::bad_request(
            "the moves of a hint are a short line",
        ));
    }
    let moves: Vec<String> = q
        .moves
        .split(',')
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    let hint = puzzles::hint(p, &moves, q.level).map_err(line_error)?;
    if new_visitor.is_none() {
        record(&store, &player, progress::puzzle_helped_key(&p.id)).await?;
    }
    Ok(Json(hint))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Progress {
    done: Vec<String>,
}

async fn get_progress(
    State(store): State<Store>,
    Extension(player): Extension<PlayerId>,
) -> Result<Json<Progress>, ApiError> {
    let done = store.learn_progress(&player.0).await?;
    Ok(Json(Progress { done }))
}

async fn add_progress(
    State(store): State<Store>,
    State(limits): State<Arc<Limits>>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    new_visitor: Option<Extension<NewVisitor>>,
    body: JsonBody,
) -> Result<Json<Progress>, ApiError> {
    if new_visitor.is_some() {
        return Err(ApiError::bad_request(
            "no player cookie: progress is kept for a browser that keeps its cookie",
        ));
    }
    limits
        .check_progress(ip, account.as_ref().map(|Extension(a)| a))
        .await?;
    let req: Progress = json_body(body, "progress")?;
    let keys = progress::checked_client_keys(&req.done).map_err(ApiError::bad_request)?;
    let (done, added) = store
        .add_learn_progress(&player.0, &keys, MAX_KEYS_PER_PLAYER, now_ms())
        .await?;
    if !added {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_KEYS_PER_PLAYER} progress keys per player"
        )));
    }
    Ok(Json(Progress { done }))
}
