//! The playing strengths offered to people ([`Level`]): their names,
//! parsing, and how long each thinks per move. How a level below Expert
//! chooses its move is in [`crate::level`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Playing strength offered to people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Plays like someone who has just learnt the moves.
    Beginner,
    /// A casual player.
    Easy,
    /// A club beginner.
    Normal,
    /// A solid club player.
    Hard,
    /// The engine's full strength.
    Expert,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Easy,
        Level::Normal,
        Level::Hard,
        Level::Expert,
    ];

    /// Wall-time budget per move the server should give this level.
    pub fn think_time(self) -> Duration {
        Duration::from_millis(match self {
            Level::Beginner => 200,
            Level::Easy => 300,
            Level::Normal => 500,
            Level::Hard => 1000,
            Level::Expert => 2000,
        })
    }

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that names no level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLevelError(pub String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {:?} (expected beginner, easy, normal, hard or expert)",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseLevelError(s.to_owned()))
    }
}
