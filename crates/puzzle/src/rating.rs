//! Rating a solve as lichess does: each first rated attempt is one
//! Glicko-2 game (τ 0.75, via `plyyard-rating`), the player as White and
//! the puzzle as Black, the puzzle's rating capped first; then both
//! changes are *pondered* — pulled back towards the old rating — by how
//! much the session's angle hints at the solution.
//!
//! Weights ([`weight`]): `mix` and openings 1; obvious themes (mateIn1,
//! enPassant, attackingF2F7, doubleCheck, castling and every named mate)
//! 0.1 on a win, 0.4 on a loss; non-hinting themes (the phases, endgame
//! types, master, masterVsMaster, superGM) 0.7 / 0.8; other themes
//! 0.2 / 0.7. Against a provisional puzzle (deviation ≥ 110) the player's
//! weight drops by 0.2 (win) or 0.7 (loss), never below 0.1. The puzzle's
//! new rating moves at most [`MAX_RATING_DELTA`] and is not changed at
//! all by a clueless player (deviation ≥ 230) or one the caller flags as
//! dubious. Replays and casual solves are not rated: the caller does not
//! call [`finish`] for them.

use plyyard_rating::{Glicko2, Outcome, update};

use crate::angle::Angle;
use crate::theme::{Group, Theme};

/// The most a puzzle's rating moves in one solve.
pub const MAX_RATING_DELTA: f64 = 700.0;
/// A puzzle (or player) is provisional from this deviation up.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// A player this unsure does not move puzzle ratings.
pub const CLUELESS_DEVIATION: f64 = 230.0;
/// Cap applied to puzzle ratings: lowest rating.
pub const MIN_RATING: f64 = 400.0;
/// Cap applied to puzzle ratings: deviation range.
pub const DEVIATION_RANGE: (f64, f64) = (45.0, 500.0);
/// Cap applied to puzzle ratings: highest volatility.
pub const MAX_VOLATILITY: f64 = 0.1;

/// How far the angle hints at the solution: the share of the Glicko-2
/// change that is kept.
///
/// # Examples
/// ```
/// use plyyard_puzzle::{Angle, Theme, rating::weight};
/// assert_eq!(weight(&Angle::Mix, true), 1.0);
/// assert_eq!(weight(&Angle::Theme(Theme::BackRankMate), true), 0.1);
/// assert_eq!(weight(&Angle::Theme(Theme::Fork), false), 0.7);
/// assert_eq!(weight(&Angle::Theme(Theme::RookEndgame), false), 0.8);
/// ```
pub fn weight(angle: &Angle, win: bool) -> f64 {
    let Some(theme) = angle.theme() else {
        return 1.0;
    };
    let (on_win, on_loss) = if is_obvious(theme) {
        (0.1, 0.4)
    } else if is_hinting(theme) {
        (0.2, 0.7)
    } else {
        (0.7, 0.8)
    };
    if win { on_win } else { on_loss }
}

/// Themes that make the solution very obvious.
pub fn is_obvious(theme: Theme) -> bool {
    matches!(
        theme,
        Theme::MateIn1
            | Theme::EnPassant
            | Theme::AttackingF2F7
            | Theme::DoubleCheck
            | Theme::Castling
    ) || theme.is_named_mate()
}

/// Themes that say something about the solution (all but the phases,
/// endgame types and origins).
pub fn is_hinting(theme: Theme) -> bool {
    !matches!(theme.group(), Group::Phases | Group::Origin)
}

/// Whether a rating is provisional (deviation ≥ 110).
pub fn is_provisional(g: Glicko2) -> bool {
    g.deviation >= PROVISIONAL_DEVIATION
}

/// The puzzle rating's bounds: rating ≥ 400, deviation 45..=500,
/// volatility ≤ 0.1.
#[must_use]
pub fn cap(g: Glicko2) -> Glicko2 {
    Glicko2 {
        rating: g.rating.max(MIN_RATING),
        deviation: g.deviation.clamp(DEVIATION_RANGE.0, DEVIATION_RANGE.1),
        volatility: g.volatility.min(MAX_VOLATILITY),
    }
}

/// Whether a rating is sane enough to store.
pub fn is_sane(g: Glicko2) -> bool {
    (0.0..4000.0).contains(&g.rating)
        && g.rating > 0.0
        && g.deviation > 0.0
        && g.deviation < 1000.0
        && g.volatility > 0.0
        && g.volatility < 0.2
}

/// `from` moved towards `to` by `weight` (0 keeps `from`, 1 gives `to`),
/// each of rating, deviation and volatility.
#[must_use]
pub fn ponder(from: Glicko2, to: Glicko2, weight: f64) -> Glicko2 {
    let w = weight.clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| a * (1.0 - w) + b * w;
    Glicko2 {
        rating: mix(from.rating, to.rating),
        deviation: mix(from.deviation, to.deviation),
        volatility: mix(from.volatility, to.volatility),
    }
}

/// One rated solve, as the caller knows it.
#[derive(Debug, Clone, Copy)]
pub struct Solve<'a> {
    /// The player's puzzle rating now.
    pub player: Glicko2,
    /// The puzzle's rating now.
    pub puzzle: Glicko2,
    /// The session's angle.
    pub angle: &'a Angle,
    /// Solved without a mistake.
    pub win: bool,
    /// The player's ratings are suspect (the caller's anti-abuse check):
    /// the puzzle is then left as it was.
    pub dubious: bool,
}

/// The ratings after a solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Finished {
    /// The player's new rating.
    pub player: Glicko2,
    /// The puzzle's new rating, or `None` to leave it as it was.
    pub puzzle: Option<Glicko2>,
}

/// Rates one first, rated attempt.
pub fn finish(solve: Solve<'_>) -> Finished {
    let outcome = if solve.win {
        Outcome::WhiteWins
    } else {
        Outcome::BlackWins
    };
    let (player_raw, puzzle_raw) = update(solve.player, cap(solve.puzzle), outcome);
    Finished {
        player: ponder(solve.player, player_raw, player_weight(&solve)),
        puzzle: new_puzzle_rating(&solve, puzzle_raw),
    }
}

fn player_weight(solve: &Solve<'_>) -> f64 {
    let base = weight(solve.angle, solve.win);
    let provisional = match (is_provisional(solve.puzzle), solve.win) {
        (false, _) => 0.0,
        (true, true) => -0.2,
        (true, false) => -0.7,
    };
    (base + provisional).max(0.1)
}

fn new_puzzle_rating(solve: &Solve<'_>, raw: Glicko2) -> Option<Glicko2> {
    if solve.dubious || solve.player.deviation >= CLUELESS_DEVIATION {
        return None;
    }
    let old = solve.puzzle;
    let clamped = Glicko2 {
        rating: raw
            .rating
            .clamp(old.rating - MAX_RATING_DELTA, old.rating + MAX_RATING_DELTA),
        ..raw
    };
    let new = ponder(old, cap(clamped), weight(solve.angle, solve.win));
    (new != old && is_sane(new)).then_some(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(rating: f64, deviation: f64) -> Glicko2 {
        Glicko2 {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn solve<'a>(angle: &'a Angle, win: bool, puzzle: Glicko2) -> Solve<'a> {
        Solve {
            player: g(1500.0, 80.0),
            puzzle,
            angle,
            win,
            dubious: false,
        }
    }

    #[test]
    fn weights_by_theme_kind() {
        let w = |t: Theme, win| weight(&Angle::Theme(t), win);
        assert_eq!(
            (w(Theme::MateIn1, true), w(Theme::MateIn1, false)),
            (0.1, 0.4)
        );
        assert_eq!(w(Theme::SmotheredMate, false), 0.4);
        assert_eq!(w(Theme::Castling, true), 0.1);
        assert_eq!((w(Theme::MateIn2, true), w(Theme::Pin, false)), (0.2, 0.7));
        assert_eq!(
            (w(Theme::Middlegame, true), w(Theme::SuperGm, false)),
            (0.7, 0.8)
        );
        assert_eq!(weight(&Angle::Opening("Italian_Game".into()), false), 1.0);
    }

    #[test]
    fn mix_is_a_plain_glicko_game() {
        let angle = Angle::Mix;
        let s = solve(&angle, true, g(1500.0, 80.0));
        let (raw_player, raw_puzzle) = update(s.player, s.puzzle, Outcome::WhiteWins);
        let done = finish(s);
        assert_eq!(done.player, raw_player);
        assert_eq!(done.puzzle, Some(raw_puzzle));
        assert!(done.player.rating > 1500.0 && raw_puzzle.rating < 1500.0);
    }

    #[test]
    fn a_hinting_theme_keeps_a_fifth_of_a_win() {
        let (mix, fork) = (Angle::Mix, Angle::Theme(Theme::Fork));
        let full = finish(solve(&mix, true, g(1500.0, 80.0))).player.rating - 1500.0;
        let part = finish(solve(&fork, true, g(1500.0, 80.0))).player.rating - 1500.0;
        assert!((part - 0.2 * full).abs() < 1e-9, "{part} vs {full}");
    }

    #[test]
    fn a_provisional_puzzle_lowers_the_weight_to_the_floor() {
        let fork = Angle::Theme(Theme::Fork);
        let settled = finish(solve(&fork, true, g(1500.0, 80.0)));
        let provisional = finish(solve(&fork, true, g(1500.0, 200.0)));
        // 0.2 − 0.2 → floor 0.1.
        let raw = update(g(1500.0, 80.0), g(1500.0, 200.0), Outcome::WhiteWins).0;
        let expected = 1500.0 + 0.1 * (raw.rating - 1500.0);
        assert!((provisional.player.rating - expected).abs() < 1e-9);
        assert!(settled.player.rating > 1500.0);
        // A loss with mix against a provisional puzzle: 1 − 0.7 = 0.3.
        let mix = Angle::Mix;
        let lost = finish(solve(&mix, false, g(1500.0, 200.0)));
        let raw = update(g(1500.0, 80.0), g(1500.0, 200.0), Outcome::BlackWins).0;
        assert!((lost.player.rating - (1500.0 + 0.3 * (raw.rating - 1500.0))).abs() < 1e-9);
    }

    #[test]
    fn the_puzzle_moves_at_most_the_max_delta() {
        let mix = Angle::Mix;
        let mut s = solve(&mix, true, g(1000.0, 500.0));
        s.player = g(3000.0, 50.0);
        let before = s.puzzle.rating;
        // The player wins: the puzzle loses rating, within the bound.
        let after = finish(s).puzzle.unwrap();
        assert!(before - after.rating <= MAX_RATING_DELTA + 1e-9);
        s.win = false;
        let after = finish(s).puzzle.unwrap();
        assert!(after.rating - before <= MAX_RATING_DELTA + 1e-9 && after.rating > before);
    }

    #[test]
    fn clueless_or_dubious_players_leave_the_puzzle() {
        let mix = Angle::Mix;
        let mut s = solve(&mix, true, g(1500.0, 80.0));
        s.player = g(1500.0, 300.0);
        assert_eq!(finish(s).puzzle, None);
        s.player = g(1500.0, 80.0);
        s.dubious = true;
        assert_eq!(finish(s).puzzle, None);
    }

    #[test]
    fn cap_bounds_puzzle_ratings() {
        let capped = cap(Glicko2 {
            rating: 250.0,
            deviation: 20.0,
            volatility: 0.3,
        });
        assert_eq!(
            (capped.rating, capped.deviation, capped.volatility),
            (400.0, 45.0, 0.1)
        );
        assert_eq!(cap(g(1500.0, 600.0)).deviation, 500.0);
        assert!(is_sane(g(1500.0, 80.0)) && !is_sane(g(4200.0, 80.0)));
    }
}
