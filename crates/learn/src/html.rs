//! The Learn pages as whole HTML documents, readable without JavaScript:
//! the web app's `index.html` (same stylesheet and script, in the visitor's
//! language; the server passes it in) with the header and the page's
//! content inside the app's root, which the app replaces when it starts.

use std::fmt::Write as _;

use crate::Library;
use crate::words::{escape, text};

/// The empty root the app mounts on.
const APP_ROOT: &str = "<div id=\"app\"></div>";

/// A whole document in `lang` titled `title` with `content` under `<main>`,
/// made from `template`, the built web app's `index.html`.
pub fn document(template: &str, lang: &str, title: &str, content: &str) -> String {
    let page = plyyard_i18n::localize_page(template, lang);
    let full_title = format!("{} · {}", title, text(lang, "site.name"));
    let body = format!(
        "<div id=\"app\">{}<main id=\"main\" tabindex=\"-1\"><div class=\"page\" data-server-rendered>{content}</div></main></div>",
        header(lang)
    );
    let mut page = match (page.find("<title>"), page.find("</title>")) {
        (Some(a), Some(b)) if a < b => {
            let mut p = page.clone();
            p.replace_range(a + "<title>".len()..b, &escape(&full_title));
            p
        }
        _ => page,
    };
    // The notice that the app needs JavaScript does not apply to these pages.
    if let (Some(a), Some(b)) = (page.find("<noscript>"), page.find("</noscript>"))
        && a < b
    {
        page.replace_range(a..b + "</noscript>".len(), "");
    }
    if page.contains(APP_ROOT) {
        page.replacen(APP_ROOT, &body, 1)
    } else {
        format!(
            "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title></head><body>{body}</body></html>\n",
            escape(&full_title)
        )
    }
}

/// The site header as the web app draws it, without the parts that need
/// JavaScript (account and language switch).
fn header(lang: &str) -> String {
    let t = |k| escape(text(lang, k));
    format!(
        "<header class=\"site-header\"><a class=\"skip-link\" href=\"#main\">{skip}</a>\
         <div class=\"header-inner\"><a class=\"brand\" href=\"/\" data-testid=\"home-link\" \
         aria-label=\"{name} · {home}\"><img src=\"/assets/favicon.svg\" alt=\"\" width=\"28\" height=\"28\">\
         <span class=\"brand-name\">{name}</span><span class=\"brand-tagline\">{tagline}</span></a>\
         <nav class=\"site-nav\" aria-label=\"{main}\">\
         <a class=\"nav-learn\" href=\"/learn\" data-testid=\"learn-link\">{learn}</a>\
         <a class=\"nav-multiplayer\" href=\"/multiplayer\" data-testid=\"multiplayer-link\">{multi}</a>\
         </nav></div></header>",
        skip = t("nav.skip"),
        name = t("site.name"),
        home = t("nav.home"),
        tagline = t("site.tagline"),
        main = t("nav.main"),
        learn = t("learn.nav"),
        multi = t("nav.multiplayer"),
    )
}

/// The index's content: the sections and their pages' titles.
pub fn index(lib: &Library, lang: &str) -> String {
    let mut s = format!(
        "<section class=\"learn-index\" data-testid=\"learn-index\"><h1>{}</h1><p class=\"learn-intro\">{}</p>",
        escape(text(lang, "learn.title")),
        escape(text(lang, "learn.intro")),
    );
    for (section, pages) in lib.sections() {
        let _ = write!(
            s,
            "<section class=\"learn-section\" data-section=\"{section}\"><h2>{}</h2><ol>",
            escape(section_title(lang, section))
        );
        for e in pages {
            if let Some(a) = lib.article(lang, &e.slug) {
                let _ = write!(
                    s,
                    "<li><a href=\"/learn/{}\" data-testid=\"learn-index-link\">{}</a></li>",
                    e.slug,
                    escape(&a.title)
                );
            }
        }
        s.push_str("</ol></section>");
    }
    s.push_str("</section>");
    s
}

/// The localised name of a section.
pub fn section_title(lang: &str, section: &str) -> &'static str {
    match section {
        "rules" => text(lang, "learn.section.rules"),
        "notation" => text(lang, "learn.section.notation"),
        "strategy" => text(lang, "learn.section.strategy"),
        "tactics" => text(lang, "learn.section.tactics"),
        "example" => text(lang, "learn.section.example"),
        "faq" => text(lang, "learn.section.faq"),
        _ => text(lang, "learn.section.exercises"),
    }
}

/// The article `slug` in `lang` (with its way back to the index and to the
/// pages before and after), or `None` for an unknown page.
pub fn article(lib: &Library, lang: &str, slug: &str) -> Option<String> {
    let a = lib.article(lang, slug)?;
    let section = lib
        .entries()
        .iter()
        .find(|e| e.slug == slug)
        .map_or("", |e| section_title(lang, &e.section));
    let mut s = format!(
        "<article class=\"learn-page\" data-testid=\"learn-page\" data-slug=\"{slug}\" lang=\"{}\">\
         <nav class=\"learn-crumbs\"><a href=\"/learn\">{}</a> <span aria-hidden=\"true\">›</span> {}</nav>\
         <h1>{}</h1>",
        a.lang,
        escape(text(lang, "learn.title")),
        escape(section),
        escape(&a.title),
    );
    if a.lang != lang {
        let _ = write!(
            s,
            "<p class=\"learn-untranslated\" lang=\"{lang}\">{}</p>",
            escape(text(lang, "learn.untranslated"))
        );
    }
    let _ = write!(s, "<div class=\"learn-body\">{}</div>", a.html);
    s.push_str(&pager(lib, lang, slug));
    s.push_str("</article>");
    Some(s)
}

fn pager(lib: &Library, lang: &str, slug: &str) -> String {
    let (prev, next) = lib.neighbours(slug);
    let mut s = format!(
        "<nav class=\"learn-pager\" lang=\"{lang}\" aria-label=\"{}\">",
        escape(text(lang, "learn.pager"))
    );
    for (entry, rel, key) in [(prev, "prev", "learn.prev"), (next, "next", "learn.next")] {
        let Some(title) = entry.and_then(|e| Some((e, &lib.article(lang, &e.slug)?.title))) else {
            continue;
        };
        let _ = write!(
            s,
            "<a class=\"learn-{rel}\" rel=\"{rel}\" href=\"/learn/{}\" data-testid=\"learn-{rel}\">\
             <span class=\"learn-pager-label\">{}</span> <span class=\"learn-pager-title\">{}</span></a>",
            title.0.slug,
            escape(text(lang, key)),
            escape(title.1),
        );
    }
    s.push_str("</nav>");
    s
}

/// The content of the page for an unknown Learn address.
pub fn not_found(lang: &str) -> String {
    format!(
        "<article class=\"learn-page learn-missing\" data-testid=\"learn-not-found\"><h1>{}</h1>\
         <p>{}</p><p><a href=\"/learn\">{}</a></p></article>",
        escape(text(lang, "learn.not_found_title")),
        escape(text(lang, "learn.not_found")),
        escape(text(lang, "learn.back")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of the web app's `index.html`.
    const TEMPLATE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
        <title>Ply Yard</title></head>\n<body><noscript>Ply Yard needs JavaScript.</noscript>\
        <div id=\"app\"></div></body></html>\n";

    #[test]
    fn documents_carry_language_title_header_and_content() {
        let doc = document(TEMPLATE, "fr", "Le <roque>", "<p>x</p>");
        assert!(doc.contains("<p>x</p>"), "{doc}");
        assert!(doc.contains("data-testid=\"learn-link\""), "{doc}");
        assert!(doc.contains("Le &lt;roque&gt; · "), "{doc}");
        assert!(!doc.contains("<noscript>"), "{doc}");
        assert!(doc.contains("<html lang=\"fr\">"), "{doc}");
        assert!(!doc.contains("<div id=\"app\"></div>"), "{doc}");
        assert!(!doc.contains("style="), "{doc}");
    }

    #[test]
    fn articles_link_their_neighbours_and_say_when_untranslated() {
        let lib = super::super::tests::fixture();
        let a = article(&lib, "fr", "castling").unwrap();
        assert!(a.contains("lang=\"en\""), "{a}");
        assert!(a.contains("class=\"learn-untranslated\""), "{a}");
        assert!(a.contains("rel=\"prev\" href=\"/learn/board\""), "{a}");
        assert!(
            a.contains("L&#39;échiquier"),
            "the French title of the previous page: {a}"
        );
        assert!(
            a.contains("rel=\"next\" href=\"/learn/worked-example\""),
            "{a}"
        );
        let b = article(&lib, "fr", "board").unwrap();
        assert!(
            !b.contains("learn-untranslated") && !b.contains("rel=\"prev\""),
            "{b}"
        );
        assert!(article(&lib, "en", "nope").is_none());
        let i = index(&lib, "en");
        assert!(i.contains("data-testid=\"learn-index\""), "{i}");
        assert!(i.find("/learn/board").unwrap() < i.find("/learn/worked-example").unwrap());
        assert_eq!(i.matches("<h2>").count(), 2, "{i}");
    }
}
