//! Owns [`Timestamp`], the one way time enters this crate: the caller reads
//! the clock and passes the moment in, so every rule here stays pure.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A moment, in milliseconds since the Unix epoch (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The moment `millis` milliseconds after the Unix epoch.
    pub const fn from_millis(millis: i64) -> Timestamp {
        Timestamp(millis)
    }

    /// Milliseconds since the Unix epoch.
    pub const fn millis(self) -> i64 {
        self.0
    }

    /// This moment moved `d` later (saturating).
    pub fn after(self, d: Duration) -> Timestamp {
        let ms = i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        Timestamp(self.0.saturating_add(ms))
    }

    /// How long after `earlier` this moment is; zero if it is not later.
    pub fn since(self, earlier: Timestamp) -> Duration {
        let ms = self.0.saturating_sub(earlier.0).max(0);
        Duration::from_millis(u64::try_from(ms).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_and_since_round_trip() {
        let t = Timestamp::from_millis(1_000);
        let later = t.after(Duration::from_secs(3));
        assert_eq!(later.millis(), 4_000);
        assert_eq!(later.since(t), Duration::from_secs(3));
        assert_eq!(t.since(later), Duration::ZERO);
    }
}
