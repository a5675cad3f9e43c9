//! Game routes: creating a game against the computer, a game's state and
//! PGN, the player's recent games, and the game websocket (the upgrade and
//! the adapter from axum's socket to [`crate::ws`] frames).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;

use crate::body::{JsonBody, json_body};
use crate::error::ApiError;
use crate::identity::PlayerId;
use crate::protocol::{GameState, GameSummaryJson, NewComputerGame, SeatJson};
use crate::security::{AccountKey, ClientIp, LimitKey, same_origin};
use crate::ws::game::Voice;
use crate::ws::{Incoming, Outgoing, run_session};
use crate::{AppState, Shared};
use plyyard_engine_time::fair::Requester;
use plyyard_live::{Games, color_name, rfc3339, seat_name};
use plyyard_social::Held;
use plyyard_store::{GameRow, Store};

/// Games listed by `/api/my-games`.
const MY_GAMES_LIMIT: u32 = 50;

/// The game routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/computer-games", post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/pgn", get(get_pgn))
        .route("/api/games/{id}/socket", get(game_socket))
        .route("/api/my-games", get(my_games))
}

async fn create_game(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    body: JsonBody,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let req: NewComputerGame = json_body(body, "game request")?;
    let account = account.as_ref().map(|Extension(a)| a);
    state
        .limits
        .check_create_game(&LimitKey::new(ip, account))
        .await?;
    let client = state.requester(&player, ip, account);
    let game = state
        .live
        .create_computer_game(&player, client, req)
        .await?;
    Ok((StatusCode::CREATED, Json(game)))
}

async fn get_game(
    State(games): State<Games>,
    Extension(player): Extension<PlayerId>,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    let game = games.state(&id, Some(player)).await?;
    Ok(Json(game))
}

async fn get_pgn(State(games): State<Games>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let pgn = games.pgn(&id).await?;
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
    State(store): State<Store>,
    Extension(player): Extension<PlayerId>,
) -> Result<Json<Vec<GameSummaryJson>>, ApiError> {
    let rows = store.recent_games(&player.0, MY_GAMES_LIMIT).await?;
    let mut names: HashMap<Option<String>, SeatJson> = HashMap::new();
    let mut list = Vec::with_capacity(rows.len());
    for g in rows {
        let white = g.white_player.as_deref() == Some(&player.0);
        let other = if white {
            g.black_player.clone()
        } else {
            g.white_player.clone()
        };
        let opponent = match names.get(&other) {
            Some(s) if other.is_some() => s.clone(),
            _ => {
                let s =
                    seat_name(&store, &plyyard_live::Seat::of(other.as_deref(), g.level)).await?;
                names.insert(other, s.clone());
                s
            }
        };
        list.push(summary_json(white, opponent, g));
    }
    Ok(Json(list))
}

/// A game of a player's list: `white` when the player had White, and who
/// sat opposite.
fn summary_json(white: bool, opponent: SeatJson, g: GameRow) -> GameSummaryJson {
    let you = if white {
        Some(color_name(plyyard_game::shakmaty::Color::White).to_owned())
    } else {
        Some(color_name(plyyard_game::shakmaty::Color::Black).to_owned())
    };
    GameSummaryJson {
        opponent,
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
}

#[derive(Debug, Deserialize)]
struct SocketQuery {
    v: Option<u64>,
}

// One argument per extractor, as axum hands them.
#[allow(clippy::too_many_arguments)]
async fn game_socket(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    key: LimitKey,
    Path(id): Path<String>,
    q: Result<Query<SocketQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    held: Option<Extension<Held>>,
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
    state.live.exists(&id).await?;
    let client = state.requester(&player, key.ip, key.account.as_ref());
    let speaker = Voice {
        player: player.clone(),
        account: key.account.clone(),
        ip: key.ip,
    };
    let sockets = state.sockets.clone();
    let ended = crate::ws::ended(held.map(|Extension(h)| h));
    Ok(crate::ws::bounded_socket(ws).on_upgrade(move |socket| {
        let session = session(state.0, id, player, client, speaker, q.v, socket, ended);
        sockets.track_future(session)
    }))
}

/// Runs a game session over an upgraded socket until either side closes
/// or `ended` completes (its account's credential was ended).
#[allow(clippy::too_many_arguments)]
async fn session(
    state: Arc<Shared>,
    id: String,
    player: PlayerId,
    client: Vec<Requester>,
    speaker: Voice,
    since: Option<u64>,
    socket: WebSocket,
    ended: impl Future<Output = ()> + Send + 'static,
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
    let stream = stream
        .map(|m| match m {
            Ok(Message::Text(t)) => Incoming::Text(t.as_str().to_owned()),
            Ok(Message::Binary(_)) => Incoming::Binary,
            Ok(Message::Close(_)) => Incoming::Close,
            Ok(Message::Ping(_) | Message::Pong(_)) => Incoming::Control,
            Err(e) => {
                let too_large = e
                    .into_inner()
                    .downcast_ref::<tokio_tungstenite::tungstenite::Error>()
                    .is_some_and(|t| {
                        matches!(t, tokio_tungstenite::tungstenite::Error::Capacity(_))
                    });
                if too_large {
                    Incoming::TooLarge
                } else {
                    Incoming::Close
                }
            }
        })
        // The account's session or the account itself ended: the client is
        // taken as gone.
        .take_until(ended);
    run_session(
        state,
        id,
        player,
        client,
        speaker,
        since,
        Box::pin(sink),
        Box::pin(stream),
    )
    .await;
}
