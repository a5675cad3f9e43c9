//! Games and their moves: reading them, and the writes that are not the
//! live-game writer's.

use std::time::Duration;

use plyyard_game::Reason;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::{Store, get_bool, parsed};
use crate::error::StoreError;
use crate::rows::{GameRow, GameSummary, MoveRow, TableGame, version_to_db};
use crate::writer;

/// What a live game's write expects to find: the game still at `version`
/// and, in a cluster, still owned at `epoch` (see `leases.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    /// The game's version before the change.
    pub version: u64,
    /// The lease's fencing epoch; `None` for a node running alone.
    pub epoch: Option<i64>,
}

impl From<u64> for Fence {
    /// The version alone (a node running alone).
    fn from(version: u64) -> Fence {
        Fence {
            version,
            epoch: None,
        }
    }
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
            "SELECT ply, uci, san, clock_ms, CAST(draw_offer AS INTEGER), CAST(blur AS INTEGER) FROM moves \
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

    /// Inserts a new computer game with no moves and the keys of the client
    /// whose moves its computer answers (see [`Store::set_engine_client`]),
    /// in one transaction: one commit, as a game without them.
    ///
    /// # Errors
    /// A database failure (including a duplicate id); nothing is written
    /// then.
    pub async fn insert_game_with_client(&self, g: &GameRow, keys: &str) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        insert_game_in(&mut *tx, g).await?;
        sqlx::query("UPDATE games SET engine_client = $1 WHERE id = $2")
            .bind(keys)
            .bind(&g.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Keeps `keys` with game `id`: the keys of the client whose moves its
    /// computer answers (JSON of `plyyard-live`), for when it is loaded
    /// again.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_engine_client(&self, id: &str, keys: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET engine_client = $1 WHERE id = $2")
            .bind(keys)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The keys kept by [`Store::set_engine_client`] for game `id`, if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn engine_client(&self, id: &str) -> Result<Option<String>, StoreError> {
        let keys: Option<Option<String>> =
            sqlx::query_scalar("SELECT engine_client FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(keys.flatten())
    }

    /// Appends moves and updates the game's summary in one transaction,
    /// provided the game is still at version `expected` (and, in a cluster,
    /// its lease still at `expected`'s epoch). Writes of several
    /// games share a transaction (see `writer.rs`); this one's effect is
    /// all or nothing all the same.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game moved on; a database failure.
    /// Nothing is written then.
    pub async fn append_moves(
        &self,
        game_id: &str,
        expected: impl Into<Fence>,
        moves: &[MoveRow],
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Append(moves.to_vec());
        let Fence { version, epoch } = expected.into();
        self.writer
            .write(game_id, version, epoch, summary, op)
            .await
    }

    /// Deletes the moves after ply `keep` and updates the summary, in one
    /// transaction, provided the game is still at version `expected`.
    ///
    /// # Errors
    /// As [`Store::append_moves`].
    pub async fn truncate_moves(
        &self,
        game_id: &str,
        expected: impl Into<Fence>,
        keep: u32,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Truncate(keep);
        let Fence { version, epoch } = expected.into();
        self.writer
            .write(game_id, version, epoch, summary, op)
            .await
    }

    /// Updates only the summary (a resignation, for example), provided the
    /// game is still at version `expected`.
    ///
    /// # Errors
    /// As [`Store::append_moves`].
    pub async fn update_game(
        &self,
        game_id: &str,
        expected: impl Into<Fence>,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::Summary;
        let Fence { version, epoch } = expected.into();
        self.writer
            .write(game_id, version, epoch, summary, op)
            .await
    }

    /// Marks the move at `ply` as carrying a pending draw offer (`offer`)
    /// or not (the offer was declined) and updates the summary, in one
    /// transaction, provided the game is still at version `expected`.
    ///
    /// # Errors
    /// As [`Store::append_moves`]; [`StoreError::Conflict`] also if the
    /// game has no move at `ply`.
    pub async fn mark_draw_offer(
        &self,
        game_id: &str,
        expected: impl Into<Fence>,
        ply: u32,
        offer: bool,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let op = writer::Op::DrawOffer { ply, offer };
        let Fence { version, epoch } = expected.into();
        self.writer
            .write(game_id, version, epoch, summary, op)
            .await
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

    /// Games in progress on the whole site (played here, not imported)
    /// that changed at or after `active_since` (Unix ms), most recently
    /// changed first, at most `limit`: what TV chooses from.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn games_in_progress(
        &self,
        active_since: i64,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE status = 'ongoing' AND kind <> 'imported' AND updated_at >= $1 \
             ORDER BY updated_at DESC, id LIMIT $2"
        ))
        .bind(active_since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_from_row)
        .collect()
    }

    /// A player's ongoing games, most recently changed first, at most
    /// `limit`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn ongoing_games(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games \
             WHERE (white_player = $1 OR black_player = $1) AND status = 'ongoing' \
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
}

/// Inserts a new game with no moves, through `e` (the pool or a
/// transaction).
pub async fn insert_game_in<'e, E>(e: E, g: &GameRow) -> Result<(), StoreError>
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
        .bind(g.level.map(plyyard_engine::Level::as_str))
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
        .bind(g.control().map(|c| millis(c.initial())))
        .bind(g.control().map(|c| millis(c.increment())))
        .execute(e)
        .await?;
    Ok(())
}

pub(crate) const GAME_COLUMNS: &str = "id, kind, white_player, black_player, level, rules, variant, position, \
     initial_fen, status, result, reason, plies, version, created_at, updated_at, table_code, \
     CAST(rated AS INTEGER), initial_ms, increment_ms";

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The time control stored in a game row's last two columns, if any.
fn control_from_row(r: &AnyRow) -> Result<Option<plyyard_game::TimeControl>, StoreError> {
    let (initial, increment): (Option<i64>, Option<i64>) = (r.try_get(18)?, r.try_get(19)?);
    let Some(initial) = initial else {
        return Ok(None);
    };
    let secs = |ms: i64| u32::try_from(ms / 1000).unwrap_or(0);
    plyyard_game::TimeControl::from_secs(secs(initial), increment.map_or(0, secs))
        .map(Some)
        .map_err(|e| StoreError::Corrupt {
            table: "games",
            detail: format!("time control: {e}"),
        })
}

/// The table part of a game row, from its last four columns, and the
/// clock of a game against the computer (no table, a time control).
fn table_game_from_row(
    r: &AnyRow,
) -> Result<(Option<TableGame>, Option<plyyard_game::TimeControl>), StoreError> {
    let control = control_from_row(r)?;
    let Some(code) = r.try_get::<Option<String>, _>(16)? else {
        return Ok((None, control));
    };
    let control = control.ok_or_else(|| StoreError::Corrupt {
        table: "games",
        detail: "a table game without a time control".into(),
    })?;
    let table = TableGame {
        code,
        rated: r.try_get::<i64, _>(17)? != 0,
        control,
    };
    Ok((Some(table), None))
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
        blur: get_bool(r, 5)?,
    })
}

pub(crate) fn game_from_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let corrupt = |detail: &str| StoreError::Corrupt {
        table: "games",
        detail: detail.to_owned(),
    };
    let position: Option<i64> = r.try_get(7)?;
    let level: Option<String> = r.try_get(4)?;
    let reason: Option<String> = r.try_get(11)?;
    let (table, clock) = table_game_from_row(r)?;
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
        table,
        clock,
    })
}
