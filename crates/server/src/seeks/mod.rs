//! Quick pairing: players seek a game of one of the site's presets and are
//! paired with anyone waiting for the same (`docs/protocol.md`, "Quick
//! pairing").
//!
//! `pool` is the matching as pure data (who pairs with whom); `store` holds
//! the waiting seeks behind a small trait ([`SeekStore`], in process
//! today: [`MemorySeeks`]) and tells the lobby of every seek that comes or
//! goes; `service` owns the seekers' handles, pairs atomically and starts
//! the games; `wire` is the JSON.

pub mod pool;
pub mod service;
pub mod store;
pub mod wire;

pub use pool::{PoolKey, Seek, SeekId};
pub use service::{SWEEP_EVERY, SeekHandle, Seeker, Seeks};
pub use store::{MemorySeeks, SeekStore};
pub use wire::{NewSeek, PairedJson, SeekJson};
