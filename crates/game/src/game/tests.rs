//! Rules tests: every case listed in issue 2's "What it must show", and the
//! state rules of [`Game`] (errors leave it untouched, offers, take-backs).

use shakmaty::{Color, Position, Role, Square};

use super::*;
use crate::rules::GameResult;

fn fen(f: &str) -> Game {
    Game::from_fen(f, RuleSet::PlyYard).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn fen_fide(f: &str) -> Game {
    Game::from_fen(f, RuleSet::Fide).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn play_all(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        let ply = g.ply() + 1;
        if let Err(e) = g.play_text(m) {
            panic!("{m} at ply {ply}: {e}");
        }
    }
}

fn board_part(g: &Game) -> String {
    g.fen().split(' ').next().unwrap().to_owned()
}

// ---------- moves ----------

#[test]
fn en_passant_rank_pin_is_illegal() {
    // White Ka5 and Pb5 on the fifth rank with a black rook on h5: after
    // ...c7-c5, bxc6 would empty the rank and expose the king.
    let g = fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    assert!(!g.legal_uci().contains(&"b5c6".to_owned()));
    assert_eq!(
        g.parse_uci("b5c6"),
        Err(MoveError::Illegal {
            input: "b5c6".into()
        })
    );
    // Without the rook the same capture is legal.
    let free = fen("8/8/8/KPp5/8/8/8/7k w - c6 0 2");
    assert!(free.legal_uci().contains(&"b5c6".to_owned()));
}

#[test]
fn en_passant_as_the_only_check_evasion() {
    // b2-b4+ checks the black king on a5; every king move is covered and
    // only cxb3 e.p. removes the checker.
    let mut g = fen("1RB5/8/8/k7/1Pp5/P7/8/K2B4 b - b3 0 1");
    assert!(g.is_check());
    assert_eq!(g.legal_uci(), vec!["c4b3".to_owned()]);
    let played = g.play_san("cxb3").unwrap();
    assert_eq!(played.uci, "c4b3");
    assert!(matches!(played.mv, Move::EnPassant { .. }));
    assert!(g.position().board().piece_at(Square::B4).is_none());
}

#[test]
fn en_passant_only_on_the_next_move() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4 a6 e5 d5");
    assert!(g.legal_uci().contains(&"e5d6".to_owned()));
    play_all(&mut g, "a3 a5");
    assert!(!g.legal_uci().contains(&"e5d6".to_owned()));
}

#[test]
fn queenside_castling_with_b1_attacked() {
    // The knight on a3 attacks b1, which only the rook crosses.
    let mut g = fen("4k3/8/8/8/8/n7/8/R3K3 w Q - 0 1");
    assert!(g.legal_uci().contains(&"e1c1".to_owned()));
    assert_eq!(g.play_san("O-O-O").unwrap().uci, "e1c1");
    assert_eq!(board_part(&g), "4k3/8/8/8/8/n7/8/2KR4");
    // c1 or d1 attacked, or the king in check: no castling.
    for f in [
        "4k3/8/8/8/8/1n6/8/R3K3 w Q - 0 1",
        "4k3/8/8/8/8/8/5n2/R3K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1",
    ] {
        assert!(!fen(f).legal_uci().contains(&"e1c1".to_owned()), "{f}");
    }
}

#[test]
fn castling_needs_rights_not_just_placement() {
    let g = fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(!g.legal_uci().iter().any(|m| m == "e1g1" || m == "e1c1"));
    let mut g = fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play_all(&mut g, "Rh2 Kd7 Rh1 Ke8");
    assert!(!g.legal_uci().contains(&"e1g1".to_owned()));
    assert!(g.legal_uci().contains(&"e1c1".to_owned()));
}

#[test]
fn standard_games_accept_both_castling_spellings() {
    let g = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let a = g.parse_uci("e1g1").unwrap();
    let b = g.parse_uci("e1h1").unwrap();
    assert_eq!(a, b);
    assert_eq!(g.uci_of(a), "e1g1");
}

#[test]
fn chess960_castling_king_does_not_move() {
    // King already on g1, rook on h1: O-O only moves the rook to f1.
    let mut g = fen("1r4k1/8/8/8/8/8/8/1R4KR w HB - 0 1");
    assert_eq!(g.variant(), Variant::Chess960);
    assert!(g.legal_uci().contains(&"g1h1".to_owned()));
    let played = g.play_san("O-O").unwrap();
    assert_eq!((played.uci.as_str(), played.san.as_str()), ("g1h1", "O-O"));
    assert_eq!(board_part(&g), "1r4k1/8/8/8/8/8/8/1R3RK1");
}

#[test]
fn chess960_castling_rook_on_the_kings_target() {
    // King d1, rook c1: O-O-O swaps them (king to c1, rook to d1).
    let mut g = fen("4k3/8/8/8/8/8/8/2RK4 w C - 0 1");
    assert_eq!(g.variant(), Variant::Chess960);
    let played = g.play_uci("d1c1").unwrap();
    assert_eq!(played.san, "O-O-O");
    assert_eq!(board_part(&g), "4k3/8/8/8/8/8/8/2KR4");
    let mut g = fen("2rk4/8/8/8/8/8/8/4K3 b c - 0 1");
    let played = g.play_san("O-O-O").unwrap();
    assert_eq!(played.uci, "d8c8");
    assert_eq!(board_part(&g), "2kr4/8/8/8/8/8/8/4K3");
    // Kingside: king f1, rook g1 (on the king's target g1).
    let mut g = fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    assert_eq!(g.play_san("O-O").unwrap().uci, "f1g1");
    assert_eq!(board_part(&g), "4k3/8/8/8/8/8/8/5RK1");
}

#[test]
fn chess960_castling_path_must_be_empty_and_safe() {
    // King b1, rook h1 (kingside): f1 occupied by a knight blocks O-O.
    let g = fen("1k5r/8/8/8/8/8/8/1K3N1R w Hh - 0 1");
    assert!(!g.legal_uci().contains(&"b1h1".to_owned()));
    // Empty path, but d1 (crossed by the king) attacked by the black rook.
    let g = fen("1k1r3r/8/8/8/8/8/8/1K5R w H - 0 1");
    assert!(!g.legal_uci().contains(&"b1h1".to_owned()));
    // Free and safe.
    let g = fen("1k5r/8/8/8/8/8/8/1K5R w H - 0 1");
    assert!(g.legal_uci().contains(&"b1h1".to_owned()));
}

#[test]
fn promotion_while_in_check() {
    // The rook on h8 checks the king on h1; g7xh8 promotes and captures.
    let g = fen("k6r/6P1/8/8/8/8/8/7K w - - 0 1");
    assert!(g.is_check());
    let legal = g.legal_uci();
    for p in ["q", "r", "b", "n"] {
        assert!(legal.contains(&format!("g7h8{p}")), "{p}");
    }
    assert!(!legal.contains(&"g7g8q".to_owned()));
    let mut g2 = g.clone();
    assert_eq!(g2.play_uci("g7h8n").unwrap().san, "gxh8=N");
    // Promotion needs a choice in UCI; SAN without one is refused.
    assert!(g.parse_uci("g7h8").is_err());
    assert!(g.parse_san("gxh8").is_err());
}

#[test]
fn promotion_to_a_piece_still_on_the_board() {
    let mut g = fen("4k3/P7/8/8/8/8/8/QQ5K w - - 0 1");
    assert_eq!(g.play_uci("a7a8q").unwrap().san, "a8=Q+");
}

#[test]
fn san_disambiguation() {
    let g = fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let m = g.parse_uci("b1d2").unwrap();
    assert_eq!(notation::san(g.position(), m), "Nbd2");
    assert_eq!(
        g.parse_san("Nd2"),
        Err(MoveError::Ambiguous {
            input: "Nd2".into()
        })
    );
    // By rank.
    let g = fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(
        notation::san(g.position(), g.parse_uci("a1a3").unwrap()),
        "R1a3"
    );
    assert_eq!(
        notation::san(g.position(), g.parse_uci("a5a3").unwrap()),
        "R5a3"
    );
    // By file and rank.
    let g = fen("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    let san = |u: &str| notation::san(g.position(), g.parse_uci(u).unwrap());
    assert_eq!(san("a1b2"), "Qa1b2");
    assert_eq!(san("c1b2"), "Qcb2");
    assert_eq!(san("a3b2"), "Q3b2");
}

#[test]
fn pinned_pieces_do_not_count_for_disambiguation() {
    // The f3 knight is pinned by the c6 bishop against h1.
    let g = fen("4k3/8/2b5/8/8/5N2/8/1N5K w - - 0 1");
    let m = g.parse_san("Nd2").unwrap();
    assert_eq!(notation::san(g.position(), m), "Nd2");
    assert_eq!(g.uci_of(m), "b1d2");
}

#[test]
fn check_and_mate_suffixes_and_long_algebraic() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
    let sans: Vec<&str> = g.history().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    assert_eq!(g.long_algebraic(0).unwrap(), "e2-e4");
    assert_eq!(g.long_algebraic(2).unwrap(), "Bf1-c4");
    assert_eq!(g.long_algebraic(6).unwrap(), "Qh5xf7#");
}

#[test]
fn localised_san_is_read() {
    for (text, uci) in [
        ("Cf3", "g1f3"),
        ("Кf3", "g1f3"),
        ("♘f3", "g1f3"),
        ("Nf3", "g1f3"),
        ("e4", "e2e4"),
    ] {
        let g = Game::new(RuleSet::PlyYard);
        assert_eq!(g.uci_of(g.parse_san(text).unwrap()), uci, "{text}");
    }
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4 e5");
    // French and Romanian bishops, Russian bishop.
    for (text, lang) in [("Fc4", Lang::Fr), ("Nc4", Lang::Ro), ("Сc4", Lang::Ru)] {
        let m = g.parse_san_lang(text, lang).unwrap();
        assert_eq!(g.uci_of(m), "f1c4", "{text}");
    }
    // Russian king (Кр) versus knight (К).
    play_all(&mut g, "Nf3 Nc6");
    assert_eq!(g.uci_of(g.parse_san("Крe2").unwrap()), "e1e2");
    assert_eq!(g.uci_of(g.parse_san("Кg5").unwrap()), "f3g5");
    // French "Re2" is the king (no rook can reach e2).
    assert_eq!(g.uci_of(g.parse_san_lang("Re2", Lang::Fr).unwrap()), "e1e2");
}

/// Cross-check find: well-formed English SAN that is illegal was read again
/// with other languages' letters and played (`Nc4` as a Romanian bishop,
/// `Re2` as a French king).
#[test]
fn illegal_english_san_is_not_reread_in_other_languages() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4 e5");
    assert!(matches!(g.parse_san("Nc4"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.parse_san("Re2"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.play_text("Nc4"), Err(MoveError::Illegal { .. })));
    assert_eq!(g.ply(), 2);
    // Letters that are not English still select another language.
    assert_eq!(g.uci_of(g.parse_san("Fc4").unwrap()), "f1c4");
    assert_eq!(g.uci_of(g.parse_san("Dh5").unwrap()), "d1h5");
    assert_eq!(g.uci_of(g.parse_san("Сc4").unwrap()), "f1c4");
}

#[test]
fn other_spellings_of_moves() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e2-e4 e7-e5 Ng1-f3 Ng8-f6 Bf1-c4 Bf8-c5 0-0 o-o");
    let sans: Vec<&str> = g.history().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "O-O", "O-O"]);
    play_all(&mut g, "Bc4xf7+");
    assert_eq!(g.history().last().unwrap().san, "Bxf7+");
    // The long form of a French rook capture.
    assert_eq!(
        g.uci_of(g.parse_san_lang("Tf8xf7", Lang::Fr).unwrap()),
        "f8f7"
    );
    // Spelling helpers never turn nonsense into a move.
    assert!(g.parse_san("0-0-0-0").is_err());
    assert!(g.parse_san("e2-").is_err());
}

// ---------- errors ----------

#[test]
fn bad_san_gives_typed_errors_and_leaves_the_game_alone() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4");
    let before = (g.fen(), g.ply(), g.history().to_vec());
    assert!(matches!(
        g.play_san("Zz9"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(g.play_san("e8"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.play_san(""), Err(MoveError::Malformed { .. })));
    assert!(matches!(
        g.play_uci("e7e5e"),
        Err(MoveError::Malformed { .. })
    ));
    assert!(matches!(g.play_uci("0000"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.play_uci("e2e4"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.play_text("--"), Err(MoveError::Illegal { .. })));
    let junk = "x".repeat(1 << 20);
    let e = g.play_text(&junk).unwrap_err();
    assert!(matches!(e, MoveError::Malformed { .. }));
    assert!(e.input().len() < 300);
    assert_eq!((g.fen(), g.ply(), g.history().to_vec()), before);
}

#[test]
fn malformed_fens_give_typed_errors() {
    let bad = [
        ("kkkkkkkk/k7/8/8/8/8/8/K7 w - - 0 1", "position"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "position"),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "position"),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "position"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "position"),
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "position"),
        ("4k3/8/8/8/NNNNNNNN/NNN5/8/4K3 w - - 0 1", "position"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "fen"),
        ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "position"),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "fen"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "fen"),
        ("4k3/8/8/9/8/8/8/4K3 w - - 0 1", "fen"),
        ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "fen"),
        ("", "fen"),
    ];
    for (f, kind) in bad {
        let e = Game::from_fen(f, RuleSet::PlyYard).unwrap_err();
        let got = match e {
            SetupError::Fen { .. } => "fen",
            SetupError::Position { .. } => "position",
            SetupError::Chess960Number { .. } => "number",
        };
        assert_eq!(got, kind, "{f}: {e}");
    }
    let junk: String = (0..1_000_000u32)
        .map(|i| char::from(b'!' + (i % 90) as u8))
        .collect();
    let e = Game::from_fen(&junk, RuleSet::PlyYard).unwrap_err();
    assert!(e.to_string().len() < 400);
    assert!(Game::chess960(960, RuleSet::PlyYard).is_err());
}

#[test]
fn a_refused_setup_names_the_broken_rule_by_code() {
    let cases = [
        ("not a fen", "syntax"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "empty_board"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "missing_king"),
        ("4k3/8/8/8/8/8/8/2K1K3 w - - 0 1", "too_many_kings"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawns_on_backrank"),
        ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "castling_rights"),
        // The side not to move (Black) is in check from the rook on e1.
        ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "opposite_check"),
    ];
    for (fen, code) in cases {
        let e = Game::from_fen(fen, RuleSet::PlyYard).unwrap_err();
        assert_eq!(e.code(), code, "{fen}: {e}");
    }
    assert_eq!(
        Game::chess960(960, RuleSet::PlyYard).unwrap_err().code(),
        "chess960_number"
    );
}

#[test]
fn fen_variants_are_accepted() {
    // Shredder-FEN and X-FEN of the same Chess960 position.
    let a = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    let b = fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    assert_eq!(a.position(), b.position());
    assert_eq!(a.variant(), Variant::Chess960);
    assert!(a.legal_uci().iter().all(|m| m != "g1e1"));
    // A standard FEN stays standard.
    assert_eq!(
        fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").variant(),
        Variant::Standard
    );
}

// ---------- Chess960 numbering ----------

#[test]
fn chess960_numbering() {
    let g = Game::chess960(518, RuleSet::PlyYard).unwrap();
    assert_eq!(
        board_part(&g),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    );
    assert_eq!(g.variant(), Variant::Chess960);
    assert_eq!(g.chess960_number(), Some(518));
    assert_eq!(
        board_part(&Game::chess960(0, RuleSet::PlyYard).unwrap()),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
    );
    assert_eq!(
        board_part(&Game::chess960(959, RuleSet::PlyYard).unwrap()),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB"
    );
    for n in 0..960 {
        let g = Game::chess960(n, RuleSet::PlyYard).unwrap();
        let back: Vec<char> = board_part(&g).rsplit('/').next().unwrap().chars().collect();
        let at = |c: char| -> Vec<usize> {
            back.iter()
                .enumerate()
                .filter(|(_, x)| **x == c)
                .map(|(i, _)| i)
                .collect()
        };
        let (b, r, k) = (at('B'), at('R'), at('K'));
        assert_eq!(b.len(), 2);
        assert_ne!(b[0] % 2, b[1] % 2, "{n}: bishops on opposite colours");
        assert!(r[0] < k[0] && k[0] < r[1], "{n}: king between the rooks");
        let black = board_part(&g).split('/').next().unwrap().to_uppercase();
        assert_eq!(black, back.iter().collect::<String>(), "{n}: mirrored");
        assert_eq!(g.legal_uci().len(), perft_one(&g));
    }
    let mut rng = rand::rng();
    let (n, g) = Game::random_chess960(RuleSet::Fide, &mut rng);
    assert!(n < 960);
    assert_eq!(g.chess960_number(), Some(n));
}

fn perft_one(g: &Game) -> usize {
    g.position().legal_moves().len()
}

#[test]
fn chess960_uci_is_king_takes_rook() {
    // Position 518 as Chess960: castling is written e1h1.
    let mut g = Game::chess960(518, RuleSet::PlyYard).unwrap();
    play_all(&mut g, "e4 e5 Nf3 Nf6 Bc4 Bc5");
    assert!(g.legal_uci().contains(&"e1h1".to_owned()));
    assert!(!g.legal_uci().contains(&"e1g1".to_owned()));
    assert_eq!(g.play_san("O-O").unwrap().uci, "e1h1");
    let mut s = Game::new(RuleSet::PlyYard);
    play_all(&mut s, "e4 e5 Nf3 Nf6 Bc4 Bc5");
    assert_eq!(s.play_san("O-O").unwrap().uci, "e1g1");
}

// ---------- outcomes ----------

#[test]
fn checkmate_and_stalemate() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "f3 e5 g4 Qh4#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Checkmate))
    );
    assert!(g.legal_moves().is_empty());
    let e = g.play_uci("a2a3").unwrap_err();
    assert!(matches!(e, MoveError::GameOver { .. }));

    let mut g = fen("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    g.play_san("Qf7").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Stalemate)));
}

/// Cross-check find: a castling field naming a right twice was accepted
/// (python-chess refuses it as malformed FEN).
#[test]
fn castling_field_with_a_repeated_letter_is_refused() {
    for bad in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KKQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAhaA - 0 1",
    ] {
        let e = Game::from_fen(bad, RuleSet::PlyYard).unwrap_err();
        assert!(matches!(e, SetupError::Fen { .. }), "{bad}: {e}");
        assert!(
            Game::from_fen_lenient(bad, RuleSet::PlyYard).is_err(),
            "{bad}"
        );
    }
    for good in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
    ] {
        assert!(Game::from_fen(good, RuleSet::PlyYard).is_ok(), "{good}");
    }
}

/// A stalemate that is also insufficient material is reported as a
/// stalemate, as lichess does (python-chess names the material first); see
/// docs/rules-crosscheck.md.
#[test]
fn stalemate_takes_precedence_over_insufficient_material() {
    let g = fen("k7/2K5/1B6/8/8/8/8/8 b - - 0 1");
    assert!(g.position().is_insufficient_material());
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Stalemate)));
    // Reached by a capture: the knight takes the last black piece.
    let mut g = fen("k1b5/2K5/3N4/8/8/8/8/8 w - - 0 1");
    g.play_uci("d6c8").unwrap();
    assert!(g.position().is_insufficient_material());
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Stalemate)));
}

#[test]
fn insufficient_material_ends_at_once() {
    let mut g = fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    g.play_san("Kxd2").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
    for f in [
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        assert_eq!(
            fen(f).outcome(),
            Some(Outcome::draw(Reason::InsufficientMaterial)),
            "{f}"
        );
    }
    // Bishops on opposite colours can still mate.
    assert_eq!(fen("4k3/8/8/8/8/8/8/3BK1b1 w - - 0 1").outcome(), None);
}

const KNIGHT_DANCE: &str = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_is_automatic_under_plyyard_rules() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Ng8");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Reason::ThreefoldRepetition))
    );
    assert!(g.claimable().is_empty());
}

#[test]
fn threefold_is_a_claim_and_fivefold_automatic_under_fide_rules() {
    let mut g = Game::new(RuleSet::Fide);
    play_all(&mut g, KNIGHT_DANCE);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.claimable(), vec![Reason::ThreefoldRepetition]);
    // Playing on to a new position gives the claim up.
    let mut on = g.clone();
    play_all(&mut on, "e4");
    assert!(on.claimable().is_empty());
    assert!(matches!(
        on.claim_draw(Reason::ThreefoldRepetition),
        Err(ActionError::NotClaimable { .. })
    ));
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(g.repetitions(), 4);
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Nf3 Nf6 Ng1");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Ng8");
    assert_eq!(g.repetitions(), 5);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::FivefoldRepetition)));
}

#[test]
fn claim_threefold_now_and_by_announcing_the_move() {
    let mut g = Game::new(RuleSet::Fide);
    play_all(&mut g, KNIGHT_DANCE);
    let mut now = g.clone();
    assert_eq!(
        now.claim_draw(Reason::ThreefoldRepetition),
        Ok(Outcome::draw(Reason::ThreefoldRepetition))
    );
    assert!(now.is_over());
    assert!(matches!(
        g.claim_draw(Reason::FiftyMoves),
        Err(ActionError::NotClaimable { .. })
    ));

    // One ply earlier: Black announces ...Ng8, which makes the third occurrence.
    let mut g = Game::new(RuleSet::Fide);
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(g.claimable().is_empty());
    let ng8 = g.parse_san("Ng8").unwrap();
    assert_eq!(
        g.claimable_with_move(ng8),
        vec![Reason::ThreefoldRepetition]
    );
    // A wrong announced claim plays nothing.
    let other = g.parse_san("Nc6").unwrap();
    let before = g.ply();
    assert!(matches!(
        g.claim_draw_with_move(other, Reason::ThreefoldRepetition),
        Err(ActionError::NotClaimable { .. })
    ));
    assert_eq!(g.ply(), before);
    assert_eq!(
        g.claim_draw_with_move(ng8, Reason::ThreefoldRepetition),
        Ok(Outcome::draw(Reason::ThreefoldRepetition))
    );
    assert_eq!(g.ply(), before + 1);

    let mut p = Game::new(RuleSet::PlyYard);
    play_all(&mut p, "Nf3 Nf6");
    assert_eq!(
        p.claim_draw(Reason::ThreefoldRepetition),
        Err(ActionError::ClaimsNotUsed)
    );
}

#[test]
fn repetition_without_a_real_en_passant_possibility() {
    // After 1.e4 the e3 square is no en passant chance: the position after
    // 1.e4 and after the knights return are the same.
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8");
    assert_eq!(g.outcome(), None);
    play_all(&mut g, "Ng1");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Reason::ThreefoldRepetition))
    );
}

#[test]
fn repetition_with_a_real_en_passant_possibility() {
    // After ...d7-d5 White could take e.p.: that position is different from
    // the same placement later, when the chance is gone.
    let mut g = fen("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    play_all(&mut g, "d5");
    assert!(g.fen().contains(" d6 "));
    play_all(&mut g, KNIGHT_DANCE);
    // Were the e.p. chance ignored, this would be the third occurrence.
    assert_eq!(g.repetitions(), 2);
    assert_eq!(g.outcome(), None);
    // The position after Nf3 is the first to occur three times.
    play_all(&mut g, "Nf3");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(Reason::ThreefoldRepetition))
    );
}

#[test]
fn castling_rights_change_identity() {
    // The start placement comes back a third time at ply 12, but the
    // kingside rights were lost on the way: not the same position.
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(g.repetitions(), 2);
    play_all(&mut g, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8");
    assert_eq!(board_part(&g), board_part(&Game::new(RuleSet::PlyYard)));
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.outcome(), None);
}

const MATE_IN_ONE: &str = "7k/8/6K1/8/8/8/8/R7 w - - 99 80";

#[test]
fn fifty_moves_automatic_but_mate_on_the_50th_move_wins() {
    let mut g = fen(MATE_IN_ONE);
    play_all(&mut g, "Ra8#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
    let mut g = fen(MATE_IN_ONE);
    play_all(&mut g, "Rb1");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::FiftyMoves)));
    // A capture or pawn move resets the count.
    let mut g = fen("7k/8/6K1/8/8/8/1p6/R7 w - - 99 80");
    play_all(&mut g, "Rb1");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::FiftyMoves)));
}

#[test]
fn fifty_moves_is_a_claim_under_fide_rules() {
    let mut g = fen_fide(MATE_IN_ONE);
    assert!(g.claimable().is_empty());
    let rb1 = g.parse_san("Rb1").unwrap();
    assert_eq!(g.claimable_with_move(rb1), vec![Reason::FiftyMoves]);
    let mut after = g.clone();
    after.play(rb1).unwrap();
    assert_eq!(after.outcome(), None);
    assert_eq!(after.claimable(), vec![Reason::FiftyMoves]);
    // Announcing the mating move: the mate takes precedence.
    let ra8 = g.parse_san("Ra8#").unwrap();
    assert_eq!(
        g.claim_draw_with_move(ra8, Reason::FiftyMoves),
        Ok(Outcome::win(Color::White, Reason::Checkmate))
    );
}

#[test]
fn seventy_five_moves_automatic_but_mate_on_the_75th_move_wins() {
    let f = "7k/8/6K1/8/8/8/8/R7 w - - 149 100";
    let mut g = fen_fide(f);
    play_all(&mut g, "Ra8#");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
    let mut g = fen_fide(f);
    play_all(&mut g, "Rb1");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::SeventyFiveMoves)));
}

#[test]
fn flag_fall_cases() {
    // K+R flags against K+N: a mate by the knight side exists, so it wins.
    let mut g = fen("8/8/8/4n3/8/k7/8/KR6 w - - 0 1");
    assert_eq!(
        g.flag(Color::White),
        Ok(Outcome::win(Color::Black, Reason::Timeout))
    );
    // K+Q flags against K+N: draw.
    let mut g = fen("8/8/8/4n3/8/k7/8/KQ6 w - - 0 1");
    assert_eq!(
        g.flag(Color::White),
        Ok(Outcome::draw(Reason::TimeoutVsInsufficientMaterial))
    );
    // A lone king never wins.
    let mut g = fen("8/8/8/8/8/k7/8/KQ6 w - - 0 1");
    assert_eq!(
        g.flag(Color::White),
        Ok(Outcome::draw(Reason::TimeoutVsInsufficientMaterial))
    );
    // The side with material wins when the lone king flags.
    let mut g = fen("8/8/8/8/8/k7/8/KQ6 b - - 0 1");
    assert_eq!(
        g.flag(Color::Black),
        Ok(Outcome::win(Color::White, Reason::Timeout))
    );
    assert!(matches!(
        g.flag(Color::White),
        Err(ActionError::GameOver { .. })
    ));
}

#[test]
fn resign_abandon_abort() {
    let mut g = Game::new(RuleSet::PlyYard);
    assert_eq!(
        g.resign(Color::White),
        Ok(Outcome::win(Color::Black, Reason::Resignation))
    );
    assert_eq!(g.outcome().unwrap().result, GameResult::BlackWins);
    assert_eq!(g.take_back(), None);

    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4");
    assert_eq!(g.abort().unwrap().result, GameResult::Aborted);
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "e4 e5");
    assert_eq!(g.abort(), Err(ActionError::TooLateToAbort { plies: 2 }));
    assert_eq!(
        g.abandon(Color::Black),
        Ok(Outcome::win(Color::White, Reason::Abandonment))
    );
}

#[test]
fn draw_offers() {
    let mut g = Game::new(RuleSet::PlyYard);
    let e4 = g.parse_uci("e2e4").unwrap();
    g.play_with(e4, Some(179_000), true).unwrap();
    assert_eq!(g.draw_offer(), Some(Color::White));
    assert_eq!(g.history()[0].clock_ms, Some(179_000));
    // Declined by moving.
    play_all(&mut g, "e5");
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(), Err(ActionError::NoDrawOffer));
    // Offered again and accepted by the opponent on their turn.
    let nf3 = g.parse_san("Nf3").unwrap();
    g.play_with(nf3, None, true).unwrap();
    assert_eq!(g.accept_draw(), Ok(Outcome::draw(Reason::Agreement)));
    // Explicit decline.
    let mut g = Game::new(RuleSet::PlyYard);
    let e4 = g.parse_uci("e2e4").unwrap();
    g.play_with(e4, None, true).unwrap();
    g.decline_draw().unwrap();
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(), Err(ActionError::NoDrawOffer));
}

#[test]
fn a_draw_is_offered_after_ones_own_move_and_declined_in_words() {
    let mut g = Game::new(RuleSet::PlyYard);
    assert_eq!(
        g.offer_draw_after_move(Color::White),
        Err(ActionError::NotAfterOwnMove)
    );
    play_all(&mut g, "e4");
    // Not Black's to offer now: it is Black's turn.
    assert_eq!(
        g.offer_draw_after_move(Color::Black),
        Err(ActionError::NotAfterOwnMove)
    );
    g.offer_draw_after_move(Color::White).unwrap();
    assert_eq!(g.draw_offer(), Some(Color::White));
    assert!(g.history()[0].draw_offer);
    g.decline_draw().unwrap();
    assert_eq!(g.draw_offer(), None);
    // Offered again: a new offer, accepted.
    g.offer_draw_after_move(Color::White).unwrap();
    assert_eq!(g.draw_offer(), Some(Color::White));
    assert_eq!(g.accept_draw(), Ok(Outcome::draw(Reason::Agreement)));
    assert!(matches!(
        g.offer_draw_after_move(Color::White),
        Err(ActionError::GameOver { .. })
    ));
}

#[test]
fn take_back_restores_everything() {
    let mut g = Game::new(RuleSet::PlyYard);
    play_all(&mut g, "f3 e5 g4");
    let fen_before = g.fen();
    play_all(&mut g, "Qh4#");
    assert!(g.is_over());
    let back = g.take_back().unwrap();
    assert_eq!(back.san, "Qh4#");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.fen(), fen_before);
    assert_eq!(g.ply(), 3);
    while g.take_back().is_some() {}
    assert_eq!(g.ply(), 0);
    assert_eq!(g.fen(), Game::new(RuleSet::PlyYard).fen());
    assert_eq!(g.take_back(), None);
}

#[test]
fn history_moves_and_last_move() {
    let mut g = Game::new(RuleSet::PlyYard);
    assert_eq!(g.turn(), Color::White);
    assert_eq!(g.last_move_squares(), None);
    play_all(&mut g, "e4 c5 Nf3");
    assert_eq!(g.turn(), Color::Black);
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.last_move_squares(), Some((Square::G1, Square::F3)));
    assert_eq!(g.history()[1].uci, "c7c5");
    assert_eq!(g.position().board().role_at(Square::F3), Some(Role::Knight));
    assert_eq!(g.initial_fen(), Game::new(RuleSet::PlyYard).fen());
}

#[test]
fn summary_has_the_replay_keys_in_order() {
    let mut g = Game::new(RuleSet::Fide);
    play_all(&mut g, KNIGHT_DANCE);
    let json = serde_json::to_string(&g.summary()).unwrap();
    let keys = [
        "\"fen\"",
        "\"turn\"",
        "\"san\"",
        "\"legal_moves\"",
        "\"status\"",
        "\"result\"",
        "\"reason\"",
        "\"claimable\"",
    ];
    let mut last = 0;
    for k in keys {
        let at = json.find(k).unwrap();
        assert!(at >= last, "{k} out of order in {json}");
        last = at;
    }
    assert!(json.contains("\"claimable\":[\"threefold_repetition\"]"));
    assert!(json.contains("\"reason\":null"));
    assert!(json.contains("\"result\":\"*\""));
}

#[test]
fn serde_names() {
    assert_eq!(
        serde_json::to_string(&Reason::SeventyFiveMoves).unwrap(),
        "\"seventyfive_moves\""
    );
    assert_eq!(
        serde_json::to_string(&Reason::InsufficientMaterial).unwrap(),
        "\"insufficient_material\""
    );
    assert_eq!(
        serde_json::to_string(&RuleSet::PlyYard).unwrap(),
        "\"plyyard\""
    );
    assert_eq!(
        serde_json::to_string(&Variant::Chess960).unwrap(),
        "\"chess960\""
    );
    assert_eq!(
        serde_json::to_string(&GameResult::Draw).unwrap(),
        "\"1/2-1/2\""
    );
    for r in Reason::ALL {
        assert_eq!(r.as_str().parse::<Reason>(), Ok(r));
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            format!("\"{}\"", r.as_str())
        );
    }
    assert_eq!("FIDE".parse::<RuleSet>(), Ok(RuleSet::Fide));
    assert!("chess".parse::<RuleSet>().is_err());
    assert_eq!(RuleSet::default(), RuleSet::PlyYard);
}
