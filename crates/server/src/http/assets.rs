//! The embedded web app: every built file served as itself with its type,
//! `ETag` and caching, and `index.html` (in the visitor's language) for the
//! single-page app's page routes.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use include_dir::{Dir, include_dir};

static WEB: Dir<'static> = include_dir!("$OUT_DIR/web");

/// Bundled files whose names carry their content hash (the language
/// tables' chunks): cached for a year, as a changed file gets a new name.
const HASHED_ASSETS: &str = "assets/chunks/";

/// Tags the embedded files now rather than on the first request.
pub(super) fn prepare() {
    LazyLock::force(&ASSETS);
}

/// The `Content-Type` of a file, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, e)| e) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("woff") => "font/woff",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        Some("webmanifest") => "application/manifest+json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// An embedded file ready to serve: its bytes and their `ETag`, computed
/// once. The tag is weak (`W/"…"`): the compression layer may send the same
/// content in another encoding.
struct Asset {
    bytes: Bytes,
    etag: HeaderValue,
}

impl Asset {
    fn new(bytes: Bytes) -> Asset {
        use sha2::{Digest, Sha256};
        let tag = format!("W/\"{}\"", hex::encode(&Sha256::digest(&bytes)[..8]));
        Asset {
            etag: HeaderValue::from_str(&tag)
                .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\"")),
            bytes,
        }
    }

    /// Whether an `If-None-Match` value names this asset (weak comparison).
    fn matches(&self, if_none_match: &str) -> bool {
        let ours = self.etag.to_str().unwrap_or_default();
        let strip = |t: &str| t.trim().trim_start_matches("W/").to_owned();
        if_none_match
            .split(',')
            .any(|t| t.trim() == "*" || strip(t) == strip(ours))
    }
}

/// The embedded web app: every file by path, and `index.html` in each
/// language, with their tags.
struct Assets {
    files: HashMap<String, Asset>,
    pages: HashMap<&'static str, Asset>,
}

static ASSETS: LazyLock<Assets> = LazyLock::new(|| {
    let mut files = HashMap::new();
    let mut dirs = vec![&WEB];
    while let Some(d) = dirs.pop() {
        for f in d.files() {
            let path = f.path().to_string_lossy().replace('\\', "/");
            files.insert(path, Asset::new(Bytes::from_static(f.contents())));
        }
        dirs.extend(d.dirs());
    }
    let pages = WEB
        .get_file("index.html")
        .map(|index| {
            let html = String::from_utf8_lossy(index.contents());
            plyyard_i18n::languages()
                .into_iter()
                .map(|lang| {
                    let page = plyyard_i18n::localize_page(&html, lang);
                    (lang, Asset::new(Bytes::from(page)))
                })
                .collect()
        })
        .unwrap_or_default();
    Assets { files, pages }
});

/// Serves the embedded file at `uri`'s path, or the app's page.
pub(super) async fn web_asset(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let versioned = uri
        .query()
        .is_some_and(|q| q.split('&').any(|p| p.starts_with("v=")));
    let Some((asset, name)) = find(path, &headers) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let mut resp = if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| asset.matches(v))
    {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        let mut r = Response::new(Body::from(asset.bytes.clone()));
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(name)),
        );
        r
    };
    let h = resp.headers_mut();
    h.insert(header::ETAG, asset.etag.clone());
    let cache = cache_control(name, versioned);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if name == "index.html" {
        h.insert(
            header::VARY,
            HeaderValue::from_static("Accept-Language, Cookie"),
        );
    }
    resp
}

/// The asset for `path` and the name it is served as: the file itself, or
/// `index.html` in the visitor's language for page routes; `None` for a
/// missing asset or file-like path (a real 404).
fn find<'a>(path: &'a str, headers: &HeaderMap) -> Option<(&'static Asset, &'a str)> {
    let assets = &*ASSETS;
    let file = assets.files.get(path).filter(|_| path != "index.html");
    match file {
        Some(a) if !path.is_empty() => Some((a, path)),
        _ => {
            let looks_like_file = path.starts_with("assets/")
                || path.rsplit('/').next().is_some_and(|s| s.contains('.'));
            let lang = crate::i18n::choose_for(headers);
            let page = assets
                .pages
                .get(lang)
                .or_else(|| assets.files.get("index.html"));
            match page {
                Some(p) if !looks_like_file || path == "index.html" => Some((p, "index.html")),
                _ => None,
            }
        }
    }
}

/// `Cache-Control` of a file: pages are revalidated; versioned or hashed
/// files are kept a year; others an hour.
fn cache_control(name: &str, versioned: bool) -> &'static str {
    if name.ends_with(".html") {
        "no-cache"
    } else if versioned || name.starts_with(HASHED_ASSETS) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_by_extension() {
        assert_eq!(
            content_type("assets/app.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("assets/app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("assets/favicon.svg"), "image/svg+xml");
        assert_eq!(content_type("x"), "application/octet-stream");
    }

    async fn fetch(path: &str, if_none_match: Option<&str>) -> Response {
        let mut h = HeaderMap::new();
        if let Some(tag) = if_none_match {
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(tag).unwrap());
        }
        web_asset(path.parse().unwrap(), h).await
    }

    #[tokio::test]
    async fn assets_have_types_caching_and_etags() {
        let page = fetch("/game/abcdefgh", None).await;
        assert_eq!(page.status(), StatusCode::OK);
        assert_eq!(page.headers()[header::VARY], "Accept-Language, Cookie");
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("ru-RU,ru;q=0.9,en;q=0.5"),
        );
        let ru = web_asset("/".parse().unwrap(), h).await;
        let body = axum::body::to_bytes(ru.into_body(), 1 << 20).await.unwrap();
        let body = String::from_utf8_lossy(&body);
        if WEB.get_file("index.html").is_some_and(|f| {
            f.contents_utf8()
                .is_some_and(|t| t.contains("<html lang=\"en\">"))
        }) {
            assert!(body.contains("<html lang=\"ru\">"), "{body}");
        }
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache");
        let tag = page.headers()[header::ETAG].to_str().unwrap().to_owned();
        let again = fetch("/", Some(&tag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(again.headers()[header::ETAG], tag.as_str());
        assert_eq!(
            fetch(
                "/",
                Some(&format!("\"x\", {}", tag.trim_start_matches("W/")))
            )
            .await
            .status(),
            StatusCode::NOT_MODIFIED
        );

        // The language cookie wins over Accept-Language, and each language
        // of the page has its own tag.
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("ru-RU,ru;q=0.9"),
        );
        h.insert(header::COOKIE, HeaderValue::from_static("plyyard_lang=fr"));
        let fr = web_asset("/".parse().unwrap(), h).await;
        assert_ne!(fr.headers()[header::ETAG], tag.as_str());
        let body = axum::body::to_bytes(fr.into_body(), 1 << 20).await.unwrap();
        if WEB.get_file("index.html").is_some_and(|f| {
            f.contents_utf8()
                .is_some_and(|t| t.contains("<html lang=\"en\">"))
        }) {
            assert!(String::from_utf8_lossy(&body).contains("<html lang=\"fr\">"));
        }
        assert_eq!(fetch("/", Some("\"other\"")).await.status(), StatusCode::OK);
        assert_eq!(
            fetch("/assets/missing.js", None).await.status(),
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            fetch("/robots.txt", None).await.status(),
            StatusCode::NOT_FOUND
        );

        // Every embedded file other than index.html is served as itself.
        let mut files = Vec::new();
        let mut dirs = vec![&WEB];
        while let Some(d) = dirs.pop() {
            files.extend(d.files().map(|f| f.path().to_string_lossy().into_owned()));
            dirs.extend(d.dirs());
        }
        for path in files.iter().filter(|p| p.as_str() != "index.html") {
            let plain = fetch(&format!("/{path}"), None).await;
            assert_eq!(plain.status(), StatusCode::OK, "{path}");
            assert_eq!(
                plain.headers()[header::CONTENT_TYPE],
                content_type(path),
                "{path}"
            );
            let expected = if path.starts_with(HASHED_ASSETS) {
                "public, max-age=31536000, immutable"
            } else {
                "public, max-age=3600"
            };
            assert_eq!(plain.headers()[header::CACHE_CONTROL], expected);
            let versioned = fetch(&format!("/{path}?v=abc"), None).await;
            assert_eq!(
                versioned.headers()[header::CACHE_CONTROL],
                "public, max-age=31536000, immutable"
            );
        }
    }

    #[test]
    fn the_web_app_is_embedded() {
        let index = WEB.get_file("index.html").expect("index.html embedded");
        assert!(
            index.contents().starts_with(b"<!doctype html")
                || index.contents().starts_with(b"<!DOCTYPE html")
        );
    }
}
