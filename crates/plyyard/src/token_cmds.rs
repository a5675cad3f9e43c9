//! The `token` subcommand: API tokens made by an administrator on the
//! server's machine (`plyyard token create`).

use std::process::ExitCode;

use clap::{Args, Subcommand};

/// Subcommands of `plyyard token`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a personal API token for an account and print it (once) on
    /// standard output.
    Create(CreateArgs),
}

/// Flags of `plyyard token create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The account's username (any case).
    #[arg(long)]
    pub user: String,
    /// Comma-separated scopes: preference:read, challenge:read,
    /// challenge:write, board:play, bot:play.
    #[arg(long)]
    pub scopes: String,
    /// What the token is for (1 to 200 characters).
    #[arg(long)]
    pub description: String,
    /// The server's database (as `plyyard serve --db`).
    #[arg(long, env = "PLYYARD_DB", default_value = "sqlite://plyyard.db")]
    pub db: String,
}

/// Runs `plyyard token …`.
pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Create(a) => {
            match plyyard_server::lichess::create_token_offline(
                &a.db,
                &a.user,
                &a.scopes,
                &a.description,
            ) {
                Ok(created) => {
                    eprintln!(
                        "plyyard: token {} for {} with scopes {}",
                        created.id,
                        a.user,
                        created.scopes.join(",")
                    );
                    println!("{}", created.token);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("plyyard: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
