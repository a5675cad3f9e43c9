//! Perft against every count in `../shared/data/perft/*.perft`: the cheap
//! depths in the normal run, all of them in the ignored test
//! (`cargo test -p plyyard-game --release --test perft -- --ignored`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use plyyard_game::shakmaty::perft;
use plyyard_game::{Game, RuleSet};

struct Case {
    file: String,
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft")
}

fn load() -> Vec<Case> {
    let dir = data_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("perft data at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 4,
        "expected the perft files in {}",
        dir.display()
    );
    let mut cases = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut id, mut fen) = (String::new(), String::new());
        for line in text.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("id ") {
                id = rest.to_owned();
            } else if let Some(rest) = line.strip_prefix("epd ") {
                fen = rest.to_owned();
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let mut it = rest.split_whitespace();
                let depth = it.next().unwrap().parse().unwrap();
                let nodes = it.next().unwrap().parse().unwrap();
                cases.push(Case {
                    file: name.clone(),
                    id: id.clone(),
                    fen: fen.clone(),
                    depth,
                    nodes,
                });
            }
        }
    }
    cases
}

fn run(max_nodes: u64) -> (usize, u64) {
    let cases = load();
    let (mut checked, mut total) = (0, 0);
    let mut failures = Vec::new();
    for c in cases.iter().filter(|c| c.nodes <= max_nodes) {
        let game = Game::from_fen_lenient(&c.fen, RuleSet::PlyYard)
            .unwrap_or_else(|e| panic!("{} {}: {e}", c.file, c.id));
        let got = perft(game.position(), c.depth);
        if got != c.nodes {
            failures.push(format!(
                "{} {} depth {}: {got} != {}",
                c.file, c.id, c.depth, c.nodes
            ));
        }
        checked += 1;
        total += got;
    }
    assert!(failures.is_empty(), "{failures:#?}");
    (checked, total)
}

#[test]
fn perft_cheap_depths() {
    let (checked, nodes) = run(1_000_000);
    assert!(checked > 3000, "only {checked} counts checked");
    eprintln!("perft: {checked} counts, {nodes} nodes");
}

#[test]
#[ignore = "every depth: hours of CPU in debug, run with --release"]
fn perft_all_depths() {
    let max = std::env::var("PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    let (checked, nodes) = run(max);
    eprintln!("perft: {checked} counts, {nodes} nodes");
}

#[test]
fn all_960_start_positions_are_numbered() {
    let published: BTreeSet<String> = load()
        .into_iter()
        .filter(|c| c.file == "chess960-start-positions.perft")
        .map(|c| c.fen.split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(published.len(), 960);
    let ours: BTreeSet<String> = (0..960)
        .map(|n| {
            let g = Game::chess960(n, RuleSet::PlyYard).unwrap();
            g.fen().split(' ').next().unwrap().to_owned()
        })
        .collect();
    assert_eq!(ours, published);
}
