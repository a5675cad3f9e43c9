//! Playing through the Board and Bot APIs: a move (with a draw offer),
//! abort, resign, draw offers answered, takebacks refused (tables have
//! none) and the win claimed against an opponent who left. Each is a
//! command to the game's actor, so a move is committed once or refused:
//! a duplicated or late move gets a 400, never a second application.
//!
//! Every answer is JSON: `{"ok":true}` or `{"error":…}`.

use axum::Json;
use axum::extract::{Path, Query, State};
use plyyard_wire::lichess::{OK, Ok as OkJson};
use serde::Deserialize;
use tokio::sync::oneshot;

use super::caller::{Api, Caller};
use super::error::{LiError, LiResult};
use super::game_json;
use super::game_stream::game_error;
use crate::identity::PlayerId;
use crate::state::AppState;
use plyyard_live::Cmd;
use plyyard_wire::error::{ApiError, ErrorCode};

/// Longest move accepted in a path (UCI is at most 5 characters).
const MAX_UCI_LEN: usize = 5;

type Answer = oneshot::Sender<Result<u64, ApiError>>;

/// Sends the command `make` builds for the caller to game `id`, after
/// checking that the caller may play through `api`.
async fn act(
    state: &AppState,
    caller: &Caller,
    api: Api,
    id: &str,
    make: impl Fn(PlayerId, Answer) -> Cmd,
) -> LiResult<Json<OkJson>> {
    act_or(state, caller, api, id, make, game_error).await
}

/// [`act`], the game's refusal told by `refused`.
async fn act_or(
    state: &AppState,
    caller: &Caller,
    api: Api,
    id: &str,
    make: impl Fn(PlayerId, Answer) -> Cmd,
    refused: impl FnOnce(ApiError) -> LiError,
) -> LiResult<Json<OkJson>> {
    caller.require_api(api)?;
    let id = game_json::game_id(id);
    let player = PlayerId(caller.account.player_id.clone());
    plyyard_live::request(&state.live, id, |reply| make(player.clone(), reply))
        .await
        .and_then(|done| done)
        .map_err(refused)?;
    Ok(Json(OK))
}

#[derive(Debug, Deserialize)]
pub(super) struct MoveQuery {
    #[serde(rename = "offeringDraw")]
    offering_draw: Option<String>,
}

/// The API of a route: `BOT` for `/api/bot/…`.
const fn api_of<const BOT: bool>() -> Api {
    if BOT { Api::Bot } else { Api::Board }
}

/// `POST /api/{board,bot}/game/{id}/move/{uci}[?offeringDraw=true]`.
pub(super) async fn make_move<const BOT: bool>(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, uci)): Path<(String, String)>,
    q: Result<Query<MoveQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    let draw_offer = match q.offering_draw.as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => return Err(LiError::bad_request("offeringDraw is true or false")),
    };
    if uci.len() > MAX_UCI_LEN || !uci.is_ascii() {
        caller.require_api(api)?;
        return Err(LiError::bad_request(format!(
            "Not a UCI move: {:?}",
            uci.chars().take(8).collect::<String>()
        )));
    }
    act(&state, &caller, api, &id, |player, reply| Cmd::Move {
        player,
        uci: uci.clone(),
        draw_offer,
        lag: std::time::Duration::ZERO,
        client: Vec::new(),
        reply,
    })
    .await
}

/// `POST /api/{board,bot}/game/{id}/abort`.
pub(super) async fn abort<const BOT: bool>(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    act(&state, &caller, api, &id, |player, reply| Cmd::Abort {
        player,
        reply,
    })
    .await
}

/// `POST /api/{board,bot}/game/{id}/resign`.
pub(super) async fn resign<const BOT: bool>(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    act(&state, &caller, api, &id, |player, reply| Cmd::Resign {
        player,
        reply,
    })
    .await
}

/// `POST /api/{board,bot}/game/{id}/draw/{yes|no}`: `yes` accepts the
/// opponent's offer (an offer of one's own goes with a move:
/// `?offeringDraw=true`); `no` leaves it to lapse with the next move.
pub(super) async fn draw<const BOT: bool>(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, answer)): Path<(String, String)>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    match answer.as_str() {
        "yes" => {
            let refused = |e: ApiError| {
                if e.code == ErrorCode::NoDrawOffer {
                    LiError::bad_request(
                        "No draw offer to accept: offer a draw with your move (POST /api/board/game/{id}/move/{uci}?offeringDraw=true)",
                    )
                } else {
                    game_error(e)
                }
            };
            let make = |player, reply| Cmd::AcceptDraw { player, reply };
            act_or(&state, &caller, api, &id, make, refused).await
        }
        "no" => {
            caller.require_api(api)?;
            check_player(&state, &caller, &id).await?;
            Ok(Json(OK))
        }
        _ => Err(LiError::bad_request("Answer yes or no")),
    }
}

/// `POST /api/board/game/{id}/takeback/{yes|no}`: tables have no
/// takebacks, so `yes` is refused and `no` changes nothing.
pub(super) async fn takeback(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, answer)): Path<(String, String)>,
) -> LiResult<Json<OkJson>> {
    caller.require_api(Api::Board)?;
    check_player(&state, &caller, &id).await?;
    match answer.as_str() {
        "yes" => Err(LiError::bad_request(
            "Takebacks are not available: Ply Yard tables play by touch-move rules",
        )),
        "no" => Ok(Json(OK)),
        _ => Err(LiError::bad_request("Answer yes or no")),
    }
}

/// `POST /api/board/game/{id}/claim-victory` (also with a trailing
/// slash): the win against an opponent away long enough.
pub(super) async fn claim_victory(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    act(&state, &caller, Api::Board, &id, |player, reply| {
        Cmd::ClaimAway {
            player,
            win: true,
            reply,
        }
    })
    .await
}

/// Passes when the caller plays game `id`.
///
/// # Errors
/// 404 for an unknown game or someone else's.
pub(super) async fn check_player(state: &AppState, caller: &Caller, id: &str) -> LiResult<()> {
    let id = game_json::game_id(id);
    let player = PlayerId(caller.account.player_id.clone());
    let game = plyyard_live::request(&state.live, id, |reply| Cmd::State {
        viewer: Some(player.clone()),
        reply,
    })
    .await
    .map_err(game_error)?;
    if game.you.is_none() {
        return Err(LiError::not_found("Not your game"));
    }
    Ok(())
}
