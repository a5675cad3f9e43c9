//! The puzzle trainer: puzzles from lichess's database (or our generator)
//! into the store, each player's next puzzles, their solves rated as
//! lichess rates them, the puzzle of the day, and each player's history.
//!
//! - [`import`]: streaming a lichess CSV into the store in batches;
//! - [`choose`]: the next puzzles for a player, angle and difficulty —
//!   a walk through the angle's puzzles near the target rating that never
//!   repeats a puzzle until the pool runs out;
//! - [`solve`]: a round's result, rated once per player and puzzle;
//! - [`pgn`]: what the API shows of a puzzle's line;
//! - [`shipped`]: Ply Yard's own puzzles, shipped in the binary, loaded once;
//! - [`Trainer`]: the door the server calls.
//!
//! The rules (validation, weights, Glicko-2) are `plyyard_puzzle`'s; all
//! SQL is `plyyard_store`'s.

pub mod choose;
pub mod import;
pub mod pgn;
pub mod shipped;
pub mod solve;
pub mod storm;

mod trainer;

pub use import::ImportReport;
pub use solve::Round;
pub use trainer::{MAX_BATCH, MAX_SOLUTIONS, Replay, Trainer, TrainerError};

#[cfg(test)]
mod tests;
