//! The delivery of game chat: a [`ChatHub`] hands each line said at a
//! game to everyone listening to that game. [`LocalHub`] is the
//! in-process one; [`ClusterHub`] carries each line over the bus's `chat`
//! topic to every node of a cluster, each of which hands it to its own
//! listeners through its [`LocalHub`] (its own lines too, as it hears them
//! back, so none arrives twice).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use plyyard_wire::protocol::ChatLine;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::outbox::{Outbox, listen};
use plyyard_cluster::topics::CHAT as CHAT_TOPIC;

/// Lines waiting for a slow listener before it misses some.
const BUFFER: usize = 64;

/// Delivers the lines said at a game to everyone listening to it.
pub trait ChatHub: Send + Sync + std::fmt::Debug {
    /// Hands `line`, said at `game_id`, to the game's listeners.
    fn publish(&self, game_id: &str, line: ChatLine);
    /// Listens to the lines said at `game_id` from now on (every room:
    /// listeners keep the rooms they may see).
    fn subscribe(&self, game_id: &str) -> broadcast::Receiver<Arc<ChatLine>>;
}

/// The in-process [`ChatHub`]: one broadcast channel per game with
/// listeners.
#[derive(Debug, Default)]
pub struct LocalHub {
    games: Mutex<HashMap<String, broadcast::Sender<Arc<ChatLine>>>>,
}

impl LocalHub {
    /// The number of games with a channel (for tests).
    pub fn games(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl ChatHub for LocalHub {
    fn publish(&self, game_id: &str, line: ChatLine) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let unheard = games
            .get(game_id)
            .is_some_and(|tx| tx.send(Arc::new(line)).is_err());
        if unheard {
            games.remove(game_id);
        }
    }

    fn subscribe(&self, game_id: &str) -> broadcast::Receiver<Arc<ChatLine>> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        // Channels nobody listens to any more go first (each subscription
        // pays for the games it finds idle, so the map stays as large as
        // the games listened to).
        games.retain(|_, tx| tx.receiver_count() > 0);
        games
            .entry(game_id.to_owned())
            .or_insert_with(|| broadcast::channel(BUFFER).0)
            .subscribe()
    }
}

/// A line on the bus: the game and what was said.
#[derive(Debug, Serialize, Deserialize)]
struct Said {
    game: String,
    line: ChatLine,
}

/// The [`ChatHub`] of a node in a cluster: lines go through the bus.
#[derive(Debug)]
pub struct ClusterHub {
    local: Arc<LocalHub>,
    out: Outbox,
}

impl ClusterHub {
    /// The hub of a node on `bus`.
    pub fn new(bus: &Arc<plyyard_cluster::Bus>) -> ClusterHub {
        let local = Arc::new(LocalHub::default());
        let heard = Arc::clone(&local);
        listen(bus, CHAT_TOPIC, move |payload| {
            deliver(&heard, &payload);
            true
        });
        let lost = Arc::clone(&local);
        let out = Outbox::start(bus, CHAT_TOPIC, move |payload| deliver(&lost, &payload));
        ClusterHub { local, out }
    }
}

fn deliver(local: &LocalHub, payload: &[u8]) {
    match serde_json::from_slice::<Said>(payload) {
        Ok(said) => local.publish(&said.game, said.line),
        Err(e) => tracing::warn!("chat: an unreadable line was dropped: {e}"),
    }
}

impl ChatHub for ClusterHub {
    fn publish(&self, game_id: &str, line: ChatLine) {
        let said = Said {
            game: game_id.to_owned(),
            line,
        };
        match serde_json::to_vec(&said) {
            Ok(bytes) => self.out.send(bytes),
            Err(e) => tracing::error!("chat: cannot encode a line: {e}"),
        }
    }

    fn subscribe(&self, game_id: &str) -> broadcast::Receiver<Arc<ChatLine>> {
        self.local.subscribe(game_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_wire::protocol::ChatRoom;

    #[tokio::test]
    async fn the_local_hub_drops_games_nobody_listens_to() {
        let hub = LocalHub::default();
        let mut rx = hub.subscribe("g1");
        let line = ChatLine {
            room: ChatRoom::Player,
            user: "ann".into(),
            text: "hi".into(),
        };
        hub.publish("g1", line.clone());
        hub.publish("g2", line.clone());
        assert_eq!(*rx.recv().await.unwrap(), line);
        assert_eq!(hub.games(), 1);
        drop(rx);
        let _other = hub.subscribe("g3");
        assert_eq!(hub.games(), 1);
        hub.publish("g3", line);
    }
}
