//! Owns the edge between two waiting players: whether they may meet and
//! what pairing them costs.
//!
//! lichess (`AntmaPairing`, `PairingSystem.rankFactorFor`): the cost is
//! `|rankA − rankB| × rankFactor + |ratingA − ratingB|` with
//! `rankFactor = 300 + 1700 × (maxRank − min(rankA, rankB)) / maxRank`
//! (integer arithmetic; 2000 at the top of the group, 300 at its bottom),
//! `maxRank` being the largest rank in the group being matched. A pair is
//! forbidden when one was the other's last opponent (unless only two
//! players are active) or when both have played [`MAX_STREAK`] games in a
//! row with the same colour.
//!
//! [`MAX_STREAK`]: crate::colour_history::MAX_STREAK

use crate::colour_history::ColourHistory;
use std::num::NonZeroU32;

/// The rank factor at the bottom of a group.
pub const RANK_FACTOR_FLOOR: i64 = 300;
/// What the rank factor adds at the top of a group.
pub const RANK_FACTOR_SPAN: i64 = 1700;

/// What the edge weight needs of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeEnd {
    /// Current rank in the standings (1 = leader).
    pub rank: NonZeroU32,
    /// Rating.
    pub rating: u16,
}

/// The rank factor of a pair whose better rank is `best`, in a group whose
/// worst rank is `max_rank`.
pub fn rank_factor(max_rank: NonZeroU32, best: NonZeroU32) -> i64 {
    let max = i64::from(max_rank.get());
    let gap = (max - i64::from(best.get())).max(0);
    RANK_FACTOR_FLOOR + RANK_FACTOR_SPAN * gap / max
}

/// The cost of pairing `a` with `b` in a group whose worst rank is
/// `max_rank`.
pub fn edge_cost(max_rank: NonZeroU32, a: EdgeEnd, b: EdgeEnd) -> i64 {
    let rank_gap = i64::from(a.rank.get().abs_diff(b.rank.get()));
    let rating_gap = i64::from(a.rating.abs_diff(b.rating));
    let factor = rank_factor(max_rank, a.rank.min(b.rank));
    rank_gap.saturating_mul(factor).saturating_add(rating_gap)
}

/// Whether two players may meet: not if they just played each other
/// (`rematch`, which the caller lifts when only two players are active) nor
/// if both have a colour streak of three of one colour.
pub fn allowed(rematch: bool, a: ColourHistory, b: ColourHistory) -> bool {
    !rematch && a.could_play(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nz(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).unwrap()
    }

    fn end(rank: u32, rating: u16) -> EdgeEnd {
        EdgeEnd {
            rank: nz(rank),
            rating,
        }
    }

    #[test]
    fn factor_runs_from_2000_at_the_top_to_300_at_the_bottom() {
        assert_eq!(rank_factor(nz(100), nz(1)), 300 + 1700 * 99 / 100);
        assert_eq!(rank_factor(nz(100), nz(100)), 300);
        assert_eq!(rank_factor(nz(1000), nz(1)), 1998);
    }

    #[test]
    fn cost_is_rank_gap_times_factor_plus_rating_gap() {
        // max 10, best 2: 300 + 1700*8/10 = 1660; gap 3 → 4980; ratings 120.
        assert_eq!(edge_cost(nz(10), end(2, 1500), end(5, 1620)), 4980 + 120);
        assert_eq!(edge_cost(nz(10), end(5, 1620), end(2, 1500)), 4980 + 120);
    }

    #[test]
    fn top_pairs_cost_more_per_rank() {
        let top = edge_cost(nz(300), end(1, 1500), end(5, 1500));
        let bottom = edge_cost(nz(300), end(290, 1500), end(294, 1500));
        assert!(top > bottom * 5, "{top} {bottom}");
    }
}
