//! The lobby's live feed: tables and quick-pairing seeks appearing and
//! leaving, fanned out to every lobby socket.
//!
//! Each change is serialised once and the same text goes to every socket.
//! A node alone feeds its sockets directly; in a cluster
//! ([`Lobby::clustered`]) every change is published on the bus's `lobby`
//! topic and each node feeds its own sockets what it hears there, its own
//! changes included (so none arrives twice). The shared seek store
//! publishes its changes on the same topic (see [`crate::seeks::memory`]).

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::broadcast;

use crate::seek_json::SeekJson;
use crate::tables::TableJson;
use plyyard_cluster::topics::LOBBY as LOBBY_TOPIC;
use plyyard_social::outbox::{Outbox, listen};

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
    /// The bus, in a cluster.
    out: Option<Arc<Outbox>>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            tx: broadcast::channel(BACKLOG).0,
            out: None,
        }
    }
}

impl Lobby {
    /// The lobby of a node in a cluster: changes go through `bus`.
    pub fn clustered(bus: &Arc<plyyard_cluster::Bus>) -> Lobby {
        let tx = broadcast::channel(BACKLOG).0;
        let heard = tx.clone();
        listen(bus, LOBBY_TOPIC, move |payload| {
            match std::str::from_utf8(&payload) {
                Ok(text) => {
                    let _ = heard.send(Arc::from(text));
                }
                Err(_) => tracing::warn!("lobby: a message that is not text was dropped"),
            }
            true
        });
        let lost = tx.clone();
        let out = Outbox::start(bus, LOBBY_TOPIC, move |payload| {
            if let Ok(text) = std::str::from_utf8(&payload) {
                let _ = lost.send(Arc::from(text));
            }
        });
        Lobby {
            tx,
            out: Some(Arc::new(out)),
        }
    }

    /// Sends `msg` to every lobby socket (serialised once), on every node
    /// of a cluster.
    pub fn publish(&self, msg: &LobbyMsg) {
        let text = msg.to_text();
        match &self.out {
            Some(out) => out.send(text),
            None => {
                let _ = self.tx.send(Arc::from(text));
            }
        }
    }

    /// Sends `msg` to this node's lobby sockets only (the whole list again,
    /// after the bus lost messages).
    pub fn publish_here(&self, msg: &LobbyMsg) {
        let _ = self.tx.send(Arc::from(msg.to_text()));
    }

    /// The changes from now on, as JSON texts.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.tx.subscribe()
    }
}
