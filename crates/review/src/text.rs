//! A review in words: explanations rendered from the `explain.*` templates
//! of `web/i18n/*.json` with piece names and localised SAN, move comments,
//! and the annotated PGN (`[%eval]`, NAGs, the best line as a variation,
//! the explanation as a comment) that the CLI writes and the site offers.

use std::fmt::Write as _;

use plyyard_game::notation::{self, Lang};
use plyyard_game::pgn::{ClockPrecision, PgnTags, to_pgn};
use plyyard_game::{Game, GameResult};
use plyyard_i18n as i18n;
use shakmaty::Position;

use super::analyse::{MoveReview, Review};
use super::explain::{Explanation, Pattern, Piece};
use super::label::{Eval, Label, Side};

/// Every `explain.*` key the text layer may use.
pub fn template_keys() -> Vec<String> {
    let mut keys: Vec<String> = [
        "explain.and",
        "explain.missed_mate.in_one",
        "explain.missed_mate.longer",
        "explain.allows_mate.in_one",
        "explain.allows_mate.back_rank",
        "explain.allows_mate.longer",
        "explain.hangs.undefended",
        "explain.hangs.defended",
        "explain.hangs.already",
        "explain.losing_exchange",
        "explain.allows_win.pattern",
        "explain.allows_win.piece",
        "explain.allows_win.material",
        "explain.missed_win.check_pattern",
        "explain.missed_win.check",
        "explain.missed_win.check_material",
        "explain.missed_win.pattern",
        "explain.missed_win.piece",
        "explain.missed_win.material",
        "explain.best_was",
    ]
    .map(String::from)
    .to_vec();
    for p in Piece::ALL {
        for form in [".acc", ".a"] {
            keys.push(format!("explain.piece.{}{form}", p.as_str()));
        }
    }
    for p in Pattern::ALL {
        keys.push(format!("explain.pattern.{}", p.as_str()));
    }
    for l in [Label::Inaccuracy, Label::Mistake, Label::Blunder] {
        keys.push(format!("explain.label.{}", l.as_str()));
    }
    keys
}

/// The notation language of a site language (`en` for anything unknown).
fn notation_lang(lang: &str) -> Lang {
    lang.parse().unwrap_or(Lang::En)
}

/// SAN in `lang`'s piece letters.
fn local_san(san: &str, lang: &str, side: Side) -> String {
    notation::localize_san(san, notation_lang(lang), side.is_white())
}

/// A piece's name in one of its forms: `".acc"` (with its article, as the
/// object of a sentence), `".a"` (one of several, as in a list).
fn piece(lang: &str, p: Piece, form: &str) -> String {
    i18n::format(lang, &format!("explain.piece.{}{form}", p.as_str()), &[])
}

/// Pawns from centipawns, signed: `+3`, `-1`.
fn pawns(cp: i32) -> String {
    let p = f64::from(cp) / 100.0;
    if p.fract() == 0.0 {
        format!("{p:+.0}")
    } else {
        format!("{p:+.1}")
    }
}

fn list(lang: &str, pieces: &[Piece]) -> String {
    let names: Vec<String> = pieces.iter().map(|&p| piece(lang, p, ".a")).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => {
            format!(
                "{}{}{last}",
                rest.join(", "),
                i18n::format(lang, "explain.and", &[])
            )
        }
    }
}

/// One explanation as a sentence in `lang`, for a move by `mover`.
pub fn explanation(e: &Explanation, lang: &str, mover: Side) -> String {
    let f = |key: &str, args: &[(&str, &str)]| i18n::format(lang, key, args);
    let ours = |san: &str| local_san(san, lang, mover);
    let theirs = |san: &str| local_san(san, lang, mover.other());
    match e {
        Explanation::MissedMate { san, moves } => {
            let key = if *moves <= 1 {
                "explain.missed_mate.in_one"
            } else {
                "explain.missed_mate.longer"
            };
            f(key, &[("san", &ours(san)), ("moves", &moves.to_string())])
        }
        Explanation::AllowsMate {
            san,
            moves,
            back_rank,
        } => {
            let key = match (*moves <= 1, back_rank) {
                (true, true) => "explain.allows_mate.back_rank",
                (true, false) => "explain.allows_mate.in_one",
                (false, _) => "explain.allows_mate.longer",
            };
            f(key, &[("san", &theirs(san)), ("moves", &moves.to_string())])
        }
        Explanation::HangsPiece {
            piece: p,
            square,
            by,
            undefended,
            already,
        } => {
            let key = match (already, undefended) {
                (true, _) => "explain.hangs.already",
                (false, true) => "explain.hangs.undefended",
                (false, false) => "explain.hangs.defended",
            };
            f(
                key,
                &[
                    ("piece_acc", &piece(lang, *p, ".acc")),
                    ("square", square),
                    ("by", &theirs(by)),
                ],
            )
        }
        Explanation::LosingExchange { given, got, net } => f(
            "explain.losing_exchange",
            &[
                ("given", &list(lang, given)),
                ("got", &list(lang, got)),
                ("net", &pawns(*net)),
            ],
        ),
        Explanation::AllowsWin {
            san,
            pattern,
            wins,
            gain,
        } => win_sentence(
            lang,
            "allows_win",
            false,
            &theirs(san),
            *pattern,
            *wins,
            *gain,
        ),
        Explanation::MissedWin {
            san,
            check,
            pattern,
            wins,
            gain,
        } => win_sentence(
            lang,
            "missed_win",
            *check,
            &ours(san),
            *pattern,
            *wins,
            *gain,
        ),
        Explanation::BestWas { san } => f("explain.best_was", &[("san", &ours(san))]),
    }
}

fn win_sentence(
    lang: &str,
    family: &str,
    check: bool,
    san: &str,
    pattern: Option<Pattern>,
    wins: Option<Piece>,
    gain: i32,
) -> String {
    let prefix = if check { "check_" } else { "" };
    let (variant, pattern_text, wins_text) = match (wins, pattern) {
        (Some(w), Some(p)) => (
            format!("{prefix}pattern"),
            i18n::format(lang, &format!("explain.pattern.{}", p.as_str()), &[]),
            piece(lang, w, ".acc"),
        ),
        (Some(w), None) if check => ("check".to_owned(), String::new(), piece(lang, w, ".acc")),
        (Some(w), None) => ("piece".to_owned(), String::new(), piece(lang, w, ".acc")),
        (None, _) => (format!("{prefix}material"), String::new(), String::new()),
    };
    i18n::format(
        lang,
        &format!("explain.{family}.{variant}"),
        &[
            ("san", san),
            ("pattern", &pattern_text),
            ("wins", &wins_text),
            ("gain", &pawns(gain)),
        ],
    )
}

/// The name of a label in `lang` (`Blunder`).
pub fn label_name(label: Label, lang: &str) -> String {
    i18n::format(lang, &format!("explain.label.{}", label.as_str()), &[])
}

/// The comment of a labelled move: its label and its explanations, or
/// `None` for a move without label.
pub fn move_comment(m: &MoveReview, lang: &str) -> Option<String> {
    let label = m.label?;
    let mut text = format!("{}.", label_name(label, lang));
    for e in &m.explanations {
        text.push(' ');
        text.push_str(&explanation(e, lang, m.side));
    }
    Some(text)
}

/// An evaluation as PGN's `[%eval]` writes it: pawns for White with two
/// decimals (`0.35`, `-1.20`) or `#3` / `#-2`; `None` after a checkmate.
pub fn eval_text(e: Eval) -> Option<String> {
    match e {
        Eval::Cp(c) => Some(format!("{:.2}", f64::from(c) / 100.0)),
        Eval::Mate(m) => Some(format!("#{m}")),
        Eval::Checkmate(_) => None,
    }
}

/// `game` as PGN annotated with `review` (explanations in `lang`): after
/// each move `{[%eval …]}` (with `[%clk …]` to `clocks` when the game kept
/// clocks);
/// after a labelled move its NAG (`$6`, `$2`, `$4`), a comment with its
/// label and explanations, and the engine's best line as a variation.
///
/// # Panics
/// If `review` is not a review of `game`.
pub fn annotated_pgn(
    game: &Game,
    tags: &PgnTags,
    review: &Review,
    lang: &str,
    clocks: ClockPrecision,
) -> String {
    assert_eq!(
        review.moves.len(),
        game.history().len(),
        "a review of this game"
    );
    let mut tags = tags.clone();
    tags.extra
        .retain(|(k, _)| !k.eq_ignore_ascii_case("Annotator"));
    tags.extra.push(("Annotator".into(), "Ply Yard".into()));
    let full = to_pgn(game, &tags);
    let header = full.split_once("\n\n").map_or("", |(h, _)| h);
    let mut tokens: Vec<String> = Vec::new();
    let mut need_number = true;
    for ((played, m), pos) in game
        .history()
        .iter()
        .zip(&review.moves)
        .zip(game.positions())
    {
        let number = pos.fullmoves().get();
        let white = pos.turn().is_white();
        tokens.push(match (white, need_number) {
            (true, _) => format!("{number}. {}", played.san),
            (false, true) => format!("{number}... {}", played.san),
            (false, false) => played.san.clone(),
        });
        need_number = false;
        if let Some(label) = m.label {
            tokens.push(format!("${}", label.nag()));
        }
        let mut commands: Vec<String> = Vec::new();
        if let Some(e) = eval_text(m.after) {
            commands.push(format!("[%eval{KEEP}{e}]"));
        }
        if let Some(ms) = played.clock_ms {
            commands.push(format!(
                "[%clk{KEEP}{}]",
                plyyard_game::pgn::format_clock(ms, clocks)
            ));
        }
        if !commands.is_empty() {
            tokens.push(format!("{{{}}}", commands.join(" ")));
            need_number = true;
        }
        if let Some(text) = move_comment(m, lang) {
            tokens.push(format!("{{{}}}", text.replace('}', ")")));
        }
        if m.label.is_some() && !m.best.san.is_empty() && m.best.uci.first() != Some(&m.uci) {
            tokens.push(variation(number, white, &m.best.san));
            need_number = true;
        }
    }
    let result = game
        .outcome()
        .map_or(GameResult::Aborted, |o| o.result)
        .as_str();
    tokens.push(result.to_owned());
    let mut out = String::from(header);
    out.push_str("\n\n");
    wrap(&tokens.join(" "), &mut out);
    out.push_str("\n\n");
    out.replace(KEEP, " ")
}

/// Stands for a space that line wrapping must keep (inside `[%…]`).
const KEEP: char = '\u{1}';

/// `(12. Nf3 Nc6 13. Bb5)` for a line starting at move `number`.
fn variation(number: u32, white: bool, sans: &[String]) -> String {
    let mut s = String::from("(");
    let (mut number, mut white) = (number, white);
    for (i, san) in sans.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        if white {
            let _ = write!(s, "{number}. ");
        } else if i == 0 {
            let _ = write!(s, "{number}... ");
        }
        s.push_str(san);
        if !white {
            number += 1;
        }
        white = !white;
    }
    s.push(')');
    s
}

/// Appends `text` broken into lines of at most 79 characters at spaces.
fn wrap(text: &str, out: &mut String) {
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if len > 0 && len + 1 + n > 79 {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_exists_in_the_four_languages() {
        for lang in ["en", "fr", "ru", "ro"] {
            for key in template_keys() {
                let t = i18n::text(lang, &key);
                assert!(t.is_some_and(|t| !t.trim().is_empty()), "{lang}: {key}");
            }
        }
    }

    #[test]
    fn placeholders_are_those_each_template_gets() {
        let allowed = |key: &str| -> &'static [&'static str] {
            match key {
                k if k.starts_with("explain.missed_mate")
                    || k.starts_with("explain.allows_mate") =>
                {
                    &["san", "moves"]
                }
                k if k.starts_with("explain.hangs") => &["piece_acc", "square", "by"],
                "explain.losing_exchange" => &["given", "got", "net"],
                k if k.starts_with("explain.allows_win") || k.starts_with("explain.missed_win") => {
                    &["san", "pattern", "wins", "gain"]
                }
                "explain.best_was" => &["san"],
                _ => &[],
            }
        };
        let names = |t: &str| {
            let mut v: Vec<String> = t
                .split('{')
                .skip(1)
                .map(|part| part.split('}').next().unwrap_or_default().to_owned())
                .collect();
            v.sort();
            v
        };
        for lang in ["en", "fr", "ru", "ro"] {
            for key in template_keys() {
                let t = i18n::text(lang, &key).unwrap_or_default();
                for name in names(t) {
                    assert!(
                        allowed(&key).contains(&name.as_str()),
                        "{lang}: {key} uses {{{name}}}"
                    );
                }
                let en = i18n::text("en", &key).unwrap_or_default();
                assert_eq!(names(t), names(en), "{lang}: {key}: not en's placeholders");
            }
        }
    }

    #[test]
    fn sentences_use_local_letters() {
        let e = Explanation::HangsPiece {
            piece: Piece::Knight,
            square: "f6".into(),
            by: "Qxf6".into(),
            undefended: true,
            already: false,
        };
        let en = explanation(&e, "en", Side::Black);
        assert!(
            en.contains("knight") && en.contains("f6") && en.contains("Qxf6"),
            "{en}"
        );
        let fr = explanation(&e, "fr", Side::Black);
        assert!(fr.contains("Dxf6") && fr.contains("cavalier"), "{fr}");
        let ru = explanation(&e, "ru", Side::Black);
        assert!(ru.contains("Фxf6"), "{ru}");
        let missed = Explanation::MissedMate {
            san: "Qxf7#".into(),
            moves: 1,
        };
        assert!(explanation(&missed, "en", Side::White).contains("Qxf7#"));
        assert!(explanation(&missed, "ro", Side::White).contains("Dxf7#"));
    }

    #[test]
    fn lists_amounts_and_evals() {
        assert_eq!(pawns(-200), "-2");
        assert_eq!(pawns(300), "+3");
        assert_eq!(pawns(50), "+0.5");
        assert_eq!(
            list("en", &[Piece::Knight, Piece::Pawn]),
            format!(
                "{}{}{}",
                piece("en", Piece::Knight, ".a"),
                i18n::format("en", "explain.and", &[]),
                piece("en", Piece::Pawn, ".a")
            )
        );
        assert_eq!(eval_text(Eval::Cp(35)).as_deref(), Some("0.35"));
        assert_eq!(eval_text(Eval::Cp(-120)).as_deref(), Some("-1.20"));
        assert_eq!(eval_text(Eval::Mate(-2)).as_deref(), Some("#-2"));
        assert_eq!(eval_text(Eval::Checkmate(Side::White)), None);
        assert_eq!(
            variation(12, true, &["Nf3".into(), "Nc6".into(), "Bb5".into()]),
            "(12. Nf3 Nc6 13. Bb5)"
        );
        assert_eq!(
            variation(3, false, &["Nc6".into(), "Bb5".into()]),
            "(3... Nc6 4. Bb5)"
        );
    }
}
