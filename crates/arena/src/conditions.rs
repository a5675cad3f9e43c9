//! Owns [`Conditions`]: who may join an Arena (a team, a password, a rating
//! range, a minimum of rated games) and the check of one entrant against
//! them, each refusal saying why.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The lowest rating a rating condition may name.
pub const MIN_RATING_BOUND: u16 = 400;
/// The highest rating a rating condition may name.
pub const MAX_RATING_BOUND: u16 = 3500;
/// The longest password, in characters.
pub const MAX_PASSWORD_CHARS: usize = 100;
/// The longest team id, in characters.
pub const MAX_TEAM_CHARS: usize = 100;

/// Why a set of conditions was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConditionsError {
    /// The team id is empty or blank.
    #[error("the team condition names no team")]
    EmptyTeam,
    /// The team id is longer than [`MAX_TEAM_CHARS`].
    #[error("the team id is {0} characters; at most {MAX_TEAM_CHARS} are allowed")]
    TeamTooLong(usize),
    /// The password is empty.
    #[error("the password is empty")]
    EmptyPassword,
    /// The password is longer than [`MAX_PASSWORD_CHARS`].
    #[error("the password is {0} characters; at most {MAX_PASSWORD_CHARS} are allowed")]
    PasswordTooLong(usize),
    /// A rating bound is outside [`MIN_RATING_BOUND`]..=[`MAX_RATING_BOUND`].
    #[error("the rating bound {0} is outside {MIN_RATING_BOUND}..={MAX_RATING_BOUND}")]
    RatingBoundOutOfRange(u16),
    /// The minimum rating is above the maximum.
    #[error("the minimum rating {min} is above the maximum rating {max}")]
    RatingRangeEmpty {
        /// The minimum asked for.
        min: u16,
        /// The maximum asked for.
        max: u16,
    },
}

/// Who may join, as asked for (unchecked). Every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionsDraft {
    /// Only members of this team.
    pub team: Option<String>,
    /// Only those who know this password.
    pub password: Option<String>,
    /// Only players rated at least this.
    pub min_rating: Option<u16>,
    /// Only players rated at most this.
    pub max_rating: Option<u16>,
    /// Only players with at least this many rated games at the speed.
    pub min_rated_games: Option<u16>,
}

/// Validated entry conditions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Conditions {
    team: Option<String>,
    #[serde(skip)]
    password: Option<String>,
    min_rating: Option<u16>,
    max_rating: Option<u16>,
    min_rated_games: Option<u16>,
}

/// What is known of a player who asks to join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrant<'a> {
    /// The player's rating at the Arena's speed.
    pub rating: u16,
    /// Rated games the player has finished at that speed.
    pub rated_games: u32,
    /// Whether the player is a member of the condition's team (ignored when
    /// there is no team condition).
    pub in_team: bool,
    /// The password the player typed, if any.
    pub password: Option<&'a str>,
}

/// Why an entrant may not join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum EntryRefusal {
    /// Not a member of the Arena's team.
    #[error("only members of the tournament's team may join")]
    NotInTeam,
    /// No password or the wrong one.
    #[error("the password is wrong")]
    WrongPassword,
    /// Rated below the minimum.
    #[error("your rating {rating} is below the minimum {min}")]
    RatingTooLow {
        /// The entrant's rating.
        rating: u16,
        /// The minimum.
        min: u16,
    },
    /// Rated above the maximum.
    #[error("your rating {rating} is above the maximum {max}")]
    RatingTooHigh {
        /// The entrant's rating.
        rating: u16,
        /// The maximum.
        max: u16,
    },
    /// Too few rated games.
    #[error("you have {games} rated games; {min} are needed")]
    TooFewRatedGames {
        /// The entrant's rated games.
        games: u32,
        /// The minimum.
        min: u16,
    },
}

impl ConditionsDraft {
    /// Checks the draft and returns the conditions, or why they are refused.
    pub fn validate(self) -> Result<Conditions, ConditionsError> {
        let team = self.team.map(check_team).transpose()?;
        let password = self.password.map(check_password).transpose()?;
        for bound in [self.min_rating, self.max_rating].into_iter().flatten() {
            if !(MIN_RATING_BOUND..=MAX_RATING_BOUND).contains(&bound) {
                return Err(ConditionsError::RatingBoundOutOfRange(bound));
            }
        }
        if let (Some(min), Some(max)) = (self.min_rating, self.max_rating)
            && min > max
        {
            return Err(ConditionsError::RatingRangeEmpty { min, max });
        }
        Ok(Conditions {
            team,
            password,
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            min_rated_games: self.min_rated_games,
        })
    }
}

fn check_team(team: String) -> Result<String, ConditionsError> {
    let team = team.trim().to_owned();
    match team.chars().count() {
        0 => Err(ConditionsError::EmptyTeam),
        n if n > MAX_TEAM_CHARS => Err(ConditionsError::TeamTooLong(n)),
        _ => Ok(team),
    }
}

fn check_password(password: String) -> Result<String, ConditionsError> {
    match password.chars().count() {
        0 => Err(ConditionsError::EmptyPassword),
        n if n > MAX_PASSWORD_CHARS => Err(ConditionsError::PasswordTooLong(n)),
        _ => Ok(password),
    }
}

impl Conditions {
    /// The team whose members alone may join, if any.
    pub fn team(&self) -> Option<&str> {
        self.team.as_deref()
    }

    /// Whether a password is needed.
    pub fn has_password(&self) -> bool {
        self.password.is_some()
    }

    /// Whether `entrant` may join, or the first condition it fails.
    pub fn admit(&self, entrant: &Entrant<'_>) -> Result<(), EntryRefusal> {
        if self.team.is_some() && !entrant.in_team {
            return Err(EntryRefusal::NotInTeam);
        }
        if let Some(pw) = &self.password
            && entrant.password != Some(pw.as_str())
        {
            return Err(EntryRefusal::WrongPassword);
        }
        self.admit_rating(entrant)
    }

    fn admit_rating(&self, entrant: &Entrant<'_>) -> Result<(), EntryRefusal> {
        let rating = entrant.rating;
        if let Some(min) = self.min_rating.filter(|&m| rating < m) {
            return Err(EntryRefusal::RatingTooLow { rating, min });
        }
        if let Some(max) = self.max_rating.filter(|&m| rating > m) {
            return Err(EntryRefusal::RatingTooHigh { rating, max });
        }
        match self.min_rated_games {
            Some(min) if entrant.rated_games < u32::from(min) => {
                Err(EntryRefusal::TooFewRatedGames {
                    games: entrant.rated_games,
                    min,
                })
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(rating: u16) -> Entrant<'static> {
        Entrant {
            rating,
            rated_games: 30,
            in_team: true,
            password: Some("pw"),
        }
    }

    #[test]
    fn refusals_name_the_condition() {
        let bad = |d: ConditionsDraft| d.validate().unwrap_err();
        let team = ConditionsDraft {
            team: Some("  ".into()),
            ..Default::default()
        };
        assert_eq!(bad(team), ConditionsError::EmptyTeam);
        let pw = ConditionsDraft {
            password: Some(String::new()),
            ..Default::default()
        };
        assert_eq!(bad(pw), ConditionsError::EmptyPassword);
        let range = ConditionsDraft {
            min_rating: Some(2000),
            max_rating: Some(1500),
            ..Default::default()
        };
        assert_eq!(
            bad(range),
            ConditionsError::RatingRangeEmpty {
                min: 2000,
                max: 1500
            }
        );
        let low = ConditionsDraft {
            min_rating: Some(100),
            ..Default::default()
        };
        assert_eq!(bad(low), ConditionsError::RatingBoundOutOfRange(100));
    }

    #[test]
    fn admission_checks_each_condition() {
        let c = ConditionsDraft {
            team: Some("club".into()),
            password: Some("pw".into()),
            min_rating: Some(1200),
            max_rating: Some(1800),
            min_rated_games: Some(20),
        }
        .validate()
        .unwrap();
        assert_eq!(c.admit(&entrant(1500)), Ok(()));
        assert_eq!(
            c.admit(&entrant(1100)),
            Err(EntryRefusal::RatingTooLow {
                rating: 1100,
                min: 1200
            })
        );
        assert_eq!(
            c.admit(&entrant(1900)),
            Err(EntryRefusal::RatingTooHigh {
                rating: 1900,
                max: 1800
            })
        );
        let outsider = Entrant {
            in_team: false,
            ..entrant(1500)
        };
        assert_eq!(c.admit(&outsider), Err(EntryRefusal::NotInTeam));
        let guesser = Entrant {
            password: Some("x"),
            ..entrant(1500)
        };
        assert_eq!(c.admit(&guesser), Err(EntryRefusal::WrongPassword));
        let novice = Entrant {
            rated_games: 3,
            ..entrant(1500)
        };
        assert_eq!(
            c.admit(&novice),
            Err(EntryRefusal::TooFewRatedGames { games: 3, min: 20 })
        );
        assert_eq!(Conditions::default().admit(&entrant(900)), Ok(()));
    }
}
