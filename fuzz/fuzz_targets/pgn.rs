//! Fuzz target: any bytes as a PGN file. Must never panic; every game that
//! imports must export and import back to the same game.
#![no_main]

use plyyard_game::pgn::{PgnImporter, to_pgn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for item in PgnImporter::new(data).take(64) {
        let Ok(imported) = item else { continue };
        let text = to_pgn(&imported.game, &imported.pgn_tags());
        let again: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
        assert_eq!(again.len(), 1, "{text}");
        let back = again
            .into_iter()
            .next()
            .unwrap()
            .expect("our own PGN imports");
        assert_eq!(back.game.history(), imported.game.history(), "{text}");
        assert_eq!(back.game.outcome(), imported.game.outcome(), "{text}");
    }
});
