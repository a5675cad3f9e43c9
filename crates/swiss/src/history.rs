//! What the pairing needs to know of each player before a round, derived
//! from the round entries: score, colours of the games played, floats,
//! previous opponents, and whether a pairing-allocated bye is still allowed.

use std::collections::BTreeSet;

use crate::model::{Colour, RoundEntry, Tournament};

/// The direction a player floated in a round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// Paired with a lower score, or given a point without an opponent.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// One player's pairing state before the round being paired.
#[derive(Debug, Clone)]
pub struct State {
    /// Start number.
    pub start: u32,
    /// Pairing number: the rank by rating (descending), then start number,
    /// among all the tournament's players (C.04.3 A.2), 1-based.
    pub pairing_number: u32,
    /// Rating.
    pub rating: u16,
    /// Score in half-points.
    pub score: u32,
    /// Colours of the games played over the board, in order.
    pub colours: Vec<Colour>,
    /// Colour per round (`None` when no game was played that round), for
    /// the "most recent round they differ" rule E.3.
    pub colour_by_round: Vec<Option<Colour>>,
    /// Float per round, round 1 first.
    pub floats: Vec<Float>,
    /// Opponents of games played over the board.
    pub opponents: BTreeSet<u32>,
    /// False once the player has had the pairing-allocated bye or a forfeit
    /// win (C.04.3 C2).
    pub bye_eligible: bool,
}

impl State {
    /// White games minus black games.
    pub fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }

    /// The float `k` rounds back (1 = the previous round).
    pub fn float_back(&self, k: usize) -> Float {
        if k <= self.floats.len() {
            self.floats[self.floats.len() - k]
        } else {
            Float::None
        }
    }
}

/// Pairing numbers of all players: index by start number - 1.
pub fn pairing_numbers(t: &Tournament) -> Vec<u32> {
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by(|&a, &b| {
        t.players[b]
            .rating
            .cmp(&t.players[a].rating)
            .then(t.players[a].start.cmp(&t.players[b].start))
    });
    let mut pn = vec![0; t.players.len()];
    for (rank, i) in order.into_iter().enumerate() {
        pn[i] = rank as u32 + 1;
    }
    pn
}

/// The pairing state of every player after the rounds in `t`.
pub fn states(t: &Tournament) -> Vec<State> {
    let pns = pairing_numbers(t);
    t.players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut s = State {
                start: p.start,
                pairing_number: pns[i],
                rating: p.rating,
                score: p.half_points(),
                colours: Vec::new(),
                colour_by_round: Vec::new(),
                floats: Vec::new(),
                opponents: BTreeSet::new(),
                bye_eligible: true,
            };
            for (r, e) in p.rounds.iter().enumerate() {
                let before = p.half_points_after(r);
                s.colour_by_round.push(e.played_colour());
                if e.is_unplayed_point() {
                    s.bye_eligible = false;
                }
                let float = match *e {
                    RoundEntry::Played {
                        opponent, colour, ..
                    } => {
                        s.colours.push(colour);
                        s.opponents.insert(opponent);
                        let theirs = t
                            .player(opponent)
                            .map(|o| o.half_points_after(r))
                            .unwrap_or(0);
                        match before.cmp(&theirs) {
                            std::cmp::Ordering::Greater => Float::Down,
                            std::cmp::Ordering::Less => Float::Up,
                            std::cmp::Ordering::Equal => Float::None,
                        }
                    }
                    RoundEntry::Forfeit { won: true, .. } => Float::Down,
                    RoundEntry::Forfeit { won: false, .. } => Float::None,
                    RoundEntry::PairingBye | RoundEntry::HalfBye | RoundEntry::ZeroBye => {
                        Float::Down
                    }
                    RoundEntry::Absent => Float::None,
                };
                s.floats.push(float);
            }
            s
        })
        .collect()
}
