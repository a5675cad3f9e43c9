//! Named mates, on the final position when the line mates (the mated
//! king `k`, the checking piece, the squares around `k`):
//!
//! - back-rank: `k` on its back rank, every square in front of it held by
//!   its own piece that the solver does not attack, a checker on that rank;
//! - smothered: a knight mates and every square around `k` holds its own
//!   piece;
//! - Anastasia: `k` on the a- or h-file (not in a corner), a rook or
//!   queen mates along the file, one of `k`'s own pieces stands beside it
//!   and a solver knight three files in on the same rank;
//! - Arabian: `k` in a corner, mated by a rook next to it that a solver
//!   knight defends, the knight covering the flight square the rook does
//!   not;
//! - hook: a rook next to `k` mates, defended by a knight that a pawn
//!   defends, with one of `k`'s own pieces beside it;
//! - dovetail: `k` off the edges, a queen mates from a square diagonally
//!   next to it, and every square around `k` the solver attacks is empty
//!   and attacked by the queen alone;
//! - Boden / double bishop: a bishop mates and the solver's two bishops
//!   cover every flight square; Boden when their diagonals cross,
//!   double-bishop when they run side by side.

use plyyard_game::shakmaty::attacks;
use plyyard_game::shakmaty::{Bitboard, Board, Color, Position, Role, Square};

use super::Ctx;
use super::board::{around, attackers, relative_rank};
use crate::theme::Theme;

type MateRule = fn(&Mate) -> bool;

struct Mate<'a> {
    board: &'a Board,
    king: Square,
    checker: Square,
    checker_role: Role,
    solver: Color,
}

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    let last = ctx.last();
    if !last.is_checkmate() {
        return;
    }
    let board = last.board();
    let (Some(king), Some(checker)) = (board.king_of(ctx.defender()), last.checkers().first())
    else {
        return;
    };
    let Some(checker_role) = board.role_at(checker) else {
        return;
    };
    let m = Mate {
        board,
        king,
        checker,
        checker_role,
        solver: ctx.solver,
    };
    let rules: [(MateRule, Theme); 7] = [
        (back_rank, Theme::BackRankMate),
        (smothered, Theme::SmotheredMate),
        (anastasia, Theme::AnastasiaMate),
        (arabian, Theme::ArabianMate),
        (hook, Theme::HookMate),
        (dovetail, Theme::DovetailMate),
        (boden, Theme::BodenMate),
    ];
    out.extend(rules.iter().filter(|(rule, _)| rule(&m)).map(|&(_, t)| t));
    if double_bishop(&m) {
        out.push(Theme::DoubleBishopMate);
    }
}

impl Mate<'_> {
    fn own(&self) -> Bitboard {
        self.board.by_color(!self.solver)
    }

    fn solver_pieces(&self, role: Role) -> Bitboard {
        self.board.by_color(self.solver) & self.board.by_role(role)
    }

    fn flights(&self) -> Bitboard {
        around(self.king) & !self.own()
    }
}

fn back_rank(m: &Mate) -> bool {
    let defender = !m.solver;
    if relative_rank(m.king, defender) != 0 || m.checker.rank() != m.king.rank() {
        return false;
    }
    let front = around(m.king)
        .into_iter()
        .filter(|&s| relative_rank(s, defender) == 1);
    front
        .into_iter()
        .all(|s| m.own().contains(s) && attackers(m.board, s, m.solver).is_empty())
}

fn smothered(m: &Mate) -> bool {
    m.checker_role == Role::Knight && around(m.king).is_subset(m.own())
}

fn edge_file(sq: Square) -> bool {
    matches!(sq.file().to_u32(), 0 | 7)
}

fn anastasia(m: &Mate) -> bool {
    let on_edge = edge_file(m.king) && !matches!(m.king.rank().to_u32(), 0 | 7);
    if !on_edge
        || !matches!(m.checker_role, Role::Rook | Role::Queen)
        || m.checker.file() != m.king.file()
    {
        return false;
    }
    let inward = if m.king.file().to_u32() == 0 { 1 } else { -1 };
    let at = |files: i32| m.king.offset(files * inward);
    let blocked = at(1).is_some_and(|s| m.own().contains(s));
    let knight = at(3).is_some_and(|s| m.solver_pieces(Role::Knight).contains(s));
    blocked && knight
}

fn corner(sq: Square) -> bool {
    edge_file(sq) && matches!(sq.rank().to_u32(), 0 | 7)
}

fn adjacent_rook(m: &Mate) -> bool {
    m.checker_role == Role::Rook && m.checker.distance(m.king) == 1
}

fn knight_defends(m: &Mate, sq: Square) -> Option<Square> {
    m.solver_pieces(Role::Knight)
        .into_iter()
        .find(|&n| attacks::knight_attacks(n).contains(sq))
}

fn arabian(m: &Mate) -> bool {
    if !corner(m.king) || !adjacent_rook(m) {
        return false;
    }
    let rook_covers = m.board.attacks_from(m.checker);
    let rest = m.flights() & !Bitboard::from_square(m.checker) & !rook_covers;
    knight_defends(m, m.checker).is_some_and(|n| rest.is_subset(attacks::knight_attacks(n)))
}

fn hook(m: &Mate) -> bool {
    if !adjacent_rook(m) || corner(m.king) || !around(m.king).intersects(m.own()) {
        return false;
    }
    let Some(knight) = knight_defends(m, m.checker) else {
        return false;
    };
    let pawns = m.solver_pieces(Role::Pawn);
    pawns
        .into_iter()
        .any(|p| attacks::pawn_attacks(m.solver, p).contains(knight))
}

fn dovetail(m: &Mate) -> bool {
    let diagonal = m.checker.distance(m.king) == 1
        && m.checker.file() != m.king.file()
        && m.checker.rank() != m.king.rank();
    let inner = !edge_file(m.king) && !matches!(m.king.rank().to_u32(), 0 | 7);
    if m.checker_role != Role::Queen || !diagonal || !inner {
        return false;
    }
    let queen = Bitboard::from_square(m.checker);
    (around(m.king) & !queen).into_iter().all(|s| {
        let by = attackers(m.board, s, m.solver);
        if by.is_empty() {
            true
        } else {
            by == queen && m.board.piece_at(s).is_none()
        }
    })
}

/// The solver's two bishops cover every flight square; the sign of the
/// diagonal each covers with (+1 for a1-h8 lines, −1 for h1-a8 lines).
fn bishop_pair(m: &Mate) -> Option<(i32, i32)> {
    let bishops = m.solver_pieces(Role::Bishop);
    if m.checker_role != Role::Bishop || bishops.count() < 2 {
        return None;
    }
    let other = (bishops & !Bitboard::from_square(m.checker)).first()?;
    let covered = (m.flights() & !Bitboard::from_square(m.checker))
        .into_iter()
        .all(|s| (attackers(m.board, s, m.solver) & bishops).any());
    let target = (m.flights() & m.board.attacks_from(other)).first()?;
    covered.then(|| {
        (
            diagonal_sign(m.checker, m.king),
            diagonal_sign(other, target),
        )
    })
}

fn diagonal_sign(a: Square, b: Square) -> i32 {
    let df = b.file().to_u32() as i32 - a.file().to_u32() as i32;
    let dr = b.rank().to_u32() as i32 - a.rank().to_u32() as i32;
    (df * dr).signum()
}

fn boden(m: &Mate) -> bool {
    bishop_pair(m).is_some_and(|(a, b)| a != b)
}

fn double_bishop(m: &Mate) -> bool {
    bishop_pair(m).is_some_and(|(a, b)| a == b)
}
