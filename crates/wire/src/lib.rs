//! Ply Yard's wire types, shared by every layer that talks to clients:
//! [`protocol`] (the game state, socket messages in both directions and
//! request bodies of `docs/protocol.md`) and [`error`] (the one API error,
//! its codes and their HTTP statuses); [`lichess`] holds the
//! Lichess-compatible API's scopes and error body.
//!
//! This crate knows no transport: with the `axum` feature an [`ApiError`]
//! becomes a response; without it, only its status and JSON.

pub mod error;
pub mod lichess;
pub mod protocol;

pub use error::{ApiError, ErrorCode};
