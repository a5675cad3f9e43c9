//! Ply Yard server crate.
