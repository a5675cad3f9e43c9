//! What a club's name, description and a request's message may be, and
//! a club's id, made from its name as lichess makes team ids
//! (`"Club d'échecs de Lyon"` → `club-d-echecs-de-lyon`).

use plyyard_social::text::spoofing;

use crate::error::ClubError;

/// Characters a club's name has at least.
pub const MIN_NAME: usize = 3;
/// Characters a club's name has at most.
pub const MAX_NAME: usize = 60;
/// Characters a description has at most.
pub const MAX_DESCRIPTION: usize = 4_000;
/// Characters a request's message has at most (lichess's bound).
pub const MAX_MESSAGE: usize = 2_000;
/// Characters an id has at most (its name's slug is cut there).
pub const MAX_ID: usize = 40;

/// A club's name, trimmed and checked.
///
/// # Errors
/// [`ClubError::Invalid`]: too short, too long, or with control or
/// invisible characters.
pub fn check_name(name: &str) -> Result<String, ClubError> {
    let name = name.trim();
    let n = name.chars().count();
    if !(MIN_NAME..=MAX_NAME).contains(&n) {
        return Err(ClubError::Invalid(format!(
            "a club's name has {MIN_NAME} to {MAX_NAME} characters (this one has {n})"
        )));
    }
    if name.chars().any(char::is_control) || spoofing(name).is_some() {
        return Err(ClubError::Invalid(
            "a club's name cannot hold control or invisible characters".to_owned(),
        ));
    }
    if make_id(name).is_none() {
        return Err(ClubError::Invalid(
            "a club's name needs at least one letter or digit".to_owned(),
        ));
    }
    Ok(name.to_owned())
}

/// Free text (a description, a message) of at most `max` characters,
/// trimmed; line breaks and tabs are kept, other control and invisible
/// characters refused.
fn check_text(what: &str, text: &str, max: usize) -> Result<String, ClubError> {
    let text = text.trim();
    let n = text.chars().count();
    if n > max {
        return Err(ClubError::Invalid(format!(
            "{what} has at most {max} characters (this one has {n})"
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || spoofing(text).is_some()
    {
        return Err(ClubError::Invalid(format!(
            "{what} cannot hold control or invisible characters"
        )));
    }
    Ok(text.to_owned())
}

/// A club's description, trimmed and checked (it may be empty).
///
/// # Errors
/// [`ClubError::Invalid`]: too long, or with control characters.
pub fn check_description(text: &str) -> Result<String, ClubError> {
    check_text("a description", text, MAX_DESCRIPTION)
}

/// A request's message, trimmed and checked: a closed club's leaders
/// decide on it, so it is not empty.
///
/// # Errors
/// [`ClubError::MessageNeeded`] when empty; [`ClubError::Invalid`] when
/// too long or with control characters.
pub fn check_message(text: &str) -> Result<String, ClubError> {
    let text = check_text("a request's message", text, MAX_MESSAGE)?;
    if text.is_empty() {
        return Err(ClubError::MessageNeeded);
    }
    Ok(text)
}

/// The id made from `name`: lower-case ASCII letters and digits joined by
/// single hyphens (other scripts transliterated), at most [`MAX_ID`]
/// characters; `None` when nothing is left.
pub fn make_id(name: &str) -> Option<String> {
    let slug = slug::slugify(name);
    let mut id: String = slug.chars().take(MAX_ID).collect();
    while id.ends_with('-') {
        id.pop();
    }
    (!id.is_empty()).then_some(id)
}

/// The `n`-th candidate id for `base` when the ones before were taken:
/// `base`, `base-2`, `base-3` …, each at most [`MAX_ID`] characters.
pub fn candidate_id(base: &str, n: u32) -> String {
    if n <= 1 {
        return base.to_owned();
    }
    let suffix = format!("-{n}");
    let keep = MAX_ID.saturating_sub(suffix.len());
    let mut head: String = base.chars().take(keep).collect();
    while head.ends_with('-') {
        head.pop();
    }
    format!("{head}{suffix}")
}

/// Ids no club gets: the words of the site's own club paths (`/team/new`,
/// `/api/team/all`, `/api/team/search`, `/api/team/of/…`).
pub const RESERVED_IDS: [&str; 4] = ["new", "all", "search", "of"];

/// Whether `id` is one of [`RESERVED_IDS`].
pub fn reserved(id: &str) -> bool {
    RESERVED_IDS.contains(&id)
}

/// Whether `id` could be a club's id (so that a request for anything else
/// is answered "no such club" without a look-up).
pub fn plausible_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_slugs_of_names_in_any_script() {
        assert_eq!(
            make_id("Club d'échecs de Lyon").as_deref(),
            Some("club-d-echecs-de-lyon")
        );
        assert_eq!(make_id("  Шахматы  ").as_deref(), Some("shakhmaty"));
        assert_eq!(make_id("!!!"), None);
        let long = make_id(&"ab ".repeat(40)).unwrap();
        assert!(long.len() <= MAX_ID && !long.ends_with('-'), "{long}");
        assert!(plausible_id(&long));
        assert_eq!(candidate_id("river", 1), "river");
        assert_eq!(candidate_id("river", 3), "river-3");
        let c = candidate_id(&"x".repeat(MAX_ID), 12);
        assert_eq!(c.len(), MAX_ID);
        assert!(c.ends_with("-12"));
        assert!(!plausible_id("Bad/Id"));
        assert!(reserved("new") && reserved("search") && !reserved("news"));
        assert!(!plausible_id(""));
    }

    #[test]
    fn names_descriptions_and_messages_are_bounded_and_visible() {
        assert_eq!(check_name("  The Rooks ").unwrap(), "The Rooks");
        assert!(check_name("ab").is_err());
        assert!(check_name(&"a".repeat(MAX_NAME + 1)).is_err());
        assert!(check_name("Rooks\u{202E}skooR").is_err());
        assert!(check_name("Rooks\tClub").is_err());
        assert!(check_name("???").is_err());
        assert_eq!(
            check_description("line one\nline two").unwrap(),
            "line one\nline two"
        );
        assert!(check_description(&"d".repeat(MAX_DESCRIPTION + 1)).is_err());
        assert!(check_description("zero\u{200B}width").is_err());
        assert!(matches!(
            check_message("   "),
            Err(ClubError::MessageNeeded)
        ));
        assert_eq!(check_message(" hello ").unwrap(), "hello");
        assert!(check_message(&"m".repeat(MAX_MESSAGE + 1)).is_err());
    }
}
