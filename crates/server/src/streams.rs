//! How many Lichess-API game streams each account holds open
//! ([`GameStreams`]), so that one account cannot open them without bound.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Game streams one account may hold open at once, over all its games.
pub const MAX_STREAMS: usize = 8;

/// The game streams open per account (by lichess id).
#[derive(Debug, Default)]
pub struct GameStreams {
    open: Mutex<HashMap<String, usize>>,
}

/// One open game stream of an account; dropping it frees its place.
#[derive(Debug)]
pub struct StreamSlot {
    streams: Arc<GameStreams>,
    id: String,
}

impl GameStreams {
    /// A place for one more stream of `id`, or `None` when it holds
    /// [`MAX_STREAMS`] already.
    pub fn take(self: &Arc<GameStreams>, id: &str) -> Option<StreamSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(id.to_owned()).or_insert(0);
        if *n >= MAX_STREAMS {
            return None;
        }
        *n += 1;
        Some(StreamSlot {
            streams: Arc::clone(self),
            id: id.to_owned(),
        })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.id) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_holds_at_most_max_streams() {
        let streams = Arc::new(GameStreams::default());
        let held: Vec<StreamSlot> = (0..MAX_STREAMS)
            .map(|_| streams.take("ann").unwrap())
            .collect();
        assert!(streams.take("ann").is_none());
        let other = streams.take("bob");
        assert!(other.is_some());
        drop(held);
        assert!(streams.take("ann").is_some());
        drop(other);
        assert!(streams.open.lock().unwrap().is_empty());
    }
}
