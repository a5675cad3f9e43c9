//! The Lichess-API error: a status and `{"error":"…"}`, the form lichess
//! clients read (berserk's `ResponseError.cause`, lichess-bot's checks),
//! with `Retry-After` on a rate limit.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use plyyard_wire::lichess::ErrorBody;

use crate::error::ApiError;

/// A failed Lichess-API request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiError {
    /// The status.
    pub status: StatusCode,
    /// The text of `error`.
    pub message: String,
    /// Seconds to wait, for a 429.
    pub retry_after: Option<u64>,
}

/// Characters of an error's text sent at most: texts that quote a
/// client's input stay bounded whatever the input.
pub const MAX_ERROR_CHARS: usize = 300;

/// `message` cut to [`MAX_ERROR_CHARS`] characters (with `…` when cut).
fn bounded(message: String) -> String {
    if message.chars().count() <= MAX_ERROR_CHARS {
        return message;
    }
    let mut cut: String = message.chars().take(MAX_ERROR_CHARS).collect();
    cut.push('…');
    cut
}

/// The Lichess-API handlers' result.
pub type LiResult<T> = Result<T, LiError>;

impl LiError {
    /// An error with `status` saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> LiError {
        LiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 400.
    pub fn bad_request(message: impl Into<String>) -> LiError {
        LiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> LiError {
        LiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 401 `No such token`.
    pub fn no_such_token() -> LiError {
        LiError::new(StatusCode::UNAUTHORIZED, "No such token")
    }

    /// 401 for a request with neither a token nor a session.
    pub fn unauthorized() -> LiError {
        LiError::new(
            StatusCode::UNAUTHORIZED,
            "Missing authorization header: send `Authorization: Bearer <token>`",
        )
    }

    /// 403 `Missing scope: …`.
    pub fn missing_scope(scopes: &str) -> LiError {
        LiError::new(StatusCode::FORBIDDEN, format!("Missing scope: {scopes}"))
    }
}

impl From<ApiError> for LiError {
    fn from(e: ApiError) -> LiError {
        let status = e.code.status();
        let message = e.body()["error"]["message"]
            .as_str()
            .unwrap_or("error")
            .to_owned();
        LiError {
            status,
            message,
            retry_after: e.retry_after,
        }
    }
}

impl From<plyyard_store::StoreError> for LiError {
    fn from(e: plyyard_store::StoreError) -> LiError {
        LiError::from(ApiError::from(e))
    }
}

impl IntoResponse for LiError {
    fn into_response(self) -> Response {
        let mut resp = (
            self.status,
            Json(ErrorBody {
                error: bounded(self.message),
            }),
        )
            .into_response();
        if let Some(secs) = self.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        resp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_error_quoting_a_long_input_stays_bounded() {
        let resp =
            LiError::bad_request(format!("unknown variant {}", "x".repeat(2_000))).into_response();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 16)
            .await
            .unwrap();
        let text: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let error = text["error"].as_str().unwrap();
        assert_eq!(error.chars().count(), MAX_ERROR_CHARS + 1);
        assert!(error.starts_with("unknown variant xxx") && error.ends_with('…'));
        let short = LiError::bad_request("No such game").into_response();
        let body = axum::body::to_bytes(short.into_body(), 1 << 16)
            .await
            .unwrap();
        assert_eq!(&body[..], br#"{"error":"No such game"}"#);
    }
}
