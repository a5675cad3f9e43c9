//! The actions a moderator takes on a player, and their undo: each
//! [`Action`] is taken with `POST /api/mod/user/{name}/{action}` and
//! lifted with `DELETE` on the same path. Mute, close and engine are
//! stored [`Mark`]s on the account; a warning is a message the player
//! reads on their next page (lifting it withdraws it while unread).

use serde::{Deserialize, Serialize};

use crate::error::Refusal;

/// The longest reason a moderator gives (or warning text), in characters.
pub const MAX_WHY_CHARS: usize = 1000;

/// A moderation action on a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Shadow mute: the player's later chat lines are seen by nobody but
    /// themselves.
    Mute,
    /// A message from the moderators, shown on the player's next page.
    Warn,
    /// The account is closed: log-in refused, sessions and tokens
    /// revoked, ongoing games resigned.
    Close,
    /// Engine mark: the player leaves leaderboards and podiums.
    Engine,
}

/// A stored mark on an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Shadow-muted.
    Mute,
    /// Closed by the moderators.
    Close,
    /// Marked as an engine user.
    Engine,
}

impl Mark {
    /// Every mark.
    pub const ALL: [Mark; 3] = [Mark::Mute, Mark::Close, Mark::Engine];

    /// The mark's name as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Mute => "mute",
            Mark::Close => "close",
            Mark::Engine => "engine",
        }
    }

    /// The mark named `s` (as stored).
    pub fn parse(s: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 4] = [Action::Mute, Action::Warn, Action::Close, Action::Engine];

    /// The action's name: its path segment and its entry in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Mute => "mute",
            Action::Warn => "warn",
            Action::Close => "close",
            Action::Engine => "engine",
        }
    }

    /// The action named by path segment `s`.
    ///
    /// # Errors
    /// [`Refusal::Invalid`] for any other name.
    pub fn parse(s: &str) -> Result<Action, Refusal> {
        Action::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| {
                Refusal::Invalid(format!(
                    "the actions are mute, warn, close and engine (not {s:?})"
                ))
            })
    }

    /// The mark the action sets (`None` for a warning, which is a message).
    pub fn mark(self) -> Option<Mark> {
        match self {
            Action::Mute => Some(Mark::Mute),
            Action::Warn => None,
            Action::Close => Some(Mark::Close),
            Action::Engine => Some(Mark::Engine),
        }
    }

    /// The log's name of the action (`lifted`: of its undo).
    pub fn log_name(self, lifted: bool) -> &'static str {
        match (self, lifted) {
            (a, false) => a.as_str(),
            (Action::Mute, true) => "unmute",
            (Action::Warn, true) => "unwarn",
            (Action::Close, true) => "reopen",
            (Action::Engine, true) => "unengine",
        }
    }

    /// Whether taking it needs a text: a warning is its text.
    pub fn needs_text(self) -> bool {
        self == Action::Warn
    }
}

/// A moderator's reason (or a warning's text), trimmed: at most
/// [`MAX_WHY_CHARS`] characters, no control characters but line breaks
/// and tabs; empty only when not `required`.
///
/// # Errors
/// [`Refusal::Invalid`] for a missing required text, an over-long one or
/// one with control characters.
pub fn check_why(text: Option<&str>, required: bool) -> Result<String, Refusal> {
    let text = text.unwrap_or("").trim();
    if text.is_empty() && required {
        return Err(Refusal::Invalid("a warning needs its text (reason)".into()));
    }
    let chars = text.chars().count();
    if chars > MAX_WHY_CHARS {
        return Err(Refusal::Invalid(format!(
            "a reason has at most {MAX_WHY_CHARS} characters (this one has {chars})"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(Refusal::Invalid(
            "a reason cannot hold control characters".into(),
        ));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_and_name_their_undo() {
        for a in Action::ALL {
            assert_eq!(Action::parse(a.as_str()), Ok(a));
            assert_ne!(a.log_name(false), a.log_name(true));
        }
        assert!(Action::parse("ban").is_err());
        assert_eq!(Action::Close.log_name(true), "reopen");
        assert_eq!(Action::Warn.mark(), None);
        assert_eq!(Action::Engine.mark(), Some(Mark::Engine));
        for m in Mark::ALL {
            assert_eq!(Mark::parse(m.as_str()), Some(m));
        }
        assert_eq!(Mark::parse("warn"), None);
    }

    #[test]
    fn reasons_are_bounded() {
        assert_eq!(check_why(None, false).unwrap(), "");
        assert!(check_why(Some("  "), true).is_err());
        assert_eq!(
            check_why(Some(" spam\nin chat "), true).unwrap(),
            "spam\nin chat"
        );
        assert!(check_why(Some(&"x".repeat(MAX_WHY_CHARS + 1)), false).is_err());
        assert!(check_why(Some(&"é".repeat(MAX_WHY_CHARS)), false).is_ok());
        assert!(check_why(Some("a\u{7}b"), false).is_err());
    }
}
