//! The quiescence search: at the end of the main search's depth, only
//! captures and queen promotions (every evasion when in check) are
//! searched, until the position is quiet enough for its static evaluation.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::make::encode_move;
use super::ordering::pick_best;
use super::score::{INF, MATE, MAX_PLY, score_to_tt, tt_cutoff};
use super::tunables::QS_DELTA;
use super::worker::Worker;
use crate::see::{see_ge, value};
use crate::tt::Bound;

/// What the move loop of a quiescence node found.
struct Found {
    best: i32,
    best_move: u16,
    alpha: i32,
}

impl Worker<'_> {
    /// Quiescence search of `pos` (key `key`) at `ply` in the window
    /// `alpha`..`beta`.
    pub(super) fn qsearch(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let entry = self.shared.tt.probe(key);
        if let Some(s) = entry.and_then(|e| tt_cutoff(e, ply, alpha, beta)) {
            return s;
        }
        let in_check = pos.is_check();
        let stand = if in_check {
            -INF
        } else {
            let stand = entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            stand
        };
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !in_check {
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        }
        let original_alpha = alpha;
        let stand_pat = (!in_check).then_some(stand);
        let Some(found) = self.qsearch_moves(pos, key, ply, &mut moves, stand_pat, alpha, beta)
        else {
            return 0;
        };
        if found.best == -INF {
            // In check with every evasion pruned cannot happen (evasions are
            // never pruned), so this is only reached without legal moves.
            return -MATE + ply as i32;
        }
        let bound = if found.best >= beta {
            Bound::Lower
        } else if found.alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            found.best_move,
            score_to_tt(found.best, ply),
            if in_check { 0 } else { stand },
            0,
            bound,
        );
        found.best
    }

    /// Searches `moves` most valuable victim first; out of check (with a
    /// stand-pat score `stand`), captures that cannot matter are skipped.
    /// `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    fn qsearch_moves(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        moves: &mut MoveList,
        stand: Option<i32>,
        mut alpha: i32,
        beta: i32,
    ) -> Option<Found> {
        let mut scores = [0i32; 256];
        for (i, &m) in moves.iter().enumerate() {
            let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
            scores[i] = victim * 16 - value(m.role()) / 16;
        }
        let mut best = stand.unwrap_or(-INF);
        let mut best_move = 0u16;
        for i in 0..moves.len() {
            pick_best(moves, &mut scores, i);
            let m = moves[i];
            if let Some(stand) = stand
                && futile(pos, m, stand, alpha)
            {
                continue;
            }
            let (child, ckey) = self.make(pos, key, m, ply);
            let s = -self.qsearch(&child, ckey, ply + 1, -beta, -alpha);
            if self.aborted {
                return None;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = encode_move(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        Some(Found {
            best,
            best_move,
            alpha,
        })
    }
}

/// Whether capture `m` is not worth searching out of check: even winning
/// its victim leaves the score short of alpha, or it loses material.
#[inline]
fn futile(pos: &Chess, m: Move, stand: i32, alpha: i32) -> bool {
    let gain = m.capture().map_or(0, value) + m.promotion().map_or(0, |p| value(p) - 100);
    (stand + gain + QS_DELTA <= alpha && !m.is_promotion()) || !see_ge(pos, m, 0)
}
