//! The words of a Learn page: translated texts with their fallback, and
//! HTML escaping.

use plyyard_i18n::DEFAULT_LANG;

/// Escapes text for HTML (element content and quoted attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The text of `key` in `lang`, else in English, else the key itself.
pub fn text(lang: &str, key: &'static str) -> &'static str {
    plyyard_i18n::text(lang, key)
        .or_else(|| plyyard_i18n::text(DEFAULT_LANG, key))
        .unwrap_or(key)
}
