//! What text people may show to others (chat lines, names, descriptions):
//! nothing that changes how the text around it reads without being seen.
//! Zero-width characters, the byte-order mark, bidirectional overrides
//! and isolates, and runs of stacked combining marks are refused, so that
//! a line cannot pass itself off as another (spoofing) or spill over the
//! lines around it.

/// Combining marks one letter may carry in a row (accents stacked on a
/// Vietnamese vowel need two).
pub const MAX_COMBINING_RUN: usize = 2;

/// An invisible character that changes how the text around it reads:
/// zero-width ones and the marks between them (U+200B–U+200F), the
/// bidirectional embeddings and overrides (U+202A–U+202E) and isolates
/// (U+2066–U+2069), the word joiner and its invisible operators
/// (U+2060–U+2064), and the byte-order mark (U+FEFF).
pub fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// A combining mark of the blocks that hold them (diacritical marks and
/// their extensions, marks for symbols, half marks).
pub fn combining(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
    )
}

/// Why `text` may not be shown to others, if it may not: `None` when it
/// is fine.
pub fn spoofing(text: &str) -> Option<&'static str> {
    if text.chars().any(invisible) {
        return Some("invisible characters (zero-width or direction marks) are not allowed");
    }
    let mut run = 0;
    for c in text.chars() {
        run = if combining(c) { run + 1 } else { 0 };
        if run > MAX_COMBINING_RUN {
            return Some("stacked combining marks are not allowed");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_stacked_characters_are_named() {
        assert_eq!(spoofing("Good game! Спасибо, mulțumesc, à bientôt"), None);
        // Two marks on one vowel, as Vietnamese may write them.
        assert_eq!(spoofing("Vie\u{0302}\u{0323}t"), None);
        for bad in [
            "gg\u{200B}",
            "\u{202E}gg",
            "a\u{2066}b\u{2069}",
            "\u{FEFF}hi",
            "word\u{2060}joined",
        ] {
            assert!(spoofing(bad).is_some(), "{bad:?}");
        }
        assert!(spoofing("Z\u{0300}\u{0301}\u{0302}algo").is_some());
    }
}
