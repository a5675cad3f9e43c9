//! Quick pairing: players seek a game of one of the site's presets and are
//! paired with anyone waiting for the same (`docs/protocol.md`, "Quick
//! pairing").
//!
//! `pool` is the matching as pure data (who pairs with whom); the waiting
//! seeks are kept behind a small trait ([`SeekStore`]: [`MemorySeeks`]
//! in process, [`RedisSeeks`] shared by the nodes of a cluster, either
//! behind [`NodeSeeks`]) and tells the lobby of every seek that comes or
//! goes; `service` owns the seekers' handles, pairs atomically and starts
//! the games, telling each seeker on the node that holds its request;
//! `json` is the JSON.

pub mod memory;
pub mod node;
pub mod redis;
pub mod service;

pub use crate::pool::{PoolKey, Seek, SeekId};
pub use crate::seek_json::{NewSeek, PairedJson, SeekJson};
pub use memory::{MemorySeeks, SeekStore};
pub use node::NodeSeeks;
pub use redis::RedisSeeks;
pub use service::{SWEEP_EVERY, SeekHandle, Seeker, Seeks};

/// `account` as a seeker of `key` from `address`: its name and its rating
/// at the key's speed.
///
/// # Errors
/// A database failure.
pub async fn seeker_for(
    store: &plyyard_store::Store,
    account: &plyyard_store::Account,
    key: &PoolKey,
    address: std::net::IpAddr,
) -> Result<Seeker, plyyard_wire::error::ApiError> {
    let player = account.player_id.clone();
    let ratings = store.ratings_of(&[player.as_str()]).await?;
    let r = ratings
        .get(&(player.clone(), crate::seek_json::speed_of(key)))
        .copied()
        .unwrap_or_default();
    Ok(Seeker {
        player,
        name: account.username.clone(),
        rating: plyyard_rating::display(r.at(plyyard_store::now_ms()).rating),
        provisional: r.provisional(),
        // A loopback address is everyone's behind a proxy on this machine
        // that is not trusted to tell the client's (and every test's).
        address: if address.is_loopback() {
            String::new()
        } else {
            address.to_string()
        },
    })
}
