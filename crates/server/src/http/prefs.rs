//! An account's preferences over HTTP (`docs/protocol.md`): `GET
//! /api/prefs` and `POST /api/prefs` (some keys, each with its new value:
//! all applied or none) for the logged-in web app (lichess's `GET
//! /api/account/preferences` is `lichess::users`'s). The rules are
//! `plyyard_accounts::prefs`'s; the row is the store's. A browser without
//! an account keeps its preferences itself.

use axum::extract::State;
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde_json::{Map, Value};

use crate::AppState;
use crate::body::{JsonBody, json_body};
use crate::error::ApiError;
use crate::identity::Session;
use plyyard_accounts::prefs::Prefs;
use plyyard_store::{Store, now_ms};
use plyyard_wire::error::ErrorCode;

/// The routes, to be put under the identity middleware.
pub fn router() -> Router<AppState> {
    Router::new().route("/api/prefs", get(read).post(change))
}

/// `player`'s preferences (the defaults where none are stored).
async fn prefs_of(store: &Store, player: &str) -> Result<Prefs, ApiError> {
    Ok(Prefs::of_account(store.prefs(player).await?.as_deref()))
}

fn account_of(session: Option<Session>) -> Result<plyyard_store::Account, ApiError> {
    session
        .map(|s| s.account)
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in first"))
}

async fn read(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<Prefs>, ApiError> {
    let me = account_of(session)?;
    Ok(Json(prefs_of(&store, &me.player_id).await?))
}

async fn change(
    State(store): State<Store>,
    Extension(session): Extension<Option<Session>>,
    body: JsonBody,
) -> Result<Json<Prefs>, ApiError> {
    let me = account_of(session)?;
    let change: Map<String, Value> = json_body(body, "JSON object of preferences")?;
    let next = prefs_of(&store, &me.player_id)
        .await?
        .with(&change)
        .map_err(|e| ApiError::bad_request(e.0))?;
    let text = serde_json::to_string(&next).map_err(|e| ApiError::internal(e.to_string()))?;
    store.set_prefs(&me.player_id, &text, now_ms()).await?;
    Ok(Json(next))
}
