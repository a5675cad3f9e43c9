//! Owns the pairing wave: from the players waiting at one moment to the
//! games to start, with colours.
//!
//! lichess (`PairingSystem`, `AntmaPairing`, `WaitingUsers`):
//! - with an odd number waiting, the most recent arrival sits out (if the
//!   others then yield no pair at all, everyone is tried);
//! - in the first 15 s of the Arena, players go in rank order, 1–2, 3–4, …;
//! - otherwise, sorted by rank: up to [`MAX_GROUP`] players go to one
//!   minimum-weight matching (weights in [`crate::edge`]); with more, two
//!   groups of `min(n / 4 × 2, 100)` are matched that way and the next six
//!   such groups are paired cheaply with their rank neighbour; anyone
//!   further down waits for the next wave.
//!
//! Ply Yard's choices where lichess leaves room: a matching with no perfect
//! solution among the allowed pairs pairs as many as it can (least cost
//! among those) and the rest wait; the cheap neighbour pairing and the
//! first 15 s also respect the forbidden pairs (neighbour pairing looks up
//! to [`NEIGHBOUR_REACH`] places down for an allowed partner); colours come
//! from the colour histories everywhere (at the start those are all empty,
//! so colours are random there as on lichess). The two-same-colour-streaks
//! rule holds even when only two players are active, so no one ever gets
//! a fourth game in a row with one colour.

use crate::colour::Colour;
use crate::colour_history::ColourHistory;
use crate::edge::{self, EdgeEnd};
use crate::matching::min_cost_max_matching;
use crate::timestamp::Timestamp;
use rand::Rng;
use serde::Serialize;
use std::num::NonZeroU32;

/// The largest group given to one matching.
pub const MAX_GROUP: usize = 100;
/// Groups (of the best-matched size) paired cheaply after the two matched
/// ones.
pub const CHEAP_GROUPS: usize = 6;
/// How far down the rank order cheap pairing looks for an allowed partner.
pub const NEIGHBOUR_REACH: usize = 3;

/// A player waiting for a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingPlayer<I> {
    /// The player.
    pub id: I,
    /// Current rank in the standings (1 = leader).
    pub rank: NonZeroU32,
    /// Rating.
    pub rating: u16,
    /// Colours so far in this Arena.
    pub colours: ColourHistory,
    /// The opponent of the player's latest game in this Arena (lichess
    /// looks at the last `min(300, 4 × waiting)` pairings to find it).
    pub last_opponent: Option<I>,
    /// Since when the player waits.
    pub waiting_since: Timestamp,
}

/// What the wave needs to know of the Arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaveContext {
    /// Whether the Arena started less than 15 s ago (see
    /// [`crate::schedule::recently_started`]).
    pub recently_started: bool,
    /// Players in the Arena and not paused or withdrawn, playing or
    /// waiting: with only two, they may play each other again and again.
    pub active_players: usize,
}

/// A game to start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pairing<I> {
    /// Who plays white.
    pub white: I,
    /// Who plays black.
    pub black: I,
}

/// The pairings of one wave over `waiting` (in any order); `rng` tosses the
/// coin where colour histories tie. The same input and the same seed give
/// the same pairings.
pub fn pair_wave<I: Clone + Eq, R: Rng + ?Sized>(
    waiting: &[WaitingPlayer<I>],
    context: WaveContext,
    rng: &mut R,
) -> Vec<Pairing<I>> {
    if waiting.len() < 2 {
        return Vec::new();
    }
    let wave = Wave::new(waiting, context);
    let everyone = by_rank(waiting);
    if everyone.len() % 2 == 1 {
        let even = without_latest_arrival(waiting, &everyone);
        let pairs = wave.pair(&even, rng);
        if !pairs.is_empty() {
            return pairs;
        }
    }
    wave.pair(&everyone, rng)
}

/// Indices of `waiting` sorted by rank (then arrival, then input order).
fn by_rank<I>(waiting: &[WaitingPlayer<I>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| (waiting[i].rank, waiting[i].waiting_since, i));
    order
}

/// `order` less the player who started waiting last (among equals, the
/// lowest-ranked, then the last in input order).
fn without_latest_arrival<I>(waiting: &[WaitingPlayer<I>], order: &[usize]) -> Vec<usize> {
    let latest = (0..waiting.len()).max_by_key(|&i| (waiting[i].waiting_since, waiting[i].rank, i));
    order
        .iter()
        .copied()
        .filter(|&i| Some(i) != latest)
        .collect()
}

/// One wave's players and rules.
struct Wave<'a, I> {
    players: &'a [WaitingPlayer<I>],
    context: WaveContext,
    duel: bool,
}

impl<'a, I: Clone + Eq> Wave<'a, I> {
    fn new(players: &'a [WaitingPlayer<I>], context: WaveContext) -> Self {
        let duel = players.len() == 2 && context.active_players <= 2;
        Wave {
            players,
            context,
            duel,
        }
    }

    /// The pairings over `order` (indices sorted by rank).
    fn pair<R: Rng + ?Sized>(&self, order: &[usize], rng: &mut R) -> Vec<Pairing<I>> {
        let n = order.len();
        let pairs = if self.context.recently_started {
            self.neighbours(order)
        } else if n <= MAX_GROUP {
            self.matched(order)
        } else {
            let g = (n / 4 * 2).min(MAX_GROUP);
            let cheap_end = (g * (2 + CHEAP_GROUPS)).min(n);
            let mut pairs = self.matched(&order[..g]);
            pairs.extend(self.matched(&order[g..2 * g]));
            pairs.extend(self.neighbours(&order[2 * g..cheap_end]));
            pairs
        };
        pairs
            .into_iter()
            .map(|(a, b)| self.colour(a, b, rng))
            .collect()
    }

    /// Whether players `a` and `b` (indices) may meet.
    fn allowed(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        let rematch = !self.duel
            && (pa.last_opponent.as_ref() == Some(&pb.id)
                || pb.last_opponent.as_ref() == Some(&pa.id));
        edge::allowed(rematch, pa.colours, pb.colours)
    }

    /// A minimum-weight matching of `group` (indices sorted by rank).
    fn matched(&self, group: &[usize]) -> Vec<(usize, usize)> {
        let Some(&worst) = group.last() else {
            return Vec::new();
        };
        let max_rank = self.players[worst].rank;
        let end = |i: usize| EdgeEnd {
            rank: self.players[i].rank,
            rating: self.players[i].rating,
        };
        let cost = |x: usize, y: usize| {
            let (a, b) = (group[x], group[y]);
            self.allowed(a, b)
                .then(|| edge::edge_cost(max_rank, end(a), end(b)))
        };
        min_cost_max_matching(group.len(), cost)
            .into_iter()
            .map(|(x, y)| (group[x], group[y]))
            .collect()
    }

    /// Rank neighbours paired in order: each unpaired player with the
    /// nearest allowed unpaired one at most [`NEIGHBOUR_REACH`] places down.
    fn neighbours(&self, group: &[usize]) -> Vec<(usize, usize)> {
        let mut taken = vec![false; group.len()];
        let mut pairs = Vec::with_capacity(group.len() / 2);
        for x in 0..group.len() {
            if taken[x] {
                continue;
            }
            let reach = (x + 1..group.len()).take(NEIGHBOUR_REACH);
            let partner = reach
                .filter(|&y| !taken[y])
                .find(|&y| self.allowed(group[x], group[y]));
            if let Some(y) = partner {
                taken[x] = true;
                taken[y] = true;
                pairs.push((group[x], group[y]));
            }
        }
        pairs
    }

    /// The pairing of `a` and `b` with colours from their histories.
    fn colour<R: Rng + ?Sized>(&self, a: usize, b: usize, rng: &mut R) -> Pairing<I> {
        let (pa, pb) = (&self.players[a], &self.players[b]);
        let (white, black) = match pa.colours.colour_against(pb.colours, rng) {
            Colour::White => (pa, pb),
            Colour::Black => (pb, pa),
        };
        Pairing {
            white: white.id.clone(),
            black: black.id.clone(),
        }
    }
}
