//! Each account's event feed for its event stream (`GET /api/stream/event`):
//! typed [`AccountEvent`]s (a challenge made, cancelled or declined) sent
//! to an account by whoever makes them, which the stream writes in its
//! dialect, and the rule of one event stream per account (a new one closes
//! the old). Games starting and ending reach the stream from the live
//! games' own life feed.
//!
//! In a cluster ([`Events::clustered`]) both go through the bus's `events`
//! topic: a line sent on any node reaches the account's stream on whichever
//! node holds it, and a stream opening on one node ends the account's
//! older streams on the others. Which stream is newer is decided the same
//! way on every node: by its opening time, then its node and number, so
//! two streams opened at once on two nodes leave exactly one.
//!
//! Lines are best effort: a stream that lags loses the oldest, and a
//! client that reconnects gets the current state first (ongoing games and
//! waiting challenges).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use crate::outbox::{Outbox, listen};
use plyyard_cluster::topics::EVENTS as EVENTS_TOPIC;
use plyyard_store::ChallengeRow;

/// What became of a challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeNews {
    /// It was made.
    Made,
    /// Its challenger withdrew it, or went away (status `offline`).
    Canceled,
    /// It was declined.
    Declined,
}

/// One event for an account's stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AccountEvent {
    /// A challenge made by or to the account changed: the challenge as it
    /// stands after the change.
    Challenge {
        /// What happened.
        news: ChallengeNews,
        /// The challenge.
        challenge: ChallengeRow,
    },
}

/// Events kept for a slow stream before the oldest are dropped.
const BACKLOG: usize = 256;

/// Which stream of an account is the newest: opened at (Unix ms), on node,
/// number on that node.
type Opening = (i64, String, u64);

#[derive(Debug)]
struct Feed {
    lines: broadcast::Sender<Arc<AccountEvent>>,
    /// The number of the account's newest stream on this node.
    newest: watch::Sender<u64>,
    /// When and where that stream opened.
    opening: Opening,
}

/// What nodes tell one another on the `events` topic.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Notice {
    /// An event for `to`'s stream.
    Event { to: String, event: AccountEvent },
    /// `to`'s stream opened on `node`.
    Open {
        to: String,
        at: i64,
        node: String,
        number: u64,
    },
}

/// The cluster side of [`Events`].
#[derive(Debug)]
struct Remote {
    node: String,
    out: Outbox,
}

/// Every account's feed, by player id.
#[derive(Debug, Default)]
pub struct Events {
    feeds: Mutex<HashMap<String, Feed>>,
    remote: Option<Remote>,
}

/// An open event stream's place: its lines, and a signal when a newer
/// stream of the account took over.
#[derive(Debug)]
pub struct Slot {
    /// The account's events from now on.
    pub lines: broadcast::Receiver<Arc<AccountEvent>>,
    /// Changes when another stream of the account opens.
    pub newest: watch::Receiver<u64>,
    /// This stream's number.
    pub number: u64,
}

impl Slot {
    /// Whether a newer stream of the account took over.
    pub fn superseded(&self) -> bool {
        *self.newest.borrow() != self.number
    }
}

impl Events {
    /// The feeds of a node in a cluster, carried by `bus`.
    pub fn clustered(bus: &Arc<plyyard_cluster::Bus>) -> Arc<Events> {
        let events = Arc::new_cyclic(|me: &Weak<Events>| {
            let lost = me.clone();
            let out = Outbox::start(bus, EVENTS_TOPIC, move |payload| {
                if let Some(events) = lost.upgrade() {
                    events.heard(&payload);
                }
            });
            Events {
                feeds: Mutex::default(),
                remote: Some(Remote {
                    node: bus.node().to_owned(),
                    out,
                }),
            }
        });
        let me = Arc::downgrade(&events);
        listen(bus, EVENTS_TOPIC, move |payload| match me.upgrade() {
            Some(events) => {
                events.heard(&payload);
                true
            }
            None => false,
        });
        events
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Feed>> {
        self.feeds.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `event` to `player`'s stream, if one is open (on any node of
    /// a cluster).
    pub fn send(&self, player: &str, event: AccountEvent) {
        match &self.remote {
            Some(r) => r.out.send(encode(&Notice::Event {
                to: player.to_owned(),
                event,
            })),
            None => self.deliver(player, event),
        }
    }

    fn deliver(&self, player: &str, event: AccountEvent) {
        if let Some(f) = self.lock().get(player) {
            let _ = f.lines.send(Arc::new(event));
        }
    }

    /// Opens `player`'s event stream, closing any older one (on any node
    /// of a cluster).
    pub fn open(&self, player: &str) -> Slot {
        let at = plyyard_store::now_ms();
        let node = self
            .remote
            .as_ref()
            .map(|r| r.node.clone())
            .unwrap_or_default();
        let mut feeds = self.lock();
        feeds.retain(|_, f| f.lines.receiver_count() > 0);
        let feed = feeds.entry(player.to_owned()).or_insert_with(|| Feed {
            lines: broadcast::Sender::new(BACKLOG),
            newest: watch::Sender::new(0),
            opening: (i64::MIN, String::new(), 0),
        });
        let number = *feed.newest.borrow() + 1;
        feed.newest.send_replace(number);
        feed.opening = (at, node.clone(), number);
        let slot = Slot {
            lines: feed.lines.subscribe(),
            newest: feed.newest.subscribe(),
            number,
        };
        drop(feeds);
        if let Some(r) = &self.remote {
            r.out.send(encode(&Notice::Open {
                to: player.to_owned(),
                at,
                node,
                number,
            }));
        }
        slot
    }

    /// Acts on what another node (or this one) said on the bus.
    fn heard(&self, payload: &[u8]) {
        match serde_json::from_slice::<Notice>(payload) {
            Ok(Notice::Event { to, event }) => self.deliver(&to, event),
            Ok(Notice::Open {
                to,
                at,
                node,
                number,
            }) => self.opened_elsewhere(&to, (at, node, number)),
            Err(e) => tracing::warn!("events: an unreadable notice was dropped: {e}"),
        }
    }

    /// A stream of `player` opened as `opening`: this node's streams of the
    /// account end if it is newer than theirs.
    fn opened_elsewhere(&self, player: &str, opening: Opening) {
        let mut feeds = self.lock();
        let Some(feed) = feeds.get_mut(player) else {
            return;
        };
        if opening > feed.opening {
            // A number no stream of this node holds: all of them end.
            let number = *feed.newest.borrow() + 1;
            feed.newest.send_replace(number);
            feed.opening = opening;
        }
    }
}

fn encode(notice: &Notice) -> Vec<u8> {
    serde_json::to_vec(notice).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A challenge event told by its id.
    fn event(id: &str) -> AccountEvent {
        AccountEvent::Challenge {
            news: ChallengeNews::Made,
            challenge: ChallengeRow {
                id: id.to_owned(),
                challenger: "p1".into(),
                dest: "p2".into(),
                status: plyyard_store::ChallengeStatus::Created,
                decline_reason: None,
                variant: plyyard_game::Variant::Standard,
                base_s: 300,
                increment_s: 3,
                rated: false,
                color: "random".into(),
                final_color: "white".into(),
                created_at: 0,
                seen_at: 0,
                updated_at: 0,
            },
        }
    }

    #[test]
    fn events_cross_the_bus_as_written() {
        let notice = Notice::Event {
            to: "p1".into(),
            event: event("abcd1234"),
        };
        let back: Notice = serde_json::from_slice(&encode(&notice)).unwrap();
        assert!(
            matches!(back, Notice::Event { to, event: e } if to == "p1" && e == event("abcd1234"))
        );
    }

    #[tokio::test]
    async fn lines_reach_the_newest_stream_and_a_new_stream_supersedes_the_old() {
        let events = Events::default();
        events.send("p1", event("lost"));
        let mut first = events.open("p1");
        events.send("p1", event("a"));
        events.send("p2", event("not mine"));
        assert_eq!(*first.lines.recv().await.unwrap(), event("a"));
        assert!(!first.superseded());
        let mut second = events.open("p1");
        assert!(first.superseded());
        assert!(!second.superseded());
        events.send("p1", event("b"));
        assert_eq!(*second.lines.recv().await.unwrap(), event("b"));
        assert!(first.newest.has_changed().unwrap());
    }

    #[test]
    fn a_stream_opened_elsewhere_ends_only_older_streams() {
        let events = Events::default();
        let mine = events.open("p1");
        let now = plyyard_store::now_ms();
        // Older than this node's stream: nothing changes.
        events.opened_elsewhere("p1", (now - 60_000, "b".into(), 1));
        assert!(!mine.superseded());
        // Its own opening heard back: nothing changes.
        let own = events.lock()["p1"].opening.clone();
        events.opened_elsewhere("p1", own);
        assert!(!mine.superseded());
        // Newer: it ends.
        events.opened_elsewhere("p1", (now + 60_000, "b".into(), 1));
        assert!(mine.superseded());
        let next = events.open("p1");
        assert!(!next.superseded());
    }
}
