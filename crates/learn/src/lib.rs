//! Ply Yard's Learn pages: their content (`content/learn`, embedded at
//! build time: `pages.json`, the ordered list of pages and their sections,
//! and one Markdown file per page and language), rendered once into a
//! [`Library`] (Markdown, boards drawn as SVG), and the pages' HTML
//! ([`html`]). The server serves them as HTML pages readable without
//! JavaScript and as JSON for the web app (its `learn` routes).
//!
//! A page missing in a language is served in English meanwhile; every fault
//! of the content (a missing or stray file, an illegal FEN, a page without
//! its title …) is kept in [`Library::problems`], logged by the server at
//! start and checked by the content test.

mod board;
pub mod html;
mod markdown;
mod words;

pub use markdown::EXERCISES;
pub use words::{escape, text};

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::LazyLock;

use include_dir::{Dir, include_dir};
use plyyard_i18n::DEFAULT_LANG;
use serde::Deserialize;

static CONTENT: Dir<'static> = include_dir!("$OUT_DIR/learn");

/// The sections of the Learn index, in order.
pub const SECTIONS: &[&str] = &[
    "rules",
    "notation",
    "strategy",
    "tactics",
    "example",
    "faq",
    "exercises",
];

/// The content files as read: `pages.json` and each page's Markdown by
/// language and slug.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    /// The text of `pages.json`, if present.
    pub pages_json: Option<String>,
    /// `(lang, slug)` → Markdown, from `{lang}/{slug}.md`.
    pub files: BTreeMap<(String, String), String>,
    /// Files that are neither `pages.json` nor `{lang}/{slug}.md`.
    pub stray: Vec<String>,
}

impl Sources {
    /// The content embedded in the binary.
    pub fn embedded() -> Sources {
        let mut s = Sources::default();
        for f in CONTENT.files() {
            s.add_top(&f.path().to_string_lossy(), f.contents_utf8());
        }
        for d in CONTENT.dirs() {
            let lang = d.path().to_string_lossy().into_owned();
            for f in d.files() {
                let name = f.path().file_name().unwrap_or_default().to_string_lossy();
                s.add_page(&lang, &name, f.contents_utf8());
            }
            s.stray
                .extend(d.dirs().map(|x| x.path().to_string_lossy().into_owned()));
        }
        s
    }

    /// The content in the folder `dir` (laid out as `content/learn`).
    ///
    /// # Errors
    ///
    /// When `dir` or one of its language folders cannot be read.
    pub fn read(dir: &Path) -> std::io::Result<Sources> {
        let mut s = Sources::default();
        for e in std::fs::read_dir(dir)? {
            let e = e?;
            let name = e.file_name().to_string_lossy().into_owned();
            if !e.file_type()?.is_dir() {
                s.add_top(&name, std::fs::read_to_string(e.path()).ok().as_deref());
                continue;
            }
            for f in std::fs::read_dir(e.path())? {
                let f = f?;
                let file = f.file_name().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(f.path()).ok();
                s.add_page(&name, &file, text.as_deref());
            }
        }
        Ok(s)
    }

    fn add_top(&mut self, name: &str, text: Option<&str>) {
        match (name, text) {
            ("pages.json", Some(t)) => self.pages_json = Some(t.to_owned()),
            _ => self.stray.push(name.to_owned()),
        }
    }

    fn add_page(&mut self, lang: &str, file: &str, text: Option<&str>) {
        match (file.strip_suffix(".md"), text) {
            (Some(slug), Some(t)) => {
                self.files
                    .insert((lang.to_owned(), slug.to_owned()), t.to_owned());
            }
            _ => self.stray.push(format!("{lang}/{file}")),
        }
    }
}

/// A page of `pages.json`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its address: `/learn/{slug}`.
    pub slug: String,
    /// One of [`SECTIONS`].
    pub section: String,
}

/// A rendered page in one language.
#[derive(Debug, Clone)]
pub struct Article {
    /// The language of the text (English when the page is not translated
    /// yet).
    pub lang: &'static str,
    /// The page's title (its `# Title` line; the slug if it has none).
    pub title: String,
    /// The page's HTML, without the title.
    pub html: String,
}

/// Every Learn page rendered in every language, and what is wrong with the
/// content.
#[derive(Debug, Default)]
pub struct Library {
    entries: Vec<Entry>,
    articles: HashMap<(&'static str, String), Article>,
    problems: Vec<String>,
}

/// The library of the embedded content, rendered on first use.
pub fn library() -> &'static Library {
    static LIBRARY: LazyLock<Library> = LazyLock::new(|| Library::build(&Sources::embedded()));
    &LIBRARY
}

impl Library {
    /// Renders every page of `src` in every language the site has.
    pub fn build(src: &Sources) -> Library {
        let mut lib = Library::default();
        lib.entries = lib.read_entries(src.pages_json.as_deref());
        let slugs: Vec<String> = lib.entries.iter().map(|e| e.slug.clone()).collect();
        let langs = plyyard_i18n::languages();
        lib.problems
            .extend(src.stray.iter().map(|f| format!("unexpected file `{f}`")));
        for ((lang, slug), text) in &src.files {
            let Some(lang) = langs.iter().copied().find(|l| l == lang) else {
                lib.problems.push(format!(
                    "`{lang}/{slug}.md`: `{lang}` is not a language of the site"
                ));
                continue;
            };
            if !slugs.contains(slug) {
                lib.problems
                    .push(format!("`{lang}/{slug}.md` is not in pages.json"));
                continue;
            }
            let cx = markdown::Context {
                lang,
                slugs: &slugs,
            };
            let (page, problems) = markdown::render(text, &cx);
            lib.problems.extend(
                problems
                    .into_iter()
                    .map(|p| format!("`{lang}/{slug}.md`: {p}")),
            );
            let title = page.title.unwrap_or_else(|| slug.clone());
            let article = Article {
                lang,
                title,
                html: page.html,
            };
            lib.articles.insert((lang, slug.clone()), article);
        }
        for lang in &langs {
            let missing: Vec<&str> = lib
                .entries
                .iter()
                .filter(|e| {
                    !src.files
                        .contains_key(&((*lang).to_owned(), e.slug.clone()))
                })
                .map(|e| e.slug.as_str())
                .collect();
            if !missing.is_empty() {
                lib.problems.push(format!(
                    "`{lang}`: {} of {} pages missing: {}",
                    missing.len(),
                    lib.entries.len(),
                    missing.join(", ")
                ));
            }
        }
        lib
    }

    fn read_entries(&mut self, json: Option<&str>) -> Vec<Entry> {
        let Some(json) = json else {
            self.problems.push("pages.json is missing".to_owned());
            return Vec::new();
        };
        let entries: Vec<Entry> = match serde_json::from_str(json) {
            Ok(e) => e,
            Err(e) => {
                self.problems.push(format!("pages.json: {e}"));
                return Vec::new();
            }
        };
        let mut seen = Vec::new();
        let mut ok = Vec::new();
        for e in entries {
            let valid_slug = !e.slug.is_empty()
                && e.slug.len() <= 60
                && e.slug
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid_slug {
                self.problems
                    .push(format!("pages.json: bad slug `{}`", e.slug));
            } else if !SECTIONS.contains(&e.section.as_str()) {
                self.problems.push(format!(
                    "pages.json: `{}` has an unknown section `{}`",
                    e.slug, e.section
                ));
            } else if seen.contains(&e.slug) {
                self.problems
                    .push(format!("pages.json: `{}` twice", e.slug));
            } else {
                seen.push(e.slug.clone());
                ok.push(e);
            }
        }
        ok
    }

    /// What is wrong with the content (empty when all is well).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The pages in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The page `slug` in `lang`, or in English if it is not translated;
    /// `None` for an unknown slug.
    pub fn article(&self, lang: &str, slug: &str) -> Option<&Article> {
        let key = |l: &str| {
            let l = plyyard_i18n::languages().into_iter().find(|x| *x == l)?;
            self.articles.get(&(l, slug.to_owned()))
        };
        self.entries
            .iter()
            .any(|e| e.slug == slug)
            .then(|| key(lang).or_else(|| key(DEFAULT_LANG)))
            .flatten()
    }

    /// The page before and the page after `slug` in the order of
    /// `pages.json` (only pages that can be shown).
    pub fn neighbours(&self, slug: &str) -> (Option<&Entry>, Option<&Entry>) {
        let shown: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| self.article(DEFAULT_LANG, &e.slug).is_some())
            .collect();
        let Some(i) = shown.iter().position(|e| e.slug == slug) else {
            return (None, None);
        };
        (
            i.checked_sub(1).map(|j| shown[j]),
            shown.get(i + 1).copied(),
        )
    }

    /// The sections in order, each with its pages that can be shown.
    pub fn sections(&self) -> Vec<(&'static str, Vec<&Entry>)> {
        SECTIONS
            .iter()
            .map(|&s| {
                let pages = self
                    .entries
                    .iter()
                    .filter(|e| e.section == s && self.article(DEFAULT_LANG, &e.slug).is_some())
                    .collect();
                (s, pages)
            })
            .filter(|(_, pages): &(_, Vec<_>)| !pages.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn fixture() -> Library {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/learn");
        Library::build(&Sources::read(&dir).unwrap())
    }

    #[test]
    fn the_fixture_library_renders_with_its_gaps_named() {
        let lib = fixture();
        let problems = lib.problems().join("\n");
        // Only French has a translation, of one page.
        assert_eq!(
            lib.problems(),
            [
                "`fr`: 2 of 3 pages missing: castling, worked-example",
                "`ro`: 3 of 3 pages missing: board, castling, worked-example",
                "`ru`: 3 of 3 pages missing: board, castling, worked-example",
            ],
            "{problems}"
        );

        let fr = lib.article("fr", "board").unwrap();
        assert_eq!((fr.lang, fr.title.as_str()), ("fr", "L'échiquier"));
        let fallback = lib.article("fr", "castling").unwrap();
        assert_eq!((fallback.lang, fallback.title.as_str()), ("en", "Castling"));
        assert!(lib.article("en", "nope").is_none());
        assert!(lib.article("xx", "board").is_some_and(|a| a.lang == "en"));
    }

    #[test]
    fn order_and_sections_follow_pages_json() {
        let lib = fixture();
        let slugs = |v: &[&Entry]| v.iter().map(|e| e.slug.clone()).collect::<Vec<_>>();
        let sections = lib.sections();
        assert_eq!(sections.len(), 2);
        assert_eq!(sections[0].0, "rules");
        assert_eq!(slugs(&sections[0].1), ["board", "castling"]);
        assert_eq!(sections[1].0, "example");
        let (prev, next) = lib.neighbours("castling");
        assert_eq!(prev.map(|e| e.slug.as_str()), Some("board"));
        assert_eq!(next.map(|e| e.slug.as_str()), Some("worked-example"));
        assert_eq!(lib.neighbours("board").0, None);
        assert_eq!(lib.neighbours("worked-example").1, None);
    }

    #[test]
    fn broken_lists_and_stray_files_are_named() {
        let mut src = Sources {
            pages_json: Some(
                r#"[{"slug":"a","section":"rules"},{"slug":"a","section":"rules"},
                    {"slug":"B!","section":"rules"},{"slug":"c","section":"cooking"}]"#
                    .to_owned(),
            ),
            ..Sources::default()
        };
        src.files.insert(("en".into(), "a".into()), "# A\n".into());
        src.files.insert(("en".into(), "zz".into()), "# Z\n".into());
        src.files.insert(("de".into(), "a".into()), "# A\n".into());
        src.stray.push("en/notes.txt".into());
        let lib = Library::build(&src);
        let p = lib.problems().join("\n");
        for wanted in [
            "`a` twice",
            "bad slug `B!`",
            "unknown section `cooking`",
            "`en/zz.md` is not in pages.json",
            "`de` is not a language",
            "unexpected file `en/notes.txt`",
            "`fr`: 1 of 1 pages missing: a",
        ] {
            assert!(p.contains(wanted), "{wanted}: {p}");
        }
        let none = Library::build(&Sources::default());
        assert_eq!(none.problems(), ["pages.json is missing"]);
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
