//! The rows of `games` and `moves` as the rest of the server sees them.

use std::str::FromStr;

use plyyard_game::{GameResult, Reason, RuleSet, Variant};

/// What kind of game a row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// A person against the engine.
    Computer,
    /// Two people at a table, with clocks.
    Table,
    /// A game played elsewhere, imported from PGN (see `review::store`).
    Imported,
}

impl GameKind {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameKind::Computer => "computer",
            GameKind::Table => "table",
            GameKind::Imported => "imported",
        }
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<GameKind, String> {
        match s {
            "computer" => Ok(GameKind::Computer),
            "table" => Ok(GameKind::Table),
            "imported" => Ok(GameKind::Imported),
            other => Err(format!("unknown game kind {other:?}")),
        }
    }
}

/// Whether a game is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Moves may still be played.
    Ongoing,
    /// The game has a result.
    Ended,
}

impl GameStatus {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Ongoing => "ongoing",
            GameStatus::Ended => "ended",
        }
    }
}

impl FromStr for GameStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<GameStatus, String> {
        match s {
            "ongoing" => Ok(GameStatus::Ongoing),
            "ended" => Ok(GameStatus::Ended),
            other => Err(format!("unknown game status {other:?}")),
        }
    }
}

/// A game as stored in the `games` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Public game id.
    pub id: String,
    /// What kind of game.
    pub kind: GameKind,
    /// Player id of White (`None` for the computer).
    pub white_player: Option<String>,
    /// Player id of Black (`None` for the computer).
    pub black_player: Option<String>,
    /// Computer level, for computer games.
    pub level: Option<plyyard_engine::Level>,
    /// Rule set.
    pub rules: RuleSet,
    /// Variant.
    pub variant: Variant,
    /// Chess960 position number.
    pub position: Option<u32>,
    /// FEN of the starting position.
    pub initial_fen: String,
    /// Summary fields, kept in step with the moves.
    pub summary: GameSummary,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
    /// For table games: the table, whether rated, the time control.
    pub table: Option<TableGame>,
    /// For games against the computer played with a clock: its time
    /// control (a table game's is in `table`).
    pub clock: Option<plyyard_game::TimeControl>,
}

impl GameRow {
    /// The game's time control, if it is played with a clock (at a table,
    /// or against the computer).
    pub fn control(&self) -> Option<plyyard_game::TimeControl> {
        self.table.as_ref().map(|t| t.control).or(self.clock)
    }
}

/// What a table game stores beside a computer game's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableGame {
    /// The table's code.
    pub code: String,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Its time control.
    pub control: plyyard_game::TimeControl,
}

/// The fields of a game that change as it is played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// Ongoing or ended.
    pub status: GameStatus,
    /// PGN result (`*` while the game goes on).
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Option<Reason>,
    /// Number of plies played.
    pub plies: u32,
    /// Event version: grows by one with every change.
    pub version: u64,
    /// Time of the change, Unix milliseconds.
    pub updated_at: i64,
}

/// One stored move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    /// 1-based ply number.
    pub ply: u32,
    /// The move in UCI.
    pub uci: String,
    /// The move in English SAN.
    pub san: String,
    /// Clock of the mover after the move, if clocks run.
    pub clock_ms: Option<i64>,
    /// Whether a draw offer was made with the move.
    pub draw_offer: bool,
    /// Whether the mover's tab had lost the focus since their previous
    /// move (as their browser said).
    pub blur: bool,
}

/// A version as the database stores it (a signed 64-bit integer).
pub(crate) fn version_to_db(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
