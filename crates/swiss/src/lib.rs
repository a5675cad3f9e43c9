//! `plyyard-swiss`: Swiss tournaments as pure data. It owns the pairing of
//! a round by the FIDE Dutch system (Handbook C.04.3), the tournament report
//! file (TRF16) read and written as strings, the tie-breaks (C.02) and a
//! seeded random tournament generator that pairs every round with the engine.
//!
//! No I/O but strings in and out; no chess rules (a result is all it needs).

pub mod bracket;
pub mod colour;
pub mod dutch;
pub mod fast;
pub mod generator;
pub mod history;
pub mod matching;
pub mod model;
pub mod rng;
pub mod round;
pub mod tiebreak;
pub mod trf;
pub mod wide;

pub use dutch::{PairError, Pairing, pair_next_round, pair_round};
pub use generator::{Generated, GeneratorOptions, generate};
pub use model::{Colour, Outcome, Player, RoundEntry, Tournament};

#[cfg(test)]
mod tests;
