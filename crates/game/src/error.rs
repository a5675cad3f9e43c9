//! Typed errors of the rules core. Every error hands back the input it refused.

use crate::rules::{Outcome, Reason};

/// A move was refused; the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in any notation we read (or is the null move).
    #[error("malformed move {input:?}")]
    Malformed {
        /// The refused text.
        input: String,
    },
    /// The text is a move, but not a legal one in this position.
    #[error("illegal move {input:?}")]
    Illegal {
        /// The refused text.
        input: String,
    },
    /// The SAN matches more than one legal move.
    #[error("ambiguous move {input:?}")]
    Ambiguous {
        /// The refused text.
        input: String,
    },
    /// The game is already over.
    #[error("move {input:?} refused: the game is over ({outcome})")]
    GameOver {
        /// The refused text.
        input: String,
        /// How the game ended.
        outcome: Outcome,
    },
}

impl MoveError {
    /// The text that was refused.
    pub fn input(&self) -> &str {
        match self {
            MoveError::Malformed { input }
            | MoveError::Illegal { input }
            | MoveError::Ambiguous { input }
            | MoveError::GameOver { input, .. } => input,
        }
    }

    /// A short machine-readable kind: `malformed`, `illegal`, `ambiguous` or `game_over`.
    pub fn kind(&self) -> &'static str {
        match self {
            MoveError::Malformed { .. } => "malformed",
            MoveError::Illegal { .. } => "illegal",
            MoveError::Ambiguous { .. } => "ambiguous",
            MoveError::GameOver { .. } => "game_over",
        }
    }
}

/// A starting position was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The FEN text could not be parsed.
    #[error("invalid FEN {input:?}: {reason}")]
    Fen {
        /// The refused FEN (shortened if very long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The FEN parsed, but the position is not a legal chess position.
    #[error("invalid position {input:?}: {reason}")]
    Position {
        /// The refused FEN (shortened if very long).
        input: String,
        /// What is wrong with it.
        reason: String,
        /// The first broken rule as a short code (`missing_king`,
        /// `opposite_check`, …; `illegal` when none is named).
        code: &'static str,
    },
    /// A Chess960 number outside 0..=959.
    #[error("invalid Chess960 number {number}: must be 0 to 959")]
    Chess960Number {
        /// The refused number.
        number: u32,
    },
}

impl SetupError {
    /// Why the set-up was refused, as a short code clients translate:
    /// `syntax` for unreadable FEN text, the broken rule for an illegal
    /// position, `chess960_number` for a number out of range.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::Fen { .. } => "syntax",
            SetupError::Position { code, .. } => code,
            SetupError::Chess960Number { .. } => "chess960_number",
        }
    }
}

/// An action other than a move (resign, claim, offer, abort …) was refused;
/// the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game is already over.
    #[error("the game is already over ({outcome})")]
    GameOver {
        /// How the game ended.
        outcome: Outcome,
    },
    /// A game can be aborted only before both sides have moved.
    #[error("too late to abort: {plies} plies have been played")]
    TooLateToAbort {
        /// Plies played so far.
        plies: usize,
    },
    /// There is no pending draw offer from the opponent of the side to move.
    #[error("there is no draw offer to accept")]
    NoDrawOffer,
    /// A draw is offered after a move only by the side that just moved.
    #[error("a draw is offered after one's own move")]
    NotAfterOwnMove,
    /// Under Ply Yard rules threefold and 50-move draws are automatic, never claimed.
    #[error("draws are not claimed under Ply Yard rules (they are automatic)")]
    ClaimsNotUsed,
    /// The claimed draw condition does not hold.
    #[error("cannot claim {reason}: the condition does not hold")]
    NotClaimable {
        /// The refused claim.
        reason: Reason,
    },
    /// The reason is not one that can be claimed (only threefold repetition and the 50-move rule).
    #[error("{reason} is not a claimable draw")]
    NotAClaim {
        /// The refused claim.
        reason: Reason,
    },
    /// The move announced with a claim was refused.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// Name used by callers that only expect "the game is over" failures.
pub type GameOverError = ActionError;
/// Name used by callers of the draw-claim functions.
pub type ClaimError = ActionError;

/// Shortens very long inputs kept inside errors (for example 1 MB of junk).
pub(crate) fn clip(input: &str) -> String {
    const MAX: usize = 200;
    if input.len() <= MAX {
        input.to_owned()
    } else {
        let mut end = MAX;
        while !input.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &input[..end], input.len())
    }
}
