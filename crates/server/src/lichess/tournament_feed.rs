//! The live feeds of tournament pages (`docs/protocol.md`, "Tournament
//! sockets"): `GET /api/tournament/{id}/socket` and
//! `GET /api/swiss/{id}/socket` are websockets that get the tournament as
//! `GET /api/tournament/{id}` (page 1) or `GET /api/swiss/{id}` show it,
//! at once and again within about [`FEED_POLL`] of any
//! change: a game paired, ended or berserked, a player joining or pausing,
//! a round, the status, a chat line. The tournament's feed mark tells a
//! change cheaply; a change is rendered once per node for all its
//! watchers (see [`plyyard_tournaments::feed`]).
//!
//! Each message: `{"t":"arena"|"swiss","data":{…},"finished":N,
//! "changedAt":ms|null,"chat":N}`: `finished` games scored so far,
//! `changedAt` the end of the latest one scored (Unix ms), `chat` the
//! number of the latest chat line (the page reads the lines itself, as
//! each viewer may see different ones).

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use plyyard_store::FeedMark;
#[cfg(doc)]
use plyyard_tournaments::feed::FEED_POLL;
use plyyard_tournaments::feed::{Change, Polled, Poller, change};
use serde_json::{Value, json};

use super::error::{LiError, LiResult};
use super::tournaments::{ArenaDoors, li_error};
use crate::security::same_origin;
use crate::state::AppState;

/// Which page a feed serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Arena,
    Swiss,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::Swiss => "swiss",
        }
    }
}

/// Polls one tournament: its mark, and its rendering when the mark moved.
struct TournamentPoller {
    doors: ArenaDoors,
    kind: Kind,
    id: String,
    mark: Option<FeedMark>,
    data: Option<Value>,
}

impl TournamentPoller {
    async fn render(&self) -> LiResult<Value> {
        match self.kind {
            Kind::Arena => super::tournaments::page_one(&self.doors, &self.id).await,
            Kind::Swiss => super::swiss::show_value(&self.doors, &self.id).await,
        }
    }
}

impl Poller for TournamentPoller {
    async fn poll(&mut self) -> Polled {
        let mark = match self.doors.tournaments.feed_mark(&self.id).await {
            Ok(Some(mark)) => mark,
            Ok(None) => return Polled::Gone,
            Err(e) => {
                tracing::warn!(tournament = %self.id, "tournament feed: {e}");
                return Polled::Same;
            }
        };
        let Some(what) = change(self.mark.as_ref(), &mark) else {
            return Polled::Same;
        };
        if self.data.is_none() || what == Change::Tournament {
            match self.render().await {
                Ok(v) => self.data = Some(v),
                Err(e) => {
                    tracing::warn!(tournament = %self.id, "tournament feed: {}", e.message);
                    return Polled::Same;
                }
            }
        }
        let text = json!({
            "t": self.kind.as_str(),
            "data": self.data,
            "finished": mark.finished,
            "changedAt": mark.last_finished_at,
            "chat": mark.chat,
        })
        .to_string();
        self.mark = Some(mark);
        Polled::Changed(Arc::from(text))
    }
}

/// `GET /api/tournament/{id}/socket` (ours): an Arena's live feed.
pub(super) async fn arena_socket(
    state: State<AppState>,
    headers: HeaderMap,
    id: Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> LiResult<Response> {
    socket(Kind::Arena, state, headers, id, ws).await
}

/// `GET /api/swiss/{id}/socket` (ours): a Swiss's live feed.
pub(super) async fn swiss_socket(
    state: State<AppState>,
    headers: HeaderMap,
    id: Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> LiResult<Response> {
    socket(Kind::Swiss, state, headers, id, ws).await
}

async fn socket(
    kind: Kind,
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> LiResult<Response> {
    let ws = ws
        .map_err(|e| LiError::bad_request(format!("not a websocket upgrade: {}", e.body_text())))?;
    if !same_origin(&headers, state.public_origin.as_deref()) {
        return Err(LiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "websocket from a foreign origin",
        ));
    }
    let doors = ArenaDoors::from_state(&state);
    // Unknown ids are refused here, before a feed is made for them.
    match kind {
        Kind::Arena => drop(doors.tournaments.get(&id).await.map_err(li_error)?),
        Kind::Swiss => drop(doors.tournaments.swiss(&id).await.map_err(li_error)?),
    }
    let key = format!("{}:{id}", kind.as_str());
    let (first, rx) = state.feeds.subscribe(&key, || TournamentPoller {
        doors,
        kind,
        id,
        mark: None,
        data: None,
    });
    let stopping = state.shutting_down.subscribe();
    let sockets = state.sockets.clone();
    Ok(crate::ws::bounded_socket(ws).on_upgrade(move |socket| {
        sockets.track_future(crate::ws::feed::session(socket, first, rx, stopping))
    }))
}
