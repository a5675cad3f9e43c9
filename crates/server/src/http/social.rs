//! The web app's own endpoints of the people around the games: a
//! player's follows and followers with the viewer's relation to them
//! (`GET /api/users/{name}/relations`), the followed players online
//! (`GET /api/friends/online`), the number of unread conversations
//! (`GET /api/inbox/unread`), the notifications (`GET
//! /api/notifications`, `POST /api/notifications/seen`) and the site
//! socket that pushes them (`/api/socket/site`, [`crate::ws::site`]).
//! Changes of relations and messages go through lichess's endpoints
//! (`/api/rel/…`, `/inbox/{username}`), which take the session too.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Serialize;

use crate::AppState;
use crate::error::{ApiError, ErrorCode, echo};
use crate::identity::Session;
use crate::security::same_origin;
use plyyard_accounts::rules::check_username;
use plyyard_social::Social;
use plyyard_social::notify::Note;
use plyyard_store::{Account, RelationKind, Store};

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/users/{name}/relations", get(relations))
        .route("/api/friends/online", get(online))
        .route("/api/inbox/unread", get(unread))
        .route("/api/notifications", get(notifications))
        .route("/api/notifications/seen", post(seen))
        .route("/api/socket/site", get(site_socket))
}

/// A player in a list.
#[derive(Serialize)]
struct UserJson {
    name: String,
    online: bool,
}

/// What the viewer holds about the player.
#[derive(Serialize)]
struct YouJson {
    following: bool,
    blocking: bool,
}

#[derive(Serialize)]
struct RelationsJson {
    following: Vec<UserJson>,
    followers: Vec<UserJson>,
    nb_following: u64,
    nb_followers: u64,
    /// `null` for a visitor and on one's own profile.
    you: Option<YouJson>,
}

fn logged_in(session: Option<Session>) -> Result<Account, ApiError> {
    session
        .map(|s| s.account)
        .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in first"))
}

async fn named(store: &Store, name: &str) -> Result<Account, ApiError> {
    let found = if check_username(name).is_ok() {
        store.account_named(name).await?
    } else {
        None
    };
    found.ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("no player {}", echo(name))))
}

async fn with_presence(social: &Social, accounts: Vec<Account>) -> Vec<UserJson> {
    let mut out = Vec::with_capacity(accounts.len());
    for a in accounts {
        out.push(UserJson {
            online: social.presence.is_online(&a.username.to_lowercase()).await,
            name: a.username,
        });
    }
    out
}

/// `GET /api/users/{name}/relations`.
async fn relations(
    State(store): State<Store>,
    State(social): State<Social>,
    Extension(session): Extension<Option<Session>>,
    Path(name): Path<String>,
) -> Result<Json<RelationsJson>, ApiError> {
    let player = named(&store, &name).await?;
    let rel = &social.relations;
    let (nb_following, nb_followers) = rel.counts(&player.player_id).await?;
    let you = match session {
        Some(s) if s.account.player_id != player.player_id => {
            let out = rel
                .between(&s.account.player_id, &player.player_id)
                .await?
                .out;
            Some(YouJson {
                following: out == Some(RelationKind::Follow),
                blocking: out == Some(RelationKind::Block),
            })
        }
        _ => None,
    };
    Ok(Json(RelationsJson {
        following: with_presence(&social, rel.following(&player.player_id).await?).await,
        followers: with_presence(&social, rel.followers(&player.player_id).await?).await,
        nb_following,
        nb_followers,
        you,
    }))
}

#[derive(Serialize)]
struct OnlineJson {
    online: Vec<UserJson>,
}

/// `GET /api/friends/online`: the followed players online now.
async fn online(
    State(social): State<Social>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<OnlineJson>, ApiError> {
    let me = logged_in(session)?;
    let online = social
        .relations
        .online_followed(&me.player_id, &social.presence)
        .await?;
    Ok(Json(OnlineJson {
        online: online
            .into_iter()
            .map(|a| UserJson {
                name: a.username,
                online: true,
            })
            .collect(),
    }))
}

#[derive(Serialize)]
struct UnreadJson {
    unread: u64,
}

/// `GET /api/inbox/unread`: how many conversations have a message the
/// account has not read.
async fn unread(
    State(social): State<Social>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<UnreadJson>, ApiError> {
    let me = logged_in(session)?;
    Ok(Json(UnreadJson {
        unread: social.inbox.unread(&me.player_id).await?,
    }))
}

#[derive(Serialize)]
struct NotesJson {
    unseen: u64,
    notes: Vec<Note>,
}

/// `GET /api/notifications`: the account's last notifications, newest
/// first, and how many it has not seen.
async fn notifications(
    State(social): State<Social>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<NotesJson>, ApiError> {
    let me = logged_in(session)?;
    let (notes, unseen) = social.notifications.list(&me.player_id).await?;
    Ok(Json(NotesJson { unseen, notes }))
}

/// `POST /api/notifications/seen`: every notification of the account
/// seen.
async fn seen(
    State(social): State<Social>,
    Extension(session): Extension<Option<Session>>,
) -> Result<Json<NotesJson>, ApiError> {
    let me = logged_in(session)?;
    social.notifications.see(&me.player_id).await?;
    let (notes, unseen) = social.notifications.list(&me.player_id).await?;
    Ok(Json(NotesJson { unseen, notes }))
}

/// `GET /api/socket/site`: the site socket of a logged-in account's page.
async fn site_socket(
    State(state): State<AppState>,
    Extension(session): Extension<Option<Session>>,
    held: Option<Extension<plyyard_social::Held>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = ws.map_err(|e| {
        ApiError::bad_request(format!("not a websocket upgrade: {}", e.body_text()))
    })?;
    if !same_origin(&headers, state.public_origin.as_deref()) {
        return Err(ApiError::forbidden("websocket from a foreign origin"));
    }
    let me = logged_in(session)?;
    let sockets = state.sockets.clone();
    // An ended session's site socket is dropped, as its other sockets.
    let ended = crate::ws::ended(held.map(|Extension(h)| h));
    Ok(crate::ws::bounded_socket(ws).on_upgrade(move |socket| {
        sockets.track_future(async move {
            tokio::select! {
                () = crate::ws::site::session(state, me, socket) => {}
                () = ended => {}
            }
        })
    }))
}
