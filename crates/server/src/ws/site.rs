//! The site socket every page of a logged-in account holds
//! (`/api/socket/site`): it counts the account as online while open
//! ([`plyyard_social::Presence`]), tells the number of unseen
//! notifications at once (`{"t":"hello","unseen":n}`), then pushes each
//! new notification as it is made (`{"t":"notify","note":{…},"unseen":n}`).
//! The client has nothing to say on it but pings; what it sends goes
//! through a [`FloodGuard`], and a flood closes the socket.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use tokio::sync::broadcast;

use super::{FloodGuard, Verdict, close};
use crate::AppState;
use plyyard_social::notify::Note;
use plyyard_store::Account;

/// What the site socket says.
#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum SiteMsg<'a> {
    /// The count of unseen notifications, on connecting.
    Hello { unseen: u64 },
    /// A new notification, and the count after it.
    Notify { note: &'a Note, unseen: u64 },
}

fn text(msg: &SiteMsg<'_>) -> Message {
    Message::Text(serde_json::to_string(msg).unwrap_or_default().into())
}

/// Serves `account`'s site socket until the client leaves, falls too far
/// behind (it then reconnects and counts again) or the server stops.
pub async fn session(state: AppState, account: Account, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let notes = &state.social.notifications;
    let mut pushed = notes.bell.subscribe(&account.player_id);
    let _here = state.social.presence.here(&account.username.to_lowercase());
    let unseen = notes.unseen(&account.player_id).await.unwrap_or(0);
    if sink.send(text(&SiteMsg::Hello { unseen })).await.is_err() {
        return;
    }
    let mut stopping = state.shutting_down.subscribe();
    let mut guard = FloodGuard::new();
    loop {
        tokio::select! {
            note = pushed.recv() => match note {
                Ok(note) => {
                    let unseen = notes.unseen(&account.player_id).await.unwrap_or(0);
                    let msg = SiteMsg::Notify { note: Arc::as_ref(&note), unseen };
                    if sink.send(text(&msg)).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => break,
            },
            frame = stream.next() => match frame {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {
                    if guard.check(std::time::Instant::now()) == Verdict::Close {
                        let frame = CloseFrame { code: close::POLICY, reason: "too many messages".into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        return;
                    }
                }
            },
            _ = stopping.changed() => {
                let frame = CloseFrame { code: close::GOING_AWAY, reason: "server restarting".into() };
                let _ = sink.send(Message::Close(Some(frame))).await;
                return;
            }
        }
    }
    let _ = sink.close().await;
}
