//! Requests to one node and their answers ([`Inbox`]), over each node's own
//! topic (`node:<id>`). A request is published to the target's topic with
//! an id and the sender; the answer comes back on the sender's topic.
//! When nobody listens on the target's topic the request fails at once
//! ([`BusError::NoListener`]): that node is gone.
//!
//! Frames: `Q <id> <from>\n<body>` (a request), `A <id>\n<body>` (an
//! answer), `N\n<body>` (a notice, no answer).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::bus::{Bus, NODE_TOPIC_PREFIX};
use crate::error::BusError;

/// Requests and notices waiting for this node's handler before the
/// oldest are refused.
const BACKLOG: usize = 4096;

/// The topic of node `node`.
pub fn topic_of(node: &str) -> String {
    format!("{NODE_TOPIC_PREFIX}{node}")
}

/// A request or notice that reached this node.
#[derive(Debug)]
pub struct Incoming {
    /// What was sent.
    pub body: Bytes,
    /// Where the answer goes (`None` for a notice).
    pub reply: Option<Replier>,
}

/// Sends the answer of one request.
#[derive(Debug)]
pub struct Replier {
    bus: Arc<Bus>,
    to: String,
    id: u64,
}

impl Replier {
    /// Answers the request with `body` (best effort: an answer nobody waits
    /// for any more is dropped by its asker).
    pub async fn answer(self, body: &[u8]) {
        let frame = crate::frame::build(&format!("A {}", self.id), body);
        if let Err(e) = self.bus.publish(&topic_of(&self.to), &frame).await {
            tracing::warn!(to = %self.to, "bus: an answer was not sent: {e}");
        }
    }
}

/// This node's requests to other nodes and its own incoming requests.
pub struct Inbox {
    bus: Arc<Bus>,
    next: AtomicU64,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Bytes>>>,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox").finish_non_exhaustive()
    }
}

impl Inbox {
    /// Starts listening on this node's topic: answers go to their askers,
    /// requests and notices to the returned receiver.
    pub fn start(bus: &Arc<Bus>) -> (Arc<Inbox>, mpsc::Receiver<Incoming>) {
        let inbox = Arc::new(Inbox {
            bus: Arc::clone(bus),
            next: AtomicU64::new(1),
            waiting: Mutex::default(),
        });
        let (tx, rx) = mpsc::channel(BACKLOG);
        let frames = bus.subscribe(&topic_of(bus.node()));
        tokio::spawn(route(Arc::downgrade(&inbox), frames, tx));
        (inbox, rx)
    }

    /// Sends `body` to node `node` and waits up to `wait` for its answer.
    ///
    /// # Errors
    /// [`BusError::NoListener`] when that node does not listen (it is gone),
    /// [`BusError::Timeout`] when no answer came in time, [`BusError::Redis`]
    /// when Redis cannot be reached.
    pub async fn request(
        &self,
        node: &str,
        body: &[u8],
        wait: Duration,
    ) -> Result<Bytes, BusError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.lock().insert(id, tx);
        let frame = crate::frame::build(&format!("Q {id} {}", self.bus.node()), body);
        let sent = self.bus.publish(&topic_of(node), &frame).await;
        let answer = match sent {
            Ok(0) => Err(BusError::NoListener(node.to_owned())),
            Ok(_) => match tokio::time::timeout(wait, rx).await {
                Ok(Ok(body)) => Ok(body),
                _ => Err(BusError::Timeout(node.to_owned())),
            },
            Err(e) => Err(e),
        };
        self.lock().remove(&id);
        answer
    }

    /// Sends `body` to node `node` without waiting for anything.
    ///
    /// # Errors
    /// As [`Inbox::request`], but for the wait.
    pub async fn notify(&self, node: &str, body: &[u8]) -> Result<(), BusError> {
        let frame = crate::frame::build("N", body);
        match self.bus.publish(&topic_of(node), &frame).await? {
            0 => Err(BusError::NoListener(node.to_owned())),
            _ => Ok(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Bytes>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Routes the frames on this node's topic until the inbox is dropped.
async fn route(
    inbox: std::sync::Weak<Inbox>,
    mut frames: broadcast::Receiver<Bytes>,
    incoming: mpsc::Sender<Incoming>,
) {
    loop {
        let frame = match frames.recv().await {
            Ok(f) => f,
            Err(broadcast::error::RecvError::Lagged(n)) => {
                tracing::warn!("bus: {n} frames to this node were lost (too slow)");
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(inbox) = inbox.upgrade() else { return };
        match parse(&frame) {
            Some(Frame::Answer { id, body }) => {
                if let Some(tx) = inbox.lock().remove(&id) {
                    let _ = tx.send(body);
                }
            }
            Some(Frame::Request { id, from, body }) => {
                let reply = Replier {
                    bus: Arc::clone(&inbox.bus),
                    to: from,
                    id,
                };
                let msg = Incoming {
                    body,
                    reply: Some(reply),
                };
                if incoming.try_send(msg).is_err() {
                    tracing::warn!("bus: a request was refused (backlog full)");
                }
            }
            Some(Frame::Notice { body }) => {
                let _ = incoming.try_send(Incoming { body, reply: None });
            }
            None => tracing::warn!("bus: an unreadable frame was dropped"),
        }
    }
}

enum Frame {
    Request { id: u64, from: String, body: Bytes },
    Answer { id: u64, body: Bytes },
    Notice { body: Bytes },
}

fn parse(frame: &Bytes) -> Option<Frame> {
    let (mut head, body) = crate::frame::split(frame)?;
    match head.next()? {
        "Q" => {
            let id = head.next()?.parse().ok()?;
            let from = head.next()?.to_owned();
            Some(Frame::Request { id, from, body })
        }
        "A" => {
            let id = head.next()?.parse().ok()?;
            Some(Frame::Answer { id, body })
        }
        "N" => Some(Frame::Notice { body }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_back() {
        let q = Bytes::from_static(b"Q 7 node-a\n{\"x\":1}");
        assert!(
            matches!(parse(&q), Some(Frame::Request { id: 7, ref from, ref body }) if from == "node-a" && &body[..] == b"{\"x\":1}")
        );
        let a = Bytes::from_static(b"A 9\nok\nmore");
        assert!(
            matches!(parse(&a), Some(Frame::Answer { id: 9, ref body }) if &body[..] == b"ok\nmore")
        );
        assert!(matches!(
            parse(&Bytes::from_static(b"N\n")),
            Some(Frame::Notice { .. })
        ));
        assert!(parse(&Bytes::from_static(b"Q x y\n")).is_none());
        assert!(parse(&Bytes::from_static(b"no newline")).is_none());
    }
}
