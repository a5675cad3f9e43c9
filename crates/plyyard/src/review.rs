//! `plyyard review`: reviews every game of a PGN file with the site's
//! review library and writes them back as annotated PGN (`[%eval]`, NAGs,
//! the best line as a variation, the explanation as a comment).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use plyyard_game::RuleSet;
use plyyard_game::pgn::{ClockPrecision, PgnImporter};
use plyyard_review::{self as review, Budget};

/// Languages of the explanations.
const LANGS: [&str; 4] = ["en", "fr", "ru", "ro"];

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// PGN file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Nodes searched per position (default: the site's budget).
    #[arg(long, value_name = "N", conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Milliseconds per position instead of a node budget.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Language of the explanations: en, fr, ru or ro.
    #[arg(long, default_value = "en", value_parser = clap::builder::PossibleValuesParser::new(LANGS))]
    lang: String,
    /// Positions searched at once, one core each (default: the cores
    /// available, at most 2).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Rule set for games without a `Rules` tag.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
    /// Clocks in `[%clk]` comments: `s`, whole seconds (rounded, as
    /// lichess writes them), or `ms`, the milliseconds as read.
    #[arg(long, value_name = "s|ms", default_value = "s")]
    clock_precision: ClockPrecision,
    /// Print the time each game took on standard error.
    #[arg(long)]
    timing: bool,
}

fn open_input(path: &PathBuf) -> io::Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        Ok(Box::new(io::stdin().lock()))
    } else {
        Ok(Box::new(BufReader::new(File::open(path)?)))
    }
}

pub fn run(args: ReviewArgs) -> ExitCode {
    let input = match open_input(&args.file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("plyyard review: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let budget = match (args.nodes, args.movetime) {
        (_, Some(ms)) => Budget::MovetimeMs(ms),
        (Some(n), None) => Budget::Nodes(n),
        (None, None) => Budget::default(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(2)));
    let mut engines: Vec<plyyard_engine::Engine> = (0..threads.clamp(1, 64))
        .map(|_| plyyard_engine::Engine::new(review::analyse::HASH_MB))
        .collect();
    let stop = AtomicBool::new(false);
    let mut bad = 0usize;
    let mut out = BufWriter::new(io::stdout().lock());
    for item in PgnImporter::with_rules(input, args.rules) {
        let g = match item {
            Ok(g) => g,
            Err(e) => {
                bad += 1;
                eprintln!("{}: {e}", args.file.display());
                continue;
            }
        };
        let started = Instant::now();
        let Some(r) = review::review_game(&g.game, budget, &mut engines, &stop, &|_, _| {}) else {
            return ExitCode::FAILURE;
        };
        if args.timing {
            eprintln!(
                "game {}: {} moves reviewed in {:.2} s",
                g.number,
                r.moves.len(),
                started.elapsed().as_secs_f64()
            );
        }
        let text = review::text::annotated_pgn(
            &g.game,
            &g.pgn_tags(),
            &r,
            &args.lang,
            args.clock_precision,
        );
        if out.write_all(text.as_bytes()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() || bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
