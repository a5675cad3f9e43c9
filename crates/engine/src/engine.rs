//! The [`Engine`]: its transposition table, evaluations and threads, and
//! the full-strength search (one thread or several, multi-PV) that the
//! levels ([`crate::level`]) and the UCI front end build on; [`replay`] of
//! a game's moves. Playing at a level, [`Engine::search`], sits above the
//! levels in `play`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::Classical;
use crate::evaluator::Evaluator;
use crate::limits::Limits;
use crate::nnue;
use crate::score::SearchResult;
use crate::search::{self, Budget, Heuristics, Info, Shared, Worker};
use crate::{time, tt};

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

    /// Runs `f` on this engine with the weaker levels' classical
    /// evaluation in place of the full-strength one (see
    /// [`crate::level`]).
    pub(crate) fn with_level_eval<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> T {
        self.active = EvalUse::Levels;
        let found = f(self);
        self.active = EvalUse::Full;
        found
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
mod tests {
    use super::*;
    use crate::nnue::{Base, Network, default_network, sample_net, sample_net_kb};
    use crate::testutil::pos;

    /// The network without its incremental path: the search has to call
    /// `evaluate` on every position.
    struct FromScratch(Network);

    impl Evaluator for FromScratch {
        fn evaluate(&self, pos: &Chess) -> i32 {
            self.0.evaluate(pos)
        }
    }

    #[test]
    fn search_with_updated_accumulators_equals_search_from_scratch() {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limits = crate::Limits {
            depth: Some(6),
            ..crate::Limits::default()
        };
        for fen in [
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 9",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2P5/8/8/1k6/8/5p2/3K4 b - - 0 1",
        ] {
            for net in [
                sample_net(16),
                sample_net(16).with_base(Base::Classical),
                sample_net_kb(16, 4),
            ] {
                let p = pos(fen);
                let mut found = Vec::new();
                for eval in [
                    std::sync::Arc::new(net.clone()) as std::sync::Arc<dyn Evaluator>,
                    std::sync::Arc::new(FromScratch(net.clone())),
                ] {
                    let mut engine = crate::Engine::new(4);
                    engine.set_evaluator(eval);
                    let r = engine
                        .search_with_info(&p, &[], &limits, &stop, &mut |_| {})
                        .expect("a move");
                    found.push((r.best_move, r.score, r.nodes, r.pv));
                }
                assert_eq!(
                    found[0],
                    found[1],
                    "{fen} {:?} {}",
                    net.base(),
                    net.king_buckets()
                );
            }
        }
    }

    #[test]
    fn weaker_levels_keep_the_classical_evaluation() {
        // Whatever full-strength evaluation an engine has, a level below
        // Expert plays exactly as with the classical one.
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let nodes = |n| crate::Limits {
            nodes: Some(n),
            ..crate::Limits::default()
        };
        for level in [crate::Level::Easy, crate::Level::Hard] {
            let mut found = Vec::new();
            for full in [
                std::sync::Arc::new(crate::eval::Classical::default()) as Arc<dyn Evaluator>,
                default_network(),
                Arc::new(sample_net(16)),
            ] {
                let mut e = crate::Engine::new(4);
                e.set_evaluator(full);
                // An Expert search first: switching evaluations must not
                // leak its table into the level's search.
                e.search(&p, &[], &nodes(2000), crate::Level::Expert, 1, &stop);
                let r = e
                    .search(&p, &[], &nodes(3000), level, 9, &stop)
                    .expect("a move");
                found.push((r.best_move, r.score, r.nodes));
            }
            assert_eq!(found[0], found[1], "{level:?}");
            assert_eq!(found[0], found[2], "{level:?}");
        }
    }

    #[test]
    fn engines_play_expert_with_the_built_in_network() {
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let e = crate::Engine::new(4);
        assert_eq!(e.static_eval(&p), default_network().evaluate(&p));
    }
}
