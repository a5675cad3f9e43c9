//! What a search thread learns about move order from one node to the
//! next: the butterfly history, continuation history, capture history,
//! counter moves and killers (the tables are [`super::Heuristics`]), how the
//! search reads them and how a cutoff updates them.

use shakmaty::{Chess, Move, Position};

use super::make::{encode_move, from_to, piece_slot};
use super::tunables::HISTORY_MAX;
use super::worker::Worker;

/// Plies back whose moves index the continuation history.
const CONT_PLIES: [usize; 3] = [1, 2, 4];

/// Where a node's continuation-history rows start in the table, one per
/// entry of [`CONT_PLIES`] (`None` where no move was played that far back).
/// They stay the same for the whole node, so they are looked up once.
pub(super) type ContRows = [Option<usize>; 3];

/// History reward for the move that cut at `depth` (and penalty for the
/// moves tried before it).
#[inline]
pub(super) fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(1600)
}

/// Index into a continuation history table.
#[inline]
fn cont_index(prev: (usize, usize), piece: usize, to: usize) -> usize {
    ((prev.0 * 64 + prev.1) * 12 + piece) * 64 + to
}

/// Where quiet move `m` of side `turn` sits within a continuation-history
/// row ([`ContRows`]).
#[inline(always)]
fn cont_offset(turn: usize, m: Move) -> usize {
    cont_index((0, 0), piece_slot(turn, m.role()), from_to(m).1)
}

/// A saturating history entry moved toward `bonus`'s sign.
#[inline]
fn nudged(v: i32, bonus: i32) -> i16 {
    (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16
}

impl Worker<'_> {
    /// Capture history of a move (zero for a non-capture).
    #[inline]
    pub(super) fn capture_score(&self, turn: usize, m: Move) -> i32 {
        match m.capture() {
            Some(victim) => {
                let (_, t) = from_to(m);
                i32::from(
                    self.h.capture_history[piece_slot(turn, m.role())][t][victim as usize - 1],
                )
            }
            None => 0,
        }
    }

    /// Moves the capture history of `m` toward `bonus`'s sign.
    pub(super) fn update_capture_history(&mut self, turn: usize, m: Move, bonus: i32) {
        if let Some(victim) = m.capture() {
            let (_, t) = from_to(m);
            let c = &mut self.h.capture_history[piece_slot(turn, m.role())][t][victim as usize - 1];
            *c = nudged(i32::from(*c), bonus);
        }
    }

    /// Continuation history of a quiet move in a node with `rows`.
    #[inline(always)]
    pub(super) fn cont_history(&self, rows: &ContRows, m: Move, turn: usize) -> i32 {
        let offset = cont_offset(turn, m);
        let at = |row: Option<usize>| row.map_or(0, |r| i32::from(self.h.cont[r + offset]));
        at(rows[0]) + at(rows[1]) + at(rows[2])
    }

    /// The continuation-history rows of the node at `ply`.
    #[inline]
    pub(super) fn cont_rows(&self, ply: usize) -> ContRows {
        let row = |back: usize| {
            let prev = if ply >= back {
                self.stack[ply - back].played
            } else {
                None
            };
            prev.map(|prev| cont_index(prev, 0, 0))
        };
        [row(CONT_PLIES[0]), row(CONT_PLIES[1]), row(CONT_PLIES[2])]
    }

    /// After quiet move `best` cut at `depth`: it becomes a killer and the
    /// counter to the previous move, and its history rises while that of
    /// the quiet moves tried before it falls.
    pub(super) fn update_quiet_stats(
        &mut self,
        pos: &Chess,
        best: Move,
        quiets: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let turn = pos.turn() as usize;
        let bonus = history_bonus(depth);
        let code = encode_move(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if ply > 0
            && let Some((p, to)) = self.stack[ply - 1].played
        {
            self.h.counter[p][to] = code;
        }
        self.update_history(turn, best, bonus, ply);
        for &q in quiets {
            self.update_history(turn, q, -bonus, ply);
        }
    }

    /// Moves the history entries of one quiet move toward `bonus`'s sign,
    /// saturating at [`HISTORY_MAX`].
    fn update_history(&mut self, turn: usize, m: Move, bonus: i32, ply: usize) {
        let (f, t) = from_to(m);
        let h = &mut self.h.history[turn][f][t];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        let offset = cont_offset(turn, m);
        for row in self.cont_rows(ply).into_iter().flatten() {
            let c = &mut self.h.cont[row + offset];
            *c = nudged(i32::from(*c), bonus);
        }
    }
}
