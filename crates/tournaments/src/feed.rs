//! Owns the live feeds of tournament pages: [`Feeds`], snapshots pushed to
//! many watchers of one tournament, and [`change`], what a move of the
//! store's [`FeedMark`] means for them. One task per tournament watched on
//! this node asks its [`Poller`] every [`FEED_POLL`] whether anything
//! changed; a change is rendered once (by the caller, who knows the wire
//! format) and the same text goes to every watcher, however many. The task
//! ends when the last watcher leaves. Each node polls the shared store for
//! its own watchers, so feeds need no messages between nodes. On the node
//! that scores the games, the director also [`Feeds::nudge`]s the feeds
//! after each scoring pass: they look at once (at most every
//! [`NUDGE_GAP`]) instead of at their next poll.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use plyyard_store::FeedMark;
use tokio::sync::{broadcast, watch};
use tokio::time::Instant;

/// How often a watched thing is looked at.
pub const FEED_POLL: Duration = Duration::from_millis(250);
/// The shortest time between two looks of one feed, however often it is
/// nudged.
pub const NUDGE_GAP: Duration = Duration::from_millis(100);
/// Snapshots a slow watcher may be behind before it skips to the newest.
const BACKLOG: usize = 4;

/// What a move of a tournament's [`FeedMark`] changed for its watchers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Its standings, games, players or status: render it again.
    Tournament,
    /// Only its chat: the last rendering stands.
    ChatOnly,
}

/// What changed from `old` (none yet) to `new`, if anything.
pub fn change(old: Option<&FeedMark>, new: &FeedMark) -> Option<Change> {
    match old {
        None => Some(Change::Tournament),
        Some(old) if old == new => None,
        Some(old)
            if FeedMark {
                chat: new.chat,
                ..old.clone()
            } == *new =>
        {
            Some(Change::ChatOnly)
        }
        Some(_) => Some(Change::Tournament),
    }
}

/// What a [`Poller`] found.
#[derive(Debug)]
pub enum Polled {
    /// Something changed: the new snapshot.
    Changed(Arc<str>),
    /// Nothing changed (or it could not be read this time).
    Same,
    /// The thing is gone: the feed ends, its watchers are let go.
    Gone,
}

/// Looks at one watched thing.
pub trait Poller: Send + 'static {
    /// Whether anything changed since the last call, with the new snapshot.
    fn poll(&mut self) -> impl Future<Output = Polled> + Send;
}

/// One watched thing's channel and its latest snapshot.
struct Feed {
    tx: broadcast::Sender<Arc<str>>,
    last: Arc<Mutex<Option<Arc<str>>>>,
}

/// The feeds of this node, by key; cheap to share behind an `Arc`.
pub struct Feeds {
    map: Mutex<HashMap<String, Feed>>,
    /// Counts the nudges: every feed task watches it.
    nudges: watch::Sender<u64>,
}

impl Default for Feeds {
    fn default() -> Feeds {
        Feeds {
            map: Mutex::default(),
            nudges: watch::channel(0).0,
        }
    }
}

impl std::fmt::Debug for Feeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feeds")
            .field("watched", &self.len())
            .finish()
    }
}

impl Feeds {
    /// Things watched now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing is watched.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Something watched may have changed: every feed looks now (or
    /// [`NUDGE_GAP`] after its last look).
    pub fn nudge(&self) {
        self.nudges.send_modify(|n| *n = n.wrapping_add(1));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Feed>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Watches `key`: its latest snapshot (none before the first poll) and
    /// the ones to come. The first watcher of a key starts its task with
    /// the poller `make` gives.
    pub fn subscribe<P: Poller>(
        self: &Arc<Self>,
        key: &str,
        make: impl FnOnce() -> P,
    ) -> (Option<Arc<str>>, broadcast::Receiver<Arc<str>>) {
        let mut map = self.lock();
        if let Some(feed) = map.get(key) {
            let last = feed
                .last
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            return (last, feed.tx.subscribe());
        }
        let (tx, rx) = broadcast::channel(BACKLOG);
        let last = Arc::new(Mutex::new(None));
        map.insert(
            key.to_owned(),
            Feed {
                tx: tx.clone(),
                last: Arc::clone(&last),
            },
        );
        tokio::spawn(Arc::clone(self).run(key.to_owned(), tx, last, make()));
        (None, rx)
    }

    /// A feed's task: polls until its last watcher leaves or the thing is gone.
    async fn run<P: Poller>(
        self: Arc<Self>,
        key: String,
        tx: broadcast::Sender<Arc<str>>,
        last: Arc<Mutex<Option<Arc<str>>>>,
        mut poller: P,
    ) {
        let mut nudged = self.nudges.subscribe();
        let mut looked = Instant::now();
        let mut first = true;
        loop {
            if !std::mem::take(&mut first) {
                tokio::select! {
                    () = tokio::time::sleep_until(looked + FEED_POLL) => {}
                    changed = nudged.changed() => {
                        let gap = if changed.is_ok() { NUDGE_GAP } else { FEED_POLL };
                        tokio::time::sleep_until(looked + gap).await;
                    }
                }
            }
            looked = Instant::now();
            // Under the map's lock: a watcher joining now finds the feed
            // either still running or gone (and starts a new one).
            if tx.receiver_count() == 0 {
                self.lock().remove(&key);
                return;
            }
            match poller.poll().await {
                Polled::Same => {}
                Polled::Changed(text) => {
                    *last.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&text));
                    let _ = tx.send(text);
                }
                Polled::Gone => {
                    self.lock().remove(&key);
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts up, changing every other poll, gone after `until`.
    struct Counter {
        n: u32,
        until: u32,
    }

    impl Poller for Counter {
        async fn poll(&mut self) -> Polled {
            self.n += 1;
            if self.n > self.until {
                Polled::Gone
            } else if self.n % 2 == 1 {
                Polled::Changed(self.n.to_string().into())
            } else {
                Polled::Same
            }
        }
    }

    /// Changes at every look.
    struct Always(u32);

    impl Poller for Always {
        async fn poll(&mut self) -> Polled {
            self.0 += 1;
            Polled::Changed(self.0.to_string().into())
        }
    }

    /// A nudge makes every feed look after [`NUDGE_GAP`] instead of
    /// [`FEED_POLL`]; one long after the last look makes it look at once.
    #[tokio::test(start_paused = true)]
    async fn a_nudge_makes_a_feed_look_sooner_but_never_too_often() {
        let feeds = Arc::new(Feeds::default());
        let (_, mut rx) = feeds.subscribe("t", || Always(0));
        assert_eq!(rx.recv().await.unwrap().as_ref(), "1");
        let first = Instant::now();
        feeds.nudge();
        assert_eq!(rx.recv().await.unwrap().as_ref(), "2");
        assert_eq!(first.elapsed(), NUDGE_GAP);
        // Unnudged, the next look comes a full poll later.
        assert_eq!(rx.recv().await.unwrap().as_ref(), "3");
        assert_eq!(first.elapsed(), NUDGE_GAP + FEED_POLL);
        tokio::time::sleep(FEED_POLL / 2).await;
        let nudged = Instant::now();
        feeds.nudge();
        assert_eq!(rx.recv().await.unwrap().as_ref(), "4");
        assert_eq!(nudged.elapsed(), Duration::ZERO);
    }

    #[test]
    fn a_chat_line_alone_is_not_a_change_of_the_tournament() {
        let a = FeedMark {
            status: "started".into(),
            finished: 3,
            chat: 1,
            ..FeedMark::default()
        };
        assert_eq!(change(None, &a), Some(Change::Tournament));
        assert_eq!(change(Some(&a), &a), None);
        let chat = FeedMark {
            chat: 2,
            ..a.clone()
        };
        assert_eq!(change(Some(&a), &chat), Some(Change::ChatOnly));
        let ended = FeedMark {
            finished: 4,
            ..a.clone()
        };
        assert_eq!(change(Some(&a), &ended), Some(Change::Tournament));
    }

    #[tokio::test]
    async fn watchers_share_one_task_and_get_each_change_once() {
        let feeds = Arc::new(Feeds::default());
        let (first, mut a) = feeds.subscribe("t", || Counter { n: 0, until: 5 });
        assert!(first.is_none());
        let (_, mut b) = feeds.subscribe("t", || Counter { n: 100, until: 0 });
        assert_eq!(feeds.len(), 1);
        for want in ["1", "3", "5"] {
            assert_eq!(a.recv().await.unwrap().as_ref(), want);
            assert_eq!(b.recv().await.unwrap().as_ref(), want);
        }
        // Gone: the channel closes and the key is free again.
        assert!(a.recv().await.is_err());
        assert!(feeds.is_empty());
    }

    #[tokio::test]
    async fn a_late_watcher_gets_the_latest_snapshot_and_the_task_ends_unwatched() {
        let feeds = Arc::new(Feeds::default());
        let (_, mut a) = feeds.subscribe("t", || Counter { n: 0, until: 1000 });
        assert_eq!(a.recv().await.unwrap().as_ref(), "1");
        let (first, b) = feeds.subscribe("t", || Counter { n: 0, until: 0 });
        assert_eq!(first.as_deref(), Some("1"));
        drop(a);
        drop(b);
        tokio::time::sleep(FEED_POLL * 3).await;
        assert!(feeds.is_empty());
    }
}
