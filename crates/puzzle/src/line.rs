//! A puzzle's line on the board: the position before the opponent's move
//! (the CSV's FEN), that move, and the solution, every move checked legal
//! by the rules core. The tagger and the importer both work on it.

use plyyard_game::notation;
use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::uci::UciMove;
use plyyard_game::shakmaty::{CastlingMode, Chess, Color, Move, Position};

/// The most moves (opponent's included) a line may have.
pub const MAX_MOVES: usize = 64;

/// Why a FEN and a move list are not a puzzle line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The FEN does not parse.
    #[error("unreadable FEN")]
    Fen,
    /// The FEN parses but is not a legal standard-chess position.
    #[error("illegal position")]
    Position,
    /// A move is not UCI, or not legal where it is played (0 = the
    /// opponent's move).
    #[error("move {index} ({uci}) is not legal")]
    Move {
        /// Index in the move list.
        index: usize,
        /// The move as written.
        uci: String,
    },
    /// No solution after the opponent's move, or one whose length is even
    /// (the solver must play last).
    #[error("the solution has {0} moves: it must be odd")]
    Length(usize),
    /// More than [`MAX_MOVES`] moves.
    #[error("more than {MAX_MOVES} moves")]
    TooLong,
}

/// A checked puzzle line.
#[derive(Debug, Clone)]
pub struct Line {
    /// The position before the opponent's move.
    pub before: Chess,
    /// The opponent's move that sets the puzzle.
    pub opponent: Move,
    /// The solution: solver's move, reply, …, solver's last move.
    pub solution: Vec<Move>,
}

impl Line {
    /// Parses and checks a FEN and UCI moves (the opponent's first).
    ///
    /// # Examples
    /// ```
    /// use plyyard_puzzle::Line;
    /// let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1";
    /// let line = Line::parse(fen, ["h7h6", "a1a8"]).unwrap();
    /// assert_eq!(line.solution_uci(), ["a1a8"]);
    /// assert!(Line::parse(fen, ["h7h6", "a1a8", "g8h7"]).is_err());
    /// ```
    pub fn parse<'a>(
        fen: &str,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Line, LineError> {
        let before = parse_fen(fen)?;
        let mut pos = before.clone();
        let mut played = Vec::with_capacity(8);
        for (index, uci) in moves.into_iter().enumerate() {
            if index >= MAX_MOVES {
                return Err(LineError::TooLong);
            }
            let m = parse_move(&pos, uci).ok_or_else(|| LineError::Move {
                index,
                uci: uci.to_owned(),
            })?;
            pos.play_unchecked(m);
            played.push(m);
        }
        Line::from_moves(before, played)
    }

    /// A line from moves already known legal in sequence from `before`.
    pub fn from_moves(before: Chess, moves: Vec<Move>) -> Result<Line, LineError> {
        let mut moves = moves.into_iter();
        let opponent = moves.next().ok_or(LineError::Length(0))?;
        let solution: Vec<Move> = moves.collect();
        if solution.len().is_multiple_of(2) {
            return Err(LineError::Length(solution.len()));
        }
        Ok(Line {
            before,
            opponent,
            solution,
        })
    }

    /// The colour the solver plays.
    pub fn solver(&self) -> Color {
        !self.before.turn()
    }

    /// The position the solver faces (after the opponent's move).
    pub fn start(&self) -> Chess {
        after(&self.before, self.opponent)
    }

    /// Every move, the opponent's first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        std::iter::once(self.opponent).chain(self.solution.iter().copied())
    }

    /// The positions along the line: before the opponent's move, then
    /// after each move (one more than the moves).
    pub fn positions(&self) -> Vec<Chess> {
        let mut out = Vec::with_capacity(self.solution.len() + 2);
        out.push(self.before.clone());
        for m in self.moves() {
            let next = after(out.last().expect("never empty"), m);
            out.push(next);
        }
        out
    }

    /// The solution in UCI (castling as the king's two-square step).
    pub fn solution_uci(&self) -> Vec<String> {
        self.solution.iter().map(|&m| uci(m)).collect()
    }

    /// The opponent's move in UCI.
    pub fn opponent_uci(&self) -> String {
        uci(self.opponent)
    }

    /// The game ply of the CSV position: lichess's `initialPly`.
    pub fn initial_ply(&self) -> u32 {
        initial_ply(&self.before)
    }
}

/// lichess's `initialPly` for the position before the opponent's move:
/// the plies played before it, `2 × (fullmove − 1)`, plus one when Black
/// is to move. The API's `game.pgn` ends with the opponent's move, which
/// is ply number `initialPly + 1`; the solver's first move is the next.
pub fn initial_ply(before: &Chess) -> u32 {
    let full = before.fullmoves().get();
    2 * (full - 1) + u32::from(before.turn() == Color::Black)
}

/// A standard-chess position from a FEN, or why not.
pub fn parse_fen(fen: &str) -> Result<Chess, LineError> {
    let fen = Fen::from_ascii(fen.as_bytes()).map_err(|_| LineError::Fen)?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|_| LineError::Position)
}

/// The legal move `uci` in `pos`.
pub fn parse_move(pos: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// The UCI of a standard-chess move.
pub fn uci(m: Move) -> String {
    notation::uci(m, CastlingMode::Standard)
}

/// The position after the legal move `m`.
pub fn after(pos: &Chess, m: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(m);
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13";

    #[test]
    fn parses_a_lichess_row() {
        let line = Line::parse(FEN, ["d4e6", "d6h2"]).unwrap();
        assert_eq!(line.solver(), Color::Black);
        assert_eq!(line.opponent_uci(), "d4e6");
        assert_eq!(line.solution_uci(), ["d6h2"]);
        assert_eq!(line.initial_ply(), 24);
        let positions = line.positions();
        assert_eq!(positions.len(), 3);
        assert!(positions[2].is_checkmate());
        assert_eq!(positions[1].turn(), Color::Black);
    }

    #[test]
    fn refuses_bad_lines() {
        assert_eq!(
            Line::parse("nonsense", ["e2e4"]).unwrap_err(),
            LineError::Fen
        );
        let two_kings = "kk6/8/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(
            Line::parse(two_kings, ["a1a2"]).unwrap_err(),
            LineError::Position
        );
        let illegal = Line::parse(FEN, ["d4e6", "d6d1"]).unwrap_err();
        assert_eq!(
            illegal,
            LineError::Move {
                index: 1,
                uci: "d6d1".into()
            }
        );
        assert_eq!(
            Line::parse(FEN, ["d4e6"]).unwrap_err(),
            LineError::Length(0)
        );
        let even = Line::parse(FEN, ["d4e6", "d6h2", "g1h2"]);
        assert!(matches!(even, Err(LineError::Move { index: 2, .. })));
        assert!(matches!(
            Line::parse(FEN, ["zz"]),
            Err(LineError::Move { index: 0, .. })
        ));
    }

    #[test]
    fn initial_ply_counts_both_colours() {
        let white = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let black = parse_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 62").unwrap();
        assert_eq!(initial_ply(&white), 0);
        assert_eq!(initial_ply(&black), 123);
    }
}
