//! Moves as the search handles them: their compact codes and table
//! indices, whether one gives check, making one (the child's key and
//! network accumulator alongside), and the static evaluation of the
//! position at a ply.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Position, Role, attacks};

use super::worker::{Worker, key_of};

/// Compact 16-bit form of a move for the transposition table:
/// from | to << 6 | promotion << 12 (castling is king square to rook square).
pub fn encode_move(m: Move) -> u16 {
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => from as u16 | (to as u16) << 6 | (promotion.map_or(0, |r| r as u16)) << 12,
        Move::EnPassant { from, to } => from as u16 | (to as u16) << 6,
        Move::Castle { king, rook } => king as u16 | (rook as u16) << 6,
        Move::Put { .. } => 0,
    }
}

/// Origin and destination squares as indices (castling: king and rook).
#[inline]
pub(super) fn from_to(m: Move) -> (usize, usize) {
    match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
            (from as usize, to as usize)
        }
        Move::Castle { king, rook } => (king as usize, rook as usize),
        Move::Put { to, .. } => (to as usize, to as usize),
    }
}

/// Index of a piece in the history tables (0..12).
#[inline]
pub(super) fn piece_index(color: Color, role: Role) -> usize {
    piece_slot(color as usize, role)
}

/// [`piece_index`] from a colour already converted to an index.
#[inline]
pub(super) fn piece_slot(turn: usize, role: Role) -> usize {
    turn * 6 + role as usize - 1
}

/// Whether playing the legal move `m` gives check, found from attacks
/// without making the move (castling and en passant are made). Inlined
/// into its one caller, the move loop, where it runs for every move.
#[inline(always)]
pub(super) fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = board.occupied().without(from).with(to);
    let direct = match promotion.unwrap_or(role) {
        Role::Pawn => attacks::pawn_attacks(us, to).contains(king),
        Role::Knight => attacks::knight_attacks(to).contains(king),
        Role::Bishop => attacks::bishop_attacks(to, occupied).contains(king),
        Role::Rook => attacks::rook_attacks(to, occupied).contains(king),
        Role::Queen => attacks::queen_attacks(to, occupied).contains(king),
        Role::King => false,
    };
    if direct {
        return true;
    }
    if !attacks::queen_attacks(king, Bitboard::EMPTY).contains(from) {
        return false;
    }
    let ours = board.by_color(us).without(from);
    (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens() & ours).any()
        || (attacks::rook_attacks(king, occupied) & board.rooks_and_queens() & ours).any()
}

impl Worker<'_> {
    /// Plays `m`, returning the child and its key; the key is known before
    /// the move is made, so the table slot is already being fetched.
    /// With a network, the child's accumulator (at `ply + 1`) is made too.
    #[inline]
    pub(super) fn make(&mut self, pos: &Chess, key: u64, m: Move, ply: usize) -> (Chess, u64) {
        let quick = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
        if let Some(k) = quick {
            self.shared.tt.prefetch(k.0);
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        let ckey = quick.map_or_else(|| key_of(&child), |k| k.0);
        if let Some(net) = self.net {
            let len = net.acc_len();
            let (lo, hi) = self.acc.split_at_mut((ply + 1) * len);
            net.update(pos.board(), child.board(), &lo[ply * len..], &mut hi[..len]);
        }
        (child, ckey)
    }

    /// Static evaluation of `pos`, the position at `ply`.
    #[inline]
    pub(super) fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        match self.net {
            Some(net) => {
                let len = net.acc_len();
                net.output(&self.acc[ply * len..][..len], pos.board(), pos.turn())
            }
            None => self.shared.eval.evaluate(pos),
        }
    }

    /// The null move keeps the board, so its accumulator is the parent's.
    #[inline]
    pub(super) fn copy_acc(&mut self, ply: usize) {
        if let Some(net) = self.net {
            let len = net.acc_len();
            self.acc
                .copy_within(ply * len..(ply + 1) * len, (ply + 1) * len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let mut checked = 0;
        crate::testutil::random_walk(200, 120, 7, |pos| {
            for &m in &pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(pos, m), child.is_check(), "{m} in {pos:?}");
                checked += usize::from(child.is_check());
            }
        });
        assert!(checked > 1000, "only {checked} checking moves seen");
    }

    #[test]
    fn move_codes_are_unique() {
        let pos: Chess = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("pos");
        let codes: std::collections::HashSet<u16> =
            pos.legal_moves().iter().map(|m| encode_move(*m)).collect();
        assert_eq!(codes.len(), pos.legal_moves().len());
    }
}
