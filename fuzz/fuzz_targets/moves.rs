//! Fuzz target: a start (first two bytes: standard or a Chess960 number)
//! and moves, one per line, in UCI or SAN of any language. Must never panic;
//! a refused move leaves the game exactly as it was.
#![no_main]

use plyyard_game::{Game, RuleSet};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let n = u32::from(u16::from_le_bytes([data[0], data[1]])) % 1200;
    let rules = if n % 2 == 0 {
        RuleSet::PlyYard
    } else {
        RuleSet::Fide
    };
    let mut g = if n < 960 {
        Game::chess960(n, rules).expect("valid number")
    } else {
        Game::new(rules)
    };
    let text = String::from_utf8_lossy(&data[2..]);
    for line in text.lines() {
        let before = (g.fen(), g.ply(), g.outcome());
        match g.play_text(line) {
            Ok(played) => {
                let (uci, san) = (played.uci.clone(), played.san.clone());
                let back = g.take_back().expect("a move just played");
                assert_eq!((back.uci, back.san), (uci.clone(), san.clone()));
                assert_eq!((g.fen(), g.ply(), g.outcome()), before);
                g.play_uci(&uci).expect("the move's own UCI replays");
                let _ = g.claimable();
            }
            Err(_) => assert_eq!((g.fen(), g.ply(), g.outcome()), before),
        }
    }
});
