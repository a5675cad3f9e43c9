//! Accounts and users as lichess shows them: `GET /api/account` (also
//! our own `username` and `created_at`), `GET /api/user/{username}`, its
//! `rating-history`, `GET /api/users/status`, `GET /api/player/autocomplete`,
//! `GET /api/bot/online`, and the irreversible `POST /api/bot/account/upgrade`.

use std::collections::HashMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use plyyard_wire::lichess::{OK, Scope};
use serde::{Deserialize, Serialize};

use super::caller::Caller;
use super::error::{LiError, LiResult};
use plyyard_accounts::prefs::Prefs;
use plyyard_accounts::rules::check_username;
use plyyard_game::Speed;
use plyyard_live::rfc3339;
use plyyard_rating::RatingJson;
use plyyard_social::Social;
use plyyard_store::{Account, BotUpgrade, Store, now_ms};

/// The display name of a lichess perf key (`blitz` → `Blitz`).
pub fn perf_name(key: &str) -> &'static str {
    match key {
        "ultraBullet" => "UltraBullet",
        "bullet" => "Bullet",
        "blitz" => "Blitz",
        "rapid" => "Rapid",
        "classical" => "Classical",
        "chess960" => "Chess960",
        _ => "Correspondence",
    }
}

/// Users one `GET /api/users/status` may ask about (as lichess).
pub const MAX_STATUS_IDS: usize = 100;
/// Bots one `GET /api/bot/online` lists at most.
pub const MAX_ONLINE_BOTS: usize = 300;

/// A rating as lichess shows it in `perfs`.
#[derive(Debug, Serialize)]
pub struct PerfJson {
    games: u32,
    rating: i64,
    rd: i64,
    prog: i64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    prov: bool,
}

impl From<RatingJson> for PerfJson {
    fn from(r: RatingJson) -> PerfJson {
        PerfJson {
            games: r.games,
            rating: r.rating,
            rd: r.deviation,
            prog: 0,
            prov: r.provisional,
        }
    }
}

/// A user as lichess shows one (`User` / `UserExtended`), with our own
/// `username` and `created_at` fields kept for the web app.
#[derive(Debug, Serialize)]
pub struct UserJson {
    id: String,
    username: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
    perfs: HashMap<&'static str, PerfJson>,
    #[serde(rename = "createdAt")]
    created_at_ms: i64,
    created_at: String,
    online: bool,
    url: String,
}

/// The lichess id of an account: its name in lower case.
pub fn user_id(account: &Account) -> String {
    account.username.to_lowercase()
}

/// `"BOT"` for bot accounts.
pub fn title(account: &Account) -> Option<&'static str> {
    account.bot.then_some("BOT")
}

/// A puzzle rating as lichess shows it in `perfs.puzzle`.
fn puzzle_perf(p: &plyyard_store::PuzzleRating) -> PerfJson {
    PerfJson {
        games: u32::try_from(p.games).unwrap_or(u32::MAX),
        rating: p.glicko.rating.round() as i64,
        rd: p.glicko.deviation.round() as i64,
        prog: 0,
        prov: p.glicko.deviation >= 110.0,
    }
}

pub(super) async fn user_json(
    store: &Store,
    social: &Social,
    account: &Account,
) -> LiResult<UserJson> {
    let ratings = store.ratings(&account.player_id).await?;
    let now = now_ms();
    let mut perfs: HashMap<&'static str, PerfJson> = Speed::ALL
        .into_iter()
        .map(|speed| {
            let r = ratings
                .iter()
                .find(|(s, _)| *s == speed)
                .map(|(_, r)| *r)
                .unwrap_or_default();
            (speed.as_str(), PerfJson::from(r.json(now)))
        })
        .collect();
    if let Some(p) = store.puzzle_rating(&account.player_id).await? {
        perfs.insert("puzzle", puzzle_perf(&p));
    }
    let id = user_id(account);
    Ok(UserJson {
        url: format!("/@/{}", account.username),
        online: social.presence.is_online(&id).await,
        id,
        username: account.username.clone(),
        title: title(account),
        perfs,
        created_at_ms: account.created_at,
        created_at: rfc3339(account.created_at),
    })
}

/// `GET /api/account`: the caller's account (any valid token).
pub(super) async fn account(
    State(store): State<Store>,
    State(social): State<Social>,
    caller: Caller,
) -> LiResult<Json<UserJson>> {
    Ok(Json(user_json(&store, &social, &caller.account).await?))
}

pub(super) async fn named(store: &Store, name: &str) -> LiResult<Account> {
    let found = if check_username(name).is_ok() {
        store.account_named(name).await?
    } else {
        None
    };
    found.ok_or_else(|| LiError::not_found("No such user"))
}

/// `GET /api/user/{username}`: a public user (no token needed).
pub(super) async fn user(
    State(store): State<Store>,
    State(social): State<Social>,
    Path(name): Path<String>,
) -> LiResult<Json<UserJson>> {
    let account = named(&store, &name).await?;
    Ok(Json(user_json(&store, &social, &account).await?))
}

/// `GET /api/account/preferences` (scope `preference:read`): lichess's
/// `{"prefs":{…},"language"}` ([`Prefs::lichess`]).
pub(super) async fn preferences(
    State(store): State<Store>,
    caller: Caller,
) -> LiResult<Json<serde_json::Value>> {
    caller.require(&[Scope::PreferenceRead])?;
    let stored = store.prefs(&caller.account.player_id).await?;
    let prefs = Prefs::of_account(stored.as_deref());
    Ok(Json(
        serde_json::json!({ "prefs": prefs.lichess(), "language": "en-GB" }),
    ))
}

/// `GET /api/user/{username}/rating-history`: for each speed, the rating
/// at the end of each day with a rated game, as lichess's
/// `[{"name": "Blitz", "points": [[year, month from 0, day, rating]]}]`.
pub(super) async fn rating_history(
    State(store): State<Store>,
    State(limits): State<std::sync::Arc<crate::security::Limits>>,
    reader: super::caller::Reader,
    Path(name): Path<String>,
) -> LiResult<Json<serde_json::Value>> {
    reader.count(&limits, 1).await?;
    let account = named(&store, &name).await?;
    let points = store.rating_points(&account.player_id).await?;
    let history: Vec<serde_json::Value> = plyyard_rating::history::daily(&points)
        .into_iter()
        .map(|(speed, days)| {
            let points: Vec<[i64; 4]> = days
                .into_iter()
                .filter_map(|(day, rating)| {
                    let date = time::OffsetDateTime::from_unix_timestamp(day * 86_400).ok()?;
                    let month = i64::from(u8::from(date.month())) - 1;
                    Some([i64::from(date.year()), month, i64::from(date.day()), rating])
                })
                .collect();
            serde_json::json!({
                "name": perf_name(speed.as_str()),
                "points": points,
            })
        })
        .collect();
    Ok(Json(serde_json::Value::Array(history)))
}

/// Names `GET /api/player/autocomplete` answers at most.
pub const AUTOCOMPLETE_MAX: u32 = 12;

#[derive(Deserialize)]
pub(super) struct AutocompleteQuery {
    term: Option<String>,
    object: Option<String>,
}

/// `GET /api/player/autocomplete?term=`: the names of live accounts
/// beginning with `term` (3 characters at least, as lichess; fewer, or a
/// term that no name can begin with, find nobody), as an array of names,
/// or with `object=true` as `{"result": [{"id", "name", "online"}]}`.
pub(super) async fn autocomplete(
    State(store): State<Store>,
    State(social): State<Social>,
    State(limits): State<std::sync::Arc<crate::security::Limits>>,
    reader: super::caller::Reader,
    Query(q): Query<AutocompleteQuery>,
) -> LiResult<Response> {
    reader.count(&limits, 1).await?;
    let term = q.term.unwrap_or_default();
    let term = term.trim();
    let names = if term.chars().count() >= 3
        && term.len() <= plyyard_accounts::rules::USERNAME_MAX
        && term
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        store.names_beginning(term, AUTOCOMPLETE_MAX).await?
    } else {
        Vec::new()
    };
    let object = q.object.is_some_and(|o| o.eq_ignore_ascii_case("true"));
    if !object {
        let names: Vec<&str> = names.iter().map(|(_, n)| n.as_str()).collect();
        return Ok(Json(names).into_response());
    }
    let mut result = Vec::with_capacity(names.len());
    for (_, name) in &names {
        let id = name.to_lowercase();
        let online = social.presence.is_online(&id).await;
        result.push(serde_json::json!({"id": id, "name": name, "online": online}));
    }
    Ok(Json(serde_json::json!({ "result": result })).into_response())
}

#[derive(Deserialize)]
pub(super) struct StatusQuery {
    ids: Option<String>,
}

#[derive(Serialize)]
pub(super) struct StatusJson {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'static str>,
    online: bool,
}

/// `GET /api/users/status?ids=a,b`: who of these is online (an open event
/// stream or socket); unknown names are left out, as lichess does.
pub(super) async fn status(
    State(store): State<Store>,
    State(social): State<Social>,
    State(limits): State<std::sync::Arc<crate::security::Limits>>,
    reader: super::caller::Reader,
    q: Result<Query<StatusQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Json<Vec<StatusJson>>> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    reader.count(&limits, 1).await?;
    let ids = q.ids.unwrap_or_default();
    let names: Vec<&str> = ids
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Err(LiError::bad_request("`ids` names at least one user"));
    }
    if names.len() > MAX_STATUS_IDS {
        return Err(LiError::bad_request(format!(
            "`ids` names at most {MAX_STATUS_IDS} users"
        )));
    }
    let valid: Vec<&str> = names
        .into_iter()
        .filter(|n| check_username(n).is_ok())
        .collect();
    let found = store.accounts_named(&valid).await?;
    let mut out = Vec::with_capacity(valid.len());
    for name in valid {
        if let Some(a) = found.get(&name.to_lowercase()) {
            let id = user_id(a);
            out.push(StatusJson {
                online: social.presence.is_online(&id).await,
                id,
                name: a.username.clone(),
                title: title(a),
            });
        }
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
pub(super) struct OnlineQuery {
    nb: Option<usize>,
}

/// `GET /api/bot/online?nb=`: the bots online now, as NDJSON users.
pub(super) async fn online_bots(
    State(store): State<Store>,
    State(social): State<Social>,
    State(limits): State<std::sync::Arc<crate::security::Limits>>,
    reader: super::caller::Reader,
    q: Result<Query<OnlineQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    reader.count(&limits, 1).await?;
    let nb = q.nb.unwrap_or(MAX_ONLINE_BOTS).clamp(1, MAX_ONLINE_BOTS);
    // One look-up for every online account, then one rating look-up per
    // bot listed (at most `nb`): the work is bounded whoever asks.
    let online = social.presence.online_ids().await;
    let names: Vec<&str> = online.iter().map(String::as_str).collect();
    let found = store.accounts_named(&names).await?;
    let mut lines = String::new();
    let bots = online
        .iter()
        .filter_map(|id| found.get(id.as_str()))
        .filter(|a| a.bot)
        .take(nb);
    for a in bots {
        let user = user_json(&store, &social, a).await?;
        lines.push_str(&serde_json::to_string(&user).unwrap_or_default());
        lines.push('\n');
    }
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/x-ndjson")],
        lines,
    )
        .into_response())
}

/// `POST /api/bot/account/upgrade`: makes an account with no games a bot,
/// for good (token with `bot:play`).
pub(super) async fn upgrade(
    State(store): State<Store>,
    caller: Caller,
) -> LiResult<Json<plyyard_wire::lichess::Ok>> {
    caller.require(&[Scope::BotPlay])?;
    match store.upgrade_to_bot(&caller.account.player_id).await? {
        BotUpgrade::Done => {
            tracing::info!(username = %caller.account.username, "account upgraded to a bot");
            Ok(Json(OK))
        }
        BotUpgrade::AlreadyBot => Err(LiError::bad_request(
            "This account is already a bot account",
        )),
        BotUpgrade::HasGames => Err(LiError::bad_request(
            "This account has played games: only an account without games can become a bot",
        )),
        BotUpgrade::NoAccount => Err(LiError::new(StatusCode::UNAUTHORIZED, "No such token")),
    }
}
