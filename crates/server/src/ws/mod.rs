//! Websockets: the frames a session reads and writes, independent of the
//! transport ([`Incoming`], [`Outgoing`], [`close`] codes), and the
//! sessions over them: a game's ([`game`]) and the lobby's ([`lobby`]).

pub mod game;
pub mod lobby;

pub use game::run_session;

/// Largest accepted frame or message, in bytes.
pub const MAX_FRAME_BYTES: usize = 4096;

/// WebSocket close codes we use.
pub mod close {
    /// Policy violation (flooding).
    pub const POLICY: u16 = 1008;
    /// Message too big.
    pub const TOO_BIG: u16 = 1009;
    /// The server is shutting down.
    pub const GOING_AWAY: u16 = 1001;
    /// The server failed to open the game.
    pub const INTERNAL: u16 = 1011;
    /// The game does not exist.
    pub const NOT_FOUND: u16 = 4404;
}

/// A frame from the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    /// A text frame.
    Text(String),
    /// A binary frame (refused: the protocol is text).
    Binary,
    /// A frame larger than [`MAX_FRAME_BYTES`].
    TooLarge,
    /// The client closes.
    Close,
    /// Control frames the transport handles itself.
    Other,
}

/// A frame to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    /// A JSON message.
    Text(String),
    /// Close with a code and a reason.
    Close(u16, String),
}
