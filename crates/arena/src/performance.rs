//! Owns the performance rating of one player in one Arena, lichess's
//! tie-break: the mean over the player's games of the opponent's rating,
//! plus 500 for a win, minus 500 for a loss (a forfeit counts as a loss),
//! unchanged for a draw.

use crate::game::{ArenaGame, Outcome};

/// Rating points added for a win and taken for a loss.
pub const PERFORMANCE_SPREAD: i32 = 500;

/// The performance over `games`, rounded to the nearest integer (and
/// never below zero); `None` before the first game.
pub fn performance<'a>(games: impl IntoIterator<Item = &'a ArenaGame>) -> Option<u16> {
    let (sum, n) = games.into_iter().fold((0i64, 0i64), |(sum, n), g| {
        (sum + i64::from(game_value(g)), n + 1)
    });
    if n == 0 {
        return None;
    }
    let mean = (2 * sum + n).div_euclid(2 * n);
    Some(u16::try_from(mean.max(0)).unwrap_or(u16::MAX))
}

fn game_value(game: &ArenaGame) -> i32 {
    let rating = i32::from(game.opponent_rating);
    match game.outcome {
        Outcome::Win => rating + PERFORMANCE_SPREAD,
        Outcome::Draw => rating,
        Outcome::Loss | Outcome::Forfeit => rating - PERFORMANCE_SPREAD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colour::Colour;

    fn g(outcome: Outcome, opponent_rating: u16) -> ArenaGame {
        ArenaGame {
            outcome,
            plies: 40,
            berserk: false,
            colour: Colour::White,
            opponent_rating,
        }
    }

    #[test]
    fn mean_of_opponents_plus_or_minus_500() {
        assert_eq!(performance(&[]), None);
        assert_eq!(performance(&[g(Outcome::Win, 1500)]), Some(2000));
        assert_eq!(performance(&[g(Outcome::Draw, 1500)]), Some(1500));
        let games = [
            g(Outcome::Win, 1600),
            g(Outcome::Loss, 1800),
            g(Outcome::Forfeit, 1401),
        ];
        // (2100 + 1300 + 901) / 3 = 1433.67
        assert_eq!(performance(&games), Some(1434));
    }

    #[test]
    fn never_below_zero() {
        assert_eq!(performance(&[g(Outcome::Loss, 100)]), Some(0));
    }
}
