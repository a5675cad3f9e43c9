//! Tie-breaks (FIDE Handbook C.02, "Tie-Break Regulations", 2023 text):
//! Buchholz (C.02 8.1), Sonneborn-Berger (C.02 9.1) with unplayed rounds
//! handled by the virtual opponent of C.02 16.4 (2023: the participant's
//! own score in an unplayed round counts, the "dummy opponent" has the
//! participant's score at the end of the tournament... see the docs), and
//! the performance as lichess computes it (mean of the opponents' ratings
//! plus 500 for a win, minus 500 for a loss).

use crate::model::{Outcome, RoundEntry, Tournament};

/// The adjusted score of a player for their opponents' tie-breaks: C.02
/// 16.3 counts each of the player's own unplayed rounds as a draw when the
/// player is used as an opponent's opponent (for Buchholz). Half-points.
fn adjusted_score(t: &Tournament, start: u32) -> u32 {
    let Some(p) = t.player(start) else { return 0 };
    p.rounds
        .iter()
        .map(|e| match e {
            RoundEntry::Played { outcome, .. } => outcome.half_points(),
            _ => 1,
        })
        .sum()
}

/// The opponent's value for round `r` of player `start`: the real
/// opponent's adjusted score, or for an unplayed round the virtual
/// opponent of C.02 16.4: the player's own score before that round plus
/// the round's points reversed, plus a draw for each later round.
fn opponents_scores(t: &Tournament, start: u32) -> Vec<(u32, u32)> {
    let Some(p) = t.player(start) else {
        return Vec::new();
    };
    let rounds = p.rounds.len() as u32;
    p.rounds
        .iter()
        .enumerate()
        .map(|(r, e)| {
            let own = e.half_points();
            let opp = match e {
                RoundEntry::Played { opponent, .. } => adjusted_score(t, *opponent),
                _ => {
                    let before = p.half_points_after(r);
                    let later = rounds - r as u32 - 1;
                    before + (2 - own.min(2)) + later
                }
            };
            (opp, own)
        })
        .collect()
}

/// Buchholz (C.02 8.1): the sum of the opponents' scores, in half-points.
pub fn buchholz(t: &Tournament, start: u32) -> u32 {
    opponents_scores(t, start).iter().map(|x| x.0).sum()
}

/// Sonneborn-Berger (C.02 9.1): each opponent's score times the points
/// scored against them, in quarter-points (half-points × half-points).
pub fn sonneborn_berger(t: &Tournament, start: u32) -> u32 {
    opponents_scores(t, start).iter().map(|(o, s)| o * s).sum()
}

/// Performance as lichess computes it: the mean over played games of the
/// opponent's rating plus 500 for a win, minus 500 for a loss (a draw: the
/// rating). `None` without any played game.
pub fn performance(t: &Tournament, start: u32) -> Option<i32> {
    let p = t.player(start)?;
    let mut sum = 0i64;
    let mut games = 0i64;
    for e in &p.rounds {
        if let RoundEntry::Played {
            opponent, outcome, ..
        } = e
        {
            let r = i64::from(t.player(*opponent)?.rating);
            sum += r + match outcome {
                Outcome::Win => 500,
                Outcome::Draw => 0,
                Outcome::Loss => -500,
            };
            games += 1;
        }
    }
    (games > 0).then(|| (sum as f64 / games as f64).round() as i32)
}

/// The standings: start numbers by points, then Buchholz, then
/// Sonneborn-Berger, then start number.
pub fn standings(t: &Tournament) -> Vec<u32> {
    let mut order: Vec<(u32, u32, u32, u32)> = t
        .players
        .iter()
        .map(|p| {
            (
                p.half_points(),
                buchholz(t, p.start),
                sonneborn_berger(t, p.start),
                p.start,
            )
        })
        .collect();
    order.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
    });
    order.into_iter().map(|x| x.3).collect()
}
