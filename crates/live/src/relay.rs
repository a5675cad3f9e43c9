//! Relays: the events of games another node owns, as this node hears them
//! from the bus, fanned out to this node's sockets of each game.
//!
//! Events are versions and pass in order: one already passed is dropped,
//! and a gap (the bus lost a message) closes the game's relay, so that its
//! sockets subscribe again from the version they have and catch up from the
//! owner (which answers from its memory, or the whole state from the
//! database). A new owner closes the relay the same way, so that sockets
//! tell it who is there.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;

use crate::feed::Event;

/// Events kept for a slow socket of a relayed game.
const BACKLOG: usize = 16;

#[derive(Debug)]
struct Relay {
    tx: broadcast::Sender<Arc<Event>>,
    /// The last version passed on (`None` until the first is known).
    last: Option<u64>,
}

/// The relays of one node, by game id.
#[derive(Debug, Default)]
pub(crate) struct Relays {
    map: Arc<Mutex<HashMap<String, Relay>>>,
}

/// A socket's place on a relay: its events, and a way to tell the relay
/// the version the socket was brought to.
#[derive(Debug)]
pub(crate) struct Joined {
    /// The events from now on.
    pub events: broadcast::Receiver<Arc<Event>>,
    game: String,
    map: Arc<Mutex<HashMap<String, Relay>>>,
}

impl Joined {
    /// The owner brought the socket to version `v`: later events follow it.
    pub(crate) fn seen(&self, v: u64) {
        let mut map = lock(&self.map);
        if let Some(r) = map.get_mut(&self.game) {
            r.last = Some(r.last.map_or(v, |l| l.max(v)));
        }
    }
}

fn lock(map: &Mutex<HashMap<String, Relay>>) -> MutexGuard<'_, HashMap<String, Relay>> {
    map.lock().unwrap_or_else(|e| e.into_inner())
}

impl Relays {
    /// Joins the relay of `game`, opening it if needed.
    pub(crate) fn join(&self, game: &str) -> Joined {
        let mut map = lock(&self.map);
        let relay = map.entry(game.to_owned()).or_insert_with(|| Relay {
            tx: broadcast::channel(BACKLOG).0,
            last: None,
        });
        Joined {
            events: relay.tx.subscribe(),
            game: game.to_owned(),
            map: Arc::clone(&self.map),
        }
    }

    /// Passes event `v` of `game` (the text as sent) to its sockets, if this
    /// node relays that game.
    pub(crate) fn deliver(&self, game: &str, v: u64, text: &str) {
        let mut map = lock(&self.map);
        let Some(relay) = map.get_mut(game) else {
            return;
        };
        match relay.last {
            Some(last) if v <= last => return,
            Some(last) if v > last + 1 => {
                tracing::debug!(game, last, v, "relay: a gap; sockets catch up");
                map.remove(game);
                return;
            }
            _ => {}
        }
        relay.last = Some(v);
        let event = Arc::new(Event {
            v,
            text: Arc::from(text),
        });
        let _ = relay.tx.send(event);
    }

    /// Closes the relay of `game` (its owner changed, or this node owns
    /// it now): its sockets subscribe again.
    pub(crate) fn close(&self, game: &str) {
        lock(&self.map).remove(game);
    }

    /// Closes every relay (the bus lost messages).
    pub(crate) fn close_all(&self) {
        lock(&self.map).clear();
    }

    /// Forgets the relays nobody listens to any more.
    pub(crate) fn prune(&self) {
        lock(&self.map).retain(|_, r| r.tx.receiver_count() > 0);
    }

    /// Number of games relayed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.map).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rx: &mut broadcast::Receiver<Arc<Event>>) -> Vec<u64> {
        let mut out = Vec::new();
        while let Ok(e) = rx.try_recv() {
            out.push(e.v);
        }
        out
    }

    #[test]
    fn events_pass_once_in_order_and_a_gap_closes_the_relay() {
        let relays = Relays::default();
        let mut joined = relays.join("g");
        joined.seen(3);
        relays.deliver("g", 2, "old");
        relays.deliver("g", 4, "four");
        relays.deliver("g", 4, "again");
        relays.deliver("g", 5, "five");
        relays.deliver("other", 9, "not ours");
        assert_eq!(texts(&mut joined.events), vec![4, 5]);
        relays.deliver("g", 7, "gap");
        assert!(matches!(
            joined.events.try_recv(),
            Err(broadcast::error::TryRecvError::Closed)
        ));
        assert_eq!(relays.len(), 0);
    }

    #[test]
    fn the_first_event_sets_the_version_when_none_is_known() {
        let relays = Relays::default();
        let mut joined = relays.join("g");
        relays.deliver("g", 10, "ten");
        relays.deliver("g", 11, "eleven");
        joined.seen(10);
        relays.deliver("g", 11, "dup");
        relays.deliver("g", 12, "twelve");
        assert_eq!(texts(&mut joined.events), vec![10, 11, 12]);
        drop(joined);
        relays.prune();
        assert_eq!(relays.len(), 0);
    }
}
