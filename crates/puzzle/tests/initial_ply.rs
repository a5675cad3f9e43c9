//! `initialPly` against the example of lichess's API documentation
//! (`PuzzleAndGame`: puzzle K69di, `initialPly` 123, whose `game.pgn` has
//! 124 moves and ends with the opponent's move `g4`).

use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::san::San;
use plyyard_game::shakmaty::{Chess, EnPassantMode, Position};
use plyyard_puzzle::Line;

const PGN: &str = "d4 Nf6 Nf3 g6 Nc3 d6 e4 c5 Be3 cxd4 Bxd4 Nc6 Be3 Qa5 Bd2 Bg7 Be2 O-O O-O Qb6 \
Rb1 Bg4 h3 Bxf3 Bxf3 Nd4 Be3 Nxf3+ Qxf3 Qc6 Bd4 a6 Bxf6 Bxf6 Nd5 Qxc2 Nxf6+ exf6 Qxf6 Qxe4 \
Qxd6 Rad8 Qb6 Rfe8 Rfe1 Qxe1+ Rxe1 Rxe1+ Kh2 Rd2 Kg3 Ree2 Qxb7 Rxb2 Qxa6 Rxa2 Qc8+ Kg7 Qc3+ \
Kg8 Qc5 Rxf2 Qc8+ Kg7 Qc3+ Kh6 Qe3+ Kg7 Qe5+ Kf8 Qh8+ Ke7 Qe5+ Kf8 Qb8+ Kg7 Qe5+ f6 Qe7+ Kh6 \
Qf8+ Kg5 h4+ Kh5 Qc5+ f5 Qc1 Rxg2+ Kh3 Rh2+ Kg3 Rag2+ Kf3 Rg4 Qd1 Rhxh4 Kf2 Rh2+ Kf3 Rh3+ Ke2 \
Rg2+ Kf1+ Rg4 Kf2 g5 Qd8 h6 Qe8+ Kh4 Kf1 h5 Qe1+ Rhg3 Qe5 f4 Qe1 f3 Kf2 Rf4 Qh1+ Rh3 Qe1 g4";

#[test]
fn the_api_example_has_initial_ply_123() {
    let sans: Vec<&str> = PGN.split_whitespace().collect();
    assert_eq!(sans.len(), 124);
    let mut pos = Chess::default();
    for san in &sans[..123] {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    // The CSV's FEN is this position: the one before the opponent's g4.
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let g4 = sans[123].parse::<San>().unwrap().to_move(&pos).unwrap();
    let opponent = plyyard_puzzle::line::uci(g4);
    let line = Line::parse(&fen, [opponent.as_str(), "e1e7", "f4f6", "e7f6"]).unwrap();
    assert_eq!(line.initial_ply(), 123);
    assert_eq!(line.solution_uci(), ["e1e7", "f4f6", "e7f6"]);
    // The documented themes say mateIn2: the line ends in mate.
    assert!(line.positions().last().unwrap().is_checkmate());
}
