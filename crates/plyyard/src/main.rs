//! `plyyard`: the one binary. With no subcommand it serves the site; the
//! subcommands are the UCI engine and the command-line toolbox.
//!
//! Each family of subcommands lives in its own module, which owns its clap
//! definitions and its `run` function; this file only dispatches.

mod admin_cmds;
mod engine_cmds;
mod game_cmds;
mod puzzle_gen;
mod puzzle_pack;
mod puzzles;
mod review;
mod serve_cmds;
mod swiss_cmds;
mod token_cmds;

use std::process::ExitCode;

/// mimalloc rather than the system allocator: with thousands of live games
/// and sockets on many threads, glibc's per-thread arenas keep several
/// times the memory in use (`docs/benchmarks.md`, "Tables under load").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

/// Ply Yard: a self-hostable chess site, a UCI engine and a chess toolbox.
#[derive(Debug, Parser)]
#[command(
    name = "plyyard",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand: serve the site with these flags.
    #[command(flatten)]
    serve: serve_cmds::ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    // Boxed: the server's flags are many, the other commands' few.
    #[command(flatten)]
    Serve(Box<serve_cmds::Command>),
    #[command(flatten)]
    Game(game_cmds::Command),
    #[command(flatten)]
    Engine(engine_cmds::Command),
    /// The puzzle trainer's database (`import` lichess's CSV) and Learn's
    /// mate puzzles (`learn`).
    #[command(subcommand)]
    Puzzles(puzzles::Command),
    /// Review the games of a PGN file with the engine and write them back
    /// annotated: `[%eval]` comments, `?!`/`?`/`??` as NAGs, the best move
    /// as a variation and the explanation as a comment.
    Review(review::ReviewArgs),
    /// API tokens of the Lichess-compatible API (`docs/api.md`).
    #[command(subcommand)]
    Token(token_cmds::Command),
    /// Swiss tournaments: pair a TRF16 file's next round by the FIDE Dutch
    /// system, or make a random tournament (`docs/tournaments.md`).
    #[command(subcommand)]
    Swiss(swiss_cmds::Command),
    /// The operator's commands on a site's database: staff roles
    /// (`docs/moderation.md`).
    #[command(subcommand)]
    Admin(admin_cmds::Command),
    /// Write a consistent copy of the database while the site runs
    /// (SQLite's `VACUUM INTO`, PostgreSQL's `pg_dump`; `docs/deploy.md`).
    Backup(admin_cmds::BackupArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => serve_cmds::run_default(cli.serve),
        Some(Command::Serve(cmd)) => serve_cmds::run(*cmd),
        Some(Command::Game(cmd)) => game_cmds::run(cmd),
        Some(Command::Engine(cmd)) => engine_cmds::run(cmd),
        Some(Command::Puzzles(cmd)) => puzzles::run_command(cmd),
        Some(Command::Review(args)) => review::run(args),
        Some(Command::Token(cmd)) => token_cmds::run(cmd),
        Some(Command::Swiss(cmd)) => swiss_cmds::run(cmd),
        Some(Command::Admin(cmd)) => admin_cmds::run(cmd),
        Some(Command::Backup(args)) => admin_cmds::backup(&args),
    }
}
