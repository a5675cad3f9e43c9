//! Ply Yard's translations: the tables shared with the web app
//! (`web/i18n/*.json`, flat key → text), embedded at build time, lookup and
//! placeholder filling ([`text`], [`format`]), and the one rule that
//! chooses the language of a page ([`choose`]). The server uses them for
//! what it renders itself: the language of `index.html` (`<html lang>`),
//! which the web app then reads rather than choosing again, the Learn pages
//! and the words of reviews.
//!
//! The rule: the cookie [`LANG_COOKIE`] when it holds a supported language
//! (the web app sets it when the user picks one), else the best match of
//! `Accept-Language` ([`negotiate`]), else [`DEFAULT_LANG`]. Reading them
//! from a request is the server's part (`plyyard_server::i18n::choose_for`).

use std::collections::HashMap;
use std::sync::OnceLock;

use include_dir::{Dir, include_dir};

static TABLES: Dir<'static> = include_dir!("$OUT_DIR/i18n");

/// The language used when nothing better matches.
pub const DEFAULT_LANG: &str = "en";

/// The cookie holding the language the user picked (`fr`, `ru` …).
pub const LANG_COOKIE: &str = "plyyard_lang";

type Table = HashMap<String, String>;

fn tables() -> &'static HashMap<&'static str, Table> {
    static PARSED: OnceLock<HashMap<&'static str, Table>> = OnceLock::new();
    PARSED.get_or_init(|| {
        TABLES
            .files()
            .filter_map(|f| {
                let lang = f.path().file_stem()?.to_str()?;
                match serde_json::from_slice::<Table>(f.contents()) {
                    Ok(t) => Some((lang, t)),
                    Err(e) => {
                        tracing::error!("translation table {lang}: {e}");
                        None
                    }
                }
            })
            .collect()
    })
}

/// The languages with a table, sorted.
pub fn languages() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = tables().keys().copied().collect();
    v.sort_unstable();
    v
}

/// The text of `key` in `lang`, if translated.
pub fn text(lang: &str, key: &str) -> Option<&'static str> {
    tables().get(lang)?.get(key).map(String::as_str)
}

/// The text of `key` in `lang` (else in [`DEFAULT_LANG`], else the key
/// itself) with each `{name}` replaced by the value of `name` in `args`;
/// unknown placeholders stay as written.
///
/// # Examples
///
/// ```
/// let t = plyyard_i18n::format("en", "no.such.key {x}", &[("x", "1")]);
/// assert_eq!(t, "no.such.key 1");
/// ```
pub fn format(lang: &str, key: &str, args: &[(&str, &str)]) -> String {
    let template = text(lang, key)
        .or_else(|| text(DEFAULT_LANG, key))
        .unwrap_or(key);
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .find('}')
            .and_then(|close| Some((args.iter().find(|(k, _)| *k == &after[..close])?, close)));
        match value {
            Some(((_, v), close)) => {
                out.push_str(v);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The language of a page: `cookie` (the value of [`LANG_COOKIE`]) when it
/// names a supported language, else [`negotiate`] on `accept_language`.
///
/// # Examples
///
/// ```
/// use plyyard_i18n::choose;
/// assert_eq!(choose(Some("ru"), Some("fr")), "ru");
/// assert_eq!(choose(Some("xx"), Some("fr")), "fr");
/// assert_eq!(choose(None, Some("mo")), "ro");
/// assert_eq!(choose(None, None), "en");
/// ```
pub fn choose(cookie: Option<&str>, accept_language: Option<&str>) -> &'static str {
    cookie
        .and_then(|c| {
            let c = c.trim();
            languages().into_iter().find(|l| l.eq_ignore_ascii_case(c))
        })
        .unwrap_or_else(|| negotiate(accept_language))
}

/// The best available language for an `Accept-Language` header value
/// (`fr-CH, fr;q=0.9, en;q=0.8`): highest quality first, matching on the
/// primary subtag (`mo`, the retired tag of Moldavian, counts as `ro`);
/// [`DEFAULT_LANG`] otherwise.
///
/// # Examples
///
/// ```
/// assert_eq!(plyyard_i18n::negotiate(Some("fr-CH, fr;q=0.9, en;q=0.8")), "fr");
/// assert_eq!(plyyard_i18n::negotiate(Some("de")), "en");
/// ```
pub fn negotiate(accept: Option<&str>) -> &'static str {
    let available = languages();
    let fallback = available
        .iter()
        .copied()
        .find(|l| *l == DEFAULT_LANG)
        .or_else(|| available.first().copied())
        .unwrap_or(DEFAULT_LANG);
    let Some(accept) = accept else {
        return fallback;
    };
    let mut wanted: Vec<(f32, usize, String)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut bits = part.split(';');
            let tag = bits.next()?.trim();
            let q = bits
                .filter_map(|b| b.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let mut primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
            if primary == "mo" {
                primary = "ro".to_owned();
            }
            (q > 0.0 && !primary.is_empty()).then_some((q, i, primary))
        })
        .collect();
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    wanted
        .iter()
        .find_map(|(_, _, p)| available.iter().copied().find(|l| l == p))
        .unwrap_or(fallback)
}

/// `index.html` in `lang`: the `lang` attribute of `<html>`, and the
/// `<noscript>` text when the tables have `app.noscript`.
pub fn localize_page(html: &str, lang: &str) -> String {
    let mut out = html.replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1);
    if let Some(msg) = text(lang, "app.noscript")
        && let (Some(a), Some(b)) = (out.find("<noscript>"), out.find("</noscript>"))
        && a < b
    {
        let escaped = msg
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        out.replace_range(a + "<noscript>".len()..b, &escaped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_languages_are_embedded() {
        for lang in ["en", "fr", "ro", "ru"] {
            assert!(languages().contains(&lang), "{lang}: {:?}", languages());
            assert!(text(lang, "site.name").is_some(), "{lang}");
        }
        assert_ne!(text("fr", "level.beginner"), text("en", "level.beginner"));
    }

    #[test]
    fn negotiation_follows_quality_and_primary_tags() {
        assert_eq!(negotiate(None), "en");
        assert_eq!(negotiate(Some("fr-CH, fr;q=0.9, en;q=0.8")), "fr");
        assert_eq!(negotiate(Some("de-DE, ru;q=0.5, ro;q=0.7")), "ro");
        assert_eq!(negotiate(Some("en;q=0.1, ru")), "ru");
        assert_eq!(negotiate(Some("ru;q=0, ro;q=0.2")), "ro");
        assert_eq!(negotiate(Some("de, ja")), "en");
        assert_eq!(negotiate(Some(";;,,q=,")), "en");
        assert_eq!(negotiate(Some("RO-md")), "ro");
    }

    #[test]
    fn the_cookie_wins_then_accept_language_then_english() {
        assert_eq!(choose(Some("fr"), Some("ru, en;q=0.5")), "fr");
        assert_eq!(choose(Some("RO"), None), "ro");
        assert_eq!(choose(Some(" ru "), Some("fr")), "ru");
        // An unsupported or malformed cookie falls back to negotiation.
        assert_eq!(choose(Some("de"), Some("ru, en;q=0.5")), "ru");
        assert_eq!(choose(Some(""), Some("fr-CA")), "fr");
        assert_eq!(choose(Some("fr-FR"), Some("ro")), "ro");
        assert_eq!(choose(None, Some("mo-MD, ru;q=0.5")), "ro");
        assert_eq!(choose(None, Some("de, *;q=0.1")), "en");
        assert_eq!(choose(Some("xx"), None), "en");
    }

    #[test]
    fn pages_get_the_language() {
        let page = "<!doctype html>\n<html lang=\"en\">\n<noscript>Needs JS.</noscript>";
        let fr = localize_page(page, "fr");
        assert!(fr.contains("<html lang=\"fr\">"), "{fr}");
        if let Some(msg) = text("fr", "app.noscript") {
            assert!(fr.contains(msg), "{fr}");
        }
        assert_eq!(
            localize_page("<p>no html tag</p>", "ru"),
            "<p>no html tag</p>"
        );
    }
}
