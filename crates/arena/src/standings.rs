//! Owns the standings: the order of an Arena's players and their ranks.
//!
//! lichess orders by `score × 10000 + (performance, or rating before the
//! first game)`. Ply Yard orders by score, then that same tie value, then
//! rating, then the player's id, so that every player has its own rank
//! (1, 2, 3, … with no shared places) and equal records always come out in
//! the same order.

use crate::game::ArenaGame;
use crate::performance::performance;
use crate::sheet::Sheet;
use serde::Serialize;
use std::cmp::Reverse;

/// One player's record, as the standings need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<I> {
    /// The player.
    pub id: I,
    /// Points from the sheet.
    pub score: u32,
    /// Performance rating, `None` before the first game.
    pub performance: Option<u16>,
    /// Rating when the player joined (or now).
    pub rating: u16,
}

/// A player's place in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing<I> {
    /// 1 for the leader.
    pub rank: u32,
    /// The player.
    pub id: I,
    /// Points.
    pub score: u32,
    /// The value that breaks a tie on score: performance, or rating before
    /// the first game.
    pub tie_break: u16,
}

impl<I> Record<I> {
    /// The record of a player with `games` (oldest first) in an Arena that
    /// is `streakable` or not.
    pub fn of_games(id: I, rating: u16, games: &[ArenaGame], streakable: bool) -> Record<I> {
        Record {
            id,
            score: Sheet::build(games, streakable).total(),
            performance: performance(games),
            rating,
        }
    }

    /// The second key of the order: performance, else rating.
    pub fn tie_break(&self) -> u16 {
        self.performance.unwrap_or(self.rating)
    }
}

/// The standings of `records`, leader first.
pub fn standings<I: Ord + Clone>(records: &[Record<I>]) -> Vec<Standing<I>> {
    let mut order: Vec<&Record<I>> = records.iter().collect();
    order.sort_by_key(|r| {
        (
            Reverse(r.score),
            Reverse(r.tie_break()),
            Reverse(r.rating),
            &r.id,
        )
    });
    (1u32..)
        .zip(order)
        .map(|(rank, r)| Standing {
            rank,
            id: r.id.clone(),
            score: r.score,
            tie_break: r.tie_break(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(
        id: &'static str,
        score: u32,
        performance: Option<u16>,
        rating: u16,
    ) -> Record<&'static str> {
        Record {
            id,
            score,
            performance,
            rating,
        }
    }

    #[test]
    fn score_then_performance_then_rating_then_id() {
        let records = [
            r("e", 10, Some(1800), 1500),
            r("a", 12, Some(1500), 1500),
            r("d", 10, Some(1900), 1400),
            r("c", 10, Some(1800), 1600),
            r("b", 10, Some(1800), 1600),
            r("f", 0, None, 2000),
            r("g", 0, Some(1000), 2100),
        ];
        let ids: Vec<_> = standings(&records)
            .into_iter()
            .map(|s| (s.rank, s.id))
            .collect();
        assert_eq!(
            ids,
            [
                (1, "a"),
                (2, "d"),
                (3, "b"),
                (4, "c"),
                (5, "e"),
                (6, "f"),
                (7, "g")
            ]
        );
    }

    #[test]
    fn a_record_sums_the_sheet_and_takes_the_performance() {
        use crate::colour::Colour;
        use crate::game::Outcome;
        let g = |outcome| ArenaGame {
            outcome,
            plies: 40,
            berserk: false,
            colour: Colour::Black,
            opponent_rating: 1600,
        };
        let games = [g(Outcome::Win), g(Outcome::Win), g(Outcome::Draw)];
        let rec = Record::of_games("p", 1500, &games, true);
        assert_eq!((rec.score, rec.performance), (6, Some(1933)));
        let fresh = Record::of_games("q", 1700, &[], true);
        assert_eq!((fresh.score, fresh.tie_break()), (0, 1700));
    }

    #[test]
    fn order_does_not_depend_on_input_order() {
        let mut records = vec![
            r("x", 4, Some(1500), 1500),
            r("y", 4, Some(1500), 1500),
            r("z", 4, Some(1500), 1500),
        ];
        let first = standings(&records);
        records.reverse();
        assert_eq!(standings(&records), first);
    }
}
