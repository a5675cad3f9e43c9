//! PGN: export of a [`Game`] (Seven Tag Roster, Chess960 set-up, time
//! control, termination, clock comments) and streaming import of PGN files
//! through pgn-reader, with errors naming game, line and move.

use std::fmt::Write as _;

use shakmaty::Position;

mod import;
#[cfg(test)]
mod round_trips;
mod tags;
mod tree;

pub use import::{ImportedGame, PgnError, PgnErrorKind, PgnImporter};
pub use tags::{DERIVED_TAGS, PgnTags};
pub use tree::{MoveTree, TreeError, TreeLimits, TreeNode, line_tree, read_tree};

use crate::game::Game;
use crate::notation::{self, Lang};
use crate::rules::{GameResult, ParseNameError, Reason, Variant};

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

/// How precisely `[%clk]` comments give the clocks.
///
/// Whole seconds is what people download (lichess and most readers write
/// and expect `[%clk 0:03:00]`); milliseconds keep the recorded clocks
/// exactly, for tools that read them back (`plyyard pgn export
/// --clock-precision ms`, the python-chess cross-check).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ClockPrecision {
    /// `h:mm:ss`, rounded to the nearest second as lichess does (half a
    /// second up).
    #[default]
    Seconds,
    /// `h:mm:ss` with the milliseconds as decimals when there are any
    /// (`0:02:59.5`, `0:03:00.506`).
    Millis,
}

impl ClockPrecision {
    /// The name [`FromStr`](std::str::FromStr) reads: `s` or `ms`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockPrecision::Seconds => "s",
            ClockPrecision::Millis => "ms",
        }
    }
}

impl std::fmt::Display for ClockPrecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ClockPrecision {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<ClockPrecision, ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "seconds" => Ok(ClockPrecision::Seconds),
            "ms" | "millis" | "milliseconds" => Ok(ClockPrecision::Millis),
            _ => Err(ParseNameError {
                what: "clock precision (s or ms)",
                input: s.to_owned(),
            }),
        }
    }
}

/// Formats milliseconds as a `[%clk]` value, `h:mm:ss`, to `precision`.
///
/// # Examples
/// ```
/// use plyyard_game::pgn::{ClockPrecision, format_clock};
/// assert_eq!(format_clock(180_506, ClockPrecision::Seconds), "0:03:01");
/// assert_eq!(format_clock(180_506, ClockPrecision::Millis), "0:03:00.506");
/// ```
pub fn format_clock(ms: u64, precision: ClockPrecision) -> String {
    let (secs, frac) = match precision {
        ClockPrecision::Seconds => (ms.saturating_add(500) / 1000, 0),
        ClockPrecision::Millis => (ms / 1000, ms % 1000),
    };
    let mut s = format!("{}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60);
    if frac != 0 {
        let f = format!("{frac:03}");
        s.push('.');
        s.push_str(f.trim_end_matches('0'));
    }
    s
}

/// How [`to_pgn_with`] writes a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportOptions {
    /// Piece letters of the SAN.
    pub lang: Lang,
    /// Precision of the `[%clk]` comments.
    pub clocks: ClockPrecision,
}

/// Exports `game` as PGN with English SAN and clocks in whole seconds.
/// See [`to_pgn_with`].
pub fn to_pgn(game: &Game, tags: &PgnTags) -> String {
    to_pgn_lang(game, tags, Lang::En)
}

/// Exports `game` as PGN, writing SAN with the piece letters of `lang`
/// and clocks in whole seconds. See [`to_pgn_with`].
pub fn to_pgn_lang(game: &Game, tags: &PgnTags, lang: Lang) -> String {
    to_pgn_with(
        game,
        tags,
        ExportOptions {
            lang,
            clocks: ClockPrecision::Seconds,
        },
    )
}

/// Exports `game` as PGN as `options` say (piece letters, clock precision).
///
/// Tags: the Seven Tag Roster, then `Variant "Chess960"` for Chess960 games,
/// `SetUp "1"` + `FEN` when the game did not start from the standard
/// position, `TimeControl` when known, `Termination`, `Rules` (the rule set)
/// and the extra tags (those with valid names not in [`DERIVED_TAGS`]).
/// Moves carry `{[%clk h:mm:ss]}` when clocks were kept.
pub fn to_pgn_with(game: &Game, tags: &PgnTags, options: ExportOptions) -> String {
    let lang = options.lang;
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
            tokens.push(format!("{{[%clk {}]}}", format_clock(ms, options.clocks)));
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
        let ms = ExportOptions {
            clocks: ClockPrecision::Millis,
            ..ExportOptions::default()
        };
        golden(
            "export_clocks_ms.pgn",
            &to_pgn_with(&timed_game(), &tags(), ms),
        );
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
        let ms = ExportOptions {
            clocks: ClockPrecision::Millis,
            ..ExportOptions::default()
        };
        for g in [timed_game(), Game::chess960(0, RuleSet::Fide).unwrap()] {
            let text = to_pgn_with(&g, &tags(), ms);
            let back: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
            assert_eq!(back.len(), 1);
            let imported = back[0].as_ref().unwrap();
            assert_eq!(imported.game.history(), g.history());
            assert_eq!(imported.game.outcome(), g.outcome());
            assert_eq!(imported.game.initial_fen(), g.initial_fen());
            assert_eq!(imported.pgn_tags(), tags());
            assert_eq!(to_pgn_with(&imported.game, &imported.pgn_tags(), ms), text);
        }
    }

    #[test]
    fn whole_second_clocks_import_back_rounded() {
        let g = timed_game();
        let text = to_pgn(&g, &tags());
        assert!(text.contains("1... e5 {[%clk 0:03:00]}"), "{text}");
        assert!(!text.contains("[%clk 0:02:59"), "{text}");
        let back: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
        assert_eq!(back.len(), 1);
        let imported = back[0].as_ref().unwrap();
        assert_eq!(imported.game.moves(), g.moves());
        assert_eq!(imported.game.outcome(), g.outcome());
        let clocks: Vec<Option<u64>> = imported.game.history().iter().map(|p| p.clock_ms).collect();
        let rounded: Vec<Option<u64>> = g
            .history()
            .iter()
            .map(|p| p.clock_ms.map(|ms| (ms + 500) / 1000 * 1000))
            .collect();
        assert_eq!(clocks, rounded);
        // Written again, nothing changes: whole seconds are a fixed point.
        assert_eq!(to_pgn(&imported.game, &imported.pgn_tags()), text);
    }

    #[test]
    fn clock_format() {
        use ClockPrecision::{Millis, Seconds};
        for p in [Seconds, Millis] {
            assert_eq!(format_clock(0, p), "0:00:00");
            assert_eq!(format_clock(3_723_000, p), "1:02:03");
            assert_eq!(format_clock(36_000_000, p), "10:00:00");
        }
        assert_eq!(format_clock(59_500, Millis), "0:00:59.5");
        assert_eq!(format_clock(1_250, Millis), "0:00:01.25");
        assert_eq!(format_clock(180_506, Millis), "0:03:00.506");
        // Whole seconds: to the nearest, half a second up (lichess's rule).
        assert_eq!(format_clock(180_499, Seconds), "0:03:00");
        assert_eq!(format_clock(180_500, Seconds), "0:03:01");
        assert_eq!(format_clock(59_999, Seconds), "0:01:00");
        assert_eq!(format_clock(3_599_600, Seconds), "1:00:00");
        assert_eq!(format_clock(400, Seconds), "0:00:00");
        assert!(format_clock(u64::MAX, Seconds).ends_with(":51"));
    }

    #[test]
    fn clock_precision_names() {
        for p in [ClockPrecision::Seconds, ClockPrecision::Millis] {
            assert_eq!(p.to_string().parse::<ClockPrecision>(), Ok(p));
        }
        assert_eq!("MS".parse::<ClockPrecision>(), Ok(ClockPrecision::Millis));
        assert_eq!(ClockPrecision::default(), ClockPrecision::Seconds);
        let e = "cs".parse::<ClockPrecision>().unwrap_err();
        assert_eq!(e.input, "cs");
    }
}
