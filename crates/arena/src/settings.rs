//! Owns [`ArenaSettings`]: everything fixed when an Arena is created (clock,
//! length, start, berserk and streak options, rated, variant, entry
//! conditions), validated from an [`ArenaDraft`] with an error that says
//! why for each rejection.
//!
//! Bounds: lichess offers 20..=720 minutes through its API (and custom
//! lengths in its form); Ply Yard accepts [`MIN_MINUTES`]..=[`MAX_MINUTES`]
//! — never more than 24 hours.

use crate::clock::{ArenaClock, ClockError};
use crate::conditions::{Conditions, ConditionsDraft, ConditionsError};
use crate::timestamp::Timestamp;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use thiserror::Error;

/// The shortest Arena, in minutes.
pub const MIN_MINUTES: u32 = 5;
/// The longest Arena, in minutes (24 hours).
pub const MAX_MINUTES: u32 = 24 * 60;
/// How far ahead an Arena may be scheduled (one year).
pub const MAX_SCHEDULE_AHEAD: Duration = Duration::from_secs(366 * 24 * 3600);
/// The longest variant name, in characters.
pub const MAX_VARIANT_CHARS: usize = 32;

/// An Arena as asked for: plain fields, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaDraft {
    /// Base time of every game, in seconds.
    pub clock_base_seconds: u32,
    /// Increment per move, in seconds.
    pub clock_increment_seconds: u32,
    /// How long the Arena lasts, in minutes.
    pub minutes: u32,
    /// When it starts.
    pub starts_at: Timestamp,
    /// Whether players may berserk.
    pub berserkable: bool,
    /// Whether win streaks set players on fire (double points).
    pub streakable: bool,
    /// Whether the games are rated.
    pub rated: bool,
    /// The variant's key, e.g. `standard`.
    pub variant: String,
    /// Who may join.
    pub conditions: ConditionsDraft,
    /// Whether the Arena has a chat (true for drafts stored before the flag).
    #[serde(default = "chat_by_default")]
    pub has_chat: bool,
}

/// Arenas have a chat unless the creator turns it off (lichess's default).
fn chat_by_default() -> bool {
    true
}

/// Why a draft was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// The clock is out of bounds.
    #[error("clock: {0}")]
    Clock(#[from] ClockError),
    /// Shorter than [`MIN_MINUTES`].
    #[error("the arena lasts {0} minutes; at least {MIN_MINUTES} are needed")]
    TooShort(u32),
    /// Longer than [`MAX_MINUTES`].
    #[error("the arena lasts {0} minutes; at most {MAX_MINUTES} (24 h) are allowed")]
    TooLong(u32),
    /// The start is before `now`.
    #[error("the start time is in the past")]
    StartsInThePast,
    /// The start is more than [`MAX_SCHEDULE_AHEAD`] away.
    #[error("the start time is more than a year away")]
    StartsTooFarAhead,
    /// No variant named.
    #[error("no variant is named")]
    EmptyVariant,
    /// The variant name is too long or not `[a-zA-Z0-9_-]`.
    #[error("the variant name is not a short key of letters, digits, '-' or '_'")]
    BadVariant,
    /// The entry conditions are refused.
    #[error("conditions: {0}")]
    Conditions(#[from] ConditionsError),
}

/// A validated Arena.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArenaSettings {
    clock: ArenaClock,
    minutes: u32,
    starts_at: Timestamp,
    berserkable: bool,
    streakable: bool,
    rated: bool,
    variant: String,
    conditions: Conditions,
    has_chat: bool,
}

impl ArenaDraft {
    /// Checks the draft against the bounds, `now` being the time of the
    /// request, and returns the settings or the first reason to refuse.
    pub fn validate(self, now: Timestamp) -> Result<ArenaSettings, SettingsError> {
        let clock = ArenaClock::new(self.clock_base_seconds, self.clock_increment_seconds)?;
        check_minutes(self.minutes)?;
        check_start(self.starts_at, now)?;
        check_variant(&self.variant)?;
        Ok(ArenaSettings {
            clock,
            minutes: self.minutes,
            starts_at: self.starts_at,
            berserkable: self.berserkable,
            streakable: self.streakable,
            rated: self.rated,
            variant: self.variant,
            conditions: self.conditions.validate()?,
            has_chat: self.has_chat,
        })
    }
}

fn check_minutes(minutes: u32) -> Result<(), SettingsError> {
    match minutes {
        m if m < MIN_MINUTES => Err(SettingsError::TooShort(m)),
        m if m > MAX_MINUTES => Err(SettingsError::TooLong(m)),
        _ => Ok(()),
    }
}

fn check_start(starts_at: Timestamp, now: Timestamp) -> Result<(), SettingsError> {
    if starts_at < now {
        return Err(SettingsError::StartsInThePast);
    }
    if starts_at.since(now) > MAX_SCHEDULE_AHEAD {
        return Err(SettingsError::StartsTooFarAhead);
    }
    Ok(())
}

fn check_variant(variant: &str) -> Result<(), SettingsError> {
    if variant.is_empty() {
        return Err(SettingsError::EmptyVariant);
    }
    let key_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if variant.len() > MAX_VARIANT_CHARS || !variant.chars().all(key_char) {
        return Err(SettingsError::BadVariant);
    }
    Ok(())
}

impl ArenaSettings {
    /// The time control of every game.
    pub fn clock(&self) -> ArenaClock {
        self.clock
    }

    /// The length, in minutes.
    pub fn minutes(&self) -> u32 {
        self.minutes
    }

    /// The length.
    pub fn duration(&self) -> Duration {
        Duration::from_secs(u64::from(self.minutes) * 60)
    }

    /// When it starts.
    pub fn starts_at(&self) -> Timestamp {
        self.starts_at
    }

    /// When it ends.
    pub fn ends_at(&self) -> Timestamp {
        self.starts_at.after(self.duration())
    }

    /// Whether the organiser allows berserk.
    pub fn berserkable(&self) -> bool {
        self.berserkable
    }

    /// Whether win streaks set players on fire.
    pub fn streakable(&self) -> bool {
        self.streakable
    }

    /// Whether the games are rated.
    pub fn rated(&self) -> bool {
        self.rated
    }

    /// The variant's key.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Who may join.
    pub fn conditions(&self) -> &Conditions {
        &self.conditions
    }

    /// Whether the Arena has a chat.
    pub fn has_chat(&self) -> bool {
        self.has_chat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_stored_before_the_chat_flag_have_a_chat() {
        let mut v = serde_json::to_value(draft()).unwrap();
        v.as_object_mut().unwrap().remove("has_chat");
        let back: ArenaDraft = serde_json::from_value(v).unwrap();
        assert!(back.has_chat);
        let off = ArenaDraft {
            has_chat: false,
            ..draft()
        };
        let now = off.starts_at;
        assert!(!off.validate(now).unwrap().has_chat());
    }

    const NOW: Timestamp = Timestamp::from_millis(1_800_000_000_000);

    fn draft() -> ArenaDraft {
        ArenaDraft {
            clock_base_seconds: 180,
            clock_increment_seconds: 2,
            minutes: 60,
            starts_at: NOW.after(Duration::from_secs(600)),
            berserkable: true,
            streakable: true,
            rated: true,
            variant: "standard".into(),
            conditions: ConditionsDraft::default(),
            has_chat: true,
        }
    }

    #[test]
    fn a_plain_arena_passes_and_ends_after_its_length() {
        let s = draft().validate(NOW).unwrap();
        assert_eq!(s.ends_at().since(s.starts_at()), Duration::from_secs(3600));
        assert_eq!(s.clock().estimated_seconds(), 260);
    }

    #[test]
    fn every_rejection_says_why() {
        let with = |f: fn(&mut ArenaDraft)| {
            let mut d = draft();
            f(&mut d);
            d.validate(NOW).unwrap_err()
        };
        assert_eq!(
            with(|d| d.minutes = 24 * 60 + 1),
            SettingsError::TooLong(1441)
        );
        assert_eq!(with(|d| d.minutes = 2), SettingsError::TooShort(2));
        assert_eq!(
            with(|d| {
                d.clock_base_seconds = 0;
                d.clock_increment_seconds = 0;
            }),
            SettingsError::Clock(ClockError::NoTime)
        );
        assert_eq!(
            with(|d| d.starts_at = Timestamp::from_millis(0)),
            SettingsError::StartsInThePast
        );
        assert_eq!(
            with(|d| d.starts_at = NOW.after(Duration::from_secs(400 * 86_400))),
            SettingsError::StartsTooFarAhead
        );
        assert_eq!(with(|d| d.variant.clear()), SettingsError::EmptyVariant);
        assert_eq!(
            with(|d| d.variant = "x y".into()),
            SettingsError::BadVariant
        );
        assert_eq!(
            with(|d| d.conditions.password = Some(String::new())),
            SettingsError::Conditions(ConditionsError::EmptyPassword)
        );
    }

    #[test]
    fn a_full_day_is_the_longest() {
        let mut d = draft();
        d.minutes = MAX_MINUTES;
        assert!(d.validate(NOW).is_ok());
    }
}
