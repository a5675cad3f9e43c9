//! A stored game and its review as the fair-play signals read them: for
//! each side, the centipawns lost by each move, the worst evaluation, the
//! move times read from the clocks and the lost-focus marks.

use plyyard_game::GameResult;
use plyyard_game::shakmaty::{ByColor, Color};
use plyyard_moderation::fairplay::{MAX_CP, Side};
use plyyard_review::{Eval, Review};
use plyyard_store::{GameRow, MoveRow};

/// `eval` from `color`'s side, in centipawns capped at [`MAX_CP`] (a mate
/// counts as the cap).
fn centipawns(eval: Eval, color: Color) -> i32 {
    let white = match eval {
        Eval::Cp(cp) => cp.clamp(-MAX_CP, MAX_CP),
        Eval::Mate(n) if n > 0 => MAX_CP,
        Eval::Mate(_) => -MAX_CP,
        Eval::Checkmate(side) if side.is_white() => MAX_CP,
        Eval::Checkmate(_) => -MAX_CP,
    };
    if color.is_white() { white } else { -white }
}

/// The two sides of the game `row` with `moves`, reviewed as `review`.
pub fn sides_of(row: &GameRow, moves: &[MoveRow], review: &Review) -> ByColor<Side> {
    let control = row.table.as_ref().map(|t| t.control);
    let won = |c: Color| match row.summary.result {
        GameResult::WhiteWins => c.is_white(),
        GameResult::BlackWins => c.is_black(),
        _ => false,
    };
    ByColor::new_with(|color| {
        let mine = |ply: usize| (ply % 2 == 1) == color.is_white();
        let losses = review
            .moves
            .iter()
            .filter(|m| mine(m.ply as usize))
            .map(|m| {
                let drop = centipawns(m.before, color) - centipawns(m.after, color);
                drop.max(0).unsigned_abs()
            })
            .collect();
        let worst_eval = std::iter::once(review.start)
            .chain(review.moves.iter().map(|m| m.after))
            .map(|e| centipawns(e, color))
            .min()
            .unwrap_or(0);
        let own: Vec<&MoveRow> = moves.iter().filter(|m| mine(m.ply as usize)).collect();
        Side {
            speed: control.map(|c| c.speed()),
            estimated_secs: control.map_or(0, |c| c.estimated_secs()),
            plies: moves.len(),
            losses,
            worst_eval,
            move_times_cs: control.map_or_else(Vec::new, |c| {
                move_times_cs(&own, millis(c.initial()), millis(c.increment()))
            }),
            blurs: own.iter().map(|m| m.blur).collect(),
            won: won(color),
        }
    })
}

fn millis(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The time each of one side's `moves` took, in centiseconds: the clock
/// before the move (the base before the first) less the clock after it,
/// plus the increment it earned; moves without a clock are left out.
fn move_times_cs(moves: &[&MoveRow], initial_ms: i64, increment_ms: i64) -> Vec<u32> {
    let mut before = initial_ms;
    moves
        .iter()
        .filter_map(|m| {
            let after = m.clock_ms?;
            let spent = (before - after + increment_ms).max(0);
            before = after;
            Some(u32::try_from(spent / 10).unwrap_or(u32::MAX))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ply: u32, clock_ms: i64, blur: bool) -> MoveRow {
        MoveRow {
            ply,
            uci: String::new(),
            san: String::new(),
            clock_ms: Some(clock_ms),
            draw_offer: false,
            blur,
        }
    }

    #[test]
    fn move_times_come_from_the_clocks_and_the_increment() {
        let moves = [
            row(1, 180_000, false),
            row(3, 178_500, true),
            row(5, 179_000, false),
        ];
        let own: Vec<&MoveRow> = moves.iter().collect();
        // The first move's clock did not run; then 1.5 s + 2 s; then 1 s + 2 s.
        assert_eq!(move_times_cs(&own, 180_000, 2000), vec![200, 350, 150]);
    }

    #[test]
    fn evaluations_are_capped_and_seen_from_each_side() {
        assert_eq!(centipawns(Eval::Cp(35), Color::White), 35);
        assert_eq!(centipawns(Eval::Cp(35), Color::Black), -35);
        assert_eq!(centipawns(Eval::Cp(-4000), Color::White), -MAX_CP);
        assert_eq!(centipawns(Eval::Mate(-2), Color::Black), MAX_CP);
        assert_eq!(
            centipawns(Eval::Checkmate(plyyard_review::Side::White), Color::Black),
            -MAX_CP
        );
    }
}
