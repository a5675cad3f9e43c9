//! Ply Yard's exercises, checked for the Learn pages: mate drills against
//! an exact solver ([`drills`], [`tablebase`]), mate-in-one and mate-in-two
//! puzzles ([`puzzles`]), and each player's progress ([`progress`]).
//! Pure: the HTTP routes are the server's (`http/exercises.rs`) and the
//! progress rows are in its store (`store/learn.rs`). `plyyard puzzles learn`
//! checks the shipped puzzles with the same code.

pub mod drills;
pub mod progress;
pub mod puzzles;
pub mod tablebase;
