//! The store of seeks a node uses ([`NodeSeeks`]): its own pool when it
//! runs alone, the cluster's pool in Redis otherwise.

use super::memory::{MemorySeeks, SeekStore};
use super::redis::RedisSeeks;
use crate::pool::{Added, Pair, Seek, SeekId};

/// A node's store of seeks.
#[derive(Debug)]
pub enum NodeSeeks {
    /// A node alone: the pool of this process.
    Alone(MemorySeeks),
    /// A node of a cluster: the pool in Redis.
    Cluster(RedisSeeks),
}

impl SeekStore for NodeSeeks {
    fn new_id(&self) -> SeekId {
        match self {
            NodeSeeks::Alone(s) => s.new_id(),
            NodeSeeks::Cluster(s) => s.new_id(),
        }
    }

    async fn hold(&self, seek: &Seek) {
        match self {
            NodeSeeks::Alone(s) => s.hold(seek).await,
            NodeSeeks::Cluster(s) => s.hold(seek).await,
        }
    }

    async fn keep(&self, ids: &[SeekId]) {
        match self {
            NodeSeeks::Alone(s) => s.keep(ids).await,
            NodeSeeks::Cluster(s) => s.keep(ids).await,
        }
    }

    async fn claim(&self, a: &Seek, b: &Seek) -> (bool, bool) {
        match self {
            NodeSeeks::Alone(s) => s.claim(a, b).await,
            NodeSeeks::Cluster(s) => s.claim(a, b).await,
        }
    }

    async fn add(&self, seek: Seek, now: i64) -> Added {
        match self {
            NodeSeeks::Alone(s) => s.add(seek, now).await,
            NodeSeeks::Cluster(s) => s.add(seek, now).await,
        }
    }

    async fn remove(&self, id: SeekId) -> Option<Seek> {
        match self {
            NodeSeeks::Alone(s) => s.remove(id).await,
            NodeSeeks::Cluster(s) => s.remove(id).await,
        }
    }

    async fn remove_player(&self, player: &str) -> Option<Seek> {
        match self {
            NodeSeeks::Alone(s) => s.remove_player(player).await,
            NodeSeeks::Cluster(s) => s.remove_player(player).await,
        }
    }

    async fn sweep(&self, now: i64) -> Vec<Pair> {
        match self {
            NodeSeeks::Alone(s) => s.sweep(now).await,
            NodeSeeks::Cluster(s) => s.sweep(now).await,
        }
    }

    async fn waiting(&self) -> Vec<Seek> {
        match self {
            NodeSeeks::Alone(s) => s.waiting().await,
            NodeSeeks::Cluster(s) => s.waiting().await,
        }
    }
}
