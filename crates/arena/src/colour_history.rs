//! Owns [`ColourHistory`]: a player's current colour streak and colour
//! balance in one Arena, which forbid a fourth game in a row with the same
//! colour and decide who gets white.
//!
//! lichess (`ColorHistory`): the streak is signed (positive for white games
//! in a row, negative for black); the balance is whites minus blacks. Two
//! players who both have a streak of [`MAX_STREAK`] of the same colour may
//! not meet; otherwise white goes to the lower `(streak, balance)`, at
//! random on a tie.

use crate::colour::Colour;
use rand::Rng;
use serde::Serialize;

/// Games in a row with one colour after which two such players may not be
/// paired together (so no one gets a fourth in a row).
pub const MAX_STREAK: i32 = 3;

/// A player's colours so far in this Arena.
/// Built only from colours played, so streak and balance always agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ColourHistory {
    /// Games in a row with the same colour: positive for white, negative
    /// for black, zero before the first game.
    streak: i32,
    /// White games minus black games.
    balance: i32,
}

impl ColourHistory {
    /// The history of a player who has not played yet.
    pub const EMPTY: ColourHistory = ColourHistory {
        streak: 0,
        balance: 0,
    };

    /// The history of the colours played, oldest first.
    pub fn from_colours(colours: impl IntoIterator<Item = Colour>) -> ColourHistory {
        colours
            .into_iter()
            .fold(ColourHistory::EMPTY, ColourHistory::then)
    }

    /// The history once one more game with `colour` is played.
    pub fn then(self, colour: Colour) -> ColourHistory {
        match colour {
            Colour::White => ColourHistory {
                streak: self.streak.max(0) + 1,
                balance: self.balance + 1,
            },
            Colour::Black => ColourHistory {
                streak: self.streak.min(0) - 1,
                balance: self.balance - 1,
            },
        }
    }

    /// Games in a row with the same colour (positive white, negative black).
    pub const fn streak(self) -> i32 {
        self.streak
    }

    /// White games minus black games.
    pub const fn balance(self) -> i32 {
        self.balance
    }

    /// Whether these two players may meet: not if both have played
    /// [`MAX_STREAK`] games in a row with the same colour.
    pub fn could_play(self, other: ColourHistory) -> bool {
        let both_white = self.streak >= MAX_STREAK && other.streak >= MAX_STREAK;
        let both_black = self.streak <= -MAX_STREAK && other.streak <= -MAX_STREAK;
        !both_white && !both_black
    }

    /// The colour this player gets against `other`: white to the lower
    /// `(streak, balance)`, a coin toss from `rng` on a tie.
    pub fn colour_against<R: Rng + ?Sized>(self, other: ColourHistory, rng: &mut R) -> Colour {
        let mine = (self.streak, self.balance);
        let theirs = (other.streak, other.balance);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => Colour::White,
            std::cmp::Ordering::Greater => Colour::Black,
            std::cmp::Ordering::Equal if rng.random_bool(0.5) => Colour::White,
            std::cmp::Ordering::Equal => Colour::Black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn h(cs: &[Colour]) -> ColourHistory {
        ColourHistory::from_colours(cs.iter().copied())
    }

    #[test]
    fn streak_and_balance() {
        assert_eq!((h(&[W, W, W]).streak(), h(&[W, W, W]).balance()), (3, 3));
        assert_eq!(
            (h(&[W, W, W, B]).streak(), h(&[W, W, W, B]).balance()),
            (-1, 2)
        );
        assert_eq!(
            (h(&[B, B, B, W]).streak(), h(&[B, B, B, W]).balance()),
            (1, -2)
        );
        assert_eq!(h(&[W, W, W, B, B, B]).streak(), -3);
        assert_eq!(h(&[W, W, W, B, B, B]).balance(), 0);
    }

    #[test]
    fn two_threes_of_one_colour_may_not_meet() {
        assert!(!h(&[W, W, W]).could_play(h(&[B, W, W, W])));
        assert!(!h(&[B, B, B]).could_play(h(&[B, B, B])));
        assert!(h(&[W, W, W]).could_play(h(&[B, B, B])));
        assert!(h(&[W, W]).could_play(h(&[W, W])));
        assert!(h(&[W, W, W]).could_play(h(&[W, W])));
    }

    #[test]
    fn lower_history_gets_white_and_ties_are_random() {
        let mut rng = StdRng::seed_from_u64(7);
        assert_eq!(h(&[W, W]).colour_against(h(&[W]), &mut rng), B);
        assert_eq!(h(&[B]).colour_against(h(&[W]), &mut rng), W);
        let whites = (0..200)
            .filter(|_| ColourHistory::EMPTY.colour_against(ColourHistory::EMPTY, &mut rng) == W)
            .count();
        assert!((60..140).contains(&whites), "{whites}");
    }
}
