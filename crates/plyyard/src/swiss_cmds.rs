//! `plyyard swiss`: Swiss tournaments on the command line. `pair` pairs the
//! next round of a TRF16 file by the FIDE Dutch system and prints it as
//! bbpPairings' `-p` does; `random` makes and plays a random tournament
//! with the same engine and prints its TRF16.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use plyyard_swiss::model::Colour;
use plyyard_swiss::{GeneratorOptions, generate, pair_round, trf};

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Pair the next round of a TRF16 file (FIDE Dutch, C.04.3): prints the
    /// number of pairs, then `WHITE BLACK` per board and `N 0` for the bye.
    Pair(PairArgs),
    /// Make and play a random tournament, paired round by round with the
    /// Dutch engine; prints its TRF16.
    Random(RandomArgs),
}

#[derive(Debug, Args)]
pub struct PairArgs {
    /// The TRF16 file.
    #[arg(value_name = "FILE.trf")]
    file: std::path::PathBuf,
}

#[derive(Debug, Args)]
pub struct RandomArgs {
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of players.
    #[arg(long, default_value_t = 20)]
    players: u32,
    /// Number of rounds.
    #[arg(long, default_value_t = 7)]
    rounds: u32,
    /// Probability of a draw.
    #[arg(long, default_value_t = 0.3)]
    draw_rate: f64,
    /// Byes asked for and absences (5 % per player and round).
    #[arg(long)]
    byes: bool,
    /// Forfeited games (5 % of the games).
    #[arg(long)]
    forfeits: bool,
    /// Withdrawals (2 % per player and round).
    #[arg(long)]
    withdrawals: bool,
    /// Late joins (10 % of the players join in round 2 or 3).
    #[arg(long)]
    late_joins: bool,
    /// Number of forbidden pairs.
    #[arg(long, default_value_t = 0)]
    forbidden: u32,
    /// Round one's first board gets black (`XXC black1`).
    #[arg(long)]
    black1: bool,
    /// Print the time each round's pairing took on standard error.
    #[arg(long)]
    timing: bool,
}

pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Pair(a) => pair(a),
        Command::Random(a) => random(a),
    }
}

fn pair(a: PairArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", a.file.display());
            return ExitCode::FAILURE;
        }
    };
    let parsed = match trf::read(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e}", a.file.display());
            return ExitCode::FAILURE;
        }
    };
    match pair_round(&parsed.tournament, &parsed.present()) {
        Ok(p) => {
            println!("{}", p.boards.len() + usize::from(p.bye.is_some()));
            for (w, b) in &p.boards {
                println!("{w} {b}");
            }
            if let Some(b) = p.bye {
                println!("{b} 0");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", a.file.display());
            ExitCode::FAILURE
        }
    }
}

fn random(a: RandomArgs) -> ExitCode {
    let o = GeneratorOptions {
        seed: a.seed,
        players: a.players,
        rounds: a.rounds,
        draw_rate: a.draw_rate,
        bye_rate: if a.byes { 0.05 } else { 0.0 },
        forfeit_rate: if a.forfeits { 0.05 } else { 0.0 },
        withdraw_rate: if a.withdrawals { 0.02 } else { 0.0 },
        late_rate: if a.late_joins { 0.1 } else { 0.0 },
        forbidden_pairs: a.forbidden,
        initial_colour: if a.black1 {
            Colour::Black
        } else {
            Colour::White
        },
    };
    let started = std::time::Instant::now();
    let g = generate(&o);
    if a.timing {
        eprintln!(
            "{} players, {} rounds paired in {:.3} s",
            a.players,
            g.tournament.rounds_paired(),
            started.elapsed().as_secs_f64()
        );
    }
    print!("{}", trf::write(&g.tournament, &[]));
    if let Some(r) = g.stopped_at {
        eprintln!("round {r} could not be paired (absolute criteria): stopped there");
    }
    ExitCode::SUCCESS
}
