//! The exercises the site checks on the Learn pages: mate drills against
//! an exact solver ([`drills`], [`tablebase`]), mate-in-one and mate-in-two
//! puzzles ([`puzzles`]), and each player's progress ([`progress`]).
//! The HTTP routes are in `http/exercises.rs`.

pub mod drills;
pub mod progress;
pub mod puzzles;
pub mod tablebase;
