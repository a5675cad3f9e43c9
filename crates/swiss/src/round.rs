//! What the pairing of one round is given (the players to pair with their
//! states, the round's number, the tournament) and what it answers before
//! colours (the pairs and the bye), shared by the exact and fast methods;
//! and the absolute criteria every method keeps (C.04.3 C1, C3).

use std::fmt;

use crate::colour;
use crate::history::State;
use crate::model::Tournament;

/// Pairs found (higher-ranked first) and the bye, before colours.
pub type Found<'a> = (Vec<(&'a State, &'a State)>, Option<&'a State>);

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairError {
    /// The tournament's entries are inconsistent.
    Invalid(String),
    /// No pairing keeps the absolute criteria C1–C3 (C.04.3 C4 fails).
    NoPairing,
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairError::Invalid(m) => write!(f, "{m}"),
            PairError::NoPairing => write!(f, "no pairing satisfies the absolute criteria"),
        }
    }
}

impl std::error::Error for PairError {}

/// What the pairing of a round is given.
pub struct Round<'a> {
    /// The states of the players to pair, by (score desc, pairing number).
    pub players: Vec<&'a State>,
    /// The round being paired, 1-based.
    pub number: u32,
    /// The tournament's number of rounds.
    pub total_rounds: u32,
    /// The tournament, for forbidden pairs.
    pub tournament: &'a Tournament,
}

impl Round<'_> {
    /// The absolute criteria for two players: C1 (no rematch, no forbidden
    /// pair) and C3 (colours), the latter waived in the last round when
    /// either is a topscorer (more than half the maximum score so far).
    pub fn compatible(&self, a: &State, b: &State) -> bool {
        if a.start == b.start || a.opponents.contains(&b.start) {
            return false;
        }
        if self.tournament.is_forbidden(a.start, b.start) {
            return false;
        }
        if colour::has_legal_colours(a, b) {
            return true;
        }
        if self.number >= self.total_rounds {
            let played = self.number - 1;
            // score is in half-points: more than half of `played` points.
            return a.score > played || b.score > played;
        }
        false
    }
}
