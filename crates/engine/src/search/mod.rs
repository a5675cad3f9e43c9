//! The alpha-beta search: one search thread ([`Worker`]) and what all
//! threads of a search share, split by what each part owns:
//!
//! - `root`: iterative deepening with aspiration windows, multi-PV,
//!   `searchmoves`, reporting, and which thread's result is played;
//! - `negamax`: principal variation search with its pruning, reductions
//!   and extensions;
//! - `qsearch`: the quiescence search;
//! - `ordering`: move ordering;
//! - `history`: what a thread learns about move order between nodes;
//! - `correction`: what it learns about the static evaluation's errors;
//! - `make`: making moves (keys, network accumulators) and evaluating.
//!
//! Positions are copied and made (`Chess::play_unchecked` on a clone); the
//! Zobrist key is updated incrementally alongside when shakmaty can.

mod correction;
mod history;
mod make;
mod negamax;
mod ordering;
mod qsearch;
mod root;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};

use crate::evaluator::Evaluator;
use crate::nnue::Network;
use crate::tt::{Bound, Entry, Table};

pub use history::Heuristics;
pub use make::encode_move;
pub use root::{allowed_root_moves, pick_thread};

/// Deepest ply the search ever reaches.
pub const MAX_PLY: usize = 120;
/// Score of being checkmated now (negated: giving mate now).
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Larger than any score.
pub const INF: i32 = MATE + 1;

// Search tunables, all in one place.
const ASPIRATION_DELTA: i32 = 18;
const RFP_MAX_DEPTH: i32 = 8;
const RFP_MARGIN: i32 = 75;
/// From this depth on, reverse futility first checks that the opponent
/// has no mate in one (a test too costly for the shallowest nodes).
const RFP_THREAT_MIN_DEPTH: i32 = 3;
const NMP_MIN_DEPTH: i32 = 3;
const FUTILITY_MAX_DEPTH: i32 = 8;
const FUTILITY_BASE: i32 = 90;
const FUTILITY_PER_DEPTH: i32 = 90;
const SEE_QUIET_MARGIN: i32 = 55;
const SEE_CAPTURE_MARGIN: i32 = 90;
/// Material a check may lose by exchange per ply of remaining depth (not
/// of reduced depth) and still be searched.
const SEE_CHECK_MARGIN: i32 = 200;
const LMP_MAX_DEPTH: i32 = 8;
const SE_MIN_DEPTH: i32 = 7;
const SE_TT_DEPTH_SLACK: i32 = 3;
const SE_MARGIN_PER_DEPTH: i32 = 2;
const QS_DELTA: i32 = 200;
const HISTORY_MAX: i32 = 16384;
/// Quiet moves whose continuation history is below this, per ply of
/// remaining depth, are skipped near the leaves.
const CONT_PRUNE_PER_DEPTH: i32 = -3000;
const CONT_PRUNE_MAX_DEPTH: i32 = 3;
/// Combined history per ply of late-move reduction removed or added.
const LMR_HISTORY_DIVISOR: i32 = 12288;
/// Capture history is divided by this before joining the victim-first
/// capture order.
const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Ordering bonus of a quiet move that takes a piece out of attack by a
/// cheaper piece (and malus for one that moves into such an attack).
const ESCAPE_BONUS: i32 = 16384;
/// Order score of the counter move, the lowest of the special quiet moves:
/// at or above it a move is the table move, a good capture or a killer.
const COUNTER_ORDER: i32 = 398_000_000;
const TIME_CHECK_MASK: u64 = 1023;
/// Entries of the static-evaluation correction table, per side to move.
const CORRECTION_SIZE: usize = 16384;
/// Fixed-point units per centipawn in the correction table.
const CORRECTION_GRAIN: i32 = 256;
/// Largest correction applied, in centipawns (the quiescence search's
/// stand-pat does not use it: applied there, with 96 cp, it measured ±0).
const CORRECTION_MAX: i32 = 48;
/// Fraction of the soft budget after which no new iteration starts (the
/// next one would likely overrun it).
const SOFT_STOP: f64 = 0.8;

const NULL_MOVE: Move = Move::Put {
    role: Role::Pawn,
    to: Square::A1,
};

/// Converts an internal score to a UCI-style score.
pub fn to_score(v: i32) -> crate::Score {
    if v >= MATE_BOUND {
        crate::Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        crate::Score::Mate(-(MATE + v) / 2)
    } else {
        crate::Score::Cp(v)
    }
}

/// A score as the table stores it: mates counted from the stored node.
fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// A stored score as seen from `ply`: mates counted from the root again.
fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The table's score for a node at `ply` when its bound settles the
/// window `alpha`..`beta`.
#[inline]
fn tt_cutoff(e: Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// Zobrist key of a position, with en passant only when a capture is legal.
pub fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    /// Transposition table.
    pub tt: &'a Table,
    /// Evaluation function.
    pub eval: &'a dyn Evaluator,
    /// Stop requested from outside (GUI `stop`, server cancel).
    pub stop: &'a AtomicBool,
    /// Set by the main thread when the search is over.
    pub abort: AtomicBool,
    /// Nodes of finished helper work, for reporting.
    pub helper_nodes: AtomicU64,
    /// When the search started.
    pub start: Instant,
}

/// Limits the main thread enforces.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop starting new iterations after this (scaled by stability).
    pub soft: Option<Duration>,
    /// Abort the search at once after this.
    pub hard: Option<Duration>,
    /// Abort after this many nodes.
    pub nodes: Option<u64>,
    /// Deepest iteration.
    pub depth: u32,
}

/// One line of a (multi-)PV search result.
#[derive(Debug, Clone)]
pub struct Line {
    /// Internal score.
    pub score: i32,
    /// Principal variation (first move is the root move).
    pub pv: Vec<Move>,
}

/// Progress report after each finished iteration line.
#[derive(Debug, Clone)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    /// Score from the side to move.
    pub score: crate::Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Time since the start.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What the search keeps about each ply of the current line.
#[derive(Clone, Copy)]
struct Frame {
    eval: i32,
    /// (piece index, destination) of the move played from this ply.
    played: Option<(usize, usize)>,
    null: bool,
    /// Move left out of this node's search (singular extension test).
    excluded: u16,
}

/// One search thread.
pub struct Worker<'a> {
    shared: &'a Shared<'a>,
    main: bool,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Part of `nodes` a helper has already added to `Shared::helper_nodes`.
    published: u64,
    seldepth: usize,
    aborted: bool,
    can_abort: bool,
    budget: Budget,
    keys: Vec<u64>,
    h: &'a mut Heuristics,
    killers: [[u16; 2]; MAX_PLY + 2],
    stack: [Frame; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Box<[[i32; 64]; 64]>,
    root_exclude: Vec<u16>,
    /// The only root moves to search (`searchmoves`); empty for all.
    root_only: Vec<u16>,
    root_depth: i32,
    /// The evaluation's network, when it is one.
    net: Option<&'a Network>,
    /// One network accumulator per ply, back to back (empty without one).
    acc: Vec<i16>,
}

impl<'a> Worker<'a> {
    /// A thread that learns into `h`, over the game's key history
    /// (`keys` ends with the root position's key).
    pub fn new(
        shared: &'a Shared<'a>,
        h: &'a mut Heuristics,
        main: bool,
        keys: Vec<u64>,
        budget: Budget,
    ) -> Worker<'a> {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        let net = shared.eval.network();
        Worker {
            shared,
            main,
            nodes: 0,
            published: 0,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            budget,
            keys,
            h,
            killers: [[0; 2]; MAX_PLY + 2],
            stack: [Frame {
                eval: 0,
                played: None,
                null: false,
                excluded: 0,
            }; MAX_PLY + 2],
            pv: Box::new([[NULL_MOVE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr,
            root_exclude: Vec::new(),
            root_only: Vec::new(),
            root_depth: 0,
            net,
            acc: net.map_or_else(Vec::new, |n| vec![0; (MAX_PLY + 2) * n.acc_len()]),
        }
    }

    fn elapsed(&self) -> Duration {
        self.shared.start.elapsed()
    }

    /// Whether the search must stop now: the main thread watches its node
    /// and time budget and the stop flag, a helper the main thread's end.
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.can_abort {
            return false;
        }
        if self.main {
            if let Some(n) = self.budget.nodes
                && self.nodes >= n
            {
                self.aborted = true;
                return true;
            }
            if self.nodes & TIME_CHECK_MASK == 0 {
                if self.shared.stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                } else if let Some(h) = self.budget.hard
                    && self.elapsed() >= h
                {
                    self.aborted = true;
                }
            }
        } else if self.nodes & 255 == 0 {
            self.publish_nodes();
            if self.shared.abort.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Adds a helper's nodes since the last call to the shared count, so
    /// that the main thread's `info nodes` covers every thread.
    pub fn publish_nodes(&mut self) {
        self.shared
            .helper_nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Whether the current position occurred before, within the last
    /// `halfmoves` plies (the game's history included).
    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = (halfmoves as usize).min(n - 1);
        let mut i = 4;
        while i <= limit {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Classical;
    use shakmaty::uci::UciMove;

    #[test]
    fn repetition_is_seen_through_the_game_history() {
        let tt = Table::new(1);
        let eval = Classical::default();
        let stop = AtomicBool::new(false);
        let shared = Shared {
            tt: &tt,
            eval: &eval,
            stop: &stop,
            abort: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            start: Instant::now(),
        };
        let mut pos = Chess::default();
        let mut keys = vec![key_of(&pos)];
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = m
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(mv);
            keys.push(key_of(&pos));
        }
        let budget = Budget {
            soft: None,
            hard: None,
            nodes: None,
            depth: 1,
        };
        let mut h = Heuristics::new();
        let w = Worker::new(&shared, &mut h, true, keys.clone(), budget);
        assert!(w.is_repetition(pos.halfmoves()));
        drop(w);
        let w = Worker::new(&shared, &mut h, true, keys[..4].to_vec(), budget);
        assert!(!w.is_repetition(3));
    }

    #[test]
    fn mate_scores_convert() {
        assert_eq!(to_score(MATE - 1), crate::Score::Mate(1));
        assert_eq!(to_score(MATE - 3), crate::Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), crate::Score::Mate(-1));
        assert_eq!(to_score(35), crate::Score::Cp(35));
        for v in [MATE - 7, -MATE + 9, 120] {
            assert_eq!(score_from_tt(score_to_tt(v, 5), 5), v);
        }
    }
}
