//! Table routes: open a table, look one up, sit down, cancel, the lobby's
//! list and its live socket (`docs/protocol.md`, "Tables").

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};

use std::sync::Arc;

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode};
use crate::identity::{PlayerId, Session};
use crate::security::{AccountKey, ClientIp, Limits, same_origin};
use plyyard_pairing::Pairing;
use plyyard_pairing::listing;
use plyyard_pairing::tables::{NewTable, TableJson};
use plyyard_store::TableRow;

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
async fn sought(
    pairing: &Pairing,
    limits: &Limits,
    code: &str,
    who: &Seeker,
) -> Result<TableRow, ApiError> {
    let found = pairing.table(code).await;
    let reveals = match &found {
        Ok(t) => !t.public && t.host != who.player.0 && t.guest.as_ref() != Some(&who.player.0),
        Err(e) => e.code == ErrorCode::NotFound,
    };
    if reveals {
        limits
            .check_table_lookup(who.ip, who.account.as_ref())
            .await?;
    }
    found
}

async fn open_table(
    State(pairing): State<Pairing>,
    State(limits): State<Arc<Limits>>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    body: JsonBody,
) -> Result<(StatusCode, Json<TableJson>), ApiError> {
    let session = logged_in(session)?;
    let req: NewTable = json_body(body, "table")?;
    req.time_control()?;
    let host = &session.account.player_id;
    limits
        .check_tables(ip, Some(&AccountKey(host.clone())))
        .await?;
    let json = pairing.open_table(host, &req).await?;
    tracing::info!(table = %json.code, host = %session.account.username, "table opened");
    Ok((StatusCode::CREATED, Json(json)))
}

async fn get_table(
    State(pairing): State<Pairing>,
    State(limits): State<Arc<Limits>>,
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
    let t = sought(&pairing, &limits, &code, &who).await?;
    Ok(Json(pairing.table_json(&t).await?))
}

async fn join_table(
    State(pairing): State<Pairing>,
    State(limits): State<Arc<Limits>>,
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
    let t = sought(&pairing, &limits, &code, &who).await?;
    Ok(Json(pairing.join_table(&t, &guest).await?))
}

async fn cancel_table(
    State(pairing): State<Pairing>,
    State(limits): State<Arc<Limits>>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    Path(code): Path<String>,
) -> Result<StatusCode, ApiError> {
    let session = logged_in(session)?;
    let account = AccountKey(session.account.player_id.clone());
    limits.check_tables(ip, Some(&account)).await?;
    let who = Seeker {
        ip,
        account: Some(account),
        player: PlayerId(session.account.player_id.clone()),
    };
    let t = sought(&pairing, &limits, &code, &who).await?;
    pairing.close_table(&t, &session.account.player_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn lobby(State(pairing): State<Pairing>) -> Result<Json<listing::LobbyJson>, ApiError> {
    Ok(Json(pairing.lobby_json().await?))
}

async fn lobby_socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    held: Option<Extension<plyyard_social::Held>>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| {
        ApiError::bad_request(format!("not a websocket upgrade: {}", e.body_text()))
    })?;
    if !same_origin(&headers, state.public_origin.as_deref()) {
        return Err(ApiError::forbidden("websocket from a foreign origin"));
    }
    let sockets = state.sockets.clone();
    let ended = crate::ws::ended(held.map(|Extension(h)| h));
    Ok(crate::ws::bounded_socket(ws).on_upgrade(move |socket| {
        sockets.track_future(async move {
            // An ended session's lobby socket is dropped: the client
            // reconnects as who it is now.
            tokio::select! {
                () = crate::ws::lobby::session(state, socket) => {}
                () = ended => {}
            }
        })
    }))
}
