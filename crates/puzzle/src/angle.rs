//! Angles: what a training session draws its puzzles from, as the trainer
//! and the API's `batch/{angle}` accept it — the healthy `mix`, one theme,
//! or one opening (a key of the CSV's `OpeningTags`, such as
//! `Sicilian_Defense` or `Sicilian_Defense_Najdorf_Variation`).

use std::fmt;
use std::str::FromStr;

use crate::theme::Theme;

/// The longest opening key accepted (lichess's longest are about 90).
pub const MAX_OPENING_KEY: usize = 120;

/// What a session draws its puzzles from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Angle {
    /// Every puzzle (`mix`).
    Mix,
    /// Puzzles carrying one theme.
    Theme(Theme),
    /// Puzzles from one opening or opening family (the `OpeningTags` key).
    Opening(String),
}

/// A string that is no angle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown puzzle angle {0:?}")]
pub struct UnknownAngle(pub String);

impl Angle {
    /// The angle's key as the API writes it.
    pub fn key(&self) -> &str {
        match self {
            Angle::Mix => "mix",
            Angle::Theme(t) => t.key(),
            Angle::Opening(k) => k,
        }
    }

    /// The theme the angle hints at, if it is a theme.
    pub const fn theme(&self) -> Option<Theme> {
        match self {
            Angle::Theme(t) => Some(*t),
            _ => None,
        }
    }
}

/// Whether `key` is shaped like an opening key: it starts with an
/// uppercase letter and holds only letters, digits, `_` and `-`.
pub fn is_opening_key(key: &str) -> bool {
    let starts_upper = key.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
    let allowed = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    starts_upper && key.len() <= MAX_OPENING_KEY && key.bytes().all(allowed)
}

impl FromStr for Angle {
    type Err = UnknownAngle;

    /// `mix`, a theme key (any case), or an opening key.
    fn from_str(s: &str) -> Result<Angle, UnknownAngle> {
        if s.eq_ignore_ascii_case("mix") {
            return Ok(Angle::Mix);
        }
        if let Some(t) = Theme::from_key(s) {
            return Ok(Angle::Theme(t));
        }
        if is_opening_key(s) {
            return Ok(Angle::Opening(s.to_owned()));
        }
        Err(UnknownAngle(s.to_owned()))
    }
}

impl fmt::Display for Angle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mix_themes_and_openings() {
        assert_eq!("mix".parse(), Ok(Angle::Mix));
        assert_eq!("fork".parse(), Ok(Angle::Theme(Theme::Fork)));
        assert_eq!("MATEIN2".parse(), Ok(Angle::Theme(Theme::MateIn2)));
        let najdorf = "Sicilian_Defense_Najdorf_Variation";
        assert_eq!(najdorf.parse(), Ok(Angle::Opening(najdorf.to_owned())));
        assert_eq!(Angle::Opening(najdorf.to_owned()).key(), najdorf);
        assert_eq!(Angle::Theme(Theme::SuperGm).to_string(), "superGM");
    }

    #[test]
    fn refuses_other_strings() {
        for bad in [
            "",
            "forks",
            "sicilian defense",
            "../etc",
            "Ruy Lopez",
            "a_b",
        ] {
            assert!(bad.parse::<Angle>().is_err(), "{bad}");
        }
        assert!("A".repeat(MAX_OPENING_KEY + 1).parse::<Angle>().is_err());
    }
}
