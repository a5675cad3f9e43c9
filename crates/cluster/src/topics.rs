//! Every topic and key family the nodes of a cluster share in Redis, with
//! the module that owns its payload: the one list of what crosses nodes
//! (`docs/architecture.md`, "Messages between nodes"). A crate that
//! publishes, listens or keeps keys names them from here, so that a new
//! message is added here first.
//!
//! Topics (publish/subscribe):
//! - [`NODE_TOPIC_PREFIX`]`<id>`: a command for a game the node owns and
//!   its answer (`plyyard_live`'s `ask`: `Forward`, `Answer`), through
//!   [`crate::inbox`];
//! - [`game_lane`]: the events of the games on one lane ([`crate::frame`],
//!   written by `plyyard_live`'s `cluster`);
//! - [`LIFE`]: games starting and ending, owners changed (`plyyard_live`);
//! - [`LOBBY`]: the lobby's changes (`plyyard_pairing::lobby::LobbyMsg`);
//! - [`seeks_of`]: a paired seeker's answer for the node holding its
//!   request (`plyyard_pairing::seeks::service`);
//! - [`EVENTS`]: account events and event streams opening
//!   (`plyyard_social::events`);
//! - [`CHAT`]: game chat lines (`plyyard_social::chat::delivery`);
//! - [`ENDS`]: streams and sockets to end, by account or credential
//!   (`plyyard_social::revocation`).
//!
//! Keys:
//! - `seek:all`, `seek:ver`, `seek:here:<id>`: the cluster's seek pool
//!   (`plyyard_pairing::seeks::redis`, in its scripts);
//! - [`ONLINE`], [`online_of`]: who is online (`plyyard_social::presence`);
//! - `rl:<limit>:<ip|acct|player>:<value>`: rate limits ([`crate::limits`],
//!   keyed by the server's `security::limits`);
//! - [`game_streams_of`]: an account's open game streams
//!   ([`crate::places`], held by the server's `streams`).

pub use crate::bus::NODE_TOPIC_PREFIX;

/// How many lanes carry the games' events.
pub const GAME_LANES: u64 = 16;

/// The lane topic of lane `n` (`game:<n>`).
pub fn game_lane(n: u64) -> String {
    format!("game:{n}")
}

/// Games starting and ending, and owners changed.
pub const LIFE: &str = "life";
/// The lobby's changes: each message is the JSON text sent to lobby
/// sockets.
pub const LOBBY: &str = "lobby";
/// Account events, and event streams opening.
pub const EVENTS: &str = "events";
/// Game chat lines.
pub const CHAT: &str = "chat";
/// Streams and sockets to end: a token revoked, an account deleted.
pub const ENDS: &str = "ends";
/// Notifications for the open pages of an account.
pub const NOTIFY: &str = "notify";

/// The topic on which node `node` hears answers for its seekers
/// (`seeks:<node>`).
pub fn seeks_of(node: &str) -> String {
    format!("seeks:{node}")
}

/// The sorted set of online accounts (account → until when, Unix ms).
pub const ONLINE: &str = "online";

/// The hash of one account's nodes (`online:<id>`: node → until when).
pub fn online_of(id: &str) -> String {
    format!("online:{id}")
}

/// The places of one account's open game streams (`gs:<id>`: holder →
/// until when, Redis's ms).
pub fn game_streams_of(id: &str) -> String {
    format!("gs:{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_deployed_ones() {
        assert_eq!(game_lane(0), "game:0");
        assert_eq!(game_lane(GAME_LANES - 1), "game:15");
        assert_eq!(seeks_of("n1"), "seeks:n1");
        assert_eq!(online_of("ann"), "online:ann");
        assert_eq!(game_streams_of("ann"), "gs:ann");
        assert_eq!(
            [LIFE, LOBBY, EVENTS, CHAT, ENDS, ONLINE, NODE_TOPIC_PREFIX],
            ["life", "lobby", "events", "chat", "ends", "online", "node:"]
        );
    }
}
