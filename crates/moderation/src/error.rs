//! Why a moderation request is refused ([`Refusal`]), each with the HTTP
//! kind the server answers it with.

/// A refused moderation request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The actor holds no role that allows it (403).
    #[error("{0}")]
    Forbidden(&'static str),
    /// The input is malformed: an unknown reason, role or action, an
    /// empty or over-long text (400).
    #[error("{0}")]
    Invalid(String),
}
