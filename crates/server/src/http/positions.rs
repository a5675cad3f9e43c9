//! Position routes for the Learn exercises: `POST /api/positions/inspect`
//! (the checks, captures and threats of a FEN, from [`plyyard_engine::tactics`],
//! and its legal moves) and
//! `POST /api/positions/reply` (the engine's strongest answer to a
//! candidate move, on the engine pool in the client's turn, limited per
//! address and per account). Shapes in
//! `docs/protocol.md` ("Positions").

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Json, Router};
use plyyard_engine::tactics::{self, ThreatKind};
use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::{Chess, EnPassantMode, Move, Position};
use plyyard_game::{Game, RuleSet, notation};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::protocol::color_name;
use crate::security::{AccountKey, ClientIp, LimitKey};
use plyyard_engine_time::fair::Busy;

/// Longest FEN accepted (a real one is under 100 bytes).
const MAX_FEN_BYTES: usize = 128;
/// Longest candidate move accepted (`e7e8q` is 5).
const MAX_UCI_BYTES: usize = 8;
/// The engine's thinking time per reply, before the server's think factor.
const REPLY_TIME: Duration = Duration::from_millis(400);
/// Moves of the engine's line returned at most.
const MAX_LINE: usize = 8;

/// The position routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/positions/inspect", post(inspect))
        .route("/api/positions/reply", post(reply))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InspectRequest {
    fen: String,
}

/// The facts of a legal position.
#[derive(Debug, Serialize)]
struct Inspection {
    valid: bool,
    status: &'static str,
    turn: &'static str,
    checks: Vec<String>,
    captures: Vec<String>,
    threats: Vec<ThreatJson>,
    /// Every legal move, sorted by UCI: the exercises' boards take their
    /// legal moves, SAN and next positions from here, never from the browser.
    moves: Vec<MoveJson>,
}

#[derive(Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct ThreatJson {
    uci: String,
    kind: &'static str,
    gain: u32,
    /// SAN in the position with the turn handed over, where the threat lives.
    san: String,
}

/// One legal move, its SAN and the FEN after it.
#[derive(Debug, Serialize)]
struct MoveJson {
    uci: String,
    san: String,
    fen: String,
}

/// A FEN refused, as `plyyard replay` words it.
#[derive(Debug, Serialize)]
struct Invalid {
    valid: bool,
    error: String,
}

async fn inspect(body: JsonBody) -> Result<Response, ApiError> {
    let req: InspectRequest = json_body(body, "position request")?;
    Ok(match load(&req.fen) {
        Ok(game) => Json(inspection(&game)).into_response(),
        Err(error) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(Invalid {
                valid: false,
                error,
            }),
        )
            .into_response(),
    })
}

/// The game starting at `fen`, or the error `plyyard replay` prints for it.
fn load(fen: &str) -> Result<Game, String> {
    if fen.len() > MAX_FEN_BYTES {
        return Err(format!("a FEN is at most {MAX_FEN_BYTES} bytes"));
    }
    Game::from_fen(fen, RuleSet::default()).map_err(|e| e.to_string())
}

fn inspection(game: &Game) -> Inspection {
    let pos = game.position();
    let ucis = |moves: Vec<Move>| {
        let mut v: Vec<String> = moves.into_iter().map(|m| game.uci_of(m)).collect();
        v.sort();
        v
    };
    let flipped = tactics::opponent_to_move(pos);
    let mut threats: Vec<ThreatJson> = tactics::threats(pos)
        .into_iter()
        .map(|t| ThreatJson {
            uci: game.uci_of(t.mv),
            kind: match t.kind {
                ThreatKind::Mate => "mate",
                ThreatKind::Material { .. } => "material",
            },
            gain: t.gain(),
            san: flipped
                .as_ref()
                .map_or_else(|| game.uci_of(t.mv), |f| notation::san(f, t.mv)),
        })
        .collect();
    threats.sort();
    Inspection {
        valid: true,
        status: status(pos),
        turn: color_name(pos.turn()),
        checks: ucis(tactics::checks(pos)),
        captures: ucis(tactics::captures(pos)),
        threats,
        moves: legal_moves(game),
    }
}

/// Every legal move of `game`'s position with its SAN and the position after it.
fn legal_moves(game: &Game) -> Vec<MoveJson> {
    let pos = game.position();
    let mut moves: Vec<MoveJson> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            MoveJson {
                uci: game.uci_of(m),
                san: notation::san(pos, m),
                fen: Fen::from_position(&next, EnPassantMode::Legal).to_string(),
            }
        })
        .collect();
    moves.sort_by(|a, b| a.uci.cmp(&b.uci));
    moves
}

/// Whether the board has ended the game.
fn status(pos: &Chess) -> &'static str {
    if pos.is_checkmate() {
        "checkmate"
    } else if pos.is_stalemate() {
        "stalemate"
    } else if pos.is_insufficient_material() {
        "insufficient_material"
    } else {
        "ongoing"
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplyRequest {
    fen: String,
    uci: String,
}

/// The engine's answer to a candidate move.
#[derive(Debug, Serialize)]
struct ReplyJson {
    /// The reply, or `None` when the candidate ended the game.
    uci: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    san: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<ScoreJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<Vec<String>>,
    /// Why the game ended after the candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
}

/// A score from the replying side's point of view.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum ScoreJson {
    Cp(i32),
    Mate(i32),
}

async fn reply(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    body: JsonBody,
) -> Result<Json<ReplyJson>, ApiError> {
    let req: ReplyRequest = json_body(body, "reply request")?;
    let account = account.as_ref().map(|Extension(a)| a);
    state
        .limits
        .check_reply(&LimitKey::new(ip, account))
        .await?;
    let client = state.requester(&player, ip, account);
    let mut game = load(&req.fen).map_err(ApiError::bad_request)?;
    if req.uci.len() > MAX_UCI_BYTES {
        return Err(ApiError::bad_request(format!(
            "a move is at most {MAX_UCI_BYTES} bytes of UCI"
        )));
    }
    game.play_uci(&req.uci)
        .map_err(|e| ApiError::new(ErrorCode::IllegalMove, e.to_string()))?;
    if let Some(outcome) = game.outcome() {
        return Ok(Json(ReplyJson {
            uci: None,
            san: None,
            score: None,
            line: None,
            status: Some(outcome.reason.as_str()),
        }));
    }
    let pos = game.position().clone();
    let limits = plyyard_engine::Limits {
        movetime: Some(REPLY_TIME.mul_f64(think_factor(state.tuning.think_time_factor))),
        ..plyyard_engine::Limits::default()
    };
    let found = state
        .engines
        .analyse(&client, pos.clone(), limits)
        .await
        .map_err(|Busy| {
            ApiError::rate_limited(
                "the engine is still busy with your earlier requests; try again in a second",
                1,
            )
        })?
        .ok_or_else(|| ApiError::internal("no engine reply in a position with moves"))?;
    Ok(Json(ReplyJson {
        uci: Some(game.uci_of(found.best_move)),
        san: Some(notation::san(&pos, found.best_move)),
        score: Some(match found.score {
            plyyard_engine::Score::Cp(cp) => ScoreJson::Cp(cp),
            plyyard_engine::Score::Mate(n) => ScoreJson::Mate(n),
        }),
        line: Some(san_line(&pos, &found.pv)),
        status: None,
    }))
}

/// The server's think factor, kept to a sane range.
fn think_factor(f: f64) -> f64 {
    if f.is_finite() && f > 0.0 {
        f.clamp(0.01, 100.0)
    } else {
        1.0
    }
}

/// The SAN of the first [`MAX_LINE`] moves of `pv` from `pos`.
fn san_line(pos: &Chess, pv: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    for &m in pv.iter().take(MAX_LINE) {
        if !pos.is_legal(m) {
            break;
        }
        line.push(notation::san(&pos, m));
        pos.play_unchecked(m);
    }
    line
}
