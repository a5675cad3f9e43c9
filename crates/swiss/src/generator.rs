//! A seeded random tournament generator of our own: random players and
//! ratings, every round paired with our Dutch engine, results drawn from
//! the ratings (the Elo expectation) with a draw rate, and, on request,
//! byes asked for (half- and zero-point), absences, forfeits, withdrawals,
//! late joins and forbidden pairs.

use crate::dutch::{PairError, pair_round};
use crate::model::{Colour, Outcome, RoundEntry, Tournament};
use crate::rng::Rng;

/// What kind of tournament to make.
#[derive(Debug, Clone)]
pub struct GeneratorOptions {
    /// The seed: the same options and seed give the same tournament.
    pub seed: u64,
    /// Number of players.
    pub players: u32,
    /// Number of rounds.
    pub rounds: u32,
    /// Probability that a game is drawn.
    pub draw_rate: f64,
    /// Probability, per player and round, of a bye asked for (half- or
    /// zero-point) or of an absence.
    pub bye_rate: f64,
    /// Probability that a paired game is forfeited.
    pub forfeit_rate: f64,
    /// Probability, per player and round, of withdrawing for good.
    pub withdraw_rate: f64,
    /// Share of players who join late (from round 2 or 3).
    pub late_rate: f64,
    /// Number of forbidden pairs.
    pub forbidden_pairs: u32,
    /// The initial colour (E.5): the first board's colour in round one.
    pub initial_colour: Colour,
}

impl Default for GeneratorOptions {
    fn default() -> Self {
        GeneratorOptions {
            seed: 1,
            players: 20,
            rounds: 7,
            draw_rate: 0.3,
            bye_rate: 0.0,
            forfeit_rate: 0.0,
            withdraw_rate: 0.0,
            late_rate: 0.0,
            forbidden_pairs: 0,
            initial_colour: Colour::White,
        }
    }
}

const FIRST: [&str; 16] = [
    "Anna", "Boris", "Chen", "Dara", "Emil", "Fatima", "Goran", "Hana", "Ivan", "Julia", "Kofi",
    "Lena", "Marek", "Nina", "Omar", "Priya",
];
const LAST: [&str; 16] = [
    "Adams", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ito", "Jensen",
    "Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Petrov",
];

/// The generated tournament, and the round at which pairing stopped when
/// no pairing satisfied the absolute criteria (then fewer rounds exist).
#[derive(Debug, Clone)]
pub struct Generated {
    /// The tournament with all the rounds that could be paired.
    pub tournament: Tournament,
    /// `Some(round)` when that round could not be paired.
    pub stopped_at: Option<u32>,
}

/// Makes and plays a random tournament, pairing every round with the
/// Dutch engine.
pub fn generate(o: &GeneratorOptions) -> Generated {
    let mut rng = Rng::new(o.seed);
    let entrants: Vec<(String, u16)> = (0..o.players)
        .map(|i| {
            let name = format!(
                "{}, {} {}",
                LAST[rng.below(16) as usize],
                FIRST[rng.below(16) as usize],
                i + 1
            );
            (name, 1000 + rng.below(1700) as u16)
        })
        .collect();
    let mut t = Tournament::new(&format!("Random {}", o.seed), o.rounds, entrants);
    t.place = "plyyard swiss random".into();
    t.initial_colour = o.initial_colour;
    let n = t.players.len() as u32;
    let mut joins = vec![1u32; n as usize];
    for j in joins.iter_mut() {
        if rng.chance(o.late_rate) {
            *j = 2 + rng.below(2) as u32;
        }
    }
    let mut withdrawn = vec![false; n as usize];
    let mut tries = 0;
    while (t.forbidden.len() as u32) < o.forbidden_pairs && n >= 2 && tries < 1000 {
        tries += 1;
        let a = 1 + rng.below(u64::from(n)) as u32;
        let b = 1 + rng.below(u64::from(n)) as u32;
        if a != b && !t.is_forbidden(a, b) {
            t.forbidden.push((a.min(b), a.max(b)));
        }
    }
    for round in 1..=o.rounds {
        let mut present = Vec::new();
        let mut set = vec![RoundEntry::Absent; n as usize];
        for i in 0..n as usize {
            if withdrawn[i] || joins[i] > round {
                continue;
            }
            if round > 1 && rng.chance(o.withdraw_rate) {
                withdrawn[i] = true;
                continue;
            }
            if rng.chance(o.bye_rate) {
                set[i] = match rng.below(3) {
                    0 => RoundEntry::HalfBye,
                    1 => RoundEntry::ZeroBye,
                    _ => RoundEntry::Absent,
                };
                continue;
            }
            present.push(i as u32 + 1);
        }
        let pairing = match pair_round(&t, &present) {
            Ok(p) => p,
            Err(PairError::NoPairing | PairError::Invalid(_)) => {
                return Generated {
                    tournament: t,
                    stopped_at: Some(round),
                };
            }
        };
        if let Some(b) = pairing.bye {
            set[b as usize - 1] = RoundEntry::PairingBye;
        }
        for &(w, b) in &pairing.boards {
            let (rw, rb) = (
                f64::from(t.players[w as usize - 1].rating),
                f64::from(t.players[b as usize - 1].rating),
            );
            if rng.chance(o.forfeit_rate) {
                let white_won = rng.chance(0.5);
                set[w as usize - 1] = RoundEntry::Forfeit {
                    opponent: b,
                    colour: Colour::White,
                    won: white_won,
                };
                set[b as usize - 1] = RoundEntry::Forfeit {
                    opponent: w,
                    colour: Colour::Black,
                    won: !white_won,
                };
                continue;
            }
            let outcome = if rng.chance(o.draw_rate) {
                Outcome::Draw
            } else {
                let expected = 1.0 / (1.0 + 10f64.powf((rb - rw) / 400.0));
                if rng.chance(expected) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                }
            };
            set[w as usize - 1] = RoundEntry::Played {
                opponent: b,
                colour: Colour::White,
                outcome,
            };
            set[b as usize - 1] = RoundEntry::Played {
                opponent: w,
                colour: Colour::Black,
                outcome: outcome.reversed(),
            };
        }
        for (p, e) in t.players.iter_mut().zip(set) {
            p.rounds.push(e);
        }
    }
    Generated {
        tournament: t,
        stopped_at: None,
    }
}
