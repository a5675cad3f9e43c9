//! Quick pairing on the wire: the body of `POST /api/seeks`, a seek as the
//! lobby shows it, and the answer once paired.

use plyyard_game::{TimeControl, Variant};
use serde::{Deserialize, Serialize};

use crate::pool::{PoolKey, Seek};
use plyyard_wire::error::ApiError;

/// Body of `POST /api/seeks`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewSeek {
    /// `standard` (default) or `chess960`.
    #[serde(default)]
    pub variant: Variant,
    /// Minutes per player: one of the presets'.
    pub minutes: u32,
    /// Increment per move, seconds: one of the presets'.
    pub increment: u32,
    /// Rated or casual (default casual, as tables).
    #[serde(default)]
    pub rated: bool,
}

impl NewSeek {
    /// What the seek asks for.
    ///
    /// # Errors
    /// `bad_request` naming the presets when the time control is not one.
    pub fn key(&self) -> Result<PoolKey, ApiError> {
        let preset = TimeControl::PRESETS.iter().any(|tc| {
            tc.base_secs() == self.minutes.saturating_mul(60)
                && tc.increment_secs() == self.increment
        });
        if !preset {
            let offered: Vec<String> = TimeControl::PRESETS
                .iter()
                .map(TimeControl::to_string)
                .collect();
            return Err(ApiError::bad_request(format!(
                "quick pairing offers {}; {}+{} is not one of them",
                offered.join(", "),
                self.minutes,
                self.increment
            )));
        }
        Ok(PoolKey {
            variant: self.variant,
            minutes: self.minutes,
            increment: self.increment,
            rated: self.rated,
        })
    }
}

/// The speed of a pool's games (`bullet`, `blitz`, `rapid`, `classical`).
pub fn speed_of(key: &PoolKey) -> ::plyyard_game::Speed {
    TimeControl::table(key.minutes, key.increment)
        .map_or(::plyyard_game::Speed::Rapid, |tc| tc.speed())
}

/// A waiting seek as the lobby shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeekJson {
    /// Its number.
    pub id: u64,
    /// The seeker's name.
    pub name: String,
    /// The seeker's rating at the seek's speed.
    pub rating: i64,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// Rated or casual.
    pub rated: bool,
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: &'static str,
}

impl From<&Seek> for SeekJson {
    fn from(s: &Seek) -> SeekJson {
        SeekJson {
            id: s.id.0,
            name: s.name.clone(),
            rating: s.rating,
            provisional: s.provisional,
            variant: s.key.variant.as_str(),
            minutes: s.key.minutes,
            increment: s.key.increment,
            rated: s.key.rated,
            speed: speed_of(&s.key).as_str(),
        }
    }
}

/// The answer of `POST /api/seeks` once paired: the new game and where it
/// is played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairedJson {
    /// The game's id.
    pub game_id: String,
    /// The code of the table it is played at.
    pub code: String,
    /// The table's page.
    pub url: String,
    /// The seeker's colour: `white` or `black`.
    pub color: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_presets_are_sought() {
        let s: NewSeek = serde_json::from_str(r#"{"minutes":3,"increment":2}"#).unwrap();
        let key = s.key().unwrap();
        assert!(!key.rated && key.variant == Variant::Standard);
        let s: NewSeek = serde_json::from_str(
            r#"{"minutes":30,"increment":20,"variant":"chess960","rated":true}"#,
        )
        .unwrap();
        assert_eq!(speed_of(&s.key().unwrap()).as_str(), "classical");
        let bullet: NewSeek = serde_json::from_str(r#"{"minutes":1,"increment":0}"#).unwrap();
        assert_eq!(speed_of(&bullet.key().unwrap()).as_str(), "bullet");
        let huge: NewSeek =
            serde_json::from_str(r#"{"minutes":4294967295,"increment":0}"#).unwrap();
        assert!(huge.key().is_err());
        let odd: NewSeek = serde_json::from_str(r#"{"minutes":4,"increment":2}"#).unwrap();
        let e = odd.key().unwrap_err();
        assert!(
            e.message.contains("1+0, 2+1, 3+2, 5+3, 10+5, 15+10, 30+20"),
            "{}",
            e.message
        );
        assert!(
            serde_json::from_str::<NewSeek>(r#"{"minutes":3,"increment":2,"variant":"atomic"}"#)
                .is_err()
        );
        assert!(serde_json::from_str::<NewSeek>(r#"{"minutes":3,"increment":2,"x":1}"#).is_err());
    }
}
