//! The `engine` family of subcommands.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until this family lands.
    #[command(name = "engine-placeholder", hide = true)]
    Placeholder,
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Placeholder => ExitCode::SUCCESS,
    }
}
