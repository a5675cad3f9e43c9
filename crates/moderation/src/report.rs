//! What a player's report holds: a [`Reason`] among lichess's four and a
//! text telling what happened ([`check_report_text`]). Who may be
//! reported (not oneself, only an existing account) is checked by
//! [`check_reported`].

use serde::{Deserialize, Serialize};

use crate::error::Refusal;

/// The longest report text, in characters (10 KB of text is refused).
pub const MAX_REPORT_CHARS: usize = 3000;

/// Why a player is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// Engine assistance.
    Cheat,
    /// Rating manipulation (losing on purpose, farming a friend).
    Boost,
    /// Insults, harassment, spam.
    Abuse,
    /// Anything else.
    Other,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 4] = [Reason::Cheat, Reason::Boost, Reason::Abuse, Reason::Other];

    /// The reason's name as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Cheat => "cheat",
            Reason::Boost => "boost",
            Reason::Abuse => "abuse",
            Reason::Other => "other",
        }
    }

    /// The reason named `s`.
    ///
    /// # Errors
    /// [`Refusal::Invalid`] for any other name.
    pub fn parse(s: &str) -> Result<Reason, Refusal> {
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                Refusal::Invalid(format!(
                    "reason is cheat, boost, abuse or other (not {s:?})"
                ))
            })
    }
}

/// A report's text, trimmed: 1 to [`MAX_REPORT_CHARS`] characters, no
/// control characters but line breaks and tabs.
///
/// # Errors
/// [`Refusal::Invalid`] for an empty text, an over-long one or one with
/// control characters.
pub fn check_report_text(text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refusal::Invalid(
            "a report needs a text telling what happened".into(),
        ));
    }
    let chars = text.chars().count();
    if chars > MAX_REPORT_CHARS {
        return Err(Refusal::Invalid(format!(
            "a report has at most {MAX_REPORT_CHARS} characters (this one has {chars})"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(Refusal::Invalid(
            "a report cannot hold control characters".into(),
        ));
    }
    Ok(text.to_owned())
}

/// Whether `reporter` may report `reported` (both account ids).
///
/// # Errors
/// [`Refusal::Invalid`] for a report of oneself.
pub fn check_reported(reporter: &str, reported: &str) -> Result<(), Refusal> {
    if reporter == reported {
        return Err(Refusal::Invalid("you cannot report yourself".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_parse() {
        for r in Reason::ALL {
            assert_eq!(Reason::parse(r.as_str()), Ok(r));
        }
        assert!(Reason::parse("spam").is_err());
        assert!(Reason::parse("Cheat").is_err());
    }

    #[test]
    fn texts_are_bounded() {
        assert_eq!(
            check_report_text("  he used an engine ").unwrap(),
            "he used an engine"
        );
        assert!(check_report_text(" \n ").is_err());
        assert!(check_report_text(&"x".repeat(10 * 1024)).is_err());
        assert!(check_report_text(&"ж".repeat(MAX_REPORT_CHARS)).is_ok());
        assert!(check_report_text("line one\nline two").is_ok());
        assert!(check_report_text("a\u{0}b").is_err());
    }

    #[test]
    fn nobody_reports_themselves() {
        assert!(check_reported("a", "a").is_err());
        assert!(check_reported("a", "b").is_ok());
    }
}
