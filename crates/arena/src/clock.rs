//! Owns [`ArenaClock`], the time control every game of an Arena is played
//! with: its bounds, the estimated game length that sets the tournament's
//! rhythm, and what berserk does to it.
//!
//! lichess: the estimated length of a game is `base + 40 × increment`
//! seconds; berserk halves the base and drops the increment, except that a
//! clock whose base is under `40 × increment` keeps its base (scalachess's
//! `berserkPenalty`); berserk needs `increment == 0 || base > 0`.

use serde::Serialize;
use std::time::Duration;
use thiserror::Error;

/// The longest base time an Arena clock may have, in seconds (60 minutes,
/// lichess's longest Arena clock).
pub const MAX_BASE_SECONDS: u32 = 60 * 60;

/// The largest increment an Arena clock may have, in seconds (lichess's).
pub const MAX_INCREMENT_SECONDS: u32 = 60;

/// Moves in the estimate of a game's length (`base + 40 × increment`).
pub const ESTIMATED_MOVES: u32 = 40;

/// Why a clock was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ClockError {
    /// Base and increment are both zero: no one would have any time.
    #[error("the clock has no time: base and increment are both 0")]
    NoTime,
    /// The base is longer than [`MAX_BASE_SECONDS`].
    #[error("the base time is {0} s; at most {MAX_BASE_SECONDS} s is allowed")]
    BaseTooLong(u32),
    /// The increment is larger than [`MAX_INCREMENT_SECONDS`].
    #[error("the increment is {0} s; at most {MAX_INCREMENT_SECONDS} s is allowed")]
    IncrementTooLarge(u32),
}

/// A validated Arena time control: base time and increment, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ArenaClock {
    base_seconds: u32,
    increment_seconds: u32,
}

/// The clock of a player who went berserk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BerserkedClock {
    /// Time on the player's clock at the start, in milliseconds.
    pub base_millis: u32,
    /// Always zero: berserk removes the increment.
    pub increment_seconds: u32,
}

impl ArenaClock {
    /// A clock of `base_seconds` plus `increment_seconds` a move, if within
    /// bounds.
    pub fn new(base_seconds: u32, increment_seconds: u32) -> Result<ArenaClock, ClockError> {
        if base_seconds == 0 && increment_seconds == 0 {
            return Err(ClockError::NoTime);
        }
        if base_seconds > MAX_BASE_SECONDS {
            return Err(ClockError::BaseTooLong(base_seconds));
        }
        if increment_seconds > MAX_INCREMENT_SECONDS {
            return Err(ClockError::IncrementTooLarge(increment_seconds));
        }
        Ok(ArenaClock {
            base_seconds,
            increment_seconds,
        })
    }

    /// Base time, in seconds.
    pub const fn base_seconds(self) -> u32 {
        self.base_seconds
    }

    /// Increment per move, in seconds.
    pub const fn increment_seconds(self) -> u32 {
        self.increment_seconds
    }

    /// The estimated length of one player's time in a game:
    /// `base + 40 × increment` seconds.
    pub const fn estimated_seconds(self) -> u32 {
        self.base_seconds + ESTIMATED_MOVES * self.increment_seconds
    }

    /// [`ArenaClock::estimated_seconds`] as a duration.
    pub const fn estimated(self) -> Duration {
        Duration::from_secs(self.estimated_seconds() as u64)
    }

    /// Whether the time control permits berserk at all:
    /// `increment == 0 || base > 0` (a 0+x clock has no base to halve).
    pub const fn allows_berserk(self) -> bool {
        self.increment_seconds == 0 || self.base_seconds > 0
    }

    /// The clock of a player who went berserk: half the base (the whole base
    /// if it is under `40 × increment`) and no increment.
    pub const fn berserked(self) -> BerserkedClock {
        let base_millis = self.base_seconds * 1000;
        let keeps_base = self.base_seconds < ESTIMATED_MOVES * self.increment_seconds;
        BerserkedClock {
            base_millis: if keeps_base {
                base_millis
            } else {
                base_millis / 2
            },
            increment_seconds: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_say_why() {
        assert_eq!(ArenaClock::new(0, 0), Err(ClockError::NoTime));
        assert_eq!(ArenaClock::new(3601, 0), Err(ClockError::BaseTooLong(3601)));
        assert_eq!(
            ArenaClock::new(60, 61),
            Err(ClockError::IncrementTooLarge(61))
        );
        assert!(ArenaClock::new(0, 1).is_ok());
        assert!(ArenaClock::new(3600, 60).is_ok());
    }

    #[test]
    fn estimate_is_base_plus_forty_increments() {
        assert_eq!(ArenaClock::new(180, 2).unwrap().estimated_seconds(), 260);
        assert_eq!(ArenaClock::new(60, 0).unwrap().estimated_seconds(), 60);
    }

    #[test]
    fn berserk_halves_the_base_and_drops_the_increment() {
        let b = ArenaClock::new(180, 2).unwrap().berserked();
        assert_eq!(b.base_millis, 90_000);
        assert_eq!(b.increment_seconds, 0);
        assert_eq!(
            ArenaClock::new(45, 0).unwrap().berserked().base_millis,
            22_500
        );
        // 1+2: 60 < 80, the base is kept, only the increment goes.
        assert_eq!(
            ArenaClock::new(60, 2).unwrap().berserked().base_millis,
            60_000
        );
    }

    #[test]
    fn zero_base_with_increment_cannot_berserk() {
        assert!(!ArenaClock::new(0, 2).unwrap().allows_berserk());
        assert!(ArenaClock::new(60, 0).unwrap().allows_berserk());
        assert!(ArenaClock::new(60, 1).unwrap().allows_berserk());
    }
}
