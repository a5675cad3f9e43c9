//! The frames a websocket session reads and writes, independent of the
//! transport: [`Incoming`], [`Outgoing`], the largest frame accepted, and
//! the [`close`] codes.

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
    /// A ping or pong: the transport answers pings itself, but each one
    /// counts against the socket's frame limit.
    Control,
    /// A frame larger than [`MAX_FRAME_BYTES`].
    TooLarge,
    /// The client closes.
    Close,
    /// Anything else the transport reads (nothing the client can send
    /// at will; not counted).
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
