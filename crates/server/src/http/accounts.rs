//! The account endpoints (`/api/account/*`) and player profiles
//! (`/api/users/{name}`, `/api/users/{name}/games`).
//!
//! Log-in and sign-up always issue a new session id (never the one the
//! client had), move the browser's anonymous games to the account, and
//! drop the anonymous cookie, so that logging out leaves nothing of the
//! account behind.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use plyyard_rating::RatingsJson;
use serde::{Deserialize, Serialize};

use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode, echo};
use crate::identity::{
    IdentityChanged, PlayerId, SESSION_TTL_MS, Session, Sessions, clear_player_cookie,
    new_session_id, session_cookie,
};
use crate::lichess::game_search::SearchQuery;
use crate::protocol::{GameListItem, SeatJson};
use crate::security::ClientIp;
use crate::{AppState, Shared};
use plyyard_accounts::rules::{PASSWORD_MAX, USERNAME_MAX, check_password_form, check_username};
use plyyard_live::{rfc3339, seat_name};
use plyyard_social::{Credential, EndReason};
use plyyard_store::{Account, GameRow, LogIn, NewAccount, NewSession, Store, StoreError, now_ms};

/// Names nobody may sign up with: they are path segments of our own
/// (`/api/users/status`), so a player of that name could not be reached.
pub const RESERVED_NAMES: [&str; 1] = ["status"];

/// Games per profile page.
pub const PAGE_SIZE: u32 = 20;
/// Highest profile page served.
const MAX_PAGE: u64 = 10_000;

/// The routes, to be put under the identity middleware.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/session", get(session_account))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/password", post(change_password))
        .route("/api/account/delete", post(delete_account))
        .route("/api/users/{name}", get(user))
        .route("/api/users/{name}/games", get(user_games))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
    /// An invitation code (sign-up while sign-ups are by invitation).
    #[serde(default)]
    invite: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: String,
}

#[derive(Serialize)]
struct Username {
    username: String,
}

#[derive(Serialize)]
struct AccountJson {
    username: String,
    created_at: String,
}

impl From<&Account> for AccountJson {
    fn from(a: &Account) -> AccountJson {
        AccountJson {
            username: a.username.clone(),
            created_at: rfc3339(a.created_at),
        }
    }
}

type Body = JsonBody;

fn not_logged_in() -> ApiError {
    ApiError::new(ErrorCode::NotLoggedIn, "log in first")
}

fn bad_credentials() -> ApiError {
    ApiError::new(ErrorCode::BadCredentials, "wrong username or password")
}

/// Adds cookies to a response and tells the identity middleware to leave
/// the cookies alone.
fn with_cookies(mut resp: Response, cookies: &[String]) -> Response {
    for c in cookies {
        if let Ok(v) = HeaderValue::from_str(c) {
            resp.headers_mut().append(SET_COOKIE, v);
        }
    }
    resp.extensions_mut().insert(IdentityChanged);
    resp
}

/// The session a log-in or sign-up stores: a fresh id (never the one the
/// client had), ending the request's old session, taking over the
/// anonymous player's games.
fn log_in<'a>(
    hash: &'a str,
    account_player: &'a str,
    previous: Option<&'a Session>,
    anonymous: Option<&'a PlayerId>,
    address: &'a str,
) -> LogIn<'a> {
    let now = now_ms();
    LogIn {
        session: NewSession {
            id_hash: hash,
            player_id: account_player,
            now,
            expires_at: now + SESSION_TTL_MS,
        },
        replaces: previous.map(|s| s.id_hash.as_str()),
        adopt: anonymous.map(|p| p.0.as_str()),
        address: Some(address),
    }
}

/// Answers a log-in or sign-up with its session cookie, once the games it
/// took over know their new seat.
async fn session_started(
    state: &AppState,
    account: &Account,
    id: &str,
    moved: (Option<&PlayerId>, Vec<String>),
    status: StatusCode,
) -> Result<Response, ApiError> {
    if let (Some(anon), ongoing) = moved {
        reseat(state, anon, account, ongoing).await;
    }
    let body = Json(Username {
        username: account.username.clone(),
    });
    Ok(with_cookies(
        (status, body).into_response(),
        &[
            session_cookie(Some(id), state.secure_cookies),
            clear_player_cookie(state.secure_cookies),
        ],
    ))
}

/// Tells the live games moved from an anonymous player who now sits on
/// the seat.
async fn reseat(state: &AppState, anon: &PlayerId, account: &Account, ongoing: Vec<String>) {
    let to = PlayerId(account.player_id.clone());
    for id in ongoing {
        let reseat = state.live.reseat(&id, anon.clone(), to.clone()).await;
        if let Err(e) = reseat {
            tracing::warn!(game = %id, "cannot reseat a moved game: {e}");
        }
    }
}

/// Who is logged in, asked without an error status: the web app asks this
/// on every page, and an anonymous visitor is not a failed request.
#[derive(Serialize)]
struct SessionJson {
    account: Option<AccountJson>,
    /// The account's staff role (`moderator`, `admin`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<String>,
}

async fn session_account(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<SessionJson>, ApiError> {
    let role = match &session {
        Some(s) => store.staff_role(&s.account.player_id).await?,
        None => None,
    };
    Ok(Json(SessionJson {
        account: session.as_ref().map(|s| AccountJson::from(&s.account)),
        role,
    }))
}

async fn signup(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    Extension(player): Extension<PlayerId>,
    Extension(session): Extension<Option<Session>>,
    body: Body,
) -> Result<Response, ApiError> {
    let c: Credentials = json_body(body, "sign-up")?;
    check_username(&c.username)?;
    check_password_form(&c.password, &c.username)?;
    let invite = super::site::invite_needed(&state.store, c.invite.as_deref()).await?;
    state.limits.check_signup(ip).await?;
    if RESERVED_NAMES.contains(&c.username.to_lowercase().as_str())
        || state.store.account_by_name(&c.username).await?.is_some()
    {
        return Err(taken(&c.username));
    }
    let hash = state.hasher.hash_new(&c.password, &c.username).await?;
    let account_id = crate::identity::new_player_id();
    let new = NewAccount {
        player_id: &account_id.0,
        username: &c.username,
        password_hash: &hash,
        now: now_ms(),
    };
    let anonymous = session.is_none().then_some(&player);
    let (id, id_hash) = new_session_id();
    let address = ip.0.to_string();
    let login = log_in(
        &id_hash,
        &account_id.0,
        session.as_ref(),
        anonymous,
        &address,
    );
    let (account, moved) = match state.store.sign_up(&new, &login, invite).await {
        Ok(done) => done,
        Err(StoreError::Taken(_)) => return Err(taken(&c.username)),
        Err(StoreError::Uninvited) => return Err(super::site::uninvited()),
        Err(e) => return Err(e.into()),
    };
    tracing::info!(username = %account.username, "account created");
    let moved = (anonymous, moved);
    session_started(&state, &account, &id, moved, StatusCode::CREATED).await
}

fn taken(name: &str) -> ApiError {
    ApiError::new(
        ErrorCode::UsernameTaken,
        format!("the name {name:?} is taken"),
    )
}

async fn login(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    Extension(player): Extension<PlayerId>,
    Extension(session): Extension<Option<Session>>,
    body: Body,
) -> Result<Response, ApiError> {
    let c: Credentials = json_body(body, "log-in")?;
    // Over-long input cannot match any account: refuse it before hashing.
    if c.username.len() > USERNAME_MAX * 4 || c.password.chars().count() > PASSWORD_MAX {
        return Err(bad_credentials());
    }
    state.limits.check_login(ip, &c.username).await?;
    let row = state.store.account_by_name(&c.username).await?;
    let ok = state
        .hasher
        .verify(&c.password, row.as_ref().map(|r| r.password_hash.as_str()))
        .await?;
    let Some(row) = row.filter(|_| ok) else {
        tracing::info!(ip = %ip.0, "failed log-in");
        return Err(bad_credentials());
    };
    if state
        .store
        .has_mark(&row.account.player_id, "close")
        .await?
    {
        tracing::info!(ip = %ip.0, "log-in to a closed account");
        return Err(
            ApiError::forbidden("this account is closed by the moderators")
                .with_reason("account_closed"),
        );
    }
    state.limits.login_succeeded(&c.username).await;
    let anonymous = session.is_none().then_some(&player);
    let (id, id_hash) = new_session_id();
    let account = &row.account;
    let address = ip.0.to_string();
    let login = log_in(
        &id_hash,
        &account.player_id,
        session.as_ref(),
        anonymous,
        &address,
    );
    let moved = (anonymous, state.store.log_in(&login).await?);
    session_started(&state, account, &id, moved, StatusCode::OK).await
}

async fn logout(
    State(sessions): State<Sessions>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Response, ApiError> {
    if let Some(s) = session {
        sessions.store.delete_session(&s.id_hash).await?;
        sessions
            .revocation
            .end_credential(Credential::Session(s.id_hash), EndReason::LoggedOut);
    }
    Ok(with_cookies(
        StatusCode::NO_CONTENT.into_response(),
        &[session_cookie(None, sessions.secure_cookies)],
    ))
}

/// Checks the account's password for a change it confirms.
async fn confirm_password(
    state: &Shared,
    ip: ClientIp,
    session: &Session,
    password: &str,
) -> Result<(), ApiError> {
    let name = &session.account.username;
    state.limits.check_login(ip, name).await?;
    let row = state
        .store
        .account_row(&session.account.player_id)
        .await?
        .ok_or_else(not_logged_in)?;
    if password.chars().count() > PASSWORD_MAX
        || !state
            .hasher
            .verify(password, Some(&row.password_hash))
            .await?
    {
        return Err(ApiError::new(
            ErrorCode::WrongPassword,
            "the current password is wrong",
        ));
    }
    state.limits.login_succeeded(name).await;
    Ok(())
}

async fn change_password(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    Extension(session): Extension<Option<Session>>,
    body: Body,
) -> Result<StatusCode, ApiError> {
    let session = session.ok_or_else(not_logged_in)?;
    let c: PasswordChange = json_body(body, "password change")?;
    check_password_form(&c.new, &session.account.username)?;
    confirm_password(&state, ip, &session, &c.current).await?;
    let hash = state
        .hasher
        .hash_new(&c.new, &session.account.username)
        .await?;
    let player = &session.account.player_id;
    state.store.set_password(player, &hash).await?;
    let ended = state
        .store
        .delete_other_sessions(player, &session.id_hash)
        .await?;
    // Its streams and other sessions' sockets end (on every node); this
    // session's go on.
    state.social.revocation.end_other_streams(
        player,
        Credential::Session(session.id_hash.clone()),
        EndReason::PasswordChanged,
    );
    tracing::info!(username = %session.account.username, ended, "password changed");
    Ok(StatusCode::NO_CONTENT)
}

async fn delete_account(
    State(state): State<AppState>,
    Extension(ip): Extension<ClientIp>,
    Extension(session): Extension<Option<Session>>,
    body: Body,
) -> Result<Response, ApiError> {
    let session = session.ok_or_else(not_logged_in)?;
    let d: Deletion = json_body(body, "account deletion")?;
    confirm_password(&state, ip, &session, &d.password).await?;
    let canceled = state
        .store
        .delete_account(&session.account.player_id, now_ms())
        .await?;
    state
        .social
        .revocation
        .end_account_streams(&session.account.player_id, EndReason::Deleted);
    state.pairing.canceled_with_account(&canceled);
    state
        .live
        .refresh_seats(&PlayerId(session.account.player_id.clone()))
        .await;
    tracing::info!(username = %session.account.username, "account deleted");
    Ok(with_cookies(
        StatusCode::NO_CONTENT.into_response(),
        &[session_cookie(None, state.secure_cookies)],
    ))
}

async fn named(store: &Store, name: &str) -> Result<Account, ApiError> {
    let found = if check_username(name).is_ok() {
        store.account_named(name).await?
    } else {
        None
    };
    found.ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("no player {}", echo(name))))
}

/// A public profile: the account and its ratings at every speed, its
/// rated games won, drawn and lost per speed played, and whether the
/// moderators closed it.
#[derive(Serialize)]
struct ProfileJson {
    #[serde(flatten)]
    account: AccountJson,
    ratings: RatingsJson,
    results: std::collections::BTreeMap<&'static str, ResultsJson>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
}

/// Rated games won, drawn and lost at one speed.
#[derive(Serialize)]
struct ResultsJson {
    win: u32,
    draw: u32,
    loss: u32,
}

async fn user(
    State(store): State<Store>,
    Path(name): Path<String>,
) -> Result<Json<ProfileJson>, ApiError> {
    let account = named(&store, &name).await?;
    let ratings = store.ratings(&account.player_id).await?;
    let results = store
        .results_by_speed(&account.player_id)
        .await?
        .into_iter()
        .map(|(speed, win, draw, loss)| (speed.as_str(), ResultsJson { win, draw, loss }))
        .collect();
    let closed = store.has_mark(&account.player_id, "close").await?;
    Ok(Json(ProfileJson {
        account: AccountJson::from(&account),
        ratings: RatingsJson::new(&ratings, now_ms()),
        results,
        closed,
    }))
}

#[derive(Deserialize)]
struct PageQuery {
    page: Option<u64>,
    /// Games created at or after this Unix millisecond.
    since: Option<i64>,
    /// Games created at or before this Unix millisecond.
    until: Option<i64>,
}

#[derive(Serialize)]
struct GamesPage {
    games: Vec<GameListItem>,
    page: u64,
    more: bool,
}

async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    q: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
    search: Result<Query<SearchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GamesPage>, ApiError> {
    let Query(q) = q.map_err(|_| {
        ApiError::bad_request("`page` must be a positive integer, `since` and `until` Unix ms")
    })?;
    let Query(search) = search.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let page = q.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::bad_request(format!(
            "`page` must be between 1 and {MAX_PAGE}"
        )));
    }
    let account = named(&state.store, &name).await?;
    let Some(filter) = search.filter(&state.store).await? else {
        return Ok(Json(GamesPage {
            games: Vec::new(),
            page,
            more: false,
        }));
    };
    let filter = plyyard_store::GameFilter {
        since: q.since,
        until: q.until,
        ..filter
    };
    let offset = (page - 1) * u64::from(PAGE_SIZE);
    let mut rows = state
        .store
        .search_games(&account.player_id, &filter, offset, PAGE_SIZE + 1)
        .await?;
    let more = rows.len() > PAGE_SIZE as usize;
    rows.truncate(PAGE_SIZE as usize);
    let rated: Vec<&str> = rows
        .iter()
        .filter(|r| r.table.as_ref().is_some_and(|t| t.rated))
        .map(|r| r.id.as_str())
        .collect();
    let diffs = state.store.rating_diffs(&account.player_id, &rated).await?;
    let mut names: HashMap<Option<String>, SeatJson> = HashMap::new();
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let white = seat(&state, &mut names, &row, row.white_player.clone()).await?;
        let black = seat(&state, &mut names, &row, row.black_player.clone()).await?;
        let diff = diffs.get(&row.id).copied();
        games.push(list_item(row, white, black, diff));
    }
    Ok(Json(GamesPage { games, page, more }))
}

/// The seat of `player` in `row`, looked up once per request and player.
async fn seat(
    state: &Shared,
    cache: &mut HashMap<Option<String>, SeatJson>,
    row: &GameRow,
    player: Option<String>,
) -> Result<SeatJson, StoreError> {
    if player.is_none() {
        return Ok(SeatJson::computer(row.level));
    }
    if let Some(s) = cache.get(&player) {
        return Ok(s.clone());
    }
    let s = seat_name(
        &state.store,
        &plyyard_live::Seat::of(player.as_deref(), row.level),
    )
    .await?;
    cache.insert(player, s.clone());
    Ok(s)
}

fn list_item(g: GameRow, white: SeatJson, black: SeatJson, diff: Option<i64>) -> GameListItem {
    let control = g.control();
    let perf = plyyard_wire::lichess::perf_of_control(g.variant.as_str(), control);
    GameListItem {
        rated: g.table.as_ref().is_some_and(|t| t.rated),
        perf,
        clock: control.map(|c| format!("{}+{}", c.minutes_text(), c.increment_secs())),
        rating_diff: diff,
        id: g.id,
        kind: g.kind.as_str(),
        level: g.level.map(plyyard_engine::Level::as_str),
        variant: g.variant.as_str(),
        rules: g.rules.as_str(),
        status: g.summary.status.as_str(),
        result: g.summary.result.as_str(),
        reason: g.summary.reason.map(plyyard_game::Reason::as_str),
        plies: g.summary.plies,
        created_at: rfc3339(g.created_at),
        updated_at: rfc3339(g.summary.updated_at),
        white,
        black,
    }
}
