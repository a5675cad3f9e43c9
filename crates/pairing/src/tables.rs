//! Tables: opening one, its short code, sitting down, the lobby's list, and
//! the table's JSON (`docs/protocol.md`, "Tables").
//!
//! The games played at a table are live games like any other (see
//! `plyyard_live`); this module owns only what happens before and around
//! them: codes, seats, expiry and the lobby.

use std::time::Duration;

use plyyard_game::{RuleSet, TimeControl, Variant};
use rand::Rng;
use serde::{Deserialize, Serialize};

use plyyard_store::{TableRow, TableStatus};
use plyyard_wire::error::ApiError;
use plyyard_wire::protocol::ClockRequest;

/// Characters of a table code: no 0/O, no 1/I/L, so a code read aloud or
/// copied by hand comes out right.
pub const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/// Length of a table code.
pub const CODE_LEN: usize = 6;
/// An unjoined table closes after this long.
pub const OPEN_FOR: Duration = Duration::from_secs(600);
/// Open tables one player may have at once.
pub const MAX_OPEN: u64 = 3;

/// A new random table code.
pub fn new_code() -> String {
    let mut rng = rand::rng();
    (0..CODE_LEN)
        .map(|_| char::from(CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())]))
        .collect()
}

/// The code as stored (upper case), if `input` can be one; spaces and
/// dashes people type are ignored.
///
/// # Examples
/// ```
/// use plyyard_pairing::tables::normalize_code;
/// assert_eq!(normalize_code(" k7m-3qx ").as_deref(), Some("K7M3QX"));
/// assert_eq!(normalize_code("K7M3Q0"), None); // 0 is never used
/// ```
pub fn normalize_code(input: &str) -> Option<String> {
    let code: String = input
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// Body of `POST /api/tables`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// Variant of the games.
    #[serde(default)]
    pub variant: Variant,
    /// Base time per player, minutes: 0.5, 0.75, 1, 1.5 or whole minutes
    /// up to 180.
    pub minutes: f64,
    /// Increment per move, seconds (0–180).
    pub increment: u32,
    /// Rule set.
    #[serde(default)]
    pub rules: RuleSet,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// Listed in the lobby.
    #[serde(default = "yes")]
    pub public: bool,
}

fn yes() -> bool {
    true
}

impl NewTable {
    /// The time control asked for.
    ///
    /// # Errors
    /// `bad_request` for a base that is not 0.5, 0.75, 1, 1.5 or whole
    /// minutes up to 180, or an increment over 180 s.
    pub fn time_control(&self) -> Result<TimeControl, ApiError> {
        ClockRequest {
            minutes: self.minutes,
            increment: self.increment,
        }
        .time_control()
    }
}

/// A base time in seconds as the API's `minutes`: a whole number when it
/// is whole minutes, else a decimal (`0.5`, `0.75`, `1.5`).
pub fn minutes_json(base_s: u32) -> serde_json::Number {
    if base_s.is_multiple_of(60) {
        serde_json::Number::from(base_s / 60)
    } else {
        serde_json::Number::from_f64(f64::from(base_s) / 60.0).unwrap_or_else(|| 0.into())
    }
}

/// Who opened a table, as the lobby shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostJson {
    /// Username.
    pub name: String,
    /// Rating at the table's speed.
    pub rating: i64,
    /// Whether that rating is still provisional.
    pub provisional: bool,
}

/// A table on the wire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableJson {
    /// The code.
    pub code: String,
    /// Its page.
    pub url: String,
    /// `open`, `playing` or `closed`.
    pub status: &'static str,
    /// Who opened it.
    pub host: HostJson,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// Base time per player, minutes (`5`, `0.5`).
    pub minutes: serde_json::Number,
    /// Increment, seconds.
    pub increment: u32,
    /// `plyyard` or `fide`.
    pub rules: &'static str,
    /// Rated or casual.
    pub rated: bool,
    /// Listed in the lobby.
    pub public: bool,
    /// `bullet`, `blitz`, `rapid` or `classical`.
    pub speed: &'static str,
    /// The current game, once two sit.
    pub game_id: Option<String>,
    /// Opening time, RFC 3339.
    pub created_at: String,
    /// When it closes if nobody sits, RFC 3339.
    pub expires_at: String,
}

impl TableJson {
    /// The JSON of `t`, hosted by `host`.
    pub fn new(t: &TableRow, host: HostJson) -> TableJson {
        let tc = TimeControl::from_secs(t.base_s, t.increment_s).ok();
        TableJson {
            code: t.code.clone(),
            url: format!("/t/{}", t.code),
            status: t.status.as_str(),
            host,
            variant: t.variant.as_str(),
            minutes: minutes_json(t.base_s),
            increment: t.increment_s,
            rules: t.rules.as_str(),
            rated: t.rated,
            public: t.public,
            speed: tc.map_or("rapid", |tc| tc.speed().as_str()),
            game_id: t.game_id.clone(),
            created_at: plyyard_live::rfc3339(t.created_at),
            expires_at: plyyard_live::rfc3339(t.expires_at),
        }
    }

    /// Whether the table is waiting for a player.
    pub fn is_open(&self) -> bool {
        self.status == TableStatus::Open.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_readable_and_normalised() {
        for _ in 0..200 {
            let c = new_code();
            assert_eq!(normalize_code(&c.to_lowercase()), Some(c.clone()));
            assert!(!c.contains(['0', 'O', '1', 'I', 'L']), "{c}");
        }
        assert_eq!(normalize_code("abc-def").as_deref(), Some("ABCDEF"));
        assert_eq!(normalize_code("ABCDE"), None);
        assert_eq!(normalize_code("ABCDEFG"), None);
        assert_eq!(normalize_code("ABCDE1"), None);
        assert_eq!(normalize_code("../../x"), None);
    }

    #[test]
    fn new_tables_are_validated() {
        let t: NewTable = serde_json::from_str(r#"{"minutes":5,"increment":3}"#).unwrap();
        assert!(t.public && !t.rated);
        assert!(t.time_control().is_ok());
        let slow: NewTable = serde_json::from_str(r#"{"minutes":181,"increment":3}"#).unwrap();
        assert!(slow.time_control().is_err());
        let half: NewTable = serde_json::from_str(r#"{"minutes":0.5,"increment":0}"#).unwrap();
        assert_eq!(half.time_control().unwrap().base_secs(), 30);
        let long: NewTable = serde_json::from_str(r#"{"minutes":90,"increment":30}"#).unwrap();
        assert_eq!(long.time_control().unwrap().base_secs(), 5400);
        for bad in [
            r#"{"minutes":0.3,"increment":0}"#,
            r#"{"minutes":-1,"increment":0}"#,
            r#"{"minutes":0.25,"increment":0}"#,
            r#"{"minutes":5,"increment":181}"#,
        ] {
            let t: NewTable = serde_json::from_str(bad).unwrap();
            let e = t.time_control().unwrap_err();
            assert!(e.message.contains("180"), "{bad}: {}", e.message);
        }
        assert_eq!(minutes_json(30).to_string(), "0.5");
        assert_eq!(minutes_json(45).to_string(), "0.75");
        assert_eq!(minutes_json(600).to_string(), "10");
        assert!(serde_json::from_str::<NewTable>(r#"{"minutes":5,"increment":3,"x":1}"#).is_err());
    }
}
