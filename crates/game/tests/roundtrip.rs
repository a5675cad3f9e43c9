//! Property tests over random legal games (standard and Chess960, both rule
//! sets): FEN, SAN, UCI and PGN round-trip to the same game.

use plyyard_game::notation::{Lang, delocalize_san, localize_san};
use plyyard_game::pgn::{
    ClockPrecision, ExportOptions, PgnImporter, PgnTags, to_pgn, to_pgn_lang, to_pgn_with,
};
use plyyard_game::shakmaty::Color;
use plyyard_game::{Game, RuleSet};
use proptest::prelude::*;

/// Plays `choices` as indices into the legal move list until the game ends.
fn random_game(start: Option<u32>, fide: bool, choices: &[u16], clocks: bool) -> Game {
    let rules = if fide {
        RuleSet::Fide
    } else {
        RuleSet::PlyYard
    };
    let mut g = match start {
        Some(n) => Game::chess960(n, rules).unwrap(),
        None => Game::new(rules),
    };
    for (i, c) in choices.iter().enumerate() {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(*c) % moves.len()];
        let clock = clocks.then_some(300_000 - (i as u64) * 1_250);
        g.play_with(m, clock, false).unwrap();
    }
    g
}

fn game_strategy() -> impl Strategy<Value = Game> {
    (
        prop::option::of(0u32..960),
        any::<bool>(),
        prop::collection::vec(any::<u16>(), 0..160),
        any::<bool>(),
    )
        .prop_map(|(start, fide, choices, clocks)| random_game(start, fide, &choices, clocks))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn fen_round_trips(g in game_strategy()) {
        for ply in 0..=g.ply() {
            let pos = g.position_at(ply).unwrap();
            let fen = plyyard_game::shakmaty::fen::Fen::from_position(&pos, plyyard_game::shakmaty::EnPassantMode::Legal).to_string();
            let back = Game::from_fen_with(&fen, g.rules(), g.variant() == plyyard_game::Variant::Chess960).unwrap();
            prop_assert_eq!(back.position(), &pos);
            prop_assert_eq!(back.fen(), fen);
        }
    }

    /// The game keeps only its start and current position: every earlier one,
    /// replayed, is the one its moves reached, and repetitions count the same
    /// as a plain comparison of every position.
    #[test]
    fn replayed_positions_are_the_played_ones(g in game_strategy()) {
        let mut replay = Game::from_fen_with(&g.initial_fen(), g.rules(), g.variant() == plyyard_game::Variant::Chess960).unwrap();
        let all: Vec<_> = g.positions().collect();
        prop_assert_eq!(all.len(), g.ply() + 1);
        prop_assert_eq!(&all[0], g.initial_position());
        for (i, played) in g.history().iter().enumerate() {
            prop_assert_eq!(&all[i], replay.position());
            replay.play_uci(&played.uci).unwrap();
        }
        prop_assert_eq!(all.last().unwrap(), g.position());
        prop_assert!(g.position_at(g.ply() + 1).is_none());
        // Repetitions counted by comparing whole positions (shakmaty's equality:
        // board, turn, castling, legal en passant) since the last irreversible move.
        for (i, pos) in all.iter().enumerate() {
            let since = i.saturating_sub(plyyard_game::shakmaty::Position::halfmoves(pos) as usize);
            let naive = all[since..=i].iter().filter(|p| *p == pos).count();
            prop_assert_eq!(g.repetitions_at(i), naive, "ply {}", i);
        }
    }

    #[test]
    fn san_and_uci_replay_the_same_game(g in game_strategy()) {
        let mut by_san = Game::from_fen_with(&g.initial_fen(), g.rules(), g.variant() == plyyard_game::Variant::Chess960).unwrap();
        let mut by_uci = by_san.clone();
        let mut by_lang: Vec<Game> = Lang::ALL.iter().map(|_| by_san.clone()).collect();
        for played in g.history() {
            let white = by_san.turn() == Color::White;
            prop_assert_eq!(&by_san.play_san(&played.san).unwrap().uci, &played.uci);
            prop_assert_eq!(&by_uci.play_uci(&played.uci).unwrap().san, &played.san);
            for (lang, replay) in Lang::ALL.iter().zip(by_lang.iter_mut()) {
                let local = localize_san(&played.san, *lang, white);
                prop_assert_eq!(delocalize_san(&local, *lang), Some(played.san.clone()));
                let m = replay.parse_san_lang(&local, *lang).unwrap();
                prop_assert_eq!(m, played.mv);
                replay.play(m).unwrap();
            }
        }
        prop_assert_eq!(by_san.fen(), g.fen());
        prop_assert_eq!(by_uci.fen(), g.fen());
        prop_assert_eq!(by_san.outcome(), g.outcome());
        prop_assert_eq!(by_uci.legal_uci(), g.legal_uci());
    }

    #[test]
    fn pgn_export_then_import_is_the_same_game(games in prop::collection::vec(game_strategy(), 1..4)) {
        let ms = ExportOptions { clocks: ClockPrecision::Millis, ..ExportOptions::default() };
        let mut text = String::new();
        for g in &games {
            text.push_str(&to_pgn_with(g, &PgnTags::default(), ms));
        }
        let back: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
        prop_assert_eq!(back.len(), games.len());
        for (g, b) in games.iter().zip(back) {
            let b = b.unwrap();
            prop_assert_eq!(b.game.history(), g.history());
            prop_assert_eq!(b.game.outcome(), g.outcome());
            prop_assert_eq!(b.game.fen(), g.fen());
            prop_assert_eq!(b.game.rules(), g.rules());
            prop_assert_eq!(b.game.variant(), g.variant());
        }
    }

    #[test]
    fn whole_second_pgn_imports_back_with_rounded_clocks(g in game_strategy()) {
        let text = to_pgn(&g, &PgnTags::default());
        let back: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
        prop_assert_eq!(back.len(), 1);
        let b = back.into_iter().next().unwrap().unwrap();
        prop_assert_eq!(b.game.moves(), g.moves());
        prop_assert_eq!(b.game.outcome(), g.outcome());
        for (x, y) in b.game.history().iter().zip(g.history()) {
            prop_assert_eq!(x.clock_ms, y.clock_ms.map(|ms| (ms + 500) / 1000 * 1000));
        }
    }

    #[test]
    fn localised_pgn_has_the_same_moves(g in game_strategy()) {
        let en = to_pgn(&g, &PgnTags::default());
        for lang in [Lang::Fr, Lang::Ru, Lang::Ro, Lang::Figurine] {
            let local = to_pgn_lang(&g, &PgnTags::default(), lang);
            let words = |t: &str| -> Vec<String> {
                t.split("\n\n").nth(1).unwrap_or("").split_whitespace().map(str::to_owned).collect()
            };
            let (a, b) = (words(&en), words(&local));
            prop_assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                prop_assert_eq!(Some(x.clone()), delocalize_san(y, lang));
            }
        }
    }

    #[test]
    fn take_back_undoes_play(g in game_strategy()) {
        let mut h = g.clone();
        let mut fens = Vec::new();
        for ply in 0..=g.ply() {
            fens.push(plyyard_game::shakmaty::fen::Fen::from_position(&g.position_at(ply).unwrap(), plyyard_game::shakmaty::EnPassantMode::Legal).to_string());
        }
        while h.take_back().is_some() {
            prop_assert_eq!(h.fen(), fens[h.ply()].clone());
            prop_assert!(!h.is_over() || h.ply() == 0);
        }
        prop_assert_eq!(h.ply(), 0);
    }
}
