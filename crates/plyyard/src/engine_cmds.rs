//! The engine family of subcommands: `uci`, `bench`, and with the `train`
//! feature `datagen`, `tune`, `train-nnue` (see [`train`]).

use std::process::ExitCode;

use clap::Subcommand;

#[cfg(feature = "train")]
mod train;

/// Stand-ins for the training subcommands in a binary built without the
/// `train` feature: hidden, they only say how to get the real ones.
#[cfg(not(feature = "train"))]
mod train {
    use std::process::ExitCode;

    use clap::Subcommand;

    #[derive(Debug, Subcommand)]
    pub enum Command {
        #[command(hide = true)]
        Datagen(Ignored),
        #[command(hide = true)]
        Tune(Ignored),
        #[command(hide = true)]
        TrainNnue(Ignored),
    }

    /// Whatever arguments were given: there is nothing to run them.
    #[derive(Debug, clap::Args)]
    pub struct Ignored {
        #[arg(num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true)]
        _args: Vec<String>,
    }

    pub fn run(cmd: Command) -> ExitCode {
        let name = match cmd {
            Command::Datagen(_) => "datagen",
            Command::Tune(_) => "tune",
            Command::TrainNnue(_) => "train-nnue",
        };
        eprintln!(
            "plyyard {name}: this binary was built without training support; \
             build it with `cargo build --release -p plyyard --features train`"
        );
        ExitCode::FAILURE
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Speak the UCI protocol on standard input/output (for chess GUIs).
    Uci,
    /// Search a fixed set of positions and print `Bench: <nodes> nodes <nps> nps`.
    Bench {
        /// Search depth per position.
        #[arg(default_value_t = plyyard_engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    #[command(flatten)]
    Train(train::Command),
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Uci => {
            let stdin = std::io::stdin();
            plyyard_engine::uci::run(stdin.lock(), Box::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
        Command::Bench { depth } => {
            let r = plyyard_engine::bench::run(depth, &mut |l| eprintln!("{l}"));
            println!("{}", r.summary());
            ExitCode::SUCCESS
        }
        Command::Train(cmd) => train::run(cmd),
    }
}
