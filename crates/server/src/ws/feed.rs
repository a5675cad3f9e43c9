//! A feed's websocket: the latest snapshot at once, then every new one as
//! it is published, until the client leaves. Each snapshot is whole, so a
//! client that falls behind skips to the newest and loses nothing. The
//! client has nothing to say; what it sends anyway goes through a
//! [`FloodGuard`], and a flood closes the socket.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, watch};

use super::{FloodGuard, Verdict, close};

/// Serves one watcher: `first` (the latest snapshot, if any), then what
/// `snapshots` brings, until the client leaves, floods, or the server
/// stops (`stopping` turns true: "going away", the client reconnects).
pub async fn session(
    socket: WebSocket,
    first: Option<Arc<str>>,
    mut snapshots: broadcast::Receiver<Arc<str>>,
    mut stopping: watch::Receiver<bool>,
) {
    let (mut sink, mut stream) = socket.split();
    if let Some(text) = first
        && sink
            .send(Message::Text(text.as_ref().into()))
            .await
            .is_err()
    {
        return;
    }
    let mut guard = FloodGuard::new();
    loop {
        tokio::select! {
            next = snapshots.recv() => match next {
                Ok(text) => {
                    if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                // The next snapshot is whole: nothing is lost by skipping.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            frame = stream.next() => match frame {
                None | Some(Err(_) | Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {
                    if guard.check(std::time::Instant::now()) == Verdict::Close {
                        let frame = CloseFrame { code: close::POLICY, reason: "too many messages".into() };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        // Read on for a while: dropping unread input resets
                        // the connection, which can lose the close frame.
                        let drain = async { while stream.next().await.is_some() {} };
                        let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
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
