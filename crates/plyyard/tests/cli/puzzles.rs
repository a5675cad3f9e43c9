//! `plyyard puzzles` through the real binary: the same seed gives the same
//! bytes, and what it writes passes the puzzles' full verification.

use std::process::Command;

fn generate(seed: &str, count: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(["puzzles", "learn", "--seed", seed, "--count", count])
        .output()
        .expect("plyyard runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_same_seed_gives_the_same_puzzles() {
    let first = generate("5", "2");
    assert_eq!(first, generate("5", "2"));
    assert_ne!(first, generate("6", "2"), "another seed, other games");
    let list: Vec<plyyard_exercises::puzzles::Puzzle> =
        serde_json::from_slice(&first).expect("a JSON list of puzzles");
    let kinds: Vec<u8> = list.iter().map(|p| p.mate_in).collect();
    assert_eq!(kinds, [1, 1, 2, 2]);
    let mut engine = plyyard_engine::Engine::new(16);
    for p in &list {
        plyyard_exercises::puzzles::verify(p, &mut engine).unwrap();
    }
}

#[test]
fn a_bad_count_is_refused_clearly() {
    let out = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(["puzzles", "learn", "--seed", "1", "--count", "many"])
        .output()
        .expect("plyyard runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--count"));
}

fn plyyard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(args)
        .output()
        .expect("plyyard runs")
}

#[test]
fn generate_writes_lichess_columns_and_refuses_bad_budgets() {
    let out = plyyard(&["puzzles", "generate", "--seed", "1", "--games", "0"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n"
    );
    let bad = plyyard(&[
        "puzzles",
        "generate",
        "--seed",
        "1",
        "--games",
        "1",
        "--judge-nodes",
        "10",
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("judge-nodes"));
    let help = plyyard(&["puzzles", "generate", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--seed",
        "--games",
        "--out",
        "--first-game",
        "--scan-nodes",
        "--judge-nodes",
        "--tries",
    ] {
        assert!(help.contains(flag), "{flag} in {help}");
    }
}

#[test]
fn pack_reports_a_missing_file() {
    let out = plyyard(&[
        "puzzles",
        "pack",
        "/nonexistent/chunk.csv",
        "--out",
        "/nonexistent/p.csv.gz",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open /nonexistent/chunk.csv"));
}
