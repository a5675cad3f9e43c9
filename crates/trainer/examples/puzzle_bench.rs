//! The trainer's benchmark: import speed and the next puzzle's latency
//! with many puzzles stored.
//!
//! ```text
//! cargo run --release -p plyyard-trainer --example puzzle_bench -- \
//!     [--puzzles 1000000] [--db sqlite:///tmp/x.db | postgres://…] [--players 200] [--rounds 2000]
//! ```
//!
//! The puzzles are lichess's sample (`../shared/data/puzzles/lichess-sample.csv`,
//! read in place) copied with new ids and ratings spread by ±100 until
//! there are `--puzzles` rows, written to a CSV in memory (never to the
//! repository). It then times the import, then `--rounds` rounds (the
//! next puzzle for one of `--players` players, then its solution) and
//! prints one JSON line with rows/s and the p50/p99 of both steps.

use std::io::Cursor;
use std::time::{Duration, Instant};

use plyyard_puzzle::{Angle, Difficulty};
use plyyard_store::Store;
use plyyard_trainer::Trainer;

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_owned())
}

/// A five-character id for `n` (base 62).
fn id(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = [b'0'; 5];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 62) as usize];
        n /= 62;
    }
    String::from_utf8(out.to_vec()).expect("ascii")
}

/// The sample's good rows copied until `count` rows, as CSV text.
fn corpus(count: usize) -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/puzzles/lichess-sample.csv"
    );
    let text = std::fs::read_to_string(path).expect("the sample CSV");
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let rows: Vec<Vec<&str>> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.len() >= 10 && f[0].len() == 5)
        .collect();
    let mut out = Vec::with_capacity(count * 220);
    out.extend_from_slice(header.as_bytes());
    out.push(b'\n');
    for n in 0..count {
        let f = &rows[n % rows.len()];
        let copy = (n / rows.len()) as i64;
        let rating: i64 = f[3].parse::<i64>().unwrap_or(1500) + (copy * 37) % 201 - 100;
        let line = format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            id(n as u64),
            f[1],
            f[2],
            rating.max(400),
            f[4],
            f[5],
            f[6],
            f[7],
            f[8],
            f[9]
        );
        out.extend_from_slice(line.as_bytes());
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let count: usize = arg("--puzzles", "1000000").parse().expect("--puzzles N");
    let players: usize = arg("--players", "200").parse().expect("--players N");
    let rounds: usize = arg("--rounds", "2000").parse().expect("--rounds N");
    let dir = tempfile_dir();
    let db = arg("--db", &format!("sqlite://{dir}/bench.db"));
    let store = Store::open(&db).await.expect("the database");
    let trainer = Trainer::new(store.clone());
    let csv = corpus(count);
    if std::env::var("PROBE").is_ok() {
        let t = Instant::now();
        let rows: Vec<_> = plyyard_puzzle::Reader::new(Cursor::new(csv.clone()))
            .expect("header")
            .filter_map(Result::ok)
            .map(|p| plyyard_trainer::import::new_puzzle(&p, "lichess"))
            .collect();
        eprintln!("validate {:.2}s", t.elapsed().as_secs_f64());
        let t = Instant::now();
        for chunk in rows.chunks(2000) {
            store.insert_puzzles(chunk).await.expect("insert");
        }
        eprintln!("insert {:.2}s", t.elapsed().as_secs_f64());
        return;
    }
    let started = Instant::now();
    let report = trainer
        .import(Cursor::new(csv), |_| {})
        .await
        .expect("import");
    let import_s = started.elapsed().as_secs_f64();

    let mut next_times = Vec::with_capacity(rounds);
    let mut solve_times = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let player = format!("bench{}", r % players);
        let t = Instant::now();
        let got = trainer
            .next(&player, &Angle::Mix, Difficulty::Normal, 1, 1)
            .await
            .expect("a puzzle");
        next_times.push(t.elapsed());
        let t = Instant::now();
        trainer
            .solve(
                &player,
                false,
                &Angle::Mix,
                &[(got[0].id.clone(), r % 3 != 0, true)],
                2,
            )
            .await
            .expect("a round");
        solve_times.push(t.elapsed());
    }
    next_times.sort();
    solve_times.sort();
    let line = serde_json::json!({
        "db": if db.starts_with("postgres") { "postgres" } else { "sqlite" },
        "puzzles": report.imported,
        "import_s": (import_s * 10.0).round() / 10.0,
        "rows_per_s": (report.rows as f64 / import_s).round(),
        "next_p50_ms": percentile(&next_times, 0.5),
        "next_p99_ms": percentile(&next_times, 0.99),
        "solve_p50_ms": percentile(&solve_times, 0.5),
        "solve_p99_ms": percentile(&solve_times, 0.99),
        "rounds": rounds,
    });
    println!("{line}");
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> String {
    let dir = std::env::temp_dir().join(format!("plyyard-puzzle-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.display().to_string()
}
