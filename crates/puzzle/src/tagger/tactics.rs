//! Tactical motifs read off the solver's moves:
//!
//! - fork: a solver move, not the last nor a king's, to a square where the
//!   piece is safe, attacking two or more enemy pieces (pawns aside) that
//!   are the king, worth more than it, or hanging, and the same piece's
//!   next move captures one of them;
//! - pin: after a solver move, an enemy piece pinned to its king either
//!   attacks, off the pin line, a solver piece worth more than it or
//!   hanging (the pin stops the capture), or is attacked along the pin
//!   line by a cheaper solver piece (the pin stops its escape);
//! - skewer: a solver slider moves to attack the king or a piece worth at
//!   least as much, which steps off the line, and the slider then wins
//!   the cheaper piece (not a pawn) behind it, without mating;
//! - discovered attack: a solver move uncovers a slider that gives check
//!   (a single check) or attacks a piece the solver's next move captures
//!   with it; discovered check when such a single check is not the
//!   line's last move; double check when two pieces check at once;
//! - hanging piece: the solver's first move takes an undefended piece
//!   (not a pawn) that was not itself the bait of an equal trade, and the
//!   gain holds after the solver's second move;
//! - trapped piece: after a solver move an enemy piece (knight or better,
//!   not the king, not pinned) is attacked and every move it has is to a
//!   losing square, and the solver's next move captures it;
//! - capturing defender: a solver capture, not a check, of a piece (not
//!   the king) that guarded a square where the solver's next move mates
//!   or takes a now-hanging piece worth no more than the capturer;
//! - x-ray: the solver captures on a square, the defender takes back
//!   with a piece (not the king) that stood between that square and a
//!   solver slider, and the slider captures there through where it stood.

use plyyard_game::shakmaty::attacks;
use plyyard_game::shakmaty::{Bitboard, Board, Move, Position, Role, Square};

use super::board::{
    attackers, between, in_bad_spot, is_hanging, landing, material_diff, pinner, value,
};
use super::{Ctx, Rule};
use crate::theme::Theme;

pub fn tag(ctx: &Ctx, out: &mut Vec<Theme>) {
    let rules: [(Rule, Theme); 9] = [
        (fork, Theme::Fork),
        (pin, Theme::Pin),
        (skewer, Theme::Skewer),
        (discovered_attack, Theme::DiscoveredAttack),
        (discovered_check, Theme::DiscoveredCheck),
        (double_check, Theme::DoubleCheck),
        (hanging_piece, Theme::HangingPiece),
        (trapped_piece, Theme::TrappedPiece),
        (capturing_defender, Theme::CapturingDefender),
    ];
    out.extend(rules.iter().filter(|(rule, _)| rule(ctx)).map(|&(_, t)| t));
    if x_ray(ctx) {
        out.push(Theme::XRayAttack);
    }
}

/// The solver moves that have a solver move after them.
fn not_last(ctx: &Ctx) -> impl Iterator<Item = usize> + '_ {
    ctx.solver_moves().filter(move |&i| i + 2 < ctx.moves.len())
}

fn fork(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| forks(ctx, i))
}

fn forks(ctx: &Ctx, i: usize) -> bool {
    let m = ctx.moves[i];
    if m.role() == Role::King || m.is_castle() {
        return false;
    }
    let board = ctx.board_after(i);
    let to = m.to();
    if in_bad_spot(board, to) {
        return false;
    }
    let mover = value(board.role_at(to).unwrap_or(m.role()));
    let targets = board.attacks_from(to) & board.by_color(ctx.defender()) & !board.pawns();
    let worth = |s: Square| {
        let role = board.role_at(s).unwrap_or(Role::Pawn);
        role == Role::King || value(role) > mover || is_hanging(board, s)
    };
    let forked: Bitboard = targets.into_iter().filter(|&s| worth(s)).collect();
    let next = ctx.moves[i + 2];
    let cashed = next.from() == Some(to) && next.is_capture() && forked.contains(next.to());
    let reply = ctx.moves[i + 1];
    let escaped_into = reply.from().is_some_and(|s| forked.contains(s)) && next.to() == reply.to();
    forked.count() >= 2 && next.from() == Some(to) && (cashed || escaped_into)
}

fn pin(ctx: &Ctx) -> bool {
    ctx.solver_moves().any(|i| {
        let board = ctx.board_after(i);
        let pinned = board.by_color(ctx.defender()) & !board.kings();
        pinned.into_iter().any(|sq| {
            pinner(board, sq).is_some_and(|by| {
                pin_prevents_attack(board, sq, by) || pin_prevents_escape(board, sq, by)
            })
        })
    })
}

/// The piece on `sq`, pinned by `by`, attacks a solver piece off the pin
/// line that is worth more than it or hangs.
fn pin_prevents_attack(board: &Board, sq: Square, by: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    let line = pin_line(board, sq, by);
    (board.attacks_from(sq) & board.by_color(!piece.color) & !line)
        .into_iter()
        .any(|t| {
            board
                .role_at(t)
                .is_some_and(|r| value(r) > value(piece.role) || is_hanging(board, t))
        })
}

/// The piece on `sq`, pinned by `by`, is attacked along the pin line by a
/// cheaper solver piece.
fn pin_prevents_escape(board: &Board, sq: Square, by: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    let line = pin_line(board, sq, by);
    (attackers(board, sq, !piece.color) & line)
        .into_iter()
        .any(|a| {
            board
                .role_at(a)
                .is_some_and(|r| value(r) < value(piece.role))
        })
}

/// The squares from the pinner to the king, the pinner included.
fn pin_line(board: &Board, sq: Square, by: Square) -> Bitboard {
    let king = board
        .king_of(board.color_at(sq).expect("a piece"))
        .expect("a king");
    attacks::between(by, king).with(by)
}

fn is_slider(role: Role) -> bool {
    matches!(role, Role::Bishop | Role::Rook | Role::Queen)
}

fn skewer(ctx: &Ctx) -> bool {
    ctx.solver_moves().skip(1).any(|j| {
        let m = ctx.moves[j];
        let reply = ctx.moves[j - 1];
        let (Some(from), Some(left)) = (m.from(), reply.from()) else {
            return false;
        };
        let Some(captured) = m.capture() else {
            return false;
        };
        let fled = reply.role();
        let arrived = landing(ctx.moves[j - 2]) == from;
        let threatened =
            (fled == Role::King || value(fled) >= value(m.role())) && value(captured) >= 3;
        let winning = in_bad_spot(ctx.before(j).board(), m.to()) && !ctx.after(j).is_checkmate();
        is_slider(m.role())
            && winning
            && arrived
            && threatened
            && between(from, m.to(), left)
            && (fled == Role::King || value(fled) > value(captured))
    })
}

/// Squares of solver sliders whose line through `vacated` now reaches
/// `target`, after move `i`.
fn uncovered(ctx: &Ctx, i: usize, vacated: Square, target: Square) -> Bitboard {
    let board = ctx.board_after(i);
    let mover = landing(ctx.moves[i]);
    (board.by_color(ctx.solver) & board.sliders())
        .into_iter()
        .filter(|&s| {
            s != mover && between(s, target, vacated) && board.attacks_from(s).contains(target)
        })
        .collect()
}

fn discovered_check(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| ctx.after(i).checkers().count() == 1 && discovers_check(ctx, i))
}

fn discovers_check(ctx: &Ctx, i: usize) -> bool {
    let m = ctx.moves[i];
    let after = ctx.after(i);
    let (Some(from), Some(king)) = (m.from(), after.board().king_of(ctx.defender())) else {
        return false;
    };
    !m.is_castle() && after.is_check() && uncovered(ctx, i, from, king).any()
}

fn discovered_attack(ctx: &Ctx) -> bool {
    let single = |i: usize| ctx.after(i).checkers().count() < 2;
    let uncovered_check = ctx
        .solver_moves()
        .any(|i| single(i) && discovers_check(ctx, i));
    uncovered_check
        || not_last(ctx).any(|i| {
            let (m, next) = (ctx.moves[i], ctx.moves[i + 2]);
            let Some(from) = m.from() else {
                return false;
            };
            next.is_capture()
                && next.to() != m.to()
                && next
                    .from()
                    .is_some_and(|s| uncovered(ctx, i, from, next.to()).contains(s))
        })
}

fn double_check(ctx: &Ctx) -> bool {
    ctx.solver_moves()
        .any(|i| ctx.after(i).checkers().count() >= 2)
}

fn hanging_piece(ctx: &Ctx) -> bool {
    let (bait, first) = (ctx.moves[0], ctx.moves[1]);
    let start = ctx.after(0);
    let Some(taken) = first.capture() else {
        return false;
    };
    if taken == Role::Pawn || start.is_check() || !is_hanging(start.board(), first.to()) {
        return false;
    }
    let traded =
        bait.to() == first.to() && bait.capture().is_some_and(|r| value(r) >= value(taken));
    if traded {
        return false;
    }
    ctx.moves.len() < 4
        || material_diff(ctx.after(3), ctx.solver) >= material_diff(ctx.after(1), ctx.solver)
}

fn trapped_piece(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let next = ctx.moves[i + 2];
        let reply = ctx.moves[i + 1];
        let Some(taken) = next.capture() else {
            return false;
        };
        let square = if reply.to() == next.to() {
            reply.from()
        } else {
            Some(next.to())
        };
        let board = ctx.board_after(i);
        let worth = |s: Square| {
            board
                .role_at(s)
                .is_some_and(|r| value(r) >= 3 && r != Role::King)
        };
        let free = |s: Square| pinner(board, s).is_none();
        value(taken) >= 3 && square.is_some_and(|s| worth(s) && free(s) && trapped(ctx, i, s))
    })
}

/// Whether the defender's piece on `sq`, after move `i`, is attacked and
/// can only go to squares where it is lost.
fn trapped(ctx: &Ctx, i: usize, sq: Square) -> bool {
    let pos = ctx.after(i);
    let board = pos.board();
    if pos.is_check() || !attackers(board, sq, ctx.solver).any() || !in_bad_spot(board, sq) {
        return false;
    }
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq))
        .all(|&m| lands_badly(pos, m))
}

fn lands_badly(pos: &plyyard_game::shakmaty::Chess, m: Move) -> bool {
    let mut next = pos.clone();
    next.play_unchecked(m);
    let captured = m.capture().map_or(0, value);
    captured < value(m.role()) && in_bad_spot(next.board(), m.to())
}

fn capturing_defender(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let (m, reply, next) = (ctx.moves[i], ctx.moves[i + 1], ctx.moves[i + 2]);
        let Some(defender) = m.capture() else {
            return false;
        };
        let before = ctx.before(i).board();
        let guarded = before.attacks_from(m.to()).contains(next.to());
        let quiet_setup = !ctx.after(i).is_check() && defender != Role::King;
        quiet_setup
            && guarded
            && reply.to() != next.to()
            && next.to() != m.to()
            && cashes_in(ctx, i + 2)
    })
}

/// Whether solver move `j` mates, or takes a hanging piece worth no more
/// than the capturer (the king aside).
fn cashes_in(ctx: &Ctx, j: usize) -> bool {
    let m = ctx.moves[j];
    let takes = m.capture().is_some_and(|c| {
        m.role() != Role::King
            && value(c) <= value(m.role())
            && is_hanging(ctx.before(j).board(), m.to())
    });
    takes || ctx.after(j).is_checkmate()
}

fn x_ray(ctx: &Ctx) -> bool {
    not_last(ctx).any(|i| {
        let (first, reply, second) = (ctx.moves[i], ctx.moves[i + 1], ctx.moves[i + 2]);
        let (Some(through), Some(b)) = (reply.from(), second.from()) else {
            return false;
        };
        first.is_capture()
            && reply.is_capture()
            && reply.role() != Role::King
            && reply.to() == first.to()
            && second.to() == first.to()
            && between(b, first.to(), through)
    })
}
