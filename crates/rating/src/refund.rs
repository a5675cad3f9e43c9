//! Points given back to the victims of an engine user, after lichess's
//! rule (lila `RatingRefund`): what a victim lost in the engine user's
//! recent games against them, less half of what would lift them above the
//! best rating they had in those games, capped near their highest rating
//! ever and at [`MAX_REFUND`].

/// The most points one victim gets back at one speed.
pub const MAX_REFUND: f64 = 150.0;

/// The cap without a highest rating on record.
const CAP_WITHOUT_HIGHEST: f64 = 100.0;

/// How far above their highest rating a refund may lift a victim.
const ABOVE_HIGHEST: f64 = 20.0;

/// The whole points refunded to a victim who lost `lost` points in the
/// engine user's games, rated `current` now, whose best rating before
/// those games was `top` and whose highest rating ever is `highest`.
///
/// # Examples
/// ```
/// use plyyard_rating::refund::points;
/// // Lost 30 and still below the best of those games: all back.
/// assert_eq!(points(30.0, 1470.0, 1500.0, Some(1600.0)), 30.0);
/// // Lifted 20 above that best: half of the 20 is kept back.
/// assert_eq!(points(30.0, 1490.0, 1500.0, Some(1600.0)), 20.0);
/// // Never more than 150, nor 20 over the highest rating.
/// assert_eq!(points(400.0, 1100.0, 1500.0, Some(2000.0)), 150.0);
/// assert_eq!(points(60.0, 1500.0, 1560.0, Some(1510.0)), 30.0);
/// ```
pub fn points(lost: f64, current: f64, top: f64, highest: Option<f64>) -> f64 {
    let over = (lost + current - top).max(0.0);
    let cap = highest.map_or(CAP_WITHOUT_HIGHEST, |h| h - current + ABOVE_HIGHEST);
    (lost - over / 2.0).min(cap).clamp(0.0, MAX_REFUND).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_lost_or_already_far_above_gets_nothing() {
        assert_eq!(points(0.0, 1500.0, 1500.0, Some(1600.0)), 0.0);
        assert_eq!(points(10.0, 1700.0, 1500.0, Some(1600.0)), 0.0);
    }

    #[test]
    fn without_a_highest_rating_the_cap_is_100() {
        assert_eq!(points(130.0, 1200.0, 1400.0, None), 100.0);
    }
}
