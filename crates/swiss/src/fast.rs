//! The approximate system for large fields (above `dutch::EXACT_LIMIT`
//! players): one maximum-weight matching of the whole field whose weights
//! keep the absolute criteria (C1–C3) and, in this order, the bye rule
//! (C5: the lowest-ranked eligible player of the lowest score), the score
//! differences (C6/C7, squared), the colour preferences (C10, C11) and the
//! Dutch shape (the top half of a score group meets the bottom half). It
//! is not exactly the Dutch system (no bracket-by-bracket order of the
//! criteria below C7, no float criteria), as lichess uses its own faster
//! system above a size.

use crate::colour;
use crate::history::State;
use crate::matching::max_weight_matching;
use crate::round::{Found, PairError, Round};

/// Pairs the round with one matching; see the module's note.
pub fn pair<'a>(round: &Round<'a>) -> Result<Found<'a>, PairError> {
    let ps = &round.players;
    let n = ps.len();
    let odd = n % 2 == 1;
    let any_eligible = ps.iter().any(|p| p.bye_eligible);
    // Position inside the score group and the group's size.
    let mut pos = vec![(0i64, 1i64); n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j < n && ps[j].score == ps[i].score {
            j += 1;
        }
        for (k, slot) in pos.iter_mut().enumerate().take(j).skip(i) {
            *slot = ((k - i) as i64, (j - i) as i64);
        }
        i = j;
    }
    let bonus = |p: &State| -> i128 {
        if !odd {
            return 0;
        }
        let inelig = i128::from(!p.bye_eligible && any_eligible);
        (inelig << 19)
            | (i128::from(p.score.min(255)) << 11)
            | (2047 - i128::from(p.pairing_number.min(2047)))
    };
    // First only pairs within one point of each other (a sparse graph, far
    // faster on large fields); all pairs when that leaves players out.
    for reach in [2, u32::MAX] {
        let found = solve(round, &pos, &bonus, reach);
        if found.1.len() <= usize::from(odd) || reach == u32::MAX {
            let (pairs, rest) = found;
            return match rest.len() {
                0 => Ok((pairs, None)),
                1 => Ok((pairs, Some(rest[0]))),
                _ => Err(PairError::NoPairing),
            };
        }
    }
    unreachable!("the last reach is every pair")
}

type Solved<'a> = (Vec<(&'a State, &'a State)>, Vec<&'a State>);

/// One matching over the pairs whose scores differ by at most `reach`
/// half-points.
fn solve<'a>(
    round: &Round<'a>,
    pos: &[(i64, i64)],
    bonus: &dyn Fn(&State) -> i128,
    reach: u32,
) -> Solved<'a> {
    let ps = &round.players;
    let n = ps.len();
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if ps[a].score.abs_diff(ps[b].score) > reach {
                // Sorted by score: every later player is further away.
                break;
            }
            if !round.compatible(ps[a], ps[b]) {
                continue;
            }
            let diff = i128::from(ps[a].score.abs_diff(ps[b].score).min(63));
            let closeness = 4096 - diff * diff;
            let (pa, pb) = (colour::preference(ps[a]), colour::preference(ps[b]));
            let mut colours = 0i128;
            if pa.colour.is_none() || pa.colour != pb.colour {
                colours += 2;
            }
            if pa.strength < colour::Strength::Strong || pb.strength < colour::Strength::Strong {
                colours += 1;
            }
            let shape = if ps[a].score == ps[b].score {
                let (ia, size) = pos[a];
                let ib = pos[b].0;
                1024 - i128::from(((ib - ia) - size / 2).unsigned_abs().min(1023) as u32)
            } else {
                0
            };
            let w =
                ((bonus(ps[a]) + bonus(ps[b])) << 54) | (closeness << 32) | (colours << 20) | shape;
            edges.push((a, b, w));
        }
    }
    let m = max_weight_matching(n, &edges, true);
    let mut pairs = Vec::new();
    let mut rest = Vec::new();
    for (a, mate) in m.iter().enumerate() {
        match mate {
            Some(b) if a < *b => pairs.push((ps[a], ps[*b])),
            Some(_) => {}
            None => rest.push(ps[a]),
        }
    }
    (pairs, rest)
}
