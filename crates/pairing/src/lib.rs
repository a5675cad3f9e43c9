//! Pairing: how two people get a game. A table opened by one player and
//! joined by another with its code ([`tables`], [`seating`]), quick pairing of seeks
//! for the same preset ([`seeks`], over the pure matching of [`pool`]),
//! challenges from one account to another ([`challenges`]), and the lobby
//! that shows the open tables and waiting seeks as they come and go
//! ([`lobby`], [`listing`]).
//!
//! [`Pairing`] is the door. Games are started through `plyyard_live`,
//! rows kept through `plyyard_store`, and news for an account's event
//! stream handed to `plyyard_social`. Nothing here knows HTTP or SQL.
//!
//! Modules, lowest first (a module uses only modules above it in this
//! list): `pool`, `tables`; `seek_json`; `lobby`, `listing`; `seeks`
//! (`memory`, `redis`, `node`, `service`); `challenges`, `seating`.

pub mod pool;
pub mod tables;

pub mod seek_json;

pub mod listing;
pub mod lobby;

pub mod seeks;

pub mod challenges;
pub mod seating;

use std::sync::Arc;

use plyyard_live::Games;
use plyyard_social::Social;
use plyyard_store::Store;

pub use lobby::{Lobby, LobbyMsg};
pub use seeks::{MemorySeeks, NodeSeeks, RedisSeeks, Seeks};

/// What pairing needs from the rest of the node.
#[derive(Debug, Clone)]
pub struct PairingDeps {
    /// Storage (tables, challenges, ratings).
    pub store: Store,
    /// Live games: where paired players' games start.
    pub live: Games,
    /// Account events (challenges made, declined, cancelled).
    pub social: Social,
    /// The bus to the other nodes; `None` when this node runs alone.
    pub bus: Option<Arc<plyyard_cluster::Bus>>,
}

/// Pairing's door: the lobby, the seek pool and the challenges, on this
/// node alone or shared by a cluster's nodes.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// Storage.
    pub store: Store,
    /// Live games.
    pub live: Games,
    /// Presence and account events.
    pub social: Social,
    /// The lobby's live feed of open tables and seeks.
    pub lobby: Lobby,
    /// Quick pairing: the waiting seeks and their seekers.
    pub seeks: Arc<Seeks<NodeSeeks>>,
    bus: Option<Arc<plyyard_cluster::Bus>>,
}

impl Pairing {
    /// Pairing over `deps`: clustered when it has a bus.
    pub fn new(deps: PairingDeps) -> Pairing {
        let PairingDeps {
            store,
            live,
            social,
            bus,
        } = deps;
        let lobby = bus.as_ref().map_or_else(Lobby::default, Lobby::clustered);
        let seeks = match &bus {
            Some(bus) => {
                Seeks::clustered(NodeSeeks::Cluster(RedisSeeks::new(bus)), live.clone(), bus)
            }
            None => Arc::new(Seeks::new(
                NodeSeeks::Alone(MemorySeeks::new(lobby.clone())),
                live.clone(),
            )),
        };
        Pairing {
            store,
            live,
            social,
            lobby,
            seeks,
            bus,
        }
    }

    /// Closes unjoined tables whose time ran out and takes them off the
    /// lobby.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire_tables(&self) -> Result<(), plyyard_store::StoreError> {
        for code in self.store.expire_tables(plyyard_store::now_ms()).await? {
            self.lobby.publish(&LobbyMsg::Remove { code });
        }
        Ok(())
    }

    /// In a cluster, sends this node's lobby sockets the whole list again
    /// each time the bus came back after a loss (the changes published
    /// meanwhile are lost); alone, returns at once.
    pub async fn resync_lobby(&self) {
        let Some(bus) = &self.bus else { return };
        let mut resubscribed = bus.resubscribed();
        while resubscribed.changed().await.is_ok() {
            match listing::open_tables(&self.store).await {
                Ok(tables) => {
                    let seeks = self.seeks.lobby_json().await;
                    self.lobby.publish_here(&LobbyMsg::Lobby { tables, seeks });
                }
                Err(e) => tracing::warn!("lobby: cannot list the tables again: {}", e.message),
            }
        }
    }
}
