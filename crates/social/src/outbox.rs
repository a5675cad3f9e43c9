//! The domains' use of the cluster bus for news every node must hear (the
//! lobby, chat, account events): [`Outbox`] publishes one topic's messages
//! in the order they were sent, and [`listen`] hands every message of a
//! topic to a node-local deliverer.
//!
//! A node never delivers its own news directly: it hears it back from the
//! bus like every other node, so each listener gets it exactly once and in
//! the bus's order. Only a message the bus refused (Redis unreachable) is
//! delivered locally at once, so that this node's own listeners still get
//! it.
//!
//! Topics and keys of the server (besides the lead's `game:*`, `node:*`,
//! `life` and the rate limits' `rl:*`): `lobby`, `events`, `chat`, `ends`,
//! `seeks:<node>` (topics); `seek:*` and `online`, `online:<id>` (keys).

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::{broadcast, mpsc};

/// Publishes the messages of one topic in order, from one task.
#[derive(Debug)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<Bytes>,
}

impl Outbox {
    /// Starts publishing on `topic`; a message the bus refuses goes to
    /// `lost` (to deliver on this node at least).
    pub fn start(
        bus: &Arc<plyyard_cluster::Bus>,
        topic: &str,
        lost: impl Fn(Bytes) + Send + 'static,
    ) -> Outbox {
        let (tx, mut rx) = mpsc::unbounded_channel::<Bytes>();
        let bus = Arc::clone(bus);
        let topic = topic.to_owned();
        tokio::spawn(async move {
            while let Some(payload) = rx.recv().await {
                if let Err(e) = bus.publish(&topic, &payload).await {
                    tracing::warn!(topic = %topic, "bus: not published, delivered on this node only: {e}");
                    lost(payload);
                }
            }
        });
        Outbox { tx }
    }

    /// Queues `payload` for publishing.
    pub fn send(&self, payload: impl Into<Bytes>) {
        let _ = self.tx.send(payload.into());
    }
}

/// Hands every message of `topic` to `each`, in order, until `each`
/// answers `false` or the bus goes away.
pub fn listen(
    bus: &Arc<plyyard_cluster::Bus>,
    topic: &str,
    mut each: impl FnMut(Bytes) -> bool + Send + 'static,
) {
    let mut rx = bus.subscribe(topic);
    let topic = topic.to_owned();
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(payload) => {
                    if !each(payload) {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    tracing::warn!(topic = %topic, "bus: {n} messages lost (this node was too slow)");
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    });
}
