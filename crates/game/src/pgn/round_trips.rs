//! Round trips through import and export: an imported game exports and
//! imports back to the same game.

use super::{ClockPrecision, ExportOptions, PgnImporter, PgnTags, to_pgn, to_pgn_with};
use crate::Variant;

/// Cross-check find: `Variant "Chess960"` without a FEN (the standard
/// array, as python-chess writes it) was refused.
#[test]
fn chess960_without_fen_starts_from_the_standard_array() {
    let text = b"[Variant \"Chess960\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O *\n";
    let games: Vec<_> = PgnImporter::new(&text[..]).collect();
    let g = &games[0].as_ref().unwrap().game;
    assert_eq!(g.variant(), Variant::Chess960);
    assert_eq!(g.history().last().unwrap().uci, "e1h1");
    assert_eq!(g.history().last().unwrap().san, "O-O");
    let pgn = to_pgn(g, &PgnTags::default());
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    let again: Vec<_> = PgnImporter::new(pgn.as_bytes()).collect();
    assert_eq!(again[0].as_ref().unwrap().game.moves(), g.moves());
}

/// Every file in `tests/data/fuzz` (inputs the fuzzers once broke on)
/// must import without panicking, and every game that imports must
/// export and import back to the same game.
#[test]
fn fuzz_inputs_round_trip() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fuzz");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        seen += 1;
        for item in PgnImporter::new(data.as_slice()).take(64) {
            let Ok(imported) = item else { continue };
            let ms = ExportOptions {
                clocks: ClockPrecision::Millis,
                ..ExportOptions::default()
            };
            let text = to_pgn_with(&imported.game, &imported.pgn_tags(), ms);
            let again: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
            assert_eq!(again.len(), 1, "{text}");
            let back = again.into_iter().next().unwrap().expect("own PGN imports");
            assert_eq!(back.game.history(), imported.game.history());
            assert_eq!(back.game.outcome(), imported.game.outcome());
        }
    }
    assert!(seen > 0);
}
