//! Fuzz target: any bytes as a FEN. Must never panic; a FEN that loads must
//! write back a FEN that loads to the same position.
#![no_main]

use plyyard_game::{Game, RuleSet};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(g) = Game::from_fen(&text, RuleSet::Fide) {
        let again = Game::from_fen_with(
            &g.fen(),
            RuleSet::Fide,
            g.variant() == plyyard_game::Variant::Chess960,
        )
        .expect("our own FEN loads");
        assert_eq!(again.position(), g.position());
        assert_eq!(again.fen(), g.fen());
        let _ = g.summary();
    }
    // Perft loading also accepts impossible checks and too much material.
    if let Ok(g) = Game::from_fen_lenient(&text, RuleSet::Fide) {
        let again = Game::from_fen_lenient(&g.fen(), RuleSet::Fide).expect("our own FEN loads");
        assert_eq!(again.position(), g.position());
        assert_eq!(again.fen(), g.fen());
        let _ = g.summary();
    }
});
