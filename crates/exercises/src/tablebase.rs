//! An exact retrograde solver for king and queen, or king and rook, against
//! a lone king: the distance to mate with best play for both sides of every
//! position, computed once per material the first time it is asked for.
//!
//! Positions are indexed with the strong side as White; the board's eight
//! symmetries (no pawns, no castling) bring the strong king into the
//! a1–d1–d4 triangle, so a table has 2 × 10 × 64 × 64 entries. Every legal
//! move comes from the rules core (shakmaty); the solver only walks the
//! move graph backwards from the checkmates.

use std::sync::LazyLock;

use plyyard_game::shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Move, Piece, Position, Role, Setup, Square,
};

/// Which ending a table solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// King and queen against king.
    Kqk,
    /// King and rook against king.
    Krk,
}

impl Ending {
    /// The piece beside the strong king.
    pub const fn role(self) -> Role {
        match self {
            Ending::Kqk => Role::Queen,
            Ending::Krk => Role::Rook,
        }
    }

    /// The wire name (`kqk`, `krk`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Ending::Kqk => "kqk",
            Ending::Krk => "krk",
        }
    }
}

/// Entries per table: side to move × strong king (10) × piece × weak king.
const STATES: usize = 2 * 10 * 64 * 64;
/// A drawn, illegal or not yet solved entry.
const NONE: u8 = u8::MAX;

/// The squares of the strong king's triangle, in index order.
const TRIANGLE: [Square; 10] = [
    Square::A1,
    Square::B1,
    Square::C1,
    Square::D1,
    Square::B2,
    Square::C2,
    Square::D2,
    Square::C3,
    Square::D3,
    Square::D4,
];

/// The three pieces of a position, the strong side being White.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Whether the strong side is to move.
    pub strong_to_move: bool,
    /// The strong king.
    pub king: Square,
    /// The queen or rook.
    pub piece: Square,
    /// The lone king.
    pub lone: Square,
}

/// One of the board's symmetries: optional file, rank and diagonal flips.
#[derive(Debug, Clone, Copy)]
struct Symmetry {
    files: bool,
    ranks: bool,
    diagonal: bool,
}

impl Symmetry {
    /// The symmetry bringing `king` into the triangle.
    fn for_king(king: Square) -> Symmetry {
        let files = king.file().to_u32() > 3;
        let ranks = king.rank().to_u32() > 3;
        let mut s = Symmetry {
            files,
            ranks,
            diagonal: false,
        };
        let k = s.apply(king);
        s.diagonal = k.rank().to_u32() > k.file().to_u32();
        s
    }

    fn apply(self, mut sq: Square) -> Square {
        if self.files {
            sq = sq.flip_horizontal();
        }
        if self.ranks {
            sq = sq.flip_vertical();
        }
        if self.diagonal {
            sq = sq.flip_diagonal();
        }
        sq
    }
}

impl Placement {
    /// The table index of this placement (after the symmetry).
    fn index(self) -> usize {
        let s = Symmetry::for_king(self.king);
        let king = s.apply(self.king);
        let tri = TRIANGLE
            .iter()
            .position(|&t| t == king)
            .expect("the symmetry puts the king in the triangle");
        let side = usize::from(!self.strong_to_move);
        ((side * 10 + tri) * 64 + s.apply(self.piece).to_usize()) * 64
            + s.apply(self.lone).to_usize()
    }

    fn from_index(i: usize) -> Placement {
        Placement {
            strong_to_move: i / (10 * 64 * 64) == 0,
            king: TRIANGLE[(i / (64 * 64)) % 10],
            piece: Square::new((i / 64 % 64) as u32),
            lone: Square::new((i % 64) as u32),
        }
    }

    /// The legal position of this placement, strong side White, if there is one.
    fn position(self, role: Role) -> Option<Chess> {
        if self.king == self.piece || self.king == self.lone || self.piece == self.lone {
            return None;
        }
        let mut board = Board::empty();
        board.set_piece_at(
            self.king,
            Piece {
                color: Color::White,
                role: Role::King,
            },
        );
        board.set_piece_at(
            self.piece,
            Piece {
                color: Color::White,
                role,
            },
        );
        board.set_piece_at(
            self.lone,
            Piece {
                color: Color::Black,
                role: Role::King,
            },
        );
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if self.strong_to_move {
            Color::White
        } else {
            Color::Black
        };
        Chess::from_setup(setup, CastlingMode::Standard).ok()
    }

    /// The placement after move `m` of this position, or `None` when `m`
    /// captures the strong piece (a dead draw).
    fn after(self, m: &Move) -> Option<Placement> {
        if m.is_capture() {
            return None;
        }
        let mut next = Placement {
            strong_to_move: !self.strong_to_move,
            ..self
        };
        match (self.strong_to_move, m.role()) {
            (true, Role::King) => next.king = m.to(),
            (true, _) => next.piece = m.to(),
            (false, _) => next.lone = m.to(),
        }
        Some(next)
    }

    /// The placement of `pos` for `ending`, mirrored when the strong side
    /// is Black; `None` for any other material.
    pub fn of(pos: &Chess, ending: Ending) -> Option<Placement> {
        let board = pos.board();
        if board.occupied().count() != 3 || board.by_role(ending.role()).count() != 1 {
            return None;
        }
        let piece = board.by_role(ending.role()).first()?;
        let strong = board.color_at(piece)?;
        let king = board.king_of(strong)?;
        let lone = board.king_of(!strong)?;
        let view = |sq: Square| {
            if strong == Color::White {
                sq
            } else {
                sq.flip_vertical()
            }
        };
        Some(Placement {
            strong_to_move: pos.turn() == strong,
            king: view(king),
            piece: view(piece),
            lone: view(lone),
        })
    }
}

/// A solved ending: plies to mate of every position.
#[derive(Debug)]
pub struct Table {
    ending: Ending,
    plies: Vec<u8>,
}

/// The distance to mate of a position with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// The strong side mates in this many plies (0: the lone king is mated).
    Mate(u8),
    /// The lone king can hold the draw (it can take the piece, or is stalemated).
    Draw,
}

impl Value {
    /// Whole moves of the strong side to mate, if the strong side wins.
    pub fn moves(self) -> Option<u32> {
        match self {
            Value::Mate(p) => Some(u32::from(p).div_ceil(2)),
            Value::Draw => None,
        }
    }
}

static KQK: LazyLock<Table> = LazyLock::new(|| Table::solve(Ending::Kqk));
static KRK: LazyLock<Table> = LazyLock::new(|| Table::solve(Ending::Krk));

impl Table {
    /// The table of `ending`, solved on first use.
    pub fn get(ending: Ending) -> &'static Table {
        match ending {
            Ending::Kqk => &KQK,
            Ending::Krk => &KRK,
        }
    }

    /// Which ending this table solves.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// The value of a position of this ending (`None` for other material).
    pub fn probe(&self, pos: &Chess) -> Option<Value> {
        Placement::of(pos, self.ending).map(|p| self.value(p))
    }

    /// The value of a placement.
    pub fn value(&self, p: Placement) -> Value {
        match self.plies[p.index()] {
            NONE => Value::Draw,
            n => Value::Mate(n),
        }
    }

    /// The longest mate with the strong side to move, in moves.
    pub fn longest(&self) -> u32 {
        self.plies[..STATES / 2]
            .iter()
            .filter(|&&p| p != NONE)
            .map(|&p| u32::from(p).div_ceil(2))
            .max()
            .unwrap_or(0)
    }

    /// Solves `ending`: walks from every checkmate backwards, level by level;
    /// a strong-side position takes its nearest won successor, a lone-king
    /// position is lost once all its moves are, at the farthest distance.
    pub fn solve(ending: Ending) -> Table {
        let role = ending.role();
        let mut plies = vec![NONE; STATES];
        let mut open = vec![0u8; STATES];
        let mut queue = Vec::new();
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for i in 0..STATES {
            let p = Placement::from_index(i);
            let Some(pos) = p.position(role) else {
                continue;
            };
            let moves = pos.legal_moves();
            if moves.is_empty() && pos.is_check() {
                plies[i] = 0;
                queue.push(i as u32);
            }
            open[i] = moves.len() as u8;
            for m in &moves {
                if let Some(next) = p.after(m) {
                    edges.push((next.index() as u32, i as u32));
                }
            }
        }
        let (starts, preds) = group_by_target(edges);
        let mut head = 0;
        while let Some(&t) = queue.get(head) {
            head += 1;
            let t = t as usize;
            let next = plies[t] + 1;
            for &s in &preds[starts[t] as usize..starts[t + 1] as usize] {
                let s = s as usize;
                if plies[s] != NONE {
                    continue;
                }
                let strong = s < STATES / 2;
                if !strong {
                    open[s] -= 1;
                }
                if strong || open[s] == 0 {
                    plies[s] = next;
                    queue.push(s as u32);
                }
            }
        }
        Table { ending, plies }
    }
}

/// The sources of `(target, source)` edges grouped by target (a counting
/// sort): sources of `t` are `preds[starts[t]..starts[t + 1]]`.
fn group_by_target(edges: Vec<(u32, u32)>) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; STATES + 1];
    for &(t, _) in &edges {
        starts[t as usize + 1] += 1;
    }
    for i in 0..STATES {
        starts[i + 1] += starts[i];
    }
    let mut fill = starts.clone();
    let mut preds = vec![0u32; edges.len()];
    for (t, s) in edges {
        preds[fill[t as usize] as usize] = s;
        fill[t as usize] += 1;
    }
    (starts, preds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_game::shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn longest_mates_are_the_known_ten_and_sixteen_moves() {
        let t0 = std::time::Instant::now();
        assert_eq!(Table::get(Ending::Kqk).longest(), 10);
        assert_eq!(Table::get(Ending::Krk).longest(), 16);
        eprintln!("both tables solved in {:?}", t0.elapsed());
    }

    #[test]
    fn values_agree_with_the_rules_core_one_move_deep() {
        for ending in [Ending::Kqk, Ending::Krk] {
            let table = Table::get(ending);
            for i in (0..STATES).step_by(7) {
                let p = Placement::from_index(i);
                let Some(pos) = p.position(ending.role()) else {
                    continue;
                };
                let children: Vec<Value> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| {
                        let mut c = pos.clone();
                        c.play_unchecked(*m);
                        table.probe(&c).unwrap_or(Value::Draw)
                    })
                    .collect();
                let plies = |v: &Value| match v {
                    Value::Mate(n) => Some(*n),
                    Value::Draw => None,
                };
                let expected = if children.is_empty() {
                    pos.is_check().then_some(0)
                } else if p.strong_to_move {
                    children.iter().filter_map(plies).min().map(|n| n + 1)
                } else if children.iter().all(|c| plies(c).is_some()) {
                    children.iter().filter_map(plies).max().map(|n| n + 1)
                } else {
                    None
                };
                assert_eq!(
                    plies(&table.value(p)),
                    expected,
                    "{}",
                    Fen::from_position(&pos, plyyard_game::shakmaty::EnPassantMode::Legal)
                );
            }
        }
    }

    #[test]
    fn black_strong_side_and_symmetric_positions_read_the_same() {
        let kqk = Table::get(Ending::Kqk);
        let white = kqk.probe(&pos("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1")).unwrap();
        let black = kqk.probe(&pos("q3k3/8/8/8/3K4/8/8/8 b - - 0 1")).unwrap();
        let mirrored = kqk.probe(&pos("8/8/8/4k3/8/8/8/3K3Q w - - 0 1")).unwrap();
        assert_eq!(white, black);
        assert_eq!(white, mirrored);
        assert!(matches!(white, Value::Mate(_)));
        assert_eq!(kqk.probe(&pos("8/8/8/3k4/8/8/8/R3K3 w - - 0 1")), None);
        assert_eq!(
            kqk.probe(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")),
            Some(Value::Draw)
        );
        assert_eq!(
            kqk.probe(&pos("7k/7Q/6K1/8/8/8/8/8 b - - 0 1")),
            Some(Value::Mate(0))
        );
        assert_eq!(
            kqk.probe(&pos("7k/6Q1/8/8/8/8/8/K7 b - - 0 1")),
            Some(Value::Draw)
        );
    }
}
