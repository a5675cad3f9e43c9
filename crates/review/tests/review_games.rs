//! The review library on fixed games with the real engine at the default
//! budget: a hung queen, a missed and an allowed mate in one, a quiet
//! equal game without false alarms, the labels matching the documented
//! rule, the same result on one engine or two.

use std::sync::atomic::AtomicBool;

use plyyard_engine::Engine;
use plyyard_game::pgn::PgnImporter;
use plyyard_game::{Game, RuleSet};
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

/// Every sentence of an explanation checked against the engine line it
/// names, by replaying that line on the board (material counted from the
/// pieces standing, not from the generator's own tally).
mod truth {
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;

    use plyyard_engine::Engine;
    use plyyard_review::analyse::{PositionEval, analyse_positions};
    use plyyard_review::{Budget, Explanation, Pattern, Piece, assemble};
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role};

    /// The Opera Game, Paris 1858: Morphy's attack ends in a queen sacrifice and mate.
    const OPERA: &str = "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 \
        7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
        13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0";
    /// Positions searched per check here: enough for real lines, quick in tests.
    const NODES: u64 = 30_000;
    /// Plies of a line within which a capture starts the count (as the review's).
    const WINDOW: usize = 8;

    fn value(r: Role) -> i32 {
        match r {
            Role::Pawn => 100,
            Role::Knight | Role::Bishop => 300,
            Role::Rook => 500,
            Role::Queen => 900,
            Role::King => 0,
        }
    }

    fn role(p: Piece) -> Role {
        match p {
            Piece::Pawn => Role::Pawn,
            Piece::Knight => Role::Knight,
            Piece::Bishop => Role::Bishop,
            Piece::Rook => Role::Rook,
            Piece::Queen => Role::Queen,
            Piece::King => Role::King,
        }
    }

    /// `side`'s material minus the other side's, from the pieces on the board.
    fn balance(pos: &Chess, side: Color) -> i32 {
        let board = pos.board();
        let sum = |c: Color| -> i32 {
            board
                .by_color(c)
                .into_iter()
                .map(|sq| value(board.role_at(sq).expect("a piece")))
                .sum()
        };
        sum(side) - sum(!side)
    }

    /// The piece a move takes, read from the board (en passant included).
    fn taken(pos: &Chess, m: Move) -> Option<Role> {
        let board = pos.board();
        match board.color_at(m.to()) {
            Some(c) if c != pos.turn() => board.role_at(m.to()),
            None if m.role() == Role::Pawn && m.from().map(|f| f.file()) != Some(m.to().file()) => {
                Some(Role::Pawn)
            }
            _ => None,
        }
    }

    fn san(pos: &Chess, m: Move) -> String {
        SanPlus::from_move(pos.clone(), m).to_string()
    }

    /// What replaying the material part of `line` from `pos` shows.
    struct Replay {
        /// `side`'s balance change.
        gain: i32,
        /// Pieces `side` took and lost, by kind.
        took: BTreeMap<Role, i32>,
        lost: BTreeMap<Role, i32>,
        /// The stretch did not stop where the last capture can be taken back.
        settled: bool,
    }

    fn replay(pos: &Chess, line: &[Move], side: Color) -> Replay {
        // Up to the last capture or promotion within the window, then on while captures go on.
        let mut p = pos.clone();
        let mut events = Vec::new();
        for &m in line {
            assert!(p.is_legal(m), "an illegal move in the engine's line");
            events.push(taken(&p, m).is_some() || m.is_promotion());
            p.play_unchecked(m);
        }
        let mut end = events
            .iter()
            .take(WINDOW)
            .rposition(|&e| e)
            .map_or(0, |i| i + 1);
        let mut p = pos.clone();
        let mut r = Replay {
            gain: 0,
            took: BTreeMap::new(),
            lost: BTreeMap::new(),
            settled: true,
        };
        let start = balance(&p, side);
        for (i, &m) in line.iter().enumerate() {
            let t = taken(&p, m);
            if i >= end {
                if t.is_none() {
                    break;
                }
                end = i + 1;
            }
            if let Some(t) = t {
                let book = if p.turn() == side {
                    &mut r.took
                } else {
                    &mut r.lost
                };
                *book.entry(t).or_default() += 1;
            }
            p.play_unchecked(m);
        }
        r.gain = balance(&p, side) - start;
        if end == line.len() && end > 0 {
            let mut q = pos.clone();
            let mut last_capture = None;
            for &m in line {
                last_capture = taken(&q, m).map(|_| m.to());
                q.play_unchecked(m);
            }
            if let Some(sq) = last_capture {
                r.settled = !q
                    .legal_moves()
                    .iter()
                    .any(|m| m.to() == sq && taken(&q, *m).is_some());
            }
        }
        r
    }

    /// Whether the line mates on ply `plies` (1-based), when it is that long.
    fn mates_at(pos: &Chess, line: &[Move], plies: usize) -> Option<bool> {
        if line.len() < plies {
            return None;
        }
        let mut p = pos.clone();
        for &m in &line[..plies] {
            p.play_unchecked(m);
        }
        Some(p.is_checkmate())
    }

    fn after(pos: &Chess, m: Move) -> Chess {
        let mut p = pos.clone();
        p.play_unchecked(m);
        p
    }

    /// A claim "… wins {wins} / material ({gain})" about `line` from `pos`, for its side to move.
    fn check_win(pos: &Chess, line: &[Move], wins: Option<Piece>, gain: i32, what: &str) {
        let side = pos.turn();
        let r = replay(pos, line, side);
        assert!(
            r.settled,
            "{what}: the line stops in the middle of an exchange"
        );
        assert_eq!(r.gain, gain, "{what}: the balance after the line");
        assert!(gain >= 100, "{what}: nothing won");
        if let Some(w) = wins {
            let w = role(w);
            let kept = r.took.get(&w).copied().unwrap_or(0) - r.lost.get(&w).copied().unwrap_or(0);
            assert!(
                kept >= 1,
                "{what}: no {w:?} won for good (took {:?}, lost {:?})",
                r.took,
                r.lost
            );
            let given: i32 = r
                .lost
                .iter()
                .map(|(&k, &n)| (n - r.took.get(&k).copied().unwrap_or(0)).max(0) * value(k))
                .sum();
            assert!(
                value(w) - given >= 100,
                "{what}: the {w:?} is paid for with {given}"
            );
        }
    }

    fn check_pattern(pos: &Chess, m: Move, pattern: Option<Pattern>, what: &str) {
        let next = after(pos, m);
        match pattern {
            Some(Pattern::DoubleCheck) => assert!(next.checkers().count() >= 2, "{what}"),
            Some(Pattern::BackRankMate) => assert!(next.is_checkmate(), "{what}"),
            Some(Pattern::Fork) => {
                let board = next.board();
                let attacks = shakmaty::attacks::attacks(
                    m.to(),
                    board.piece_at(m.to()).expect("moved"),
                    board.occupied(),
                );
                let targets = (attacks & board.by_color(next.turn())).count();
                assert!(
                    targets >= 2,
                    "{what}: the moved piece attacks {targets} pieces"
                );
            }
            _ => {}
        }
    }

    /// Checks every explanation of every move of the game from `start`; answers the kinds seen.
    fn check_game(
        start: &Chess,
        moves: &[Move],
        engines: &mut [Engine],
        seen: &mut BTreeMap<&'static str, usize>,
    ) {
        let evals: Vec<PositionEval> = analyse_positions(
            start,
            moves,
            Budget::Nodes(NODES),
            engines,
            &AtomicBool::new(false),
            &|_, _| {},
        )
        .expect("not stopped");
        let review = assemble(
            start,
            moves,
            CastlingMode::Standard,
            &evals,
            Budget::Nodes(NODES),
        );
        let mut pos = start.clone();
        for (i, (mr, &played)) in review.moves.iter().zip(moves).enumerate() {
            let (best, reply) = (&evals[i].line, &evals[i + 1].line);
            let next = after(&pos, played);
            for e in &mr.explanations {
                let what = format!(
                    "{} {} ({}): {e:?}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal),
                    mr.san,
                    mr.ply
                );
                let kind = match e {
                    Explanation::MissedMate { san: s, moves: n } => {
                        assert_eq!(s, &san(&pos, best[0]), "{what}");
                        let n = *n as usize;
                        if n == 1 {
                            assert_eq!(mates_at(&pos, best, 1), Some(true), "{what}");
                        } else if let Some(m) = mates_at(&pos, best, 2 * n - 1) {
                            assert!(m, "{what}: the line does not mate in {n}");
                        }
                        "missed_mate"
                    }
                    Explanation::AllowsMate {
                        san: s,
                        moves: n,
                        back_rank,
                    } => {
                        assert_eq!(s, &san(&next, reply[0]), "{what}");
                        let n = *n as usize;
                        if n == 1 || *back_rank {
                            assert_eq!(mates_at(&next, reply, 1), Some(true), "{what}");
                        } else if let Some(m) = mates_at(&next, reply, 2 * n - 1) {
                            assert!(m, "{what}: the line does not mate in {n}");
                        }
                        "allows_mate"
                    }
                    Explanation::HangsPiece {
                        piece,
                        square,
                        by,
                        undefended,
                        already,
                    } => {
                        let m = reply[0];
                        assert_eq!(by, &san(&next, m), "{what}");
                        assert_eq!(square, &m.to().to_string(), "{what}");
                        assert_eq!(
                            taken(&next, m),
                            Some(role(*piece)),
                            "{what}: {by} takes no {piece:?}"
                        );
                        let r = replay(&next, reply, next.turn());
                        assert!(
                            r.settled && r.gain >= 100,
                            "{what}: {by} wins nothing ({})",
                            r.gain
                        );
                        let sq = m.to();
                        let board = next.board();
                        if *undefended {
                            assert!(
                                board
                                    .attacks_to(sq, pos.turn(), board.occupied())
                                    .is_empty(),
                                "{what}: defended"
                            );
                        }
                        if *already {
                            assert!(
                                played.from() != Some(sq),
                                "{what}: the piece just moved there"
                            );
                            let b = pos.board();
                            assert!(
                                !b.attacks_to(sq, !pos.turn(), b.occupied()).is_empty(),
                                "{what}: not attacked before"
                            );
                        }
                        "hangs_piece"
                    }
                    Explanation::LosingExchange { net, .. } => {
                        let mut line = vec![played];
                        line.extend(
                            reply
                                .iter()
                                .copied()
                                .take_while(|m| m.to() == played.to() && m.is_capture()),
                        );
                        let r = replay(&pos, &line, pos.turn());
                        assert!(r.settled, "{what}: the exchange is cut short");
                        assert_eq!(r.gain, *net, "{what}");
                        assert!(*net <= -100, "{what}");
                        "losing_exchange"
                    }
                    Explanation::AllowsWin {
                        san: s,
                        pattern,
                        wins,
                        gain,
                    } => {
                        assert_eq!(s, &san(&next, reply[0]), "{what}");
                        check_win(&next, reply, *wins, *gain, &what);
                        // The pattern is said only beside a piece won.
                        if wins.is_some() {
                            check_pattern(&next, reply[0], *pattern, &what);
                        }
                        "allows_win"
                    }
                    Explanation::MissedWin {
                        san: s,
                        check,
                        pattern,
                        wins,
                        gain,
                    } => {
                        assert_eq!(s, &san(&pos, best[0]), "{what}");
                        assert_eq!(*check, after(&pos, best[0]).is_check(), "{what}");
                        check_win(&pos, best, *wins, *gain, &what);
                        if wins.is_some() {
                            check_pattern(&pos, best[0], *pattern, &what);
                        }
                        "missed_win"
                    }
                    Explanation::BestWas { san: s } => {
                        assert_eq!(s, &san(&pos, best[0]), "{what}");
                        "best_was"
                    }
                };
                *seen.entry(kind).or_default() += 1;
            }
            pos = next;
        }
    }

    fn epd_positions(n: usize) -> Vec<Chess> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/epd/wac.epd"
        );
        let text = std::fs::read_to_string(path)
            .expect("../shared/data/epd/wac.epd beside the repository");
        text.lines()
            .filter_map(|l| {
                let fen: Vec<&str> = l.split_whitespace().take(4).collect();
                format!("{} 0 1", fen.join(" "))
                    .parse::<Fen>()
                    .ok()?
                    .into_position(CastlingMode::Standard)
                    .ok()
            })
            .step_by(7)
            .take(n)
            .collect()
    }

    #[test]
    fn every_explanation_is_true_of_the_line_it_names() {
        let mut engines = [Engine::new(16), Engine::new(16)];
        let mut seen = BTreeMap::new();
        let opera = super::game(OPERA);
        check_game(
            opera.initial_position(),
            &opera.moves(),
            &mut engines,
            &mut seen,
        );
        // Tactical positions, each with a few moves that are not the key: blunders and missed wins.
        for pos in epd_positions(30) {
            let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
            legal.sort_by_key(|m| m.to_uci(CastlingMode::Standard).to_string());
            let picks = [0, legal.len() / 3, 2 * legal.len() / 3];
            for &k in &picks {
                check_game(&pos, &[legal[k]], &mut engines, &mut seen);
            }
        }
        let total: usize = seen.values().sum();
        assert!(total >= 40, "too few explanations to be a test: {seen:?}");
        for kind in ["best_was", "hangs_piece", "missed_win"] {
            assert!(
                seen.contains_key(kind),
                "no {kind} explanation met: {seen:?}"
            );
        }
        assert!(
            seen.contains_key("missed_mate") || seen.contains_key("allows_mate"),
            "{seen:?}"
        );
    }
}
