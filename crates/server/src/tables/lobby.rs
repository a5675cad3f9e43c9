//! The lobby's live feed: tables and quick-pairing seeks appearing and
//! leaving, fanned out to every lobby socket.
//!
//! Each change is serialised once and the same text goes to every socket.
//! The feed is in-process today; several servers will carry it over Redis
//! behind this same small interface ([`Lobby::publish`], [`Lobby::subscribe`]).

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::broadcast;

use super::TableJson;
use crate::seeks::wire::SeekJson;

/// Changes kept for slow lobby sockets before they must reload the list.
const BACKLOG: usize = 256;

/// A change of the lobby, as sent to its sockets.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum LobbyMsg {
    /// The whole list (first message of a socket).
    Lobby {
        /// The open public tables, newest first.
        tables: Vec<TableJson>,
        /// The waiting seeks, oldest first.
        seeks: Vec<SeekJson>,
    },
    /// A table opened.
    Add {
        /// The table.
        table: Box<TableJson>,
    },
    /// A table left the lobby (someone sat down, it was cancelled, or it
    /// expired).
    Remove {
        /// Its code.
        code: String,
    },
    /// A player started seeking a game (quick pairing).
    SeekAdd {
        /// The seek.
        seek: Box<SeekJson>,
    },
    /// A seek stopped waiting (paired, cancelled, replaced, its client
    /// left).
    SeekRemove {
        /// Its number.
        id: u64,
    },
}

impl LobbyMsg {
    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            tracing::error!("cannot encode a lobby message: {e}");
            String::from("{}")
        })
    }
}

/// The lobby's feed (a clone publishes to the same sockets).
#[derive(Debug, Clone)]
pub struct Lobby {
    tx: broadcast::Sender<Arc<str>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tx: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Lobby {
    /// Sends `msg` to every lobby socket (serialised once).
    pub fn publish(&self, msg: &LobbyMsg) {
        let _ = self.tx.send(Arc::from(msg.to_text()));
    }

    /// The changes from now on, as JSON texts.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }
}
