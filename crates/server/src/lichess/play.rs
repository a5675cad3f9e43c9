//! Playing through the Board and Bot APIs: a move (with a draw offer),
//! abort, resign, draw offers answered, takebacks asked and answered (casual
//! games) and the win claimed against an opponent who left. Each is a
//! command to the game's actor, so a move is committed once or refused:
//! a duplicated or late move gets a 400, never a second application.
//!
//! Every answer is JSON: `{"ok":true}` or `{"error":…}`.

use axum::Json;
use axum::extract::{Path, Query, State};
use plyyard_wire::lichess::{OK, Ok as OkJson};
use serde::Deserialize;

use super::caller::{Api, Caller};
use super::error::{LiError, LiResult};
use super::game_json;
use super::game_stream::game_error;
use crate::identity::PlayerId;
use plyyard_live::{Action, Games};
use plyyard_wire::error::{ApiError, ErrorCode};

/// Longest move accepted in a path (UCI is at most 5 characters).
const MAX_UCI_LEN: usize = 5;

/// Has the caller do `action` at game `id`, after
/// checking that the caller may play through `api`.
async fn act(
    games: &Games,
    caller: &Caller,
    api: Api,
    id: &str,
    action: Action,
) -> LiResult<Json<OkJson>> {
    act_or(games, caller, api, id, action, game_error).await
}

/// [`act`], the game's refusal told by `refused`.
async fn act_or(
    games: &Games,
    caller: &Caller,
    api: Api,
    id: &str,
    action: Action,
    refused: impl FnOnce(ApiError) -> LiError,
) -> LiResult<Json<OkJson>> {
    caller.require_api(api)?;
    let id = game_json::game_id(id);
    let player = PlayerId(caller.account.player_id.clone());
    games.act(id, player, action).await.map_err(refused)?;
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
    State(games): State<Games>,
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
    let action = Action::Move {
        uci,
        draw_offer,
        blur: false,
        lag: std::time::Duration::ZERO,
        client: Vec::new(),
    };
    act(&games, &caller, api, &id, action).await
}

/// `POST /api/{board,bot}/game/{id}/abort`.
pub(super) async fn abort<const BOT: bool>(
    State(games): State<Games>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    act(&games, &caller, api, &id, Action::Abort).await
}

/// `POST /api/{board,bot}/game/{id}/resign`.
pub(super) async fn resign<const BOT: bool>(
    State(games): State<Games>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    act(&games, &caller, api, &id, Action::Resign).await
}

/// `POST /api/{board,bot}/game/{id}/draw/{yes|no}`: `yes` accepts the
/// opponent's pending offer, or offers a draw (after one's own move: at
/// once, joined to that move; on one's turn: with the next move); `no`
/// declines the opponent's pending offer (and drops one's own held offer),
/// and is ok with nothing to decline, as on lichess.
pub(super) async fn draw<const BOT: bool>(
    State(games): State<Games>,
    caller: Caller,
    Path((id, answer)): Path<(String, String)>,
) -> LiResult<Json<OkJson>> {
    let api = api_of::<BOT>();
    match answer.as_str() {
        "yes" => act(&games, &caller, api, &id, Action::OfferDraw).await,
        "no" => {
            caller.require_api(api)?;
            let id = game_json::game_id(&id);
            let player = PlayerId(caller.account.player_id.clone());
            match games.act(id, player, Action::DeclineDraw).await {
                Ok(_) => Ok(Json(OK)),
                Err(e) if e.code == ErrorCode::NoDrawOffer => Ok(Json(OK)),
                Err(e) => Err(game_error(e)),
            }
        }
        _ => Err(LiError::bad_request("Answer yes or no")),
    }
}

/// `POST /api/board/game/{id}/takeback/{yes|no}` (casual games):
/// `yes` asks to take back one's last move, or accepts the opponent's
/// asking; `no` declines it or withdraws one's own (with none pending, it
/// changes nothing, as lichess).
pub(super) async fn takeback(
    State(games): State<Games>,
    caller: Caller,
    Path((id, answer)): Path<(String, String)>,
) -> LiResult<Json<OkJson>> {
    let yes = match answer.as_str() {
        "yes" => true,
        "no" => false,
        _ => return Err(LiError::bad_request("Answer yes or no")),
    };
    caller.require_api(Api::Board)?;
    check_player(&games, &caller, &id).await?;
    let id = game_json::game_id(&id);
    let player = PlayerId(caller.account.player_id.clone());
    match games.act(id, player, Action::Takeback { yes }).await {
        Ok(_) => Ok(Json(OK)),
        Err(e) if !yes && e.code == ErrorCode::NothingToUndo => Ok(Json(OK)),
        Err(e) => Err(game_error(e)),
    }
}

/// `POST /api/board/game/{id}/claim-victory` (also with a trailing
/// slash): the win against an opponent away long enough.
pub(super) async fn claim_victory(
    State(games): State<Games>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<OkJson>> {
    act(
        &games,
        &caller,
        Api::Board,
        &id,
        Action::ClaimAway { win: true },
    )
    .await
}

/// Passes when the caller plays game `id`.
///
/// # Errors
/// 404 for an unknown game or someone else's.
pub(super) async fn check_player(games: &Games, caller: &Caller, id: &str) -> LiResult<()> {
    let id = game_json::game_id(id);
    let player = PlayerId(caller.account.player_id.clone());
    let game = games
        .state(id, Some(player.clone()))
        .await
        .map_err(game_error)?;
    if game.you.is_none() {
        return Err(LiError::not_found("Not your game"));
    }
    Ok(())
}
