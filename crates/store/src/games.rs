//! Games and their moves: the rows of `games` and `moves`, reading them,
//! and the writes that are not the live-game writer's.

use std::str::FromStr;
use std::time::Duration;

use game::{GameResult, Reason, RuleSet, Variant};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor as _, Row};

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
    pub level: Option<engine::Level>,
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
}

/// What a table game stores beside a computer game's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableGame {
    /// The table's code.
    pub code: String,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Its time control.
    pub control: game::TimeControl,
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
}

impl Store {
    /// Inserts a new game with no moves.
    ///
    /// # Errors
    /// A database failure (including a duplicate id).
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        insert_game_in(&self.pool, g).await
    }

    /// Loads a game and its moves in ply order, or `None` if there is no such game.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let game = game_from_row(&row)?;
        let moves = sqlx::query(
            "SELECT ply, uci, san, clock_ms, CAST(draw_offer AS INTEGER) FROM moves \
             WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(move_from_row)
        .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some((game, moves)))
    }

    /// Appends moves and updates the game's summary in one transaction,
    /// provided the game is still at version `expected`. Writes of several
    /// games share a transaction (see `writer.rs`); this one's effect is
    /// all or nothing all the same.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game moved on; a database failure.
    /// Nothing is written then.
    pub async fn append_moves(
        &self,
        game_id: &str,
        expected: u64,
        moves: &[MoveRow],
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Append(moves.to_vec());
        self.writer.write(game_id, expected, summary, op).await
    }

    /// Deletes the moves after ply `keep` and updates the summary, in one
    /// transaction, provided the game is still at version `expected`.
    ///
    /// # Errors
    /// As [`Store::append_moves`].
    pub async fn truncate_moves(
        &self,
        game_id: &str,
        expected: u64,
        keep: u32,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Truncate(keep);
        self.writer.write(game_id, expected, summary, op).await
    }

    /// Updates only the summary (a resignation, for example), provided the
    /// game is still at version `expected`.
    ///
    /// # Errors
    /// As [`Store::append_moves`].
    pub async fn update_game(
        &self,
        game_id: &str,
        expected: u64,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Summary;
        self.writer.write(game_id, expected, summary, op).await
    }

    /// The games of a player, most recently changed first.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn recent_games(&self, player: &str, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE white_player = $1 OR black_player = $1 \
             ORDER BY updated_at DESC, created_at DESC, id LIMIT $2"
        ))
        .bind(player)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_from_row)
        .collect()
    }

    /// A page of a player's games, newest first: `limit` games after
    /// skipping `offset`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn games_page(
        &self,
        player: &str,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE white_player = $1 OR black_player = $1 \
             ORDER BY created_at DESC, id LIMIT $2 OFFSET $3"
        ))
        .bind(player)
        .bind(i64::from(limit))
        .bind(i64::try_from(offset).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_from_row)
        .collect()
    }
}

/// Inserts a new game with no moves, through `e` (the pool or a
/// transaction).
pub(crate) async fn insert_game_in<'e, E>(e: E, g: &GameRow) -> Result<(), StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
            "INSERT INTO games (id, kind, white_player, black_player, level, rules, variant, \
             position, initial_fen, status, result, reason, plies, version, created_at, updated_at, \
             table_code, rated, initial_ms, increment_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
             $18, $19, $20)",
        )
        .bind(&g.id)
        .bind(g.kind.as_str())
        .bind(&g.white_player)
        .bind(&g.black_player)
        .bind(g.level.map(engine::Level::as_str))
        .bind(g.rules.as_str())
        .bind(g.variant.as_str())
        .bind(g.position.map(i64::from))
        .bind(&g.initial_fen)
        .bind(g.summary.status.as_str())
        .bind(g.summary.result.as_str())
        .bind(g.summary.reason.map(Reason::as_str))
        .bind(i64::from(g.summary.plies))
        .bind(version_to_db(g.summary.version))
        .bind(g.created_at)
        .bind(g.summary.updated_at)
        .bind(g.table.as_ref().map(|t| t.code.as_str()))
        .bind(g.table.as_ref().is_some_and(|t| t.rated))
        .bind(g.table.as_ref().map(|t| millis(t.control.initial())))
        .bind(g.table.as_ref().map(|t| millis(t.control.increment())))
        .execute(e)
        .await?;
    Ok(())
}

const GAME_COLUMNS: &str = "id, kind, white_player, black_player, level, rules, variant, position, \
     initial_fen, status, result, reason, plies, version, created_at, updated_at, table_code, \
     CAST(rated AS INTEGER), initial_ms, increment_ms";

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The table part of a game row, from its last four columns.
fn table_game_from_row(r: &AnyRow) -> Result<Option<TableGame>, StoreError> {
    let Some(code) = r.try_get::<Option<String>, _>(16)? else {
        return Ok(None);
    };
    let (initial, increment): (Option<i64>, Option<i64>) = (r.try_get(18)?, r.try_get(19)?);
    let secs = |ms: Option<i64>| ms.and_then(|m| u32::try_from(m / 1000).ok()).unwrap_or(0);
    let control = game::TimeControl::table(secs(initial) / 60, secs(increment)).map_err(|e| {
        StoreError::Corrupt {
            table: "games",
            detail: format!("table game time control: {e}"),
        }
    })?;
    Ok(Some(TableGame {
        code,
        rated: r.try_get::<i64, _>(17)? != 0,
        control,
    }))
}

pub(crate) fn version_to_db(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn move_from_row(r: &AnyRow) -> Result<MoveRow, StoreError> {
    Ok(MoveRow {
        ply: u32::try_from(r.try_get::<i64, _>(0)?).map_err(|_| StoreError::Corrupt {
            table: "moves",
            detail: "bad ply".into(),
        })?,
        uci: r.try_get(1)?,
        san: r.try_get(2)?,
        clock_ms: r.try_get(3)?,
        draw_offer: get_bool(r, 4)?,
    })
}

fn game_from_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let corrupt = |detail: &str| StoreError::Corrupt {
        table: "games",
        detail: detail.to_owned(),
    };
    let position: Option<i64> = r.try_get(7)?;
    let level: Option<String> = r.try_get(4)?;
    let reason: Option<String> = r.try_get(11)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        kind: parsed("games", "kind", &r.try_get::<String, _>(1)?)?,
        white_player: r.try_get(2)?,
        black_player: r.try_get(3)?,
        level: level.map(|l| parsed("games", "level", &l)).transpose()?,
        rules: parsed("games", "rules", &r.try_get::<String, _>(5)?)?,
        variant: parsed("games", "variant", &r.try_get::<String, _>(6)?)?,
        position: position
            .map(u32::try_from)
            .transpose()
            .map_err(|_| corrupt("bad position"))?,
        initial_fen: r.try_get(8)?,
        summary: GameSummary {
            status: parsed("games", "status", &r.try_get::<String, _>(9)?)?,
            result: parsed("games", "result", &r.try_get::<String, _>(10)?)?,
            reason: reason.map(|x| parsed("games", "reason", &x)).transpose()?,
            plies: u32::try_from(r.try_get::<i64, _>(12)?).map_err(|_| corrupt("bad plies"))?,
            version: u64::try_from(r.try_get::<i64, _>(13)?).map_err(|_| corrupt("bad version"))?,
            updated_at: r.try_get(15)?,
        },
        created_at: r.try_get(14)?,
        table: table_game_from_row(r)?,
    })
}
