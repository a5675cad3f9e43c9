//! One Learn page's Markdown to HTML: the `# Title` line taken out as the
//! title, ```` ```board ```` blocks drawn as SVG diagrams, ```` ```exercise ````
//! blocks as mount points for the web app's exercises, the answer block
//! (`<details class="answer">`) as the only raw HTML allowed, links checked
//! (other Learn pages must exist) and every text escaped.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag};

use crate::board;
use crate::words::{escape, text};

/// The exercises the web app knows how to mount.
pub const EXERCISES: &[&str] = &[
    "replay",
    "mate-stalemate",
    "checks-captures-threats",
    "mate-drills",
    "puzzles",
];

/// What a page is rendered with.
pub struct Context<'a> {
    /// The page's language (for the texts the renderer adds).
    pub lang: &'a str,
    /// Every slug of `pages.json`, for checking links between pages.
    pub slugs: &'a [String],
}

/// A rendered page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The text of the first line's `# Title` (`None` when the page does
    /// not start with one).
    pub title: Option<String>,
    /// The page's HTML without its title.
    pub html: String,
}

/// Renders `src`, returning the page and what is wrong with it (an empty
/// list for a correct page). Faulty blocks are shown as plain text.
pub fn render(src: &str, cx: &Context) -> (Rendered, Vec<String>) {
    let mut r = Renderer {
        cx,
        problems: Vec::new(),
        open_answers: 0,
    };
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut it = Parser::new_ext(src, opts);
    let mut out: Vec<Event> = Vec::new();
    let mut title = None;
    let mut first = true;
    while let Some(ev) = it.next() {
        let was_first = std::mem::replace(&mut first, false);
        match ev {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }) if was_first => title = Some(collect_text(&mut it)),
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if matches!(info.trim(), "board" | "exercise") =>
            {
                let body = collect_text(&mut it);
                out.push(Event::Html(r.block(info.trim(), &body).into()));
            }
            Event::Start(Tag::HtmlBlock) => {
                let raw = collect_text(&mut it);
                out.push(Event::Html(r.answer_markup(&raw).into()));
            }
            Event::Html(raw) | Event::InlineHtml(raw) => {
                r.problems
                    .push(format!("raw HTML is not allowed here: `{}`", raw.trim()));
                out.push(Event::Text(raw));
            }
            Event::Start(Tag::Table(columns)) => {
                // Aligned columns would get `style` attributes, which the CSP forbids.
                out.push(Event::Start(Tag::Table(vec![
                    Alignment::None;
                    columns.len()
                ])));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = r.link(&dest_url).into();
                out.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                r.problems.push(format!(
                    "images are not supported (`{dest_url}`): use a board block"
                ));
                let alt = collect_text(&mut it);
                out.push(Event::Text(alt.into()));
            }
            other => out.push(other),
        }
    }
    if title.as_deref().is_none_or(|t| t.trim().is_empty()) {
        r.problems
            .push("the page does not start with a `# Title` line".to_owned());
        title = None;
    }
    if r.open_answers != 0 {
        r.problems
            .push("an answer block (<details class=\"answer\">) is not closed".to_owned());
    }
    let mut html = String::with_capacity(src.len() * 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    (Rendered { title, html }, r.problems)
}

/// The text of the events up to the end of the element just started
/// (nested elements included), without markup.
fn collect_text<'a>(it: &mut Parser<'a>) -> String {
    let mut depth = 1usize;
    let mut text = String::new();
    for ev in it.by_ref() {
        match ev {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                text.push_str(&t);
            }
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    text
}

struct Renderer<'c, 'a> {
    cx: &'c Context<'a>,
    problems: Vec<String>,
    open_answers: i32,
}

impl Renderer<'_, '_> {
    /// A board or exercise block, or the block as code when it is faulty.
    fn block(&mut self, kind: &str, body: &str) -> String {
        let result = if kind == "board" {
            board::parse(body).map(|d| d.to_html(text(self.cx.lang, "learn.board_label")))
        } else {
            exercise(body, text(self.cx.lang, "learn.exercise_nojs"))
        };
        result.unwrap_or_else(|e| {
            self.problems.push(format!("{kind} block: {e}"));
            format!("<pre><code>{}</code></pre>", escape(body))
        })
    }

    /// The answer block's markup (`<details class="answer">`,
    /// `<summary>TEXT</summary>`, `</details>`): the only raw HTML allowed.
    /// Anything else is shown as text.
    fn answer_markup(&mut self, raw: &str) -> String {
        let mut out = String::new();
        let mut rest = raw;
        let mut in_summary = false;
        while !rest.is_empty() {
            let (text, tag, after) = match rest.find('<') {
                Some(i) => match rest[i..].find('>') {
                    Some(j) => (&rest[..i], &rest[i..=i + j], &rest[i + j + 1..]),
                    None => (rest, "", ""),
                },
                None => (rest, "", ""),
            };
            if in_summary {
                out.push_str(&escape(text.trim()));
            } else if !text.trim().is_empty() {
                self.problems
                    .push(format!("text outside the answer's tags: `{}`", text.trim()));
                out.push_str(&escape(text));
            }
            match tag {
                "" => {}
                "<details class=\"answer\">" => {
                    self.open_answers += 1;
                    out.push_str("<details class=\"answer\">");
                }
                "</details>" => {
                    self.open_answers -= 1;
                    out.push_str("</details>");
                }
                "<summary>" if !in_summary => {
                    in_summary = true;
                    out.push_str("<summary data-testid=\"show-answer\">");
                }
                "</summary>" if in_summary => {
                    in_summary = false;
                    out.push_str("</summary>");
                }
                other => {
                    self.problems
                        .push(format!("raw HTML is not allowed here: `{other}`"));
                    out.push_str(&escape(other));
                }
            }
            rest = after;
        }
        if in_summary {
            self.problems.push("a <summary> is not closed".to_owned());
            out.push_str("</summary>");
        }
        if self.open_answers < 0 {
            self.problems
                .push("</details> without its <details class=\"answer\">".to_owned());
            self.open_answers = 0;
        }
        out
    }

    /// Where a link may point: a part of the page (`#…`), another site
    /// (`https:`, `http:`, `mailto:`), a path of this site, or another
    /// Learn page by its slug (`castling`, made `/learn/castling`). Others
    /// point nowhere (`#`).
    fn link(&mut self, dest: &str) -> String {
        let external = ["https://", "http://", "mailto:"]
            .iter()
            .any(|p| dest.starts_with(p));
        if dest.starts_with('#') || external {
            return dest.to_owned();
        }
        let (path, _) = dest.split_once(['#', '?']).unwrap_or((dest, ""));
        let learn_slug = path
            .strip_prefix("/learn/")
            .or((!path.contains(['/', ':', '.'])).then_some(path));
        match learn_slug {
            Some(slug) if self.cx.slugs.iter().any(|s| s == slug) => {
                if dest.starts_with('/') {
                    dest.to_owned()
                } else {
                    format!("/learn/{dest}")
                }
            }
            Some(slug) => {
                self.problems
                    .push(format!("link to `{dest}`: there is no Learn page `{slug}`"));
                "#".to_owned()
            }
            None if dest.starts_with('/') && !dest.starts_with("//") => dest.to_owned(),
            None => {
                self.problems
                    .push(format!("link to `{dest}` is not allowed"));
                "#".to_owned()
            }
        }
    }
}

/// An exercise block: its first line names the exercise, further lines are
/// `key: value` settings passed on as `data-key` attributes (a `fen` must
/// be a legal position).
fn exercise(body: &str, notice: &str) -> Result<String, String> {
    let mut lines = body.lines().map(str::trim).filter(|l| !l.is_empty());
    let name = lines.next().ok_or("an exercise block needs a name")?;
    if !EXERCISES.contains(&name) {
        return Err(format!(
            "unknown exercise `{name}` (known: {})",
            EXERCISES.join(", ")
        ));
    }
    let mut out = format!("<div class=\"exercise\" data-exercise=\"{name}\"");
    for line in lines {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("exercise line `{line}` is not `key: value`"))?;
        let (key, value) = (key.trim(), value.trim());
        let valid_key = key.len() <= 30
            && key.starts_with(|c: char| c.is_ascii_lowercase())
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !valid_key || key == "exercise" {
            return Err(format!(
                "exercise key `{key}`: lower-case letters, digits, `-`"
            ));
        }
        if key == "fen" {
            board::check_fen(value)?;
        }
        out.push_str(&format!(" data-{key}=\"{}\"", escape(value)));
    }
    out.push_str(&format!(
        "><p class=\"exercise-nojs\">{}</p></div>",
        escape(notice)
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render_en(src: &str) -> (Rendered, Vec<String>) {
        let slugs = ["board".to_owned(), "castling".to_owned()];
        render(
            src,
            &Context {
                lang: "en",
                slugs: &slugs,
            },
        )
    }

    #[test]
    fn the_fixture_page_renders_cleanly() {
        let src = include_str!("../tests/data/learn/en/board.md");
        let (page, problems) = render_en(src);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(page.title.as_deref(), Some("The board & the set-up"));
        let h = &page.html;
        assert!(!h.contains("<h1>"), "the title is not repeated: {h}");
        assert_eq!(h.matches("data-testid=\"learn-board\"").count(), 3, "{h}");
        assert!(
            h.contains("<summary data-testid=\"show-answer\">Show answer</summary>"),
            "{h}"
        );
        assert!(h.contains("<details class=\"answer\">"), "{h}");
        assert!(h.contains("href=\"/learn/castling\""), "{h}");
        assert!(h.contains("<strong>queen on her colour</strong>"), "{h}");
        assert!(
            h.contains("1 &lt; 2 &amp; 3 &gt; 2"),
            "text is escaped: {h}"
        );
        assert!(!h.contains("style="), "{h}");
        assert!(h.contains("<table>") && h.contains("<th>"), "{h}");
        assert!(
            h.contains(
                "<div class=\"exercise\" data-exercise=\"checks-captures-threats\" data-fen=\""
            ) && h.contains("class=\"exercise-nojs\""),
            "{h}"
        );
        // The answer's board sits inside the answer.
        let answer = &h[h.find("<details").unwrap()..h.find("</details>").unwrap()];
        assert!(answer.contains("data-testid=\"learn-board\""), "{answer}");
    }

    #[test]
    fn faults_are_reported_and_shown_harmlessly() {
        let (page, problems) = render_en(
            "Intro without a title.\n\n<div onclick=\"x()\">hi</div>\n\n\
             Some <b>inline</b> html.\n\n```board\nfen: 8/8/8/8/8/8/8/8 w - - 0 1\n```\n\n\
             ```exercise\nsudoku\n```\n\n[bad](javascript:alert(1)) [lost](nowhere) \
             ![img](/x.png)\n\n<details class=\"answer\">\n<summary>Open</summary>\n\nNo end.\n",
        );
        let all = problems.join("\n");
        for wanted in [
            "does not start with a `# Title`",
            "raw HTML is not allowed here: `<div onclick=\"x()\">`",
            "raw HTML is not allowed here: `<b>`",
            "illegal FEN",
            "unknown exercise `sudoku`",
            "link to `javascript:alert(1)` is not allowed",
            "no Learn page `nowhere`",
            "images are not supported",
            "is not closed",
        ] {
            assert!(all.contains(wanted), "missing {wanted:?} in:\n{all}");
        }
        assert_eq!(page.title, None);
        let h = &page.html;
        assert!(!h.contains("<div onclick") && !h.contains("<b>"), "{h}");
        assert!(!h.contains("javascript:"), "{h}");
        assert!(!h.contains("<img"), "{h}");
        assert!(h.contains("<pre><code>fen: 8/8/8/8/8/8/8/8"), "{h}");
    }

    #[test]
    fn links_between_pages() {
        let (page, problems) = render_en(
            "# T\n\n[a](castling) [b](/learn/board#set-up) [c](#top) [d](https://fide.com) [e](/multiplayer)",
        );
        assert!(problems.is_empty(), "{problems:?}");
        for href in [
            "/learn/castling",
            "/learn/board#set-up",
            "#top",
            "https://fide.com",
            "/multiplayer",
        ] {
            assert!(
                page.html.contains(&format!("href=\"{href}\"")),
                "{href}: {}",
                page.html
            );
        }
    }

    #[test]
    fn exercise_settings_become_data_attributes() {
        let html = exercise("puzzles\nmate-in: 2\n", "JS!").unwrap();
        assert_eq!(
            html,
            "<div class=\"exercise\" data-exercise=\"puzzles\" data-mate-in=\"2\"><p class=\"exercise-nojs\">JS!</p></div>"
        );
        assert!(exercise("puzzles\nOn Click: x", "").is_err());
        assert!(exercise("replay\nfen: 8/8/8/8/8/8/8/8 w - - 0 1", "").is_err());
        assert!(exercise("", "").is_err());
    }
}
