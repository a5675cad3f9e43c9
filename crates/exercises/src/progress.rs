//! Learn progress: the set of things a player has done (pages read,
//! exercises, puzzles and drills solved), as short keys the page chooses.
//! This module owns the keys' rules; the rows live in the store
//! (`store::learn`).

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
