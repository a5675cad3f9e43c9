//! The site's settings, which admins change: its name, how to reach whoever
//! runs it, and who may sign up ([`Signups`]: anyone, by invitation, or
//! nobody). Stored as name–value pairs ([`SiteSettings::pairs`]); a value
//! missing from the store takes its default.

use serde::{Deserialize, Serialize};

use crate::error::Refusal;

/// The longest site name, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// The longest contact text, in characters.
pub const MAX_CONTACT_CHARS: usize = 200;
/// The name of a site whose admins never named it.
pub const DEFAULT_NAME: &str = "Ply Yard";
/// The characters of an invitation code.
pub const INVITE_LEN: usize = 16;

/// Who may create an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Signups {
    /// Anyone.
    #[default]
    Open,
    /// Whoever has an unused invitation code from an admin.
    Invite,
    /// Nobody.
    Closed,
}

impl Signups {
    /// Its name as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Signups::Open => "open",
            Signups::Invite => "invite",
            Signups::Closed => "closed",
        }
    }

    /// The mode named `s`.
    ///
    /// # Errors
    /// [`Refusal::Invalid`] for any other name.
    pub fn parse(s: &str) -> Result<Signups, Refusal> {
        [Signups::Open, Signups::Invite, Signups::Closed]
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                Refusal::Invalid(format!("signups is open, invite or closed (not {s:?})"))
            })
    }
}

/// The site's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteSettings {
    /// The site's name, shown in the header and page titles.
    pub name: String,
    /// How to reach whoever runs the site (an address, a page), shown on
    /// the sign-up and log-in pages; may be empty.
    pub contact: String,
    /// Who may sign up.
    pub signups: Signups,
}

impl Default for SiteSettings {
    fn default() -> SiteSettings {
        SiteSettings {
            name: DEFAULT_NAME.to_owned(),
            contact: String::new(),
            signups: Signups::Open,
        }
    }
}

fn one_line(what: &str, text: &str, max: usize) -> Result<String, Refusal> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars > max {
        return Err(Refusal::Invalid(format!(
            "the {what} has at most {max} characters (this one has {chars})"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(Refusal::Invalid(format!(
            "the {what} is one line, without control characters"
        )));
    }
    Ok(text.to_owned())
}

impl SiteSettings {
    /// Settings an admin asked for, checked and trimmed: a name of 1 to
    /// [`MAX_NAME_CHARS`] characters, a contact of at most
    /// [`MAX_CONTACT_CHARS`], each on one line.
    ///
    /// # Errors
    /// [`Refusal::Invalid`] for an empty or over-long name, an over-long
    /// contact, or control characters in either.
    pub fn checked(name: &str, contact: &str, signups: Signups) -> Result<SiteSettings, Refusal> {
        let name = one_line("site name", name, MAX_NAME_CHARS)?;
        if name.is_empty() {
            return Err(Refusal::Invalid("the site needs a name".into()));
        }
        Ok(SiteSettings {
            name,
            contact: one_line("contact", contact, MAX_CONTACT_CHARS)?,
            signups,
        })
    }

    /// The settings as stored: `(name, value)` pairs.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("name", self.name.clone()),
            ("contact", self.contact.clone()),
            ("signups", self.signups.as_str().to_owned()),
        ]
    }

    /// The settings from stored pairs; a missing or unreadable value takes
    /// its default.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> SiteSettings {
        let mut s = SiteSettings::default();
        for (k, v) in pairs {
            match k {
                "name" if !v.trim().is_empty() => s.name = v.to_owned(),
                "contact" => s.contact = v.to_owned(),
                "signups" => s.signups = Signups::parse(v).unwrap_or_default(),
                _ => {}
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_and_round_trip() {
        let s =
            SiteSettings::checked("  Chess Club  ", "mail@example.org", Signups::Invite).unwrap();
        assert_eq!(s.name, "Chess Club");
        let pairs = s.pairs();
        let back = SiteSettings::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
        assert_eq!(back, s);
        assert!(SiteSettings::checked(" ", "", Signups::Open).is_err());
        assert!(SiteSettings::checked(&"n".repeat(MAX_NAME_CHARS + 1), "", Signups::Open).is_err());
        assert!(
            SiteSettings::checked("ok", &"c".repeat(MAX_CONTACT_CHARS + 1), Signups::Open).is_err()
        );
        assert!(SiteSettings::checked("two\nlines", "", Signups::Open).is_err());
        assert!(SiteSettings::checked(&"é".repeat(MAX_NAME_CHARS), "", Signups::Closed).is_ok());
    }

    #[test]
    fn missing_or_bad_values_take_their_defaults() {
        assert_eq!(SiteSettings::from_pairs([]), SiteSettings::default());
        let s = SiteSettings::from_pairs([("signups", "sometimes"), ("name", "")]);
        assert_eq!(s, SiteSettings::default());
    }

    #[test]
    fn modes_parse() {
        for m in [Signups::Open, Signups::Invite, Signups::Closed] {
            assert_eq!(Signups::parse(m.as_str()), Ok(m));
        }
        assert!(Signups::parse("Open").is_err());
    }
}
