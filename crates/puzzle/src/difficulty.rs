//! Difficulty settings: the rating the trainer aims its puzzles at,
//! relative to the player's puzzle rating, as lichess's five steps.

use std::fmt;
use std::str::FromStr;

/// How hard the chosen puzzles should be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Difficulty {
    /// Player's rating − 600.
    Easiest,
    /// Player's rating − 300.
    Easier,
    /// The player's rating.
    #[default]
    Normal,
    /// Player's rating + 300.
    Harder,
    /// Player's rating + 600.
    Hardest,
}

/// A string that is no difficulty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown puzzle difficulty {0:?}")]
pub struct UnknownDifficulty(pub String);

impl Difficulty {
    /// The five settings, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easiest,
        Difficulty::Easier,
        Difficulty::Normal,
        Difficulty::Harder,
        Difficulty::Hardest,
    ];

    /// The setting's key (`easiest` … `hardest`).
    pub const fn key(self) -> &'static str {
        match self {
            Difficulty::Easiest => "easiest",
            Difficulty::Easier => "easier",
            Difficulty::Normal => "normal",
            Difficulty::Harder => "harder",
            Difficulty::Hardest => "hardest",
        }
    }

    /// The offset added to the player's rating.
    pub const fn rating_delta(self) -> i32 {
        match self {
            Difficulty::Easiest => -600,
            Difficulty::Easier => -300,
            Difficulty::Normal => 0,
            Difficulty::Harder => 300,
            Difficulty::Hardest => 600,
        }
    }

    /// The puzzle rating to aim at for a player rated `player_rating`.
    pub const fn target(self, player_rating: i32) -> i32 {
        player_rating + self.rating_delta()
    }
}

impl FromStr for Difficulty {
    type Err = UnknownDifficulty;

    fn from_str(s: &str) -> Result<Difficulty, UnknownDifficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.key() == s)
            .ok_or_else(|| UnknownDifficulty(s.to_owned()))
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_around_the_player() {
        let targets: Vec<i32> = Difficulty::ALL.iter().map(|d| d.target(1500)).collect();
        assert_eq!(targets, [900, 1200, 1500, 1800, 2100]);
        assert_eq!(Difficulty::default(), Difficulty::Normal);
    }

    #[test]
    fn keys_round_trip() {
        for d in Difficulty::ALL {
            assert_eq!(d.key().parse(), Ok(d));
        }
        assert!("hard".parse::<Difficulty>().is_err());
    }
}
