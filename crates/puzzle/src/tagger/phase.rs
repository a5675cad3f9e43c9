//! Phases and endgame types.
//!
//! Phase, on the position the solver faces: an endgame when at most six
//! pieces other than kings and pawns remain; the opening when more than
//! ten remain, both back ranks still hold at least four of their own
//! pieces, and the game is under 30 plies old; the middlegame otherwise
//! (our reading of lichess's game divider, which also uses a "mixedness"
//! measure that the ply bound stands in for).
//!
//! Endgame types, on the solver's position and after the solver's first
//! move: only kings, pawns and one kind of piece (which is on the board):
//! rook, bishop, knight, queen; queen and rook when a single queen and at
//! least one rook are left with pawns and kings; pawns when only kings
//! and pawns.

use plyyard_game::shakmaty::{Board, Color, Position, Role};

use super::Ctx;
use super::board::relative_rank;
use crate::line::initial_ply;
use crate::theme::Theme;

/// Pieces (not kings or pawns) at or below which it is an endgame.
pub const ENDGAME_PIECES: usize = 6;
/// Pieces above which it may still be the opening.
pub const OPENING_PIECES: usize = 10;
/// Plies under which it may still be the opening.
pub const OPENING_PLIES: u32 = 30;

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    let start = ctx.after(0).board();
    let pieces = (start.occupied() & !start.pawns() & !start.kings()).count();
    let phase = if pieces <= ENDGAME_PIECES {
        Theme::Endgame
    } else if pieces > OPENING_PIECES
        && !back_rank_sparse(start)
        && initial_ply(ctx.before(0)) < OPENING_PLIES
    {
        Theme::Opening
    } else {
        Theme::Middlegame
    };
    out.push(phase);
    if phase == Theme::Endgame {
        out.extend(endgame_type(ctx));
    }
}

fn back_rank_sparse(board: &Board) -> bool {
    [Color::White, Color::Black].into_iter().any(|c| {
        let home = board
            .by_color(c)
            .into_iter()
            .filter(|&s| relative_rank(s, c) == 0)
            .count();
        home < 4
    })
}

fn endgame_type(ctx: &Ctx) -> Option<Theme> {
    let boards = [ctx.after(0).board(), ctx.after(1).board()];
    let kind = kind_of(boards[0])?;
    (kind_of(boards[1]) == Some(kind)).then_some(kind)
}

fn kind_of(board: &Board) -> Option<Theme> {
    let has = |r: Role| board.by_role(r).any();
    let others = |allowed: &[Role]| {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .filter(|r| !allowed.contains(r))
            .any(has)
    };
    let single = |r: Role, theme: Theme| (has(r) && !others(&[r])).then_some(theme);
    if !others(&[]) {
        return Some(Theme::PawnEndgame);
    }
    single(Role::Rook, Theme::RookEndgame)
        .or_else(|| single(Role::Bishop, Theme::BishopEndgame))
        .or_else(|| single(Role::Knight, Theme::KnightEndgame))
        .or_else(|| single(Role::Queen, Theme::QueenEndgame))
        .or_else(|| {
            let one_queen = board.queens().count() == 1;
            (one_queen && has(Role::Rook) && !others(&[Role::Queen, Role::Rook]))
                .then_some(Theme::QueenRookEndgame)
        })
}
