//! Motifs about material and the enemy king:
//!
//! - sacrifice: after one of the solver's later moves the solver is two
//!   or more pawns worse off than when the puzzle started;
//! - exposed king: the defender's king, on its first three ranks, has no
//!   pawn of its own beside it or in front of it, and the solver checks it
//!   with a move that is neither the first nor the last;
//! - kingside / queenside attack: the defender's king is on its back rank
//!   in the g/h (b/c) corner, the board still holds 20 (18) pieces or
//!   more, the solver checks in the line, and the solver's moves score at
//!   least 2: a point for each check or capture near that corner, minus
//!   one for each move far from it; not given to back-rank mates and forks
//!   (tagged before, in `mates` and `tactics`).

use plyyard_game::shakmaty::{File, Position, Square};

use super::Ctx;
use super::board::{around, material_diff, relative_rank};
use crate::theme::Theme;

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    if sacrifice(ctx) {
        out.push(Theme::Sacrifice);
    }
    if exposed_king(ctx) {
        out.push(Theme::ExposedKing);
    }
    // A back-rank mate or a fork says more than the wing it happens on.
    if out.contains(&Theme::BackRankMate) || out.contains(&Theme::Fork) {
        return;
    }
    if side_attack(ctx, File::H, &[6, 7], 20) {
        out.push(Theme::KingsideAttack);
    }
    if side_attack(ctx, File::A, &[1, 2], 18) {
        out.push(Theme::QueensideAttack);
    }
}

/// Pawns the solver must be down, against the start, for a sacrifice.
pub const SACRIFICE: i32 = 2;

fn sacrifice(ctx: &Ctx) -> bool {
    let start = material_diff(ctx.after(0), ctx.solver);
    ctx.solver_moves()
        .skip(1)
        .any(|i| material_diff(ctx.after(i), ctx.solver) - start <= -SACRIFICE)
}

fn exposed_king(ctx: &Ctx) -> bool {
    let board = ctx.after(0).board();
    let defender = ctx.defender();
    let Some(king) = board.king_of(defender) else {
        return false;
    };
    let cover = around(king)
        .into_iter()
        .filter(|&s| relative_rank(s, defender) >= relative_rank(king, defender));
    let shielded = cover
        .into_iter()
        .any(|s| (board.pawns() & board.by_color(defender)).contains(s));
    let n = ctx.solver_count();
    let middle_check = ctx
        .solver_moves()
        .enumerate()
        .any(|(k, i)| k > 0 && k + 1 < n && ctx.after(i).is_check());
    relative_rank(king, defender) <= 2 && !shielded && middle_check
}

fn side_attack(ctx: &Ctx, corner_file: File, king_files: &[u32], min_pieces: usize) -> bool {
    let board = ctx.after(0).board();
    let defender = ctx.defender();
    let Some(king) = board.king_of(defender) else {
        return false;
    };
    let home = relative_rank(king, defender) == 0 && king_files.contains(&king.file().to_u32());
    let checks = ctx.solver_moves().any(|i| ctx.after(i).is_check());
    if !home || board.occupied().count() < min_pieces || !checks {
        return false;
    }
    let corner = Square::from_coords(corner_file, king.rank());
    score(ctx, corner) >= 2
}

fn score(ctx: &Ctx, corner: Square) -> i32 {
    ctx.solver_moves()
        .map(|i| {
            let m = ctx.moves[i];
            let far = corner.distance(m.to());
            let check = i32::from(ctx.after(i).is_check());
            if m.is_capture() && far <= 3 {
                check + 1
            } else if far >= 5 {
                check - 1
            } else {
                check
            }
        })
        .sum()
}
