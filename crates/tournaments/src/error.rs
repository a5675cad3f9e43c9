//! Owns [`TournamentError`]: why a tournament action is refused, each
//! with the message the client sees, and its mapping to the API's error.

use plyyard_store::StoreError;
use plyyard_wire::error::{ApiError, ErrorCode};
use thiserror::Error;

/// Why a tournament action was refused.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// No such tournament.
    #[error("no tournament {0}")]
    NotFound(String),
    /// The request is not acceptable (bad settings, a refused entry, a
    /// second join …).
    #[error("{0}")]
    Invalid(String),
    /// The caller may not do this (terminating another's Arena, creating
    /// an Arena for a club they do not lead).
    #[error("{0}")]
    Forbidden(String),
    /// A store failure.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> ApiError {
        match e {
            TournamentError::NotFound(_) => ApiError::new(ErrorCode::NotFound, e.to_string()),
            TournamentError::Invalid(m) => ApiError::bad_request(m),
            TournamentError::Forbidden(m) => ApiError::new(ErrorCode::Forbidden, m),
            TournamentError::Store(s) => s.into(),
        }
    }
}
