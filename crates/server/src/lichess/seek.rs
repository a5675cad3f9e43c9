//! `POST /api/board/seek`: a real-time seek of the Board API, the same
//! seek as the web app's quick pairing (`plyyard_pairing::seeks`). The response is an
//! NDJSON stream of empty lines held open while the seek waits; the seek
//! dies with the connection. When paired, the stream closes and the game
//! arrives as `gameStart` on the player's event stream.

use axum::Extension;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use plyyard_wire::lichess::Scope;
use serde::Deserialize;
use tokio::sync::mpsc;

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::game_stream::{KEEP_ALIVE, ndjson_response};
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp};
use crate::state::AppState;
use plyyard_game::Variant;
use plyyard_pairing::seeks::{NewSeek, seeker_for};

/// The body of a seek (a form, as lichess clients send it).
#[derive(Debug, Default, Deserialize)]
pub(super) struct SeekBody {
    rated: Option<bool>,
    time: Option<f64>,
    increment: Option<u32>,
    days: Option<u32>,
    variant: Option<String>,
}

/// What a seek asks for, as our quick pairing's request.
fn new_seek(b: &SeekBody) -> LiResult<NewSeek> {
    if b.days.is_some() {
        return Err(LiError::bad_request(
            "Correspondence seeks are not played here: send time and increment",
        ));
    }
    let time = b.time.ok_or_else(|| {
        LiError::bad_request("time (minutes) and increment (seconds) are required")
    })?;
    if time.fract() != 0.0 || !(1.0..=180.0).contains(&time) {
        return Err(LiError::bad_request("time is a whole number of minutes"));
    }
    let variant = match b.variant.as_deref().unwrap_or("standard") {
        "standard" => Variant::Standard,
        "chess960" => Variant::Chess960,
        _ => return Err(LiError::bad_request("variant is standard or chess960")),
    };
    Ok(NewSeek {
        variant,
        // Checked above: a whole number from 1 to 180.
        minutes: time as u32,
        increment: b.increment.unwrap_or(0),
        rated: b.rated.unwrap_or(false),
    })
}

/// `POST /api/board/seek`.
pub(super) async fn board_seek(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Response> {
    caller.require(&[Scope::BoardPlay])?;
    if caller.account.bot {
        return Err(LiError::bad_request(
            "Bots cannot seek games in the lobby: challenge a player instead",
        ));
    }
    let b: SeekBody = decode(&headers, body, "seek")?;
    let key = new_seek(&b)?.key()?;
    state
        .limits
        .check_seeks(ip, Some(&AccountKey(caller.account.player_id.clone())))
        .await
        .map_err(crate::error::ApiError::from)?;
    let seeker = seeker_for(&state.store, &caller.account, &key, ip.0).await?;
    let mut handle = state.pairing.seeks.seek(seeker, key).await;
    let (tx, rx) = mpsc::channel::<Bytes>(4);
    let mut stopping = state.shutting_down.subscribe();
    tokio::spawn(async move {
        let stop = async move {
            let _ = stopping.wait_for(|s| *s).await;
        };
        tokio::pin!(stop);
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        loop {
            tokio::select! {
                _ = handle.paired() => return,
                _ = keep_alive.tick() => {
                    if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                        return;
                    }
                }
                () = tx.closed() => return,
                () = &mut stop => return,
            }
        }
    });
    Ok(ndjson_response(rx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeks_read_as_lichess_sends_them() {
        let b = SeekBody {
            rated: Some(true),
            time: Some(5.0),
            increment: Some(3),
            ..SeekBody::default()
        };
        let s = new_seek(&b).unwrap();
        assert_eq!((s.minutes, s.increment, s.rated), (5, 3, true));
        for bad in [
            SeekBody {
                time: Some(2.5),
                ..SeekBody::default()
            },
            SeekBody {
                days: Some(2),
                ..SeekBody::default()
            },
            SeekBody::default(),
            SeekBody {
                time: Some(5.0),
                variant: Some("atomic".into()),
                ..SeekBody::default()
            },
        ] {
            assert_eq!(new_seek(&bad).unwrap_err().status, 400);
        }
    }
}
