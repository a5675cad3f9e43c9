//! The one error type of the API, mapped to HTTP statuses and to socket
//! `error` messages. Internal failures are logged and reported as `internal`
//! without details. Messages are bounded: client input quoted in one goes
//! through [`echo`] (at most [`MAX_ECHO_CHARS`] characters), and a whole
//! message is cut at [`MAX_MESSAGE_CHARS`].

use std::borrow::Cow;

use http::StatusCode;
use serde::{Deserialize, Serialize};

/// Characters of client input (a path, a name, a field) an error message
/// quotes at most.
pub const MAX_ECHO_CHARS: usize = 100;

/// Characters of an error message at most, whatever it quotes.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// `s` cut to `max` characters, with `…` in place of what was cut.
fn bounded(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((end, _)) => Cow::Owned(format!("{}…", &s[..end])),
    }
}

/// Client input as an error message quotes it: in double quotes, escaped
/// like a Rust string (`{:?}`), cut to [`MAX_ECHO_CHARS`] characters with
/// an ellipsis.
///
/// # Examples
/// ```
/// use plyyard_wire::error::echo;
/// assert_eq!(echo("abc"), "\"abc\"");
/// let long = "x".repeat(60_000);
/// assert_eq!(echo(&long).chars().count(), 100 + 3);
/// assert!(echo(&long).ends_with("…\""));
/// ```
pub fn echo(s: &str) -> String {
    match s.char_indices().nth(MAX_ECHO_CHARS) {
        None => format!("{s:?}"),
        Some((end, _)) => {
            let quoted = format!("{:?}", &s[..end]);
            format!("{}…\"", &quoted[..quoted.len() - 1])
        }
    }
}

/// `message` with every span between two backquotes cut at
/// [`MAX_ECHO_CHARS`] characters (with `…`).
fn clip_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * MAX_MESSAGE_CHARS));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&bounded(part, MAX_ECHO_CHARS));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Machine-readable error codes (see `docs/protocol.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The game changed elsewhere meanwhile; reload it.
    Conflict,
    /// The username is taken (in any case).
    UsernameTaken,
    /// The username breaks the naming rules (`reason` says which).
    InvalidUsername,
    /// The password is refused (`reason` says why).
    WeakPassword,
    /// Wrong username or password.
    BadCredentials,
    /// The request needs a logged-in account.
    NotLoggedIn,
    /// The password given to confirm a change is wrong.
    WrongPassword,
    /// Both sides have moved: too late to abort.
    CannotAbort,
    /// No draw offer to accept.
    NoDrawOffer,
    /// The opponent is not away (long enough) to claim the game.
    NotAway,
    /// The game is not over (a rematch comes after it).
    NotOver,
    /// The game was aborted: it has no review.
    Aborted,
    /// The player already has the most open tables allowed.
    TooManyTables,
    /// One cannot sit at one's own table.
    OwnTable,
    /// Someone else sat down first.
    TableTaken,
    /// The table was cancelled or expired.
    TableClosed,
    /// A PGN the importer refuses (the message says where and why).
    InvalidPgn,
    /// The position is not a mate drill (K+Q or K+R against a lone king,
    /// the stronger side to move).
    NotADrill,
    /// A frame or body is too large.
    TooLarge,
    /// Something failed on the server; details are in its log only.
    Internal,
    /// The server cannot do it just now (a cluster's node lost its bus);
    /// try again in a few seconds.
    Unavailable,
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
            | ErrorCode::CannotClaim
            | ErrorCode::NotADrill
            | ErrorCode::InvalidPgn => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::GameOver | ErrorCode::Conflict | ErrorCode::UsernameTaken => {
                StatusCode::CONFLICT
            }
            ErrorCode::InvalidUsername | ErrorCode::WeakPassword => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ErrorCode::BadCredentials | ErrorCode::NotLoggedIn => StatusCode::UNAUTHORIZED,
            ErrorCode::WrongPassword => StatusCode::FORBIDDEN,
            ErrorCode::CannotAbort | ErrorCode::NoDrawOffer | ErrorCode::NotAway => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ErrorCode::NotOver
            | ErrorCode::Aborted
            | ErrorCode::TooManyTables
            | ErrorCode::OwnTable
            | ErrorCode::TableTaken => StatusCode::CONFLICT,
            ErrorCode::TableClosed => StatusCode::GONE,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
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
    /// Why, as a code the client translates (`weak_password`, `invalid_username`).
    pub reason: Option<&'static str>,
    /// Hints for the person (English), e.g. how to make a password stronger.
    pub suggestions: Vec<String>,
    /// For `rate_limited`: whole seconds to wait, sent as `Retry-After`.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with the given code and message.
    /// Every span between backquotes (how serde and axum quote input) is
    /// cut at [`MAX_ECHO_CHARS`] characters, and the message at
    /// [`MAX_MESSAGE_CHARS`].
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        let mut message = message.into();
        if message.contains('`') {
            message = clip_quoted(&message);
        }
        if message.chars().nth(MAX_MESSAGE_CHARS).is_some() {
            message = bounded(&message, MAX_MESSAGE_CHARS).into_owned();
        }
        ApiError {
            code,
            message,
            reason: None,
            suggestions: Vec::new(),
            retry_after: None,
        }
    }

    /// `rate_limited`, answered with `Retry-After: secs` (at least 1).
    pub fn rate_limited(message: impl Into<String>, secs: u64) -> ApiError {
        ApiError {
            retry_after: Some(secs.max(1)),
            ..ApiError::new(ErrorCode::RateLimited, message)
        }
    }

    /// The same error with a reason code.
    #[must_use]
    pub fn with_reason(mut self, reason: &'static str) -> ApiError {
        self.reason = Some(reason);
        self
    }

    /// `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    /// `not_found` for a game id.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("no game {}", echo(id)))
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

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorFields<'a>,
}

#[derive(Serialize)]
struct ErrorFields<'a> {
    code: ErrorCode,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    suggestions: &'a [String],
}

impl ApiError {
    /// The JSON body of this error as the API sends it:
    /// `{"error":{"code","message","reason"?,"suggestions"?}}`, the message
    /// cut at [`MAX_MESSAGE_CHARS`].
    pub fn body(&self) -> serde_json::Value {
        let body = ErrorBody {
            error: ErrorFields {
                code: self.code,
                message: &bounded(&self.message, MAX_MESSAGE_CHARS),
                reason: self.reason,
                suggestions: &self.suggestions,
            },
        };
        serde_json::to_value(body).unwrap_or_default()
    }
}

#[cfg(feature = "axum")]
impl axum::response::IntoResponse for ApiError {
    fn into_response(self) -> axum::response::Response {
        let mut resp = (self.code.status(), axum::Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            resp.headers_mut()
                .insert(http::header::RETRY_AFTER, secs.max(1).into());
        }
        resp
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

    #[test]
    fn messages_and_echoes_are_bounded() {
        let long = "é".repeat(70_000);
        assert_eq!(echo("a\"b"), r#""a\"b""#);
        let e = echo(&long);
        assert_eq!(e.chars().count(), MAX_ECHO_CHARS + 3);
        assert!(e.starts_with("\"éé") && e.ends_with("é…\""), "{e}");
        let err = ApiError::bad_request(long.clone());
        assert_eq!(err.message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(err.message.ends_with('…'));
        let short = "x".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(ApiError::bad_request(short.clone()).message, short);
        assert!(ApiError::no_game(&long).message.len() < 300);
        let serde_like = format!("unknown variant `{}`, expected `beginner`", "x".repeat(500));
        let cut = ApiError::bad_request(serde_like).message;
        assert_eq!(
            cut,
            format!(
                "unknown variant `{}…`, expected `beginner`",
                "x".repeat(100)
            )
        );
    }
}
