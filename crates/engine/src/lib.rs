//! Ply Yard engine: an alpha-beta searcher on top of shakmaty, with a tuned
//! classical evaluation plus a small neural network's correction for Expert
//! (the weaker levels play the classical evaluation alone), human-like
//! playing levels and a UCI front end.
//!
//! The [`Engine`] is what the server calls in-process; [`uci`] wraps it for
//! chess GUIs. An engine owns its transposition table and thread setting and
//! nothing is global, so several engines can live side by side.

pub mod bench;
#[cfg(feature = "train")]
pub mod datagen;
mod engine;
pub mod eval;
pub mod evaluator;
pub mod level;
mod limits;
pub mod nnue;
#[cfg(feature = "train")]
pub mod nnue_train;
pub mod params;
mod play;
mod rng;
mod score;
pub mod search;
pub mod see;
mod strength;
pub mod tactics;
#[cfg(test)]
mod testutil;
pub mod time;
pub mod tt;
#[cfg(feature = "train")]
pub mod tune;
pub mod tuned;
pub mod uci;

pub use crate::engine::{Engine, replay};
pub use crate::limits::{Clock, Limits};
pub use crate::score::{Score, SearchResult};
pub use crate::search::Info as SearchInfo;
pub use crate::strength::{Level, ParseLevelError};

#[cfg(test)]
mod tests;
