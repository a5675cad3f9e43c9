//! Challenges, as lichess serves them: `POST /api/challenge/{username}`,
//! `GET /api/challenge`, `GET /api/challenge/{id}/show`,
//! `POST /api/challenge/{id}/accept|decline|cancel`,
//! and their events on both players' event streams. An accepted
//! challenge's game has the challenge's id; it is an ordinary table game
//! (a private table with both seats taken).
//!
//! The rules (terms, who may accept, decline or cancel, expiry) are
//! `plyyard_pairing::challenges`; this module reads lichess's requests and
//! writes lichess's JSON (`ChallengeJson`, the decline reasons' sentences).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, response::IntoResponse, response::Response};
use plyyard_wire::lichess::{OK, Scope};
use serde::Deserialize;
use serde_json::{Value, json};

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::game_json;
use super::users::{named, title, user_id};
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_game::{Speed, TimeControl, Variant};
use plyyard_pairing::Pairing;
use plyyard_pairing::challenges::{
    AskedTerms, ChallengeError, MAX_RECEIVED, MAX_TO_ONE, MAX_WAITING, terms,
};
use plyyard_social::events::{AccountEvent, ChallengeNews};
use plyyard_store::{Account, ChallengeRow, now_ms};

/// Lichess's decline reasons: key and sentence.
pub const DECLINE_REASONS: [(&str, &str); 11] = [
    ("generic", "I'm not accepting challenges at the moment."),
    (
        "later",
        "This is not the right time for me, please ask again later.",
    ),
    (
        "tooFast",
        "This time control is too fast for me, please challenge again with a slower game.",
    ),
    (
        "tooSlow",
        "This time control is too slow for me, please challenge again with a faster game.",
    ),
    (
        "timeControl",
        "I'm not accepting challenges with this time control.",
    ),
    ("rated", "Please send me a rated challenge instead."),
    ("casual", "Please send me a casual challenge instead."),
    (
        "standard",
        "I'm not accepting variant challenges right now.",
    ),
    ("variant", "I'm not willing to play this variant right now."),
    ("noBot", "I'm not accepting challenges from bots."),
    ("onlyBot", "I'm only accepting challenges from bots."),
];

/// The body of `POST /api/challenge/{username}` (JSON or form).
#[derive(Debug, Default, Deserialize)]
pub(super) struct ChallengeBody {
    rated: Option<bool>,
    #[serde(rename = "clock.limit")]
    limit: Option<u32>,
    #[serde(rename = "clock.increment")]
    increment: Option<u32>,
    days: Option<u32>,
    color: Option<String>,
    variant: Option<String>,
    fen: Option<String>,
}

/// Lichess's speed of a challenge's clock.
pub fn speed_name(control: TimeControl) -> &'static str {
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    game_json::speed(ms(control.initial()), ms(control.increment()))
}

/// A variant as lichess writes it in challenges.
pub fn variant_json(variant: Variant) -> Value {
    match variant {
        Variant::Standard => json!({"key": "standard", "name": "Standard", "short": "Std"}),
        Variant::Chess960 => json!({"key": "chess960", "name": "Chess960", "short": "960"}),
    }
}

async fn player_json(pairing: &Pairing, account: &Account, speed: Speed) -> LiResult<Value> {
    let r = pairing.store.rating(&account.player_id, speed).await?;
    let shown = r.json(now_ms());
    let id = user_id(account);
    let mut v = json!({
        "id": id,
        "name": account.username,
        "rating": shown.rating,
        "online": pairing.social.presence.is_online(&id).await,
    });
    if shown.provisional {
        v["provisional"] = json!(true);
    }
    if let Some(t) = title(account) {
        v["title"] = json!(t);
    }
    Ok(v)
}

/// One side of a challenge: its account, or a deleted player (whose
/// cancelled challenges are still told to the other side).
async fn side_json(pairing: &Pairing, player_id: &str, speed: Speed) -> LiResult<Value> {
    match pairing.store.account_row(player_id).await? {
        Some(a) => player_json(pairing, &a.account, speed).await,
        None => Ok(json!({"id": "ghost", "name": "Deleted player", "online": false})),
    }
}

/// A challenge as lichess shows it (`ChallengeJson`), seen from `viewer`
/// (its `direction`), the decline reason's sentence included.
pub async fn challenge_json(
    pairing: &Pairing,
    c: &ChallengeRow,
    viewer: Option<&str>,
) -> LiResult<Value> {
    let control = TimeControl::from_secs(c.base_s, c.increment_s)
        .map_err(|e| LiError::from(crate::error::ApiError::internal(e)))?;
    let speed = control.speed();
    let challenger = side_json(pairing, &c.challenger, speed).await?;
    let dest = side_json(pairing, &c.dest, speed).await?;
    let mut v = json!({
        "id": c.id,
        "url": format!("/game/{}", c.id),
        "status": c.status.as_str(),
        "challenger": challenger,
        "destUser": dest,
        "variant": variant_json(c.variant),
        "rated": c.rated,
        "speed": speed_name(control),
        "timeControl": {
            "type": "clock",
            "limit": c.base_s,
            "increment": c.increment_s,
            "show": control.to_string(),
        },
        "color": c.color,
        "finalColor": c.final_color,
        "perf": {"icon": "", "name": game_json::perf_name(speed_name(control))},
    });
    if let Some(viewer) = viewer {
        v["direction"] = json!(if viewer == c.challenger { "out" } else { "in" });
    }
    if let Some(key) = &c.decline_reason {
        let sentence = DECLINE_REASONS
            .iter()
            .find(|(k, _)| k == key)
            .map_or(DECLINE_REASONS[0].1, |(_, s)| s);
        v["declineReason"] = json!(sentence);
        v["declineReasonKey"] = json!(key);
    }
    Ok(v)
}

/// The lichess event line (`challenge`, `challengeCanceled`,
/// `challengeDeclined`) of `event`, as `viewer` sees it.
///
/// # Errors
/// A database failure.
pub async fn event_json(pairing: &Pairing, event: &AccountEvent, viewer: &str) -> LiResult<Value> {
    let AccountEvent::Challenge { news, challenge } = event;
    let kind = match news {
        ChallengeNews::Made => "challenge",
        ChallengeNews::Canceled => "challengeCanceled",
        ChallengeNews::Declined => "challengeDeclined",
    };
    let json = challenge_json(pairing, challenge, Some(viewer)).await?;
    Ok(json!({"type": kind, "challenge": json}))
}

impl From<ChallengeError> for LiError {
    fn from(e: ChallengeError) -> LiError {
        match e {
            ChallengeError::Refused(why) => LiError::bad_request(why),
            ChallengeError::NotFound => not_found(),
            ChallengeError::TooManyWaiting => LiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("You have {MAX_WAITING} challenges waiting already: cancel one first"),
            ),
            ChallengeError::TooManyReceived => LiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("This player has {MAX_RECEIVED} challenges waiting already: try later"),
            ),
            ChallengeError::TooManyToThem => LiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "You have {MAX_TO_ONE} challenges waiting for this player already: wait for their answer"
                ),
            ),
            ChallengeError::NoFreeCode => LiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "No table code was free; try again",
            ),
            ChallengeError::Failed(e) => e.into(),
        }
    }
}

const CHALLENGE_SCOPES: [Scope; 3] = [Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay];

/// `POST /api/challenge/{username}`.
pub(super) async fn create(
    State(pairing): State<Pairing>,
    State(limits): State<Arc<Limits>>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Response> {
    caller.require(&CHALLENGE_SCOPES)?;
    let b: ChallengeBody = decode(&headers, body, "challenge")?;
    if b.fen.as_deref().is_some_and(|f| !f.is_empty()) {
        return Err(LiError::bad_request(
            "Challenges from a position are not played here: leave fen out",
        ));
    }
    let t = terms(&AskedTerms {
        limit: b.limit,
        increment: b.increment,
        days: b.days,
        color: b.color.as_deref(),
        variant: b.variant.as_deref(),
        rated: b.rated,
    })?;
    let dest = named(&pairing.store, &username).await?;
    if dest.player_id == caller.account.player_id {
        return Err(LiError::bad_request("You cannot challenge yourself"));
    }
    limits
        .check_challenges(ip, Some(&AccountKey(caller.account.player_id.clone())))
        .await
        .map_err(crate::error::ApiError::from)?;
    let row = pairing
        .challenge(&caller.account.player_id, &dest.player_id, &t)
        .await?;
    let json = challenge_json(&pairing, &row, Some(&caller.account.player_id)).await?;
    Ok(Json(json).into_response())
}

/// `GET /api/challenge`: the caller's waiting challenges, in and out; it
/// renews the caller's own (they are there).
pub(super) async fn mine(State(pairing): State<Pairing>, caller: Caller) -> LiResult<Json<Value>> {
    caller.require(&[Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay])?;
    let me = &caller.account.player_id;
    // Asking keeps one's own challenges alive, as an open event stream
    // does: the web app asks every few seconds instead of holding a stream.
    pairing.touch_challenges(me).await;
    let mut incoming = Vec::new();
    let mut outgoing = Vec::new();
    for c in pairing.waiting_challenges(me).await? {
        // One challenge that cannot be shown must not hide the others.
        let json = match challenge_json(&pairing, &c, Some(me)).await {
            Ok(json) => json,
            Err(e) => {
                tracing::warn!(challenge = %c.id, "challenge left out of the list: {e:?}");
                continue;
            }
        };
        if &c.challenger == me {
            outgoing.push(json);
        } else {
            incoming.push(json);
        }
    }
    Ok(Json(json!({"in": incoming, "out": outgoing})))
}

fn not_found() -> LiError {
    LiError::not_found("No such challenge")
}

/// `GET /api/challenge/{id}/show`: one of the caller's challenges, made or
/// received, whatever its status (how the web app learns why its
/// challenge stopped waiting: accepted, or declined and why).
pub(super) async fn show(
    State(pairing): State<Pairing>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay])?;
    let me = &caller.account.player_id;
    let c = pairing.challenge_of(&id, me).await?;
    Ok(Json(challenge_json(&pairing, &c, Some(me)).await?))
}

/// `POST /api/challenge/{id}/accept`.
pub(super) async fn accept(
    State(pairing): State<Pairing>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    pairing
        .accept_challenge(&id, &caller.account.player_id)
        .await?;
    Ok(Json(OK))
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct DeclineBody {
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline` (`reason`, a lichess key).
pub(super) async fn decline(
    State(pairing): State<Pairing>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    let b: DeclineBody = decode(&headers, body, "decline")?;
    pairing
        .decline_challenge(&id, &caller.account.player_id, b.reason.as_deref())
        .await?;
    Ok(Json(OK))
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws it; an
/// accepted challenge whose game has not begun is aborted.
pub(super) async fn cancel(
    State(pairing): State<Pairing>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    pairing
        .cancel_challenge(&id, &caller.account.player_id)
        .await?;
    Ok(Json(OK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_and_reasons_are_lichess_s() {
        let control = |s, i| TimeControl::from_secs(s, i).unwrap();
        assert_eq!(speed_name(control(30, 0)), "bullet");
        assert_eq!(speed_name(control(60, 0)), "bullet");
        assert_eq!(speed_name(control(120, 1)), "bullet");
        assert_eq!(speed_name(control(300, 3)), "blitz");
        assert_eq!(speed_name(control(600, 2)), "rapid");
        assert_eq!(speed_name(control(1500, 2)), "classical");
        assert_eq!(speed_name(control(10_800, 180)), "classical");
        // Our speed and lichess's agree on every clock played here.
        for base in (30..=10_800).filter(|b| TimeControl::valid_base_secs(*b)) {
            for inc in [0, 1, 2, 3, 5, 10, 30, 60, 180] {
                let c = control(base, inc);
                assert_eq!(speed_name(c), c.speed().as_str(), "{c}");
            }
        }
        let keys: Vec<&str> = DECLINE_REASONS.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, plyyard_pairing::challenges::DECLINE_KEYS);
    }

    #[test]
    fn refusals_keep_lichess_statuses() {
        let status = |e| LiError::from(e).status;
        assert_eq!(
            status(ChallengeError::Refused("x".into())),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(status(ChallengeError::NotFound), StatusCode::NOT_FOUND);
        assert_eq!(
            status(ChallengeError::TooManyWaiting),
            StatusCode::TOO_MANY_REQUESTS
        );
        assert_eq!(
            status(ChallengeError::NoFreeCode),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
