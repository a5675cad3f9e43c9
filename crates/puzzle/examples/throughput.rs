//! Import throughput: parse and validate the sample CSV (held in memory,
//! so disk speed does not count) again and again on one core, then the
//! same with the tagger run on every puzzle. Prints rows per second.
//!
//! `cargo run --release -p plyyard-puzzle --example throughput [CSV] [PASSES]`

use std::path::PathBuf;
use std::time::Instant;

use plyyard_puzzle::import::Reader;
use plyyard_puzzle::tagger::tag;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().map_or_else(sample, PathBuf::from);
    let passes: usize = args.next().map_or(40, |p| p.parse().expect("a pass count"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    report("parse + validate", passes, || import(&bytes, false));
    report("parse + validate + tag", passes / 4 + 1, || {
        import(&bytes, true)
    });
}

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles/lichess-sample.csv")
}

/// Rows read (puzzles and refused rows) in one pass.
fn import(bytes: &[u8], tagging: bool) -> usize {
    let mut rows = 0;
    for item in Reader::new(bytes).expect("a puzzle CSV") {
        rows += 1;
        if let (true, Ok(p)) = (tagging, item) {
            let line = p.line().expect("validated");
            std::hint::black_box(tag(&line, None));
        }
    }
    rows
}

fn report(what: &str, passes: usize, mut pass: impl FnMut() -> usize) {
    pass(); // warm-up
    let start = Instant::now();
    let rows: usize = (0..passes).map(|_| pass()).sum();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{what}: {rows} rows in {secs:.3} s = {:.0} rows/s",
        rows as f64 / secs
    );
}
