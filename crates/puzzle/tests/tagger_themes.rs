//! The tagger on hand-made positions, one or more per theme. Each line is
//! a real position (the FEN before the opponent's move) and legal moves;
//! the comments say what happens on the board.

use plyyard_puzzle::generator::Score;
use plyyard_puzzle::tagger::tag;
use plyyard_puzzle::{Line, Theme};

fn themes_with(fen: &str, moves: &str, eval: Option<Score>) -> Vec<Theme> {
    let line = Line::parse(fen, moves.split_whitespace()).expect("a legal line");
    tag(&line, eval)
}

fn themes(fen: &str, moves: &str) -> Vec<Theme> {
    themes_with(fen, moves, None)
}

#[track_caller]
fn has(fen: &str, moves: &str, expected: &[Theme]) {
    let got = themes(fen, moves);
    for t in expected {
        assert!(got.contains(t), "{t} missing from {got:?}");
    }
}

#[track_caller]
fn lacks(fen: &str, moves: &str, unexpected: &[Theme]) {
    let got = themes(fen, moves);
    for t in unexpected {
        assert!(!got.contains(t), "{t} unexpected in {got:?}");
    }
}

use Theme::*;

/// ...Kh8 Ra8#: the king is shut in by its own pawns.
const BACK_RANK: (&str, &str) = ("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "g8h8 a1a8");

#[test]
fn lengths_and_mates() {
    let (fen, moves) = BACK_RANK;
    let got = themes(fen, moves);
    for t in [OneMove, Mate, MateIn1, BackRankMate, Endgame, RookEndgame] {
        assert!(got.contains(&t), "{t}");
    }
    // Re8+ Rxe8 Rxe8#: mate in two.
    has(
        "3r2k1/p4ppp/8/8/8/8/4RPPP/4R1K1 b - - 0 1",
        "a7a6 e2e8 d8e8 e1e8",
        &[Short, Mate, MateIn2, BackRankMate],
    );
    // A pawn walks three moves: long, no mate, a pawn endgame.
    let walk = themes(
        "4k3/8/8/8/8/8/P7/4K3 b - - 0 1",
        "e8d8 a2a4 d8c8 a4a5 c8b8 a5a6",
    );
    assert!(walk.contains(&Long) && walk.contains(&PawnEndgame));
    assert!(!walk.contains(&Mate));
}

#[test]
fn goals_need_an_evaluation_unless_mate() {
    let walk = ("4k3/8/8/8/8/8/P7/4K3 b - - 0 1", "e8d8 a2a4");
    let goal = |cp| themes_with(walk.0, walk.1, Some(Score::Cp(cp)));
    assert!(goal(700).contains(&Crushing));
    assert!(goal(300).contains(&Advantage));
    assert!(goal(50).contains(&Equality));
    let none = themes(walk.0, walk.1);
    assert!(
        ![Crushing, Advantage, Equality]
            .iter()
            .any(|t| none.contains(t))
    );
    let (fen, moves) = BACK_RANK;
    let mate = themes_with(fen, moves, Some(Score::Cp(900)));
    assert!(mate.contains(&Mate) && !mate.contains(&Crushing));
}

#[test]
fn phases() {
    // Bxh7+ in a Queen's Gambit-like position, move 6: the opening.
    let gift = "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/2NBPN2/PP3PPP/R1BQK2R b KQ - 0 6";
    has(gift, "b7b6 d3h7", &[Opening, KingsideAttack]);
    // The same position at move 20 is the middlegame.
    let late = gift.replace(" 0 6", " 0 20");
    has(&late, "b7b6 d3h7", &[Middlegame]);
    lacks(&late, "b7b6 d3h7", &[Opening, Endgame]);
}

#[test]
fn endgame_types() {
    has(
        "4k3/8/8/8/8/8/1B6/4K3 b - - 0 1",
        "e8d8 b2c3",
        &[Endgame, BishopEndgame],
    );
    has(
        "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
        "e8d8 e1g1",
        &[Castling, RookEndgame],
    );
    has(
        "7k/6pp/8/8/8/2K5/8/n7 b - - 0 1",
        "g7g6 c3b2",
        &[KnightEndgame],
    );
    // One queen and rooks: a queen-and-rook endgame.
    has(
        "2r3k1/p4ppp/8/8/8/8/3Q1PPP/3R2K1 b - - 0 1",
        "a7a6 d2d8 c8d8 d1d8",
        &[QueenRookEndgame],
    );
    has(
        "4k3/8/8/7p/8/8/8/Q5K1 b - - 0 1",
        "h5h4 a1a2",
        &[QueenEndgame],
    );
}

#[test]
fn special_moves() {
    has(
        "8/P7/8/8/8/8/8/k5K1 b - - 0 1",
        "a1b1 a7a8n",
        &[Promotion, UnderPromotion, AdvancedPawn],
    );
    lacks(
        "8/P7/8/8/8/8/8/k5K1 b - - 0 1",
        "a1b1 a7a8q",
        &[UnderPromotion],
    );
    has(
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        "d7d5 e5d6",
        &[EnPassant],
    );
    lacks(
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        "d7d5 e5d6",
        &[AdvancedPawn],
    );
    // Scholar's mate: Qxf7# with the king still on e8.
    has(
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
        "g8f6 h5f7",
        &[AttackingF2F7, Mate, MateIn1, Opening],
    );
}

#[test]
fn fork_pin_skewer() {
    // Nc7+ forks king and rook, then takes the rook.
    has(
        "r3k3/7p/8/3N4/8/8/8/4K3 b - - 0 1",
        "h7h6 d5c7 e8d7 c7a8",
        &[Fork],
    );
    // Re1 pins the queen to the king; the rook is cheaper than the queen.
    has("4k3/8/8/8/q7/8/5K2/R7 b - - 0 1", "a4e4 a1e1", &[Pin]);
    lacks("4k3/8/8/8/q7/8/5K2/R7 b - - 0 1", "a4e4 a1e1", &[Fork]);
    // Rh8+ drives the king off the eighth rank; Rxa8.
    has(
        "r3k3/1p6/8/8/8/8/8/6KR b - - 0 1",
        "b7b6 h1h8 e8d7 h8a8",
        &[Skewer, RookEndgame],
    );
}

#[test]
fn discovered_and_double_checks() {
    // Ne6+ uncovers the b2 bishop on the queen; Bxf6.
    has(
        "5k2/p7/5q2/8/3N4/8/1B6/6K1 b - - 0 1",
        "a7a6 d4e6 f8e8 b2f6",
        &[DiscoveredAttack],
    );
    // Nf5: knight and bishop both check (a double check, not counted as a
    // discovered one).
    let double = themes("8/p5k1/8/8/3N4/8/1B6/6K1 b - - 0 1", "a7a6 d4f5");
    assert!(double.contains(&DoubleCheck) && !double.contains(&DiscoveredCheck));
    // Nb3: the bishop alone checks; the line goes on.
    let single = themes("8/p5k1/8/8/3N4/8/1B6/6K1 b - - 0 1", "a7a6 d4b3 g7g6 b3d4");
    assert!(single.contains(&DiscoveredCheck) && single.contains(&DiscoveredAttack));
    assert!(!single.contains(&DoubleCheck));
    // The same check as the last move is only a discovered attack.
    let last = themes("8/p5k1/8/8/3N4/8/1B6/6K1 b - - 0 1", "a7a6 d4b3");
    assert!(last.contains(&DiscoveredAttack) && !last.contains(&DiscoveredCheck));
}

#[test]
fn hanging_trapped_capturing_defender() {
    has(
        "6k1/7p/8/n7/8/8/8/R5K1 b - - 0 1",
        "h7h6 a1a5",
        &[HangingPiece],
    );
    // Kb2 leaves the cornered knight no safe square; Kxa1.
    has(
        "7k/6pp/8/8/8/2K5/8/n7 b - - 0 1",
        "g7g6 c3b2 h7h6 b2a1",
        &[TrappedPiece],
    );
    // Bxc6 removes the d4 bishop's guard; Qxd4.
    has(
        "6k1/1p5p/2n5/1B6/3b4/8/8/3Q3K b - - 0 1",
        "h7h6 b5c6 b7c6 d1d4",
        &[CapturingDefender],
    );
}

#[test]
fn sacrifice_attraction_deflection() {
    // Qd8+ Rxd8 Rxd8#: the queen is given for a rook.
    has(
        "2r3k1/p4ppp/8/8/8/8/3Q1PPP/3R2K1 b - - 0 1",
        "a7a6 d2d8 c8d8 d1d8",
        &[Sacrifice, BackRankMate, MateIn2],
    );
    // Rh8+ Kxh8 Qh5+: the king is drawn to h8 and checked there.
    has(
        "6k1/p4pp1/8/8/8/8/8/3Q2KR b - - 0 1",
        "a7a6 h1h8 g8h8 d1h5",
        &[Attraction, Sacrifice],
    );
    // Be6+ Nxe6 Rxa8+: the knight stops guarding a8.
    has(
        "r5k1/2n4p/8/8/6B1/8/8/R5K1 b - - 0 1",
        "h7h6 g4e6 c7e6 a1a8",
        &[Deflection],
    );
}

#[test]
fn clearance() {
    // Ng5 (offered to the h6 pawn) clears e4 for Qh7#.
    has(
        "7k/p5p1/7p/8/4N3/8/8/1Q4K1 b - - 0 1",
        "a7a6 e4g5 a6a5 b1h7",
        &[Clearance, Mate],
    );
    // Doubling on a file is a battery, not a clearance: Rh8+ then Rh7.
    lacks(
        "6k1/p7/8/7R/8/8/8/6KR b - - 0 1",
        "a7a6 h5h8 g8g7 h1h7",
        &[Clearance],
    );
}

#[test]
fn interference_intermezzo_xray() {
    // Nc5 cuts the a5 rook off the e5 bishop; Rxe5.
    has(
        "6k1/6pp/8/r3b3/8/1N6/8/4R1K1 b - - 0 1",
        "g7g6 b3c5 h7h6 e1e5",
        &[Interference],
    );
    // ...Bxc3; Qd8+ first, bxc3 after.
    has(
        "6k1/5pp1/7p/8/1b6/2N5/1P6/3Q2K1 b - - 0 1",
        "b4c3 d1d8 g8h7 b2c3",
        &[Intermezzo],
    );
    // Nxe5 Qxe5 Rxe5: the rook behind the queen's old square.
    has(
        "4R3/p3q2k/8/4p3/8/3N4/8/6K1 b - - 0 1",
        "a7a6 d3e5 e7e5 e8e5",
        &[XRayAttack],
    );
}

#[test]
fn quiet_defensive_zugzwang_exposed() {
    has(
        "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
        "g8h8 a1a2 h7h6 a2a8",
        &[QuietMove],
    );
    has(
        "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
        "g8h8 a1a2",
        &[DefensiveMove],
    );
    lacks(BACK_RANK.0, BACK_RANK.1, &[DefensiveMove, QuietMove]);
    // Rb2: Black's only move a3 allows Rb8#.
    has(
        "7k/5K2/6P1/p7/8/8/8/1R6 b - - 0 1",
        "a5a4 b1b2 a4a3 b2b8",
        &[Zugzwang, Mate],
    );
    // A pawnless king on e8 checked in the middle of the line.
    has(
        "4k3/8/8/7p/8/8/8/Q5K1 b - - 0 1",
        "h5h4 a1a2 e8d8 a2a8 d8d7 a8b7",
        &[ExposedKing, Long],
    );
}

#[test]
fn wing_attacks() {
    // Qxb7+ against the king on c8.
    has(
        "2kr1bnr/ppp2ppp/2n5/4p3/4P1b1/1QN2N2/PPP2PPP/R1B1KB1R b KQ - 0 8",
        "a7a6 b3b7",
        &[QueensideAttack],
    );
    lacks(
        "2kr1bnr/ppp2ppp/2n5/4p3/4P1b1/1QN2N2/PPP2PPP/R1B1KB1R b KQ - 0 8",
        "a7a6 b3b7",
        &[KingsideAttack],
    );
}

#[test]
fn named_mates() {
    has(
        "6rk/p5pp/8/6N1/8/8/8/6K1 b - - 0 1",
        "a7a6 g5f7",
        &[SmotheredMate],
    );
    has(
        "5k2/5ppp/3N4/2P5/8/8/8/4R1K1 b - - 0 1",
        "h7h6 e1e8",
        &[HookMate],
    );
    has(
        "8/4N1pk/p7/8/8/3R4/8/1K6 b - - 0 1",
        "a6a5 d3h3",
        &[AnastasiaMate],
    );
    has(
        "7k/R7/p4N2/8/8/8/8/1K6 b - - 0 1",
        "a6a5 a7h7",
        &[ArabianMate],
    );
    has(
        "4r3/p3kp2/8/1N6/8/8/8/3Q2K1 b - - 0 1",
        "a7a6 d1d6",
        &[DovetailMate],
    );
    has(
        "2kr4/3n3p/8/8/5B2/3B4/8/6K1 b - - 0 1",
        "h7h6 d3a6",
        &[BodenMate],
    );
    lacks(
        "2kr4/3n3p/8/8/5B2/3B4/8/6K1 b - - 0 1",
        "h7h6 d3a6",
        &[DoubleBishopMate],
    );
    has(
        "6bk/8/p7/8/8/8/2B5/2B1K3 b - - 0 1",
        "a6a5 c1b2",
        &[DoubleBishopMate],
    );
    lacks(
        "6bk/8/p7/8/8/8/2B5/2B1K3 b - - 0 1",
        "a6a5 c1b2",
        &[BodenMate],
    );
    // None of them on a plain back-rank mate.
    let plain = themes(BACK_RANK.0, BACK_RANK.1);
    for t in [
        SmotheredMate,
        HookMate,
        AnastasiaMate,
        ArabianMate,
        DovetailMate,
        BodenMate,
    ] {
        assert!(!plain.contains(&t), "{t}");
    }
}
