//! The `serve` family of subcommands.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until this family lands.
    #[command(name = "serve-placeholder", hide = true)]
    Placeholder,
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Placeholder => ExitCode::SUCCESS,
    }
}
pub fn run_default() -> ExitCode { ExitCode::SUCCESS }
