//! A player's rating history as lichess draws it (`GET
//! /api/user/{name}/rating-history`): for each speed, the rating at the
//! end of every day on which a rated game of that speed was played.

use crate::{Speed, display};

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// For every speed (in [`Speed::ALL`] order, empty where nothing was
/// played), `(day, rating)`: the days since 1970-01-01 (UTC) and the
/// displayed rating after the day's last game, from `points` (`(speed,
/// Unix milliseconds, rating after the game)`, the earliest first).
///
/// # Examples
/// ```
/// use plyyard_rating::Speed;
/// use plyyard_rating::history::{DAY_MS, daily};
/// let points = [
///     (Speed::Blitz, 2 * DAY_MS + 5, 1510.4),
///     (Speed::Blitz, 2 * DAY_MS + 9, 1496.6),
///     (Speed::Bullet, 3 * DAY_MS, 1520.0),
///     (Speed::Blitz, 5 * DAY_MS, 1502.0),
/// ];
/// let h = daily(&points);
/// assert_eq!(h[0], (Speed::Bullet, vec![(3, 1520)]));
/// assert_eq!(h[1], (Speed::Blitz, vec![(2, 1497), (5, 1502)]));
/// assert_eq!(h[2], (Speed::Rapid, vec![]));
/// ```
pub fn daily(points: &[(Speed, i64, f64)]) -> Vec<(Speed, Vec<(i64, i64)>)> {
    Speed::ALL
        .into_iter()
        .map(|speed| {
            let mut days: Vec<(i64, i64)> = Vec::new();
            for &(_, at, rating) in points.iter().filter(|p| p.0 == speed) {
                let day = at.div_euclid(DAY_MS);
                match days.last_mut() {
                    Some(last) if last.0 == day => last.1 = display(rating),
                    _ => days.push((day, display(rating))),
                }
            }
            (speed, days)
        })
        .collect()
}
