//! Accuracy: a percentage per move from the mover's drop in win
//! percentage, and one figure per side for the game.
//!
//! # Formula (see `docs/review.md`)
//! Win percentage `W` (0–100) is [`Eval::win_percent`] from the mover's
//! side. A move from `W₁` to `W₂` scores
//! `A = clamp(103.1668 · e^(−0.04354 · (W₁ − W₂)) − 2.1669, 0, 100)`, and
//! 100 when `W₂ ≥ W₁` (lichess's curve, with its one-point allowance for
//! imperfect analysis).
//!
//! A side's accuracy is the mean of two averages of its moves' `A`:
//! - weighted by volatility: each move weighs the standard deviation of
//!   White's win percentage over a window of `w = clamp(moves / 10, 2, 8)`
//!   positions ending just after the move (the first positions of the game
//!   share the first window), the weight kept within [0.5, 12] — so moves
//!   in sharp positions count more than moves in dead ones;
//! - harmonic, with each `A` taken as at least 1 — so one blunder weighs
//!   more than one perfect move makes up for.

use serde::{Deserialize, Serialize};
use shakmaty::ByColor;

use super::label::{Eval, Judgement, Label, MateChange, Side};

/// Accuracy of one move, 0–100, from the mover's win percentage before
/// and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    (103.166_8 * (-0.043_544 * drop).exp() - 3.166_9 + 1.0).clamp(0.0, 100.0)
}

/// One side's figures for a game.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct SideSummary {
    /// Accuracy, 0–100, one decimal; `None` when the side made no move.
    pub accuracy: Option<f64>,
    /// Moves labelled inaccuracy.
    pub inaccuracies: u32,
    /// Moves labelled mistake.
    pub mistakes: u32,
    /// Moves labelled blunder.
    pub blunders: u32,
    /// Forced mates let go.
    pub missed_mates: u32,
    /// Forced mates given to the opponent.
    pub allowed_mates: u32,
}

/// The two sides' summaries of a game whose positions were evaluated
/// `evals` (from the start, White's view; one more than the moves), the
/// first move made by `first`, with each move's judgement and accuracy.
pub fn summarise(evals: &[Eval], first: Side, moves: &[(Judgement, f64)]) -> ByColor<SideSummary> {
    let accuracies: Vec<f64> = moves.iter().map(|(_, a)| *a).collect();
    let accuracy = side_accuracies(evals, first, &accuracies);
    let mut out: ByColor<SideSummary> = ByColor::default();
    for (i, (j, _)) in moves.iter().enumerate() {
        let s = out.get_mut(mover(first, i).into());
        match j.label {
            Some(Label::Inaccuracy) => s.inaccuracies += 1,
            Some(Label::Mistake) => s.mistakes += 1,
            Some(Label::Blunder) => s.blunders += 1,
            None => {}
        }
        match j.mate {
            Some(MateChange::Missed { .. }) => s.missed_mates += 1,
            Some(MateChange::Allowed { .. }) => s.allowed_mates += 1,
            None => {}
        }
    }
    out.white.accuracy = accuracy.white;
    out.black.accuracy = accuracy.black;
    out
}

/// The moves' accuracies from the positions' evaluations alone.
pub fn move_accuracies(evals: &[Eval], first: Side) -> Vec<f64> {
    evals
        .windows(2)
        .enumerate()
        .map(|(i, pair)| {
            let white = mover(first, i).is_white();
            let pov = |e: Eval| {
                let w = e.win_percent();
                if white { w } else { 100.0 - w }
            };
            move_accuracy(pov(pair[0]), pov(pair[1]))
        })
        .collect()
}

/// Accuracy of White and Black (see the [module documentation](self)),
/// rounded to one decimal: `accuracies` holds each move's, `evals` the
/// positions' evaluations that weigh them.
pub fn side_accuracies(evals: &[Eval], first: Side, accuracies: &[f64]) -> ByColor<Option<f64>> {
    let win: Vec<f64> = evals.iter().map(|e| e.win_percent()).collect();
    let window = (accuracies.len() / 10).clamp(2, 8);
    let mut per_side: ByColor<Vec<(f64, f64)>> = ByColor::default();
    for (i, &a) in accuracies.iter().enumerate() {
        let start = (i + 2).saturating_sub(window).min(win.len());
        let end = (start + window).min(win.len());
        let weight = std_dev(&win[start..end]).clamp(0.5, 12.0);
        per_side.get_mut(mover(first, i).into()).push((a, weight));
    }
    per_side.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let total: f64 = moves.iter().map(|(_, w)| w).sum();
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / total;
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some(((weighted + harmonic) / 2.0 * 10.0).round() / 10.0)
    })
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

fn mover(first: Side, index: usize) -> Side {
    if index.is_multiple_of(2) {
        first
    } else {
        first.other()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_loses_nothing_is_perfect() {
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(40.0, 70.0), 100.0);
        // The allowance keeps tiny drops at 100.
        assert_eq!(move_accuracy(50.0, 49.9), 100.0);
    }

    #[test]
    fn accuracy_falls_with_the_drop() {
        let a10 = move_accuracy(60.0, 50.0);
        let a30 = move_accuracy(60.0, 30.0);
        assert!((a10 - 64.6).abs() < 0.1, "{a10}");
        assert!((a30 - 25.8).abs() < 0.1, "{a30}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn a_flawless_game_is_100_and_a_blunder_costs() {
        let of =
            |evals: &[Eval], first| side_accuracies(evals, first, &move_accuracies(evals, first));
        let calm = vec![Eval::Cp(20); 41];
        assert_eq!(of(&calm, Side::White), ByColor::new_with(|_| Some(100.0)));
        let mut blunder = calm.clone();
        for e in &mut blunder[11..] {
            *e = Eval::Cp(-600);
        }
        let ByColor { white, black } = of(&blunder, Side::White);
        assert_eq!(black, Some(100.0));
        let white = white.unwrap();
        assert!(white < 90.0 && white > 30.0, "{white}");
    }

    #[test]
    fn black_first_and_no_moves() {
        let evals = [Eval::Cp(0), Eval::Cp(0), Eval::Mate(-1)];
        let ByColor { white, black } =
            side_accuracies(&evals, Side::Black, &move_accuracies(&evals, Side::Black));
        assert_eq!(black, Some(100.0));
        assert!(white.unwrap() < 20.0, "{white:?}");
        assert_eq!(
            side_accuracies(&[Eval::Cp(0)], Side::White, &[]),
            ByColor::default()
        );
    }

    #[test]
    fn counts_go_to_the_mover() {
        let j = |label, mate| Judgement {
            label,
            mate,
            loss: 0.0,
        };
        let judgements = [
            j(None, None),
            j(Some(Label::Blunder), Some(MateChange::Allowed { moves: 1 })),
            j(Some(Label::Inaccuracy), None),
            j(Some(Label::Mistake), Some(MateChange::Missed { moves: 2 })),
        ];
        let evals = [Eval::Cp(0); 5];
        let moves: Vec<_> = judgements.into_iter().map(|j| (j, 100.0)).collect();
        let ByColor { white: w, black: b } = summarise(&evals, Side::White, &moves);
        assert_eq!((w.inaccuracies, w.mistakes, w.blunders), (1, 0, 0));
        assert_eq!((b.inaccuracies, b.mistakes, b.blunders), (0, 1, 1));
        assert_eq!((b.missed_mates, b.allowed_mates), (1, 1));
        assert_eq!(w.accuracy, Some(100.0));
    }
}
