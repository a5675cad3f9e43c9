//! Games through the Lichess API: the caller's ongoing games
//! (`GET /api/account/playing`), one game exported as PGN or lichess's
//! game JSON (`GET /game/export/{id}`), and a user's games streamed as
//! PGN or NDJSON (`GET /api/games/user/{username}`).
//!
//! The games come from their live actors, so the PGN is the one
//! `/api/games/{id}/pgn` gives.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::game_json::{self, Player, PlayerGameJson};
use super::game_search::SearchQuery;
use super::game_stream::{NDJSON, game_error, line, ndjson_response};
use crate::identity::PlayerId;
use crate::state::{AppState, Shared};
use plyyard_store::{GameFilter, GameKind, GameRow, now_ms};
use plyyard_wire::protocol::{GameState, Sides};

/// Ongoing games `/api/account/playing` lists by default (as lichess).
const PLAYING_DEFAULT: u32 = 9;
/// Ongoing games `/api/account/playing` lists at most.
const PLAYING_MAX: u32 = 50;
/// Games one `/api/games/user/{username}` export streams at most.
pub const EXPORT_MAX: u32 = 300;
/// Games read from the store at a time by an export (each page is
/// written out before the next is read).
const EXPORT_PAGE: u32 = 50;
/// The content type of PGN.
pub(super) const PGN: &str = "application/x-chess-pgn";

#[derive(Debug, Deserialize)]
pub(super) struct PlayingQuery {
    nb: Option<u32>,
}

/// `GET /api/account/playing?nb=`: the caller's ongoing games, most
/// recently changed first (any valid token).
pub(super) async fn playing(
    State(state): State<AppState>,
    caller: Caller,
    q: Result<Query<PlayingQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Json<serde_json::Value>> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    let nb = q.nb.unwrap_or(PLAYING_DEFAULT).clamp(1, PLAYING_MAX);
    let player = PlayerId(caller.account.player_id.clone());
    let rows = state.store.ongoing_games(&player.0, nb).await?;
    let mut now_playing: Vec<PlayerGameJson> = Vec::with_capacity(rows.len());
    for row in rows.iter().filter(|r| r.kind != GameKind::Imported) {
        let g = state_of(&state, &row.id, Some(&player)).await?;
        let Some(me) = g.you.as_deref().and_then(color_of) else {
            continue;
        };
        if g.status != "ongoing" {
            continue;
        }
        let players = game_json::players(&state.store, &g).await?;
        now_playing.push(game_json::player_game(&g, me, &player.0, &players));
    }
    Ok(Json(serde_json::json!({ "nowPlaying": now_playing })))
}

fn color_of(name: &str) -> Option<plyyard_game::shakmaty::Color> {
    match name {
        "white" => Some(plyyard_game::shakmaty::Color::White),
        "black" => Some(plyyard_game::shakmaty::Color::Black),
        _ => None,
    }
}

async fn state_of(state: &Shared, id: &str, viewer: Option<&PlayerId>) -> LiResult<GameState> {
    state
        .live
        .state(id, viewer.cloned())
        .await
        .map_err(game_error)
}

async fn pgn_of(state: &Shared, id: &str) -> LiResult<String> {
    state.live.pgn(id).await.map_err(game_error)
}

/// Whether the client asks for `content_type` (by `Accept`).
fn accepts(headers: &HeaderMap, content_type: &str) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().starts_with(content_type)))
}

/// A flag of an export's query: `true`/`false` (or `True`/`False`),
/// `default` when absent.
fn flag(v: Option<&str>, name: &str, default: bool) -> LiResult<bool> {
    match v {
        None => Ok(default),
        // berserk sends Python's `True` and `False`.
        Some("true" | "True" | "1") => Ok(true),
        Some("false" | "False" | "0") => Ok(false),
        Some(_) => Err(LiError::bad_request(format!("{name} is true or false"))),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ExportQuery {
    pgn_in_json: Option<String>,
    moves: Option<String>,
}

/// A user of an exported game.
#[derive(Debug, Serialize)]
struct UserJson {
    name: String,
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
}

/// A player of an exported game.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum ExportPlayer {
    User {
        user: UserJson,
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i64>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        provisional: bool,
    },
    Anonymous {
        name: String,
    },
    Computer {
        #[serde(rename = "aiLevel")]
        ai_level: u8,
    },
}

impl From<Player> for ExportPlayer {
    fn from(p: Player) -> ExportPlayer {
        match p {
            Player::Computer { ai_level } => ExportPlayer::Computer { ai_level },
            Player::Person {
                id: Some(id),
                name,
                title,
                rating,
                provisional,
            } => ExportPlayer::User {
                user: UserJson { name, id, title },
                rating,
                provisional,
            },
            Player::Person { name, .. } => ExportPlayer::Anonymous { name },
        }
    }
}

/// A clock as an export gives it, in seconds.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportClock {
    initial: u64,
    increment: u64,
    total_time: u64,
}

/// A game as lichess exports it in JSON.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportJson {
    id: String,
    rated: bool,
    variant: &'static str,
    speed: &'static str,
    perf: &'static str,
    created_at: i64,
    last_move_at: i64,
    status: &'static str,
    source: &'static str,
    players: Sides<ExportPlayer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<ExportClock>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pgn: Option<String>,
}

/// What an export writes of each game.
#[derive(Debug, Clone, Copy)]
pub(super) struct ExportWants {
    pub(super) json: bool,
    moves: bool,
    pgn_in_json: bool,
}

impl ExportWants {
    pub(super) fn of(
        headers: &HeaderMap,
        json_type: &str,
        q: &ExportQuery,
    ) -> LiResult<ExportWants> {
        Ok(ExportWants {
            json: accepts(headers, json_type),
            moves: flag(q.moves.as_deref(), "moves", true)?,
            pgn_in_json: flag(q.pgn_in_json.as_deref(), "pgnInJson", false)?,
        })
    }
}

/// Game `row` as the export writes it: lichess's JSON or PGN text.
pub(super) async fn export_one(
    state: &Shared,
    row: &GameRow,
    wants: ExportWants,
) -> LiResult<Bytes> {
    let id = &row.id;
    if !wants.json {
        let pgn = pgn_of(state, id).await?;
        return Ok(Bytes::from(format!("{}\n\n\n", pgn.trim_end())));
    }
    let g = state_of(state, id, None).await?;
    let players = game_json::players(&state.store, &g).await?;
    let pgn = if wants.pgn_in_json {
        Some(pgn_of(state, id).await?)
    } else {
        None
    };
    let moves = g.moves.as_deref().unwrap_or_default();
    let fen = game_json::initial_fen(&g);
    let json = ExportJson {
        id: id.clone(),
        rated: g.table.as_ref().is_some_and(|t| t.rated),
        variant: game_json::variant_of(&g).key,
        speed: game_json::speed_of(&g),
        perf: game_json::perf_of(&g),
        created_at: row.created_at,
        last_move_at: row.summary.updated_at,
        status: game_json::status_of(&g).name,
        source: game_json::source_of(&g),
        players: Sides {
            white: players.white.into(),
            black: players.black.into(),
        },
        winner: game_json::winner(&g.result).map(plyyard_wire::protocol::color_name),
        initial_fen: (fen != "startpos").then_some(fen),
        moves: wants.moves.then(|| {
            moves
                .iter()
                .map(|m| m.san.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        }),
        clock: g.table.as_ref().map(|t| {
            let (initial, increment) = (t.clock.initial_ms / 1000, t.clock.increment_ms / 1000);
            ExportClock {
                initial,
                increment,
                total_time: initial + 40 * increment,
            }
        }),
        pgn,
    };
    Ok(line(&json))
}

/// `GET /game/export/{id}`: PGN, or lichess's game JSON with
/// `Accept: application/json` (`?pgnInJson=true`, `?moves=false`).
pub(super) async fn export(
    State(state): State<AppState>,
    reader: super::caller::Reader,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    reader.count(&state.limits, 1).await?;
    let wants = ExportWants::of(&headers, "application/json", &q)?;
    let id = game_json::game_id(&id);
    let row = match state.live.exists(id).await {
        Ok(_) => state.store.load_game(id).await?.map(|(row, _)| row),
        Err(_) => None,
    };
    let Some(row) = row.filter(|r| r.kind != GameKind::Imported) else {
        return Err(LiError::not_found("No such game"));
    };
    let body = export_one(&state, &row, wants).await?;
    let content_type = if wants.json { "application/json" } else { PGN };
    Ok(([(header::CONTENT_TYPE, content_type)], body).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct UserGamesQuery {
    max: Option<u32>,
    since: Option<i64>,
    until: Option<i64>,
    ongoing: Option<String>,
    pgn_in_json: Option<String>,
    moves: Option<String>,
}

/// `GET /api/games/user/{username}`: the user's games, newest first,
/// streamed as PGN or as NDJSON (`Accept: application/x-ndjson`);
/// `max` (at most [`EXPORT_MAX`]), `since` and `until` in Unix ms, finished
/// games only unless `ongoing=true`, and lichess's filters (`vs`, `color`,
/// `rated`, `perfType`, `analysed`; [`SearchQuery`]).
pub(super) async fn user_games(
    State(state): State<AppState>,
    reader: super::caller::Reader,
    Path(name): Path<String>,
    headers: HeaderMap,
    q: Result<Query<UserGamesQuery>, axum::extract::rejection::QueryRejection>,
    search: Result<Query<SearchQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    let Query(search) = search.map_err(|e| LiError::bad_request(e.body_text()))?;
    // An export of many games counts as several reads.
    reader
        .count(
            &state.limits,
            q.max
                .unwrap_or(EXPORT_MAX)
                .clamp(1, EXPORT_MAX)
                .div_ceil(100),
        )
        .await?;
    let wants = ExportWants::of(
        &headers,
        NDJSON,
        &ExportQuery {
            pgn_in_json: q.pgn_in_json.clone(),
            moves: q.moves.clone(),
        },
    )?;
    let ongoing = flag(q.ongoing.as_deref(), "ongoing", false)?;
    let account = super::users::named(&state.store, &name).await?;
    let max = q.max.unwrap_or(EXPORT_MAX).min(EXPORT_MAX);
    let since = q.since.unwrap_or(0);
    let until = q.until.unwrap_or_else(now_ms);
    if since > until {
        return Err(LiError::bad_request("since is after until"));
    }
    let filter = search.filter(&state.store).await?.map(|f| GameFilter {
        since: Some(since),
        until: Some(until),
        ended_only: !ongoing,
        played_here: true,
        ..f
    });
    let (tx, rx) = mpsc::channel::<Bytes>(4);
    let shared = std::sync::Arc::clone(&state.0);
    tokio::spawn(async move {
        let Some(filter) = filter else {
            return;
        };
        let mut sent = 0;
        let mut after: Option<(i64, String)> = None;
        while sent < max {
            let key = after.as_ref().map(|(t, id)| (*t, id.as_str()));
            let page = match shared
                .store
                .search_games_after(&account.player_id, &filter, key, EXPORT_PAGE)
                .await
            {
                Ok(p) => p,
                Err(e) => {
                    tracing::warn!("game export: {e}");
                    return;
                }
            };
            let Some(last) = page.last() else {
                return;
            };
            after = Some((last.created_at, last.id.clone()));
            for row in &page {
                if sent >= max {
                    break;
                }
                match export_one(&shared, row, wants).await {
                    Ok(bytes) => {
                        if tx.send(bytes).await.is_err() {
                            return;
                        }
                        sent += 1;
                    }
                    Err(e) => tracing::warn!(game = %row.id, "game export: {}", e.message),
                }
            }
            if page.len() < EXPORT_PAGE as usize {
                return;
            }
        }
    });
    let mut resp = ndjson_response(rx);
    if !wants.json {
        resp.headers_mut()
            .insert(header::CONTENT_TYPE, header::HeaderValue::from_static(PGN));
    }
    Ok(resp)
}
