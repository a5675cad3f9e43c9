//! An account's verdicts weighed together: faster games and games with
//! highly consistent move times weigh more; the account is flagged for the
//! moderators when its weighted cheating games (or cheating and likely
//! cheating games together) are both many and a large enough share of its
//! rated games.

use plyyard_game::Speed;
use serde::Serialize;

use super::verdict::Verdict;

/// An account with fewer rated games is never flagged.
pub const MIN_RATED_GAMES: u32 = 3;

/// Weighted cheating games an account needs to be flagged…
const MIN_CHEATING: f64 = 3.0;
/// … or weighted cheating and likely cheating games together.
const MIN_CHEATING_OR_LIKELY: f64 = 6.0;
/// The share of rated games (%) its weighted cheating games reach…
const CHEATING_SHARE: f64 = 8.0;
/// … or its cheating and likely cheating games together.
const CHEATING_OR_LIKELY_SHARE: f64 = 16.0;

/// One assessed side of a game, as the account's summary weighs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assessed {
    /// The verdict.
    pub verdict: Verdict,
    /// The game's speed.
    pub speed: Option<Speed>,
    /// Whether the move times were highly consistent.
    pub flat_times: bool,
}

/// What an account's assessed games add up to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Whether the moderators should look at the account.
    pub flagged: bool,
    /// The account's rated games.
    pub rated_games: u32,
    /// Its games with a verdict.
    pub assessed: u32,
    /// Those judged cheating.
    pub cheating: u32,
    /// Those judged likely cheating.
    pub likely_cheating: u32,
    /// The cheating games, weighted.
    pub weighted_cheating: f64,
    /// The likely cheating games, weighted.
    pub weighted_likely_cheating: f64,
}

/// How much one assessed game weighs: bullet and blitz 1.25, rapid 1,
/// classical 0.6, and 1.6 times that with highly consistent move times.
pub fn weight(a: &Assessed) -> f64 {
    let speed = match a.speed {
        Some(Speed::Bullet | Speed::Blitz) => 1.25,
        Some(Speed::Classical) => 0.6,
        _ => 1.0,
    };
    if a.flat_times { speed * 1.6 } else { speed }
}

/// The summary of an account with `rated_games` rated games, of which
/// `games` were assessed.
pub fn summarise(rated_games: u32, games: &[Assessed]) -> Summary {
    let count = |v: Verdict| games.iter().filter(|a| a.verdict == v).count() as u32;
    let weighed = |v: Verdict| {
        games
            .iter()
            .filter(|a| a.verdict == v)
            .map(weight)
            .fold(0.0, |sum, w| sum + w)
    };
    let (wc, wl) = (weighed(Verdict::Cheating), weighed(Verdict::LikelyCheating));
    let rated = rated_games.max(games.len() as u32);
    let share = |x: f64| {
        if rated == 0 {
            0.0
        } else {
            x * 100.0 / f64::from(rated)
        }
    };
    let flagged = rated >= MIN_RATED_GAMES
        && (wc >= MIN_CHEATING || wc + wl >= MIN_CHEATING_OR_LIKELY)
        && (share(wc) >= CHEATING_SHARE || share(wc + wl) >= CHEATING_OR_LIKELY_SHARE);
    Summary {
        flagged,
        rated_games: rated,
        assessed: games.len() as u32,
        cheating: count(Verdict::Cheating),
        likely_cheating: count(Verdict::LikelyCheating),
        weighted_cheating: wc,
        weighted_likely_cheating: wl,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(verdict: Verdict, flat_times: bool) -> Assessed {
        Assessed {
            verdict,
            speed: Some(Speed::Blitz),
            flat_times,
        }
    }

    #[test]
    fn two_flat_blitz_cheating_games_of_three_flag() {
        let games = [
            game(Verdict::Cheating, true),
            game(Verdict::Cheating, true),
            game(Verdict::NotCheating, false),
        ];
        let s = summarise(3, &games);
        assert!(s.flagged, "{s:?}");
        assert_eq!((s.cheating, s.assessed), (2, 3));
        assert!((s.weighted_cheating - 4.0).abs() < 1e-9);
    }

    #[test]
    fn too_few_games_or_too_small_a_share_do_not_flag() {
        let games = [game(Verdict::Cheating, true), game(Verdict::Cheating, true)];
        assert!(!summarise(2, &games).flagged, "two games are too few");
        assert!(summarise(40, &games).flagged, "4 of 40 is 10 %");
        assert!(!summarise(60, &games).flagged, "4 of 60 is under 8 %");
    }

    #[test]
    fn likely_cheating_counts_with_cheating() {
        let mut games = vec![game(Verdict::LikelyCheating, false); 4];
        assert!(!summarise(10, &games).flagged, "5 weighted: under 6");
        games.push(game(Verdict::Cheating, false));
        let s = summarise(30, &games);
        assert!(s.flagged, "{s:?}");
        assert!(!summarise(50, &games).flagged, "7.5 of 50 is under 16 %");
    }

    #[test]
    fn honest_games_never_flag() {
        let games = vec![game(Verdict::Unclear, true); 20];
        assert!(!summarise(20, &games).flagged);
    }

    #[test]
    fn the_weights() {
        let mut a = game(Verdict::Cheating, false);
        assert_eq!(weight(&a), 1.25);
        a.speed = Some(Speed::Classical);
        assert_eq!(weight(&a), 0.6);
        a.flat_times = true;
        assert!((weight(&a) - 0.96).abs() < 1e-9);
    }
}
