//! Arena tournaments through lichess's Arena API (`docs/api.md`, "Arena
//! tournaments"): lichess's paths, field names and units over
//! [`plyyard_tournaments::Tournaments`].
//!
//! Reads are public; changes (create, join, withdraw, terminate) need
//! `tournament:write` and count against the tournament limits of the
//! caller's address and account. Errors are `{"error":"…"}`: 400 for a
//! refused request (bad settings, joining twice, a condition failed), 403
//! for what only someone else may do, 404 for an unknown tournament.

use std::collections::HashMap;

use axum::Json;
use axum::extract::{FromRef, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, body::Bytes};
use plyyard_arena::{ArenaDraft, ConditionsDraft, Timestamp};
use plyyard_store::{Store, TournamentStatus, now_ms};
use plyyard_tournaments::{Arena, NewArena, PlayerStanding, TournamentError, Tournaments};
use plyyard_wire::lichess::{OK, Scope};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::body::decode;
use super::caller::{Api, Caller, MaybeCaller};
use super::error::{LiError, LiResult};
use super::game_stream::{NDJSON, line, ndjson_response};
use super::games::{ExportQuery, ExportWants, PGN, export_one};
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp, Limits};
use crate::state::AppState;

/// Players in one page of `standing` (lichess's).
const STANDING_PAGE: usize = 10;
/// Pages of `standing` one may ask for at most.
const MAX_STANDING_PAGE: usize = 1_000;
/// Arenas one `GET /api/team/{id}/arena` streams by default and at most.
const TEAM_ARENAS_MAX: u32 = 100;
/// `waitMinutes` when neither it nor `startDate` is given (lichess's).
const DEFAULT_WAIT_MINUTES: u64 = 5;

/// What the tournament handlers use of the state.
#[derive(Clone)]
pub(super) struct ArenaDoors {
    pub(super) tournaments: Tournaments,
    pub(super) store: Store,
    pub(super) limits: std::sync::Arc<Limits>,
}

impl ArenaDoors {
    /// The doors of `state`.
    pub(super) fn from_state(state: &AppState) -> ArenaDoors {
        ArenaDoors::from_ref(state)
    }
}

impl FromRef<AppState> for ArenaDoors {
    fn from_ref(state: &AppState) -> ArenaDoors {
        ArenaDoors {
            tournaments: state.tournaments.clone(),
            store: state.store.clone(),
            limits: std::sync::Arc::clone(&state.limits),
        }
    }
}

pub(super) fn li_error(e: TournamentError) -> LiError {
    match e {
        TournamentError::NotFound(_) => LiError::not_found("No such tournament"),
        TournamentError::Invalid(m) => LiError::bad_request(m),
        TournamentError::Forbidden(m) => LiError::new(StatusCode::FORBIDDEN, m),
        TournamentError::Store(s) => LiError::from(crate::error::ApiError::from(s)),
    }
}

pub(super) fn key(caller: &Caller) -> AccountKey {
    AccountKey(caller.account.player_id.clone())
}

fn now() -> Timestamp {
    Timestamp::from_millis(now_ms())
}

/// Lichess's status number: 10 created, 20 started, 30 finished.
fn status_code(s: TournamentStatus) -> u8 {
    match s {
        TournamentStatus::Created => 10,
        TournamentStatus::Started => 20,
        TournamentStatus::Finished => 30,
    }
}

fn seconds_until(at: Timestamp, now: Timestamp) -> u64 {
    at.since(now).as_secs()
}

/// The creators' names (lichess's user ids, lower case) of `arenas`.
async fn creators(store: &Store, arenas: &[Arena]) -> LiResult<HashMap<String, String>> {
    let mut names = HashMap::new();
    for a in arenas {
        if !names.contains_key(&a.row.created_by) {
            let name = store
                .account_row(&a.row.created_by)
                .await?
                .map_or_else(|| "ghost".to_owned(), |r| r.account.username.to_lowercase());
            names.insert(a.row.created_by.clone(), name);
        }
    }
    Ok(names)
}

fn variant_json(key: &str) -> Value {
    let (short, name) = match key {
        "chess960" => ("960", "Chess960"),
        _ => ("Std", "Standard"),
    };
    json!({"key": key, "short": short, "name": name})
}

fn perf_json(a: &Arena) -> Value {
    let key = a.speed().as_str();
    let mut name = key.to_owned();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    json!({"key": key, "name": name})
}

/// An Arena as lichess lists one (`ArenaTournament`): times in Unix ms.
fn summary_json(a: &Arena, created_by: &str, now: Timestamp) -> Value {
    let clock = a.settings.clock();
    let mut v = json!({
        "id": a.id(),
        "createdBy": created_by,
        "system": "arena",
        "minutes": a.settings.minutes(),
        "clock": {"limit": clock.base_seconds(), "increment": clock.increment_seconds()},
        "rated": a.settings.rated(),
        "fullName": a.full_name(),
        "nbPlayers": a.row.nb_players,
        "variant": variant_json(a.settings.variant()),
        "startsAt": a.row.starts_at,
        "finishesAt": a.row.finishes_at,
        "status": status_code(a.status()),
        "perf": perf_json(a),
        "berserkable": a.settings.berserkable(),
    });
    if a.status() == TournamentStatus::Created {
        v["secondsToStart"] = json!(seconds_until(a.starts_at(), now));
    }
    if let Some(team) = a.settings.conditions().team() {
        v["teamMember"] = json!(team);
    }
    if a.settings.conditions().has_password() {
        v["private"] = json!(true);
    }
    v
}

/// A player in `standing` and `podium` (lichess's `ArenaPlayerPerformance`
/// fields that apply).
fn player_json(s: &PlayerStanding) -> Value {
    let mut v = json!({
        "name": s.username,
        "rank": s.rank,
        "rating": s.rating,
        "score": s.score,
        "sheet": s.sheet,
    });
    if s.withdrawn {
        v["withdraw"] = json!(true);
    }
    v
}

/// The first three of a finished Arena's standing who bear no engine mark
/// (moderation: a marked player leaves the podium, keeping their line in
/// the standing).
async fn podium(store: &Store, standings: &[PlayerStanding]) -> LiResult<Vec<Value>> {
    let mut podium = Vec::with_capacity(3);
    for s in standings {
        if podium.len() == 3 {
            break;
        }
        let marked = store
            .has_mark(&s.player_id, plyyard_moderation::Mark::Engine.as_str())
            .await?;
        if !marked {
            podium.push(player_json(s));
        }
    }
    Ok(podium)
}

/// An Arena as lichess shows one (`ArenaTournamentFull`), with page `page`
/// of its standing.
fn full_json(
    a: &Arena,
    created_by: &str,
    standings: &[PlayerStanding],
    page: usize,
    now: Timestamp,
) -> Value {
    let clock = a.settings.clock();
    let started = a.status() != TournamentStatus::Created;
    let finished = a.status() == TournamentStatus::Finished;
    let players: Vec<Value> = standings
        .iter()
        .skip((page - 1) * STANDING_PAGE)
        .take(STANDING_PAGE)
        .map(player_json)
        .collect();
    let mut v = json!({
        "id": a.id(),
        "createdBy": created_by,
        "system": "arena",
        "fullName": a.full_name(),
        "minutes": a.settings.minutes(),
        "clock": {"limit": clock.base_seconds(), "increment": clock.increment_seconds()},
        "rated": a.settings.rated(),
        "berserkable": a.settings.berserkable(),
        "hasChat": a.settings.has_chat(),
        "variant": a.settings.variant(),
        "perf": perf_json(a),
        "nbPlayers": a.row.nb_players,
        "startsAt": plyyard_live::rfc3339(a.row.starts_at),
        "finishesAt": plyyard_live::rfc3339(a.row.finishes_at),
        "status": status_code(a.status()),
        "isStarted": started && !finished,
        "isFinished": finished,
        "pairingsClosed": finished
            || plyyard_arena::schedule::pairing_closed(&a.settings, now),
        "description": a.row.description,
        "standing": {"page": page, "players": players},
        "stats": stats_json(standings),
    });
    if !started {
        v["secondsToStart"] = json!(seconds_until(a.starts_at(), now));
    } else if !finished {
        v["secondsToFinish"] = json!(seconds_until(a.finishes_at(), now));
    }
    if finished {
        v["podium"] = Value::Array(standings.iter().take(3).map(player_json).collect());
    }
    if let Some(team) = a.settings.conditions().team() {
        v["teamMember"] = json!(team);
    }
    if a.settings.conditions().has_password() {
        v["private"] = json!(true);
    }
    v
}

/// The finished games' counts (lichess's `stats`, computed from the
/// sheets: each game is seen from both sides).
fn stats_json(standings: &[PlayerStanding]) -> Value {
    use plyyard_arena::{Colour, Outcome};
    let (mut white_wins, mut black_wins, mut draws, mut berserks, mut sides) = (0, 0, 0, 0, 0);
    let mut plies: u64 = 0;
    for s in standings {
        for g in &s.games {
            sides += 1;
            plies += u64::from(g.plies);
            berserks += u32::from(g.berserk);
            match (g.outcome, g.colour) {
                (Outcome::Win, Colour::White) => white_wins += 1,
                (Outcome::Win, Colour::Black) => black_wins += 1,
                (Outcome::Draw, Colour::White) => draws += 1,
                _ => {}
            }
        }
    }
    let rated: Vec<u32> = standings.iter().map(|s| u32::from(s.rating)).collect();
    let average = if rated.is_empty() {
        0
    } else {
        rated.iter().sum::<u32>() / u32::try_from(rated.len()).unwrap_or(1)
    };
    json!({
        "games": sides / 2,
        "moves": plies / 2,
        "whiteWins": white_wins,
        "blackWins": black_wins,
        "draws": draws,
        "berserks": berserks,
        "averageRating": average,
    })
}

/// A number of the create form: JSON numbers or form text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Num {
    /// A number.
    N(f64),
    /// Text holding one.
    S(String),
}

impl Num {
    pub(super) fn value(&self, name: &str) -> LiResult<f64> {
        let v = match self {
            Num::N(n) => *n,
            Num::S(s) => s
                .trim()
                .parse()
                .map_err(|_| LiError::bad_request(format!("{name} is a number")))?,
        };
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(LiError::bad_request(format!("{name} is a number ≥ 0")))
        }
    }

    pub(super) fn whole(&self, name: &str) -> LiResult<u32> {
        let v = self.value(name)?;
        if v.fract() != 0.0 || v > f64::from(u32::MAX) {
            return Err(LiError::bad_request(format!("{name} is a whole number")));
        }
        // Exact: a whole number within u32's range.
        Ok(v as u32)
    }
}

/// A flag of the create form: JSON booleans or form text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Flag {
    /// A boolean.
    B(bool),
    /// `true` or `false`.
    S(String),
}

impl Flag {
    pub(super) fn value(&self, name: &str) -> LiResult<bool> {
        match self {
            Flag::B(b) => Ok(*b),
            Flag::S(s) if s == "true" => Ok(true),
            Flag::S(s) if s == "false" => Ok(false),
            Flag::S(_) => Err(LiError::bad_request(format!("{name} is true or false"))),
        }
    }
}

pub(super) fn flag_or(f: Option<&Flag>, name: &str, default: bool) -> LiResult<bool> {
    f.map_or(Ok(default), |f| f.value(name))
}

/// The body of `POST /api/tournament` (berserk's `create_arena`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct NewArenaForm {
    name: Option<String>,
    clock_time: Option<Num>,
    clock_increment: Option<Num>,
    minutes: Option<Num>,
    wait_minutes: Option<Num>,
    start_date: Option<Num>,
    variant: Option<String>,
    rated: Option<Flag>,
    position: Option<String>,
    berserkable: Option<Flag>,
    streakable: Option<Flag>,
    has_chat: Option<Flag>,
    description: Option<String>,
    password: Option<String>,
    team_battle_by_team: Option<String>,
    #[serde(rename = "conditions.teamMember.teamId")]
    team_id: Option<String>,
    #[serde(rename = "conditions.minRating.rating")]
    min_rating: Option<Num>,
    #[serde(rename = "conditions.maxRating.rating")]
    max_rating: Option<Num>,
    #[serde(rename = "conditions.nbRatedGame.nb")]
    nb_rated_game: Option<Num>,
}

fn rating_bound(n: Option<&Num>, name: &str) -> LiResult<Option<u16>> {
    n.map(|n| {
        let v = n.whole(name)?;
        u16::try_from(v).map_err(|_| LiError::bad_request(format!("{name} is out of range")))
    })
    .transpose()
}

impl NewArenaForm {
    /// The Arena asked for, at `now`.
    fn arena(self, now: Timestamp) -> LiResult<NewArena> {
        let required = |n: Option<&Num>, name: &str| {
            n.ok_or_else(|| LiError::bad_request(format!("{name} is required")))
                .and_then(|n| n.value(name))
        };
        if self.position.as_deref().is_some_and(|p| !p.is_empty()) {
            return Err(LiError::bad_request(
                "thematic Arenas (position) are not offered here",
            ));
        }
        if self.team_battle_by_team.is_some() {
            return Err(LiError::bad_request("team battles are not offered here"));
        }
        let has_chat = flag_or(self.has_chat.as_ref(), "hasChat", true)?;
        let clock_minutes = required(self.clock_time.as_ref(), "clockTime")?;
        let base = (clock_minutes * 60.0).round();
        if base > 86_400.0 {
            return Err(LiError::bad_request("clockTime is too long"));
        }
        let increment = self
            .clock_increment
            .as_ref()
            .ok_or_else(|| LiError::bad_request("clockIncrement is required"))?
            .whole("clockIncrement")?;
        let minutes = self
            .minutes
            .as_ref()
            .ok_or_else(|| LiError::bad_request("minutes is required"))?
            .whole("minutes")?;
        let starts_at = match (&self.start_date, &self.wait_minutes) {
            (Some(d), _) => {
                let v = d.value("startDate")?;
                if v.fract() != 0.0 || v > 1e15 {
                    return Err(LiError::bad_request("startDate is a time in Unix ms"));
                }
                // Exact: a whole number of ms below 10^15.
                let ms = v as i64;
                Timestamp::from_millis(ms)
            }
            (None, Some(w)) => now.after(std::time::Duration::from_secs(
                u64::from(w.whole("waitMinutes")?) * 60,
            )),
            (None, None) => now.after(std::time::Duration::from_secs(DEFAULT_WAIT_MINUTES * 60)),
        };
        // Exact: rounded, at most 86 400.
        let clock_base_seconds = base as u32;
        let draft = ArenaDraft {
            clock_base_seconds,
            clock_increment_seconds: increment,
            minutes,
            starts_at,
            berserkable: flag_or(self.berserkable.as_ref(), "berserkable", true)?,
            streakable: flag_or(self.streakable.as_ref(), "streakable", true)?,
            rated: flag_or(self.rated.as_ref(), "rated", true)?,
            variant: self.variant.unwrap_or_else(|| "standard".into()),
            conditions: ConditionsDraft {
                team: self.team_id.filter(|t| !t.is_empty()),
                password: self.password.filter(|p| !p.is_empty()),
                min_rating: rating_bound(self.min_rating.as_ref(), "minRating")?,
                max_rating: rating_bound(self.max_rating.as_ref(), "maxRating")?,
                min_rated_games: rating_bound(self.nb_rated_game.as_ref(), "nbRatedGame")?,
            },
            has_chat,
        };
        Ok(NewArena {
            name: self.name.filter(|n| !n.trim().is_empty()),
            description: self.description.unwrap_or_default(),
            draft,
        })
    }
}

/// `POST /api/tournament`: creates an Arena by the caller; the Arena as
/// `GET /api/tournament/{id}` shows it.
pub(super) async fn create(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: NewArenaForm = decode(&headers, body, "tournament")?;
    let at = now();
    let new = form.arena(at)?;
    d.limits
        .check_tournaments(ip, Some(&key(&caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    let arena = d
        .tournaments
        .create(&caller.account.player_id, &caller.account.username, new, at)
        .await
        .map_err(li_error)?;
    let by = caller.account.username.to_lowercase();
    Ok(Json(full_json(&arena, &by, &[], 1, at)))
}

/// `GET /api/tournament`: the created, started and finished Arenas.
pub(super) async fn list(State(d): State<ArenaDoors>) -> LiResult<Json<Value>> {
    let lists = d.tournaments.lists().await.map_err(li_error)?;
    let all: Vec<Arena> = [&lists.created, &lists.started, &lists.finished]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let names = creators(&d.store, &all).await?;
    let at = now();
    let json_of = |arenas: &[Arena]| -> Vec<Value> {
        arenas
            .iter()
            .map(|a| {
                summary_json(
                    a,
                    names.get(&a.row.created_by).map_or("", String::as_str),
                    at,
                )
            })
            .collect()
    };
    Ok(Json(json!({
        "created": json_of(&lists.created),
        "started": json_of(&lists.started),
        "finished": json_of(&lists.finished),
    })))
}

/// The query of `GET /api/tournament/{id}`.
#[derive(Debug, Deserialize)]
pub(super) struct ShowQuery {
    page: Option<String>,
}

/// `GET /api/tournament/{id}`: one Arena with a page of its standing
/// (`?page=`, 10 players a page).
pub(super) async fn show(
    State(d): State<ArenaDoors>,
    MaybeCaller(caller): MaybeCaller,
    Path(id): Path<String>,
    Query(q): Query<ShowQuery>,
) -> LiResult<Json<Value>> {
    let page = match q.page.as_deref() {
        None | Some("") => 1,
        Some(p) => p
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=MAX_STANDING_PAGE).contains(p))
            .ok_or_else(|| {
                LiError::bad_request(format!("page is a number from 1 to {MAX_STANDING_PAGE}"))
            })?,
    };
    let arena = d.tournaments.get(&id).await.map_err(li_error)?;
    let standings = d.tournaments.standings(&arena).await.map_err(li_error)?;
    let names = creators(&d.store, std::slice::from_ref(&arena)).await?;
    let by = names.get(&arena.row.created_by).map_or("", String::as_str);
    let mut v = full_json(&arena, by, &standings, page, now());
    if v.get("podium").is_some() {
        v["podium"] = Value::Array(podium(&d.store, &standings).await?);
    }
    if let Some(caller) = caller {
        let me = &caller.account.player_id;
        if let Some(mine) = standings.iter().find(|s| &s.player_id == me) {
            v["me"] = me_json(&d, &arena, mine).await?;
        }
    }
    Ok(Json(v))
}

/// Arena `id` as `GET /api/tournament/{id}` shows it to nobody in
/// particular: page 1 of its standing, no `me`.
pub(super) async fn page_one(d: &ArenaDoors, id: &str) -> LiResult<Value> {
    let arena = d.tournaments.get(id).await.map_err(li_error)?;
    let standings = d.tournaments.standings(&arena).await.map_err(li_error)?;
    let names = creators(&d.store, std::slice::from_ref(&arena)).await?;
    let by = names.get(&arena.row.created_by).map_or("", String::as_str);
    Ok(full_json(&arena, by, &standings, 1, now()))
}

/// lichess's `me` of a tournament for a player in it: their rank, whether
/// they are paused, and the game they are playing now.
async fn me_json(d: &ArenaDoors, arena: &Arena, mine: &PlayerStanding) -> LiResult<Value> {
    let mut v = json!({"rank": mine.rank, "username": mine.username});
    if mine.withdrawn {
        v["withdraw"] = json!(true);
    }
    let playing = d
        .tournaments
        .playing(arena.id(), &mine.player_id)
        .await
        .map_err(li_error)?;
    if let Some(game) = playing {
        v["gameId"] = json!(game);
    }
    Ok(v)
}

/// A line of an Arena's chat as the web app reads it.
fn chat_line_json(l: &plyyard_store::ChatLineRow) -> Value {
    json!({ "user": l.author_name, "text": l.text, "t": l.created_at })
}

/// `GET /api/tournament/{id}/chat` and `GET /api/swiss/{id}/chat` (ours):
/// the tournament's chat, oldest first, for a logged-in account it lets in.
pub(super) async fn chat(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Vec<Value>>> {
    caller.require(&[Scope::TournamentWrite])?;
    let lines = d
        .tournaments
        .chat(&id, &caller.account.player_id)
        .await
        .map_err(li_error)?;
    Ok(Json(lines.iter().map(chat_line_json).collect()))
}

/// The body of `POST /api/tournament/{id}/chat`.
#[derive(Debug, Deserialize)]
pub(super) struct SayForm {
    text: Option<String>,
}

/// `POST /api/tournament/{id}/chat` and `POST /api/swiss/{id}/chat`
/// (ours): the caller says a line.
pub(super) async fn say(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: SayForm = decode(&headers, body, "chat line")?;
    // An unknown tournament is told before a line counts against the limit.
    if d.tournaments.get(&id).await.is_err() {
        d.tournaments.swiss(&id).await.map_err(li_error)?;
    }
    d.limits
        .check_chat(ip, Some(&key(&caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    let line = d
        .tournaments
        .say(
            &id,
            &caller.account.player_id,
            &caller.account.username,
            form.text.as_deref().unwrap_or(""),
            now(),
        )
        .await
        .map_err(li_error)?;
    Ok(Json(chat_line_json(&line)))
}

/// `POST /api/{board,bot}/game/{id}/berserk`: the caller halves their
/// clock and gives up their increment before their first move, in an Arena
/// game of a berserkable Arena (lichess's); their sheet adds the berserk
/// point on a win of 14 plies or more.
pub(super) async fn berserk<const BOT: bool>(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require_api(if BOT { Api::Bot } else { Api::Board })?;
    let id = super::game_json::game_id(&id);
    d.tournaments
        .berserk(id, &caller.account.player_id)
        .await
        .map_err(|e| match e {
            TournamentError::NotFound(_) => LiError::not_found("No such Arena game"),
            other => li_error(other),
        })?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// `GET /api/tournament/of-game/{gameId}` (ours): the Arena a game was
/// paired in, `{"id","fullName","berserkable"}`; 404 for a game of no Arena.
pub(super) async fn of_game(
    State(d): State<ArenaDoors>,
    Path(game): Path<String>,
) -> LiResult<Json<Value>> {
    match d.tournaments.of_game(&game).await.map_err(li_error)? {
        Some((arena, _)) => Ok(Json(
            json!({"id": arena.id(), "fullName": arena.full_name(), "berserkable": arena.settings.berserkable()}),
        )),
        None => Err(li_error(TournamentError::NotFound(
            game.chars().take(16).collect(),
        ))),
    }
}

/// The password of a join, in the query (berserk) or the body.
#[derive(Debug, Default, Deserialize)]
pub(super) struct JoinForm {
    password: Option<String>,
}

/// `POST /api/tournament/{id}/join`: joins an Arena (or comes back after
/// a pause), with its `password` if it has one.
pub(super) async fn join(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
    Query(q): Query<JoinForm>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: JoinForm = decode(&headers, body, "join request")?;
    let password = q.password.or(form.password);
    d.tournaments.get(&id).await.map_err(li_error)?;
    d.limits
        .check_tournament_joins(ip, Some(&key(&caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    d.tournaments
        .join(&id, &caller.account.player_id, password.as_deref(), now())
        .await
        .map_err(li_error)?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// `POST /api/tournament/{id}/withdraw`: pauses (leaves) an Arena.
pub(super) async fn withdraw(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    d.tournaments.get(&id).await.map_err(li_error)?;
    d.limits
        .check_tournament_joins(ip, Some(&key(&caller)))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    d.tournaments
        .withdraw(&id, &caller.account.player_id, now())
        .await
        .map_err(li_error)?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// `POST /api/tournament/{id}/terminate`: the creator ends the Arena.
pub(super) async fn terminate(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    d.tournaments
        .terminate(&id, &caller.account.player_id, now())
        .await
        .map_err(li_error)?;
    Ok(Json(serde_json::to_value(OK).unwrap_or_default()))
}

/// The query of `GET /api/tournament/{id}/results`.
#[derive(Debug, Deserialize)]
pub(super) struct ResultsQuery {
    nb: Option<String>,
    sheet: Option<String>,
}

/// One line of the results (lichess's).
#[derive(Debug, Serialize)]
struct ResultLine<'a> {
    rank: u32,
    score: u32,
    rating: u16,
    username: &'a str,
    performance: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    sheet: Option<&'a plyyard_arena::SheetJson>,
}

/// `GET /api/tournament/{id}/results`: the standing as NDJSON, leader
/// first (`nb` players at most; `sheet=true` adds each sheet).
pub(super) async fn results(
    State(d): State<ArenaDoors>,
    Path(id): Path<String>,
    Query(q): Query<ResultsQuery>,
) -> LiResult<Response> {
    let nb = match q.nb.as_deref() {
        None | Some("") => usize::MAX,
        Some(n) => n
            .parse::<usize>()
            .map_err(|_| LiError::bad_request("nb is a number"))?,
    };
    let sheet = match q.sheet.as_deref() {
        None | Some("false" | "False" | "0") => false,
        Some("true" | "True" | "1") => true,
        Some(_) => return Err(LiError::bad_request("sheet is true or false")),
    };
    let arena = d.tournaments.get(&id).await.map_err(li_error)?;
    let standings = d.tournaments.standings(&arena).await.map_err(li_error)?;
    let mut body = Vec::new();
    for s in standings.iter().take(nb) {
        let entry = ResultLine {
            rank: s.rank,
            score: s.score,
            rating: s.rating,
            username: &s.username,
            performance: s.performance.unwrap_or(s.rating),
            sheet: sheet.then_some(&s.sheet),
        };
        body.extend_from_slice(&line(&entry));
    }
    let mut resp = Bytes::from(body).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

/// `GET /api/tournament/{id}/games`: the Arena's games, the oldest first,
/// as PGN or NDJSON (`Accept: application/x-ndjson`), as
/// `/api/games/user/{username}` writes them.
pub(super) async fn games(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    state.tournaments.get(&id).await.map_err(li_error)?;
    stream_games(state, id, headers, q).await
}

/// Streams the games of tournament `id` (Arena or Swiss, checked by the
/// caller), the oldest first, as lichess's game export does.
pub(super) async fn stream_games(
    state: AppState,
    id: String,
    headers: HeaderMap,
    q: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    let Query(q) = q.map_err(|e| LiError::bad_request(e.body_text()))?;
    let wants = ExportWants::of(&headers, NDJSON, &q)?;
    let pairings = state.tournaments.games(&id).await.map_err(li_error)?;
    let (tx, rx) = mpsc::channel::<Bytes>(4);
    let shared = std::sync::Arc::clone(&state.0);
    tokio::spawn(async move {
        for p in pairings {
            let row = match shared.store.load_game(&p.game_id).await {
                Ok(Some((row, _))) => row,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!("tournament games: {e}");
                    return;
                }
            };
            match export_one(&shared, &row, wants).await {
                Ok(bytes) => {
                    if tx.send(bytes).await.is_err() {
                        return;
                    }
                }
                Err(e) => tracing::warn!(game = %row.id, "tournament games: {}", e.message),
            }
        }
    });
    let mut resp = ndjson_response(rx);
    if !wants.json {
        resp.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PGN));
    }
    Ok(resp)
}

/// The query of `GET /api/team/{id}/arena`.
#[derive(Debug, Deserialize)]
pub(super) struct TeamArenasQuery {
    max: Option<u32>,
}

/// `GET /api/team/{id}/arena`: the club's Arenas, the latest start first,
/// as NDJSON.
pub(super) async fn team_arenas(
    State(d): State<ArenaDoors>,
    Path(club): Path<String>,
    Query(q): Query<TeamArenasQuery>,
) -> LiResult<Response> {
    if d.store.club(&club).await?.is_none() {
        return Err(LiError::not_found("No such team"));
    }
    let max = q.max.unwrap_or(TEAM_ARENAS_MAX).clamp(1, TEAM_ARENAS_MAX);
    let arenas = d
        .tournaments
        .club_arenas(&club, max)
        .await
        .map_err(li_error)?;
    let names = creators(&d.store, &arenas).await?;
    let at = now();
    let mut body = Vec::new();
    for a in &arenas {
        let by = names.get(&a.row.created_by).map_or("", String::as_str);
        body.extend_from_slice(&line(&summary_json(a, by, at)));
    }
    let mut resp = Bytes::from(body).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp::from_millis(1_800_000_000_000);

    fn from_json(v: Value) -> LiResult<NewArena> {
        serde_json::from_value::<NewArenaForm>(v)
            .unwrap()
            .arena(NOW)
    }

    #[test]
    fn berserks_json_and_forms_read_the_same() {
        let json = from_json(json!({
            "name": "Sunday", "clockTime": 3, "clockIncrement": 2, "minutes": 60,
            "waitMinutes": null, "startDate": 1_800_000_060_000_i64, "variant": null,
            "rated": false, "position": null, "berserkable": null, "streakable": false,
            "hasChat": true, "description": "x", "password": null, "teamBattleByTeam": null,
            "conditions.teamMember.teamId": "club", "conditions.minRating.rating": 1200,
            "conditions.maxRating.rating": null, "conditions.nbRatedGame.nb": null,
        }))
        .unwrap();
        let form = serde_urlencoded::from_str::<NewArenaForm>(
            "name=Sunday&clockTime=3&clockIncrement=2&minutes=60&startDate=1800000060000\
             &rated=false&streakable=false&hasChat=true&description=x\
             &conditions.teamMember.teamId=club&conditions.minRating.rating=1200",
        )
        .unwrap()
        .arena(NOW)
        .unwrap();
        assert_eq!(json, form);
        let d = &json.draft;
        assert_eq!(
            (d.clock_base_seconds, d.clock_increment_seconds, d.minutes),
            (180, 2, 60)
        );
        assert_eq!(d.starts_at, Timestamp::from_millis(1_800_000_060_000));
        assert_eq!((d.rated, d.berserkable, d.streakable), (false, true, false));
        assert_eq!(d.variant, "standard");
        assert_eq!(d.conditions.team.as_deref(), Some("club"));
        assert_eq!(d.conditions.min_rating, Some(1200));
    }

    #[test]
    fn waiting_minutes_and_refusals() {
        let waited =
            from_json(json!({"clockTime": 0.5, "clockIncrement": 0, "minutes": 20})).unwrap();
        assert_eq!(waited.draft.clock_base_seconds, 30);
        assert_eq!(
            waited.draft.starts_at,
            NOW.after(std::time::Duration::from_secs(300))
        );
        for bad in [
            json!({"clockIncrement": 0, "minutes": 20}),
            json!({"clockTime": 3, "clockIncrement": 0.5, "minutes": 20}),
            json!({"clockTime": 3, "clockIncrement": 2, "minutes": -5}),
            json!({"clockTime": 3, "clockIncrement": 2, "minutes": 20, "position": "fen"}),
            json!({"clockTime": 3, "clockIncrement": 2, "minutes": 20, "rated": "maybe"}),
            json!({"clockTime": 3, "clockIncrement": 2, "minutes": 20,
                   "conditions.minRating.rating": 70000}),
        ] {
            assert_eq!(
                from_json(bad.clone()).unwrap_err().status,
                StatusCode::BAD_REQUEST,
                "{bad}"
            );
        }
    }
}
