//! The `plyyard` binary from outside, one test binary: the CLI's
//! subcommands, the UCI engine, and the server process (crash and restart).

mod backup;
mod cli_game;
mod cluster_flags;
mod no_train;
mod puzzles;
mod review_cli;
mod server_crash;
mod uci;
