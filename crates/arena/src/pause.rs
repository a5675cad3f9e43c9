//! Owns pausing (withdrawing) and rejoining: how long a player who paused
//! must wait before being paired again (lichess's `Pause`):
//!
//! - the first pause costs [`FIRST_PAUSE`] (10 s);
//! - pause number `n ≥ 2` costs `(n − 1) × estimate / 15` seconds, clamped
//!   to 10..=120 s (`estimate` is the clock's `base + 40 × increment`);
//! - the count starts again after [`PAUSE_MEMORY`] (20 min) without a
//!   pause.
//!
//! A player who leaves a game unplayed loses it
//! ([`crate::game::Outcome::Forfeit`]).

use crate::clock::ArenaClock;
use crate::timestamp::Timestamp;
use std::num::NonZeroU32;
use std::time::Duration;
use thiserror::Error;

/// What the first pause costs.
pub const FIRST_PAUSE: Duration = Duration::from_secs(10);
/// The least a later pause costs.
pub const MIN_PAUSE: Duration = Duration::from_secs(10);
/// The most a pause costs.
pub const MAX_PAUSE: Duration = Duration::from_secs(120);
/// How long pauses are remembered.
pub const PAUSE_MEMORY: Duration = Duration::from_secs(20 * 60);

/// A player's recent pauses in one Arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pauses {
    count: NonZeroU32,
    last: Timestamp,
}

/// Why a player may not rejoin yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RejoinError {
    /// The pause's penalty is not over.
    #[error("you paused; you may rejoin in {} s", .wait.as_secs().max(1))]
    TooSoon {
        /// How much longer.
        wait: Duration,
    },
}

impl Pauses {
    /// The record after a pause at `now`, given the record before (if any).
    pub fn after_pause(before: Option<Pauses>, now: Timestamp) -> Pauses {
        let count = match before {
            Some(p) if now.since(p.last) < PAUSE_MEMORY => p.count.saturating_add(1),
            _ => NonZeroU32::MIN,
        };
        Pauses { count, last: now }
    }

    /// Pauses remembered, this one included.
    pub fn count(self) -> u32 {
        self.count.get()
    }

    /// What the latest pause costs.
    pub fn penalty(self, clock: ArenaClock) -> Duration {
        if self.count.get() < 2 {
            return FIRST_PAUSE;
        }
        let secs = u64::from(self.count.get() - 1) * u64::from(clock.estimated_seconds()) / 15;
        Duration::from_secs(secs).clamp(MIN_PAUSE, MAX_PAUSE)
    }

    /// When the player may be paired again.
    pub fn may_rejoin_at(self, clock: ArenaClock) -> Timestamp {
        self.last.after(self.penalty(clock))
    }

    /// Whether the player may rejoin at `now`.
    pub fn rejoin(self, clock: ArenaClock, now: Timestamp) -> Result<(), RejoinError> {
        let at = self.may_rejoin_at(clock);
        if now >= at {
            Ok(())
        } else {
            Err(RejoinError::TooSoon {
                wait: at.since(now),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: Timestamp = Timestamp::from_millis(1_000_000);

    fn secs(s: u64) -> Timestamp {
        T0.after(Duration::from_secs(s))
    }

    #[test]
    fn penalties_grow_with_each_pause_within_bounds() {
        let c = ArenaClock::new(180, 2).unwrap(); // estimate 260 s
        let p1 = Pauses::after_pause(None, T0);
        assert_eq!(p1.penalty(c), Duration::from_secs(10));
        let p2 = Pauses::after_pause(Some(p1), secs(60));
        assert_eq!(p2.penalty(c), Duration::from_secs(260 / 15));
        let p3 = Pauses::after_pause(Some(p2), secs(120));
        assert_eq!(p3.penalty(c), Duration::from_secs(2 * 260 / 15));
        let mut p = p3;
        for k in 0..10 {
            p = Pauses::after_pause(Some(p), secs(180 + k));
        }
        assert_eq!(p.penalty(c), MAX_PAUSE);
        let bullet = ArenaClock::new(60, 0).unwrap(); // 1×60/15 = 4 → 10
        assert_eq!(p2.penalty(bullet), MIN_PAUSE);
    }

    #[test]
    fn twenty_quiet_minutes_forget_the_pauses() {
        let p1 = Pauses::after_pause(None, T0);
        let p2 = Pauses::after_pause(Some(p1), secs(20 * 60 - 1));
        assert_eq!(p2.count(), 2);
        let fresh = Pauses::after_pause(Some(p2), secs(40 * 60));
        assert_eq!(fresh.count(), 1);
    }

    #[test]
    fn rejoin_waits_for_the_penalty() {
        let c = ArenaClock::new(180, 0).unwrap();
        let p = Pauses::after_pause(None, T0);
        assert_eq!(
            p.rejoin(c, secs(4)),
            Err(RejoinError::TooSoon {
                wait: Duration::from_secs(6)
            })
        );
        assert_eq!(p.rejoin(c, secs(10)), Ok(()));
    }
}
