//! A game's events: each committed change becomes one numbered [`Event`],
//! kept in a short replay buffer and broadcast to the game's sockets; a
//! socket that (re)subscribes catches up from its version ([`CatchUp`]).
//!
//! The fan-out is in-process today and sits behind [`Feed`] alone.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::broadcast;

use plyyard_wire::protocol::{EventKind, GameState, MoveJson, ServerMsg};

/// Events kept per game for clients that reconnect with a recent version.
/// A short drop misses a move or two; a longer gap gets the whole state,
/// which is always right. Each event is about 1.5 KiB and every live game
/// keeps its own, so this bounds a large share of a busy server's memory.
const REPLAY_EVENTS: usize = 4;
/// Capacity of a game's broadcast channel (a slower socket gets a `full`).
const BROADCAST: usize = 16;

/// One change of a game, as broadcast to its sockets: serialised once, the
/// same text for every socket (the state in it has no `you` and no move
/// list; clients keep those).
#[derive(Debug)]
pub struct Event {
    /// Version after the change.
    pub v: u64,
    /// The `event` message, as sent.
    pub text: Arc<str>,
}

impl Event {
    /// The event of version `v`: `kind`, its move, and `game` (the state
    /// after it, whose move list and viewer are dropped).
    pub fn new(v: u64, kind: EventKind, mv: Option<MoveJson>, mut game: GameState) -> Event {
        game.moves = None;
        game.you = None;
        let text = ServerMsg::Event { v, kind, mv, game }.to_text();
        Event {
            v,
            text: Arc::from(text),
        }
    }
}

/// What a socket needs to catch up when it (re)subscribes.
#[derive(Debug)]
pub enum CatchUp {
    /// The client already has the latest version.
    UpToDate,
    /// The events after the client's version, in order.
    Events(Vec<Arc<Event>>),
    /// The whole state (the client's version is unknown, too old or ahead).
    Full(Arc<GameState>),
}

/// The events of one game: the recent ones and their subscribers.
pub(super) struct Feed {
    recent: VecDeque<Arc<Event>>,
    sender: broadcast::Sender<Arc<Event>>,
}

impl Feed {
    /// A feed with no events yet.
    pub(super) fn new() -> Feed {
        let (sender, _) = broadcast::channel(BROADCAST);
        Feed {
            recent: VecDeque::new(),
            sender,
        }
    }

    /// Keeps `event` for catching up and sends it to every subscriber.
    pub(super) fn publish(&mut self, event: Event) {
        let event = Arc::new(event);
        if self.recent.len() == REPLAY_EVENTS {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::clone(&event));
        let _ = self.sender.send(event);
    }

    /// Subscribes a client at version `since` while the game is at
    /// `version`: what it missed, and the events from now on; `full` gives
    /// the whole state when events cannot bridge the gap.
    pub(super) fn subscribe(
        &self,
        since: Option<u64>,
        version: u64,
        full: impl FnOnce() -> GameState,
    ) -> (CatchUp, broadcast::Receiver<Arc<Event>>) {
        let events = self.sender.subscribe();
        let catch_up = match since {
            Some(v) if v == version => CatchUp::UpToDate,
            Some(v) if v < version && self.recent.front().is_some_and(|first| first.v <= v + 1) => {
                CatchUp::Events(self.recent.iter().filter(|e| e.v > v).cloned().collect())
            }
            _ => CatchUp::Full(Arc::new(full())),
        };
        (catch_up, events)
    }

    /// Number of sockets subscribed.
    pub(super) fn subscribers(&self) -> usize {
        self.sender.receiver_count()
    }
}
