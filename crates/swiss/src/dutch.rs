//! The FIDE Dutch system (Handbook C.04.3): pairs the next round of a
//! tournament. Which players meet is decided by `bracket` (a weighted
//! maximum matching per bracket, whose weights hold the criteria C1–C21 in
//! their order); this module picks the players, handles round one, the
//! pairing-allocated bye, the colours (E.1–E.5) and the board order.

use crate::bracket;
use crate::colour;
use crate::fast;
use crate::history::{self, State};
use crate::model::Tournament;
pub use crate::round::{Found, PairError, Round};

/// Above this many players a round is paired by the faster approximate
/// system of `fast` (as lichess does above its own threshold): the exact
/// method solves one matching per decision and grows as n⁴.
pub const EXACT_LIMIT: usize = 160;

/// A board's order key: higher score, sum of scores, best pairing number.
type BoardKey = (u32, u32, u32);

/// The pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// Boards in order: (white start number, black start number).
    pub boards: Vec<(u32, u32)>,
    /// The player given the pairing-allocated bye, if any.
    pub bye: Option<u32>,
}

/// How a round is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The exact Dutch system up to `EXACT_LIMIT` players, the fast
    /// system above.
    Auto,
    /// The exact Dutch system whatever the size (slow above a few hundred).
    Exact,
    /// The fast approximate system of `fast`.
    Fast,
}

/// Pairs round `t.rounds_paired() + 1` among the players `present` (start
/// numbers); everyone else is left out (absent, bye asked for, withdrawn).
pub fn pair_round(t: &Tournament, present: &[u32]) -> Result<Pairing, PairError> {
    pair_round_by(t, present, Method::Auto)
}

/// `pair_round` with the method chosen.
pub fn pair_round_by(
    t: &Tournament,
    present: &[u32],
    method: Method,
) -> Result<Pairing, PairError> {
    t.validate()
        .map_err(|e| PairError::Invalid(e.to_string()))?;
    let states = history::states(t);
    let mut players: Vec<&State> = present
        .iter()
        .map(|&s| {
            states
                .get((s as usize).wrapping_sub(1))
                .ok_or_else(|| PairError::Invalid(format!("no player {s}")))
        })
        .collect::<Result<_, _>>()?;
    players.sort_by_key(|s| (std::cmp::Reverse(s.score), s.pairing_number));
    players.dedup_by_key(|s| s.start);
    let round = Round {
        players,
        number: t.rounds_paired() as u32 + 1,
        total_rounds: t.total_rounds,
        tournament: t,
    };
    let fast = match method {
        Method::Auto => round.players.len() > EXACT_LIMIT,
        Method::Exact => false,
        Method::Fast => true,
    };
    let (pairs, bye) = match round_one(&round) {
        Some(found) => found,
        None if fast => fast::pair(&round)?,
        None => pair_exact(&round)?,
    };
    // C2 is absolute: no second pairing-allocated bye, none after a point
    // won without playing.
    if bye.is_some_and(|b| !b.bye_eligible) {
        return Err(PairError::NoPairing);
    }
    Ok(finish(&round, pairs, bye, t))
}

/// Pairs the next round with every player who has no entry for it.
pub fn pair_next_round(t: &Tournament) -> Result<Pairing, PairError> {
    let all: Vec<u32> = t.players.iter().map(|p| p.start).collect();
    pair_round(t, &all)
}

/// Round one (C.04.3 A.2 with everyone on zero): the lower half by
/// pairing number meets the upper half in order; with an odd number the
/// lowest-ranked player gets the bye. `None` when that breaks a forbidden
/// pair (then the general method decides) or in later rounds.
fn round_one<'a>(round: &Round<'a>) -> Option<Found<'a>> {
    if round.number != 1 {
        return None;
    }
    let mut order = round.players.clone();
    order.sort_by_key(|s| s.pairing_number);
    let bye = if order.len() % 2 == 1 {
        order.pop()
    } else {
        None
    };
    let half = order.len() / 2;
    let pairs: Vec<_> = (0..half).map(|i| (order[i], order[half + i])).collect();
    pairs
        .iter()
        .all(|(a, b)| round.compatible(a, b))
        .then_some((pairs, bye))
}

/// Later rounds: `bracket`, bracket by bracket.
fn pair_exact<'a>(round: &Round<'a>) -> Result<Found<'a>, PairError> {
    let (pairs, rest) = bracket::pair(round);
    match rest.len() {
        0 => Ok((pairs, None)),
        1 if round.players.len() % 2 == 1 => Ok((pairs, Some(rest[0]))),
        _ => Err(PairError::NoPairing),
    }
}

/// Colours (E.1–E.5) and board order: by the higher score in the pair,
/// then the sum of the scores, then the higher-ranked player's pairing
/// number (C.04.2 / C.04.3 general handling of board order).
fn finish(
    round: &Round<'_>,
    pairs: Vec<(&State, &State)>,
    bye: Option<&State>,
    t: &Tournament,
) -> Pairing {
    let _ = round;
    let mut boards: Vec<(BoardKey, (u32, u32))> = pairs
        .into_iter()
        .map(|(a, b)| {
            let white_a = colour::a_gets_white(a, b, t.initial_colour);
            let key = (
                std::cmp::Reverse(a.score.max(b.score)).0,
                a.score + b.score,
                a.pairing_number.min(b.pairing_number),
            );
            let board = if white_a {
                (a.start, b.start)
            } else {
                (b.start, a.start)
            };
            (key, board)
        })
        .collect();
    boards.sort_by(|x, y| {
        y.0.0
            .cmp(&x.0.0)
            .then(y.0.1.cmp(&x.0.1))
            .then(x.0.2.cmp(&y.0.2))
    });
    Pairing {
        boards: boards.into_iter().map(|b| b.1).collect(),
        bye: bye.map(|s| s.start),
    }
}
