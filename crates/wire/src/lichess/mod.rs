//! The Lichess-compatible API's wire forms (see `docs/api.md`): scopes as
//! lichess names them, its speeds and perfs, and the error body lichess clients read
//! (`{"error":"…"}`, unlike the `{"error":{"code","message"}}` of our own
//! API).

mod perf;
mod scope;

use serde::Serialize;

pub use perf::{perf, perf_of_control, speed};
pub use scope::{Scope, Scopes, UnknownScope};

/// The body of every failed Lichess-API request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub error: String,
}

/// The body of every successful Lichess-API POST without a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ok {
    /// Always `true`.
    pub ok: bool,
}

/// `{"ok":true}`.
pub const OK: Ok = Ok { ok: true };
