//! Lengths (the solver's move count: 1 oneMove, 2 short, 3 long, 4+
//! veryLong), mates in N, and goals (mate when the line mates; otherwise
//! from the given evaluation: over +600 cp crushing, over +200 advantage,
//! else equality; nothing without one).

use super::Ctx;
use crate::generator::Score;
use crate::theme::Theme;

/// Centipawns above which a non-mating puzzle is crushing.
pub const CRUSHING: i32 = 600;
/// Centipawns above which it is an advantage.
pub const ADVANTAGE: i32 = 200;

pub fn tag(ctx: &Ctx, eval: Option<Score>, out: &mut Vec<Theme>) {
    let n = ctx.solver_count();
    out.push(match n {
        1 => Theme::OneMove,
        2 => Theme::Short,
        3 => Theme::Long,
        _ => Theme::VeryLong,
    });
    if ctx.mates() {
        out.push(Theme::Mate);
        out.extend(Theme::mate_in(n));
    } else if let Some(goal) = eval.map(goal) {
        out.push(goal);
    }
}

fn goal(eval: Score) -> Theme {
    match eval {
        Score::Mate(n) if n > 0 => Theme::Crushing,
        Score::Mate(_) => Theme::Equality,
        Score::Cp(cp) if cp > CRUSHING => Theme::Crushing,
        Score::Cp(cp) if cp > ADVANTAGE => Theme::Advantage,
        Score::Cp(_) => Theme::Equality,
    }
}
