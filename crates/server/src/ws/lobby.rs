//! The lobby's websocket: the list of open public tables and waiting seeks
//! at once, then every change as it happens (see [`plyyard_pairing::lobby`]). The client
//! has nothing to say on it; what it sends anyway goes through a
//! [`FloodGuard`], and a flood closes the socket.

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;

use super::{FloodGuard, Verdict, close};
use crate::AppState;
use plyyard_pairing::lobby::LobbyMsg;

/// Sends the lobby's list, then every change, until the client leaves or
/// falls too far behind (it then reconnects and gets the list again).
pub async fn session(state: AppState, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let mut changes = state.pairing.lobby.subscribe();
    let first = match plyyard_pairing::listing::open_tables(&state.store).await {
        Ok(tables) => LobbyMsg::Lobby {
            tables,
            seeks: state.pairing.seeks.lobby_json().await,
        }
        .to_text(),
        Err(_) => return,
    };
    if sink.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let mut stopping = state.shutting_down.subscribe();
    let mut guard = FloodGuard::new();
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(text) => {
                    if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => break,
            },
            frame = stream.next() => match frame {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {
                    if guard.check(std::time::Instant::now()) == Verdict::Close {
                        let frame = axum::extract::ws::CloseFrame {
                            code: close::POLICY,
                            reason: "too many messages".into(),
                        };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        // Read on for a while: dropping unread input resets
                        // the connection, which can lose the close frame.
                        let drain = async { while stream.next().await.is_some() {} };
                        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), drain).await;
                        return;
                    }
                }
            },
            _ = stopping.changed() => {
                // "Going away": the client reconnects, to another node.
                let frame = axum::extract::ws::CloseFrame {
                    code: close::GOING_AWAY,
                    reason: "server restarting".into(),
                };
                let _ = sink.send(Message::Close(Some(frame))).await;
                return;
            }
        }
    }
    let _ = sink.close().await;
}
