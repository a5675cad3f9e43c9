//! Ply Yard's puzzle trainer, the pure domain, with lichess's conventions:
//! importing lichess's puzzle database ([`import`], [`record`]), puzzle
//! lines on the board ([`line`]), the theme vocabulary ([`theme`]) and the
//! training angles ([`angle`]), difficulty settings ([`difficulty`]),
//! rating a solve ([`rating`]), tagging a line with themes ([`tagger`]),
//! the generator's criteria over engine evaluations ([`generator`]), and
//! Puzzle Storm's runs and dashboard ([`storm`]).
//!
//! No I/O beyond the reader handed in, no clock, no database: storage and
//! HTTP are the server's. Chess rules come from `plyyard-game`.

pub mod angle;
pub mod difficulty;
pub mod generator;
pub mod import;
pub mod line;
pub mod puzzle;
pub mod rating;
pub mod record;
pub mod storm;
pub mod tagger;
pub mod theme;

pub use angle::Angle;
pub use difficulty::Difficulty;
pub use generator::Score;
pub use import::{Reader, RowError};
pub use line::Line;
pub use puzzle::{Puzzle, PuzzleApi};
pub use rating::{Finished, Solve, finish};
pub use tagger::tag;
pub use theme::{Group, Theme};
