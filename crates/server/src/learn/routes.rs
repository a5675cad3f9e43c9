//! The Learn routes: `GET /learn` and `GET /learn/{slug}` (whole HTML
//! documents in the visitor's language, built once at start), and
//! `GET /api/learn` and `GET /api/learn/{slug}` (the same as JSON for the
//! web app). An unknown slug is a 404 page or a `not_found` error.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::{Library, html, library};
use crate::AppState;
use crate::error::{ApiError, ErrorCode};

/// The Learn routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/learn", get(index_page))
        .route("/learn/", get(index_page))
        .route("/learn/{slug}", get(article_page))
        .route("/api/learn", get(api_index))
        .route("/api/learn/{slug}", get(api_article))
}

/// Every document, by language and slug (`""` for the index).
struct Documents {
    pages: HashMap<(&'static str, String), Bytes>,
    missing: HashMap<&'static str, Bytes>,
}

static DOCUMENTS: LazyLock<Documents> = LazyLock::new(|| documents(library()));

/// Builds the documents now rather than on the first request.
pub(super) fn prepare() {
    LazyLock::force(&DOCUMENTS);
}

fn documents(lib: &Library) -> Documents {
    let mut pages = HashMap::new();
    let mut missing = HashMap::new();
    for lang in crate::i18n::languages() {
        let title = super::text(lang, "learn.title");
        let doc = html::document(lang, title, &html::index(lib, lang));
        pages.insert((lang, String::new()), Bytes::from(doc));
        for e in lib.entries() {
            if let (Some(a), Some(content)) = (
                lib.article(lang, &e.slug),
                html::article(lib, lang, &e.slug),
            ) {
                let doc = html::document(lang, &a.title, &content);
                pages.insert((lang, e.slug.clone()), Bytes::from(doc));
            }
        }
        let title = super::text(lang, "learn.not_found_title");
        missing.insert(
            lang,
            Bytes::from(html::document(lang, title, &html::not_found(lang))),
        );
    }
    Documents { pages, missing }
}

fn html_response(status: StatusCode, body: Option<&Bytes>) -> Response {
    let mut r = (status, body.cloned().unwrap_or_default()).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::VARY,
        HeaderValue::from_static("Accept-Language, Cookie"),
    );
    r
}

async fn index_page(headers: HeaderMap) -> Response {
    let lang = crate::i18n::choose_for(&headers);
    html_response(StatusCode::OK, DOCUMENTS.pages.get(&(lang, String::new())))
}

async fn article_page(headers: HeaderMap, Path(slug): Path<String>) -> Response {
    let lang = crate::i18n::choose_for(&headers);
    match DOCUMENTS.pages.get(&(lang, slug)) {
        Some(doc) => html_response(StatusCode::OK, Some(doc)),
        None => html_response(StatusCode::NOT_FOUND, DOCUMENTS.missing.get(lang)),
    }
}

/// `GET /api/learn`'s body: the sections in order with their pages' titles.
pub fn index_json(lib: &Library, lang: &str) -> Value {
    let sections: Vec<Value> = lib
        .sections()
        .into_iter()
        .map(|(section, pages)| {
            let pages: Vec<Value> = pages
                .iter()
                .filter_map(|e| {
                    let a = lib.article(lang, &e.slug)?;
                    Some(json!({"slug": e.slug, "title": a.title}))
                })
                .collect();
            json!({"section": section, "title": html::section_title(lang, section), "pages": pages})
        })
        .collect();
    json!({"lang": lang, "sections": sections})
}

/// `GET /api/learn/{slug}`'s body, or `None` for an unknown page.
pub fn article_json(lib: &Library, lang: &str, slug: &str) -> Option<Value> {
    let a = lib.article(lang, slug)?;
    let link = |e: Option<&super::Entry>| {
        e.and_then(|e| {
            let t = lib.article(lang, &e.slug)?;
            Some(json!({"slug": e.slug, "title": t.title}))
        })
    };
    let (prev, next) = lib.neighbours(slug);
    let section = lib
        .entries()
        .iter()
        .find(|e| e.slug == slug)
        .map(|e| e.section.clone());
    Some(json!({
        "lang": a.lang,
        "slug": slug,
        "section": section,
        "title": a.title,
        "html": a.html,
        "prev": link(prev),
        "next": link(next),
    }))
}

async fn api_index(headers: HeaderMap) -> Response {
    let lang = crate::i18n::choose_for(&headers);
    axum::Json(index_json(library(), lang)).into_response()
}

async fn api_article(headers: HeaderMap, Path(slug): Path<String>) -> Result<Response, ApiError> {
    let lang = crate::i18n::choose_for(&headers);
    article_json(library(), lang, &slug)
        .map(|v| axum::Json(v).into_response())
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotFound,
                format!("no Learn page `{}`", clip(&slug)),
            )
        })
}

/// `s` cut to a length fit for an error message.
fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_follows_the_contract() {
        let lib = super::super::tests::fixture();
        let index = index_json(&lib, "fr");
        assert_eq!(index["lang"], "fr");
        assert_eq!(index["sections"][0]["section"], "rules");
        assert_eq!(
            index["sections"][0]["pages"][0],
            json!({"slug": "board", "title": "L'échiquier"})
        );
        assert_eq!(index["sections"][0]["pages"][1]["title"], "Castling");
        assert_eq!(index["sections"][1]["section"], "example");

        let page = article_json(&lib, "fr", "castling").unwrap();
        assert_eq!(page["lang"], "en");
        assert_eq!(page["slug"], "castling");
        assert_eq!(page["title"], "Castling");
        assert_eq!(
            page["prev"],
            json!({"slug": "board", "title": "L'échiquier"})
        );
        assert_eq!(page["next"]["slug"], "worked-example");
        assert!(
            page["html"]
                .as_str()
                .unwrap()
                .contains("href=\"/learn/board\"")
        );
        assert_eq!(
            article_json(&lib, "en", "board").unwrap()["prev"],
            Value::Null
        );
        assert!(article_json(&lib, "en", "missing").is_none());
    }

    #[test]
    fn documents_exist_for_every_page_and_language() {
        let lib = super::super::tests::fixture();
        let docs = documents(&lib);
        for lang in crate::i18n::languages() {
            for slug in ["", "board", "castling", "worked-example"] {
                let doc = &docs.pages[&(lang, slug.to_owned())];
                let doc = std::str::from_utf8(doc).unwrap();
                let testid = if slug.is_empty() {
                    "learn-index"
                } else {
                    "learn-page"
                };
                assert!(
                    doc.contains(&format!("data-testid=\"{testid}\"")),
                    "{lang} {slug}"
                );
            }
            assert!(docs.missing.contains_key(lang));
        }
    }
}
