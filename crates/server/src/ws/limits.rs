//! The limits of every websocket we serve, and when one of an account
//! must end.

/// Read buffer per websocket: messages are small, so a small buffer keeps
/// many idle sockets cheap (tungstenite's default is 128 KiB).
const SOCKET_READ_BUFFER: usize = 8 * 1024;
/// Bytes gathered before a websocket write (each message is flushed anyway).
const SOCKET_WRITE_BUFFER: usize = 0;
/// Outgoing bytes queued for a slow client before its socket is dropped.
const SOCKET_MAX_WRITE_BUFFER: usize = 1024 * 1024;

/// A websocket upgrade with the limits of every socket we serve (game and
/// lobby alike): frames and messages of at most
/// [`crate::ws::MAX_FRAME_BYTES`], small buffers, and a bounded queue
/// for a slow reader.
pub fn bounded_socket(
    ws: axum::extract::ws::WebSocketUpgrade,
) -> axum::extract::ws::WebSocketUpgrade {
    ws.max_frame_size(crate::ws::MAX_FRAME_BYTES)
        .max_message_size(crate::ws::MAX_FRAME_BYTES)
        .read_buffer_size(SOCKET_READ_BUFFER)
        .write_buffer_size(SOCKET_WRITE_BUFFER)
        .max_write_buffer_size(SOCKET_MAX_WRITE_BUFFER)
}

/// Completes when the socket of a request holding `held` must end (its
/// session logged out, its account deleted: see
/// [`plyyard_social::revocation`]); never for an anonymous socket.
pub async fn ended(held: Option<plyyard_social::Held>) {
    match held {
        Some(h) => {
            h.ended().await;
        }
        None => std::future::pending().await,
    }
}
