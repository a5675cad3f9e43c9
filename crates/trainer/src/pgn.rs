//! The game text of a puzzle as lichess's puzzle API gives it
//! (`game.pgn`): ours starts from the puzzle's position (a `FEN` tag with
//! `SetUp`) and ends with the opponent's move, so that the solver's first
//! move comes next; the positions and last move a client needs follow.

use plyyard_game::notation::san;
use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::{EnPassantMode, Position};
use plyyard_puzzle::line::{Line, LineError};
use plyyard_store::PuzzleRow;

/// A puzzle's line with what the API shows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The PGN from the puzzle's FEN to the opponent's move.
    pub pgn: String,
    /// The position the solver faces (FEN).
    pub fen: String,
    /// The opponent's move (UCI).
    pub last_move: String,
    /// The solution (UCI).
    pub solution: Vec<String>,
}

/// What the API shows of `row`.
///
/// # Errors
/// The stored line does not parse (a corrupt row).
pub fn shown(row: &PuzzleRow) -> Result<Shown, LineError> {
    let line = Line::parse(&row.fen, row.moves.split_ascii_whitespace())?;
    let before = line.positions().remove(0);
    let opponent = line
        .moves()
        .next()
        .expect("a line starts with the opponent's move");
    let number = before.fullmoves().get();
    let dots = if before.turn().is_white() { "." } else { "..." };
    let pgn = format!(
        "[FEN \"{}\"]\n[SetUp \"1\"]\n\n{number}{dots} {}\n",
        row.fen,
        san(&before, opponent)
    );
    Ok(Shown {
        pgn,
        fen: Fen::from_position(&line.start(), EnPassantMode::Legal).to_string(),
        last_move: line.opponent_uci(),
        solution: line.solution_uci(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pgn_ends_with_the_opponents_move() {
        let row = PuzzleRow {
            id: "000rZ".into(),
            fen: "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13".into(),
            moves: "d4e6 d6h2".into(),
            initial_ply: 24,
            rating: 633.0,
            deviation: 93.0,
            volatility: 0.09,
            popularity: 100,
            plays: 616,
            themes: "mate mateIn1".into(),
            game_url: String::new(),
            opening_tags: String::new(),
            source: "lichess".into(),
        };
        let s = shown(&row).unwrap();
        assert!(s.pgn.ends_with("\n\n13. Nxe6\n"), "{}", s.pgn);
        assert_eq!(s.last_move, "d4e6");
        assert_eq!(s.solution, ["d6h2"]);
        assert!(s.fen.starts_with("2kr1b1r/p1p2pp1/2pqN3/"), "{}", s.fen);
        let black = PuzzleRow {
            fen: "6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28".into(),
            moves: "h8g8 f1f8".into(),
            ..row
        };
        assert!(shown(&black).unwrap().pgn.ends_with("28... Kxg8\n"));
    }
}
