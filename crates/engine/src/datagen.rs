//! Self-play data generation for tuning: fast fixed-node games from varied
//! openings, writing quiet positions labelled with the game's result.
//!
//! Output format, one position per line: `<FEN> | <result> | <score>` where
//! result is 1.0, 0.5 or 0.0 from White's point of view and score is the
//! search's score of the position in centipawns, also for White.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Outcome, Position};

use crate::rng::Rng;
use crate::{Engine, Limits, Score};

/// Settings of a data generation run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Number of games.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random moves played from the start position before searching.
    pub random_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
}

/// Score beyond which a game is adjudicated as won (centipawns).
const ADJUDICATE_CP: i32 = 1500;
/// Plies after which an undecided game is called a draw.
const MAX_PLIES: usize = 400;

fn white_cp(score: Score, turn: Color) -> i32 {
    let cp = match score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 30000,
        Score::Mate(_) => -30000,
    };
    if turn == Color::White { cp } else { -cp }
}

/// Plays one game; returns the positions to keep and White's result.
fn play_game(engine: &mut Engine, cfg: &Config, rng: &mut Rng) -> (Vec<(String, i32)>, f32) {
    let stop = AtomicBool::new(false);
    let start = Chess::default();
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..cfg.random_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next_u64() % legal.len() as u64) as usize];
        pos.play_unchecked(m);
        moves.push(m);
    }
    engine.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let mut kept = Vec::new();
    let mut streak = (0, 0);
    let result = loop {
        match pos.outcome() {
            Outcome::Known(k) => {
                break match k.winner() {
                    Some(Color::White) => 1.0,
                    Some(Color::Black) => 0.0,
                    None => 0.5,
                };
            }
            Outcome::Unknown => {}
        }
        if pos.halfmoves() >= 100 || moves.len() >= MAX_PLIES || repeated(&start, &moves) {
            break 0.5;
        }
        let Some(r) = engine.search_with_info(&start, &moves, &limits, &stop, &mut |_| {}) else {
            break 0.5;
        };
        let cp = white_cp(r.score, pos.turn());
        if cp >= ADJUDICATE_CP {
            streak = (streak.0 + 1, 0);
        } else if cp <= -ADJUDICATE_CP {
            streak = (0, streak.1 + 1);
        } else {
            streak = (0, 0);
        }
        if streak.0 >= 6 {
            break 1.0;
        }
        if streak.1 >= 6 {
            break 0.0;
        }
        let quiet = !pos.is_check() && !r.best_move.is_capture() && !r.best_move.is_promotion();
        if quiet && moves.len() >= 16 && matches!(r.score, Score::Cp(c) if c.abs() < 2000) {
            kept.push((
                Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                cp,
            ));
        }
        pos.play_unchecked(r.best_move);
        moves.push(r.best_move);
    };
    (kept, result)
}

fn repeated(start: &Chess, moves: &[Move]) -> bool {
    let (_, keys) = crate::replay(start, moves);
    let last = keys[keys.len() - 1];
    keys.iter().filter(|k| **k == last).count() >= 3
}

/// Runs `cfg.games` games, writing labelled positions to `out` and progress
/// to `log`. Returns the number of positions written.
///
/// # Errors
///
/// Returns the I/O error of a failed write.
pub fn run(cfg: &Config, out: &mut dyn Write, log: &mut dyn FnMut(&str)) -> std::io::Result<u64> {
    let mut engine = Engine::new(16);
    let mut rng = Rng::new(cfg.seed);
    let mut written = 0;
    for g in 0..cfg.games {
        let (positions, result) = play_game(&mut engine, cfg, &mut rng);
        for (fen, cp) in &positions {
            writeln!(out, "{fen} | {result:.1} | {cp}")?;
        }
        written += positions.len() as u64;
        log(&format!(
            "game {} result {result:.1} positions {} total {written}",
            g + 1,
            positions.len()
        ));
    }
    out.flush()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_labelled_positions() {
        let cfg = Config {
            games: 2,
            nodes: 300,
            random_plies: 8,
            seed: 3,
        };
        let mut buf = Vec::new();
        let n = run(&cfg, &mut buf, &mut |_| {}).expect("write to memory");
        let text = String::from_utf8(buf).expect("utf8");
        assert_eq!(text.lines().count() as u64, n);
        for line in text.lines() {
            let fields: Vec<&str> = line.split(" | ").collect();
            let [fen, result, score] = fields[..] else {
                panic!("three fields expected: {line}");
            };
            assert!(fen.parse::<Fen>().is_ok(), "{fen}");
            assert!(["1.0", "0.5", "0.0"].contains(&result), "{result}");
            assert!(
                score.parse::<i32>().is_ok_and(|s| s.abs() < 2000),
                "{score}"
            );
        }
    }
}
