//! Quick pairing: players seek a game of one of the site's presets and are
//! paired with anyone waiting for the same (`docs/protocol.md`, "Quick
//! pairing").
//!
//! `pool` is the matching as pure data (who pairs with whom); `store` holds
//! the waiting seeks behind a small trait ([`SeekStore`]: [`MemorySeeks`]
//! in process, [`RedisSeeks`] shared by the nodes of a cluster, either
//! behind [`NodeSeeks`]) and tells the lobby of every seek that comes or
//! goes; `service` owns the seekers' handles, pairs atomically and starts
//! the games, telling each seeker on the node that holds its request;
//! `wire` is the JSON.

pub mod either;
pub mod pool;
pub mod service;
pub mod shared;
pub mod store;
pub mod wire;

pub use either::NodeSeeks;
pub use pool::{PoolKey, Seek, SeekId};
pub use service::{SWEEP_EVERY, SeekHandle, Seeker, Seeks};
pub use shared::RedisSeeks;
pub use store::{MemorySeeks, SeekStore};
pub use wire::{NewSeek, PairedJson, SeekJson};

/// `account` as a seeker of `key`: its name and its rating at the key's
/// speed.
///
/// # Errors
/// A database failure.
pub async fn seeker_for(
    store: &plyyard_store::Store,
    account: &plyyard_store::Account,
    key: &PoolKey,
) -> Result<Seeker, crate::error::ApiError> {
    let player = account.player_id.clone();
    let ratings = store.ratings_of(&[player.as_str()]).await?;
    let r = ratings
        .get(&(player.clone(), wire::speed_of(key)))
        .copied()
        .unwrap_or_default();
    Ok(Seeker {
        player,
        name: account.username.clone(),
        rating: plyyard_rating::display(r.at(plyyard_store::now_ms()).rating),
        provisional: r.provisional(),
    })
}
