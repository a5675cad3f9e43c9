//! The rules toolbox subcommands: `replay` (play moves, print the game as
//! JSON), `perft` (move-generator node counts) and `pgn check|export`.
//! All of them go through the `game` crate; nothing here knows chess rules.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use plyyard_game::notation::Lang;
use plyyard_game::pgn::{ClockPrecision, ExportOptions, PgnImporter, to_pgn_with};
use plyyard_game::shakmaty::{Chess, Position};
use plyyard_game::{Game, RuleSet, SetupError};
use serde_json::json;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play moves from a position and print the resulting game as one JSON object.
    ///
    /// Moves may be UCI (`e2e4`, `e7e8q`, castling `e1g1` or king-takes-rook
    /// `e1h1`) or SAN (`Nf3`, `O-O`, `exd8=Q+`). SAN is English first; text
    /// that is not English SAN is read with French, Russian, Romanian letters
    /// or figurines (`--lang` picks one language only, e.g. the French king
    /// `Re2`). An illegal or malformed move (including
    /// `0000`) or a move after the end of the game exits with status 2 and
    /// prints `{"error": …, "ply": N, "move": …}` where N is the move's
    /// 1-based position in the list.
    Replay(ReplayArgs),
    /// Count the leaf nodes of the legal move tree to a depth (move-generator test).
    Perft(PerftArgs),
    /// Validate or normalise PGN files.
    Pgn {
        #[command(subcommand)]
        cmd: PgnCommand,
    },
}

#[derive(Debug, Args)]
pub struct StartArgs {
    /// Starting position as FEN, X-FEN or Shredder-FEN (Chess960 castling is
    /// used when the castling field needs it).
    #[arg(long, conflicts_with = "chess960")]
    fen: Option<String>,
    /// Chess960 starting position number, 0–959 (518 is the standard array).
    #[arg(long, value_name = "N")]
    chess960: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Rule set: `plyyard` (threefold and 50-move draws are automatic) or
    /// `fide` (they are claims; fivefold and 75-move are automatic).
    #[arg(long, default_value = "plyyard")]
    rules: RuleSet,
    /// Read SAN with the piece letters of this language only: en, fr, ru,
    /// ro or figurine (default: English, then the others for text that is
    /// not English SAN).
    #[arg(long)]
    lang: Option<Lang>,
    /// Moves, in UCI or SAN.
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    moves: Vec<String>,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    start: StartArgs,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Also print the count below each legal move (`e2e4: 20`).
    #[arg(long)]
    divide: bool,
}

#[derive(Debug, Subcommand)]
pub enum PgnCommand {
    /// Check every game of a PGN file: each bad game is reported with its
    /// number, line, column and move; checking goes on with the next game.
    /// Exit status 1 if any game is bad.
    Check(PgnArgs),
    /// Re-export the valid games of a PGN file, normalised, to standard output;
    /// bad games are reported on standard error (exit status 1).
    Export(PgnExportArgs),
}

#[derive(Debug, Args)]
pub struct PgnArgs {
    /// PGN file, or `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Rule set for games without a `Rules` tag.
    #[arg(long, default_value = "fide")]
    rules: RuleSet,
}

#[derive(Debug, Args)]
pub struct PgnExportArgs {
    #[command(flatten)]
    input: PgnArgs,
    /// Piece letters of the exported SAN: en, fr, ru, ro (or figurine).
    #[arg(long, default_value = "en")]
    lang: Lang,
    /// Clocks in `[%clk]` comments: `s`, whole seconds (rounded, as
    /// lichess writes them), or `ms`, the milliseconds as read.
    #[arg(long, value_name = "s|ms", default_value = "s")]
    clock_precision: ClockPrecision,
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Replay(args) => replay(args),
        Command::Perft(args) => perft(args),
        Command::Pgn {
            cmd: PgnCommand::Check(args),
        } => pgn_check(args),
        Command::Pgn {
            cmd: PgnCommand::Export(args),
        } => pgn_export(args),
    }
}

fn start_game(start: &StartArgs, rules: RuleSet, lenient: bool) -> Result<Game, SetupError> {
    match (&start.fen, start.chess960) {
        (Some(fen), _) if lenient => Game::from_fen_lenient(fen, rules),
        (Some(fen), _) => Game::from_fen(fen, rules),
        (None, Some(n)) => Game::chess960(n, rules),
        (None, None) => Ok(Game::new(rules)),
    }
}

fn print_json(value: &serde_json::Value) {
    let mut out = io::stdout().lock();
    let _ = serde_json::to_writer(&mut out, value);
    let _ = writeln!(out);
}

fn replay(args: ReplayArgs) -> ExitCode {
    let mut game = match start_game(&args.start, args.rules, false) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("plyyard replay: {e}");
            print_json(&json!({ "error": e.to_string() }));
            return ExitCode::FAILURE;
        }
    };
    for (i, text) in args.moves.iter().enumerate() {
        let played = match args.lang {
            Some(lang) => game
                .parse_move_lang(text, lang)
                .and_then(|m| game.play(m).map(|_| ())),
            _ => game.play_text(text).map(|_| ()),
        };
        if let Err(e) = played {
            print_json(&json!({
                "error": e.to_string(),
                "kind": e.kind(),
                "ply": i + 1,
                "move": text,
            }));
            return ExitCode::from(2);
        }
    }
    let text = serde_json::to_string(&game.summary()).expect("a summary is plain data");
    println!("{text}");
    ExitCode::SUCCESS
}

fn perft(args: PerftArgs) -> ExitCode {
    let game = match start_game(&args.start, RuleSet::default(), true) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("plyyard perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    let pos: &Chess = game.position();
    let started = Instant::now();
    let mut out = io::stdout().lock();
    let total = if args.divide && args.depth > 0 {
        let mut rows: Vec<(String, u64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (
                    game.uci_of(m),
                    plyyard_game::shakmaty::perft(&child, args.depth - 1),
                )
            })
            .collect();
        rows.sort();
        for (uci, n) in &rows {
            let _ = writeln!(out, "{uci}: {n}");
        }
        let _ = writeln!(out);
        rows.iter().map(|(_, n)| n).sum()
    } else {
        plyyard_game::shakmaty::perft(pos, args.depth)
    };
    let _ = writeln!(out, "{total}");
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} nodes in {secs:.3} s ({:.1} Mnps)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

fn open_input(path: &PathBuf) -> io::Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        Ok(Box::new(io::stdin().lock()))
    } else {
        Ok(Box::new(BufReader::new(File::open(path)?)))
    }
}

fn pgn_check(args: PgnArgs) -> ExitCode {
    let input = match open_input(&args.file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("plyyard pgn check: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let (mut good, mut bad) = (0usize, 0usize);
    let mut out = io::stdout().lock();
    for item in PgnImporter::with_rules(input, args.rules) {
        match item {
            Ok(_) => good += 1,
            Err(e) => {
                bad += 1;
                let _ = writeln!(out, "{}: {e}", args.file.display());
            }
        }
    }
    let _ = writeln!(out, "{} games: {good} valid, {bad} with errors", good + bad);
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn pgn_export(args: PgnExportArgs) -> ExitCode {
    let input = match open_input(&args.input.file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("plyyard pgn export: {}: {e}", args.input.file.display());
            return ExitCode::FAILURE;
        }
    };
    let options = ExportOptions {
        lang: args.lang,
        clocks: args.clock_precision,
    };
    let mut bad = 0usize;
    let mut out = BufWriter::new(io::stdout().lock());
    for item in PgnImporter::with_rules(input, args.input.rules) {
        match item {
            Ok(g) => {
                if out
                    .write_all(to_pgn_with(&g.game, &g.pgn_tags(), options).as_bytes())
                    .is_err()
                {
                    return ExitCode::FAILURE;
                }
            }
            Err(e) => {
                bad += 1;
                eprintln!("{}: {e}", args.input.file.display());
            }
        }
    }
    if out.flush().is_err() || bad > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
