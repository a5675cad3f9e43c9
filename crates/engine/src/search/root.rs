//! The root of the search: iterative deepening with aspiration windows,
//! multi-PV lines ([`Line`]), the `searchmoves` restriction, progress
//! reports ([`Info`]), when to stop deepening, and which thread's finished
//! search is played.

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::make::encode_move;
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY, to_score};
use super::tunables::{ASPIRATION_DELTA, SOFT_STOP};
use super::worker::Worker;
use crate::score::Score;

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
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Time since the start.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The moves of `searchmoves` that are legal in `root`; empty (every move
/// may be played) when `searchmoves` is empty or none of it is legal.
pub fn allowed_root_moves(root: &Chess, searchmoves: &[Move]) -> Vec<Move> {
    searchmoves
        .iter()
        .copied()
        .filter(|&m| root.is_legal(m))
        .collect()
}

/// Which helper thread's finished search to play instead of the main
/// thread's, given the main thread's best line and depth and each helper's
/// lines, depth and seldepth: the helper whose best line scores highest
/// among those that beat the main line at least as deep or prove a mate.
/// `None` keeps the main thread's choice.
pub fn pick_thread(main: (&Line, u32), helpers: &[(Vec<Line>, u32, u32)]) -> Option<usize> {
    let (mut best_score, mut best_depth) = (main.0.score, main.1);
    let mut pick = None;
    for (i, (lines, depth, _)) in helpers.iter().enumerate() {
        let Some(line) = lines.first() else {
            continue;
        };
        if line.score > best_score && (*depth >= best_depth || line.score >= MATE_BOUND) {
            (best_score, best_depth) = (line.score, *depth);
            pick = Some(i);
        }
    }
    pick
}

impl Worker<'_> {
    /// Limits the root to [`allowed_root_moves`] of `root` and `moves`.
    pub fn restrict_root(&mut self, root: &Chess, moves: &[Move]) {
        self.root_only = allowed_root_moves(root, moves)
            .into_iter()
            .map(encode_move)
            .collect();
    }

    /// Whether `searchmoves` lets the root move with this code be searched.
    #[inline]
    fn root_allows(&self, code: u16) -> bool {
        self.root_only.is_empty() || self.root_only.contains(&code)
    }

    /// Whether a root move with this code is left out of the search.
    #[inline]
    pub(super) fn root_skips(&self, code: u16) -> bool {
        self.root_exclude.contains(&code) || !self.root_allows(code)
    }

    /// Iterative deepening over `root`; returns the lines of the deepest
    /// finished iteration (best first), its depth and seldepth.
    pub fn iterate(
        &mut self,
        root: &Chess,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Info)>,
        helper_offset: u32,
    ) -> (Vec<Line>, u32, u32) {
        if let Some(net) = self.net {
            net.refresh(root.board(), &mut self.acc[..net.acc_len()]);
        }
        let mut legal = root.legal_moves();
        legal.retain(|m| self.root_allows(encode_move(*m)));
        let multipv = multipv.clamp(1, legal.len().max(1));
        let root_key = *self.keys.last().expect("root key");
        let mut done: Vec<Line> = Vec::new();
        let (mut done_depth, mut done_sel) = (0, 0);
        let mut last_best: Option<Move> = None;
        let mut stable = 0u32;
        let max_depth = self.budget.depth.clamp(1, MAX_PLY as u32 - 4);
        let mut depth = 1 + helper_offset;
        while depth <= max_depth {
            self.root_depth = depth as i32;
            let mut lines = self.iteration(root, root_key, depth, multipv, &done);
            if self.aborted || lines.len() < multipv {
                // Keep the finished iteration, but take a new best first
                // line if it was fully resolved in this iteration.
                if let Some(first) = lines.first()
                    && !done.is_empty()
                {
                    promote(&mut done, first.clone());
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            done = lines;
            done_depth = depth;
            done_sel = self.seldepth as u32;
            self.can_abort = true;
            if let Some(report) = report.as_deref_mut() {
                self.report(&done, depth, report);
            }
            let best = done[0].pv[0];
            stable = if last_best == Some(best) {
                stable + 1
            } else {
                0
            };
            last_best = Some(best);
            if self.main && self.deep_enough(&done[0], depth, stable) {
                break;
            }
            depth += 1;
        }
        if done.is_empty()
            && let Some(&m) = legal.first()
        {
            done.push(Line {
                score: 0,
                pv: vec![m],
            });
        }
        (done, done_depth, done_sel)
    }

    /// One iteration at `depth`: up to `multipv` lines, each searched with
    /// the ones before it left out, around the previous iteration's scores
    /// (`done`). Fewer lines when the search was stopped.
    fn iteration(
        &mut self,
        root: &Chess,
        root_key: u64,
        depth: u32,
        multipv: usize,
        done: &[Line],
    ) -> Vec<Line> {
        let mut lines: Vec<Line> = Vec::new();
        self.root_exclude.clear();
        for pv_idx in 0..multipv {
            let prev = done.get(pv_idx).map(|l| l.score);
            self.seldepth = 0;
            let score = self.aspiration(root, root_key, depth, prev);
            if self.aborted {
                break;
            }
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if pv.is_empty() {
                break;
            }
            self.root_exclude.push(encode_move(pv[0]));
            lines.push(Line { score, pv });
            self.can_abort = true;
        }
        lines
    }

    /// The root searched at `depth` in a window around the previous
    /// iteration's score `prev`, widened until the score falls inside it.
    fn aspiration(&mut self, root: &Chess, root_key: u64, depth: u32, prev: Option<i32>) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = match prev {
            Some(s) if depth >= 4 && s.abs() < MATE_BOUND => (s - delta, s + delta),
            _ => (-INF, INF),
        };
        loop {
            let s = self.negamax(root, root_key, depth as i32, 0, alpha, beta, false);
            if self.aborted {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2 + 5;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Reports the lines of the iteration just finished.
    fn report(&self, done: &[Line], depth: u32, report: &mut dyn FnMut(&Info)) {
        for (i, l) in done.iter().enumerate() {
            report(&Info {
                depth,
                seldepth: self.seldepth as u32,
                multipv: i + 1,
                score: to_score(l.score),
                nodes: self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed),
                time: self.elapsed(),
                hashfull: self.shared.tt.hashfull(),
                pv: l.pv.clone(),
            });
        }
    }

    /// Whether the main thread stops deepening after an iteration at
    /// `depth` whose best line is `best`, the same best move for `stable`
    /// iterations: the soft budget (scaled by that stability) is nearly
    /// spent, or a timed search has proven a mate.
    fn deep_enough(&self, best: &Line, depth: u32, stable: u32) -> bool {
        let Some(soft) = self.budget.soft else {
            return false;
        };
        let factor = match stable {
            0 => 1.4,
            1 => 1.1,
            2 | 3 => 0.9,
            _ => 0.7,
        };
        if self.elapsed().as_secs_f64() >= soft.as_secs_f64() * factor * SOFT_STOP {
            return true;
        }
        // A proven mate: deeper iterations only shorten nothing.
        best.score.abs() >= MATE_BOUND && depth as i32 > (MATE - best.score.abs()) * 2 + 4
    }
}

/// Puts `best` first, followed by the other `lines` but the one on the
/// same root move, keeping their number: every line starts with a
/// different move.
fn promote(lines: &mut Vec<Line>, best: Line) {
    let n = lines.len();
    lines.retain(|l| l.pv.first() != best.pv.first());
    lines.insert(0, best);
    lines.truncate(n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::worker::NULL_MOVE;

    #[test]
    fn helpers_win_with_a_better_score_as_deep_or_a_mate() {
        let line = |score| Line {
            score,
            pv: vec![NULL_MOVE],
        };
        let main = line(50);
        let h = |score, depth| (vec![line(score)], depth, depth + 4);
        assert_eq!(pick_thread((&main, 10), &[]), None);
        assert_eq!(pick_thread((&main, 10), &[h(40, 12), h(60, 9)]), None);
        assert_eq!(pick_thread((&main, 10), &[h(60, 10), h(80, 11)]), Some(1));
        assert_eq!(pick_thread((&main, 10), &[h(80, 11), h(60, 12)]), Some(0));
        assert_eq!(
            pick_thread((&main, 10), &[h(MATE - 3, 4), h(90, 12)]),
            Some(0)
        );
        assert_eq!(pick_thread((&line(MATE - 3), 9), &[h(MATE - 5, 20)]), None);
        assert_eq!(pick_thread((&main, 10), &[(Vec::new(), 0, 0)]), None);
    }
}
