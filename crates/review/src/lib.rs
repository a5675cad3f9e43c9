//! Ply Yard's game review: every position of a finished game searched by the engine
//! at a fixed budget, each move judged from the winning chances it gives
//! away (lichess's `Advice` thresholds, [`label`]), per-side accuracy
//! ([`accuracy`]), explanations as facts from the rules core, the tactics
//! detectors and the engine's lines ([`explain`]), put into words in four
//! languages and written as annotated PGN ([`text`]). The site and
//! `plyyard review` share all of it.
//!
//! [`analyse`] holds the data ([`Review`]) and the entry points:
//! [`review_game`] on a set of engines, or [`analyse_position`] per
//! position and [`assemble`] for callers that schedule the searches
//! themselves.
//!
//! Pure: no runtime, no storage. The server's `review` module runs the
//! searches on engines of its own, queues, caches and stores reviews, and
//! imports PGN.

pub mod accuracy;
pub mod analyse;
pub mod explain;
pub mod label;
pub mod openings;
pub mod text;

pub use analyse::{
    Budget, DEFAULT_NODES, Line, MoveReview, PositionEval, Review, analyse_position,
    analyse_positions, assemble, review_game, review_game_on,
};
pub use explain::{Explanation, Pattern, Piece};
pub use label::{Eval, Label, MateChange, Side};
