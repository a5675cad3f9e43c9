//! Quick-pairing routes (`docs/protocol.md`, "Quick pairing"): `POST
//! /api/seeks` seeks a game and holds the request open until paired (the
//! seek dies with the request), `DELETE /api/seeks` cancels the caller's
//! seek.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Extension, Json, Router};

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::{ApiError, ErrorCode};
use crate::identity::Session;
use crate::security::{AccountKey, ClientIp};
use plyyard_pairing::Pairing;
use plyyard_pairing::seeks::{NewSeek, PairedJson, seeker_for};

/// The quick-pairing routes, to be put under the identity middleware.
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api/seeks", post(seek).delete(cancel))
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

/// Seeks a game and answers once paired. The seek is held by this
/// request: when the client goes away the handler is dropped, and with it
/// the seek.
async fn seek(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    Extension(ip): Extension<ClientIp>,
    body: JsonBody,
) -> Result<Json<PairedJson>, ApiError> {
    let session = logged_in(session)?;
    let req: NewSeek = json_body(body, "seek")?;
    let key = req.key()?;
    state
        .limits
        .check_seeks(ip, Some(&AccountKey(session.account.player_id.clone())))
        .await?;
    let seeker = seeker_for(&state.store, &session.account, &key, ip.0).await?;
    let mut stopping = state.shutting_down.subscribe();
    let mut handle = state.pairing.seeks.seek(seeker, key).await;
    tokio::select! {
        answer = handle.paired() => answer.map(Json),
        _ = stopping.wait_for(|s| *s) => Err(ApiError::new(
            ErrorCode::Conflict,
            "the server is restarting: seek again",
        )),
    }
}

/// Cancels the caller's waiting seek: `204`, or `404` when none waits.
async fn cancel(
    State(pairing): State<Pairing>,
    Extension(session): Extension<Option<Session>>,
) -> Result<StatusCode, ApiError> {
    let session = logged_in(session)?;
    if pairing
        .seeks
        .cancel_player(&session.account.player_id)
        .await
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::new(ErrorCode::NotFound, "no seek is waiting"))
    }
}
