//! Accounts: sign-up, log-in, log-out, password change, deletion, and the
//! public profile of a player (`docs/protocol.md`, "Accounts").
//!
//! [`rules`] says which names and passwords are accepted, [`hasher`] hashes
//! passwords with Argon2id on a bounded pool; `http::accounts` serves the
//! HTTP API.
//! Sessions and cookies are [`crate::identity`]'s.

pub mod hasher;
pub mod rules;

pub use hasher::Hasher;
