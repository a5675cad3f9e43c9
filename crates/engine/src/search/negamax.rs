//! Principal variation search: a negamax alpha-beta node in steps —
//! draws and mate distance, the table's cutoff, the static evaluation,
//! node pruning (reverse futility, null move), the singular extension
//! test, the move loop (move pruning, extensions, late-move reductions,
//! re-searches) and what the node leaves behind (table entry, histories,
//! evaluation correction).

use std::ops::ControlFlow;

use shakmaty::{Chess, Move, MoveList, Position};

use super::correction::pawn_slot;
use super::history::{ContRows, history_bonus};
use super::make::{encode_move, from_to, gives_check, piece_index};
use super::ordering::pick_best;
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY, score_from_tt, score_to_tt, tt_cutoff};
use super::tunables::{
    CONT_PRUNE_MAX_DEPTH, CONT_PRUNE_PER_DEPTH, COUNTER_ORDER, FUTILITY_BASE, FUTILITY_MAX_DEPTH,
    FUTILITY_PER_DEPTH, LMP_MAX_DEPTH, LMR_HISTORY_DIVISOR, NMP_MIN_DEPTH, RFP_MARGIN,
    RFP_MAX_DEPTH, RFP_THREAT_MIN_DEPTH, SE_MARGIN_PER_DEPTH, SE_MIN_DEPTH, SE_TT_DEPTH_SLACK,
    SEE_CAPTURE_MARGIN, SEE_CHECK_MARGIN, SEE_QUIET_MARGIN,
};
use super::worker::{NULL_MOVE, Worker, key_of};
use crate::see::see_ge;
use crate::tt::{Bound, Entry};

/// The static evaluations of a node (all `-INF` in check).
#[derive(Clone, Copy)]
struct Evals {
    /// As the evaluation returns it (what the table stores).
    raw: i32,
    /// Adjusted by the correction history.
    corrected: i32,
    /// The corrected evaluation, or the table's score when its bound
    /// shows the evaluation is off in that direction.
    eval: i32,
    /// Slot of the pawn structure in the correction table.
    pawns: usize,
}

/// What a node knows once it is entered, before its moves are searched.
struct Node<'p> {
    pos: &'p Chess,
    key: u64,
    ply: usize,
    /// Remaining depth (one less after an internal iterative reduction).
    depth: i32,
    cut_node: bool,
    pv_node: bool,
    root: bool,
    in_check: bool,
    /// Move left out of this search (singular extension test), 0 for none.
    excluded: u16,
    entry: Option<Entry>,
    tt_move: u16,
    evals: Evals,
    /// The evaluation is better than two plies ago (set once the line's
    /// frame holds this node).
    improving: bool,
    /// The table's move passed the singular extension test.
    singular: bool,
}

/// One move of the move loop and what its pruning and reduction look at.
struct Candidate {
    m: Move,
    order: i32,
    code: u16,
    quiet: bool,
    gives_check: bool,
    /// Destination square index.
    to: usize,
    /// Butterfly and continuation history of a quiet move (0 otherwise).
    hist: i32,
    cont: i32,
    /// Late-move reduction before its adjustments.
    reduction: i32,
}

/// The moves a node has searched and the best of them.
struct Tried {
    best: i32,
    best_move: Option<Move>,
    searched: usize,
}

/// The searched moves that did not cut, for the history penalties of a
/// later cutoff: quiet moves and captures, each up to a limit.
struct Failed<'a> {
    quiets: &'a mut [Move],
    n_quiets: usize,
    captures: &'a mut [Move],
    n_captures: usize,
}

impl Failed<'_> {
    #[inline]
    fn record(&mut self, c: &Candidate) {
        if c.quiet && self.n_quiets < self.quiets.len() {
            self.quiets[self.n_quiets] = c.m;
            self.n_quiets += 1;
        } else if c.m.is_capture() && self.n_captures < self.captures.len() {
            self.captures[self.n_captures] = c.m;
            self.n_captures += 1;
        }
    }
}

/// What the move loop does with a move after the pruning rules.
enum Pruned {
    /// Search it.
    No,
    /// Skip it.
    Move,
    /// Skip it and every later quiet move that does not give check.
    LaterQuiets,
}

/// Whether check `m` leaves the opponent at most one legal reply. Such a
/// check is searched whatever material the exchange on its square seems
/// to lose: it is mate, or a sacrifice that forces the reply (15...Nxd7
/// 16.Qb8+ Nxb8 17.Rd8#), and its subtree is narrow.
fn forcing_check(pos: &Chess, m: Move) -> bool {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child.legal_moves().len() <= 1
}

/// Whether the opponent, were it to move in `pos`, would have a mate in
/// one. The static evaluation does not see such a threat, so reverse
/// futility must not stand on it (1.Qh6!! gxh6?? 2.Nxh6#, or any reply
/// but Qf6 is met by 2.Qxg7#).
fn mate_threat(pos: &Chess) -> bool {
    let Ok(them) = pos.clone().swap_turn() else {
        return false;
    };
    them.legal_moves().iter().any(|&m| {
        gives_check(&them, m) && {
            let mut child = them.clone();
            child.play_unchecked(m);
            child.legal_moves().is_empty()
        }
    })
}

fn has_non_pawn(pos: &Chess) -> bool {
    let b = pos.board();
    (pos.us() & !b.pawns() & !b.kings()).any()
}

/// Late-move reduction of a move searched after the first, from its base
/// value adjusted by the node and the move.
#[inline]
fn reduction(node: &Node, c: &Candidate, new_depth: i32) -> i32 {
    if c.reduction <= 0 || !(c.quiet || c.order < 0) {
        return 0;
    }
    let mut r = c.reduction;
    r -= i32::from(node.pv_node) + i32::from(node.root);
    r += i32::from(!node.improving);
    r += i32::from(node.cut_node);
    r -= i32::from(c.order >= COUNTER_ORDER);
    r -= i32::from(c.gives_check);
    r -= (c.hist + c.cont) / LMR_HISTORY_DIVISOR;
    r.clamp(0, (new_depth - 1).max(0))
}

impl Worker<'_> {
    /// Searches `pos` (key `key`) at `ply` to `depth` in the window
    /// `alpha`..`beta`; `cut_node` when a fail high is expected.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_abort() {
            return 0;
        }
        let in_check = pos.is_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, key, ply, alpha, beta);
        }
        let depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if let Some(s) = self.drawn_or_too_deep(pos, ply, in_check) {
                return s;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.stack[ply].excluded;
        let entry = self.shared.tt.probe(key);
        let mut tt_move = entry.map_or(0, |e| e.mv);
        if root && self.root_skips(tt_move) {
            tt_move = 0;
        }
        if let Some(e) = entry
            && !pv_node
            && excluded == 0
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }

        let node = Node {
            pos,
            key,
            ply,
            depth,
            cut_node,
            pv_node,
            root,
            in_check,
            excluded,
            entry,
            tt_move,
            evals: self.node_evals(pos, ply, entry, in_check),
            improving: false,
            singular: false,
        };
        self.search_node(node, alpha, beta)
    }

    /// The rest of a node the table did not settle: node pruning, the
    /// singular test, the moves, and what the node leaves behind.
    #[inline]
    fn search_node(&mut self, mut node: Node, alpha: i32, beta: i32) -> i32 {
        let (ply, eval) = (node.ply, node.evals.eval);
        self.enter_ply(ply, eval);
        node.improving = !node.in_check
            && (ply < 2 || self.stack[ply - 2].eval == -INF || eval > self.stack[ply - 2].eval);
        if !node.pv_node
            && !node.in_check
            && !node.root
            && node.excluded == 0
            && let Some(s) = self.prune_node(&node, beta)
        {
            return s;
        }
        if node.depth >= 4 && node.tt_move == 0 && (node.pv_node || node.cut_node) {
            node.depth -= 1;
        }
        node.singular = match self.singular(&node, beta) {
            ControlFlow::Continue(singular) => singular,
            ControlFlow::Break(s) => return s,
        };
        let mut moves = node.pos.legal_moves();
        if moves.is_empty() {
            return if node.in_check { -MATE + ply as i32 } else { 0 };
        }
        let Some(tried) = self.search_moves(&node, &mut moves, alpha, beta) else {
            return 0;
        };
        if tried.searched == 0 {
            // Only reachable when every move is excluded: at the root, or
            // in a singular test of the only legal move.
            return alpha;
        }
        self.leave(&node, &tried, alpha, beta);
        tried.best
    }

    /// The score of a position the search does not look into: a draw by
    /// repetition, the fifty-move rule or bare material, or the static
    /// evaluation at the deepest ply.
    #[inline]
    fn drawn_or_too_deep(&self, pos: &Chess, ply: usize, in_check: bool) -> Option<i32> {
        if self.is_repetition(pos.halfmoves()) {
            return Some(0);
        }
        if pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty()) {
            return Some(0);
        }
        if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
            return Some(0);
        }
        if ply >= MAX_PLY {
            return Some(self.evaluate(pos, ply));
        }
        None
    }

    /// The static evaluations of `pos` at `ply` (the table's when it has
    /// the position).
    #[inline]
    fn node_evals(&self, pos: &Chess, ply: usize, entry: Option<Entry>, in_check: bool) -> Evals {
        let raw = match entry {
            _ if in_check => -INF,
            Some(e) => e.eval,
            None => self.evaluate(pos, ply),
        };
        let pawns = pawn_slot(pos);
        let corrected = if in_check {
            -INF
        } else {
            self.corrected(pos.turn(), pawns, raw)
        };
        let eval = match entry {
            _ if in_check => -INF,
            Some(e)
                if e.score.abs() < MATE_BOUND
                    && (e.bound == Bound::Exact
                        || (e.bound == Bound::Lower && e.score > corrected)
                        || (e.bound == Bound::Upper && e.score < corrected)) =>
            {
                e.score
            }
            _ => corrected,
        };
        Evals {
            raw,
            corrected,
            eval,
            pawns,
        }
    }

    /// Sets up the line's frame at `ply` (and the killers below it) for a
    /// node evaluated at `eval`.
    #[inline]
    fn enter_ply(&mut self, ply: usize, eval: i32) {
        self.stack[ply].eval = eval;
        self.stack[ply].null = false;
        self.stack[ply].played = None;
        self.killers[ply + 1] = [0, 0];
    }

    /// Node pruning before any move is searched: reverse futility (the
    /// evaluation is far enough above beta) and the null move (passing
    /// still fails high). The score to return, if the node is pruned.
    fn prune_node(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let (pos, depth, eval) = (node.pos, node.depth, node.evals.eval);
        if depth <= RFP_MAX_DEPTH
            && eval - RFP_MARGIN * (depth - i32::from(node.improving)) >= beta
            && eval.abs() < MATE_BOUND
            && !(depth >= RFP_THREAT_MIN_DEPTH && mate_threat(pos))
        {
            return Some(eval);
        }
        if depth >= NMP_MIN_DEPTH
            && eval >= beta
            && !self.stack[node.ply - 1].null
            && has_non_pawn(pos)
            && let Ok(null) = pos.clone().swap_turn()
        {
            return self.null_move(node, &null, beta);
        }
        None
    }

    /// Searches the position after passing (`null`) with a reduced depth;
    /// the score to return when it still fails high.
    fn null_move(&mut self, node: &Node, null: &Chess, beta: i32) -> Option<i32> {
        let (ply, depth) = (node.ply, node.depth);
        let r = 3 + depth / 4 + ((node.evals.eval - beta) / 200).min(3);
        let nkey = key_of(null);
        self.copy_acc(ply);
        self.stack[ply].null = true;
        self.keys.push(nkey);
        let s = -self.negamax(
            null,
            nkey,
            depth - r,
            ply + 1,
            -beta,
            -beta + 1,
            !node.cut_node,
        );
        self.keys.pop();
        self.stack[ply].null = false;
        if self.aborted {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// Singular extension test: when the table's move is much better than
    /// every alternative searched shallower, it is searched one ply
    /// deeper (`Continue(true)`); when even the alternatives beat beta,
    /// the node is cut at once (`Break` with its score).
    fn singular(&mut self, node: &Node, beta: i32) -> ControlFlow<i32, bool> {
        let (ply, depth) = (node.ply, node.depth);
        let Some(e) = node.entry else {
            return ControlFlow::Continue(false);
        };
        if node.root
            || node.excluded != 0
            || depth < SE_MIN_DEPTH
            || node.tt_move == 0
            || e.depth < depth - SE_TT_DEPTH_SLACK
            || e.bound == Bound::Upper
            || e.score.abs() >= MATE_BOUND
            || (ply as i32) >= 2 * self.root_depth
        {
            return ControlFlow::Continue(false);
        }
        let s_beta = score_from_tt(e.score, ply) - SE_MARGIN_PER_DEPTH * depth;
        self.stack[ply].excluded = node.tt_move;
        let s = self.negamax(
            node.pos,
            node.key,
            (depth - 1) / 2,
            ply,
            s_beta - 1,
            s_beta,
            node.cut_node,
        );
        self.stack[ply].excluded = 0;
        if self.aborted {
            return ControlFlow::Break(0);
        }
        let singular = s < s_beta;
        if !singular && s_beta >= beta {
            return ControlFlow::Break(s_beta);
        }
        self.enter_ply(ply, node.evals.eval);
        ControlFlow::Continue(singular)
    }

    /// The move loop: searches `moves` best-ordered first until one fails
    /// high. `None` when the search was stopped.
    fn search_moves(
        &mut self,
        node: &Node,
        moves: &mut MoveList,
        mut alpha: i32,
        beta: i32,
    ) -> Option<Tried> {
        let mut scores = [0i32; 256];
        self.score_moves(node.pos, moves, &mut scores, node.tt_move, node.ply);
        let mut tried = Tried {
            best: -INF,
            best_move: None,
            searched: 0,
        };
        let mut quiets = [NULL_MOVE; 64];
        let mut captures = [NULL_MOVE; 32];
        let mut failed = Failed {
            quiets: &mut quiets,
            n_quiets: 0,
            captures: &mut captures,
            n_captures: 0,
        };
        let mut skip_quiets = false;
        let rows = self.cont_rows(node.ply);
        let lmp_limit = (3 + node.depth * node.depth) / (2 - i32::from(node.improving));
        for i in 0..moves.len() {
            // Once late quiet moves are skipped, the rest is only scanned
            // for checks and bad captures: their order no longer pays for
            // the selection.
            if !skip_quiets {
                pick_best(moves, &mut scores, i);
            }
            let (m, order) = (moves[i], scores[i]);
            let code = encode_move(m);
            if (node.root && self.root_skips(code)) || (node.excluded != 0 && code == node.excluded)
            {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();
            let gives_check = gives_check(node.pos, m);
            if quiet && skip_quiets && !gives_check {
                continue;
            }
            let mut c = Candidate {
                m,
                order,
                code,
                quiet,
                gives_check,
                to: from_to(m).1,
                hist: 0,
                cont: 0,
                reduction: 0,
            };
            self.weigh(node, &mut c, &rows, tried.searched);
            if !node.root && tried.best > -MATE_BOUND {
                match self.prune_move(node, &c, tried.searched, alpha, lmp_limit) {
                    Pruned::No => {}
                    Pruned::Move => continue,
                    Pruned::LaterQuiets => {
                        skip_quiets = true;
                        continue;
                    }
                }
            }
            let score = self.search_move(node, &c, tried.searched, alpha, beta);
            if self.aborted {
                return None;
            }
            tried.searched += 1;
            if score > tried.best {
                tried.best = score;
                if score > alpha {
                    tried.best_move = Some(m);
                    alpha = score;
                    if node.pv_node || node.root {
                        self.update_pv(node.ply, m);
                    }
                    if score >= beta {
                        self.reward_cutoff(node, &c, &failed);
                        break;
                    }
                }
            }
            failed.record(&c);
        }
        Some(tried)
    }

    /// Fills in the histories of quiet move `c` and its base late-move
    /// reduction, as the `searched + 1`th move of the node.
    #[inline]
    fn weigh(&self, node: &Node, c: &mut Candidate, rows: &ContRows, searched: usize) {
        if c.quiet {
            let turn = node.pos.turn() as usize;
            let (f, t) = from_to(c.m);
            c.hist = self.h.history[turn][f][t];
            c.cont = self.cont_history(rows, c.m, turn);
        }
        let depth = node.depth;
        if depth >= 3 && searched > usize::from(node.pv_node) {
            c.reduction = self.lmr[(depth as usize).min(63)][searched.min(63)];
        }
    }

    /// Move pruning, once a move has scored above a mated score: late
    /// quiet moves (move count), quiet moves with a bad continuation
    /// history, futile quiet moves, and moves losing too much material.
    /// A check is pruned only for losing more material than
    /// [`SEE_CHECK_MARGIN`] per ply of full depth, and never when it leaves
    /// the opponent at most one reply ([`forcing_check`]): a mate, or a
    /// sacrifice that forces the way to one, is not dropped for its cost.
    #[inline]
    fn prune_move(
        &self,
        node: &Node,
        c: &Candidate,
        searched: usize,
        alpha: i32,
        lmp_limit: i32,
    ) -> Pruned {
        let (pos, depth, in_check) = (node.pos, node.depth, node.in_check);
        if c.gives_check {
            let losing = depth <= FUTILITY_MAX_DEPTH
                && !see_ge(pos, c.m, -SEE_CHECK_MARGIN * depth)
                && !forcing_check(pos, c.m);
            return if losing { Pruned::Move } else { Pruned::No };
        }
        if !c.quiet {
            let losing = depth <= FUTILITY_MAX_DEPTH
                && c.order < 0
                && !see_ge(pos, c.m, -SEE_CAPTURE_MARGIN * depth);
            return if losing { Pruned::Move } else { Pruned::No };
        }
        if !node.pv_node && !in_check && depth <= LMP_MAX_DEPTH && searched as i32 >= lmp_limit {
            return Pruned::LaterQuiets;
        }
        let lmr_depth = (depth - 1 - c.reduction).max(0);
        let pruned = (lmr_depth <= CONT_PRUNE_MAX_DEPTH && c.cont < CONT_PRUNE_PER_DEPTH * depth)
            || (!in_check
                && lmr_depth <= FUTILITY_MAX_DEPTH
                && node.evals.eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha)
            || (lmr_depth <= FUTILITY_MAX_DEPTH
                && !see_ge(pos, c.m, -SEE_QUIET_MARGIN * lmr_depth));
        if pruned { Pruned::Move } else { Pruned::No }
    }

    /// Makes move `c` and searches the child: extended for a safe check
    /// or the singular move, the first move with the full window, later
    /// ones with a null window, reduced, and searched again when they
    /// surprise.
    fn search_move(
        &mut self,
        node: &Node,
        c: &Candidate,
        searched: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (pos, ply) = (node.pos, node.ply);
        let (child, ckey) = self.make(pos, node.key, c.m, ply);
        // Checks are extended unless they lose material: a check that
        // hangs the checking piece rarely leads anywhere.
        let extension = i32::from(
            ((c.gives_check && (c.order >= COUNTER_ORDER || see_ge(pos, c.m, 0)))
                || (node.singular && c.code == node.tt_move))
                && (ply as i32) < 2 * self.root_depth,
        );
        let new_depth = node.depth - 1 + extension;
        self.stack[ply].played = Some((piece_index(pos.turn(), c.m.role()), c.to));
        self.keys.push(ckey);
        let next = ply + 1;
        let score = if searched == 0 {
            -self.negamax(&child, ckey, new_depth, next, -beta, -alpha, false)
        } else {
            let r = reduction(node, c, new_depth);
            let mut score =
                -self.negamax(&child, ckey, new_depth - r, next, -alpha - 1, -alpha, true);
            if score > alpha && r > 0 {
                let cut = !node.cut_node;
                score = -self.negamax(&child, ckey, new_depth, next, -alpha - 1, -alpha, cut);
            }
            if node.pv_node && score > alpha && score < beta {
                score = -self.negamax(&child, ckey, new_depth, next, -beta, -alpha, false);
            }
            score
        };
        self.keys.pop();
        score
    }

    /// The principal variation at `ply` becomes `m` and the child's.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    /// A move failed high: the histories learn it, and that the moves
    /// tried before it did not.
    fn reward_cutoff(&mut self, node: &Node, c: &Candidate, failed: &Failed) {
        let (pos, depth, ply) = (node.pos, node.depth, node.ply);
        if c.quiet {
            self.update_quiet_stats(pos, c.m, &failed.quiets[..failed.n_quiets], depth, ply);
        }
        let turn = pos.turn() as usize;
        let bonus = history_bonus(depth);
        self.update_capture_history(turn, c.m, bonus);
        for &capture in &failed.captures[..failed.n_captures] {
            self.update_capture_history(turn, capture, -bonus);
        }
    }

    /// What a searched node leaves behind: its table entry (unless it was
    /// a partial search) and, for a quiet result the static evaluation
    /// missed, a step of the evaluation correction.
    fn leave(&mut self, node: &Node, tried: &Tried, alpha: i32, beta: i32) {
        let best = tried.best;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha && tried.best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let evals = node.evals;
        let whole = !node.root || (self.root_exclude.is_empty() && self.root_only.is_empty());
        if node.excluded == 0 && whole {
            self.shared.tt.store(
                node.key,
                tried.best_move.map_or(0, encode_move),
                score_to_tt(best, node.ply),
                if node.in_check { 0 } else { evals.raw },
                node.depth,
                bound,
            );
        }
        let quiet_best = tried
            .best_move
            .is_none_or(|m| !m.is_capture() && !m.is_promotion());
        if !node.in_check
            && node.excluded == 0
            && quiet_best
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= evals.corrected)
            && !(bound == Bound::Upper && best >= evals.corrected)
        {
            let diff = best - evals.raw;
            self.update_correction(node.pos.turn(), evals.pawns, diff, node.depth);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::pos;
    use shakmaty::uci::UciMove;

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>()
            .expect("uci")
            .to_move(p)
            .expect("legal")
    }

    #[test]
    fn a_check_with_one_reply_is_forcing() {
        // The Opera Game after 15...Nxd7: 16.Qb8+ leaves only Nxb8, and
        // 17.Rd8 is mate; 16.Qb5 is no check with a single reply.
        let p = pos("4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16");
        assert!(forcing_check(&p, mv(&p, "b3b8")));
        let after = pos("1n2kb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2KR4 w k - 0 17");
        assert!(forcing_check(&after, mv(&after, "d1d8")));
        let quiet = pos("4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16");
        assert!(!forcing_check(&quiet, mv(&quiet, "b3b5")));
    }

    #[test]
    fn a_mate_in_one_against_the_side_to_move_is_a_threat() {
        // WAC.203 after 1.Qh6: Black to move, White threatens 2.Qxg7#.
        let p = pos("r4rk1/5ppp/p3q1n1/2p2N2/4n3/P3P2Q/1B3PPP/1R3RK1 b - - 1 1");
        assert!(!mate_threat(&p));
        let p = pos("r4rk1/5ppp/p3q1nQ/2p2N2/4n3/P3P3/1B3PPP/1R3RK1 b - - 1 1");
        assert!(mate_threat(&p));
        assert!(!mate_threat(&Chess::default()));
    }
}
