//! What can go wrong on the bus.

/// A failure of the bus.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The Redis URL cannot be read.
    #[error("bad Redis URL {url:?}: {reason}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// Redis cannot be reached or answered with an error.
    #[error("Redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// Nobody listens on the topic a request was sent to (its node is gone).
    #[error("node {0} is not listening")]
    NoListener(String),
    /// No answer came in time.
    #[error("no answer from node {0} in time")]
    Timeout(String),
}
