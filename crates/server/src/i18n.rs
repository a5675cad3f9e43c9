//! The language of a request: the rule of `plyyard_i18n` ([`choose`]) on
//! its `Cookie` and `Accept-Language` headers. The translation tables and
//! the rule itself are in the `plyyard-i18n` crate.

use axum::http::{HeaderMap, header};
use plyyard_i18n::{LANG_COOKIE, choose};

/// [`choose`] for a request's headers (its `Cookie` and `Accept-Language`).
pub fn choose_for(headers: &HeaderMap) -> &'static str {
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| cookie::Cookie::split_parse(v.to_owned()).flatten())
        .find(|c| c.name() == LANG_COOKIE)
        .map(|c| c.value().to_owned());
    choose(
        cookie.as_deref(),
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_feed_the_same_rule() {
        let mut h = HeaderMap::new();
        assert_eq!(choose_for(&h), "en");
        h.insert(header::ACCEPT_LANGUAGE, "ru-RU,ru;q=0.9".parse().unwrap());
        assert_eq!(choose_for(&h), "ru");
        h.insert(
            header::COOKIE,
            "plyyard_player=abc; plyyard_lang=fr".parse().unwrap(),
        );
        assert_eq!(choose_for(&h), "fr");
        h.insert(header::COOKIE, "plyyard_lang=klingon".parse().unwrap());
        assert_eq!(choose_for(&h), "ru");
        h.insert(header::COOKIE, "x=1".parse().unwrap());
        h.append(header::COOKIE, "y=2; plyyard_lang=ro".parse().unwrap());
        assert_eq!(choose_for(&h), "ro");
    }
}
