//! Special moves and pawn themes, from the solver's moves: castling,
//! en passant, promotion, under-promotion, advanced pawn (a solver pawn
//! move to its seventh or eighth rank), and attacking f2/f7 (a solver
//! capture on the defender's f2/f7 square while the defender's king is
//! still on its e1/e8 square).

use plyyard_game::shakmaty::{Color, Position, Role, Square};

use super::Ctx;
use super::board::relative_rank;
use crate::theme::Theme;

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    for i in ctx.solver_moves() {
        let m = ctx.moves[i];
        if m.is_castle() {
            out.push(Theme::Castling);
        }
        if m.is_en_passant() {
            out.push(Theme::EnPassant);
        }
        match m.promotion() {
            Some(Role::Queen) => out.push(Theme::Promotion),
            Some(_) => out.extend([Theme::Promotion, Theme::UnderPromotion]),
            None => {}
        }
        if advanced_pawn(ctx, i) {
            out.push(Theme::AdvancedPawn);
        }
        if attacks_f2f7(ctx, i) {
            out.push(Theme::AttackingF2F7);
        }
    }
}

fn advanced_pawn(ctx: &Ctx, i: usize) -> bool {
    let m = ctx.moves[i];
    m.role() == Role::Pawn && relative_rank(m.to(), ctx.solver) >= 6
}

fn attacks_f2f7(ctx: &Ctx, i: usize) -> bool {
    let m = ctx.moves[i];
    let (target, home) = if ctx.solver == Color::White {
        (Square::F7, Square::E8)
    } else {
        (Square::F2, Square::E1)
    };
    let king = ctx.before(i).board().king_of(ctx.defender());
    m.to() == target && m.is_capture() && king == Some(home)
}
