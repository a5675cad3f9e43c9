//! Ply Yard engine crate.
