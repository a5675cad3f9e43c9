//! `plyyard puzzles`: the puzzle trainer's database (`import`, lichess's
//! CSV into the site's store) and Learn's mate-in-one and mate-in-two
//! puzzles from the engine's own games, each with exactly one solution
//! (`learn`).
//!
//! For Learn's puzzles:
//! The engine plays itself at the weaker levels (which make real mistakes)
//! from a few random opening moves; every position of every game is tried.
//! A puzzle is kept when the rules core, searching exhaustively, finds
//! exactly one first move that mates (in one) or forces mate on the next
//! move whatever the defence (in two, with no mate in one), and the engine
//! at full strength agrees (`verify`). Everything is driven by the seed and
//! node budgets, never by time: a seed always gives the same file.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use plyyard_engine::level::Rng;
use plyyard_engine::{Engine, Level, Limits};
use plyyard_exercises::puzzles::{self, Puzzle};
use plyyard_game::shakmaty::fen::Epd;
use plyyard_game::shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen};

/// Random plies before the engines take over.
const RANDOM_PLIES: u32 = 4;
/// Plies after which a game is abandoned.
const MAX_PLIES: usize = 300;
/// Games per puzzle asked for before giving up.
const GAMES_PER_PUZZLE: usize = 40;
/// Levels the two sides are drawn from.
const LEVELS: [Level; 3] = [Level::Beginner, Level::Easy, Level::Normal];

/// `plyyard puzzles …`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Import lichess's puzzle database (a CSV with the columns PuzzleId,
    /// FEN, Moves, Rating, RatingDeviation, Popularity, NbPlays, Themes,
    /// GameUrl, OpeningTags) into the site's database: every row checked
    /// by the rules, bad rows reported and skipped, puzzles already there
    /// left as they are (running it again is safe).
    Import(ImportArgs),
    /// Make Learn's mate-in-one and mate-in-two puzzles from the engine's
    /// own games (`content/puzzles.json`), each verified to have one
    /// solution.
    Learn(Args),
    /// Mine self-play games between Ply Yard's levels for puzzles by
    /// lichess's criteria (only moves, mates under 15 moves, advantages
    /// of +200 cp or more), written as lichess's CSV.
    Generate(GenerateArgs),
    /// Merge generated CSV files into the compact file the site ships:
    /// duplicates (same position and mistake) dropped, up to `--max`
    /// puzzles spread over ratings 600–2600, gzip-compressed.
    Pack(crate::puzzle_pack::PackArgs),
}

/// Arguments of `plyyard puzzles generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Seed of the games (same seed and games, same puzzles).
    #[arg(long)]
    pub seed: u64,
    /// Games to play.
    #[arg(long)]
    pub games: u64,
    /// Number of the first game (to continue a seed in chunks).
    #[arg(long, default_value_t = 1)]
    pub first_game: u64,
    /// Where to write the CSV (standard output if absent).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Nodes to score each position of a game.
    #[arg(long, default_value_t = 4_000, value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
    pub scan_nodes: u64,
    /// Nodes of each two-line judgement along a candidate line (the
    /// generator's depth for the only-move rule).
    #[arg(long, default_value_t = 150_000, value_parser = clap::value_parser!(u64).range(1_000..=100_000_000))]
    pub judge_nodes: u64,
    /// Nodes of the cheap judgement each candidate must pass first (0:
    /// none; every candidate is judged at `--judge-nodes`).
    #[arg(long, default_value_t = 15_000, value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    pub screen_nodes: u64,
    /// Attempts of each level when rating a puzzle.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub tries: u32,
}

/// Arguments of `plyyard puzzles import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The CSV file (`-` for standard input).
    pub file: PathBuf,
    /// The site's database (as `plyyard serve --db`).
    #[arg(long, env = "PLYYARD_DB", default_value = "sqlite://plyyard.db")]
    pub db: String,
}

/// Bad rows printed one by one before only their count is kept.
const SHOWN_REFUSALS: u64 = 20;

/// Runs `plyyard puzzles …`.
pub fn run_command(cmd: Command) -> ExitCode {
    match cmd {
        Command::Import(args) => import(&args),
        Command::Learn(args) => run(args),
        Command::Generate(args) => generate_cmd(&args),
        Command::Pack(args) => crate::puzzle_pack::run(&args),
    }
}

/// Runs `plyyard puzzles import`: prints one JSON line with what it did.
fn import(args: &ImportArgs) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = rt.block_on(async {
        let source: Box<dyn std::io::Read + Send> = if args.file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            let file = std::fs::File::open(&args.file)
                .map_err(|e| format!("cannot open {}: {e}", args.file.display()))?;
            Box::new(std::io::BufReader::with_capacity(1 << 20, file))
        };
        let store = plyyard_store::Store::open(&args.db)
            .await
            .map_err(|e| e.to_string())?;
        let trainer = plyyard_trainer::Trainer::new(store.clone());
        let started = std::time::Instant::now();
        let mut shown = 0;
        let report = trainer
            .import(source, |e| {
                shown += 1;
                if shown <= SHOWN_REFUSALS {
                    eprintln!("line {}: {} refused: {}", e.line, e.id, e.reason);
                }
            })
            .await
            .map_err(|e| e.to_string())?;
        let secs = started.elapsed().as_secs_f64();
        store.close().await;
        Ok::<_, String>((report, secs))
    });
    match result {
        Ok((r, secs)) => {
            let line = serde_json::json!({
                "rows": r.rows,
                "imported": r.imported,
                "already": r.already,
                "refused": r.refused,
                "seconds": (secs * 1000.0).round() / 1000.0,
                "rows_per_s": (r.rows as f64 / secs.max(1e-9)).round(),
            });
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `plyyard puzzles generate`.
fn generate_cmd(args: &GenerateArgs) -> ExitCode {
    let budget = crate::puzzle_gen::Budget {
        scan: args.scan_nodes,
        judge: args.judge_nodes,
        screen: args.screen_nodes,
        tries: args.tries,
    };
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let started = std::time::Instant::now();
    match crate::puzzle_gen::generate(
        args.seed,
        args.games,
        args.first_game,
        budget,
        &mut out,
        &mut std::io::stderr(),
    ) {
        Ok(n) => {
            eprintln!(
                "{n} puzzles from {} games in {:.0} s",
                args.games,
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write the puzzles: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Arguments of `plyyard puzzles learn`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seed of the games (same seed, same puzzles).
    #[arg(long)]
    pub seed: u64,
    /// Puzzles of each kind (mate in one, mate in two).
    #[arg(long, default_value_t = 30)]
    pub count: usize,
    /// Where to write the JSON list (standard output if absent).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    match generate(args.seed, args.count, &mut std::io::stderr()) {
        Ok(list) => {
            let mut text = serde_json::to_string_pretty(&list).expect("puzzles serialise");
            text.push('\n');
            let written = match &args.out {
                Some(path) => std::fs::write(path, text),
                None => std::io::stdout().write_all(text.as_bytes()),
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the puzzles: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A position met in a game, with where it was met.
struct Found {
    pos: Chess,
    source: String,
}

/// Plays games until `count` puzzles of each kind are found; the mates in
/// one come first in the list, then the mates in two, each in the order
/// found.
///
/// # Errors
/// When `count` puzzles of a kind are not found within
/// `count × GAMES_PER_PUZZLE` games.
pub fn generate(seed: u64, count: usize, log: &mut dyn Write) -> Result<Vec<Puzzle>, String> {
    let mut engine = Engine::new(16);
    let mut judge = Engine::new(16);
    let mut kinds: [Vec<Puzzle>; 2] = [Vec::new(), Vec::new()];
    let mut seen = HashSet::new();
    let max_games = count.max(1) * GAMES_PER_PUZZLE;
    let mut game_no = 0;
    while kinds.iter().any(|k| k.len() < count) {
        if game_no == max_games {
            return Err(format!(
                "only {} mates in one and {} mates in two after {max_games} games",
                kinds[0].len(),
                kinds[1].len()
            ));
        }
        game_no += 1;
        let positions = play_game(&mut engine, seed, game_no);
        // One puzzle per game, the rarer mate in two first, so that no
        // puzzle is another's continuation.
        'kinds: for mate_in in [2u8, 1] {
            let list = &mut kinds[usize::from(mate_in - 1)];
            if list.len() >= count {
                continue;
            }
            for found in &positions {
                let epd = Epd::from_position(&found.pos, EnPassantMode::Legal).to_string();
                if seen.contains(&epd) {
                    continue;
                }
                if let Some(p) = puzzle_at(found, mate_in, list.len() + 1, &mut judge) {
                    let _ = writeln!(log, "game {game_no}: {} {}", p.id, p.fen);
                    seen.insert(epd);
                    list.push(p);
                    break 'kinds;
                }
            }
        }
    }
    let [ones, twos] = kinds;
    Ok(ones.into_iter().chain(twos).collect())
}

/// The game `n` of a seed: random opening plies, then the engine at two
/// levels drawn from the seed; every position before a move.
fn play_game(engine: &mut Engine, seed: u64, n: usize) -> Vec<Found> {
    let mut rng = Rng::new(seed ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let levels = [
        LEVELS[(rng.next_u64() % 3) as usize],
        LEVELS[(rng.next_u64() % 3) as usize],
    ];
    let start = Chess::default();
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut out = Vec::new();
    let stop = AtomicBool::new(false);
    engine.clear();
    while moves.len() < MAX_PLIES && pos.outcome().is_unknown() && pos.halfmoves() < 100 {
        out.push(Found {
            pos: pos.clone(),
            source: format!("seed {seed} game {n} ply {}", moves.len()),
        });
        let m = if moves.len() < RANDOM_PLIES as usize {
            let legal = pos.legal_moves();
            legal[(rng.next_u64() % legal.len() as u64) as usize]
        } else {
            let level = levels[usize::from(pos.turn().is_black())];
            let nodes = plyyard_engine::level::style(level).map_or(40_000, |s| s.nodes);
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            match engine.search(&start, &moves, &limits, level, rng.next_u64(), &stop) {
                Some(r) => r.best_move,
                None => break,
            }
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    out
}

/// The puzzle `id` of kind `mate_in` at a position, if it has exactly one
/// solution and the engine agrees.
fn puzzle_at(found: &Found, mate_in: u8, number: usize, judge: &mut Engine) -> Option<Puzzle> {
    let pos = &found.pos;
    let key = match mate_in {
        1 => match puzzles::mating_moves(pos).as_slice() {
            [only] => *only,
            _ => return None,
        },
        _ => {
            if !puzzles::mating_moves(pos).is_empty() {
                return None;
            }
            match puzzles::mate_in_two_keys(pos, 2).as_slice() {
                [only] => *only,
                _ => return None,
            }
        }
    };
    let mut line = vec![key];
    if mate_in == 2 {
        let after_key = after(pos, key);
        let defence = puzzles::engine_view(judge, &after_key)?.best_move;
        let after_defence = after(&after_key, defence);
        let seen = puzzles::engine_view(judge, &after_defence)?.best_move;
        let mate = if after(&after_defence, seen).is_checkmate() {
            seen
        } else {
            *puzzles::mating_moves(&after_defence).first()?
        };
        line.extend([defence, mate]);
    }
    let p = Puzzle {
        id: format!("m{mate_in}-{number:02}"),
        fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        solution: line
            .iter()
            .map(|&m| plyyard_game::notation::uci(m, CastlingMode::Standard))
            .collect(),
        mate_in,
        source: Some(found.source.clone()),
    };
    puzzles::verify(&p, judge).ok().map(|()| p)
}

fn after(pos: &Chess, m: Move) -> Chess {
    let mut c = pos.clone();
    c.play_unchecked(m);
    c
}
