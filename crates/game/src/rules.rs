//! Rule sets, variants, results and the reasons a game ends.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// Which draw rules apply to a game.
///
/// * [`RuleSet::PlyYard`] (the default): threefold repetition and the
///   50-move rule end the game automatically.
/// * [`RuleSet::Fide`]: threefold repetition and the 50-move rule are claims
///   by the player to move; fivefold repetition and the 75-move rule end the
///   game automatically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// Ply Yard rules: automatic threefold and 50-move draws.
    #[default]
    PlyYard,
    /// FIDE Laws: threefold and 50-move are claims; fivefold and 75-move are automatic.
    Fide,
}

impl RuleSet {
    /// The lowercase name used in JSON, PGN and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleSet::PlyYard => "plyyard",
            RuleSet::Fide => "fide",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for an unknown rule set, variant or reason name; hands back the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {input:?}")]
pub struct ParseNameError {
    /// What kind of name was expected.
    pub what: &'static str,
    /// The text that was given.
    pub input: String,
}

impl FromStr for RuleSet {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<RuleSet, ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "plyyard" | "ply-yard" | "ply_yard" => Ok(RuleSet::PlyYard),
            "fide" => Ok(RuleSet::Fide),
            _ => Err(ParseNameError {
                what: "rule set",
                input: s.to_owned(),
            }),
        }
    }
}

/// The starting-position family of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess (including games set up from a FEN with standard castling).
    #[default]
    Standard,
    /// Chess960 (Fischer random chess), or any position needing Chess960 castling.
    Chess960,
}

impl Variant {
    /// The lowercase name used in JSON and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Variant {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Variant, ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" | "chess" => Ok(Variant::Standard),
            "chess960" | "chess 960" | "960" | "fischerandom" | "fischer random" => {
                Ok(Variant::Chess960)
            }
            _ => Err(ParseNameError {
                what: "variant",
                input: s.to_owned(),
            }),
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can possibly checkmate (dead position by material).
    InsufficientMaterial,
    /// The same position occurred three times (automatic or claimed).
    ThreefoldRepetition,
    /// The same position occurred five times (automatic under FIDE rules).
    FivefoldRepetition,
    /// 50 moves by each side without capture or pawn move (automatic or claimed).
    FiftyMoves,
    /// 75 moves by each side without capture or pawn move (automatic under FIDE rules).
    #[serde(rename = "seventyfive_moves")]
    SeventyFiveMoves,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// A player's flag fell and the opponent can still mate.
    Timeout,
    /// A player's flag fell but the opponent cannot possibly mate (FIDE 6.9).
    TimeoutVsInsufficientMaterial,
    /// A player left the table.
    Abandonment,
    /// The game was called off before both sides had moved.
    Aborted,
}

impl Reason {
    /// All reasons, in declaration order.
    pub const ALL: [Reason; 13] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::InsufficientMaterial,
        Reason::ThreefoldRepetition,
        Reason::FivefoldRepetition,
        Reason::FiftyMoves,
        Reason::SeventyFiveMoves,
        Reason::Resignation,
        Reason::Agreement,
        Reason::Timeout,
        Reason::TimeoutVsInsufficientMaterial,
        Reason::Abandonment,
        Reason::Aborted,
    ];

    /// The snake_case name, as in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::FiftyMoves => "fifty_moves",
            Reason::SeventyFiveMoves => "seventyfive_moves",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Timeout => "timeout",
            Reason::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            Reason::Abandonment => "abandonment",
            Reason::Aborted => "aborted",
        }
    }

    /// Whether this reason is decided by the position on the board alone
    /// (and so goes away when the move that produced it is taken back).
    pub const fn is_from_board(self) -> bool {
        matches!(
            self,
            Reason::Checkmate
                | Reason::Stalemate
                | Reason::InsufficientMaterial
                | Reason::ThreefoldRepetition
                | Reason::FivefoldRepetition
                | Reason::FiftyMoves
                | Reason::SeventyFiveMoves
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Reason {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Reason, ParseNameError> {
        let t = s.trim();
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| ParseNameError {
                what: "reason",
                input: s.to_owned(),
            })
    }
}

/// The score of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// `1-0`
    #[serde(rename = "1-0")]
    WhiteWins,
    /// `0-1`
    #[serde(rename = "0-1")]
    BlackWins,
    /// `1/2-1/2`
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// `*`: the game was aborted and has no score.
    #[serde(rename = "*")]
    Aborted,
}

impl GameResult {
    /// The result won by `winner`.
    pub const fn win(winner: Color) -> GameResult {
        match winner {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, if the game was decisive.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Aborted => None,
        }
    }

    /// PGN notation of the result.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Aborted => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameResult {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<GameResult, ParseNameError> {
        match s.trim() {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Aborted),
            _ => Err(ParseNameError {
                what: "result",
                input: s.to_owned(),
            }),
        }
    }
}

/// How a game ended: the score and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::win(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }

    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        self.result.winner()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result, self.reason)
    }
}
