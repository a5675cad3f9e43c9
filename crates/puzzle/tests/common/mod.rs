//! Shared helpers of the integration tests: where the lichess sample is.

use std::path::PathBuf;

/// `<repo>/../shared/data/puzzles/lichess-sample.csv`, read in place.
pub fn sample_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles/lichess-sample.csv")
}
