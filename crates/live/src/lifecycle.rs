//! Games starting and ending, announced to whoever listens across all
//! games (the Lichess API's event streams send `gameStart` and
//! `gameFinish` from these). Announcements are best effort: a listener
//! that lags loses the oldest ones and learns the truth from the database
//! (the event stream lists ongoing games when it opens).

use plyyard_game::shakmaty::ByColor;
use tokio::sync::broadcast;

/// Announcements kept for a slow listener before the oldest are dropped.
const BACKLOG: usize = 4096;

/// What happened to a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LifeKind {
    /// It was created and its actor started.
    Started,
    /// It ended (any result, aborted included).
    Ended,
}

/// One announcement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifeEvent {
    /// The game's id.
    pub game: String,
    /// Started or ended.
    pub kind: LifeKind,
    /// The player ids on each side (`None`: the computer or nobody).
    pub players: ByColor<Option<String>>,
}

/// The channel of announcements.
#[derive(Debug, Clone)]
pub struct Lifecycle {
    tx: broadcast::Sender<LifeEvent>,
}

impl Default for Lifecycle {
    fn default() -> Lifecycle {
        Lifecycle {
            tx: broadcast::Sender::new(BACKLOG),
        }
    }
}

impl Lifecycle {
    /// Announces `event` to this node's listeners (nobody listening is
    /// fine); [`crate::LiveDeps::announce`] reaches every node's.
    pub fn announce(&self, event: LifeEvent) {
        let _ = self.tx.send(event);
    }

    /// Every announcement from now on.
    pub fn listen(&self) -> broadcast::Receiver<LifeEvent> {
        self.tx.subscribe()
    }
}
