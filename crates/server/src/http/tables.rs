//! Table routes: open a table, look one up, sit down, cancel, the lobby's
//! list and its live socket (`docs/protocol.md`, "Tables").

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};

use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode, echo};
use crate::identity::{PlayerId, Session};
use crate::security::same_origin;
use crate::security::{AccountKey, ClientIp};
use crate::{AppState, Shared};
use plyyard_pairing::listing;
use plyyard_pairing::lobby::LobbyMsg;
use plyyard_pairing::tables::{self, MAX_OPEN, NewTable, OPEN_FOR, TableJson, normalize_code};
use plyyard_store::{TableRow, TableStatus, now_ms};

/// The table routes, to be put under the identity middleware.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tables", post(open_table))
        .route("/api/tables/{code}", get(get_table))
        .route("/api/tables/{code}/join", post(join_table))
        .route("/api/tables/{code}/cancel", post(cancel_table))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/socket", get(lobby_socket))
}

fn logged_in(session: Option<Session>) -> Result<Session, ApiError> {
    let session = session
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in to play at a table"))?;
    if session.account.bot {
        return Err(ApiError::forbidden(
            "bot accounts play through the Bot API: tables and quick pairing are for people",
        ));
    }
    Ok(session)
}

fn no_table(code: &str) -> ApiError {
    ApiError::new(ErrorCode::NotFound, format!("no table {}", echo(code)))
}

async fn stored(state: &Shared, code: &str) -> Result<TableRow, ApiError> {
    let code = normalize_code(code).ok_or_else(|| no_table(code))?;
    state
        .store
        .table(&code)
        .await?
        .ok_or_else(|| no_table(&code))
}

/// Who looks a table up by its code, for the guard against guessing.
struct Seeker {
    ip: ClientIp,
    account: Option<AccountKey>,
    player: PlayerId,
}

/// [`stored`] for a look-up by a code the client typed or guessed: an
/// unknown code, or a private table the seeker does not sit at, counts
/// against the seeker's look-ups per minute
/// ([`crate::security::Limits::check_table_lookup`]), and once those are
/// used up every such answer is `429` (a found table included, so that
/// the answers tell nothing). Public tables are listed by the lobby
/// anyway, and a table's players poll it: those are not counted.
async fn sought(state: &Shared, code: &str, who: &Seeker) -> Result<TableRow, ApiError> {
    let found = stored(state, code).await;
    let reveals = match &found {
        Ok(t) => !t.public && t.host != who.player.0 && t.guest.as_ref() != Some(&who.player.0),
        Err(e) => e.code == ErrorCode::NotFound,
    };
    if reveals {
        state
            .limits
            .check_table_lookup(who.ip, who.account.as_ref())
            .await?;
    }
    found
}

async fn open_table(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    body: JsonBody,
) -> Result<(StatusCode, Json<TableJson>), ApiError> {
    let session = logged_in(session)?;
    let req: NewTable = json_body(body, "table")?;
    req.time_control()?;
    let host = &session.account.player_id;
    let account = AccountKey(host.clone());
    state.limits.check_tables(ip, Some(&account)).await?;
    let now = now_ms();
    let expires_at = now + i64::try_from(OPEN_FOR.as_millis()).unwrap_or(i64::MAX);
    let mut row = TableRow {
        code: tables::new_code(),
        host: host.clone(),
        guest: None,
        variant: req.variant,
        minutes: req.minutes,
        increment_s: req.increment,
        rules: req.rules,
        rated: req.rated,
        public: req.public,
        status: TableStatus::Open,
        game_id: None,
        created_at: now,
        expires_at,
    };
    // A fresh code is taken once in about 10^8 draws; try a few.
    for attempt in 0.. {
        match state.store.insert_table(&row, MAX_OPEN).await {
            Ok(true) => break,
            Ok(false) => {
                return Err(ApiError::new(
                    ErrorCode::TooManyTables,
                    format!("at most {MAX_OPEN} open tables at once"),
                ));
            }
            Err(plyyard_store::StoreError::Taken(_)) if attempt < 5 => {
                row.code = tables::new_code()
            }
            Err(e) => return Err(e.into()),
        }
    }
    let json = listing::table_json(&state.store, &row).await?;
    if row.public {
        state.pairing.lobby.publish(&LobbyMsg::Add {
            table: Box::new(json.clone()),
        });
    }
    tracing::info!(table = %row.code, host = %session.account.username, "table opened");
    Ok((StatusCode::CREATED, Json(json)))
}

async fn get_table(
    State(state): State<AppState>,
    Extension(player): Extension<PlayerId>,
    Extension(ip): Extension<ClientIp>,
    account: Option<Extension<AccountKey>>,
    Path(code): Path<String>,
) -> Result<Json<TableJson>, ApiError> {
    let who = Seeker {
        ip,
        account: account.map(|Extension(a)| a),
        player,
    };
    let t = sought(&state, &code, &who).await?;
    Ok(Json(listing::table_json(&state.store, &t).await?))
}

async fn join_table(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    Path(code): Path<String>,
) -> Result<Json<TableJson>, ApiError> {
    let session = logged_in(session)?;
    let guest = PlayerId(session.account.player_id.clone());
    let who = Seeker {
        ip,
        account: Some(AccountKey(guest.0.clone())),
        player: guest.clone(),
    };
    let t = sought(&state, &code, &who).await?;
    if t.host == guest.0 {
        return Err(ApiError::new(ErrorCode::OwnTable, "this is your own table"));
    }
    let refused = |t: &TableRow| match t.status {
        TableStatus::Playing => ApiError::new(ErrorCode::TableTaken, "someone else sat down first"),
        _ => ApiError::new(ErrorCode::TableClosed, "this table is closed"),
    };
    if t.status != TableStatus::Open || t.expires_at <= now_ms() {
        return Err(refused(&t));
    }
    if state.live.start_table_game(&t, &guest).await?.is_none() {
        let now = stored(&state, &t.code).await?;
        return Err(refused(&now));
    }
    state.pairing.lobby.publish(&LobbyMsg::Remove {
        code: t.code.clone(),
    });
    let t = stored(&state, &t.code).await?;
    Ok(Json(listing::table_json(&state.store, &t).await?))
}

async fn cancel_table(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    Path(code): Path<String>,
) -> Result<StatusCode, ApiError> {
    let session = logged_in(session)?;
    let account = AccountKey(session.account.player_id.clone());
    state.limits.check_tables(ip, Some(&account)).await?;
    let who = Seeker {
        ip,
        account: Some(account),
        player: PlayerId(session.account.player_id.clone()),
    };
    let t = sought(&state, &code, &who).await?;
    if t.host != session.account.player_id {
        return Err(ApiError::forbidden("only the host may close a table"));
    }
    if !state.store.close_table(&t.code).await? {
        return Err(ApiError::new(
            ErrorCode::TableTaken,
            "the table is no longer open",
        ));
    }
    state
        .pairing
        .lobby
        .publish(&LobbyMsg::Remove { code: t.code });
    Ok(StatusCode::NO_CONTENT)
}

async fn lobby(State(state): State<AppState>) -> Result<Json<listing::LobbyJson>, ApiError> {
    Ok(Json(listing::LobbyJson {
        tables: listing::open_tables(&state.store).await?,
        seeks: state.pairing.seeks.lobby_json().await,
    }))
}

async fn lobby_socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| {
        ApiError::bad_request(format!("not a websocket upgrade: {}", e.body_text()))
    })?;
    if !same_origin(&headers, state.public_origin.as_deref()) {
        return Err(ApiError::forbidden("websocket from a foreign origin"));
    }
    let sockets = state.sockets.clone();
    Ok(super::socket::bounded_socket(ws)
        .on_upgrade(move |socket| sockets.track_future(crate::ws::lobby::session(state, socket))))
}
