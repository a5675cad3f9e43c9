//! The tournament as data: players with their start numbers and ratings,
//! one entry per round played so far, forbidden pairs, the number of rounds
//! and the colour of the first board in round one. Everything else (scores,
//! colour histories, floats) is derived from these entries.

use std::fmt;

/// A colour of the pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White pieces.
    White,
    /// Black pieces.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// TRF16's letter: `w` or `b`.
    pub fn trf_char(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

/// The outcome of a game for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One point.
    Win,
    /// Half a point.
    Draw,
    /// No point.
    Loss,
}

impl Outcome {
    /// The outcome seen from the opponent.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// Points in half-points (2 for a win).
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// What one player did in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundEntry {
    /// A game played over the board (TRF `1`, `=`, `0`).
    Played {
        /// The opponent's start number.
        opponent: u32,
        /// This player's colour.
        colour: Colour,
        /// This player's outcome.
        outcome: Outcome,
    },
    /// A game paired but not played: `won` is the forfeit win (`+`), else
    /// the forfeit loss (`-`). Unplayed: it gives no colour and (as in
    /// bbpPairings and caissify) does not forbid a later pairing.
    Forfeit {
        /// The opponent's start number.
        opponent: u32,
        /// The colour this player was given.
        colour: Colour,
        /// True for the side that was present.
        won: bool,
    },
    /// The pairing-allocated bye (TRF `U`): one point (C.04.1 c).
    PairingBye,
    /// A half-point bye asked for in advance (TRF `H`).
    HalfBye,
    /// A zero-point bye asked for in advance (TRF `Z`).
    ZeroBye,
    /// Not paired: absent, withdrawn or not yet joined (no points).
    Absent,
}

impl RoundEntry {
    /// Points earned, in half-points.
    pub fn half_points(self) -> u32 {
        match self {
            RoundEntry::Played { outcome, .. } => outcome.half_points(),
            RoundEntry::Forfeit { won, .. } => {
                if won {
                    2
                } else {
                    0
                }
            }
            RoundEntry::PairingBye => 2,
            RoundEntry::HalfBye => 1,
            RoundEntry::ZeroBye | RoundEntry::Absent => 0,
        }
    }

    /// The opponent of a paired game, played or forfeited.
    pub fn opponent(self) -> Option<u32> {
        match self {
            RoundEntry::Played { opponent, .. } | RoundEntry::Forfeit { opponent, .. } => {
                Some(opponent)
            }
            _ => None,
        }
    }

    /// The colour of a game played over the board (forfeits give none).
    pub fn played_colour(self) -> Option<Colour> {
        match self {
            RoundEntry::Played { colour, .. } => Some(colour),
            _ => None,
        }
    }

    /// True when the player got a point without playing: the pairing bye
    /// or a forfeit win (C.04.3 C2: then no pairing-allocated bye again).
    pub fn is_unplayed_point(self) -> bool {
        matches!(
            self,
            RoundEntry::PairingBye | RoundEntry::Forfeit { won: true, .. }
        )
    }
}

/// One player of the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Start number, 1-based: the rank by rating (descending), ties by name.
    pub start: u32,
    /// The name as shown (TRF writes at most 33 characters).
    pub name: String,
    /// The rating used for the ranking (0 when unrated).
    pub rating: u16,
    /// One entry per round already paired, round 1 first.
    pub rounds: Vec<RoundEntry>,
}

impl Player {
    /// Points so far, in half-points.
    pub fn half_points(&self) -> u32 {
        self.rounds.iter().map(|e| e.half_points()).sum()
    }

    /// Points after the first `n` rounds, in half-points.
    pub fn half_points_after(&self, n: usize) -> u32 {
        self.rounds.iter().take(n).map(|e| e.half_points()).sum()
    }
}

/// Formats half-points as TRF does: `3.5`.
pub fn format_points(half_points: u32) -> String {
    format!(
        "{}.{}",
        half_points / 2,
        if half_points % 2 == 1 { 5 } else { 0 }
    )
}

/// A Swiss tournament: its players (index `i` holds start number `i + 1`),
/// the rounds so far in each player's entries, and its settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    /// The name (TRF `012`).
    pub name: String,
    /// Where it is played, or its address (TRF `022`).
    pub place: String,
    /// First day, `YYYY/MM/DD` (TRF `042`), possibly empty.
    pub start_date: String,
    /// Last day (TRF `052`), possibly empty.
    pub end_date: String,
    /// The players in start-number order.
    pub players: Vec<Player>,
    /// The number of rounds the tournament will have (TRF `XXR`).
    pub total_rounds: u32,
    /// The colour of the first board's higher-ranked player in round one
    /// (TRF `XXC white1` / `black1`): the "initial colour" of C.04.3 E.5.
    pub initial_colour: Colour,
    /// Pairs that must never meet (TRF `XXP`), by start number.
    pub forbidden: Vec<(u32, u32)>,
}

/// Why a tournament's data is inconsistent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidTournament(pub String);

impl fmt::Display for InvalidTournament {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid tournament: {}", self.0)
    }
}

impl std::error::Error for InvalidTournament {}

impl Tournament {
    /// An empty tournament of `total_rounds` rounds with these players,
    /// given start numbers by rating (descending), ties by name.
    pub fn new(name: &str, total_rounds: u32, mut entrants: Vec<(String, u16)>) -> Tournament {
        entrants.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let players = entrants
            .into_iter()
            .enumerate()
            .map(|(i, (name, rating))| Player {
                start: i as u32 + 1,
                name,
                rating,
                rounds: Vec::new(),
            })
            .collect();
        Tournament {
            name: name.to_string(),
            place: String::new(),
            start_date: String::new(),
            end_date: String::new(),
            players,
            total_rounds,
            initial_colour: Colour::White,
            forbidden: Vec::new(),
        }
    }

    /// The number of rounds already paired (the longest entry list).
    pub fn rounds_paired(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }

    /// The player with this start number.
    pub fn player(&self, start: u32) -> Option<&Player> {
        self.players.get(start.checked_sub(1)? as usize)
    }

    /// True when the two start numbers are a forbidden pair.
    pub fn is_forbidden(&self, a: u32, b: u32) -> bool {
        self.forbidden
            .iter()
            .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
    }

    /// Checks the invariants the type cannot hold: start numbers `1..=n`
    /// in order, every player with the same number of rounds, and every
    /// game seen the same way from both sides.
    pub fn validate(&self) -> Result<(), InvalidTournament> {
        let rounds = self.rounds_paired();
        for (i, p) in self.players.iter().enumerate() {
            if p.start as usize != i + 1 {
                return Err(InvalidTournament(format!(
                    "player at index {i} has start number {}",
                    p.start
                )));
            }
            if p.rounds.len() != rounds {
                return Err(InvalidTournament(format!(
                    "player {} has {} rounds, others {rounds}",
                    p.start,
                    p.rounds.len()
                )));
            }
        }
        for p in &self.players {
            for (r, e) in p.rounds.iter().enumerate() {
                let Some(opp) = e.opponent() else { continue };
                let mirror = self.player(opp).and_then(|o| o.rounds.get(r)).copied();
                let ok = match (*e, mirror) {
                    (
                        RoundEntry::Played {
                            colour, outcome, ..
                        },
                        Some(RoundEntry::Played {
                            opponent,
                            colour: c2,
                            outcome: o2,
                        }),
                    ) => opponent == p.start && c2 == colour.opposite() && o2 == outcome.reversed(),
                    (
                        RoundEntry::Forfeit { colour, won, .. },
                        Some(RoundEntry::Forfeit {
                            opponent,
                            colour: c2,
                            won: w2,
                        }),
                    ) => opponent == p.start && c2 == colour.opposite() && (won != w2 || !won),
                    _ => false,
                };
                if !ok {
                    return Err(InvalidTournament(format!(
                        "round {}: player {} and {opp} disagree",
                        r + 1,
                        p.start
                    )));
                }
            }
        }
        Ok(())
    }
}
