//! The Learn pages: the content in `content/learn` is complete and correct
//! in every language (every page of `pages.json` has its file in each of
//! the four languages and no file is left over, every diagram's FEN is
//! legal, every page has its title, no faulty block or link), the four
//! translation tables have the same keys, and the pages are served over
//! real HTTP as documents and as JSON.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use plyyard_learn::{Library, Sources};
use plyyard_testkit::{Backend, Client, TestServer, run_on};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The four languages the content must be in.
const LANGS: [&str; 4] = ["en", "fr", "ru", "ro"];

#[test]
fn every_page_is_complete_and_correct_in_every_language() {
    let src = Sources::read(&repo().join("content/learn")).expect("content/learn is readable");
    let langs: BTreeSet<&str> = plyyard_i18n::languages().into_iter().collect();
    assert_eq!(langs, LANGS.into_iter().collect(), "the site's languages");
    let lib = Library::build(&src);
    assert!(!lib.entries().is_empty(), "pages.json lists no page");
    for lang in LANGS {
        for e in lib.entries() {
            let file = src.files.get(&(lang.to_owned(), e.slug.clone()));
            let Some(text) = file else { continue };
            assert!(
                text.trim_start().starts_with("# "),
                "{lang}/{}.md must start with `# Title`",
                e.slug
            );
        }
    }
    assert!(
        lib.problems().is_empty(),
        "{} problems in content/learn:\n{}",
        lib.problems().len(),
        lib.problems().join("\n")
    );
}

/// A table's keys, plural variants (`x.one`, `x.few` …) counted once as
/// their base, as languages have different plural forms.
fn base_keys(table: &serde_json::Map<String, Value>) -> BTreeSet<String> {
    const PLURALS: [&str; 6] = [".zero", ".one", ".two", ".few", ".many", ".other"];
    table
        .keys()
        .map(|k| match PLURALS.iter().find(|p| k.ends_with(*p)) {
            Some(p) => format!("{}#plural", &k[..k.len() - p.len()]),
            None => k.clone(),
        })
        .collect()
}

fn table(lang: &str) -> serde_json::Map<String, Value> {
    let path = repo().join(format!("web/i18n/{lang}.json"));
    let text = std::fs::read_to_string(&path).expect("a translation table");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_string_is_in_every_language() {
    let en = base_keys(&table("en"));
    assert!(en.iter().any(|k| k.starts_with("learn.")));
    for lang in LANGS {
        let t = table(lang);
        let keys = base_keys(&t);
        let missing: Vec<_> = en.difference(&keys).collect();
        let extra: Vec<_> = keys.difference(&en).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}.json: missing {missing:?}, not in en.json {extra:?}"
        );
        let empty: Vec<_> = t
            .iter()
            .filter(|(_, v)| v.as_str().is_none_or(|s| s.trim().is_empty()))
            .map(|(k, _)| k)
            .collect();
        assert!(empty.is_empty(), "{lang}.json: empty {empty:?}");
    }
    // The keys the server's Learn pages use are in the tables.
    let dirs = ["crates/learn/src", "crates/server/src/http/learn"];
    for f in dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(repo().join(d)).unwrap())
    {
        let src = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for key in src
            .split('"')
            .filter(|s| s.starts_with("learn.") && !s.contains(' '))
        {
            assert!(
                en.contains(key),
                "{key} is used by the server but not in en.json"
            );
        }
    }
}

fn with_server(test: impl AsyncFnOnce(&Client)) {
    run_on(Backend::Sqlite, async |db| {
        let s = TestServer::start(db.url(), 0.05).await;
        let c = Client::new(s.addr);
        test(&c).await;
    });
}

#[test]
fn pages_and_json_are_served_in_the_visitors_language() {
    with_server(async |c| {
        let index = c.get("/learn").await.unwrap();
        assert_eq!(index.status, 200);
        assert_eq!(
            index.header("content-type"),
            Some("text/html; charset=utf-8")
        );
        let html = index.text();
        assert!(html.contains("data-testid=\"learn-index\""), "{html}");
        assert!(html.contains("data-testid=\"learn-link\""), "{html}");

        let missing = c.get("/learn/no-such-page").await.unwrap();
        assert_eq!(missing.status, 404);
        assert!(missing.text().contains("data-testid=\"learn-not-found\""));
        let missing = c.get("/api/learn/no-such-page").await.unwrap();
        assert_eq!(missing.status, 404);
        assert_eq!(
            missing.json::<Value>().unwrap()["error"]["code"],
            "not_found"
        );

        c.set_cookie("plyyard_lang", "ru");
        let api: Value = c.get_value("/api/learn").await;
        assert_eq!(api["lang"], "ru");
        let sections = api["sections"].as_array().unwrap();
        let Some(first) = sections
            .first()
            .and_then(|s| s["pages"][0]["slug"].as_str())
        else {
            return; // No content yet: the content test above says so.
        };
        let page: Value = c.get_value(&format!("/api/learn/{first}")).await;
        assert_eq!(page["slug"], first);
        assert!(page["title"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(page["html"].is_string());
        assert_eq!(page["prev"], Value::Null);
        let doc = c.get(&format!("/learn/{first}")).await.unwrap();
        assert_eq!(doc.status, 200);
        let doc = doc.text();
        assert!(
            doc.contains("<html lang=\"ru\">") || !doc.contains("<html lang="),
            "{doc}"
        );
        assert!(doc.contains("data-testid=\"learn-page\""), "{doc}");
        assert!(!doc.contains(" style="), "the CSP forbids style attributes");
    });
}
