//! Relays: the events of games another node owns, as this node hears them
//! from the bus, fanned out to this node's sockets of each game.
//!
//! Events are versions and pass in order: one already passed is dropped,
//! and a gap (the bus lost a message) closes the game's relay, so that its
//! sockets subscribe again from the version they have and catch up from the
//! owner (which answers from its memory, or the whole state from the
//! database). A new owner closes the relay the same way, so that sockets
//! tell it who is there.
//!
//! A relay is shared by sockets that joined it at different versions, so
//! it passes every event it hears in order and never skips ahead on one
//! socket's word: each socket drops the events its catch-up already gave
//! it. A socket joins before its subscription is sent to the owner, so the
//! events after the version the owner answered all reach it.

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
    map: Mutex<HashMap<String, Relay>>,
}

fn lock(map: &Mutex<HashMap<String, Relay>>) -> MutexGuard<'_, HashMap<String, Relay>> {
    map.lock().unwrap_or_else(|e| e.into_inner())
}

impl Relays {
    /// Joins the relay of `game`, opening it if needed: its events from
    /// now on.
    pub(crate) fn join(&self, game: &str) -> broadcast::Receiver<Arc<Event>> {
        let mut map = lock(&self.map);
        let relay = map.entry(game.to_owned()).or_insert_with(|| Relay {
            tx: broadcast::channel(BACKLOG).0,
            last: None,
        });
        relay.tx.subscribe()
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
        let mut events = relays.join("g");
        relays.deliver("g", 4, "four");
        relays.deliver("g", 4, "again");
        relays.deliver("g", 3, "old");
        relays.deliver("g", 5, "five");
        relays.deliver("other", 9, "not ours");
        assert_eq!(texts(&mut events), vec![4, 5]);
        relays.deliver("g", 7, "gap");
        assert!(matches!(
            events.try_recv(),
            Err(broadcast::error::TryRecvError::Closed)
        ));
        assert_eq!(relays.len(), 0);
    }

    /// Two sockets on one relay, caught up by the owner to different
    /// versions (9 and 10, answers crossing the event on the bus): the one
    /// at 9 still gets event 10, which the other drops itself.
    #[test]
    fn a_socket_caught_up_further_takes_nothing_from_the_others() {
        let relays = Relays::default();
        let mut at_nine = relays.join("g");
        let mut at_ten = relays.join("g");
        relays.deliver("g", 10, "ten");
        relays.deliver("g", 11, "eleven");
        assert_eq!(texts(&mut at_nine), vec![10, 11]);
        assert_eq!(texts(&mut at_ten), vec![10, 11]);
        drop((at_nine, at_ten));
        relays.prune();
        assert_eq!(relays.len(), 0);
    }
}
