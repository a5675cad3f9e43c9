//! Lichess's speeds and perfs of a game: by the estimate `limit + 40 ×
//! increment` seconds, `chess960` for Chess960, `correspondence` without
//! a clock.

/// Lichess's speed of a clock of `initial_ms` plus `increment_ms` a move.
///
/// # Examples
/// ```
/// use plyyard_wire::lichess::speed;
/// assert_eq!(speed(60_000, 0), "bullet");
/// assert_eq!(speed(180_000, 2_000), "blitz");
/// assert_eq!(speed(15_000, 0), "ultraBullet");
/// ```
pub fn speed(initial_ms: u64, increment_ms: u64) -> &'static str {
    let estimate = initial_ms / 1000 + 40 * (increment_ms / 1000);
    match estimate {
        0..30 => "ultraBullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        1500..21_600 => "classical",
        _ => "correspondence",
    }
}

/// Lichess's perf of a game of `variant` with the clock `clock_ms`
/// (initial, increment): `chess960`, its speed, or `correspondence`
/// without a clock.
pub fn perf(variant: &str, clock_ms: Option<(u64, u64)>) -> &'static str {
    if variant == "chess960" {
        return "chess960";
    }
    clock_ms.map_or("correspondence", |(initial, increment)| {
        speed(initial, increment)
    })
}

/// Lichess's perf of a game of `variant` played with `control` (none:
/// `correspondence`), as [`perf`].
///
/// # Examples
/// ```
/// use plyyard_game::TimeControl;
/// use plyyard_wire::lichess::perf_of_control;
/// assert_eq!(perf_of_control("standard", TimeControl::from_secs(180, 2).ok()), "blitz");
/// assert_eq!(perf_of_control("chess960", TimeControl::from_secs(60, 0).ok()), "chess960");
/// assert_eq!(perf_of_control("standard", None), "correspondence");
/// ```
pub fn perf_of_control(variant: &str, control: Option<plyyard_game::TimeControl>) -> &'static str {
    perf(
        variant,
        control.map(|c| {
            (
                u64::from(c.base_secs()) * 1000,
                u64::from(c.increment_secs()) * 1000,
            )
        }),
    )
}
