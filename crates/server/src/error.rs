//! The one error type of the API, mapped to HTTP statuses and to socket
//! `error` messages. Internal failures are logged and reported as `internal`
//! without details.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::store::StoreError;

/// Machine-readable error codes (see `docs/protocol.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request or message is malformed.
    BadRequest,
    /// No such game or page.
    NotFound,
    /// The caller may not do this (not a player of the game, foreign origin).
    Forbidden,
    /// The move is not legal (or not a move at all).
    IllegalMove,
    /// It is the other side's turn.
    NotYourTurn,
    /// The game is over.
    GameOver,
    /// Nothing to take back.
    NothingToUndo,
    /// The draw claimed does not hold (or claims are not used in this game).
    CannotClaim,
    /// Too many requests or messages.
    RateLimited,
    /// A frame or body is too large.
    TooLarge,
    /// Something failed on the server; details are in its log only.
    Internal,
}

impl ErrorCode {
    /// The HTTP status for this code.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::IllegalMove
            | ErrorCode::NotYourTurn
            | ErrorCode::NothingToUndo
            | ErrorCode::CannotClaim => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::GameOver => StatusCode::CONFLICT,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// An error answered to a client: a code and a message safe to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ApiError {
    /// What went wrong, for programs.
    pub code: ErrorCode,
    /// What went wrong, for people (English; the client may translate by code).
    pub message: String,
}

impl ApiError {
    /// An error with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }

    /// `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    /// `not_found` for a game id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("no game {id:?}"))
    }

    /// `forbidden`.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Forbidden, message)
    }

    /// `internal`: logs `detail` and hides it from the client.
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {detail}");
        ApiError::new(ErrorCode::Internal, "internal server error")
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::internal(e)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorFields<'a>,
}

#[derive(Serialize)]
struct ErrorFields<'a> {
    code: ErrorCode,
    message: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorFields {
                code: self.code,
                message: &self.message,
            },
        };
        (self.code.status(), Json(body)).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialize_in_snake_case_and_map_to_statuses() {
        assert_eq!(
            serde_json::to_string(&ErrorCode::NotYourTurn).unwrap(),
            "\"not_your_turn\""
        );
        assert_eq!(ErrorCode::NotFound.status(), StatusCode::NOT_FOUND);
        let internal = ApiError::internal("disk on fire at /secret/path");
        assert_eq!(internal.message, "internal server error");
        assert_eq!(internal.code.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
