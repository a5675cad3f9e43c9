//! The engine's part of a review: every position of a game searched at a
//! fixed budget ([`analyse_position`], [`analyse_positions`] on several
//! engines at once), then the moves judged, explained and summed up
//! ([`assemble`]); [`review_game`] does both.
//!
//! Each position is searched from a cleared engine (empty hash table and
//! move-order tables), so with a node budget the result depends only on
//! the game and the budget — not on which engine or thread searched it, nor
//! in which order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use plyyard_engine::{Engine, Limits};
use plyyard_game::Game;
use plyyard_game::notation;
use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, CastlingMode, Chess, Move, Position};

use super::accuracy::{self, SideSummary};
use super::explain::{self, Explanation, MoveFacts};
use super::label::{self, Eval, Judgement, Label, MateChange, Side};

/// Format of [`Review`] as stored; bumped when its meaning changes.
pub const FORMAT: u32 = 2;
/// Nodes searched per position by default (see `docs/review.md`).
pub const DEFAULT_NODES: u64 = 150_000;
/// Hash table of the engines [`review_game`] callers should make, MiB.
pub const HASH_MB: usize = 16;
/// Longest line kept per position, in plies.
pub const LINE_PLIES: usize = 12;
/// Largest budget accepted per position.
pub const MAX_NODES: u64 = 50_000_000;
/// Longest time accepted per position.
pub const MAX_MOVETIME: Duration = Duration::from_secs(60);

/// How long the engine searches each position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// This many nodes (deterministic).
    Nodes(u64),
    /// This many milliseconds (depends on the machine and its load).
    MovetimeMs(u64),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Nodes(DEFAULT_NODES)
    }
}

impl Budget {
    /// The engine limits of this budget, capped at [`MAX_NODES`] /
    /// [`MAX_MOVETIME`].
    pub fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n.clamp(1, MAX_NODES)),
                ..Limits::default()
            },
            Budget::MovetimeMs(ms) => Limits {
                movetime: Some(Duration::from_millis(ms.max(1)).min(MAX_MOVETIME)),
                ..Limits::default()
            },
        }
    }
}

/// The engine's verdict on one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionEval {
    /// The evaluation, White's view.
    pub eval: Eval,
    /// The best line, empty when the game is over.
    pub line: Vec<Move>,
}

/// A line of moves in two notations.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Line {
    /// UCI (`e2e4`; castling as in the game's mode).
    pub uci: Vec<String>,
    /// English SAN with `+`/`#`.
    pub san: Vec<String>,
}

impl Line {
    /// `moves` from `pos` (stops at the first illegal one).
    pub fn of(pos: &Chess, moves: &[Move], mode: CastlingMode) -> Line {
        let mut line = Line::default();
        let mut pos = pos.clone();
        for &m in moves {
            if !pos.is_legal(m) {
                break;
            }
            line.uci.push(notation::uci(m, mode));
            line.san.push(notation::san(&pos, m));
            pos.play_unchecked(m);
        }
        line
    }
}

/// The review of one move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// 1-based ply.
    pub ply: u32,
    /// Who played it.
    pub side: Side,
    /// The move in English SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// Evaluation before the move (White's view).
    pub before: Eval,
    /// Evaluation after the move (White's view).
    pub after: Eval,
    /// The engine's best line from the position before the move.
    pub best: Line,
    /// The label, if any.
    pub label: Option<Label>,
    /// A mate missed or allowed.
    pub mate: Option<MateChange>,
    /// The mover's loss of winning chances, 0–2.
    pub loss: f64,
    /// Accuracy of the move, 0–100.
    pub accuracy: f64,
    /// Why the move was labelled, as facts (none for unlabelled moves).
    pub explanations: Vec<Explanation>,
}

/// A reviewed game, language-neutral: what is stored and sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// [`FORMAT`].
    pub format: u32,
    /// The budget each position got.
    pub budget: Budget,
    /// The evaluation of the starting position.
    pub start: Eval,
    /// One entry per move.
    pub moves: Vec<MoveReview>,
    /// White's figures.
    pub white: SideSummary,
    /// Black's figures.
    pub black: SideSummary,
}

/// Searches the position reached from `start` by `moves` with `engine`,
/// cleared first. `None` when `stop` was set.
pub fn analyse_position(
    engine: &mut Engine,
    start: &Chess,
    moves: &[Move],
    budget: Budget,
    stop: &AtomicBool,
) -> Option<PositionEval> {
    let (pos, _) = plyyard_engine::replay(start, moves);
    if let Some(eval) = terminal(&pos) {
        return Some(PositionEval {
            eval,
            line: Vec::new(),
        });
    }
    engine.clear();
    let found = engine.analyse(start, moves, &budget.limits(), 1, stop);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let best = found.into_iter().next()?;
    let mut line = best.pv;
    line.truncate(LINE_PLIES);
    Some(PositionEval {
        eval: Eval::from_score(best.score, pos.turn().into()),
        line,
    })
}

/// The evaluation of a position where the game is over by the rules alone.
fn terminal(pos: &Chess) -> Option<Eval> {
    if pos.is_checkmate() {
        Some(Eval::Checkmate((!pos.turn()).into()))
    } else if pos.is_stalemate() || pos.is_insufficient_material() {
        Some(Eval::Cp(0))
    } else {
        None
    }
}

/// Searches every position of the game (`moves.len() + 1` of them) on
/// `engines`, one thread per engine, each taking the next position not yet
/// taken. `progress(done, total)` is called after each position. `None`
/// when `stop` was set.
///
/// # Panics
/// If `engines` is empty.
pub fn analyse_positions(
    start: &Chess,
    moves: &[Move],
    budget: Budget,
    engines: &mut [Engine],
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Option<Vec<PositionEval>> {
    assert!(!engines.is_empty(), "at least one engine");
    let total = moves.len() + 1;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<PositionEval>>> = Mutex::new(vec![None; total]);
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (next, done, results) = (&next, &done, &results);
            scope.spawn(move || {
                loop {
                    let ply = next.fetch_add(1, Ordering::Relaxed);
                    if ply >= total || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(found) = analyse_position(engine, start, &moves[..ply], budget, stop)
                    else {
                        break;
                    };
                    results.lock().unwrap_or_else(|e| e.into_inner())[ply] = Some(found);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .collect()
}

/// The review of the game from `start` by `moves`, from the engine's
/// verdicts on its positions (`evals[i]` after `i` moves).
///
/// # Panics
/// If `evals` does not hold one verdict per position, or a move is illegal.
pub fn assemble(
    start: &Chess,
    moves: &[Move],
    mode: CastlingMode,
    evals: &[PositionEval],
    budget: Budget,
) -> Review {
    assert_eq!(evals.len(), moves.len() + 1, "one verdict per position");
    let mut pos = start.clone();
    let mut reviews = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        assert!(pos.is_legal(m), "move {} is illegal", i + 1);
        reviews.push(review_move(&pos, m, i, [&evals[i], &evals[i + 1]], mode));
        pos.play_unchecked(m);
    }
    let all: Vec<Eval> = evals.iter().map(|e| e.eval).collect();
    let per_move: Vec<(Judgement, f64)> = reviews
        .iter()
        .map(|r| {
            let j = Judgement {
                label: r.label,
                mate: r.mate,
                loss: r.loss,
            };
            (j, r.accuracy)
        })
        .collect();
    let ByColor { white, black } = accuracy::summarise(&all, start.turn().into(), &per_move);
    Review {
        format: FORMAT,
        budget,
        start: evals[0].eval,
        moves: reviews,
        white,
        black,
    }
}

/// The review of move `m` (index `i`) from `pos`, between the verdicts on
/// the positions before and after it.
fn review_move(
    pos: &Chess,
    m: Move,
    i: usize,
    [before, after]: [&PositionEval; 2],
    mode: CastlingMode,
) -> MoveReview {
    let side: Side = pos.turn().into();
    let best_played = before.line.first() == Some(&m);
    let judgement = if best_played {
        Judgement::GOOD
    } else {
        label::judge(before.eval, after.eval, side)
    };
    let pov = |e: Eval| {
        let w = e.win_percent();
        if side.is_white() { w } else { 100.0 - w }
    };
    let accuracy = if best_played {
        100.0
    } else {
        accuracy::move_accuracy(pov(before.eval), pov(after.eval))
    };
    let explanations = if judgement.label.is_some() || judgement.mate.is_some() {
        explain::explain(&MoveFacts {
            pos,
            played: m,
            best: &before.line,
            reply: &after.line,
            judgement: &judgement,
        })
    } else {
        Vec::new()
    };
    MoveReview {
        ply: i as u32 + 1,
        side,
        san: notation::san(pos, m),
        uci: notation::uci(m, mode),
        before: before.eval,
        after: after.eval,
        best: Line::of(pos, &before.line, mode),
        label: judgement.label,
        mate: judgement.mate,
        loss: (judgement.loss * 10_000.0).round() / 10_000.0,
        accuracy: (accuracy * 10.0).round() / 10.0,
        explanations,
    }
}

/// Reviews `game` on `engines` (one thread each): [`analyse_positions`]
/// then [`assemble`]. `None` when `stop` was set.
///
/// # Panics
/// If `engines` is empty.
pub fn review_game(
    game: &Game,
    budget: Budget,
    engines: &mut [Engine],
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Option<Review> {
    let start = game.initial_position();
    let moves = game.moves();
    let evals = analyse_positions(start, &moves, budget, engines, stop, progress)?;
    Some(assemble(
        start,
        &moves,
        game.castling_mode(),
        &evals,
        budget,
    ))
}

/// Reviews `game` on the one `engine`, position after position, reporting
/// `(done, total)` to `progress` after each. `None` when `stop` was set.
pub fn review_game_on(
    engine: &mut Engine,
    game: &Game,
    budget: Budget,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Review> {
    let start = game.initial_position();
    let moves = game.moves();
    let total = moves.len() + 1;
    let mut evals = Vec::with_capacity(total);
    for ply in 0..total {
        evals.push(analyse_position(
            engine,
            start,
            &moves[..ply],
            budget,
            stop,
        )?);
        progress(ply + 1, total);
    }
    Some(assemble(
        start,
        &moves,
        game.castling_mode(),
        &evals,
        budget,
    ))
}
