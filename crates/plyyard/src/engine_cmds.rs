//! The engine family of subcommands: `uci`, `bench`, `datagen`, `tune`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Speak the UCI protocol on standard input/output (for chess GUIs).
    Uci,
    /// Search a fixed set of positions and print `Bench: <nodes> nodes <nps> nps`.
    Bench {
        /// Search depth per position.
        #[arg(default_value_t = engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Play fast self-play games and write labelled positions (`FEN | result | score`).
    Datagen {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Random opening moves before the engines take over.
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (appended to).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the evaluation weights to labelled positions (Texel method).
    Tune {
        /// Positions written by `datagen`.
        #[arg(long)]
        data: PathBuf,
        /// Gradient descent epochs.
        #[arg(long, default_value_t = 200)]
        epochs: u32,
        /// Adam learning rate (centipawns per step).
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// L2 pull of each weight toward its starting value.
        #[arg(long, default_value_t = 1e-9)]
        lambda: f64,
        /// L2 pull for the piece-square tables.
        #[arg(long, default_value_t = 1e-7)]
        lambda_pst: f64,
        /// Weight of the search score in each target, 0 (game result only)
        /// to 1 (score only); lines without a score use the result.
        #[arg(long, default_value_t = 0.5)]
        score_weight: f64,
        /// Where to write the tuned table as Rust source.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Uci => {
            let stdin = std::io::stdin();
            engine::uci::run(stdin.lock(), Box::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
        Command::Bench { depth } => {
            let r = engine::bench::run(depth, &mut |l| eprintln!("{l}"));
            println!("{}", r.summary());
            ExitCode::SUCCESS
        }
        Command::Datagen {
            games,
            nodes,
            random_plies,
            seed,
            out,
        } => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out);
            let mut file = match file {
                Ok(f) => std::io::BufWriter::new(f),
                Err(e) => {
                    eprintln!("plyyard datagen: cannot open {}: {e}", out.display());
                    return ExitCode::FAILURE;
                }
            };
            let cfg = engine::datagen::Config {
                games,
                nodes,
                random_plies,
                seed,
            };
            match engine::datagen::run(&cfg, &mut file, &mut |l| eprintln!("{l}")) {
                Ok(n) => {
                    println!("wrote {n} positions to {}", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("plyyard datagen: writing {}: {e}", out.display());
                    ExitCode::FAILURE
                }
            }
        }
        Command::Tune {
            data,
            epochs,
            rate,
            lambda,
            lambda_pst,
            score_weight,
            out,
        } => {
            if !(0.0..=1.0).contains(&score_weight) {
                eprintln!("plyyard tune: --score-weight must be between 0 and 1");
                return ExitCode::FAILURE;
            }
            let text = match std::fs::read_to_string(&data) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("plyyard tune: cannot read {}: {e}", data.display());
                    return ExitCode::FAILURE;
                }
            };
            let (samples, bad) = engine::tune::load(&text);
            eprintln!(
                "{} positions ({bad} unreadable lines skipped)",
                samples.len()
            );
            if samples.is_empty() {
                eprintln!("plyyard tune: no usable positions in {}", data.display());
                return ExitCode::FAILURE;
            }
            let start = engine::params::Params::initial();
            let tuned = engine::tune::tune(
                &start,
                &samples,
                epochs,
                rate,
                (lambda, lambda_pst),
                score_weight,
                &mut |l| eprintln!("{l}"),
            );
            if let Err(e) = std::fs::write(&out, engine::tune::to_rust(&tuned)) {
                eprintln!("plyyard tune: cannot write {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
            println!("wrote tuned weights to {}", out.display());
            ExitCode::SUCCESS
        }
    }
}
