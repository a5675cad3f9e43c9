use proptest::prelude::*;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position, Role, Square};

use super::*;
use crate::testutil::pos;

fn mv(p: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>()
        .expect("uci")
        .to_move(p)
        .expect("legal move")
}

fn ucis(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn exchanges_count_recaptures_x_rays_and_promotions() {
    let p = pos("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1");
    assert_eq!(exchange(&p, mv(&p, "e2e5")), 100, "the second rook wins");
    let p = pos("4k3/8/5n2/3p4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(exchange(&p, mv(&p, "d1d5")), -400);
    let p = pos("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(exchange(&p, mv(&p, "a7b8q")), 500 + 800);
    assert_eq!(exchange(&p, mv(&p, "a7a8q")), 800 - 900, "the rook takes");
    // Rxf1 wins the queen, but exf1=Q+ takes back and promotes.
    let p = pos("rnb4r/pppp2k1/8/6b1/P3B3/2P3P1/N2Pp3/2K1RqN1 w - - 1 39");
    assert_eq!(exchange(&p, mv(&p, "e1f1")), 900 - 500 - 800);
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(exchange(&p, mv(&p, "e5d6")), 100);
    assert_eq!(
        exchange(&p, mv(&p, "e1e2")),
        0,
        "a quiet move loses nothing"
    );
}

#[test]
fn a_king_does_not_recapture_onto_an_attacked_square() {
    let p = pos("4k3/3p4/8/8/8/8/3R4/3RK3 w - - 0 1");
    assert_eq!(exchange(&p, mv(&p, "d2d7")), 100);
    let p = pos("4k3/3p4/8/8/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(exchange(&p, mv(&p, "d2d7")), 100 - 500);
}

#[test]
fn checks_and_captures_of_the_side_to_move() {
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    assert_eq!(ucis(&checks(&p)), ["c4f7", "h5e5", "h5f7"]);
    assert_eq!(ucis(&captures(&p)), ["c4f7", "h5e5", "h5f7", "h5h7"]);
    assert_eq!(ucis(&mates_in_one(&p)), ["h5f7"]);
    assert!(checks(&Chess::default()).is_empty());
    assert!(captures(&Chess::default()).is_empty());
}

#[test]
fn castling_can_give_check() {
    let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(ucis(&checks(&p)), ["e1g1", "h1f1", "h1h8"]);
}

#[test]
fn threats_are_the_opponents_mates_and_winning_captures() {
    // 3.Qh5 threatens Qxf7#, and Bxf7+ wins a pawn (the king cannot take
    // back, the queen guards f7); Qxe5+ would lose the queen for a pawn.
    let p = pos("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    let t = threats(&p);
    assert_eq!(t.len(), 2, "{t:?}");
    assert_eq!(t[0].kind, ThreatKind::Mate);
    assert_eq!(t[0].gain(), 0);
    assert_eq!(t[1].mv.from(), Some(Square::C4));
    assert_eq!(t[1].gain(), 100);
    // White to move; Black's bishop would take the loose knight on c3.
    let p = pos("4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 1");
    let t = threats(&p);
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(t[0].mv.to(), Square::C3);
    assert_eq!(t[0].gain(), 300);
    // Defended by a pawn: taking it only trades.
    let p = pos("4k3/8/8/8/1b6/2N5/1P6/4K3 w - - 0 1");
    assert!(threats(&p).is_empty());
    // The same seen from the side to move: its own chances.
    let p = pos("4k3/8/8/8/1b6/2N5/8/4K3 b - - 0 1");
    assert_eq!(opportunities(&p).len(), 1);
    assert_eq!(opportunities(&p)[0].gain(), 300);
    assert!(threats(&p).is_empty(), "White's knight attacks nothing");
}

#[test]
fn no_threats_while_in_check_and_en_passant_is_not_the_opponents() {
    let p = pos("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1");
    assert!(opponent_to_move(&p).is_none());
    assert!(threats(&p).is_empty());
    // Black may take en passant now, but as a threat (White to move) it is gone.
    let p = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let flipped = opponent_to_move(&p).unwrap();
    assert_eq!(flipped.turn(), Color::White);
    assert!(p.legal_moves().iter().any(|m| m.is_en_passant()));
    assert_eq!(flipped.ep_square(shakmaty::EnPassantMode::Always), None);
}

#[test]
fn threats_are_sorted_mates_first_then_by_gain() {
    // Black threatens Re1#, Qxc2 (a loose rook) and Qxa4 (a loose knight);
    // Qxg2+ would lose the queen to the king.
    let p = pos("4r1k1/3b1ppp/2q5/8/N7/8/2R2PPP/6K1 w - - 0 1");
    let t: Vec<(String, u32)> = threats(&p)
        .iter()
        .map(|t| (t.mv.to_uci(CastlingMode::Standard).to_string(), t.gain()))
        .collect();
    assert_eq!(t[0], ("e8e1".to_owned(), 0));
    assert_eq!(t[1], ("c6c2".to_owned(), 500));
    assert_eq!(
        t[2..],
        [("c6a4".to_owned(), 300)],
        "the queen blocks the bishop"
    );
    assert_eq!(threats(&p)[0].kind, ThreatKind::Mate);
}

#[test]
fn hanging_pieces_are_undefended_or_attacked_by_cheaper_ones() {
    let p = pos("4k3/8/5n2/8/8/8/5Q2/4K3 w - - 0 1");
    let h = hanging(&p, Color::Black);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].exposure, Exposure::Undefended);
    assert_eq!(h[0].attackers, Bitboard::from(Square::F2));
    // A knight defended by a pawn but attacked by a pawn.
    let p = pos("4k3/6p1/5n2/4P3/8/8/8/4K3 b - - 0 1");
    let h = hanging(&p, Color::Black);
    assert_eq!(h.len(), 1);
    assert_eq!(
        h[0].exposure,
        Exposure::AttackedByCheaper(Placed {
            square: Square::E5,
            role: Role::Pawn
        })
    );
    // The same knight attacked by a rook instead: defended, not hanging.
    let p = pos("4k3/6p1/5n2/8/8/8/5R2/4K3 b - - 0 1");
    assert!(hanging(&p, Color::Black).is_empty());
    assert_eq!(undefended(&p, Color::Black), Bitboard::from(Square::G7));
    assert_eq!(undefended(&p, Color::White), Bitboard::EMPTY);
}

#[test]
fn forks_need_two_worthwhile_targets() {
    let p = pos("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1");
    let f = fork_after(&p, mv(&p, "d5c7")).unwrap();
    assert_eq!(f.targets().len(), 2);
    assert_eq!(forks(&p).len(), 1);
    // A pawn fork of two defended knights.
    let p = pos("4k3/8/2n1n3/3p4/8/3P4/4P3/4K3 w - - 0 1");
    assert!(
        fork_after(&p, mv(&p, "e2e4")).is_none(),
        "e4 only attacks d5"
    );
    let p = pos("4k3/3p4/2n1n3/8/3P4/8/8/4K3 w - - 0 1");
    let f = fork_after(&p, mv(&p, "d4d5")).unwrap();
    assert_eq!(f.forker().role, Role::Pawn);
    assert_eq!(f.targets().len(), 2);
    // A knight attacking two pawns forks them only when they are loose.
    let p = pos("4k3/8/4p3/3p1p2/8/8/2N5/4K3 w - - 0 1");
    assert!(fork_after(&p, mv(&p, "c2e3")).is_none());
    let p = pos("4k3/8/8/3p1p2/8/8/2N5/4K3 w - - 0 1");
    assert_eq!(fork_after(&p, mv(&p, "c2e3")).unwrap().targets().len(), 2);
}

#[test]
fn pins_absolute_and_relative() {
    let p = pos("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1");
    let pins_ = pins(&p, Color::Black);
    assert_eq!(pins_.len(), 1);
    assert_eq!(pins_[0].kind, PinKind::Absolute);
    assert_eq!(pins_[0].behind.square, Square::E8);
    assert!(skewers(&p, Color::Black).is_empty());
    // Relative: the knight shields the queen from the bishop.
    let p = pos("4k3/3q4/2n5/1B6/8/8/8/4K3 b - - 0 1");
    let pins_ = pins(&p, Color::Black);
    assert_eq!(pins_.len(), 1);
    assert_eq!(pins_[0].kind, PinKind::Relative);
    assert_eq!(pins_[0].behind.role, Role::Queen);
    // A knight in front of a bishop: equal value, no pin.
    let p = pos("4k3/3b4/2n5/1B6/8/8/8/4K3 b - - 0 1");
    assert!(pins(&p, Color::Black).is_empty());
    // Nothing pins White.
    assert!(pins(&p, Color::White).is_empty());
}

#[test]
fn skewers_have_the_more_valuable_piece_in_front() {
    let p = pos("8/3r4/2k5/1B6/8/8/8/4K3 b - - 0 1");
    let s = skewers(&p, Color::Black);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].attacker.square, Square::B5);
    assert!(pins(&p, Color::Black).is_empty());
    // A rook in front of the queen is a pin, not a skewer.
    let p = pos("3q2k1/8/3r4/8/8/8/8/3R2K1 w - - 0 1");
    assert!(skewers(&p, Color::Black).is_empty());
    assert_eq!(pins(&p, Color::Black)[0].kind, PinKind::Relative);
    // The queen in front, the rook behind defended only by the queen.
    let p = pos("3r2k1/8/3q4/8/8/8/8/3R2K1 w - - 0 1");
    let s = skewers(&p, Color::Black);
    assert_eq!(s.len(), 1);
    assert_eq!(
        (s[0].front.role, s[0].behind.role),
        (Role::Queen, Role::Rook)
    );
    // The king defends the rook too: no gain behind the queen.
    let p = pos("3rk3/8/3q4/8/8/8/8/3R2K1 w - - 0 1");
    assert!(skewers(&p, Color::Black).is_empty());
    // A bishop is not on the file.
    let p = pos("3r2k1/8/3q4/8/8/8/8/3B1RK1 w - - 0 1");
    assert!(skewers(&p, Color::Black).is_empty());
}

#[test]
fn double_checks_need_two_checkers() {
    let p = pos("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1");
    let d = double_check_after(&p, mv(&p, "e4f6")).unwrap();
    let squares: Vec<Square> = d.checkers.iter().map(|c| c.square).collect();
    assert!(squares.contains(&Square::E1) && squares.contains(&Square::F6));
    assert!(double_check_after(&p, mv(&p, "e4d6")).is_some());
    assert!(
        double_check_after(&p, mv(&p, "e4c3")).is_none(),
        "only the rook checks"
    );
}

#[test]
fn discoveries_uncover_lines() {
    let p = pos("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1");
    let d = discoveries_after(&p, mv(&p, "e4c3"));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].kind, DiscoveryKind::Check);
    assert_eq!(d[0].line.square, Square::E1);
    let p = pos("3q2k1/8/8/8/8/3B4/8/3R2K1 w - - 0 1");
    let d = discoveries_after(&p, mv(&p, "d3b5"));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].kind, DiscoveryKind::Attack);
    // The rook moving itself uncovers nothing.
    assert!(discoveries_after(&p, mv(&p, "d1e1")).is_empty());
    // A defended rook is no target for a rook.
    let p = pos("3r2k1/3r4/8/8/8/3B4/8/3R2K1 w - - 0 1");
    assert!(discoveries_after(&p, mv(&p, "d3b5")).is_empty());
}

#[test]
fn back_rank_mates() {
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let b = back_rank_mate_after(&p, mv(&p, "a1a8")).unwrap();
    assert_eq!(b.mating.role, Role::Rook);
    assert_eq!(b.mating.square, Square::A8);
    // With luft on h6 it is only a check.
    let p = pos("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1");
    assert!(back_rank_mate_after(&p, mv(&p, "a1a8")).is_none());
    // A mate on the back rank by the opposing king's help is no back-rank mate.
    let p = pos("6k1/8/6K1/8/8/8/8/R7 w - - 0 1");
    assert!(back_rank_mate_after(&p, mv(&p, "a1a8")).is_none());
    // A queen mate on g7 is not on the back rank.
    let p = pos("6k1/5p1p/6pB/8/8/2Q5/8/6K1 w - - 0 1");
    assert!(back_rank_mate_after(&p, mv(&p, "c3g7")).is_none());
}

/// A position reached by the random moves `walk` from the start.
fn walked(walk: &[usize]) -> Chess {
    let mut p = Chess::default();
    for &i in walk {
        let ms = p.legal_moves();
        if ms.is_empty() {
            break;
        }
        p.play_unchecked(ms[i % ms.len()]);
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn checks_captures_and_threats_agree_with_the_rules(walk in proptest::collection::vec(0usize..256, 0..120)) {
        let p = walked(&walk);
        let legal = p.legal_moves();
        let gives_check = |m: &Move| {
            let mut q = p.clone();
            q.play_unchecked(*m);
            q.is_check()
        };
        let want_checks: Vec<Move> = legal.iter().copied().filter(gives_check).collect();
        let want_captures: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
        prop_assert_eq!(ucis(&checks(&p)), ucis(&want_checks));
        prop_assert_eq!(ucis(&captures(&p)), ucis(&want_captures));
        let t = threats(&p);
        match opponent_to_move(&p) {
            None => {
                prop_assert!(p.is_check());
                prop_assert!(t.is_empty());
            }
            Some(flipped) => {
                prop_assert_eq!(flipped.turn(), !p.turn());
                for threat in &t {
                    prop_assert!(flipped.is_legal(threat.mv));
                    match threat.kind {
                        ThreatKind::Mate => {
                            let mut q = flipped.clone();
                            q.play_unchecked(threat.mv);
                            prop_assert!(q.is_checkmate());
                        }
                        ThreatKind::Material { gain } => {
                            prop_assert!(threat.mv.is_capture());
                            prop_assert_eq!(i64::from(gain.get()), i64::from(exchange(&flipped, threat.mv)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn detectors_describe_what_is_on_the_board(walk in proptest::collection::vec(0usize..256, 0..120)) {
        let p = walked(&walk);
        let board = p.board();
        for h in hanging(&p, p.turn()) {
            prop_assert_eq!(board.role_at(h.piece.square), Some(h.piece.role));
            prop_assert!(h.attackers.any());
        }
        for pin in pins(&p, p.turn()).into_iter().chain(pins(&p, !p.turn())) {
            prop_assert!(shakmaty::attacks::aligned(pin.pinner.square, pin.pinned.square, pin.behind.square));
            prop_assert!(value(pin.behind.role) > value(pin.pinned.role));
            prop_assert_eq!(pin.kind == PinKind::Absolute, pin.behind.role == Role::King);
        }
        for m in p.legal_moves() {
            if let Some(f) = fork_after(&p, m) {
                prop_assert!(f.targets().len() >= 2);
            }
            let dc = double_check_after(&p, m).is_some();
            let discovered_check = discoveries_after(&p, m).iter().any(|d| d.kind == DiscoveryKind::Check);
            if dc && !m.is_castle() && !m.is_en_passant() {
                prop_assert!(discovered_check, "a double check uncovers a line");
            }
        }
    }
}
