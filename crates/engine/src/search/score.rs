//! Scores inside the search: how deep it may go ([`MAX_PLY`]), mate
//! scores counted in plies from the root, their form in the transposition
//! table, and the [`Score`] a search reports.

use crate::score::Score;
use crate::tt::{Bound, Entry};

/// Deepest ply the search ever reaches.
pub const MAX_PLY: usize = 120;
/// Score of being checkmated now (negated: giving mate now).
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Larger than any score.
pub const INF: i32 = MATE + 1;

/// Converts an internal score to a UCI-style score.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

/// A score as the table stores it: mates counted from the stored node.
pub(super) fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// A stored score as seen from `ply`: mates counted from the root again.
pub(super) fn score_from_tt(v: i32, ply: usize) -> i32 {
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
pub(super) fn tt_cutoff(e: Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
        assert_eq!(to_score(35), Score::Cp(35));
        for v in [MATE - 7, -MATE + 9, 120] {
            assert_eq!(score_from_tt(score_to_tt(v, 5), 5), v);
        }
    }
}
