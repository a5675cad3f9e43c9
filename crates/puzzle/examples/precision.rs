//! Precision of the tagger per theme against lichess's own tags on the
//! sample (`../shared/data/puzzles/lichess-sample.csv`, read in place):
//! for each theme, of the puzzles we tag with it, the share whose lichess
//! row carries it. Prints a Markdown table.
//!
//! `cargo run --release -p plyyard-puzzle --example precision [CSV]`

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;

use plyyard_puzzle::import::Reader;
use plyyard_puzzle::tagger::tag;
use plyyard_puzzle::{Puzzle, Theme};

#[derive(Default)]
struct Count {
    tagged: u32,
    agreed: u32,
    lichess: u32,
}

fn main() {
    let path = std::env::args().nth(1).map_or_else(sample, PathBuf::from);
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let puzzles: Vec<Puzzle> = Reader::new(file).expect("a puzzle CSV").flatten().collect();
    let mut counts: BTreeMap<Theme, Count> = BTreeMap::new();
    let show = std::env::var("SHOW").ok().and_then(|k| Theme::from_key(&k));
    for p in &puzzles {
        let line = p.line().expect("validated");
        let ours = tag(&line, None);
        for &t in &ours {
            let c = counts.entry(t).or_default();
            c.tagged += 1;
            c.agreed += u32::from(p.has(t));
            if Some(t) == show && !p.has(t) {
                eprintln!(
                    "{} {} {} [{}]",
                    p.id,
                    p.fen,
                    p.opponent_move,
                    p.solution.join(" ")
                );
            }
        }
        for &t in &p.themes {
            counts.entry(t).or_default().lichess += 1;
        }
    }
    print_table(puzzles.len(), &counts);
}

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles/lichess-sample.csv")
}

fn print_table(n: usize, counts: &BTreeMap<Theme, Count>) {
    println!("{n} puzzles\n");
    println!("| theme | lichess rows | we tag | of which lichess agrees | precision |");
    println!("|---|---:|---:|---:|---:|");
    let mut rows: Vec<(&Theme, &Count)> = counts.iter().filter(|(_, c)| c.tagged > 0).collect();
    rows.sort_by(|a, b| {
        b.1.lichess
            .cmp(&a.1.lichess)
            .then(b.1.tagged.cmp(&a.1.tagged))
    });
    for (t, c) in rows {
        let precision = f64::from(c.agreed) / f64::from(c.tagged);
        println!(
            "| {t} | {} | {} | {} | {precision:.2} |",
            c.lichess, c.tagged, c.agreed
        );
    }
    let never: Vec<String> = counts
        .iter()
        .filter(|(_, c)| c.tagged == 0 && c.lichess > 0)
        .map(|(t, c)| format!("{t} ({})", c.lichess))
        .collect();
    println!("\nNever tagged by us (lichess rows): {}", never.join(", "));
}
