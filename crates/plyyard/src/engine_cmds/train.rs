//! The training subcommands, built with the `train` feature: `datagen`,
//! `tune`, `train-nnue`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play fast self-play games and write labelled positions (`FEN | result | score`).
    Datagen(DatagenArgs),
    /// Fit the evaluation weights to labelled positions (Texel method).
    Tune(TuneArgs),
    /// Train a neural network evaluation on positions from `datagen`; play
    /// it with the UCI option `EvalFile`.
    TrainNnue(TrainNnueArgs),
}

/// The arguments of `datagen`.
#[derive(Debug, clap::Args)]
pub struct DatagenArgs {
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
}

/// The arguments of `tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
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
}

/// The arguments of `train-nnue`.
#[derive(Debug, clap::Args)]
pub struct TrainNnueArgs {
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
}

/// What a trained network's output is added to.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum NetBase {
    /// Nothing: the network is the whole evaluation.
    None,
    /// The classical evaluation with its built-in weights.
    Classical,
}

impl From<NetBase> for plyyard_engine::nnue::Base {
    fn from(b: NetBase) -> Self {
        match b {
            NetBase::None => plyyard_engine::nnue::Base::Zero,
            NetBase::Classical => plyyard_engine::nnue::Base::Classical,
        }
    }
}

/// Runs one training subcommand; on failure prints `plyyard NAME: error`.
pub fn run(cmd: Command) -> ExitCode {
    let (name, done) = match cmd {
        Command::Datagen(a) => ("datagen", datagen(a)),
        Command::Tune(a) => ("tune", tune(a)),
        Command::TrainNnue(a) => ("train-nnue", train_nnue(a)),
    };
    match done {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("plyyard {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn datagen(a: DatagenArgs) -> Result<String, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| format!("cannot open {}: {e}", a.out.display()))?;
    let cfg = plyyard_engine::datagen::Config {
        games: a.games,
        nodes: a.nodes,
        random_plies: a.random_plies,
        seed: a.seed,
    };
    let mut file = std::io::BufWriter::new(file);
    let n = plyyard_engine::datagen::run(&cfg, &mut file, &mut |l| eprintln!("{l}"))
        .map_err(|e| format!("writing {}: {e}", a.out.display()))?;
    Ok(format!("wrote {n} positions to {}", a.out.display()))
}

fn tune(a: TuneArgs) -> Result<String, String> {
    if !(0.0..=1.0).contains(&a.score_weight) {
        return Err("--score-weight must be between 0 and 1".into());
    }
    let text = std::fs::read_to_string(&a.data)
        .map_err(|e| format!("cannot read {}: {e}", a.data.display()))?;
    let (samples, bad) = plyyard_engine::tune::load(&text);
    eprintln!(
        "{} positions ({bad} unreadable lines skipped)",
        samples.len()
    );
    if samples.is_empty() {
        return Err(format!("no usable positions in {}", a.data.display()));
    }
    let start = plyyard_engine::params::Params::initial();
    let tuned = plyyard_engine::tune::tune(
        &start,
        &samples,
        a.epochs,
        a.rate,
        (a.lambda, a.lambda_pst),
        a.score_weight,
        &mut |l| eprintln!("{l}"),
    );
    std::fs::write(&a.out, plyyard_engine::tune::to_rust(&tuned))
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    Ok(format!("wrote tuned weights to {}", a.out.display()))
}

/// The network `--init` names: `builtin` or a network file.
fn read_network(path: &Path) -> Result<plyyard_engine::nnue::Network, String> {
    if path.as_os_str() == "builtin" {
        return Ok((*plyyard_engine::nnue::default_network()).clone());
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("--init {}: cannot read: {e}", path.display()))?;
    plyyard_engine::nnue::Network::from_bytes(&bytes)
        .map_err(|e| format!("--init {}: not a network: {e}", path.display()))
}

/// Reads `datagen` files into one training set for a network on `base`.
fn read_positions(
    files: &[PathBuf],
    base: plyyard_engine::nnue::Base,
) -> Result<plyyard_engine::nnue_train::Dataset, String> {
    let mut data = plyyard_engine::nnue_train::Dataset::new(base);
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

/// The bounds `train-nnue` checks before reading any data.
fn check_train_args(a: &TrainNnueArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&a.score_weight) {
        return Err("--score-weight must be between 0 and 1".into());
    }
    if !(1..=plyyard_engine::nnue::MAX_HIDDEN).contains(&a.hidden) || a.batch == 0 || a.epochs == 0
    {
        return Err(format!(
            "--hidden must be 1..={}, --batch and --epochs at least 1",
            plyyard_engine::nnue::MAX_HIDDEN
        ));
    }
    if !plyyard_engine::nnue::KING_BUCKET_CHOICES.contains(&a.king_buckets) {
        return Err(format!(
            "--king-buckets must be one of {:?}",
            plyyard_engine::nnue::KING_BUCKET_CHOICES
        ));
    }
    Ok(())
}

fn train_nnue(a: TrainNnueArgs) -> Result<String, String> {
    check_train_args(&a)?;
    let start = a.init.as_deref().map(read_network).transpose()?;
    let base = plyyard_engine::nnue::Base::from(a.base);
    let train = read_positions(&a.data, base)?;
    let check = read_positions(&a.valid, base)?;
    let k = plyyard_engine::nnue_train::fit_k(&train);
    eprintln!(
        "k = {k:.4}; classical evaluation on the validation set: {:.6}",
        plyyard_engine::nnue_train::classical_loss(&check, k, a.score_weight)
    );
    let cfg = plyyard_engine::nnue_train::Config {
        hidden: a.hidden,
        king_buckets: a.king_buckets,
        epochs: a.epochs,
        rate: a.rate,
        batch: a.batch,
        score_weight: a.score_weight,
        decay: a.decay,
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        seed: a.seed,
        mirror: !a.no_mirror,
    };
    let log = &mut |l: &str| eprintln!("{l}");
    let net = match start {
        None => plyyard_engine::nnue_train::train(&cfg, &train, &check, k, log),
        Some(start) => plyyard_engine::nnue_train::fine_tune(&cfg, &start, &train, &check, k, log)
            .map_err(|e| format!("--init: {e}"))?,
    };
    std::fs::write(&a.out, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    Ok(format!("wrote the network to {}", a.out.display()))
}
