//! Static evaluation correction: how far searches have found the static
//! evaluation off, by side to move and pawn structure, added to it before
//! pruning decisions use it.

use shakmaty::{Chess, Color, Position};

use super::score::MATE_BOUND;
use super::tunables::{CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_SIZE};
use super::worker::Worker;

/// A correction entry moved toward `diff` centipawns (clamped to
/// [`CORRECTION_MAX`]) by a search of `depth`: a running average whose
/// weight grows with depth.
#[inline]
fn correction_step(entry: i32, diff: i32, depth: i32) -> i32 {
    let weight = (depth + 1).min(16);
    let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
    entry + (target - entry) * weight / 256
}

/// Slot of the position's pawn structure in the correction table.
#[inline]
pub(super) fn pawn_slot(pos: &Chess) -> usize {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    let mut z =
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    z ^= z >> 31;
    z = z.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (z >> 50) as usize % CORRECTION_SIZE
}

impl Worker<'_> {
    /// The static evaluation `raw` adjusted by what searches learnt about
    /// the pawn structure in slot `pawns` ([`pawn_slot`]).
    #[inline]
    pub(super) fn corrected(&self, turn: Color, pawns: usize, raw: i32) -> i32 {
        let c = self.h.correction[turn as usize][pawns] / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of the pawn structure in slot `pawns` toward
    /// `diff` (search result minus raw static evaluation), more for deeper
    /// searches.
    pub(super) fn update_correction(&mut self, turn: Color, pawns: usize, diff: i32, depth: i32) {
        let slot = &mut self.h.correction[turn as usize][pawns];
        *slot = correction_step(*slot, diff, depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::pos;

    #[test]
    fn pawn_slot_depends_on_the_pawns_only() {
        let a = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = pos("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2 3");
        let c = pos("rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2");
        assert_eq!(pawn_slot(&a), pawn_slot(&b));
        assert_ne!(pawn_slot(&a), pawn_slot(&c));
    }

    #[test]
    fn correction_converges_to_the_clamped_difference() {
        let mut entry = 0;
        for _ in 0..400 {
            entry = correction_step(entry, 30, 10);
        }
        assert!((entry / CORRECTION_GRAIN - 30).abs() <= 1, "{entry}");
        for _ in 0..400 {
            entry = correction_step(entry, -5000, 20);
            assert!(entry >= -CORRECTION_MAX * CORRECTION_GRAIN);
        }
        assert!(entry / CORRECTION_GRAIN <= -CORRECTION_MAX + 1, "{entry}");
        assert!(correction_step(0, 40, 1).abs() < correction_step(0, 40, 12).abs());
    }
}
