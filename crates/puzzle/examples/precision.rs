//! Precision of the tagger per theme against lichess's own tags on the
//! sample (`../shared/data/puzzles/lichess-sample.csv`, read in place):
//! for each theme, of the puzzles we tag with it, the share whose lichess
//! row carries it. Prints a Markdown table.
//!
//! The sample's rows carry only some of their themes: some have lost
//! even their length and goal keys, which every lichess row has. The last
//! column counts only the rows that still have both (the "complete"
//! rows); motif keys may still be missing there, so it too is a lower
//! bound of the precision.
//!
//! `cargo run --release -p plyyard-puzzle --example precision [CSV]`
//!
//! With `SHOW=<theme key>`, the complete rows we tag with that theme and
//! lichess does not are listed on stderr.

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
    complete_tagged: u32,
    complete_agreed: u32,
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
        let complete = is_complete(p);
        for &t in &ours {
            let c = counts.entry(t).or_default();
            c.tagged += 1;
            c.agreed += u32::from(p.has(t));
            c.complete_tagged += u32::from(complete);
            c.complete_agreed += u32::from(complete && p.has(t));
            if Some(t) == show && complete && !p.has(t) {
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

/// Whether the row still has a length key and a goal key.
fn is_complete(p: &Puzzle) -> bool {
    use Theme::*;
    let any = |list: &[Theme]| list.iter().any(|&t| p.has(t));
    any(&[OneMove, Short, Long, VeryLong]) && any(&[Mate, Crushing, Advantage, Equality])
}

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles/lichess-sample.csv")
}

fn print_table(n: usize, counts: &BTreeMap<Theme, Count>) {
    println!("{n} puzzles\n");
    println!("| theme | lichess rows | we tag | lichess agrees | precision | on complete rows |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut rows: Vec<(&Theme, &Count)> = counts.iter().filter(|(_, c)| c.tagged > 0).collect();
    rows.sort_by(|a, b| {
        b.1.lichess
            .cmp(&a.1.lichess)
            .then(b.1.tagged.cmp(&a.1.tagged))
    });
    for (t, c) in rows {
        let precision = f64::from(c.agreed) / f64::from(c.tagged);
        let complete = if c.complete_tagged == 0 {
            "–".to_owned()
        } else {
            let share = f64::from(c.complete_agreed) / f64::from(c.complete_tagged);
            format!("{share:.2} ({}/{})", c.complete_agreed, c.complete_tagged)
        };
        println!(
            "| {t} | {} | {} | {} | {precision:.2} | {complete} |",
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
