//! The engine family of subcommands: `uci`, `bench`, `datagen`, `tune`.

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
    }
}
