//! Advanced ideas, read off pairs of solver moves and the reply between:
//!
//! - deflection: a solver move that is no even-or-better capture either
//!   checks or is taken, and the piece that answers abandons a square it
//!   guarded, where the solver's next move captures or promotes;
//! - attraction: a solver piece goes to a square, the enemy king, queen
//!   or rook takes it there, and the solver's next move attacks that
//!   square with the piece it moves: a check of the king, or an attack on
//!   the queen or rook that the solver's move after captures;
//! - clearance: a forcing solver move (a check, or a piece left where it
//!   is lost), not the king's nor a promotion, empties a square that the
//!   solver's next move, by another piece (a bishop, rook or queen) and
//!   not a capture (that would be a discovered attack) nor a doubling on
//!   the first piece's line (a battery), lands on, or passes through with
//!   check; not when the king took the first piece (an attraction);
//! - interference: a solver move or the defender's reply lands between an
//!   enemy slider and the enemy piece it guarded, and the solver's next
//!   move takes that piece, now hanging;
//! - intermezzo: the defender captured on a square, the solver could
//!   take back at once with a move it plays one move later, after an
//!   in-between move elsewhere, the defender's reply not having guarded
//!   that square;
//! - quiet move: a solver move, not the last, not the king's nor a pawn's
//!   push to its sixth rank or beyond, that neither captures, checks,
//!   promotes nor escapes a check, and attacks no enemy piece;
//! - defensive move: the solver's last move neither captures, checks,
//!   promotes, pushes a pawn to its sixth rank or beyond, nor attacks an
//!   enemy piece, chosen among three legal moves or more;
//! - zugzwang: in an endgame, a quiet solver move leaves the defender, not
//!   in check, with only king and pawn moves, and every one of them loses
//!   material or walks into mate on the solver's next move.

use plyyard_game::shakmaty::attacks;
use plyyard_game::shakmaty::{Move, Position, Role};

use super::board::{attackers, between, in_bad_spot, is_hanging, landing, relative_rank, value};
use super::{Ctx, Rule};
use crate::theme::Theme;

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    let rules: [(Rule, Theme); 8] = [
        (deflection, Theme::Deflection),
        (attraction, Theme::Attraction),
        (clearance, Theme::Clearance),
        (interference, Theme::Interference),
        (intermezzo, Theme::Intermezzo),
        (quiet_move, Theme::QuietMove),
        (defensive_move, Theme::DefensiveMove),
        (zugzwang, Theme::Zugzwang),
    ];
    out.extend(rules.iter().filter(|(rule, _)| rule(ctx)).map(|&(_, t)| t));
}

fn not_last(ctx: &Ctx) -> impl Iterator<Item = usize> + '_ {
    ctx.solver_moves().filter(move |&i| i + 2 < ctx.moves.len())
}

fn is_quiet(ctx: &Ctx, i: usize) -> bool {
    let m = ctx.moves[i];
    !m.is_capture() && m.promotion().is_none() && !ctx.after(i).is_check()
}

fn deflection(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let (m, reply, next) = (ctx.moves[i], ctx.moves[i + 1], ctx.moves[i + 2]);
        let bait = m.capture().is_none_or(|c| value(c) < value(m.role()));
        let forcing = (reply.to() == m.to() && reply.is_capture()) || ctx.after(i).is_check();
        let cashes = next.is_capture() || next.promotion().is_some();
        let forced = bait && cashes && next.to() != m.to();
        let Some(from) = reply.from() else {
            return false;
        };
        let guarded = ctx.board_after(i).attacks_from(from).contains(next.to());
        let abandoned = !ctx
            .board_after(i + 1)
            .attacks_from(landing(reply))
            .contains(next.to());
        forcing && forced && guarded && abandoned && next.to() != reply.to() && next.to() != from
    })
}

fn attraction(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let (m, reply, next) = (ctx.moves[i], ctx.moves[i + 1], ctx.moves[i + 2]);
        let lured = reply.to() == m.to()
            && reply.is_capture()
            && matches!(reply.role(), Role::King | Role::Queen | Role::Rook);
        if !lured {
            return false;
        }
        let hits = ctx
            .board_after(i + 2)
            .attacks_from(landing(next))
            .contains(m.to());
        let cashed = ctx
            .moves
            .get(i + 4)
            .is_some_and(|later| later.to() == m.to());
        hits && (reply.role() == Role::King || cashed)
    })
}

fn clearance(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let (m, next) = (ctx.moves[i], ctx.moves[i + 2]);
        let (Some(vacated), Some(next_from)) = (m.from(), next.from()) else {
            return false;
        };
        let through = between(next_from, next.to(), vacated) && ctx.after(i + 2).is_check();
        let uses = next.to() == vacated || through;
        let slider = matches!(next.role(), Role::Bishop | Role::Rook | Role::Queen);
        // Doubling on the line the first piece moved along is a battery.
        let battery = attacks::aligned(vacated, m.to(), next_from)
            && attacks::aligned(vacated, m.to(), next.to());
        let forcing = ctx.after(i).is_check() || in_bad_spot(ctx.board_after(i), landing(m));
        let reply = ctx.moves[i + 1];
        // A sacrifice the king takes is an attraction.
        let king_took = reply.role() == Role::King && reply.to() == m.to();
        let plain = m.promotion().is_none() && m.role() != Role::King && !m.is_castle();
        plain
            && forcing
            && slider
            && !battery
            && !king_took
            && !next.is_capture()
            && next_from != landing(m)
            && next.to() != landing(m)
            && uses
    })
}

fn interference(ctx: &Ctx) -> bool {
    ctx.solver_moves().skip(1).any(|j| {
        let (cut, reply, take) = (ctx.moves[j - 2], ctx.moves[j - 1], ctx.moves[j]);
        let square = take.to();
        if !take.is_capture() || !is_hanging(ctx.before(j).board(), square) {
            return false;
        }
        let earlier = ctx.before(j - 2).board();
        let guards = attackers(earlier, square, ctx.defender()) & earlier.sliders();
        guards
            .into_iter()
            .any(|g| between(g, square, cut.to()) || between(g, square, reply.to()))
    })
}

fn intermezzo(ctx: &Ctx) -> bool {
    ctx.solver_moves().skip(1).any(|j| {
        let (took, between_move, reply, back) = (
            ctx.moves[j - 3],
            ctx.moves[j - 2],
            ctx.moves[j - 1],
            ctx.moves[j],
        );
        let square = back.to();
        let reply_guarded = reply
            .from()
            .is_some_and(|s| ctx.board_after(j - 2).attacks_from(s).contains(square));
        let could_already = ctx.before(j - 2).is_legal(back);
        back.is_capture()
            && took.is_capture()
            && took.to() == square
            && between_move.to() != square
            && !reply_guarded
            && could_already
    })
}

fn quiet_move(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let m = ctx.moves[i];
        let board = ctx.board_after(i);
        let threats = board.attacks_from(landing(m)) & board.by_color(ctx.defender());
        let pawn_push = m.role() == Role::Pawn && relative_rank(m.to(), ctx.solver) >= 5;
        let ordinary = m.role() != Role::King && !pawn_push;
        is_quiet(ctx, i) && !ctx.before(i).is_check() && ordinary && threats.is_empty()
    })
}

fn defensive_move(ctx: &Ctx) -> bool {
    let last = ctx.moves.len() - 1;
    let m = ctx.moves[last];
    let board = ctx.board_after(last);
    let threats = board.attacks_from(landing(m)) & board.by_color(ctx.defender());
    let pawn_push = m.role() == Role::Pawn && relative_rank(m.to(), ctx.solver) >= 5;
    let choices = ctx.before(last).legal_moves().len() >= 3;
    is_quiet(ctx, last) && !pawn_push && threats.is_empty() && choices
}

fn zugzwang(ctx: &Ctx) -> bool {
    let board = ctx.after(0).board();
    let endgame = (board.occupied() & !board.pawns() & !board.kings()).count() <= 2;
    endgame && not_last(ctx).any(|i| squeezed(ctx, i))
}

fn squeezed(ctx: &Ctx, i: usize) -> bool {
    let pos = ctx.after(i);
    if !is_quiet(ctx, i) || pos.is_check() {
        return false;
    }
    let moves = pos.legal_moves();
    let only_king_pawn = moves
        .iter()
        .all(|m| matches!(m.role(), Role::King | Role::Pawn));
    only_king_pawn && !moves.is_empty() && moves.iter().all(|&m| loses(pos, m))
}

fn loses(pos: &plyyard_game::shakmaty::Chess, m: Move) -> bool {
    let mut next = pos.clone();
    next.play_unchecked(m);
    next.legal_moves().iter().any(|&reply| {
        let mut after = next.clone();
        after.play_unchecked(reply);
        after.is_checkmate()
            || reply
                .capture()
                .is_some_and(|r| r != Role::Pawn || m.role() == Role::Pawn)
    })
}
