//! Challenges, as lichess serves them: `POST /api/challenge/{username}`,
//! `GET /api/challenge`, `GET /api/challenge/{id}/show`,
//! `POST /api/challenge/{id}/accept|decline|cancel`,
//! and their events on both players' event streams. An accepted
//! challenge's game has the challenge's id; it is an ordinary table game
//! (a private table with both seats taken).
//!
//! A challenge waits while its challenger is there (an open event stream
//! or page renews it, see [`touch`]) and goes `offline`
//! [`crate::Tuning::challenge_ttl`] (20 s) after that ([`expire`], run by
//! the server every few seconds).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, response::IntoResponse, response::Response};
use plyyard_wire::lichess::{OK, Scope};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::game_json;
use super::users::{named, title, user_id};
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp};
use crate::state::{AppState, Shared};
use plyyard_game::{RuleSet, Speed, TimeControl, Variant};
use plyyard_live::Cmd;
use plyyard_pairing::tables::new_code;
use plyyard_store::replay::new_game_id;
use plyyard_store::{
    Account, ChallengeRow, ChallengeStatus, PlayerId, Store, TableRow, TableStatus, now_ms,
};

/// Challenges one account may have waiting at once.
pub const MAX_WAITING: u32 = 20;

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

/// What a challenge asks for, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// The clock.
    pub control: TimeControl,
    /// Standard or Chess960.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: &'static str,
}

/// Checks a challenge's terms against what Ply Yard plays.
///
/// # Errors
/// 400 with what is wrong.
pub fn terms(
    limit: Option<u32>,
    increment: Option<u32>,
    days: Option<u32>,
    color: Option<&str>,
    variant: Option<&str>,
    rated: Option<bool>,
) -> LiResult<Terms> {
    if days.is_some() {
        return Err(LiError::bad_request(
            "Correspondence games are not played here: send clock.limit and clock.increment",
        ));
    }
    let (Some(limit), Some(increment)) = (limit, increment) else {
        return Err(LiError::bad_request(
            "A clock is required: clock.limit and clock.increment, in seconds",
        ));
    };
    let minutes = limit / 60;
    let control = TimeControl::table(minutes, increment)
        .ok()
        .filter(|_| limit % 60 == 0)
        .ok_or_else(|| {
            LiError::bad_request(format!(
                "Ply Yard plays {}–{} minutes (clock.limit {}–{} s, in whole minutes) with a {}–{} s increment",
                TimeControl::MINUTES.start(),
                TimeControl::MINUTES.end(),
                TimeControl::MINUTES.start() * 60,
                TimeControl::MINUTES.end() * 60,
                TimeControl::INCREMENT_SECS.start(),
                TimeControl::INCREMENT_SECS.end(),
            ))
        })?;
    let variant = match variant.unwrap_or("standard") {
        "standard" => Variant::Standard,
        "chess960" => Variant::Chess960,
        other => {
            return Err(LiError::bad_request(format!(
                "The variant {:?} is not played here: standard or chess960",
                other.chars().take(30).collect::<String>()
            )));
        }
    };
    let color = match color.unwrap_or("random") {
        "random" => "random",
        "white" => "white",
        "black" => "black",
        _ => return Err(LiError::bad_request("color is random, white or black")),
    };
    Ok(Terms {
        control,
        variant,
        rated: rated.unwrap_or(false),
        color,
    })
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

async fn player_json(state: &Shared, account: &Account, speed: Speed) -> LiResult<Value> {
    let r = state.store.rating(&account.player_id, speed).await?;
    let shown = r.json(now_ms());
    let id = user_id(account);
    let mut v = json!({
        "id": id,
        "name": account.username,
        "rating": shown.rating,
        "online": state.social.presence.is_online(&id).await,
    });
    if shown.provisional {
        v["provisional"] = json!(true);
    }
    if let Some(t) = title(account) {
        v["title"] = json!(t);
    }
    Ok(v)
}

async fn account_of(store: &Store, player_id: &str) -> LiResult<Account> {
    store
        .account_row(player_id)
        .await?
        .map(|a| a.account)
        .ok_or_else(|| LiError::not_found("No such user"))
}

/// A challenge as lichess shows it (`ChallengeJson`), seen from `viewer`
/// (its `direction`), the decline reason's sentence included.
pub async fn challenge_json(
    state: &Shared,
    c: &ChallengeRow,
    viewer: Option<&str>,
) -> LiResult<Value> {
    let control = TimeControl::table(c.minutes, c.increment_s)
        .map_err(|e| LiError::from(crate::error::ApiError::internal(e)))?;
    let challenger = account_of(&state.store, &c.challenger).await?;
    let dest = account_of(&state.store, &c.dest).await?;
    let speed = control.speed();
    let limit = c.minutes * 60;
    let mut v = json!({
        "id": c.id,
        "url": format!("/game/{}", c.id),
        "status": c.status.as_str(),
        "challenger": player_json(state, &challenger, speed).await?,
        "destUser": player_json(state, &dest, speed).await?,
        "variant": variant_json(c.variant),
        "rated": c.rated,
        "speed": speed_name(control),
        "timeControl": {
            "type": "clock",
            "limit": limit,
            "increment": c.increment_s,
            "show": format!("{}+{}", c.minutes, c.increment_s),
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

/// Sends an event about `c` (`challenge`, `challengeCanceled`,
/// `challengeDeclined`) to both players' event streams.
pub async fn announce(state: &Shared, kind: &str, c: &ChallengeRow) {
    for player in [&c.challenger, &c.dest] {
        match challenge_json(state, c, Some(player)).await {
            Ok(json) => {
                let line = json!({"type": kind, "challenge": json}).to_string();
                state.social.events.send(player, &line);
            }
            Err(e) => {
                tracing::warn!(challenge = %c.id, "cannot write a challenge event: {}", e.message)
            }
        }
    }
}

const CHALLENGE_SCOPES: [Scope; 3] = [Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay];

/// `POST /api/challenge/{username}`.
pub(super) async fn create(
    State(state): State<AppState>,
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
    let t = terms(
        b.limit,
        b.increment,
        b.days,
        b.color.as_deref(),
        b.variant.as_deref(),
        b.rated,
    )?;
    let dest = named(&state.store, &username).await?;
    if dest.player_id == caller.account.player_id {
        return Err(LiError::bad_request("You cannot challenge yourself"));
    }
    state
        .limits
        .check_challenges(ip, Some(&AccountKey(caller.account.player_id.clone())))
        .await
        .map_err(crate::error::ApiError::from)?;
    let final_color = match t.color {
        "random" if rand::rng().random_bool(0.5) => "white",
        "random" => "black",
        c => c,
    };
    let now = now_ms();
    let row = ChallengeRow {
        id: new_game_id(),
        challenger: caller.account.player_id.clone(),
        dest: dest.player_id.clone(),
        status: ChallengeStatus::Created,
        decline_reason: None,
        variant: t.variant,
        minutes: t.control.minutes(),
        increment_s: t.control.increment_secs(),
        rated: t.rated,
        color: t.color.to_owned(),
        final_color: final_color.to_owned(),
        created_at: now,
        seen_at: now,
        updated_at: now,
    };
    if !state.store.create_challenge(&row, MAX_WAITING).await? {
        return Err(LiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("You have {MAX_WAITING} challenges waiting already: cancel one first"),
        ));
    }
    tracing::info!(challenge = %row.id, "challenge created");
    announce(&state, "challenge", &row).await;
    let json = challenge_json(&state, &row, Some(&caller.account.player_id)).await?;
    Ok(Json(json).into_response())
}

/// `GET /api/challenge`: the caller's waiting challenges, in and out; it
/// renews the caller's own (they are there).
pub(super) async fn mine(State(state): State<AppState>, caller: Caller) -> LiResult<Json<Value>> {
    caller.require(&[Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay])?;
    let me = &caller.account.player_id;
    // Asking keeps one's own challenges alive, as an open event stream
    // does: the web app asks every few seconds instead of holding a stream.
    touch(&state, me).await;
    let mut incoming = Vec::new();
    let mut outgoing = Vec::new();
    for c in state.store.waiting_challenges(me).await? {
        let json = challenge_json(&state, &c, Some(me)).await?;
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
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay])?;
    if id.len() != 8 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(not_found());
    }
    let me = &caller.account.player_id;
    let c = state.store.challenge(&id).await?.ok_or_else(not_found)?;
    if &c.challenger != me && &c.dest != me {
        return Err(not_found());
    }
    Ok(Json(challenge_json(&state, &c, Some(me)).await?))
}

/// The waiting challenge `id` addressed to (`dest`) or made by the caller.
async fn waiting(
    store: &Store,
    id: &str,
    caller: &Caller,
    as_dest: bool,
) -> LiResult<ChallengeRow> {
    if id.len() != 8 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(not_found());
    }
    let c = store.challenge(id).await?.ok_or_else(not_found)?;
    let who = if as_dest { &c.dest } else { &c.challenger };
    if who != &caller.account.player_id {
        return Err(not_found());
    }
    Ok(c)
}

/// `POST /api/challenge/{id}/accept`.
pub(super) async fn accept(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    let c = waiting(&state.store, &id, &caller, true).await?;
    if c.status != ChallengeStatus::Created {
        return Err(LiError::bad_request(format!(
            "This challenge is {} and can no longer be accepted",
            c.status.as_str()
        )));
    }
    let (white, black) = if c.final_color == "white" {
        (c.challenger.clone(), c.dest.clone())
    } else {
        (c.dest.clone(), c.challenger.clone())
    };
    let now = now_ms();
    for _ in 0..5 {
        let table = TableRow {
            code: new_code(),
            host: c.challenger.clone(),
            guest: Some(c.dest.clone()),
            variant: c.variant,
            minutes: c.minutes,
            increment_s: c.increment_s,
            rules: RuleSet::PlyYard,
            rated: c.rated,
            public: false,
            status: TableStatus::Playing,
            game_id: Some(c.id.clone()),
            created_at: now,
            expires_at: now,
        };
        match plyyard_live::start_challenge_game(
            &state.live,
            &c.id,
            &table,
            white.clone(),
            black.clone(),
        )
        .await
        {
            Ok(Some(_)) => {
                tracing::info!(challenge = %c.id, "challenge accepted");
                return Ok(Json(OK));
            }
            Ok(None) => {
                return Err(LiError::bad_request(
                    "This challenge can no longer be accepted",
                ));
            }
            Err(e) if e.code == plyyard_wire::ErrorCode::Conflict => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(LiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "No table code was free; try again",
    ))
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct DeclineBody {
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline` (`reason`, a lichess key).
pub(super) async fn decline(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    let b: DeclineBody = decode(&headers, body, "decline")?;
    let key = b.reason.unwrap_or_else(|| "generic".to_owned());
    let Some((key, _)) = DECLINE_REASONS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(&key))
    else {
        let keys: Vec<&str> = DECLINE_REASONS.iter().map(|(k, _)| *k).collect();
        return Err(LiError::bad_request(format!(
            "reason is one of {}",
            keys.join(", ")
        )));
    };
    waiting(&state.store, &id, &caller, true).await?;
    let settled = state
        .store
        .settle_challenge(&id, ChallengeStatus::Declined, Some(key), now_ms())
        .await?
        .ok_or_else(not_found)?;
    announce(&state, "challengeDeclined", &settled).await;
    Ok(Json(OK))
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws it; an
/// accepted challenge whose game has not begun is aborted.
pub(super) async fn cancel(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&CHALLENGE_SCOPES)?;
    let c = waiting(&state.store, &id, &caller, false).await?;
    if c.status == ChallengeStatus::Accepted {
        let player = PlayerId(caller.account.player_id.clone());
        plyyard_live::request(&state.live, &c.id, |reply| Cmd::Abort {
            player: player.clone(),
            reply,
        })
        .await
        .map_err(LiError::from)?
        .map_err(LiError::from)?;
        return Ok(Json(OK));
    }
    let settled = state
        .store
        .settle_challenge(&id, ChallengeStatus::Canceled, None, now_ms())
        .await?
        .ok_or_else(not_found)?;
    announce(&state, "challengeCanceled", &settled).await;
    Ok(Json(OK))
}

/// Keeps `challenger`'s waiting challenges alive (they are there).
pub async fn touch(state: &Shared, challenger: &str) {
    if let Err(e) = state.store.touch_challenges(challenger, now_ms()).await {
        tracing::warn!("cannot renew challenges: {e}");
    }
}

/// Marks offline the challenges whose challenger is gone, and tells both
/// players (`challengeCanceled`, status `offline`).
pub async fn expire(state: &Arc<Shared>) {
    let now = now_ms();
    let ttl = i64::try_from(state.tuning.challenge_ttl.as_millis()).unwrap_or(i64::MAX);
    match state
        .store
        .expire_challenges(now.saturating_sub(ttl), now)
        .await
    {
        Ok(expired) => {
            for c in expired {
                announce(state, "challengeCanceled", &c).await;
            }
        }
        Err(e) => tracing::warn!("cannot expire challenges: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_what_tables_play() {
        let t = terms(Some(300), Some(3), None, None, None, None).unwrap();
        assert_eq!(t.control, TimeControl::table(5, 3).unwrap());
        assert_eq!(
            (t.variant, t.rated, t.color),
            (Variant::Standard, false, "random")
        );
        assert_eq!(speed_name(t.control), "blitz");
        assert_eq!(speed_name(TimeControl::table(10, 2).unwrap()), "rapid");
        assert_eq!(speed_name(TimeControl::table(25, 2).unwrap()), "classical");
        let t = terms(
            Some(180),
            Some(2),
            None,
            Some("black"),
            Some("chess960"),
            Some(true),
        )
        .unwrap();
        assert_eq!(
            (t.variant, t.rated, t.color),
            (Variant::Chess960, true, "black")
        );
        for bad in [
            terms(Some(60), Some(0), None, None, None, None),
            terms(Some(330), Some(3), None, None, None, None),
            terms(Some(300), Some(3), Some(2), None, None, None),
            terms(None, None, None, None, None, None),
            terms(Some(300), Some(3), None, Some("green"), None, None),
            terms(Some(300), Some(3), None, None, Some("atomic"), None),
        ] {
            assert_eq!(bad.unwrap_err().status, StatusCode::BAD_REQUEST);
        }
    }
}
