//! Ply Yard's ratings: Glicko-2 per player and per speed (bullet, blitz, rapid,
//! classical), computed with the `skillratings` crate.
//!
//! This crate is pure: no clock, no database. It owns the constants of the
//! rating system, the update after one game, the widening of the deviation
//! while a player does not play, display rounding, the provisional rule, and
//! the JSON shape of a rating. Storage is in the server's
//! `store/ratings.rs`.
//!
//! Following lichess's practice, **one game is one rating period**: after
//! each rated game both players are updated at once, each from the rating
//! the other had before the game (steps 1–8 of Glickman's paper with a
//! single result). τ is 0.75, lichess's value: with single-game periods a
//! larger τ than the paper's 0.5 lets the volatility follow real changes of
//! form. New players start at 1500, deviation 350, volatility 0.06 (the
//! paper's defaults); a rating is *provisional* until its player has
//! finished [`PROVISIONAL_GAMES`] rated games at that speed.
//!
//! Between games the deviation grows as in step 6 of the paper for a
//! fractional number of idle periods, [`RATING_PERIODS_PER_DAY`] per day of
//! inactivity (lichess's rate: a settled deviation of 60 reaches 110 after a
//! year), never above [`MAX_DEVIATION`]. `skillratings` only widens by whole
//! periods (`decay_deviation`), so this one formula is written here.

use plyyard_game::GameResult;
pub mod history;
pub mod perf_stat;
pub mod refund;

/// The speed a rating is for (bullet, blitz, rapid, classical), from `game`'s
/// clock module: a time control's speed selects the rating it plays for.
pub use plyyard_game::Speed;
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// τ, the constraint on volatility changes (lichess's value).
pub const TAU: f64 = 0.75;
/// Rated games after which a rating stops being provisional.
pub const PROVISIONAL_GAMES: u32 = 10;
/// Idle rating periods per day of inactivity (lichess's rate).
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// The deviation never grows past the starting one.
pub const MAX_DEVIATION: f64 = 350.0;
/// The rating of a new player.
pub const DEFAULT: Glicko2 = Glicko2 {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// Glicko-2's conversion factor between the displayed scale and its own.
const GLICKO2_SCALE: f64 = 173.7178;
const MS_PER_DAY: f64 = 86_400_000.0;

/// A Glicko-2 rating on the usual scale (1500 = an average new player).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2 {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (uncertainty; smaller is surer).
    pub deviation: f64,
    /// The volatility (how erratic the player's results are).
    pub volatility: f64,
}

impl Default for Glicko2 {
    fn default() -> Glicko2 {
        DEFAULT
    }
}

impl From<Glicko2Rating> for Glicko2 {
    fn from(g: Glicko2Rating) -> Glicko2 {
        Glicko2 {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<Glicko2> for Glicko2Rating {
    fn from(g: Glicko2) -> Glicko2Rating {
        Glicko2Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl Glicko2 {
    /// The rating after `elapsed_ms` milliseconds without a rated game: the
    /// deviation grows by [`RATING_PERIODS_PER_DAY`] idle periods a day, up
    /// to [`MAX_DEVIATION`]; rating and volatility stay. A negative time
    /// (clocks of two servers) counts as none.
    ///
    /// # Examples
    /// ```
    /// use plyyard_rating::Glicko2;
    /// let settled = Glicko2 { rating: 1600.0, deviation: 60.0, volatility: 0.06 };
    /// let year = 365 * 86_400_000;
    /// assert_eq!(settled.after_inactivity(year).deviation.round(), 110.0);
    /// assert_eq!(settled.after_inactivity(-5).deviation, 60.0);
    /// ```
    #[must_use]
    pub fn after_inactivity(self, elapsed_ms: i64) -> Glicko2 {
        if elapsed_ms <= 0 || self.deviation >= MAX_DEVIATION {
            return self;
        }
        let periods = elapsed_ms as f64 / MS_PER_DAY * RATING_PERIODS_PER_DAY;
        let sigma = self.volatility * GLICKO2_SCALE;
        let widened = periods.mul_add(sigma * sigma, self.deviation * self.deviation);
        Glicko2 {
            deviation: widened.sqrt().min(MAX_DEVIATION),
            ..self
        }
    }
}

/// The result of a rated game, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
}

impl Outcome {
    /// The outcome of a game result, or `None` for `*` (an aborted or
    /// unfinished game, which is never rated).
    ///
    /// # Examples
    /// ```
    /// use plyyard_game::GameResult;
    /// use plyyard_rating::Outcome;
    /// assert_eq!(Outcome::from_result(GameResult::Draw), Some(Outcome::Draw));
    /// assert_eq!(Outcome::from_result(GameResult::Aborted), None);
    /// ```
    pub const fn from_result(result: GameResult) -> Option<Outcome> {
        match result {
            GameResult::WhiteWins => Some(Outcome::WhiteWins),
            GameResult::BlackWins => Some(Outcome::BlackWins),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Aborted => None,
        }
    }

    /// The game result this outcome is.
    pub const fn result(self) -> GameResult {
        match self {
            Outcome::WhiteWins => GameResult::WhiteWins,
            Outcome::BlackWins => GameResult::BlackWins,
            Outcome::Draw => GameResult::Draw,
        }
    }

    const fn for_white(self) -> Outcomes {
        match self {
            Outcome::WhiteWins => Outcomes::WIN,
            Outcome::BlackWins => Outcomes::LOSS,
            Outcome::Draw => Outcomes::DRAW,
        }
    }
}

/// The Glicko-2 settings of Ply Yard: τ = [`TAU`] and the paper's
/// convergence tolerance.
pub fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// Both players' ratings after one game (one rating period), each updated
/// from the other's rating before the game.
///
/// # Examples
/// ```
/// use plyyard_rating::{DEFAULT, Outcome, update};
/// let (white, black) = update(DEFAULT, DEFAULT, Outcome::WhiteWins);
/// assert_eq!((white.rating.round(), black.rating.round()), (1662.0, 1338.0));
/// assert!(white.deviation < DEFAULT.deviation);
/// ```
#[must_use]
pub fn update(white: Glicko2, black: Glicko2, outcome: Outcome) -> (Glicko2, Glicko2) {
    let (w, b) = glicko2(
        &white.into(),
        &black.into(),
        &outcome.for_white(),
        &config(),
    );
    (w.into(), b.into())
}

/// Whether a rating with `games` rated games behind it is provisional.
pub const fn provisional(games: u32) -> bool {
    games < PROVISIONAL_GAMES
}

/// A rating or deviation as shown: the nearest whole number (halves away
/// from zero).
#[must_use]
pub fn display(value: f64) -> i64 {
    // Ratings and deviations are a few thousand at most: the cast is exact.
    value.round() as i64
}

/// The rating change as shown: the difference of the shown ratings, so
/// that "before + change = after" holds on screen.
#[must_use]
pub fn display_change(before: f64, after: f64) -> i64 {
    display(after) - display(before)
}

/// A player's rating at one speed, with its history in brief.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerRating {
    /// The rating as of `updated_at`.
    pub glicko: Glicko2,
    /// Rated games finished at this speed.
    pub games: u32,
    /// Time of the last rated game, Unix milliseconds (`None`: never played).
    pub updated_at: Option<i64>,
}

impl Default for PlayerRating {
    fn default() -> PlayerRating {
        PlayerRating {
            glicko: DEFAULT,
            games: 0,
            updated_at: None,
        }
    }
}

impl PlayerRating {
    /// Whether the rating is still provisional.
    pub const fn provisional(&self) -> bool {
        provisional(self.games)
    }

    /// The rating as it stands at `now`: the deviation widened by the time
    /// since the last rated game.
    #[must_use]
    pub fn at(&self, now: i64) -> Glicko2 {
        match self.updated_at {
            Some(t) => self.glicko.after_inactivity(now.saturating_sub(t)),
            None => self.glicko,
        }
    }

    /// The JSON shape of the rating at `now`.
    pub fn json(&self, now: i64) -> RatingJson {
        let g = self.at(now);
        RatingJson {
            rating: display(g.rating),
            deviation: display(g.deviation),
            provisional: self.provisional(),
            games: self.games,
        }
    }
}

/// A rating as the API shows it:
/// `{"rating":1500,"deviation":350,"provisional":true,"games":0}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RatingJson {
    /// Rounded rating.
    pub rating: i64,
    /// Rounded deviation, widened to now.
    pub deviation: i64,
    /// Fewer than [`PROVISIONAL_GAMES`] rated games.
    pub provisional: bool,
    /// Rated games at this speed.
    pub games: u32,
}

/// A player's ratings at every speed, as the API shows them:
/// `{"bullet":RatingJson,"blitz":…,"rapid":…,"classical":…}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RatingsJson {
    /// Bullet.
    pub bullet: RatingJson,
    /// Blitz.
    pub blitz: RatingJson,
    /// Rapid.
    pub rapid: RatingJson,
    /// Classical.
    pub classical: RatingJson,
}

impl RatingsJson {
    /// The JSON of a player's ratings at `now`, from what
    /// `Store::ratings` returns (speeds missing from `ratings` show the
    /// starting rating).
    pub fn new(ratings: &[(Speed, PlayerRating)], now: i64) -> RatingsJson {
        let of = |speed: Speed| {
            ratings
                .iter()
                .find(|(s, _)| *s == speed)
                .map(|(_, r)| *r)
                .unwrap_or_default()
                .json(now)
        };
        RatingsJson {
            bullet: of(Speed::Bullet),
            blitz: of(Speed::Blitz),
            rapid: of(Speed::Rapid),
            classical: of(Speed::Classical),
        }
    }
}

#[cfg(test)]
mod tests {
    use skillratings::glicko2::glicko2_rating_period;

    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn same(actual: Glicko2, expected: (f64, f64, f64)) {
        close(actual.rating, expected.0, 1e-9);
        close(actual.deviation, expected.1, 1e-9);
        close(actual.volatility, expected.2, 1e-9);
    }

    fn g(rating: f64, deviation: f64, volatility: f64) -> Glicko2 {
        Glicko2 {
            rating,
            deviation,
            volatility,
        }
    }

    /// Glickman's "Example of the Glicko-2 system": 1500/200/0.06 plays
    /// 1400/30, 1550/100 and 1700/300 in one period, scoring 1, 0, 0, τ 0.5.
    #[test]
    fn paper_example_through_the_crate() {
        let opponent = |r, d| Glicko2Rating::from((r, d, 0.06));
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after: Glicko2 =
            glicko2_rating_period(&g(1500.0, 200.0, 0.06).into(), &results, &config).into();
        // The paper prints 1464.06, 151.52 and 0.05999 (it rounds each step).
        close(after.rating, 1464.06, 0.01);
        close(after.deviation, 151.52, 0.01);
        close(after.volatility, 0.05999, 0.00001);
        // tools/glicko2_reference.py, without intermediate rounding.
        same(
            after,
            (1464.0506705393013, 151.51652412385727, 0.059995984286488495),
        );
    }

    /// Expected values from `python3 tools/glicko2_reference.py`, our own
    /// implementation of the paper's steps with τ 0.75 and one game per
    /// rating period.
    #[test]
    fn per_game_updates_match_the_reference() {
        let (w, b) = update(DEFAULT, DEFAULT, Outcome::WhiteWins);
        same(
            w,
            (1662.3108925690603, 290.31896252204893, 0.05999926959652241),
        );
        same(
            b,
            (1337.6891074309397, 290.31896252204893, 0.05999926959652241),
        );

        let (w, b) = update(g(1700.0, 80.0, 0.06), g(1450.0, 200.0, 0.07), Outcome::Draw);
        same(
            w,
            (1691.6482980689234, 79.60357759550469, 0.0599977897511294),
        );
        same(
            b,
            (1506.3053990067199, 182.99201132675793, 0.06999684722269843),
        );

        let (w, b) = update(
            g(1620.0, 120.0, 0.059),
            g(1830.0, 60.0, 0.061),
            Outcome::BlackWins,
        );
        same(
            w,
            (1602.3009707047447, 115.7262794355592, 0.05899668957362815),
        );
        same(
            b,
            (1834.78224894424, 60.33323651810648, 0.06099655375394704),
        );
    }

    #[test]
    fn a_series_of_games_matches_the_reference() {
        let (mut a, mut c) = (DEFAULT, DEFAULT);
        for i in 0..12 {
            let outcome = if i % 2 == 0 {
                Outcome::WhiteWins
            } else {
                Outcome::Draw
            };
            (a, c) = update(a, c, outcome);
        }
        same(
            a,
            (1596.5559928864977, 130.46822620879567, 0.05997656949885845),
        );
        same(
            c,
            (1403.4440071135023, 130.46822620879567, 0.05997656949885845),
        );
    }

    #[test]
    fn colours_are_symmetric() {
        let x = g(1720.0, 90.0, 0.058);
        let y = g(1510.0, 240.0, 0.065);
        let (xw, yb) = update(x, y, Outcome::WhiteWins);
        let (yw, xb) = update(y, x, Outcome::BlackWins);
        assert_eq!((xw, yb), (xb, yw));
        let (xw, yb) = update(x, y, Outcome::Draw);
        let (yw, xb) = update(y, x, Outcome::Draw);
        assert_eq!((xw, yb), (xb, yw));
    }

    #[test]
    fn inactivity_widens_the_deviation_up_to_the_cap() {
        let settled = g(1600.0, 60.0, 0.06);
        let day = 86_400_000;
        close(
            settled.after_inactivity(365 * day).deviation,
            110.00078549354839,
            1e-9,
        );
        assert_eq!(settled.after_inactivity(0), settled);
        let month = settled.after_inactivity(30 * day);
        assert!(month.deviation > 60.0 && month.deviation < 110.0);
        assert_eq!(
            (month.rating, month.volatility),
            (settled.rating, settled.volatility)
        );
        assert_eq!(
            settled.after_inactivity(100_000 * day).deviation,
            MAX_DEVIATION
        );
        assert_eq!(DEFAULT.after_inactivity(day), DEFAULT);
    }

    #[test]
    fn results_map_to_outcomes() {
        for outcome in [Outcome::WhiteWins, Outcome::BlackWins, Outcome::Draw] {
            assert_eq!(Outcome::from_result(outcome.result()), Some(outcome));
        }
        assert_eq!(Outcome::from_result(GameResult::Aborted), None);
    }

    #[test]
    fn provisional_until_ten_games() {
        assert!(provisional(0));
        assert!(provisional(9));
        assert!(!provisional(10));
        assert!(!provisional(500));
    }

    #[test]
    fn display_rounds_to_whole_points() {
        assert_eq!(display(1662.31), 1662);
        assert_eq!(display(1337.5), 1338);
        assert_eq!(display(1337.49), 1337);
        assert_eq!(display_change(1500.0, 1662.31), 162);
        assert_eq!(display_change(1500.4, 1337.69), -162);
        // Shown before + shown change = shown after.
        let (before, after) = (1499.6, 1507.4);
        assert_eq!(
            display(before) + display_change(before, after),
            display(after)
        );
    }

    #[test]
    fn speeds_have_their_stored_names() {
        for speed in Speed::ALL {
            assert_eq!(speed.as_str().parse::<Speed>().ok(), Some(speed));
        }
        assert_eq!(plyyard_game::TimeControl::PRESET_1_0.speed(), Speed::Bullet);
        assert_eq!(plyyard_game::TimeControl::PRESET_3_2.speed(), Speed::Blitz);
        assert_eq!(
            plyyard_game::TimeControl::PRESET_30_20.speed(),
            Speed::Classical
        );
    }

    #[test]
    fn json_of_a_new_and_a_settled_player() {
        let now = 1_700_000_000_000;
        let settled = PlayerRating {
            glicko: g(1612.6, 70.2, 0.06),
            games: 31,
            updated_at: Some(now),
        };
        let json = RatingsJson::new(&[(Speed::Rapid, settled)], now);
        let value = serde_json::to_value(json).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "bullet": {"rating": 1500, "deviation": 350, "provisional": true, "games": 0},
                "blitz": {"rating": 1500, "deviation": 350, "provisional": true, "games": 0},
                "rapid": {"rating": 1613, "deviation": 70, "provisional": false, "games": 31},
                "classical": {"rating": 1500, "deviation": 350, "provisional": true, "games": 0},
            })
        );
        // A year later the deviation shown has grown.
        let later = RatingsJson::new(&[(Speed::Rapid, settled)], now + 365 * 86_400_000);
        assert!(later.rapid.deviation > 110);
    }
}
