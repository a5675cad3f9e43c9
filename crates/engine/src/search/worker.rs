//! One search thread ([`Worker`]): its state along the current line, its
//! budget and when it must stop, the game's keys it sees repetitions in
//! ([`key_of`]), and what all threads of a search share ([`Shared`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};

use super::heuristics::Heuristics;
use super::score::MAX_PLY;
use super::tunables::TIME_CHECK_MASK;
use crate::evaluator::Evaluator;
use crate::nnue::Network;
use crate::tt::Table;

/// A placeholder move (a drop, never legal in chess) for the unused slots
/// of fixed-size move arrays.
pub(super) const NULL_MOVE: Move = Move::Put {
    role: Role::Pawn,
    to: Square::A1,
};

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

/// What the search keeps about each ply of the current line.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) eval: i32,
    /// (piece index, destination) of the move played from this ply.
    pub(super) played: Option<(usize, usize)>,
    pub(super) null: bool,
    /// Move left out of this node's search (singular extension test).
    pub(super) excluded: u16,
}

/// One search thread.
pub struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) main: bool,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Part of `nodes` a helper has already added to `Shared::helper_nodes`.
    published: u64,
    pub(super) seldepth: usize,
    pub(super) aborted: bool,
    pub(super) can_abort: bool,
    pub(super) budget: Budget,
    pub(super) keys: Vec<u64>,
    pub(super) h: &'a mut Heuristics,
    pub(super) killers: [[u16; 2]; MAX_PLY + 2],
    pub(super) stack: [Frame; MAX_PLY + 2],
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) lmr: Box<[[i32; 64]; 64]>,
    pub(super) root_exclude: Vec<u16>,
    /// The only root moves to search (`searchmoves`); empty for all.
    pub(super) root_only: Vec<u16>,
    pub(super) root_depth: i32,
    /// The evaluation's network, when it is one.
    pub(super) net: Option<&'a Network>,
    /// One network accumulator per ply, back to back (empty without one).
    pub(super) acc: Vec<i16>,
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

    pub(super) fn elapsed(&self) -> Duration {
        self.shared.start.elapsed()
    }

    /// Whether the search must stop now: the main thread watches its node
    /// and time budget and the stop flag, a helper the main thread's end.
    #[inline]
    pub(super) fn check_abort(&mut self) -> bool {
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
    pub(super) fn is_repetition(&self, halfmoves: u32) -> bool {
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
}
