//! Learn progress: the set of things a player has done (pages read,
//! exercises, puzzles and drills solved), as short keys the page chooses.
//! This module owns the keys' rules; the rows live in the store
//! (`store::learn`). Puzzle keys (`puzzle:ID` solved without help,
//! `puzzle-helped:ID`) are the server's: it writes them as it judges moves
//! and hints, and refuses them from clients.

/// Most keys in one request.
pub const MAX_KEYS_PER_REQUEST: usize = 200;
/// Most keys kept per player.
pub const MAX_KEYS_PER_PLAYER: usize = 1000;
/// Longest key.
pub const MAX_KEY_LEN: usize = 64;

/// Whether `key` is 1 to [`MAX_KEY_LEN`] characters of `a-z`, `0-9`, `:`
/// and `-`.
pub fn valid_key(key: &str) -> bool {
    (1..=MAX_KEY_LEN).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b':' || b == b'-')
}

/// The key of a puzzle solved cleanly (no wrong move, no hint).
pub fn puzzle_solved_key(id: &str) -> String {
    format!("puzzle:{id}")
}

/// The key of a puzzle the player needed help with (a wrong move or a
/// hint): from then on solving it does not count, as on lichess.
pub fn puzzle_helped_key(id: &str) -> String {
    format!("puzzle-helped:{id}")
}

/// Whether only the server writes `key`: puzzle keys are recorded when the
/// server judges a solve, never on the client's word.
pub fn server_owned(key: &str) -> bool {
    key.starts_with("puzzle:") || key.starts_with("puzzle-helped:")
}

/// The keys of a client's request, as [`checked_keys`], refusing the
/// [`server_owned`] ones.
///
/// # Errors
/// As [`checked_keys`], or a message naming a server-owned key.
pub fn checked_client_keys(keys: &[String]) -> Result<Vec<String>, String> {
    let keys = checked_keys(keys)?;
    if let Some(k) = keys.iter().find(|k| server_owned(k)) {
        return Err(format!(
            "key {k:?} is recorded by the server when it judges a puzzle solved without help"
        ));
    }
    Ok(keys)
}

/// The keys of a request, checked, sorted and without duplicates.
///
/// # Errors
/// A message naming the first refused key, or saying there are too many.
pub fn checked_keys(keys: &[String]) -> Result<Vec<String>, String> {
    if keys.len() > MAX_KEYS_PER_REQUEST {
        return Err(format!("at most {MAX_KEYS_PER_REQUEST} keys per request"));
    }
    if let Some(bad) = keys.iter().find(|k| !valid_key(k)) {
        let shown: String = bad.chars().take(MAX_KEY_LEN).collect();
        return Err(format!(
            "invalid key {shown:?}: 1 to {MAX_KEY_LEN} characters of a-z, 0-9, ':' and '-'"
        ));
    }
    let mut v = keys.to_vec();
    v.sort();
    v.dedup();
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_keys_are_the_servers() {
        assert!(server_owned(&puzzle_solved_key("m2-07")));
        assert!(server_owned(&puzzle_helped_key("m2-07")));
        assert!(valid_key(&puzzle_helped_key("m2-07")));
        assert!(!server_owned("ex:puzzles") && !server_owned("page:board"));
        let e = checked_client_keys(&["ex:replay".into(), "puzzle:m1-01".into()]).unwrap_err();
        assert!(e.contains("puzzle:m1-01"), "{e}");
        assert_eq!(
            checked_client_keys(&["ex:replay".into()]).unwrap(),
            ["ex:replay"]
        );
    }

    #[test]
    fn keys_are_short_lowercase_words() {
        for good in [
            "page:board",
            "puzzle:m2-07",
            "ex:replay",
            "a",
            &"x".repeat(64),
        ] {
            assert!(valid_key(good), "{good}");
        }
        for bad in ["", "Page:board", "page board", "é", "a/b", &"x".repeat(65)] {
            assert!(!valid_key(bad), "{bad}");
        }
        let many: Vec<String> = (0..201).map(|i| format!("k{i}")).collect();
        assert!(checked_keys(&many).is_err());
        assert_eq!(
            checked_keys(&["b".into(), "a".into(), "b".into()]).unwrap(),
            ["a", "b"]
        );
        assert!(
            checked_keys(&["ok".into(), "NO".into()])
                .unwrap_err()
                .contains("\"NO\"")
        );
    }
}
