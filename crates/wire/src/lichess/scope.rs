//! OAuth scopes of the Lichess-compatible API: the ones Ply Yard grants,
//! spelled as lichess spells them, and lists of them as tokens carry them.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// A permission a token may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Read the account's preferences.
    PreferenceRead,
    /// Read incoming challenges (and the event stream).
    ChallengeRead,
    /// Create, accept, decline and cancel challenges.
    ChallengeWrite,
    /// Play games with the Board API.
    BoardPlay,
    /// Play games with the Bot API (bot accounts).
    BotPlay,
    /// Read club (team) information, members and requests.
    TeamRead,
    /// Join and leave clubs.
    TeamWrite,
    /// Lead clubs: answer requests, kick members, make leaders.
    TeamLead,
    /// Create, join and manage tournaments.
    TournamentWrite,
    /// Read puzzle activity and dashboards.
    PuzzleRead,
    /// Solve puzzles (rated) through the API.
    PuzzleWrite,
    /// Read the players the account follows.
    FollowRead,
    /// Follow, unfollow, block and unblock players.
    FollowWrite,
    /// Send private messages (and read the inbox).
    MsgWrite,
}

impl Scope {
    /// Every scope, in display order.
    pub const ALL: [Scope; 14] = [
        Scope::PreferenceRead,
        Scope::ChallengeRead,
        Scope::ChallengeWrite,
        Scope::BoardPlay,
        Scope::BotPlay,
        Scope::TeamRead,
        Scope::TeamWrite,
        Scope::TeamLead,
        Scope::TournamentWrite,
        Scope::PuzzleRead,
        Scope::PuzzleWrite,
        Scope::FollowRead,
        Scope::FollowWrite,
        Scope::MsgWrite,
    ];

    /// Lichess's name of the scope (`board:play`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::PreferenceRead => "preference:read",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
            Scope::BoardPlay => "board:play",
            Scope::BotPlay => "bot:play",
            Scope::TeamRead => "team:read",
            Scope::TeamWrite => "team:write",
            Scope::TeamLead => "team:lead",
            Scope::TournamentWrite => "tournament:write",
            Scope::PuzzleRead => "puzzle:read",
            Scope::PuzzleWrite => "puzzle:write",
            Scope::FollowRead => "follow:read",
            Scope::FollowWrite => "follow:write",
            Scope::MsgWrite => "msg:write",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scope name Ply Yard does not grant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown scope {0:?}: known scopes are preference:read, challenge:read, challenge:write, board:play, bot:play, team:read, team:write, team:lead, tournament:write, puzzle:read, puzzle:write"
)]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;

    fn from_str(s: &str) -> Result<Scope, UnknownScope> {
        Scope::ALL
            .into_iter()
            .find(|sc| sc.as_str() == s)
            .ok_or_else(|| UnknownScope(s.chars().take(40).collect()))
    }
}

/// A set of scopes; shown comma-separated in a fixed order, as lichess's
/// token test shows them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(BTreeSet<Scope>);

impl Scopes {
    /// Parses names separated by commas and/or spaces (OAuth requests use
    /// spaces, stored tokens commas); empty parts are skipped.
    ///
    /// # Errors
    /// The first unknown name.
    ///
    /// # Examples
    /// ```
    /// use plyyard_wire::lichess::{Scope, Scopes};
    /// let s = Scopes::parse("bot:play, challenge:read").unwrap();
    /// assert!(s.contains(Scope::BotPlay));
    /// assert_eq!(s.to_string(), "challenge:read,bot:play");
    /// assert!(Scopes::parse("board:play web:mod").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Scopes, UnknownScope> {
        s.split([',', ' '])
            .filter(|p| !p.is_empty())
            .map(Scope::from_str)
            .collect::<Result<BTreeSet<_>, _>>()
            .map(Scopes)
    }

    /// The set of `scopes`.
    pub fn of(scopes: impl IntoIterator<Item = Scope>) -> Scopes {
        Scopes(scopes.into_iter().collect())
    }

    /// Whether `scope` is in the set.
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// Whether the set holds any of `wanted`.
    pub fn any_of(&self, wanted: &[Scope]) -> bool {
        wanted.iter().any(|s| self.contains(*s))
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The scopes, in order.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(s.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_ones_are_refused() {
        for s in Scope::ALL {
            assert_eq!(s.as_str().parse::<Scope>(), Ok(s));
        }
        assert!("Board:Play".parse::<Scope>().is_err());
        let all = Scopes::of(Scope::ALL);
        assert_eq!(Scopes::parse(&all.to_string()), Ok(all.clone()));
        assert_eq!(Scopes::parse(" , "), Ok(Scopes::default()));
        let err = Scopes::parse(&format!("bot:play,{}", "x".repeat(1000))).unwrap_err();
        assert_eq!(err.0.len(), 40);
    }
}
