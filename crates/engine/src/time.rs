//! Time management: turns [`Limits`] into the soft and hard budgets the
//! main search thread enforces.

use std::time::Duration;

use crate::Limits;
use crate::search::{Budget, MAX_PLY};

/// Moves assumed to remain when the clock has no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 22;
/// Hard limit as a multiple of the soft one.
const HARD_FACTOR: u32 = 4;

/// The budget for one search.
pub fn budget(limits: &Limits, fullmove: u32, overhead: Duration) -> Budget {
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    if let Some(mt) = limits.movetime {
        let t = mt
            .saturating_sub(overhead.min(mt / 4))
            .max(Duration::from_millis(1));
        soft = Some(t);
        hard = Some(t);
    }
    if let Some(c) = limits.clock
        && !limits.infinite
    {
        let left = c.time.saturating_sub(overhead);
        let mtg = c
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO.saturating_sub(fullmove / 4).max(14))
            .clamp(1, 60);
        let base = left / mtg + c.inc * 3 / 4;
        // Never plan more than a fifth, nor overrun more than two fifths, of
        // what is left: on a loaded machine the process may be descheduled
        // for a while right when the move is due.
        let cap = left / 5;
        let s = base.min(cap).max(Duration::from_millis(1));
        let h = (s * HARD_FACTOR).min(left * 2 / 5).max(s);
        soft = Some(soft.map_or(s, |x| x.min(s)));
        hard = Some(hard.map_or(h, |x| x.min(h)));
    }
    if limits.infinite {
        soft = None;
        if limits.movetime.is_none() {
            hard = None;
        }
    }
    // With only a fixed time the whole budget is used: never stop early.
    if limits.movetime.is_some() && limits.clock.is_none() {
        soft = None;
    }
    Budget {
        soft,
        hard,
        nodes: limits.nodes,
        depth: limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn clock_budget_is_a_fraction_of_the_time_left() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_secs(10),
                inc: Duration::from_millis(100),
                movestogo: None,
            }),
            ..Limits::default()
        };
        let b = budget(&limits, 1, Duration::from_millis(30));
        let soft = b.soft.expect("soft");
        let hard = b.hard.expect("hard");
        assert!(
            soft > Duration::from_millis(200) && soft < Duration::from_millis(1000),
            "{soft:?}"
        );
        assert!(hard >= soft && hard <= Duration::from_secs(6));
    }

    #[test]
    fn low_clock_never_overspends() {
        let limits = Limits {
            clock: Some(Clock {
                time: Duration::from_millis(50),
                inc: Duration::ZERO,
                movestogo: Some(1),
            }),
            ..Limits::default()
        };
        let b = budget(&limits, 40, Duration::from_millis(30));
        assert!(b.hard.expect("hard") <= Duration::from_millis(20));
    }

    #[test]
    fn infinite_has_no_time_limit() {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let b = budget(&limits, 1, Duration::ZERO);
        assert!(b.soft.is_none() && b.hard.is_none());
    }
}
