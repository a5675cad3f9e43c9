//! `POST /api/challenge/ai`: a game against our computer, started at once,
//! played through the Board (or Bot) API like any game. Lichess's levels
//! 1–5 are our Beginner … Expert; `clock.limit` and `clock.increment`
//! (seconds) give the game a clock, as on lichess.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::{Extension, response::IntoResponse, response::Response};
use plyyard_wire::lichess::Scope;
use plyyard_wire::protocol::{ClockRequest, ColorChoice, NewComputerGame};
use serde::Deserialize;
use serde_json::json;

use super::body::decode;
use super::caller::Caller;
use super::challenges::variant_json;
use super::error::{LiError, LiResult};
use super::game_json::{perf_of, speed_of, status_of, unix_ms};
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp, LimitKey};
use crate::state::AppState;
use plyyard_engine::Level;
use plyyard_game::Variant;
use plyyard_store::PlayerId;

/// The body of `POST /api/challenge/ai` (JSON or form).
#[derive(Debug, Default, Deserialize)]
pub(super) struct AiBody {
    level: Option<u8>,
    color: Option<String>,
    variant: Option<String>,
    days: Option<u32>,
    fen: Option<String>,
    #[serde(rename = "clock.limit")]
    clock_limit: Option<u32>,
    #[serde(rename = "clock.increment")]
    clock_increment: Option<u32>,
}

/// Our computer level for lichess's `level`.
///
/// # Errors
/// 400 for a level other than 1 to 5.
pub fn level_of(level: Option<u8>) -> LiResult<Level> {
    match level {
        Some(1) => Ok(Level::Beginner),
        Some(2) => Ok(Level::Easy),
        Some(3) => Ok(Level::Normal),
        Some(4) => Ok(Level::Hard),
        Some(5) => Ok(Level::Expert),
        _ => Err(LiError::bad_request(
            "level is 1 to 5 (Beginner, Easy, Normal, Hard, Expert)",
        )),
    }
}

fn request(b: &AiBody) -> LiResult<NewComputerGame> {
    if b.days.is_some() {
        return Err(LiError::bad_request(
            "Correspondence games are not played here",
        ));
    }
    let color = match b.color.as_deref().unwrap_or("random") {
        "random" => ColorChoice::Random,
        "white" => ColorChoice::White,
        "black" => ColorChoice::Black,
        _ => return Err(LiError::bad_request("color is random, white or black")),
    };
    let variant = match b.variant.as_deref().unwrap_or("standard") {
        "standard" | "fromPosition" => Variant::Standard,
        "chess960" => Variant::Chess960,
        _ => return Err(LiError::bad_request("variant is standard or chess960")),
    };
    let clock = match (b.clock_limit, b.clock_increment) {
        (None, None) => None,
        (Some(limit), Some(increment)) => {
            let control = plyyard_game::TimeControl::from_secs(limit, increment)
                .map_err(|e| LiError::bad_request(format!("clock: {e}")))?;
            Some(ClockRequest {
                minutes: control.initial().as_secs_f64() / 60.0,
                increment,
            })
        }
        _ => {
            return Err(LiError::bad_request(
                "clock.limit and clock.increment go together",
            ));
        }
    };
    Ok(NewComputerGame {
        clock,
        level: level_of(b.level)?,
        color,
        variant,
        position: None,
        rules: plyyard_game::RuleSet::PlyYard,
        fen: b.fen.clone().filter(|f| !f.is_empty()),
    })
}

/// `POST /api/challenge/ai`.
pub(super) async fn challenge_ai(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Response> {
    caller.require(&[Scope::ChallengeWrite, Scope::BoardPlay, Scope::BotPlay])?;
    let b: AiBody = decode(&headers, body, "challenge")?;
    let req = request(&b)?;
    let key = AccountKey(caller.account.player_id.clone());
    state
        .limits
        .check_create_game(&LimitKey::new(ip, Some(&key)))
        .await
        .map_err(crate::error::ApiError::from)?;
    let player = PlayerId(caller.account.player_id.clone());
    let client = state.requester(&player, ip, Some(&key));
    let g = state
        .live
        .create_computer_game(&player, client, req)
        .await?;
    let variant = if g.variant == "chess960" {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let status = status_of(&g);
    let body = json!({
        "id": g.id,
        "variant": variant_json(variant),
        "speed": speed_of(&g),
        "perf": perf_of(&g),
        "rated": false,
        "fen": g.fen,
        "turns": g.ply,
        "source": "ai",
        "status": status,
        "createdAt": unix_ms(&g.created_at),
        "player": g.you,
    });
    Ok((axum::http::StatusCode::CREATED, Json(body)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_one_to_five_are_ours() {
        assert_eq!(level_of(Some(1)).unwrap(), Level::Beginner);
        assert_eq!(level_of(Some(5)).unwrap(), Level::Expert);
        for bad in [None, Some(0), Some(6), Some(8)] {
            assert_eq!(level_of(bad).unwrap_err().status, 400);
        }
        let b = AiBody {
            level: Some(3),
            color: Some("green".into()),
            ..AiBody::default()
        };
        assert!(request(&b).is_err());
    }

    #[test]
    fn a_clock_is_its_limit_and_increment_in_seconds() {
        let body = |limit, increment| AiBody {
            level: Some(2),
            clock_limit: limit,
            clock_increment: increment,
            ..AiBody::default()
        };
        assert_eq!(request(&body(None, None)).unwrap().clock, None);
        let c = request(&body(Some(300), Some(3))).unwrap().clock.unwrap();
        assert_eq!(c.time_control().unwrap().pgn_tag(), "300+3");
        let half = request(&body(Some(30), Some(0))).unwrap().clock.unwrap();
        assert_eq!(half.time_control().unwrap().pgn_tag(), "30+0");
        for (limit, increment) in [
            (Some(300), None),
            (None, Some(2)),
            (Some(7), Some(0)),
            (Some(300), Some(181)),
        ] {
            assert_eq!(
                request(&body(limit, increment)).unwrap_err().status,
                400,
                "{limit:?}+{increment:?}"
            );
        }
    }
}
