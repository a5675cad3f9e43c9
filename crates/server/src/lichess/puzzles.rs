//! Puzzles through lichess's puzzle API (`docs/api.md`): its paths and
//! shapes (`{"game":{…,"pgn"},"puzzle":{"id","rating","plays","solution",
//! "themes","initialPly"}}`) over [`plyyard_trainer::Trainer`].
//!
//! Everyone may train: a request without an account trains as its
//! browser's anonymous player (unrated); an account trains rated. A token
//! needs `puzzle:read` to read and `puzzle:write` to send solutions.
//! Sending solutions counts against a per-account and per-address limit.

use axum::extract::{FromRef, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use plyyard_puzzle::{Angle, Difficulty};
use plyyard_store::{PlayerId, PuzzleRow, now_ms};
use plyyard_trainer::pgn::shown;
use plyyard_trainer::{Trainer, TrainerError};
use plyyard_wire::lichess::Scope;
use serde::Deserialize;
use serde_json::{Value, json};

use super::body::decode;
use super::caller::MaybeCaller;
use super::error::{LiError, LiResult};
use super::game_stream::NDJSON;
use crate::body::JsonBody;
use crate::security::{AccountKey, ClientIp, Limits};
use crate::state::AppState;

/// Rounds one `GET /api/puzzle/activity` lists at most.
const MAX_ACTIVITY: u32 = 500;
/// Days a dashboard looks back at most.
const MAX_DAYS: u32 = 90;
const DAY_MS: i64 = 86_400_000;

/// What the puzzle handlers use of the state.
#[derive(Clone)]
pub(super) struct PuzzleDoors {
    trainer: Trainer,
    limits: std::sync::Arc<Limits>,
    store: plyyard_store::Store,
}

impl FromRef<AppState> for PuzzleDoors {
    fn from_ref(state: &AppState) -> PuzzleDoors {
        PuzzleDoors {
            trainer: state.trainer.clone(),
            limits: std::sync::Arc::clone(&state.limits),
            store: state.store.clone(),
        }
    }
}

impl From<TrainerError> for LiError {
    fn from(e: TrainerError) -> LiError {
        match e {
            TrainerError::NotFound => LiError::not_found("No such puzzle"),
            TrainerError::NotServed(_) | TrainerError::Invalid(_) => {
                LiError::bad_request(e.to_string())
            }
            TrainerError::Store(s) => LiError::from(s),
        }
    }
}

/// Who trains: the account (rated) or the browser's anonymous player.
struct Solver {
    player: String,
    account: bool,
}

/// The request's account, if any, and its player (the anonymous
/// browser's otherwise).
pub(super) struct Who {
    caller: MaybeCaller,
    player: PlayerId,
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Who {
    type Rejection = LiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Who, LiError> {
        let caller = MaybeCaller::from_request_parts(parts, state).await?;
        let player = parts
            .extensions
            .get::<PlayerId>()
            .cloned()
            .ok_or_else(LiError::unauthorized)?;
        Ok(Who { caller, player })
    }
}

fn solver(who: &Who, scope: Scope) -> LiResult<Solver> {
    let (caller, player) = (&who.caller, &who.player);
    match &caller.0 {
        Some(c) => {
            c.require(&[scope])?;
            Ok(Solver {
                player: c.account.player_id.clone(),
                account: true,
            })
        }
        None => Ok(Solver {
            player: player.0.clone(),
            account: false,
        }),
    }
}

/// A puzzle as lichess's API writes it.
fn puzzle_json(row: &PuzzleRow) -> LiResult<Value> {
    let s = shown(row).map_err(|e| {
        LiError::from(crate::error::ApiError::internal(format!(
            "puzzle {}: {e}",
            row.id
        )))
    })?;
    let game_id = game_id_of(&row.game_url);
    let themes: Vec<&str> = row.themes.split_ascii_whitespace().collect();
    Ok(json!({
        "game": {
            "id": game_id,
            "pgn": s.pgn,
            "fen": s.fen,
            "lastMove": s.last_move,
        },
        "puzzle": {
            "id": row.id,
            "rating": row.rating.round() as i64,
            "plays": row.plays,
            "solution": s.solution,
            "themes": themes,
            "initialPly": row.initial_ply,
        },
    }))
}

/// The game id of a lichess game URL (`https://lichess.org/ID/black#56`
/// → `ID`); empty when there is none.
fn game_id_of(url: &str) -> String {
    let path = url.split('#').next().unwrap_or("");
    path.trim_end_matches('/')
        .rsplit('/')
        .find(|p| !p.is_empty() && *p != "black" && *p != "white")
        .filter(|p| !p.contains(':') && !p.contains('.'))
        .unwrap_or("")
        .to_owned()
}

fn angle_of(key: &str) -> LiResult<Angle> {
    key.parse::<Angle>()
        .map_err(|_| LiError::not_found(format!("No such puzzle angle: {}", trim(key))))
}

fn trim(s: &str) -> String {
    s.chars().take(40).collect()
}

fn difficulty_of(key: Option<&str>) -> LiResult<Difficulty> {
    key.map_or(Ok(Difficulty::Normal), |k| {
        k.parse::<Difficulty>().map_err(|_| {
            LiError::bad_request(format!(
                "difficulty is one of easiest, easier, normal, harder, hardest (not {})",
                trim(k)
            ))
        })
    })
}

/// `GET /api/puzzle/daily`: the puzzle of the day.
pub(super) async fn daily(State(d): State<PuzzleDoors>) -> LiResult<Json<Value>> {
    let row = d.trainer.daily(now_ms().div_euclid(DAY_MS)).await?;
    Ok(Json(puzzle_json(&row)?))
}

/// `GET /api/puzzle/{id}`: one puzzle (served to the caller: they may
/// send its solution).
pub(super) async fn show(
    State(d): State<PuzzleDoors>,
    who: Who,
    Path(id): Path<String>,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let row = d.trainer.show(&id, Some(&who.player), now_ms()).await?;
    Ok(Json(puzzle_json(&row)?))
}

/// The query of `next` and `batch`.
#[derive(Debug, Deserialize)]
pub(super) struct NextQuery {
    angle: Option<String>,
    difficulty: Option<String>,
    nb: Option<String>,
}

/// `GET /api/puzzle/next`: the caller's next puzzle.
pub(super) async fn next(
    State(d): State<PuzzleDoors>,
    who: Who,
    Query(q): Query<NextQuery>,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let angle = angle_of(q.angle.as_deref().unwrap_or("mix"))?;
    let difficulty = difficulty_of(q.difficulty.as_deref())?;
    let rows = d
        .trainer
        .next(&who.player, &angle, difficulty, 1, now_ms())
        .await?;
    let row = rows
        .first()
        .ok_or_else(|| LiError::not_found("No puzzle left"))?;
    Ok(Json(puzzle_json(row)?))
}

fn nb_of(q: &NextQuery) -> LiResult<usize> {
    match q.nb.as_deref() {
        None => Ok(15),
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=plyyard_trainer::MAX_BATCH).contains(n))
            .ok_or_else(|| {
                LiError::bad_request(format!(
                    "nb is a number from 1 to {}",
                    plyyard_trainer::MAX_BATCH
                ))
            }),
    }
}

async fn glicko_json(d: &PuzzleDoors, who: &Solver) -> LiResult<Value> {
    let (g, games) = d.trainer.rating(&who.player).await?;
    Ok(json!({
        "rating": g.rating,
        "deviation": g.deviation,
        "provisional": games < i64::from(plyyard_rating::PROVISIONAL_GAMES) || g.deviation >= 110.0,
    }))
}

async fn batch_json(
    d: &PuzzleDoors,
    who: &Solver,
    angle: &Angle,
    q: &NextQuery,
) -> LiResult<Value> {
    let difficulty = difficulty_of(q.difficulty.as_deref())?;
    let nb = nb_of(q)?;
    let rows = match d
        .trainer
        .next(&who.player, angle, difficulty, nb, now_ms())
        .await
    {
        Ok(rows) => rows,
        Err(TrainerError::NotFound) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    let puzzles = rows.iter().map(puzzle_json).collect::<LiResult<Vec<_>>>()?;
    Ok(json!({ "puzzles": puzzles, "glicko": glicko_json(d, who).await? }))
}

/// `GET /api/puzzle/batch/{angle}`: the caller's next `nb` puzzles.
pub(super) async fn batch(
    State(d): State<PuzzleDoors>,
    who: Who,
    Path(angle): Path<String>,
    Query(q): Query<NextQuery>,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let angle = angle_of(&angle)?;
    Ok(Json(batch_json(&d, &who, &angle, &q).await?))
}

/// The body of `POST /api/puzzle/batch/{angle}`.
#[derive(Debug, Deserialize)]
pub(super) struct Solutions {
    solutions: Vec<Solution>,
}

/// One solved puzzle.
#[derive(Debug, Deserialize)]
pub(super) struct Solution {
    id: String,
    win: bool,
    #[serde(default = "rated_by_default")]
    rated: bool,
}

fn rated_by_default() -> bool {
    true
}

/// `POST /api/puzzle/batch/{angle}`: records solved puzzles (`rounds`,
/// with `ratingDiff`) and answers the next ones.
pub(super) async fn solve_batch(
    State(d): State<PuzzleDoors>,
    who: Who,
    Extension(ip): Extension<ClientIp>,
    Path(angle): Path<String>,
    Query(q): Query<NextQuery>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleWrite)?;
    let angle = angle_of(&angle)?;
    let form: Solutions = decode(&headers, body, "solutions")?;
    let account = who.account.then(|| AccountKey(who.player.clone()));
    d.limits
        .check_puzzle_solves(ip, account.as_ref())
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    let wanted: Vec<(String, bool, bool)> = form
        .solutions
        .into_iter()
        .map(|s| (s.id, s.win, s.rated))
        .collect();
    let rounds = d
        .trainer
        .solve(&who.player, who.account, &angle, &wanted, now_ms())
        .await?;
    let mut out = batch_json(&d, &who, &angle, &q).await?;
    out["rounds"] = rounds
        .iter()
        .map(|r| {
            let mut round = json!({ "id": r.id, "win": r.win });
            if let Some(diff) = r.rating_diff {
                round["ratingDiff"] = json!(diff);
            }
            round
        })
        .collect();
    Ok(Json(out))
}

/// The query of `activity`.
#[derive(Debug, Deserialize)]
pub(super) struct ActivityQuery {
    max: Option<u32>,
    before: Option<i64>,
}

/// `GET /api/puzzle/activity`: the caller's rounds, the latest first, as
/// NDJSON.
pub(super) async fn activity(
    State(d): State<PuzzleDoors>,
    who: Who,
    Query(q): Query<ActivityQuery>,
) -> LiResult<Response> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let max = q.max.unwrap_or(MAX_ACTIVITY).clamp(1, MAX_ACTIVITY);
    let rounds = d.trainer.history(&who.player, 0, max).await?;
    let mut body = String::new();
    for r in rounds
        .iter()
        .filter(|r| q.before.is_none_or(|b| r.updated_at < b))
    {
        let line = json!({
            "date": r.updated_at,
            "win": r.win,
            "puzzle": {
                "id": r.puzzle_id,
                "rating": r.puzzle_rating.round() as i64,
                "themes": r.themes.split_ascii_whitespace().collect::<Vec<_>>(),
            },
        });
        body.push_str(&line.to_string());
        body.push('\n');
    }
    let mut resp = body.into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
    Ok(resp)
}

/// `GET /api/puzzle/dashboard/{days}`: the caller's results over the last
/// `days` days, overall and per theme.
pub(super) async fn dashboard(
    State(d): State<PuzzleDoors>,
    who: Who,
    Path(days): Path<String>,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let days = days_of(&days)?;
    let since = now_ms() - i64::from(days) * DAY_MS;
    let rounds = d.trainer.history(&who.player, since, 10_000).await?;
    Ok(Json(json!({
        "days": days,
        "global": results(rounds.iter()),
        "themes": themes_of(&rounds),
    })))
}

/// `GET /api/puzzle/replay/{days}/{theme}`: the puzzles the caller failed
/// at the first attempt in the last `days` days under `theme` (a theme
/// key or `mix`), as lichess answers it: `{"replay":{"days","theme","nb",
/// "remaining"},"angle":{"key","name","desc"}}`. `nb` counts them all;
/// `remaining` lists those not played again since (a replay is sent to
/// `POST /api/puzzle/batch/{theme}` as any solution; it is never rated).
pub(super) async fn replay(
    State(d): State<PuzzleDoors>,
    who: Who,
    Path((days, theme)): Path<(String, String)>,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleRead)?;
    let days = days_of(&days)?;
    let angle = angle_of(&theme)?;
    let since = now_ms() - i64::from(days) * DAY_MS;
    let replay = d
        .trainer
        .replay(&who.player, &angle, since)
        .await
        .map_err(|e| match e {
            TrainerError::NotFound => LiError::not_found(format!(
                "No such puzzle theme: {} (replays are by theme)",
                trim(&theme)
            )),
            e => e.into(),
        })?;
    let name = plyyard_i18n::text("en", &format!("puzzle.angle.{}", angle.key()))
        .or_else(|| plyyard_i18n::text("en", &format!("puzzle.theme.{}", angle.key())))
        .unwrap_or(angle.key());
    Ok(Json(json!({
        "replay": {
            "days": days,
            "theme": angle.key(),
            "nb": replay.nb,
            "remaining": replay.remaining,
        },
        "angle": { "key": angle.key(), "name": name, "desc": "" },
    })))
}

/// `days` of a dashboard or a replay: 1 to [`MAX_DAYS`].
fn days_of(days: &str) -> LiResult<u32> {
    days.parse::<u32>()
        .ok()
        .filter(|d| (1..=MAX_DAYS).contains(d))
        .ok_or_else(|| LiError::bad_request(format!("days is a number from 1 to {MAX_DAYS}")))
}

/// The body of `POST /api/storm`: a run as the browser counted it.
#[derive(Debug, Deserialize)]
pub(super) struct StormRunForm {
    score: u32,
    moves: u32,
    errors: u32,
    combo: u32,
    time: u32,
    highest: u32,
}

fn high_json(h: &plyyard_puzzle::storm::High) -> Value {
    json!({ "allTime": h.all_time, "day": h.day, "month": h.month, "week": h.week })
}

/// `POST /api/storm` (ours; lichess's web app posts a form to `/storm`):
/// records the run an account just ended (`{"score","moves","errors",
/// "combo","time","highest"}`, checked for what no run can end with) and
/// answers `{"recorded", "high"}`. Without an account: 401. Counted
/// against the puzzle solving limit.
pub(super) async fn storm_run(
    State(d): State<PuzzleDoors>,
    who: Who,
    Extension(ip): Extension<ClientIp>,
    headers: HeaderMap,
    body: JsonBody,
) -> LiResult<Json<Value>> {
    let who = solver(&who, Scope::PuzzleWrite)?;
    if !who.account {
        return Err(LiError::unauthorized());
    }
    let form: StormRunForm = decode(&headers, body, "storm run")?;
    d.limits
        .check_puzzle_solves(ip, Some(&AccountKey(who.player.clone())))
        .await
        .map_err(|r| LiError::from(crate::error::ApiError::from(r)))?;
    let run = plyyard_puzzle::storm::Run {
        score: form.score,
        moves: form.moves,
        errors: form.errors,
        combo: form.combo,
        time: form.time,
        highest: form.highest,
    };
    let now = now_ms();
    let recorded = d.trainer.record_storm(&who.player, &run, now).await?;
    let dash = d.trainer.storm_dashboard(&who.player, 1, now).await?;
    Ok(Json(
        json!({ "recorded": recorded, "high": high_json(&dash.high) }),
    ))
}

/// The query of `storm_dashboard`.
#[derive(Debug, Deserialize)]
pub(super) struct StormDashboardQuery {
    days: Option<String>,
}

/// `GET /api/storm/dashboard/{username}`: lichess's storm dashboard,
/// public: `{"high":{"allTime","day","month","week"},"days":[{"_id",
/// "combo","errors","highest","moves","runs","score","time"}]}`, the days
/// of the last `days` (default 30, at most 365) the player ran, the latest
/// first, each with its best run.
pub(super) async fn storm_dashboard(
    State(d): State<PuzzleDoors>,
    Path(name): Path<String>,
    Query(q): Query<StormDashboardQuery>,
) -> LiResult<Json<Value>> {
    let days = match q.days.as_deref() {
        None => 30,
        Some(s) => s.parse::<u32>().map_err(|_| {
            LiError::bad_request(format!(
                "days is a number from 1 to {}",
                plyyard_trainer::storm::MAX_DAYS
            ))
        })?,
    };
    let account = d
        .store
        .account_named(&name)
        .await
        .map_err(|e| LiError::from(TrainerError::from(e)))?
        .ok_or_else(|| LiError::not_found(format!("No such user: {}", trim(&name))))?;
    let dash = d
        .trainer
        .storm_dashboard(&account.player_id, days, now_ms())
        .await?;
    let days: Vec<Value> = dash
        .days
        .iter()
        .map(|day| {
            json!({
                "_id": day.id,
                "combo": day.best.combo,
                "errors": day.best.errors,
                "highest": day.best.highest,
                "moves": day.best.moves,
                "runs": day.runs,
                "score": day.best.score,
                "time": day.best.time,
            })
        })
        .collect();
    Ok(Json(json!({ "high": high_json(&dash.high), "days": days })))
}

fn results<'a>(rounds: impl Iterator<Item = &'a plyyard_store::PuzzleRoundRow>) -> Value {
    let (mut nb, mut first_wins, mut replay_wins, mut rating_sum, mut perf_sum) =
        (0i64, 0i64, 0i64, 0.0f64, 0.0f64);
    for r in rounds {
        nb += 1;
        if r.win && r.created_at == r.updated_at {
            first_wins += 1;
        } else if r.win {
            replay_wins += 1;
        }
        rating_sum += r.puzzle_rating;
        perf_sum += r.puzzle_rating + if r.win { 500.0 } else { -500.0 };
    }
    let avg = |s: f64| {
        if nb == 0 {
            0
        } else {
            (s / nb as f64).round() as i64
        }
    };
    json!({
        "nb": nb,
        "firstWins": first_wins,
        "replayWins": replay_wins,
        "puzzleRatingAvg": avg(rating_sum),
        "performance": avg(perf_sum),
    })
}

fn themes_of(rounds: &[plyyard_store::PuzzleRoundRow]) -> Value {
    let mut keys: Vec<&str> = rounds
        .iter()
        .flat_map(|r| r.themes.split_ascii_whitespace())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut out = serde_json::Map::new();
    for k in keys {
        let of = rounds
            .iter()
            .filter(|r| r.themes.split_ascii_whitespace().any(|t| t == k));
        out.insert(k.to_owned(), json!({ "theme": k, "results": results(of) }));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::game_id_of;

    #[test]
    fn game_ids_come_from_lichess_urls() {
        assert_eq!(game_id_of("https://lichess.org/seIMDWkD#25"), "seIMDWkD");
        assert_eq!(
            game_id_of("https://lichess.org/TaT1Zl7z/black#56"),
            "TaT1Zl7z"
        );
        assert_eq!(game_id_of("https://lichess.org/TaT1Zl7z/white"), "TaT1Zl7z");
        assert_eq!(game_id_of(""), "");
        assert_eq!(game_id_of("https://lichess.org/"), "");
    }
}
