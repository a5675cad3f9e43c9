//! Game chat through the Board and Bot APIs: `POST
//! /api/{board,bot}/game/{id}/chat` (`room` = `player` or `spectator`,
//! `text`; JSON or form) and `GET /api/{board,bot}/game/{id}/chat` (the
//! player room's last lines, `[{"text","user"}]`). The rules are the web
//! app's ([`plyyard_social::chat`]); the game streams carry new lines as
//! `chatLine` ([`super::game_stream`]).

use std::sync::Arc;

use axum::Extension;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use plyyard_wire::lichess::{OK, Ok as OkJson};
use serde::{Deserialize, Serialize};

use super::body::decode;
use super::caller::{Api, Caller};
use super::error::{LiError, LiResult};
use super::game_json;
use super::play::check_player;
use crate::body::JsonBody;
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::security::{AccountKey, ClientIp, Limits};
use crate::ws::game::Voice;
use plyyard_live::Games;
use plyyard_social::Social;
use plyyard_wire::protocol::ChatRoom;

/// The body of a chat post.
#[derive(Debug, Deserialize)]
struct ChatBody {
    room: Option<String>,
    text: Option<String>,
}

/// One line as lichess lists it.
#[derive(Debug, Serialize)]
pub(super) struct LineJson {
    text: String,
    user: String,
}

const fn api_of<const BOT: bool>() -> Api {
    if BOT { Api::Bot } else { Api::Board }
}

/// A chat refusal as a Lichess-API error.
fn chat_error(e: ApiError) -> LiError {
    match e.code {
        ErrorCode::NotFound => LiError::not_found("No such game"),
        _ => LiError::from(e),
    }
}

/// `POST /api/{board,bot}/game/{id}/chat`.
pub(super) async fn post<const BOT: bool>(
    State(social): State<Social>,
    State(limits): State<Arc<Limits>>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<OkJson>> {
    caller.require_api(api_of::<BOT>())?;
    let b: ChatBody = decode(&headers, body, "chat line")?;
    let room: ChatRoom = b
        .room
        .as_deref()
        .ok_or_else(|| LiError::bad_request("room is player or spectator"))?
        .parse()
        .map_err(LiError::from)?;
    let text = b
        .text
        .ok_or_else(|| LiError::bad_request("a chat line needs some text"))?;
    let speaker = Voice {
        player: PlayerId(caller.account.player_id.clone()),
        account: Some(AccountKey(caller.account.player_id.clone())),
        ip,
    };
    speaker
        .say(&social, &limits, game_json::game_id(&id), room, &text)
        .await
        .map_err(chat_error)?;
    Ok(Json(OK))
}

/// `GET /api/{board,bot}/game/{id}/chat`: the player room, oldest first.
pub(super) async fn list<const BOT: bool>(
    State(games): State<Games>,
    State(social): State<Social>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Vec<LineJson>>> {
    caller.require_api(api_of::<BOT>())?;
    check_player(&games, &caller, &id).await?;
    let lines = social
        .chat
        .history(
            game_json::game_id(&id),
            ChatRoom::Player,
            Some(&caller.account.player_id),
        )
        .await
        .map_err(chat_error)?;
    Ok(Json(
        lines
            .into_iter()
            .map(|l| LineJson {
                text: l.text,
                user: l.user,
            })
            .collect(),
    ))
}
