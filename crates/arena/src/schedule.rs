//! Owns the timing decisions of a started Arena, as pure functions of the
//! moment `now` the caller passes in (lichess's `StartedOrganizer`,
//! `WaitingUsers`, `Tournament`):
//!
//! - how often to look for pairings: every second with at least 1000
//!   players, every 2 s with at least 50, else every 15 s;
//! - whether a round is due: more than 100 waiting, or at least 2 who have
//!   waited [`wait_time`] (8 s if a game is estimated under 30 s, 10 s
//!   under 60 s, else `estimate / 10 + 6` clamped to 15..=50 s); the first
//!   round goes as soon as two wait;
//! - the first 15 s, when players go in rank order;
//! - when pairing closes: `secondsToFinish < max(30, min(base / 2, 120))`;
//! - whether joining is still worth it: more than a third of the length
//!   left, capped at 20 minutes.

use crate::clock::ArenaClock;
use crate::settings::ArenaSettings;
use crate::timestamp::Timestamp;
use std::time::Duration;

/// How long after the start players are paired in rank order.
pub const RECENT_START: Duration = Duration::from_secs(15);
/// More waiting players than this make a round due at once.
pub const CROWD: usize = 100;

/// How often to look for pairings in an Arena with `players` joined.
pub fn pairing_interval(players: usize) -> Duration {
    match players {
        n if n >= 1000 => Duration::from_secs(1),
        n if n >= 50 => Duration::from_secs(2),
        _ => Duration::from_secs(15),
    }
}

/// How long players should wait before a round is made for them.
pub fn wait_time(clock: ArenaClock) -> Duration {
    let secs = match clock.estimated_seconds() {
        e if e < 30 => 8,
        e if e < 60 => 10,
        e => (e / 10 + 6).clamp(15, 50),
    };
    Duration::from_secs(u64::from(secs))
}

/// Whether a round should be made now for the players waiting since
/// `waiting_since`; `first_round` is true while the Arena has no game yet.
pub fn round_due(
    waiting_since: &[Timestamp],
    now: Timestamp,
    clock: ArenaClock,
    first_round: bool,
) -> bool {
    let n = waiting_since.len();
    if n < 2 {
        return false;
    }
    if first_round || n > CROWD {
        return true;
    }
    let wait = wait_time(clock);
    waiting_since
        .iter()
        .filter(|&&t| now.since(t) >= wait)
        .count()
        >= 2
}

/// Whether the Arena started less than [`RECENT_START`] ago.
pub fn recently_started(settings: &ArenaSettings, now: Timestamp) -> bool {
    now >= settings.starts_at() && now.since(settings.starts_at()) < RECENT_START
}

/// How long before the end pairing stops:
/// `max(30 s, min(base / 2, 120 s))`.
pub fn pairing_close_margin(clock: ArenaClock) -> Duration {
    let secs = (clock.base_seconds() / 2).clamp(30, 120);
    Duration::from_secs(u64::from(secs))
}

/// Whether no more games are to be started.
pub fn pairing_closed(settings: &ArenaSettings, now: Timestamp) -> bool {
    settings.ends_at().since(now) < pairing_close_margin(settings.clock())
}

/// Whether joining now still makes sense: more than a third of the length
/// (at most 20 minutes) is left.
pub fn still_worth_entering(settings: &ArenaSettings, now: Timestamp) -> bool {
    let needed = (settings.duration() / 3).min(Duration::from_secs(20 * 60));
    settings.ends_at().since(now) > needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditions::ConditionsDraft;
    use crate::settings::ArenaDraft;

    const START: Timestamp = Timestamp::from_millis(1_800_000_000_000);

    fn arena(base: u32, inc: u32, minutes: u32) -> ArenaSettings {
        ArenaDraft {
            clock_base_seconds: base,
            clock_increment_seconds: inc,
            minutes,
            starts_at: START,
            berserkable: true,
            streakable: true,
            rated: true,
            variant: "standard".into(),
            conditions: ConditionsDraft::default(),
            has_chat: true,
        }
        .validate(START)
        .unwrap()
    }

    fn at(secs: u64) -> Timestamp {
        START.after(Duration::from_secs(secs))
    }

    fn clock(base: u32, inc: u32) -> ArenaClock {
        ArenaClock::new(base, inc).unwrap()
    }

    #[test]
    fn interval_shrinks_with_the_crowd() {
        assert_eq!(pairing_interval(10), Duration::from_secs(15));
        assert_eq!(pairing_interval(50), Duration::from_secs(2));
        assert_eq!(pairing_interval(1000), Duration::from_secs(1));
    }

    #[test]
    fn wait_time_follows_the_estimate() {
        assert_eq!(wait_time(clock(15, 0)), Duration::from_secs(8));
        assert_eq!(wait_time(clock(30, 0)), Duration::from_secs(10));
        assert_eq!(wait_time(clock(60, 0)), Duration::from_secs(15));
        assert_eq!(wait_time(clock(180, 2)), Duration::from_secs(32));
        assert_eq!(wait_time(clock(600, 0)), Duration::from_secs(50));
    }

    #[test]
    fn a_round_needs_two_who_waited_or_a_crowd() {
        let c = clock(180, 0); // wait 24 s
        let now = at(100);
        let long = at(70);
        let fresh = at(95);
        assert!(!round_due(&[long], now, c, false));
        assert!(!round_due(&[long, fresh], now, c, false));
        assert!(round_due(&[long, long, fresh], now, c, false));
        assert!(round_due(&[fresh, fresh], now, c, true));
        assert!(round_due(&vec![fresh; 101], now, c, false));
        assert!(!round_due(&vec![fresh; 100], now, c, false));
    }

    #[test]
    fn first_fifteen_seconds() {
        let a = arena(180, 0, 60);
        assert!(recently_started(&a, at(0)));
        assert!(recently_started(&a, at(14)));
        assert!(!recently_started(&a, at(15)));
        assert!(!recently_started(&a, Timestamp::from_millis(0)));
    }

    #[test]
    fn pairing_closes_before_the_end() {
        // 3+0: margin max(30, min(90, 120)) = 90 s.
        let a = arena(180, 0, 60);
        assert!(!pairing_closed(&a, at(3600 - 90)));
        assert!(pairing_closed(&a, at(3600 - 89)));
        // 1+0: 30 s; 10+0: 120 s.
        assert_eq!(pairing_close_margin(clock(60, 0)), Duration::from_secs(30));
        assert_eq!(
            pairing_close_margin(clock(600, 0)),
            Duration::from_secs(120)
        );
    }

    #[test]
    fn worth_entering_while_a_third_is_left() {
        let hour = arena(180, 0, 60); // needs > 20 min
        assert!(still_worth_entering(&hour, at(39 * 60)));
        assert!(!still_worth_entering(&hour, at(40 * 60)));
        let short = arena(60, 0, 30); // needs > 10 min
        assert!(still_worth_entering(&short, at(19 * 60)));
        assert!(!still_worth_entering(&short, at(20 * 60)));
    }
}
