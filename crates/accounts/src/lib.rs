//! Accounts: sign-up, log-in, log-out, password change, deletion, and the
//! public profile of a player (`docs/protocol.md`, "Accounts").
//!
//! [`rules`] says which names and passwords are accepted, [`hasher`] hashes
//! passwords with Argon2id on a bounded pool. Accounts are stored by
//! `plyyard_store`; the server's `http::accounts` serves the HTTP API, and
//! sessions and cookies are its `identity`'s. Nothing here knows HTTP or
//! SQL.

pub mod hasher;
pub mod prefs;
pub mod rules;

pub use hasher::Hasher;
