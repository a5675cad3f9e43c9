//! The engine family of subcommands: `uci`, `bench`, `datagen`, `tune`,
//! `train-nnue`.

use std::path::{Path, PathBuf};
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
    /// Train a neural network evaluation on positions from `datagen`; play
    /// it with the UCI option `EvalFile`.
    TrainNnue {
        /// Training positions (one or more `datagen` files).
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        /// Validation positions: best from games the training never saw
        /// (another `datagen` seed).
        #[arg(long, num_args = 1.., required = true)]
        valid: Vec<PathBuf>,
        /// Hidden units per view.
        #[arg(long, default_value_t = 64)]
        hidden: usize,
        /// King buckets: 1, or 4 for hidden weights that depend on where
        /// the viewer's king stands (first rank on a wing, first rank in
        /// the centre, second rank, further up).
        #[arg(long, default_value_t = 1)]
        king_buckets: usize,
        /// Passes over the training data.
        #[arg(long, default_value_t = 10)]
        epochs: u32,
        /// Adam step size at the start (divided by ten over the run).
        #[arg(long, default_value_t = 0.01)]
        rate: f32,
        /// Positions per gradient step.
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Weight of the search score in each target, 0 (game result only)
        /// to 1 (score only): with little data the game results mostly
        /// teach a network the games themselves.
        #[arg(long, default_value_t = 1.0)]
        score_weight: f32,
        /// Weight decay per step, relative to the step size.
        #[arg(long, default_value_t = 0.0)]
        decay: f32,
        /// Training threads (default: number of CPUs).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the initial weights and the shuffling.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Train on the positions only as they are, not also mirrored
        /// (files a to h).
        #[arg(long)]
        no_mirror: bool,
        /// What the network's output is added to: nothing, or the
        /// classical evaluation (the network then learns a correction).
        #[arg(long, value_enum, default_value_t = NetBase::None)]
        base: NetBase,
        /// Start from this network's weights instead of random ones
        /// (fine-tuning on new data); `builtin` is the built-in network.
        /// Its hidden size, king buckets and base must match the run's.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Where to write the network.
        #[arg(long)]
        out: PathBuf,
    },
}

/// What a trained network's output is added to.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum NetBase {
    /// Nothing: the network is the whole evaluation.
    None,
    /// The classical evaluation with its built-in weights.
    Classical,
}

impl From<NetBase> for engine::nnue::Base {
    fn from(b: NetBase) -> Self {
        match b {
            NetBase::None => engine::nnue::Base::Zero,
            NetBase::Classical => engine::nnue::Base::Classical,
        }
    }
}

/// The network `--init` names: `builtin` or a network file.
fn read_network(path: &Path) -> Result<engine::nnue::Network, String> {
    if path.as_os_str() == "builtin" {
        return Ok((*engine::nnue::default_network()).clone());
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("--init {}: cannot read: {e}", path.display()))?;
    engine::nnue::Network::from_bytes(&bytes)
        .map_err(|e| format!("--init {}: not a network: {e}", path.display()))
}

/// Reads `datagen` files into one training set for a network on `base`.
fn read_positions(
    files: &[PathBuf],
    base: engine::nnue::Base,
) -> Result<engine::nnue_train::Dataset, String> {
    let mut data = engine::nnue_train::Dataset::new(base);
    for f in files {
        let text =
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let bad = data.add_lines(&text);
        eprintln!(
            "{}: {} positions so far, {bad} unreadable lines skipped",
            f.display(),
            data.len()
        );
    }
    if data.is_empty() {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        return Err(format!("no usable positions in {}", names.join(", ")));
    }
    Ok(data)
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
        Command::TrainNnue {
            data,
            valid,
            hidden,
            king_buckets,
            epochs,
            rate,
            batch,
            score_weight,
            decay,
            threads,
            seed,
            no_mirror,
            base,
            init,
            out,
        } => {
            if !(0.0..=1.0).contains(&score_weight) {
                eprintln!("plyyard train-nnue: --score-weight must be between 0 and 1");
                return ExitCode::FAILURE;
            }
            if !(1..=engine::nnue::MAX_HIDDEN).contains(&hidden) || batch == 0 || epochs == 0 {
                eprintln!(
                    "plyyard train-nnue: --hidden must be 1..={}, --batch and --epochs at least 1",
                    engine::nnue::MAX_HIDDEN
                );
                return ExitCode::FAILURE;
            }
            if !engine::nnue::KING_BUCKET_CHOICES.contains(&king_buckets) {
                eprintln!(
                    "plyyard train-nnue: --king-buckets must be one of {:?}",
                    engine::nnue::KING_BUCKET_CHOICES
                );
                return ExitCode::FAILURE;
            }
            let start = match init.as_deref().map(read_network).transpose() {
                Ok(start) => start,
                Err(e) => {
                    eprintln!("plyyard train-nnue: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let base = engine::nnue::Base::from(base);
            let read = read_positions(&data, base)
                .and_then(|t| read_positions(&valid, base).map(|v| (t, v)));
            let (train, check) = match read {
                Ok(both) => both,
                Err(e) => {
                    eprintln!("plyyard train-nnue: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let k = engine::nnue_train::fit_k(&train);
            eprintln!(
                "k = {k:.4}; classical evaluation on the validation set: {:.6}",
                engine::nnue_train::classical_loss(&check, k, score_weight)
            );
            let cfg = engine::nnue_train::Config {
                hidden,
                king_buckets,
                epochs,
                rate,
                batch,
                score_weight,
                decay,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                seed,
                mirror: !no_mirror,
            };
            let net = match start {
                None => {
                    engine::nnue_train::train(&cfg, &train, &check, k, &mut |l| eprintln!("{l}"))
                }
                Some(start) => {
                    let tuned =
                        engine::nnue_train::fine_tune(&cfg, &start, &train, &check, k, &mut |l| {
                            eprintln!("{l}")
                        });
                    match tuned {
                        Ok(net) => net,
                        Err(e) => {
                            eprintln!("plyyard train-nnue: --init: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
            };
            if let Err(e) = std::fs::write(&out, net.to_bytes()) {
                eprintln!("plyyard train-nnue: cannot write {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
            println!("wrote the network to {}", out.display());
            ExitCode::SUCCESS
        }
    }
}
