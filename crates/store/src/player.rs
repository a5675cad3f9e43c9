//! Who plays: a player's id, the key of its games and, once it signs up,
//! of its account.

/// A player's id: the verified anonymous player of a request (the
/// server's identity middleware puts it in the request's extensions), and
/// the player column of stored games.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);
