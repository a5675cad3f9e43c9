//! Each account's event feed for its event stream (`GET /api/stream/event`):
//! NDJSON lines (`challenge`, `challengeCanceled`, `challengeDeclined`,
//! `gameStart`, `gameFinish`) sent to an account by whoever makes them, and
//! the rule of one event stream per account (a new one closes the old).
//!
//! Lines are best effort: a stream that lags loses the oldest, and a
//! client that reconnects gets the current state first (ongoing games and
//! waiting challenges).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, watch};

/// Lines kept for a slow stream before the oldest are dropped.
const BACKLOG: usize = 256;

#[derive(Debug)]
struct Feed {
    lines: broadcast::Sender<Arc<str>>,
    /// The number of the account's newest stream.
    newest: watch::Sender<u64>,
}

/// Every account's feed, by player id.
#[derive(Debug, Default)]
pub struct Events {
    feeds: Mutex<HashMap<String, Feed>>,
}

/// An open event stream's place: its lines, and a signal when a newer
/// stream of the account took over.
#[derive(Debug)]
pub struct Slot {
    /// The account's lines from now on.
    pub lines: broadcast::Receiver<Arc<str>>,
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
    /// Sends `line` (one JSON object, no newline) to `player`'s stream,
    /// if one is open.
    pub fn send(&self, player: &str, line: &str) {
        let feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = feeds.get(player) {
            let _ = f.lines.send(Arc::from(line));
        }
    }

    /// Opens `player`'s event stream, closing any older one.
    pub fn open(&self, player: &str) -> Slot {
        let mut feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        feeds.retain(|_, f| f.lines.receiver_count() > 0);
        let feed = feeds.entry(player.to_owned()).or_insert_with(|| Feed {
            lines: broadcast::Sender::new(BACKLOG),
            newest: watch::Sender::new(0),
        });
        let number = *feed.newest.borrow() + 1;
        feed.newest.send_replace(number);
        Slot {
            lines: feed.lines.subscribe(),
            newest: feed.newest.subscribe(),
            number,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_reach_the_newest_stream_and_a_new_stream_supersedes_the_old() {
        let events = Events::default();
        events.send("p1", "lost: nobody listens");
        let mut first = events.open("p1");
        events.send("p1", "a");
        events.send("p2", "not mine");
        assert_eq!(&*first.lines.recv().await.unwrap(), "a");
        assert!(!first.superseded());
        let mut second = events.open("p1");
        assert!(first.superseded());
        assert!(!second.superseded());
        events.send("p1", "b");
        assert_eq!(&*second.lines.recv().await.unwrap(), "b");
        assert!(first.newest.has_changed().unwrap());
    }
}
