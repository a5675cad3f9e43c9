//! PGN: export of a [`Game`] (Seven Tag Roster, Chess960 set-up, time
//! control, termination, clock comments) and streaming import of PGN files
//! through pgn-reader, with errors naming game, line and move.

use std::fmt::Write as _;

use shakmaty::Position;

mod import;
#[cfg(test)]
mod round_trips;
mod tags;

pub use import::{ImportedGame, PgnError, PgnErrorKind, PgnImporter};
pub use tags::{DERIVED_TAGS, PgnTags};

use crate::game::Game;
use crate::notation::{self, Lang};
use crate::rules::{GameResult, Reason, Variant};

fn escape(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect()
}

/// PGN `Termination` value for a reason.
pub fn termination(reason: Option<Reason>) -> &'static str {
    match reason {
        None => "unterminated",
        Some(Reason::Timeout | Reason::TimeoutVsInsufficientMaterial) => "time forfeit",
        Some(Reason::Abandonment | Reason::Aborted) => "abandoned",
        Some(_) => "normal",
    }
}

/// Formats milliseconds as a `[%clk]` value: `h:mm:ss`, with decimals only
/// when the clock has a fraction of a second.
pub fn format_clock(ms: u64) -> String {
    let secs = ms / 1000;
    let frac = ms % 1000;
    let mut s = format!("{}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60);
    if frac != 0 {
        let f = format!("{frac:03}");
        s.push('.');
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

/// Exports `game` as PGN with English SAN. See [`to_pgn_lang`].
pub fn to_pgn(game: &Game, tags: &PgnTags) -> String {
    to_pgn_lang(game, tags, Lang::En)
}

/// Exports `game` as PGN, writing SAN with the piece letters of `lang`.
///
/// Tags: the Seven Tag Roster, then `Variant "Chess960"` for Chess960 games,
/// `SetUp "1"` + `FEN` when the game did not start from the standard
/// position, `TimeControl` when known, `Termination`, `Rules` (the rule set)
/// and the extra tags (those with valid names not in [`DERIVED_TAGS`]). Moves carry `{[%clk h:mm:ss]}` when clocks were kept.
pub fn to_pgn_lang(game: &Game, tags: &PgnTags, lang: Lang) -> String {
    let result = game
        .outcome()
        .map(|o| o.result)
        .unwrap_or(GameResult::Aborted);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &tags.date);
    tag("Round", &tags.round);
    tag("White", &tags.white);
    tag("Black", &tags.black);
    tag("Result", result.as_str());
    if game.variant() == Variant::Chess960 {
        tag("Variant", "Chess960");
    }
    let standard_start = shakmaty::Chess::default();
    let initial = game.initial_position();
    let differs = game.variant() == Variant::Chess960
        || *initial != standard_start
        || game.initial_fen() != crate::Game::new(game.rules()).initial_fen();
    if differs {
        tag("SetUp", "1");
        tag("FEN", &game.initial_fen());
    }
    if let Some(tc) = &tags.time_control {
        tag("TimeControl", tc);
    }
    tag("Termination", termination(game.outcome().map(|o| o.reason)));
    tag("Rules", game.rules().as_str());
    if let Some(o) = game.outcome() {
        tag("PlyYardReason", o.reason.as_str());
    }
    for (k, v) in &tags.extra {
        let valid = !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid && !DERIVED_TAGS.iter().any(|d| d.eq_ignore_ascii_case(k)) {
            tag(k, v);
        }
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut need_number = true;
    for (played, pos) in game.history().iter().zip(game.positions()) {
        let white = pos.turn().is_white();
        let number = pos.fullmoves().get();
        let san = notation::localize_san(&played.san, lang, white);
        if white {
            tokens.push(format!("{number}. {san}"));
        } else if need_number {
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san);
        }
        need_number = false;
        if let Some(ms) = played.clock_ms {
            tokens.push(format!("{{[%clk {}]}}", format_clock(ms)));
            need_number = true;
        }
    }
    tokens.push(result.as_str().to_owned());

    let mut line_len = 0;
    for t in tokens {
        let len = t.chars().count();
        if line_len > 0 && line_len + 1 + len > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += len;
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, RuleSet};
    use shakmaty::Color;

    const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

    /// Compares with a golden file; `UPDATE_GOLDEN=1` rewrites it.
    fn golden(name: &str, actual: &str) {
        let path = format!("{DATA}/{name}");
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, actual).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(actual, expected, "golden file {name}");
    }

    fn timed_game() -> Game {
        let mut g = Game::new(RuleSet::PlyYard);
        let clocks = [
            180_000, 179_500, 178_000, 177_250, 170_000, 176_000, 169_100,
        ];
        for (san, ms) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
            .into_iter()
            .zip(clocks)
        {
            let m = g.parse_san(san).unwrap();
            g.play_with(m, Some(ms), false).unwrap();
        }
        g
    }

    fn tags() -> PgnTags {
        PgnTags {
            event: "Ply Yard table".into(),
            site: "http://127.0.0.1:8080/t/abc123".into(),
            date: "2026.11.29".into(),
            round: "-".into(),
            white: "Ana \"the rook\"".into(),
            black: "Boris".into(),
            time_control: Some("180+2".into()),
            extra: vec![("WhiteElo".into(), "1500".into())],
        }
    }

    #[test]
    fn export_with_clocks() {
        golden("export_clocks.pgn", &to_pgn(&timed_game(), &tags()));
    }

    #[test]
    fn export_localised() {
        let g = timed_game();
        golden(
            "export_fr.pgn",
            &to_pgn_lang(&g, &PgnTags::default(), Lang::Fr),
        );
        golden(
            "export_ru.pgn",
            &to_pgn_lang(&g, &PgnTags::default(), Lang::Ru),
        );
    }

    #[test]
    fn export_chess960_and_resignation() {
        let mut g = Game::chess960(0, RuleSet::Fide).unwrap();
        for san in ["g4", "g5", "Nf3", "Nf6", "Ne3", "Ne6"] {
            g.play_san(san).unwrap();
        }
        g.resign(Color::Black).unwrap();
        golden("export_chess960.pgn", &to_pgn(&g, &PgnTags::default()));
    }

    #[test]
    fn export_from_fen_black_to_move_and_timeout() {
        let mut g = Game::from_fen("8/8/8/4n3/8/k7/8/KR6 b - - 10 60", RuleSet::PlyYard).unwrap();
        g.play_san("Nd3").unwrap();
        g.flag(Color::White).unwrap();
        golden("export_fen_timeout.pgn", &to_pgn(&g, &PgnTags::default()));
    }

    #[test]
    fn exported_games_import_back() {
        for g in [timed_game(), Game::chess960(0, RuleSet::Fide).unwrap()] {
            let text = to_pgn(&g, &tags());
            let back: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
            assert_eq!(back.len(), 1);
            let imported = back[0].as_ref().unwrap();
            assert_eq!(imported.game.history(), g.history());
            assert_eq!(imported.game.outcome(), g.outcome());
            assert_eq!(imported.game.initial_fen(), g.initial_fen());
            assert_eq!(imported.pgn_tags(), tags());
            assert_eq!(to_pgn(&imported.game, &imported.pgn_tags()), text);
        }
    }

    #[test]
    fn clock_format() {
        assert_eq!(format_clock(0), "0:00:00");
        assert_eq!(format_clock(3_723_000), "1:02:03");
        assert_eq!(format_clock(59_500), "0:00:59.5");
        assert_eq!(format_clock(1_250), "0:00:01.25");
    }
}
