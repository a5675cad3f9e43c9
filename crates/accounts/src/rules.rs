//! What makes a username and a password acceptable.
//!
//! Usernames: 3–20 characters of `[A-Za-z0-9_-]`, starting with a letter or
//! a digit. Passwords: 8–256 characters, not the username (in any case), and
//! scored 2 or more by the zxcvbn strength estimator.

use zxcvbn::feedback::Warning;

use plyyard_wire::error::{ApiError, ErrorCode};

/// Shortest username.
pub const USERNAME_MIN: usize = 3;
/// Longest username.
pub const USERNAME_MAX: usize = 20;
/// Shortest password, in characters.
pub const PASSWORD_MIN: usize = 8;
/// Longest password, in characters.
pub const PASSWORD_MAX: usize = 256;

/// Checks a username for sign-up.
///
/// # Errors
/// `invalid_username` with reason `length`, `characters` or `start`.
///
/// # Examples
/// ```
/// use plyyard_accounts::rules::check_username;
/// assert!(check_username("Magnus_1").is_ok());
/// assert_eq!(check_username("_x1").unwrap_err().reason, Some("start"));
/// assert_eq!(check_username("ab").unwrap_err().reason, Some("length"));
/// ```
pub fn check_username(name: &str) -> Result<(), ApiError> {
    let invalid = |reason, message: &str| {
        Err(ApiError::new(ErrorCode::InvalidUsername, message).with_reason(reason))
    };
    let len = name.chars().count();
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&len) {
        return invalid("length", "a username has 3 to 20 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return invalid(
            "characters",
            "a username uses only letters A-Z, digits, _ and -",
        );
    }
    if !name.as_bytes()[0].is_ascii_alphanumeric() {
        return invalid("start", "a username starts with a letter or a digit");
    }
    Ok(())
}

/// Characters of a password the strength estimator looks at: its cost
/// grows faster than the length, and a longer password is judged by its
/// beginning.
pub const PASSWORD_SCORED: usize = 64;

fn weak(reason: &'static str, message: &str) -> ApiError {
    ApiError::new(ErrorCode::WeakPassword, message).with_reason(reason)
}

/// Checks a new password of `username`: [`check_password_form`], then
/// [`score_password`].
///
/// # Errors
/// `weak_password` with a reason: `too_short`, `too_long`,
/// `same_as_username`, or what makes it guessable (`common`, `sequence`,
/// `repeat`, `keyboard`, `dates`, `names`, `guessable`), with the
/// estimator's suggestions.
pub fn check_password(password: &str, username: &str) -> Result<(), ApiError> {
    check_password_form(password, username)?;
    score_password(password, username)
}

/// The cheap checks of a new password, done before any rate limit: its
/// length, and that it is not the username.
///
/// # Errors
/// `weak_password` with reason `too_short`, `too_long` or `same_as_username`.
pub fn check_password_form(password: &str, username: &str) -> Result<(), ApiError> {
    let len = password.chars().count();
    if len < PASSWORD_MIN {
        return Err(weak("too_short", "a password has at least 8 characters"));
    }
    if len > PASSWORD_MAX {
        return Err(weak("too_long", "a password has at most 256 characters"));
    }
    if password.to_lowercase() == username.to_lowercase() {
        return Err(weak(
            "same_as_username",
            "the password must not be the username",
        ));
    }
    Ok(())
}

/// Scores a new password with the zxcvbn estimator (its first
/// [`PASSWORD_SCORED`] characters): tens of milliseconds of CPU, so it runs
/// after the rate limits, on the hashing pool.
///
/// # Errors
/// `weak_password` with what makes it guessable (`common`, `sequence`,
/// `repeat`, `keyboard`, `dates`, `names`, `guessable`) and the estimator's
/// suggestions.
pub fn score_password(password: &str, username: &str) -> Result<(), ApiError> {
    let scored = match password.char_indices().nth(PASSWORD_SCORED) {
        Some((end, _)) => &password[..end],
        None => password,
    };
    let estimate = zxcvbn::zxcvbn(scored, &[username, "plyyard", "ply yard", "chess"]);
    if u8::from(estimate.score()) >= 2 {
        return Ok(());
    }
    let feedback = estimate.feedback();
    let warning = feedback.and_then(zxcvbn::feedback::Feedback::warning);
    let mut err = weak(
        warning.map_or("guessable", reason_of),
        &warning.map_or_else(
            || "this password is too easy to guess".to_owned(),
            |w| w.to_string(),
        ),
    );
    err.suggestions = feedback
        .map(|f| f.suggestions().iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    Err(err)
}

fn reason_of(w: Warning) -> &'static str {
    match w {
        Warning::StraightRowsOfKeysAreEasyToGuess
        | Warning::ShortKeyboardPatternsAreEasyToGuess => "keyboard",
        Warning::RepeatsLikeAaaAreEasyToGuess
        | Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess => "repeat",
        Warning::ThisIsATop10Password
        | Warning::ThisIsATop100Password
        | Warning::ThisIsACommonPassword
        | Warning::ThisIsSimilarToACommonlyUsedPassword
        | Warning::AWordByItselfIsEasyToGuess => "common",
        Warning::SequencesLikeAbcAreEasyToGuess => "sequence",
        Warning::RecentYearsAreEasyToGuess | Warning::DatesAreOftenEasyToGuess => "dates",
        Warning::NamesAndSurnamesByThemselvesAreEasyToGuess
        | Warning::CommonNamesAndSurnamesAreEasyToGuess => "names",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(r: Result<(), ApiError>) -> Option<&'static str> {
        r.unwrap_err().reason
    }

    #[test]
    fn usernames() {
        for ok in ["abc", "A_b-9", "9lives", "x".repeat(20).as_str(), "Zed-"] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        assert_eq!(reason(check_username("ab")), Some("length"));
        assert_eq!(reason(check_username(&"x".repeat(21))), Some("length"));
        assert_eq!(reason(check_username("a b")), Some("characters"));
        assert_eq!(reason(check_username("émile")), Some("characters"));
        assert_eq!(reason(check_username("-abc")), Some("start"));
        assert_eq!(reason(check_username("_abc")), Some("start"));
    }

    #[test]
    fn passwords() {
        assert_eq!(reason(check_password("short", "alice")), Some("too_short"));
        assert_eq!(
            reason(check_password(&"k".repeat(257), "alice")),
            Some("too_long")
        );
        assert_eq!(
            reason(check_password("AliceInChains", "aliceinchains")),
            Some("same_as_username")
        );
        assert_eq!(reason(check_password("password", "alice")), Some("common"));
        assert!(matches!(
            reason(check_password("qwertyuiop", "alice")),
            Some("keyboard" | "common")
        ));
        assert_eq!(
            reason(check_password("aaaaaaaaaa", "alice")),
            Some("repeat")
        );
        let weak = check_password("abcdefgh", "alice").unwrap_err();
        assert_eq!(weak.code, ErrorCode::WeakPassword);
        assert!(check_password("correct horse battery staple", "alice").is_ok());
        assert!(check_password("Knight-f3 takes e5!", "alice").is_ok());
        // Characters, not bytes: eight Cyrillic letters are eight.
        let cyrillic = check_password("шахматист", "alice").map_err(|e| e.reason);
        assert_ne!(cyrillic, Err(Some("too_short")));
    }

    /// Only the first 64 characters are scored: the rest cannot make a
    /// weak beginning strong, nor cost more time.
    #[test]
    fn long_passwords_are_judged_by_their_beginning() {
        let strong = "Knight-f3 takes e5! ".repeat(12);
        assert_eq!(strong.chars().count(), 240);
        assert!(check_password(&strong, "alice").is_ok());
        let weak_start = format!("{}{}", "a".repeat(PASSWORD_SCORED), "Kx7#q!Zr%2".repeat(19));
        assert_eq!(reason(check_password(&weak_start, "alice")), Some("repeat"));
        // Past the limit a multi-byte character is cut whole.
        let cut = format!("{}{}", "ё".repeat(PASSWORD_SCORED - 1), "Kx7#q!Zr%2");
        assert!(score_password(&cut, "alice").is_err());
    }
}
