//! How many Lichess-API game streams each account holds open
//! ([`GameStreams`]), so that one account cannot open them without bound:
//! at most [`MAX_STREAMS`] over all the nodes of a cluster.
//!
//! A node alone counts in its memory. In a cluster each stream also holds
//! a place in Redis ([`plyyard_cluster::places`], at
//! [`plyyard_cluster::topics::game_streams_of`]) under a lease of
//! [`LEASE`], which the node renews every [`RENEW_EVERY`] for all its
//! streams at once: the streams of a node that died free their places
//! within [`LEASE`]. While Redis cannot be reached a stream is counted in
//! this node's memory only.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use plyyard_cluster::Bus;
use plyyard_cluster::places::Places;
use tokio::sync::mpsc;

/// Game streams one account may hold open at once, over all its games
/// and all the nodes.
pub const MAX_STREAMS: usize = 8;
/// How long a stream's place in Redis holds unless its node renews it.
pub const LEASE: Duration = Duration::from_secs(30);
/// How often a node renews the places of its streams.
pub const RENEW_EVERY: Duration = Duration::from_secs(10);

const PLACES: Places = Places {
    max: MAX_STREAMS as u32,
    ttl: LEASE,
};

/// The game streams open per account (by lichess id).
#[derive(Debug, Default)]
pub struct GameStreams {
    open: Mutex<HashMap<String, usize>>,
    cluster: Option<Cluster>,
}

/// The cluster side of [`GameStreams`]: this node's places in Redis.
#[derive(Debug)]
struct Cluster {
    bus: Arc<Bus>,
    next: AtomicU64,
    /// This node's places: number → (key, holder).
    held: Mutex<HashMap<u64, (String, String)>>,
    /// Places to give up, in order with the renewals.
    released: mpsc::UnboundedSender<(String, String)>,
}

/// One open game stream of an account; dropping it frees its place.
#[derive(Debug)]
pub struct StreamSlot {
    streams: Arc<GameStreams>,
    id: String,
    /// Its place in Redis, if it holds one.
    place: Option<u64>,
}

impl GameStreams {
    /// The streams of a node in a cluster, counted in `bus`'s Redis.
    pub fn clustered(bus: &Arc<Bus>) -> Arc<GameStreams> {
        let (released, rx) = mpsc::unbounded_channel();
        let streams = Arc::new(GameStreams {
            open: Mutex::default(),
            cluster: Some(Cluster {
                bus: Arc::clone(bus),
                next: AtomicU64::new(0),
                held: Mutex::default(),
                released,
            }),
        });
        tokio::spawn(keep_places(Arc::downgrade(&streams), Arc::clone(bus), rx));
        streams
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more stream of `id`, or `None` when it holds
    /// [`MAX_STREAMS`] already (on any node).
    pub async fn take(self: &Arc<GameStreams>, id: &str) -> Option<StreamSlot> {
        let Some(c) = &self.cluster else {
            return self.take_here(id, None);
        };
        let number = c.next.fetch_add(1, Ordering::Relaxed);
        let key = plyyard_cluster::topics::game_streams_of(id);
        let holder = format!("{}:{number}", c.bus.node());
        match PLACES.take(&mut c.bus.conn(), &key, &holder).await {
            Ok(true) => {
                c.lock().insert(number, (key, holder));
                self.counted_here(id, Some(number))
            }
            Ok(false) => None,
            Err(e) => {
                tracing::warn!("game streams counted on this node only: {e}");
                self.take_here(id, None)
            }
        }
    }

    /// A place counted in this node's memory, within [`MAX_STREAMS`].
    fn take_here(self: &Arc<GameStreams>, id: &str, place: Option<u64>) -> Option<StreamSlot> {
        if self.lock().get(id).is_some_and(|n| *n >= MAX_STREAMS) {
            return None;
        }
        self.counted_here(id, place)
    }

    /// Counts one more stream of `id` here.
    fn counted_here(self: &Arc<GameStreams>, id: &str, place: Option<u64>) -> Option<StreamSlot> {
        *self.lock().entry(id.to_owned()).or_insert(0) += 1;
        Some(StreamSlot {
            streams: Arc::clone(self),
            id: id.to_owned(),
            place,
        })
    }
}

impl Cluster {
    fn lock(&self) -> MutexGuard<'_, HashMap<u64, (String, String)>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.lock();
        if let Some(n) = open.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.id);
            }
        }
        drop(open);
        if let (Some(c), Some(number)) = (&self.streams.cluster, self.place)
            && let Some(place) = c.lock().remove(&number)
        {
            let _ = c.released.send(place);
        }
    }
}

/// Renews this node's places every [`RENEW_EVERY`] and gives up those of
/// the streams that ended, in order (a place given up is never renewed
/// after), until the streams are gone.
async fn keep_places(
    streams: Weak<GameStreams>,
    bus: Arc<Bus>,
    mut released: mpsc::UnboundedReceiver<(String, String)>,
) {
    let mut conn = bus.conn();
    let mut renew = tokio::time::interval(RENEW_EVERY);
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = renew.tick() => {
                let Some(s) = streams.upgrade() else { return };
                let held: Vec<(String, String)> = match &s.cluster {
                    Some(c) => c.lock().values().cloned().collect(),
                    None => return,
                };
                drop(s);
                if !held.is_empty()
                    && let Err(e) = PLACES.renew(&mut conn, &held).await
                {
                    tracing::warn!("cannot renew the game streams' places: {e}");
                }
            }
            place = released.recv() => {
                let Some((key, holder)) = place else { return };
                if let Err(e) = Places::release(&mut conn, &key, &holder).await {
                    tracing::warn!("cannot give up a game stream's place: {e}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_account_holds_at_most_max_streams() {
        let streams = Arc::new(GameStreams::default());
        let mut held = Vec::new();
        for _ in 0..MAX_STREAMS {
            held.push(streams.take("ann").await.unwrap());
        }
        assert!(streams.take("ann").await.is_none());
        let other = streams.take("bob").await;
        assert!(other.is_some());
        drop(held);
        assert!(streams.take("ann").await.is_some());
        drop(other);
        assert!(streams.open.lock().unwrap().is_empty());
    }
}
