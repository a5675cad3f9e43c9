//! Swiss tournaments through lichess's Swiss API (`docs/api.md`, "Swiss
//! tournaments"): lichess's paths, field names and units over the Swiss
//! doors of [`plyyard_tournaments::Tournaments`], and the TRF16 export
//! `GET /swiss/{id}.trf`.
//!
//! Reads are public; changes need `tournament:write`; creating counts
//! against the tournament limits, joining and withdrawing against the join
//! limits, of the caller's address and account. Errors are
//! `{"error":"…"}`: 400 for a refused request, 403 for what only a club's
//! leader or member may do, 404 for an unknown Swiss or club.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use plyyard_game::GameResult;
use plyyard_store::{TournamentStatus, now_ms};
use plyyard_tournaments::swiss::{RoundInterval, SwissState};
use plyyard_tournaments::{NewSwiss, Swiss, SwissSettings};
use plyyard_wire::lichess::{OK, Scope};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::body::decode;
use super::caller::Caller;
use super::error::{LiError, LiResult};
use super::game_stream::{NDJSON, line};
use super::tournaments::{ArenaDoors, Flag, Num, flag_or, key, li_error};
use crate::body::JsonBody;
use crate::security::ClientIp;

/// Swiss tournaments `GET /api/team/{id}/swiss` streams by default and at most.
const TEAM_SWISS_MAX: u32 = 100;
/// The default wait before round one when `startsAt` is not given.
const DEFAULT_WAIT_MS: i64 = 10 * 60 * 1000;
/// The longest `forbiddenPairings` text, in characters.
const MAX_FORBIDDEN_CHARS: usize = 10_000;

fn ok() -> Json<Value> {
    Json(serde_json::to_value(OK).unwrap_or_default())
}

fn limited(r: crate::security::RetryAfter) -> LiError {
    LiError::from(crate::error::ApiError::from(r))
}

/// The fields of `POST /api/swiss/new/{teamId}` and `…/edit` (berserk's
/// `create_swiss`, as JSON or a form).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SwissForm {
    name: Option<String>,
    #[serde(rename = "clock.limit")]
    clock_limit: Option<Num>,
    #[serde(rename = "clock.increment")]
    clock_increment: Option<Num>,
    nb_rounds: Option<Num>,
    starts_at: Option<Num>,
    round_interval: Option<Num>,
    variant: Option<String>,
    description: Option<String>,
    rated: Option<Flag>,
    chat_for: Option<Num>,
    forbidden_pairings: Option<String>,
    position: Option<String>,
}

impl SwissForm {
    /// The Swiss asked for; a field not given takes its value from `base`
    /// (an edit), else its default (a creation).
    fn new_swiss(self, now: i64, base: Option<&Swiss>) -> LiResult<NewSwiss> {
        let whole = |n: Option<&Num>, name: &str| -> LiResult<Option<u32>> {
            n.map(|n| n.whole(name)).transpose()
        };
        let old = base.map(|b| &b.settings);
        if self.position.as_deref().is_some_and(|p| !p.is_empty()) {
            return Err(LiError::bad_request(
                "thematic Swiss (position) are not offered here",
            ));
        }
        let clock_limit = whole(self.clock_limit.as_ref(), "clock.limit")?
            .or(old.map(|o| o.clock_limit))
            .ok_or_else(|| LiError::bad_request("clock.limit is required"))?;
        let clock_increment = whole(self.clock_increment.as_ref(), "clock.increment")?
            .or(old.map(|o| o.clock_increment))
            .ok_or_else(|| LiError::bad_request("clock.increment is required"))?;
        let nb_rounds = whole(self.nb_rounds.as_ref(), "nbRounds")?
            .or(old.map(|o| o.nb_rounds))
            .ok_or_else(|| LiError::bad_request("nbRounds is required"))?;
        let starts_at = match &self.starts_at {
            Some(n) => {
                let v = n.value("startsAt")?;
                if v.fract() != 0.0 || v > 1e15 {
                    return Err(LiError::bad_request("startsAt is a time in Unix ms"));
                }
                // Exact: a whole number of ms below 10^15.
                v as i64
            }
            None => old.map_or(now + DEFAULT_WAIT_MS, |o| o.starts_at),
        };
        let round_interval = match (whole(self.round_interval.as_ref(), "roundInterval")?, old) {
            (None, Some(o)) => o.round_interval,
            (given, _) => RoundInterval::from_lichess(given.map(i64::from)).map_err(li_error)?,
        };
        let chat_for = whole(self.chat_for.as_ref(), "chatFor")?
            .unwrap_or(old.map_or(20, |o| u32::from(o.chat_for)));
        let chat_for =
            u8::try_from(chat_for).map_err(|_| LiError::bad_request("chatFor: 0, 10, 20 or 30"))?;
        let forbidden_names = self
            .forbidden_pairings
            .map(|text| forbidden_pairs(&text))
            .transpose()?;
        Ok(NewSwiss {
            name: self
                .name
                .filter(|n| !n.trim().is_empty())
                .or(base.map(|b| b.row.name.clone())),
            description: self
                .description
                .or(base.map(|b| b.row.description.clone()))
                .unwrap_or_default(),
            settings: SwissSettings {
                clock_limit,
                clock_increment,
                nb_rounds,
                starts_at,
                round_interval,
                rated: flag_or(self.rated.as_ref(), "rated", old.is_none_or(|o| o.rated))?,
                variant: self
                    .variant
                    .or(old.map(|o| o.variant.clone()))
                    .unwrap_or_else(|| "standard".into()),
                chat_for,
                forbidden: Vec::new(),
            },
            forbidden_names,
        })
    }
}

/// lichess's `forbiddenPairings`: two usernames a line.
fn forbidden_pairs(text: &str) -> LiResult<Vec<(String, String)>> {
    if text.chars().count() > MAX_FORBIDDEN_CHARS {
        return Err(LiError::bad_request("forbiddenPairings is too long"));
    }
    let mut pairs = Vec::new();
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let names: Vec<&str> = l.split_whitespace().collect();
        let [a, b] = names[..] else {
            return Err(LiError::bad_request(
                "forbiddenPairings: two usernames per line, separated by a space",
            ));
        };
        pairs.push((a.to_owned(), b.to_owned()));
    }
    Ok(pairs)
}

/// A Swiss as lichess shows one (`SwissTournament`).
fn swiss_json(s: &Swiss, created_by: &str, state: &SwissState, now: i64) -> Value {
    let control = s.control();
    let ongoing = state
        .boards
        .last()
        .map_or(0, |b| b.iter().filter(|b| b.result.is_none()).count());
    let mut v = json!({
        "id": s.id(),
        "createdBy": created_by,
        "startsAt": plyyard_live::rfc3339(s.row.starts_at),
        "name": s.row.name,
        "clock": {"limit": s.settings.clock_limit, "increment": s.settings.clock_increment},
        "variant": s.settings.variant,
        "round": state.rounds.len(),
        "nbRounds": s.settings.nb_rounds,
        "nbPlayers": s.row.nb_players,
        "nbOngoing": ongoing,
        "status": s.status().as_str(),
        "rated": s.settings.rated,
        "teamId": s.club(),
        "roundInterval": s.settings.round_interval.lichess_seconds(control),
        "description": s.row.description,
        "chatFor": s.settings.chat_for,
    });
    let next = match state.rounds.last() {
        None if s.status() == TournamentStatus::Created => Some(s.row.starts_at),
        Some(r) if s.status() == TournamentStatus::Started => r.next_round_at,
        _ => None,
    };
    if let Some(at) = next {
        v["nextRound"] = json!({
            "at": plyyard_live::rfc3339(at),
            "in": (at - now).max(0) / 1000,
        });
    }
    if s.status() == TournamentStatus::Finished {
        let byes = state.byes.iter().flatten().count();
        let (mut games, mut white, mut black, mut draws) = (0, 0, 0, 0);
        for b in state.boards.iter().flatten() {
            match b.result {
                Some(GameResult::WhiteWins) => white += 1,
                Some(GameResult::BlackWins) => black += 1,
                Some(GameResult::Draw) => draws += 1,
                _ => continue,
            }
            games += 1;
        }
        v["stats"] = json!({
            "games": games, "whiteWins": white, "blackWins": black, "draws": draws,
            "byes": byes,
        });
    }
    v
}

async fn creator(d: &ArenaDoors, s: &Swiss) -> LiResult<String> {
    Ok(d.store
        .account_row(&s.row.created_by)
        .await?
        .map_or_else(|| "ghost".to_owned(), |r| r.account.username.to_lowercase()))
}

async fn show_json(d: &ArenaDoors, s: &Swiss) -> LiResult<Value> {
    let state = d.tournaments.swiss_state(s).await.map_err(li_error)?;
    Ok(swiss_json(s, &creator(d, s).await?, &state, now_ms()))
}

/// Swiss `id` as `GET /api/swiss/{id}` shows it.
pub(super) async fn show_value(d: &ArenaDoors, id: &str) -> LiResult<Value> {
    let swiss = d.tournaments.swiss(id).await.map_err(li_error)?;
    show_json(d, &swiss).await
}

pub(super) async fn create(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(club): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: SwissForm = decode(&headers, body, "swiss")?;
    let now = now_ms();
    let new = form.new_swiss(now, None)?;
    d.limits
        .check_tournaments(ip, Some(&key(&caller)))
        .await
        .map_err(limited)?;
    let swiss = d
        .tournaments
        .create_swiss(&caller.account.player_id, &club, new, now)
        .await
        .map_err(|e| match e {
            plyyard_tournaments::TournamentError::NotFound(_) => LiError::not_found("No such team"),
            e => li_error(e),
        })?;
    Ok(Json(show_json(&d, &swiss).await?))
}

pub(super) async fn show(
    State(d): State<ArenaDoors>,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    let swiss = d.tournaments.swiss(&id).await.map_err(li_error)?;
    Ok(Json(show_json(&d, &swiss).await?))
}

pub(super) async fn edit(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: SwissForm = decode(&headers, body, "swiss")?;
    let now = now_ms();
    let current = d.tournaments.swiss(&id).await.map_err(li_error)?;
    let new = form.new_swiss(now, Some(&current))?;
    let swiss = d
        .tournaments
        .edit_swiss(&id, &caller.account.player_id, new, now)
        .await
        .map_err(li_error)?;
    Ok(Json(show_json(&d, &swiss).await?))
}

pub(super) async fn join(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    d.tournaments.swiss(&id).await.map_err(li_error)?;
    d.limits
        .check_tournament_joins(ip, Some(&key(&caller)))
        .await
        .map_err(limited)?;
    d.tournaments
        .join_swiss(&id, &caller.account.player_id, now_ms())
        .await
        .map_err(li_error)?;
    Ok(ok())
}

pub(super) async fn withdraw(
    State(d): State<ArenaDoors>,
    Extension(ip): Extension<ClientIp>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    d.tournaments.swiss(&id).await.map_err(li_error)?;
    d.limits
        .check_tournament_joins(ip, Some(&key(&caller)))
        .await
        .map_err(limited)?;
    d.tournaments
        .withdraw_swiss(&id, &caller.account.player_id, now_ms())
        .await
        .map_err(li_error)?;
    Ok(ok())
}

pub(super) async fn terminate(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    d.tournaments
        .terminate_swiss(&id, &caller.account.player_id, now_ms())
        .await
        .map_err(li_error)?;
    Ok(ok())
}

#[derive(Debug, Deserialize)]
pub(super) struct ScheduleForm {
    date: Option<Num>,
}

/// `POST /api/swiss/{id}/schedule-next-round`: `date` (Unix ms) or now.
pub(super) async fn schedule_next_round(
    State(d): State<ArenaDoors>,
    caller: Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    caller.require(&[Scope::TournamentWrite])?;
    let form: ScheduleForm = decode(&headers, body, "schedule")?;
    let now = now_ms();
    let at = match &form.date {
        Some(n) => {
            let v = n.value("date")?;
            if v.fract() != 0.0 || v > 1e15 {
                return Err(LiError::bad_request("date is a time in Unix ms"));
            }
            // Exact: a whole number of ms below 10^15.
            v as i64
        }
        None => now,
    };
    d.tournaments
        .schedule_next_round(&id, &caller.account.player_id, at, now)
        .await
        .map_err(li_error)?;
    Ok(ok())
}

#[derive(Debug, Deserialize)]
pub(super) struct ResultsQuery {
    nb: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLine<'a> {
    rank: u32,
    points: f64,
    tie_break: f64,
    buchholz: f64,
    rating: i64,
    username: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    performance: Option<i32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    absent: bool,
}

/// `GET /api/swiss/{id}/results`: NDJSON, the leader first; `tieBreak`
/// is Sonneborn-Berger in points, `buchholz` (ours) Buchholz in points.
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
    let swiss = d.tournaments.swiss(&id).await.map_err(li_error)?;
    let state = d.tournaments.swiss_state(&swiss).await.map_err(li_error)?;
    let mut body = Vec::new();
    for s in state.standings().iter().take(nb) {
        body.extend_from_slice(&line(&ResultLine {
            rank: s.rank,
            points: f64::from(s.half_points) / 2.0,
            tie_break: f64::from(s.sonneborn_berger) / 4.0,
            buchholz: f64::from(s.buchholz) / 2.0,
            rating: s.rating,
            username: &s.username,
            performance: s.performance,
            absent: s.absent,
        }));
    }
    let mut resp = Bytes::from(body).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

#[derive(Debug, Deserialize)]
pub(super) struct TeamSwissQuery {
    max: Option<u32>,
}

/// A board's result as the page shows it: `1-0`, `0-1`, `½-½`, `*` while
/// played, `+--` / `--+` for a forfeit (the side that never moved loses).
fn board_result(b: &plyyard_tournaments::swiss::Board) -> &'static str {
    match b.result {
        None => "*",
        Some(GameResult::WhiteWins) => "1-0",
        Some(GameResult::BlackWins) => "0-1",
        Some(GameResult::Draw) => "½-½",
        Some(GameResult::Aborted) if b.plies == 0 => "--+",
        Some(GameResult::Aborted) => "+--",
    }
}

/// `GET /api/swiss/{id}/rounds` (ours, for the web page): each paired
/// round's boards (`white`, `black` usernames, `result`, `gameId`) in
/// board order and its bye, and the club (`teamId`).
pub(super) async fn rounds(
    State(d): State<ArenaDoors>,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    let swiss = d.tournaments.swiss(&id).await.map_err(li_error)?;
    let state = d.tournaments.swiss_state(&swiss).await.map_err(li_error)?;
    let name = |pid: &str| {
        state
            .players
            .iter()
            .find(|p| p.player_id == pid)
            .map_or_else(|| "?".to_owned(), |p| p.username.clone())
    };
    let rounds: Vec<Value> = state
        .boards
        .iter()
        .zip(&state.byes)
        .enumerate()
        .map(|(i, (boards, bye))| {
            json!({
                "round": i + 1,
                "boards": boards.iter().map(|b| json!({
                    "white": name(&b.white),
                    "black": name(&b.black),
                    "result": board_result(b),
                    "gameId": b.game_id,
                })).collect::<Vec<_>>(),
                "bye": bye.as_deref().map(name),
            })
        })
        .collect();
    Ok(Json(json!({"teamId": swiss.club(), "rounds": rounds})))
}

/// `GET /api/team/{id}/swiss`: the club's Swiss, NDJSON, the latest first.
pub(super) async fn team_swiss(
    State(d): State<ArenaDoors>,
    Path(club): Path<String>,
    Query(q): Query<TeamSwissQuery>,
) -> LiResult<Response> {
    if d.store.club(&club).await?.is_none() {
        return Err(LiError::not_found("No such team"));
    }
    let max = q.max.unwrap_or(TEAM_SWISS_MAX).clamp(1, TEAM_SWISS_MAX);
    let list = d
        .tournaments
        .club_swiss(&club, max)
        .await
        .map_err(li_error)?;
    let mut body = Vec::new();
    for s in &list {
        body.extend_from_slice(&line(&show_json(&d, s).await?));
    }
    let mut resp = Bytes::from(body).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

/// `GET /api/swiss/{id}/games`: its games, as lichess's game export.
pub(super) async fn games(
    State(state): State<crate::state::AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<super::games::ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> LiResult<Response> {
    state.tournaments.swiss(&id).await.map_err(li_error)?;
    super::tournaments::stream_games(state, id, headers, q).await
}

/// `GET /swiss/{id}.trf`: the TRF16 of Swiss `id`'s finished rounds
/// (`file` is `{id}.trf`; the web app's page `/swiss/{id}` is served by
/// the HTTP layer, which calls this for the `.trf` name).
pub async fn trf(state: crate::state::AppState, file: &str) -> Response {
    let Some(id) = file.strip_suffix(".trf") else {
        return LiError::not_found("No such tournament").into_response();
    };
    let tournaments = &state.tournaments;
    let answer = async {
        let swiss = tournaments.swiss(id).await.map_err(li_error)?;
        let state = tournaments.swiss_state(&swiss).await.map_err(li_error)?;
        let ends = (swiss.status() == TournamentStatus::Finished).then_some(swiss.row.finishes_at);
        LiResult::Ok(state.trf(&format!("/swiss/{id}"), swiss.row.starts_at, ends))
    };
    let text = match answer.await {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    let mut resp = text.into_response();
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(v) =
        HeaderValue::from_str(&format!("attachment; filename=\"plyyard_swiss_{id}.trf\""))
    {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_store::TournamentRow;

    const NOW: i64 = 1_800_000_000_000;

    fn form(v: Value) -> SwissForm {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn berserk_json_and_forms_read_the_same_and_edits_keep_what_is_not_given() {
        // berserk's create_swiss sends every field, unset ones as null.
        let json = form(json!({
            "name": "Tuesday", "clock.limit": 180, "clock.increment": 2, "nbRounds": 7,
            "startsAt": NOW + 60_000, "roundInterval": null, "variant": null,
            "description": null, "rated": false, "chatFor": 20,
            "forbiddenPairings": "ann bob\n cy  dee \n",
        }))
        .new_swiss(NOW, None)
        .unwrap();
        let urlencoded = serde_urlencoded::from_str::<SwissForm>(
            "name=Tuesday&clock.limit=180&clock.increment=2&nbRounds=7&startsAt=1800000060000\
             &rated=false&chatFor=20&forbiddenPairings=ann+bob%0A+cy++dee+%0A",
        )
        .unwrap()
        .new_swiss(NOW, None)
        .unwrap();
        assert_eq!(json, urlencoded);
        let s = &json.settings;
        assert_eq!((s.clock_limit, s.clock_increment, s.nb_rounds), (180, 2, 7));
        assert_eq!(
            (s.round_interval, s.rated, s.variant.as_str()),
            (RoundInterval::Auto, false, "standard")
        );
        assert_eq!(
            json.forbidden_names,
            Some(vec![
                ("ann".into(), "bob".into()),
                ("cy".into(), "dee".into())
            ])
        );

        let base = Swiss {
            row: TournamentRow {
                id: "swiss001".into(),
                kind: "swiss".into(),
                name: "Tuesday".into(),
                description: "d".into(),
                created_by: "p".into(),
                club_id: Some("club".into()),
                settings: String::new(),
                status: TournamentStatus::Started,
                starts_at: NOW,
                finishes_at: NOW,
                nb_players: 2,
                created_at: NOW,
            },
            settings: SwissSettings {
                starts_at: NOW - 5,
                ..s.clone()
            },
        };
        let edit = form(json!({"name": "Wednesday", "roundInterval": 99_999_999}))
            .new_swiss(NOW, Some(&base))
            .unwrap();
        assert_eq!(edit.name.as_deref(), Some("Wednesday"));
        assert_eq!(edit.description, "d");
        assert_eq!(edit.forbidden_names, None);
        assert_eq!(
            SwissSettings {
                round_interval: RoundInterval::Auto,
                ..edit.settings
            },
            base.settings
        );

        for bad in [
            json!({"clock.increment": 2, "nbRounds": 7}),
            json!({"clock.limit": 180, "clock.increment": 2, "nbRounds": 7.5}),
            json!({"clock.limit": 180, "clock.increment": 2, "nbRounds": 7, "roundInterval": 2}),
            json!({"clock.limit": 180, "clock.increment": 2, "nbRounds": 7,
                   "forbiddenPairings": "ann bob cy"}),
            json!({"clock.limit": 180, "clock.increment": 2, "nbRounds": 7, "chatFor": 900}),
        ] {
            assert_eq!(
                form(bad.clone()).new_swiss(NOW, None).unwrap_err().status,
                axum::http::StatusCode::BAD_REQUEST,
                "{bad}"
            );
        }
    }
}
