//! The message bus between Ply Yard nodes: one Redis server shared by every
//! node of a cluster. Nothing here knows chess: live games, the lobby, rate
//! limits and presence speak through it.
//!
//! - [`Bus`]: a connection for commands and publishing (reconnecting on
//!   its own) and one subscriber connection, shared by every topic a node
//!   listens to, resubscribed after a reconnection; each reconnection bumps
//!   [`Bus::resubscribed`] so that listeners catch up from the database
//!   (publish/subscribe is at most once: what was published while a node
//!   was cut off is gone).
//! - [`frame`]: the shape of every message (a header line, a body).
//! - [`inbox`]: requests to one node and their answers, over the node's
//!   own topic.
//! - [`limits`]: rate-limit counters in Redis (a generic cell rate
//!   algorithm and a back-off of failures), shared by every node.
//! - [`places`]: places counted per key across the nodes, each under a
//!   lease (an account's open game streams).
//!
//! Without a bus (one node, SQLite or PostgreSQL) none of this runs.

mod bus;
mod error;
pub mod frame;
pub mod inbox;
pub mod limits;
pub mod places;
#[cfg(feature = "testing")]
pub mod testing;
pub mod topics;

pub use bus::{Bus, NODE_TOPIC_PREFIX, redacted};
pub use error::BusError;

/// An id for a node not given one: unique to this process (its process id
/// and random letters).
pub fn new_node_id() -> String {
    use rand::distr::{Alphanumeric, SampleString};
    let suffix = Alphanumeric
        .sample_string(&mut rand::rng(), 6)
        .to_lowercase();
    format!("node-{}-{suffix}", std::process::id())
}
