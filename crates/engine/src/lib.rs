//! Ply Yard engine: an alpha-beta searcher on top of shakmaty, with a tuned
//! classical evaluation plus a small neural network's correction for Expert
//! (the weaker levels play the classical evaluation alone), human-like
//! playing levels and a UCI front end.
//!
//! The [`Engine`] is what the server calls in-process; [`uci`] wraps it for
//! chess GUIs. An engine owns its transposition table and thread setting and
//! nothing is global, so several engines can live side by side.

pub mod bench;
#[cfg(feature = "train")]
pub mod datagen;
pub mod eval;
pub mod evaluator;
pub mod level;
pub mod nnue;
#[cfg(feature = "train")]
pub mod nnue_train;
pub mod params;
pub mod search;
pub mod see;
pub mod tactics;
pub mod time;
pub mod tt;
#[cfg(feature = "train")]
pub mod tune;
pub mod tuned;
pub mod uci;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use crate::eval::Classical;
use crate::evaluator::Evaluator;
use crate::search::{Budget, Heuristics, Info, Shared, Worker};

pub use crate::search::Info as SearchInfo;

/// Playing strength offered to people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Plays like someone who has just learnt the moves.
    Beginner,
    /// A casual player.
    Easy,
    /// A club beginner.
    Normal,
    /// A solid club player.
    Hard,
    /// The engine's full strength.
    Expert,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Easy,
        Level::Normal,
        Level::Hard,
        Level::Expert,
    ];

    /// Wall-time budget per move the server should give this level.
    pub fn think_time(self) -> Duration {
        Duration::from_millis(match self {
            Level::Beginner => 200,
            Level::Easy => 300,
            Level::Normal => 500,
            Level::Hard => 1000,
            Level::Expert => 2000,
        })
    }

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that names no level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {:?} (expected beginner, easy, normal, hard or expert)",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseLevelError(s.to_owned()))
    }
}

/// A player's clock as seen by the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if any.
    pub movestogo: Option<u32>,
}

/// When to stop searching; every limit given applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Clock of the side to move; the engine budgets from it.
    pub clock: Option<Clock>,
    /// Search until stopped (other limits still apply).
    pub infinite: bool,
    /// Only these moves are considered at the root (UCI `searchmoves`);
    /// empty for all. Moves that are not legal in the position are ignored,
    /// and when none is legal every move is searched.
    pub searchmoves: Vec<Move>,
}

/// A search score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in that many moves (negative: being mated).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// Outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best_move: Move,
    /// Score of the position after the best line.
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Depth of the last finished iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Wall time used.
    pub time: Duration,
}

/// Which of an engine's two evaluations a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EvalUse {
    /// Expert and analysis: the full-strength evaluation.
    Full,
    /// The weaker levels: the classical evaluation they were calibrated with.
    Levels,
}

/// A reusable engine: transposition table, evaluation and thread count.
pub struct Engine {
    tt: tt::Table,
    threads: usize,
    /// One set of learnt move-order tables per thread, kept between moves.
    heuristics: Vec<Heuristics>,
    eval: Arc<dyn Evaluator>,
    level_eval: Arc<dyn Evaluator>,
    /// The evaluation of the search under way.
    active: EvalUse,
    /// The evaluation whose static scores fill the table and the
    /// correction history.
    filled_by: EvalUse,
    move_overhead: Duration,
}

impl Engine {
    /// An engine with a `hash_mb` MiB transposition table and one thread.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: tt::Table::new(hash_mb),
            threads: 1,
            heuristics: vec![Heuristics::new()],
            eval: nnue::default_network(),
            level_eval: Arc::new(Classical::default()),
            active: EvalUse::Full,
            filled_by: EvalUse::Full,
            move_overhead: Duration::from_millis(30),
        }
    }

    /// Replaces the transposition table with one of `hash_mb` MiB.
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt = tt::Table::new(hash_mb);
    }

    /// Number of search threads (at least one).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 256);
        self.heuristics.resize_with(self.threads, Heuristics::new);
    }

    /// Safety margin kept off the clock for communication delays.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// Uses another full-strength evaluation, for example a network (Expert
    /// and analysis; the weaker levels keep the classical one they were
    /// calibrated with). Clears the table, whose entries hold the old
    /// evaluation's scores.
    pub fn set_evaluator(&mut self, eval: Arc<dyn Evaluator>) {
        self.eval = eval;
        self.clear();
    }

    /// The full-strength static evaluation of `pos`, for the side to move.
    pub fn static_eval(&self, pos: &Chess) -> i32 {
        self.eval.evaluate(pos)
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.iter_mut().for_each(Heuristics::clear);
    }

    /// Searches the position reached from `start` by `moves` and picks a move
    /// the way `level` plays; `seed` drives the weaker levels' choices.
    ///
    /// Returns `None` if the position has no legal move. Moves in `moves`
    /// that are illegal end the history there. Without any limit the search
    /// lasts [`Level::think_time`].
    pub fn search(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        // With no limit at all, a level thinks for its usual time instead of
        // searching until stopped.
        let mut limits = limits.clone();
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && !limits.infinite
        {
            limits.movetime = Some(level.think_time());
        }
        if level == Level::Expert {
            self.search_with_info(start, moves, &limits, stop, &mut |_| {})
        } else {
            self.active = EvalUse::Levels;
            let found = level::choose(self, start, moves, &limits, level, seed, stop);
            self.active = EvalUse::Full;
            found
        }
    }

    /// Full-strength search reporting every finished iteration to `info`.
    pub fn search_with_info(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        self.run(start, moves, limits, 1, stop, info)
            .into_iter()
            .next()
    }

    /// Best `multipv` lines of the position, best first.
    pub fn analyse(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
    ) -> Vec<SearchResult> {
        self.run(start, moves, limits, multipv, stop, &mut |_| {})
    }

    /// Like [`Engine::analyse`], reporting progress to `info`.
    pub fn analyse_with_info(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Vec<SearchResult> {
        self.run(start, moves, limits, multipv, stop, info)
    }

    fn run(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Vec<SearchResult> {
        let started = Instant::now();
        let (pos, keys) = replay(start, moves);
        if pos.legal_moves().is_empty() {
            return Vec::new();
        }
        if self.filled_by != self.active {
            if !Arc::ptr_eq(&self.eval, &self.level_eval) {
                self.clear();
            }
            self.filled_by = self.active;
        }
        self.tt.new_search();
        let budget = time::budget(limits, pos.fullmoves().get(), self.move_overhead);
        let eval = match self.active {
            EvalUse::Full => &*self.eval,
            EvalUse::Levels => &*self.level_eval,
        };
        let shared = Shared {
            tt: &self.tt,
            eval,
            stop,
            abort: AtomicBool::new(false),
            helper_nodes: Default::default(),
            start: started,
        };
        let (main_h, helper_h) = self
            .heuristics
            .split_first_mut()
            .expect("one table set per thread");
        let (mut lines, mut depth, mut seldepth, nodes, helpers) = std::thread::scope(|scope| {
            let shared = &shared;
            let handles: Vec<_> = helper_h
                .iter_mut()
                .enumerate()
                .map(|(id, h)| {
                    let keys = keys.clone();
                    let pos = pos.clone();
                    scope.spawn(move || {
                        let helper_budget = Budget {
                            soft: None,
                            hard: None,
                            nodes: None,
                            depth: search::MAX_PLY as u32,
                        };
                        let mut w = Worker::new(shared, h, false, keys, helper_budget);
                        w.restrict_root(&pos, &limits.searchmoves);
                        let finished = w.iterate(&pos, 1, None, (id as u32 + 1) % 2);
                        w.publish_nodes();
                        finished
                    })
                })
                .collect();
            let mut w = Worker::new(shared, main_h, true, keys.clone(), budget);
            w.restrict_root(&pos, &limits.searchmoves);
            let (lines, depth, seldepth) = w.iterate(&pos, multipv, Some(&mut *info), 0);
            shared.abort.store(true, Ordering::Relaxed);
            let helpers: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (lines, depth, seldepth, w.nodes, helpers)
        });
        let nodes = nodes + shared.helper_nodes.load(Ordering::Relaxed);
        if multipv == 1
            && limits.depth.is_none()
            && let Some(main_line) = lines.first()
            && let Some(i) = search::pick_thread((main_line, depth), &helpers)
        {
            let (helper_lines, helper_depth, helper_seldepth) = &helpers[i];
            lines = helper_lines.clone();
            depth = *helper_depth;
            seldepth = *helper_seldepth;
            info(&Info {
                depth,
                seldepth,
                multipv: 1,
                score: search::to_score(lines[0].score),
                nodes,
                time: started.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: lines[0].pv.clone(),
            });
        }
        let time = started.elapsed();
        lines
            .into_iter()
            .map(|l| SearchResult {
                best_move: l.pv[0],
                score: search::to_score(l.score),
                pv: l.pv,
                depth,
                seldepth,
                nodes,
                time,
            })
            .collect()
    }
}

/// Plays `moves` from `start`, returning the final position and the keys of
/// every position on the way (the last one is the final position's).
pub fn replay(start: &Chess, moves: &[Move]) -> (Chess, Vec<u64>) {
    let mut pos = start.clone();
    let mut keys = Vec::with_capacity(moves.len() + search::MAX_PLY + 8);
    keys.push(search::key_of(&pos));
    for &m in moves {
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        keys.push(search::key_of(&pos));
    }
    (pos, keys)
}

#[cfg(test)]
mod tests;
