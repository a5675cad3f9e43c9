//! Move ordering: the order score of every move of a node (table move,
//! good captures, killers, counter move, quiet moves by history and
//! threats, bad captures) and the selection of the next best one.

use shakmaty::{Bitboard, Chess, Move, MoveList, Position, Role, attacks};

use super::make::{encode_move, from_to};
use super::tunables::{CAPTURE_HISTORY_DIVISOR, COUNTER_ORDER, ESCAPE_BONUS};
use super::worker::Worker;
use crate::eval::pawn_attacks_bb;
use crate::see::{see_ge, value};

/// Selection step of move ordering: brings the best-scored of
/// `moves[i..]` to index `i` (ties keep the earlier move).
#[inline]
pub(super) fn pick_best(moves: &mut MoveList, scores: &mut [i32], i: usize) {
    let mut best = i;
    let mut top = scores[i];
    for (j, &s) in scores[..moves.len()].iter().enumerate().skip(i + 1) {
        if s > top {
            best = j;
            top = s;
        }
    }
    scores.swap(i, best);
    moves.swap(i, best);
}

/// Squares where each kind of our piece can be taken by a cheaper enemy
/// piece: a quiet move that takes a piece out of such an attack is tried
/// earlier, one that walks into one later.
struct Threats {
    /// Attacked by enemy pawns (threatens knights and bishops).
    by_pawn: Bitboard,
    /// ... or by enemy knights and bishops (threatens rooks).
    by_minor: Bitboard,
    /// ... or by enemy rooks (threatens queens).
    by_rook: Bitboard,
}

impl Threats {
    fn of(pos: &Chess) -> Threats {
        let b = pos.board();
        let them = pos.them();
        let occupied = b.occupied();
        let by_pawn = pawn_attacks_bb(!pos.turn(), b.pawns() & them);
        let mut by_minor = by_pawn;
        for sq in b.knights() & them {
            by_minor |= attacks::knight_attacks(sq);
        }
        for sq in b.bishops() & them {
            by_minor |= attacks::bishop_attacks(sq, occupied);
        }
        let mut by_rook = by_minor;
        for sq in b.rooks() & them {
            by_rook |= attacks::rook_attacks(sq, occupied);
        }
        Threats {
            by_pawn,
            by_minor,
            by_rook,
        }
    }

    /// Ordering adjustment of a quiet move.
    #[inline]
    fn order_bonus(&self, m: Move) -> i32 {
        let zone = match m.role() {
            Role::Knight | Role::Bishop => self.by_pawn,
            Role::Rook => self.by_minor,
            Role::Queen => self.by_rook,
            Role::Pawn | Role::King => return 0,
        };
        let (Some(from), to) = (m.from(), m.to()) else {
            return 0;
        };
        ESCAPE_BONUS * (i32::from(zone.contains(from)) - i32::from(zone.contains(to)))
    }
}

impl Worker<'_> {
    /// Order scores of `moves` in `pos` at `ply`, highest first to search.
    pub(super) fn score_moves(
        &self,
        pos: &Chess,
        moves: &MoveList,
        scores: &mut [i32; 256],
        tt_move: u16,
        ply: usize,
    ) {
        let turn = pos.turn() as usize;
        let counter = if ply > 0 {
            self.stack[ply - 1]
                .played
                .map_or(0, |(p, to)| self.h.counter[p][to])
        } else {
            0
        };
        let killers = self.killers[ply];
        let threats = Threats::of(pos);
        let rows = self.cont_rows(ply);
        for (i, &m) in moves.iter().enumerate() {
            let code = encode_move(m);
            scores[i] = if code == tt_move {
                1_000_000_000
            } else if m.is_capture() || m.promotion() == Some(Role::Queen) {
                let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
                let mvv = victim * 16 - value(m.role()) / 16
                    + self.capture_score(turn, m) / CAPTURE_HISTORY_DIVISOR;
                if see_ge(pos, m, 0) {
                    500_000_000 + mvv
                } else {
                    -500_000_000 + mvv
                }
            } else if m.is_promotion() {
                -600_000_000
            } else if code == killers[0] {
                400_000_000
            } else if code == killers[1] {
                399_000_000
            } else if code == counter {
                COUNTER_ORDER
            } else {
                let (f, t) = from_to(m);
                self.h.history[turn][f][t]
                    + self.cont_history(&rows, m, turn)
                    + threats.order_bonus(m)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::pos;
    use shakmaty::uci::UciMove;

    #[test]
    fn escaping_a_cheaper_attacker_is_ordered_first() {
        // The knight on e4 and a bishop landing on c4 are hit by the d5 pawn;
        // the rook on a3 is hit by the knight on b5.
        let p = pos("4k3/8/8/1n1p4/4N3/R7/8/4KB2 w - - 0 1");
        let threats = Threats::of(&p);
        let bonus = |uci: &str| {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&p)
                .expect("legal");
            threats.order_bonus(m)
        };
        assert_eq!(bonus("e4c3"), ESCAPE_BONUS);
        assert_eq!(bonus("f1c4"), -ESCAPE_BONUS);
        assert_eq!(bonus("f1d3"), 0);
        assert_eq!(bonus("a3h3"), ESCAPE_BONUS);
        assert_eq!(bonus("e1d2"), 0);
    }
}
