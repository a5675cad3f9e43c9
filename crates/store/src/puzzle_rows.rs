//! The puzzle ratings and round outcomes the store hands back and forth
//! with the trainer (shared by the reads of `puzzles` and the writes of
//! `puzzle_writes`).

/// A Glicko-2 rating (a player's or a puzzle's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    /// Rating.
    pub rating: f64,
    /// Deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
}

/// A player's puzzle rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleRating {
    /// The rating.
    pub glicko: Glicko,
    /// Rated rounds played.
    pub games: i64,
}

/// What the rating rule of a first attempt decides: the player's and the
/// puzzle's new ratings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rated {
    /// The player's rating before (their starting rating if never rated).
    pub player_before: f64,
    /// The player's rating after.
    pub player: Glicko,
    /// The puzzle's rating after (`None`: left as it is).
    pub puzzle: Option<Glicko>,
}

/// What recording a round did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Recorded {
    /// A first attempt; `Some` when it was rated (the player's rating
    /// before and after).
    First(Option<(f64, f64)>),
    /// A replay: nothing rated.
    Replay,
}
