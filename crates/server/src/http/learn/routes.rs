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
use plyyard_learn::{Library, html, library};
use serde_json::{Value, json};

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

/// A document ready to serve, with its weak `ETag`.
struct Document {
    bytes: Bytes,
    etag: HeaderValue,
}

impl Document {
    fn new(html: String) -> Document {
        use sha2::{Digest, Sha256};
        let tag = format!(
            "W/\"{}\"",
            hex::encode(&Sha256::digest(html.as_bytes())[..8])
        );
        Document {
            etag: HeaderValue::from_str(&tag)
                .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\"")),
            bytes: Bytes::from(html),
        }
    }

    /// Whether an `If-None-Match` value names this document.
    fn matches(&self, headers: &HeaderMap) -> bool {
        let ours = self
            .etag
            .to_str()
            .unwrap_or_default()
            .trim_start_matches("W/");
        headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == ours)
            })
    }
}

/// The built web app's page, the template of every Learn document.
const INDEX_HTML: &str = include_str!(concat!(env!("OUT_DIR"), "/web/index.html"));

/// Every document, by language and slug (`""` for the index).
struct Documents {
    pages: HashMap<(&'static str, String), Document>,
    missing: HashMap<&'static str, Document>,
}

static DOCUMENTS: LazyLock<Documents> = LazyLock::new(|| documents(library()));

/// Builds the documents now rather than on the first request.
pub(super) fn prepare() {
    LazyLock::force(&DOCUMENTS);
}

fn documents(lib: &Library) -> Documents {
    let mut pages = HashMap::new();
    let mut missing = HashMap::new();
    for lang in plyyard_i18n::languages() {
        let title = plyyard_learn::text(lang, "learn.title");
        let doc = html::document(INDEX_HTML, lang, title, &html::index(lib, lang));
        pages.insert((lang, String::new()), Document::new(doc));
        for e in lib.entries() {
            if let (Some(a), Some(content)) = (
                lib.article(lang, &e.slug),
                html::article(lib, lang, &e.slug),
            ) {
                let doc = html::document(INDEX_HTML, lang, &a.title, &content);
                pages.insert((lang, e.slug.clone()), Document::new(doc));
            }
        }
        let title = plyyard_learn::text(lang, "learn.not_found_title");
        missing.insert(
            lang,
            Document::new(html::document(
                INDEX_HTML,
                lang,
                title,
                &html::not_found(lang),
            )),
        );
    }
    Documents { pages, missing }
}

/// `doc` with its headers, or `304 Not Modified` when the client has it.
fn html_response(status: StatusCode, doc: Option<&Document>, headers: &HeaderMap) -> Response {
    let Some(doc) = doc else {
        return status.into_response();
    };
    let mut r = if status == StatusCode::OK && doc.matches(headers) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (status, doc.bytes.clone()).into_response()
    };
    let h = r.headers_mut();
    h.insert(header::ETAG, doc.etag.clone());
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
    html_response(
        StatusCode::OK,
        DOCUMENTS.pages.get(&(lang, String::new())),
        &headers,
    )
}

async fn article_page(headers: HeaderMap, Path(slug): Path<String>) -> Response {
    let lang = crate::i18n::choose_for(&headers);
    match DOCUMENTS.pages.get(&(lang, slug)) {
        Some(doc) => html_response(StatusCode::OK, Some(doc), &headers),
        None => html_response(StatusCode::NOT_FOUND, DOCUMENTS.missing.get(lang), &headers),
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
    let link = |e: Option<&plyyard_learn::Entry>| {
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

    /// The Learn crate's test content.
    fn fixture() -> Library {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../learn/tests/data/learn");
        Library::build(&plyyard_learn::Sources::read(&dir).unwrap())
    }

    #[test]
    fn the_built_page_is_the_template_of_documents() {
        let doc = html::document(INDEX_HTML, "fr", "Le <roque>", "<p>x</p>");
        assert!(doc.contains("<p>x</p>"), "{doc}");
        assert!(doc.contains("data-testid=\"learn-link\""), "{doc}");
        assert!(doc.contains("Le &lt;roque&gt; · "), "{doc}");
        assert!(!doc.contains("<noscript>"), "{doc}");
        if INDEX_HTML.contains("<html lang=\"en\">") {
            assert!(doc.contains("<html lang=\"fr\">"), "{doc}");
        }
        assert!(!doc.contains("style="), "{doc}");
    }

    #[test]
    fn json_follows_the_contract() {
        let lib = fixture();
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
        let lib = fixture();
        let docs = documents(&lib);
        for lang in plyyard_i18n::languages() {
            for slug in ["", "board", "castling", "worked-example"] {
                let doc = &docs.pages[&(lang, slug.to_owned())].bytes;
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
        // A document the client has is not sent again; another language is.
        let board = &docs.pages[&("en", "board".to_owned())];
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, board.etag.clone());
        assert!(board.matches(&h));
        let r = html_response(StatusCode::OK, Some(board), &h);
        assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(r.headers()[header::ETAG], board.etag);
        assert!(!docs.pages[&("fr", "board".to_owned())].matches(&h));
        let missing = html_response(StatusCode::NOT_FOUND, docs.missing.get("en"), &h);
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            html_response(StatusCode::OK, Some(board), &HeaderMap::new()).status(),
            StatusCode::OK
        );
    }
}
