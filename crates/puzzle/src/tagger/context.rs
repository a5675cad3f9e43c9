//! The walked line: every position and move once, with who plays them,
//! so each theme rule reads what it needs without replaying.

use plyyard_game::shakmaty::{Board, Chess, Color, Move, Position};

use crate::line::Line;

/// A theme rule: whether the walked line shows the theme.
pub type Rule = fn(&Ctx) -> bool;

/// A line walked once.
#[derive(Debug)]
pub struct Ctx {
    /// Positions: before the opponent's move, then after each move.
    pub positions: Vec<Chess>,
    /// Moves: the opponent's, then the solution.
    pub moves: Vec<Move>,
    /// The solver's colour.
    pub solver: Color,
}

impl Ctx {
    /// Walks `line`.
    pub fn new(line: &Line) -> Ctx {
        Ctx {
            positions: line.positions(),
            moves: line.moves().collect(),
            solver: line.solver(),
        }
    }

    /// The position before move `i`.
    pub fn before(&self, i: usize) -> &Chess {
        &self.positions[i]
    }

    /// The position after move `i`.
    pub fn after(&self, i: usize) -> &Chess {
        &self.positions[i + 1]
    }

    /// The board after move `i`.
    pub fn board_after(&self, i: usize) -> &Board {
        self.after(i).board()
    }

    /// Indices of the solver's moves (1, 3, 5, …).
    pub fn solver_moves(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.moves.len()).step_by(2)
    }

    /// The number of solver moves.
    pub fn solver_count(&self) -> usize {
        self.moves.len() / 2
    }

    /// The last position.
    pub fn last(&self) -> &Chess {
        self.positions.last().expect("never empty")
    }

    /// Whether the line ends in mate.
    pub fn mates(&self) -> bool {
        self.last().is_checkmate()
    }

    /// The opponent's colour.
    pub fn defender(&self) -> Color {
        !self.solver
    }
}
