//! Moderation over HTTP (`docs/api.md`, `docs/moderation.md`): players'
//! reports (`POST /api/report`), the moderators' API under `/api/mod/`
//! (the queue, the log, a player's record, the actions and their undo,
//! roles), the warning a player reads on their next page, and the
//! moderation pages (`/mod…`), which answer 403 to anyone without a role.
//!
//! Who may do what to whom is `plyyard-moderation`'s; the rows are the
//! store's, each change one transaction with its log entry. Closing an
//! account then resigns its ongoing games through their actors, as the
//! player's own resignation would.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode, echo};
use crate::identity::{PlayerId, Session};
use crate::security::{AccountKey, ClientIp};
use plyyard_accounts::rules::check_username;
use plyyard_live::{Action as GameAction, rfc3339};
use plyyard_moderation::{self as moderation, Action, Mark, Reason, Refusal, Role, Staff};
use plyyard_store::{Account, MarkChange, ModLogRow, NewReport, ReportRow, Store, now_ms};

/// Log entries per page of the log.
const LOG_PAGE: u32 = 100;
/// Open reports shown in the queue at most.
const QUEUE_MAX: u32 = 500;
/// Chat lines and games shown as evidence per reported player.
const EVIDENCE: u32 = 20;
/// Ongoing games a closed account resigns at most.
const RESIGN_MAX: u32 = 200;

/// The routes, to be put under the identity middleware.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/report", post(report))
        .route("/api/account/warning", get(warning))
        .route("/api/account/warning/{id}/read", post(read_warning))
        .route("/api/mod/log", get(log))
        .route("/api/mod/reports", get(reports))
        .route("/api/mod/reports/{name}/close", post(close_reports))
        .route("/api/mod/staff", get(staff))
        .route("/api/mod/user/{name}", get(record))
        .route("/api/mod/user/{name}/role", post(set_role))
        .route(
            "/api/mod/user/{name}/{action}",
            post(take_action).delete(lift_action),
        )
        .route(
            "/api/mod/{*rest}",
            get(no_such_mod_endpoint)
                .post(no_such_mod_endpoint)
                .delete(no_such_mod_endpoint),
        )
}

/// The moderation pages: the web app for a moderator, 403 (with the web
/// app, which says so) for anyone else.
pub fn pages() -> Router<AppState> {
    Router::new()
        .route("/mod", get(page))
        .route("/mod/{*rest}", get(page))
}

fn refused(r: Refusal) -> ApiError {
    match r {
        Refusal::Forbidden(why) => ApiError::forbidden(why),
        Refusal::Invalid(why) => ApiError::bad_request(why),
    }
}

fn not_logged_in() -> ApiError {
    ApiError::new(ErrorCode::NotLoggedIn, "log in first")
}

/// Someone's staff role, read from the store.
async fn role_of(store: &Store, player_id: &str) -> Result<Option<Role>, ApiError> {
    Ok(match store.staff_role(player_id).await?.as_deref() {
        Some("admin") => Some(Role::Admin),
        Some("moderator") => Some(Role::Moderator),
        _ => None,
    })
}

/// The logged-in moderator of a request and their role.
async fn moderator(store: &Store, session: Option<&Session>) -> Result<(Account, Role), ApiError> {
    let Some(s) = session else {
        return Err(ApiError::forbidden("moderators only: log in first"));
    };
    let role = role_of(store, &s.account.player_id).await?;
    moderation::may_moderate(&Staff {
        id: &s.account.player_id,
        role,
    })
    .map_err(refused)?;
    Ok((s.account.clone(), role.unwrap_or(Role::Moderator)))
}

/// The live account named `name`, or `not_found`.
async fn named(store: &Store, name: &str) -> Result<Account, ApiError> {
    let found = if check_username(name).is_ok() {
        store.account_named(name).await?
    } else {
        None
    };
    found.ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("no player {}", echo(name))))
}

async fn no_such_mod_endpoint(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> ApiError {
    match moderator(&store, session.as_ref()).await {
        Ok(_) => ApiError::new(ErrorCode::NotFound, "no such moderation endpoint"),
        Err(e) => e,
    }
}

async fn page(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    let allowed = moderator(&store, session.as_ref()).await.is_ok();
    let mut resp = super::assets::web_asset(uri, headers).await.into_response();
    if !allowed {
        *resp.status_mut() = StatusCode::FORBIDDEN;
    }
    resp
}

// ---------------------------------------------------------------- reports

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportBody {
    username: String,
    reason: String,
    text: String,
}

#[derive(Serialize)]
struct Created {
    id: String,
}

async fn report(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    Extension(session): Extension<Option<Session>>,
    body: JsonBody,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let session = session.ok_or_else(not_logged_in)?;
    let b: ReportBody = json_body(body, "report")?;
    let reason = Reason::parse(&b.reason).map_err(refused)?;
    let text = moderation::check_report_text(&b.text).map_err(refused)?;
    let reported = named(&state.store, &b.username).await?;
    moderation::check_reported(&session.account.player_id, &reported.player_id).map_err(refused)?;
    let key = AccountKey(session.account.player_id.clone());
    state.limits.check_reports(ip, Some(&key)).await?;
    let id = state
        .store
        .add_report(&NewReport {
            reporter: &session.account.player_id,
            reported: &reported.player_id,
            reason: reason.as_str(),
            text: &text,
            now: now_ms(),
        })
        .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

#[derive(Serialize)]
struct ReportJson {
    id: String,
    reporter: String,
    reason: String,
    text: String,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<String>,
}

impl From<ReportRow> for ReportJson {
    fn from(r: ReportRow) -> ReportJson {
        ReportJson {
            id: r.id,
            reporter: r.reporter,
            reason: r.reason,
            text: r.text,
            created_at: rfc3339(r.created_at),
            closed_at: r.closed_at.map(rfc3339),
            closed_by: r.closed_by,
            outcome: r.outcome,
        }
    }
}

#[derive(Serialize)]
struct ChatEvidence {
    /// The game, club or Arena the line was said at.
    at: String,
    room: String,
    text: String,
    date: String,
    /// Said while muted: seen by nobody but its author.
    shadow: bool,
}

#[derive(Serialize)]
struct GameEvidence {
    id: String,
    status: String,
    result: String,
    plies: u32,
    date: String,
}

/// A rated game against an account seen on one of the player's addresses.
#[derive(Serialize)]
struct SharedAddressEvidence {
    game: String,
    /// The other player (`null`: a deleted account).
    opponent: Option<String>,
    date: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Evidence {
    chat: Vec<ChatEvidence>,
    games: Vec<GameEvidence>,
    /// Rated games against accounts seen on one address (rating farming,
    /// or a club or a school behind one address: the moderator judges).
    shared_address: Vec<SharedAddressEvidence>,
    /// The fair-play verdicts on the player's rated games.
    fair_play: plyyard_fairplay::Report,
}

async fn evidence(store: &Store, player_id: &str) -> Result<Evidence, ApiError> {
    let chat = store
        .chat_lines_by(player_id, EVIDENCE)
        .await?
        .into_iter()
        .map(|(l, shadow)| ChatEvidence {
            at: l.game_id,
            room: l.room,
            text: l.text,
            date: rfc3339(l.created_at),
            shadow,
        })
        .collect();
    let games = store
        .recent_games(player_id, EVIDENCE)
        .await?
        .into_iter()
        .map(|g| GameEvidence {
            id: g.id,
            status: g.summary.status.as_str().to_owned(),
            result: g.summary.result.as_str().to_owned(),
            plies: g.summary.plies,
            date: rfc3339(g.summary.updated_at),
        })
        .collect();
    let fair_play = plyyard_fairplay::report(store, player_id).await?;
    let shared_address = store
        .shared_address_games(player_id, EVIDENCE)
        .await?
        .into_iter()
        .map(|g| SharedAddressEvidence {
            game: g.game_id,
            opponent: g.opponent,
            date: rfc3339(g.at),
        })
        .collect();
    Ok(Evidence {
        chat,
        games,
        shared_address,
        fair_play,
    })
}

/// The open reports about one player, with the evidence.
#[derive(Serialize)]
struct ReportGroup {
    username: String,
    marks: Vec<String>,
    reports: Vec<ReportJson>,
    evidence: Evidence,
}

#[derive(Serialize)]
struct Queue {
    players: Vec<ReportGroup>,
}

/// `GET /api/mod/reports`: open reports grouped by reported player, the
/// most reported first, each with the player's recent chat lines and games.
async fn reports(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<Queue>, ApiError> {
    moderator(&store, session.as_ref()).await?;
    let open = store.open_reports(QUEUE_MAX).await?;
    let mut groups: Vec<(String, String, Vec<ReportRow>)> = Vec::new();
    for r in open {
        match groups.iter_mut().find(|(id, _, _)| *id == r.reported_id) {
            Some(g) => g.2.push(r),
            None => groups.push((r.reported_id.clone(), r.reported.clone(), vec![r])),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.2.len()));
    let mut players = Vec::with_capacity(groups.len());
    for (id, username, rows) in groups {
        players.push(ReportGroup {
            username,
            marks: store
                .mod_marks(&id)
                .await?
                .into_iter()
                .map(|m| m.mark)
                .collect(),
            reports: rows.into_iter().map(ReportJson::from).collect(),
            evidence: evidence(&store, &id).await?,
        });
    }
    Ok(Json(Queue { players }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CloseBody {
    /// `mute`, `warn`, `close`, `engine` or `none`.
    action: String,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Serialize)]
struct Closed {
    closed: u64,
}

/// `POST /api/mod/reports/{name}/close`: takes `action` on the player
/// (unless `none`) and closes every open report about them.
async fn close_reports(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Path(name): Path<String>,
    body: JsonBody,
) -> Result<Json<Closed>, ApiError> {
    let (me, role) = moderator(&state.store, session.as_ref()).await?;
    let b: CloseBody = json_body(body, "report closing")?;
    let action = match b.action.as_str() {
        "none" => None,
        other => Some(Action::parse(other).map_err(refused)?),
    };
    let why = moderation::check_why(b.reason.as_deref(), action.is_some_and(Action::needs_text))
        .map_err(refused)?;
    let target = named(&state.store, &name).await?;
    if action.is_some() {
        let them = role_of(&state.store, &target.player_id).await?;
        moderation::may_act(
            &Staff {
                id: &me.player_id,
                role: Some(role),
            },
            &Staff {
                id: &target.player_id,
                role: them,
            },
        )
        .map_err(refused)?;
    }
    let outcome = match (action, why.is_empty()) {
        (None, true) => "none".to_owned(),
        (None, false) => format!("none: {why}"),
        (Some(a), true) => a.as_str().to_owned(),
        (Some(a), false) => format!("{}: {why}", a.as_str()),
    };
    let now = now_ms();
    let mark_action = action.map(|a| (a.mark().map_or("warn", Mark::as_str), why.as_str()));
    let closed = state
        .store
        .close_reports(&me.player_id, &target.player_id, mark_action, &outcome, now)
        .await?;
    if closed == 0 {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            format!("no open report about {}", target.username),
        ));
    }
    if action == Some(Action::Close) {
        after_close(&state, &target).await;
    }
    Ok(Json(Closed { closed }))
}

// ---------------------------------------------------------------- the log

#[derive(Deserialize)]
struct LogQuery {
    /// Entries before this time (Unix milliseconds): the next page.
    before: Option<i64>,
}

#[derive(Serialize)]
struct LogJson {
    id: String,
    at: String,
    date: i64,
    moderator: Option<String>,
    action: String,
    target: Option<String>,
    details: String,
}

impl From<ModLogRow> for LogJson {
    fn from(r: ModLogRow) -> LogJson {
        LogJson {
            id: r.id,
            at: rfc3339(r.at),
            date: r.at,
            moderator: r.moderator,
            action: r.action,
            target: r.target,
            details: r.details,
        }
    }
}

#[derive(Serialize)]
struct LogPage {
    entries: Vec<LogJson>,
}

/// `GET /api/mod/log?before=`: the moderation log, newest first.
async fn log(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    q: Result<Query<LogQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<LogPage>, ApiError> {
    moderator(&store, session.as_ref()).await?;
    let Query(q) =
        q.map_err(|_| ApiError::bad_request("`before` is a time in Unix milliseconds"))?;
    let rows = store.mod_log(None, q.before, LOG_PAGE).await?;
    Ok(Json(LogPage {
        entries: rows.into_iter().map(LogJson::from).collect(),
    }))
}

// ---------------------------------------------------------------- roles

#[derive(Serialize)]
struct StaffJson {
    username: String,
    role: String,
}

#[derive(Serialize)]
struct StaffList {
    /// The viewer's own role.
    you: Role,
    staff: Vec<StaffJson>,
}

/// `GET /api/mod/staff`: every account with a role, and the viewer's.
async fn staff(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<StaffList>, ApiError> {
    let (_, you) = moderator(&store, session.as_ref()).await?;
    let staff = store
        .staff()
        .await?
        .into_iter()
        .map(|(username, role)| StaffJson { username, role })
        .collect();
    Ok(Json(StaffList { you, staff }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoleBody {
    role: String,
}

/// `POST /api/mod/user/{name}/role` `{"role": "moderator|admin|none"}`:
/// admins only, never on themselves.
async fn set_role(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    Path(name): Path<String>,
    body: JsonBody,
) -> Result<StatusCode, ApiError> {
    let (me, role) = moderator(&store, session.as_ref()).await?;
    let b: RoleBody = json_body(body, "role")?;
    let wanted = Role::parse_choice(&b.role).map_err(refused)?;
    let target = named(&store, &name).await?;
    moderation::may_grant(
        &Staff {
            id: &me.player_id,
            role: Some(role),
        },
        &Staff {
            id: &target.player_id,
            role: None,
        },
    )
    .map_err(refused)?;
    let changed = store
        .set_staff_role(
            Some(&me.player_id),
            &target.player_id,
            wanted.map(Role::as_str),
            now_ms(),
        )
        .await?;
    done_or_conflict(changed, || {
        format!("{} already has that role", target.username)
    })
}

fn done_or_conflict(
    change: MarkChange,
    why: impl FnOnce() -> String,
) -> Result<StatusCode, ApiError> {
    match change {
        MarkChange::Done => Ok(StatusCode::NO_CONTENT),
        MarkChange::Unchanged => Err(ApiError::new(ErrorCode::Conflict, why())),
    }
}

// ---------------------------------------------------------------- actions

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct WhyBody {
    #[serde(default)]
    reason: Option<String>,
}

/// The request's moderator, the action named in the path and its target,
/// once `may_act` allows it.
async fn acting(
    store: &Store,
    session: Option<&Session>,
    name: &str,
    action: &str,
) -> Result<(Account, Action, Account), ApiError> {
    let (me, role) = moderator(store, session).await?;
    let action =
        Action::parse(action).map_err(|e| ApiError::new(ErrorCode::NotFound, e.to_string()))?;
    let target = named(store, name).await?;
    let them = role_of(store, &target.player_id).await?;
    moderation::may_act(
        &Staff {
            id: &me.player_id,
            role: Some(role),
        },
        &Staff {
            id: &target.player_id,
            role: them,
        },
    )
    .map_err(refused)?;
    Ok((me, action, target))
}

/// An optional JSON body: empty means `{}`.
fn why_body(body: JsonBody) -> Result<WhyBody, ApiError> {
    if matches!(&body, Ok(b) if b.iter().all(u8::is_ascii_whitespace)) {
        return Ok(WhyBody::default());
    }
    json_body(body, "moderation reason")
}

/// `POST /api/mod/user/{name}/{mute|warn|close|engine}` `{"reason"}`.
async fn take_action(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Path((name, action)): Path<(String, String)>,
    body: JsonBody,
) -> Result<StatusCode, ApiError> {
    let (me, action, target) = acting(&state.store, session.as_ref(), &name, &action).await?;
    let b = why_body(body)?;
    let why = moderation::check_why(b.reason.as_deref(), action.needs_text()).map_err(refused)?;
    let now = now_ms();
    let by = Some(me.player_id.as_str());
    let change = match action.mark() {
        Some(mark) => {
            state
                .store
                .set_mark(by, &target.player_id, mark.as_str(), &why, now)
                .await?
        }
        None => state.store.warn(by, &target.player_id, &why, now).await?,
    };
    let status = done_or_conflict(change, || match action {
        Action::Warn => format!("{} has an unread warning already", target.username),
        a => format!("{} is already marked {}", target.username, a.as_str()),
    })?;
    if action == Action::Close {
        after_close(&state, &target).await;
    }
    Ok(status)
}

/// `DELETE /api/mod/user/{name}/{mute|warn|close|engine}` `{"reason"}`:
/// lifts the mark (withdraws an unread warning).
async fn lift_action(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    Path((name, action)): Path<(String, String)>,
    body: JsonBody,
) -> Result<StatusCode, ApiError> {
    let (me, action, target) = acting(&store, session.as_ref(), &name, &action).await?;
    let b = why_body(body)?;
    let why = moderation::check_why(b.reason.as_deref(), false).map_err(refused)?;
    let now = now_ms();
    let by = Some(me.player_id.as_str());
    let change = match action.mark() {
        Some(mark) => {
            store
                .lift_mark(
                    by,
                    &target.player_id,
                    (mark.as_str(), action.log_name(true)),
                    &why,
                    now,
                )
                .await?
        }
        None => {
            store
                .withdraw_warning(by, &target.player_id, &why, now)
                .await?
        }
    };
    done_or_conflict(change, || match action {
        Action::Warn => format!("{} has no unread warning", target.username),
        a => format!("{} is not marked {}", target.username, a.as_str()),
    })
}

/// After an account was closed (its sessions and tokens are gone with
/// the mark): its ongoing games are resigned through their actors, and
/// the games it sits at learn their seats changed.
async fn after_close(state: &AppState, target: &Account) {
    // Its open streams and sockets end at once, on every node.
    state
        .social
        .revocation
        .end_account_streams(&target.player_id, plyyard_social::EndReason::Closed);
    let player = PlayerId(target.player_id.clone());
    let ongoing = match state
        .store
        .ongoing_games(&target.player_id, RESIGN_MAX)
        .await
    {
        Ok(games) => games,
        Err(e) => {
            tracing::warn!(user = %target.username, "closed: cannot list ongoing games: {e}");
            return;
        }
    };
    for g in ongoing {
        let resigned = state
            .live
            .act(&g.id, player.clone(), GameAction::Resign)
            .await;
        if resigned.is_err() {
            // A game too young to resign is aborted instead.
            if let Err(e) = state
                .live
                .act(&g.id, player.clone(), GameAction::Abort)
                .await
            {
                tracing::warn!(game = %g.id, "closed: cannot end an ongoing game: {e}");
            }
        }
    }
    tracing::info!(user = %target.username, "account closed by a moderator");
}

// ---------------------------------------------------------------- a record

#[derive(Serialize)]
struct MarkJson {
    mark: String,
    moderator: Option<String>,
    reason: String,
    at: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RecordJson {
    username: String,
    roles: Vec<Role>,
    marks: Vec<MarkJson>,
    reports: Vec<ReportJson>,
    /// The moderation log's entries about the player, newest first.
    notes: Vec<LogJson>,
    /// The fair-play verdicts (also in `evidence`).
    fair_play: plyyard_fairplay::Report,
    evidence: Evidence,
}

/// `GET /api/mod/user/{name}`: the player's roles, marks, reports and the
/// log entries about them.
async fn record(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    Path(name): Path<String>,
) -> Result<Json<RecordJson>, ApiError> {
    moderator(&store, session.as_ref()).await?;
    let target = named(&store, &name).await?;
    let id = &target.player_id;
    let roles = role_of(&store, id).await?.into_iter().collect();
    let marks = store
        .mod_marks(id)
        .await?
        .into_iter()
        .map(|m| MarkJson {
            mark: m.mark,
            moderator: m.moderator,
            reason: m.reason,
            at: rfc3339(m.at),
        })
        .collect();
    let reports = store.reports_about(id, QUEUE_MAX).await?;
    let notes = store.mod_log(Some(id), None, LOG_PAGE).await?;
    let evidence = evidence(&store, id).await?;
    Ok(Json(RecordJson {
        fair_play: evidence.fair_play.clone(),
        username: target.username.clone(),
        roles,
        marks,
        reports: reports.into_iter().map(ReportJson::from).collect(),
        notes: notes.into_iter().map(LogJson::from).collect(),
        evidence,
    }))
}

// ---------------------------------------------------------------- warnings

#[derive(Serialize)]
struct WarningJson {
    warning: Option<WarningFields>,
}

#[derive(Serialize)]
struct WarningFields {
    id: String,
    text: String,
    at: String,
}

/// `GET /api/account/warning`: the logged-in player's unread warning.
async fn warning(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<WarningJson>, ApiError> {
    let Some(s) = session else {
        return Ok(Json(WarningJson { warning: None }));
    };
    let w = store.unread_warning(&s.account.player_id).await?;
    Ok(Json(WarningJson {
        warning: w.map(|w| WarningFields {
            id: w.id,
            text: w.text,
            at: rfc3339(w.at),
        }),
    }))
}

/// `POST /api/account/warning/{id}/read`: the player read it.
async fn read_warning(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let s = session.ok_or_else(not_logged_in)?;
    if id.len() > 64
        || !store
            .read_warning(&s.account.player_id, &id, now_ms())
            .await?
    {
        return Err(ApiError::new(ErrorCode::NotFound, "no such unread warning"));
    }
    Ok(StatusCode::NO_CONTENT)
}
