//! Tie-breaks by FIDE's Tie-Break Regulations (Handbook C.07, the text in
//! force since 2024; they replaced the tie-break articles of C.02):
//! Buchholz (article 8.1), Sonneborn-Berger (9.1) and unplayed rounds by
//! article 16: a player's unplayed round counts, for their opponents'
//! tie-breaks, with the points it gave (16.3), except a requested bye (or
//! absence) followed only by voluntary unplayed rounds or in the last
//! round, which counts as a draw (16.2.5); for the player's own tie-break,
//! an unplayed round is a game against a "dummy" opponent whose score is
//! the player's own, capped at the scheduled opponent's adjusted score for
//! a forfeit and at a draw in every round otherwise (16.4). (The "virtual
//! opponent" of the pre-2023 text, Svon = SPR + (1 - SfPR) + 0.5 (n - R),
//! is gone.) Performance is lichess's: the mean of the opponents' ratings,
//! +500 for a win, -500 for a loss.

use crate::model::{Outcome, RoundEntry, Tournament};

/// A voluntary unplayed round (C.07 16.1): a requested bye (half- or
/// zero-point; an absence or a withdrawal counts as a zero-point bye) or
/// a forfeit loss.
fn voluntary(e: RoundEntry) -> bool {
    matches!(
        e,
        RoundEntry::HalfBye
            | RoundEntry::ZeroBye
            | RoundEntry::Absent
            | RoundEntry::Forfeit { won: false, .. }
    )
}

/// True for a requested bye of category 16.2.5: followed only by
/// voluntary unplayed rounds, or in the last round.
fn late_request(rounds: &[RoundEntry], r: usize) -> bool {
    matches!(
        rounds[r],
        RoundEntry::HalfBye | RoundEntry::ZeroBye | RoundEntry::Absent
    ) && rounds[r + 1..].iter().all(|e| voluntary(*e))
}

/// The adjusted score of a player, used for their opponents' tie-breaks
/// (C.07 16.3), in half-points.
fn adjusted_score(t: &Tournament, start: u32) -> u32 {
    let Some(p) = t.player(start) else { return 0 };
    (0..p.rounds.len())
        .map(|r| {
            if late_request(&p.rounds, r) {
                1
            } else {
                p.rounds[r].half_points()
            }
        })
        .sum()
}

/// For each round of the player: the opponent's value and the player's
/// points, in half-points. An unplayed round's opponent is the dummy of
/// C.07 16.4.
fn opponents_scores(t: &Tournament, start: u32) -> Vec<(u32, u32)> {
    let Some(p) = t.player(start) else {
        return Vec::new();
    };
    let own = p.half_points();
    let draws_all = p.rounds.len() as u32;
    p.rounds
        .iter()
        .map(|e| {
            let opp = match e {
                RoundEntry::Played { opponent, .. } => adjusted_score(t, *opponent),
                RoundEntry::Forfeit { opponent, .. } => own.min(adjusted_score(t, *opponent)),
                _ => own.min(draws_all),
            };
            (opp, e.half_points())
        })
        .collect()
}

/// Buchholz (C.07 8.1): the sum of the opponents' scores, in half-points.
pub fn buchholz(t: &Tournament, start: u32) -> u32 {
    opponents_scores(t, start).iter().map(|x| x.0).sum()
}

/// Sonneborn-Berger (C.07 9.1): each opponent's score times the points
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
