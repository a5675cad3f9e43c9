//! The review library on fixed games with the real engine at the default
//! budget: a hung queen, a missed and an allowed mate in one, a quiet
//! equal game without false alarms, the labels matching the documented
//! rule, the same result on one engine or two.

use std::sync::atomic::AtomicBool;

use engine::Engine;
use game::pgn::PgnImporter;
use game::{Game, RuleSet};
use plyyard_review::label::judge;
use plyyard_review::{
    Budget, Eval, Explanation, Label, MateChange, Pattern, Piece, Review, Side, review_game,
    review_game_on, text,
};

/// 2...Qg5?? puts the queen where the knight on f3 takes it.
const HUNG_QUEEN: &str = "1. e4 e5 2. Nf3 Qg5 3. Nxg5 *";
/// 3...Nf6?? allows Qxf7#, and 4.Qf3? misses it.
const MISSED_MATE: &str = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 *";
/// A calm Scotch Four Knights: symmetrical structure, no piece ever left
/// hanging, even to the end.
const QUIET: &str = "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6 4. d4 exd4 5. Nxd4 Bb4 6. Nxc6 bxc6 \
    7. Bd3 d5 8. exd5 cxd5 9. O-O O-O 10. Bg5 c6 11. Qf3 Be7 12. Rae1 Rb8 \
    13. b3 h6 14. Bf4 Rb7 15. Ne2 Re8 16. h3 Bd6 17. Bxd6 Qxd6 18. Nd4 Rxe1 \
    19. Rxe1 Bd7 20. Qe3 Rb8 *";

/// White to move could win the queen with Bb5+ (king d7, queen e8 behind
/// it on the diagonal) and plays h3.
const MISSED_SKEWER: &str =
    "[SetUp \"1\"]\n[FEN \"4q3/p2k1ppp/8/8/8/8/PP3PPP/5BK1 w - - 0 1\"]\n\n1. h3 *";
/// Black leaves king and rook where the knight forks them: Nc7+.
const ALLOWED_FORK: &str =
    "[SetUp \"1\"]\n[FEN \"r3k3/6pp/8/3N4/8/8/6PP/6K1 b - - 0 1\"]\n\n1... h6 *";

fn game(movetext: &str) -> Game {
    let gap = if movetext.starts_with('[') { "" } else { "\n" };
    let pgn = format!("[Event \"test\"]\n{gap}{movetext}\n");
    let mut games = PgnImporter::with_rules(pgn.as_bytes(), RuleSet::Fide);
    games.next().expect("one game").expect("a valid game").game
}

fn review(movetext: &str) -> Review {
    let mut engines = [Engine::new(16), Engine::new(16)];
    review_game(
        &game(movetext),
        Budget::default(),
        &mut engines,
        &AtomicBool::new(false),
        &|_, _| {},
    )
    .expect("not stopped")
}

#[test]
fn a_hung_queen_is_a_blunder_that_names_the_queen() {
    let r = review(HUNG_QUEEN);
    let m = &r.moves[3];
    assert_eq!((m.san.as_str(), m.side), ("Qg5", Side::Black));
    assert_eq!(m.label, Some(Label::Blunder), "{m:?}");
    assert_eq!(
        m.explanations[0],
        Explanation::HangsPiece {
            piece: Piece::Queen,
            square: "g5".into(),
            by: "Nxg5".into(),
            undefended: true,
            already: false,
        }
    );
    assert!(matches!(m.after, Eval::Cp(cp) if cp > 500), "{:?}", m.after);
    let en = text::move_comment(m, "en").unwrap();
    assert!(
        en.starts_with("Blunder. This move leaves the queen on g5 undefended: Nxg5 wins it."),
        "{en}"
    );
    let fr = text::move_comment(m, "fr").unwrap();
    assert!(fr.contains("la dame en g5") && fr.contains("Cxg5"), "{fr}");
    assert_eq!(r.black.blunders, 1);
    assert!(r.black.accuracy.unwrap() < r.white.accuracy.unwrap());
    // Nothing else in the game deserves a label.
    assert_eq!(r.moves.iter().filter(|m| m.label.is_some()).count(), 1);
}

#[test]
fn a_missed_mate_in_one_and_the_move_that_allowed_it() {
    let r = review(MISSED_MATE);
    let allowed = &r.moves[5];
    assert_eq!(allowed.san, "Nf6");
    assert_eq!(allowed.mate, Some(MateChange::Allowed { moves: 1 }));
    assert_eq!(allowed.label, Some(Label::Blunder));
    assert_eq!(allowed.after, Eval::Mate(1));
    assert!(matches!(
        &allowed.explanations[0],
        Explanation::AllowsMate { san, moves: 1, .. } if san == "Qxf7#"
    ));
    let missed = &r.moves[6];
    assert_eq!(missed.san, "Qf3");
    assert_eq!(missed.before, Eval::Mate(1));
    assert_eq!(missed.mate, Some(MateChange::Missed { moves: 1 }));
    assert_eq!(missed.label, Some(Label::Blunder));
    assert_eq!(missed.best.san.first().map(String::as_str), Some("Qxf7#"));
    assert_eq!(
        missed.explanations,
        vec![Explanation::MissedMate {
            san: "Qxf7#".into(),
            moves: 1
        }]
    );
    let en = text::move_comment(missed, "en").unwrap();
    assert!(en.contains("You missed Qxf7#"), "{en}");
    let ru = text::move_comment(missed, "ru").unwrap();
    assert!(ru.contains("Фxf7#"), "{ru}");
    assert_eq!((r.white.missed_mates, r.black.allowed_mates), (1, 1));
}

#[test]
fn a_missed_check_names_its_skewer() {
    let r = review(MISSED_SKEWER);
    let m = &r.moves[0];
    assert_eq!(m.label, Some(Label::Blunder));
    assert!(
        matches!(
            &m.explanations[..],
            [Explanation::MissedWin { san, check: true, pattern: Some(Pattern::Skewer), wins: Some(Piece::Queen), .. }]
                if san == "Bb5+"
        ),
        "{:?}",
        m.explanations
    );
    assert_eq!(
        text::move_comment(m, "en").unwrap(),
        "Blunder. A check you missed: Bb5+ wins the queen with a skewer."
    );
    let ro = text::move_comment(m, "ro").unwrap();
    assert!(ro.contains("Nb5+") && ro.contains("dama"), "{ro}");
}

#[test]
fn an_allowed_fork_is_named() {
    let r = review(ALLOWED_FORK);
    let m = &r.moves[0];
    assert_eq!((m.side, m.label), (Side::Black, Some(Label::Blunder)));
    assert!(
        matches!(
            &m.explanations[0],
            Explanation::AllowsWin { san, pattern: Some(Pattern::Fork), wins: Some(Piece::Rook), .. }
                if san == "Nc7+"
        ),
        "{:?}",
        m.explanations
    );
    let en = text::move_comment(m, "en").unwrap();
    assert!(
        en.starts_with("Blunder. After this, Nc7+ wins the rook with a fork."),
        "{en}"
    );
    let ru = text::move_comment(m, "ru").unwrap();
    assert!(ru.contains("Кc7+") && ru.contains("ладью вилкой"), "{ru}");
}

#[test]
fn a_quiet_equal_game_has_no_false_alarm() {
    let r = review(QUIET);
    assert_eq!(r.moves.len(), 40);
    for m in &r.moves {
        assert!(
            !matches!(m.label, Some(Label::Mistake | Label::Blunder)) && m.mate.is_none(),
            "{} {}: {:?} {:?} → {:?}",
            m.ply,
            m.san,
            m.label,
            m.before,
            m.after
        );
        assert!(matches!(m.after, Eval::Cp(cp) if cp.abs() < 150), "{m:?}");
    }
    for side in [&r.white, &r.black] {
        assert_eq!((side.mistakes, side.blunders), (0, 0));
        assert!(side.accuracy.unwrap() > 85.0, "{side:?}");
    }
}

#[test]
fn labels_follow_the_documented_rule() {
    for r in [review(HUNG_QUEEN), review(MISSED_MATE), review(QUIET)] {
        for m in &r.moves {
            let best_played = m.best.uci.first() == Some(&m.uci);
            let j = judge(m.before, m.after, m.side);
            if best_played {
                assert_eq!((m.label, m.mate), (None, None), "{m:?}");
            } else {
                assert_eq!((m.label, m.mate), (j.label, j.mate), "{m:?}");
            }
            if m.mate.is_none() && !best_played {
                assert_eq!(m.label, Label::from_loss(j.loss), "{m:?}");
            }
            assert_eq!(m.explanations.is_empty(), m.label.is_none(), "{m:?}");
        }
    }
}

#[test]
fn one_engine_or_two_give_the_same_review() {
    let g = game(MISSED_MATE);
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let one = review_game_on(
        &mut Engine::new(16),
        &g,
        Budget::default(),
        &stop,
        &mut |d, t| {
            seen.push((d, t));
        },
    )
    .unwrap();
    assert_eq!(seen, (1..=8).map(|d| (d, 8)).collect::<Vec<_>>());
    assert_eq!(one, review(MISSED_MATE));
    let json = serde_json::to_value(&one).unwrap();
    let back: Review = serde_json::from_value(json).unwrap();
    assert_eq!(back, one);
}

#[test]
fn a_stopped_review_returns_nothing() {
    let stop = AtomicBool::new(true);
    let mut engines = [Engine::new(1)];
    assert!(
        review_game(
            &game(QUIET),
            Budget::Nodes(1000),
            &mut engines,
            &stop,
            &|_, _| {}
        )
        .is_none()
    );
}
