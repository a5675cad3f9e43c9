//! Ply Yard game crate.
