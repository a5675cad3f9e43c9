//! Durable storage: players, games and moves in SQL.
//!
//! This module owns every SQL statement of the server. The schema lives in
//! `migrations/` (embedded in the binary and applied at start) and is written
//! in SQL that SQLite and PostgreSQL both accept, and the statements use
//! numbered placeholders (`$1`), which both databases read the same way, so
//! another backend only replaces the pool type here. Every write that changes a game happens in one
//! transaction that also bumps the game's version: a move is either stored
//! with its new version or not at all.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// A failure of the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL could not be understood.
    #[error("invalid database URL {url:?}: {source}")]
    Url {
        /// The refused URL.
        url: String,
        /// What the driver said.
        source: sqlx::Error,
    },
    /// A query or connection failed.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// Applying the embedded migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row holds a value the server does not understand.
    #[error("corrupt row in {table}: {detail}")]
    Corrupt {
        /// Table of the row.
        table: &'static str,
        /// What is wrong.
        detail: String,
    },
}

/// A game as stored in the `games` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Public game id.
    pub id: String,
    /// `computer` (games against the engine).
    pub kind: String,
    /// Player id of White (`None` for the computer).
    pub white_player: Option<String>,
    /// Player id of Black (`None` for the computer).
    pub black_player: Option<String>,
    /// Computer level name, for computer games.
    pub level: Option<String>,
    /// Rule set name (`plyyard`, `fide`).
    pub rules: String,
    /// Variant name (`standard`, `chess960`).
    pub variant: String,
    /// Chess960 position number.
    pub position: Option<u32>,
    /// FEN of the starting position.
    pub initial_fen: String,
    /// Summary fields, kept in step with the moves.
    pub summary: GameSummary,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
}

/// The fields of a game that change as it is played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// `ongoing` or `ended`.
    pub status: String,
    /// PGN result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended (`checkmate`, `resignation` …).
    pub reason: Option<String>,
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

/// The storage handle; cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl Store {
    /// Opens (creating if needed) the database at `url` and applies the
    /// embedded migrations.
    ///
    /// SQLite runs in WAL mode with `synchronous=FULL`, so a committed
    /// transaction survives a killed process and a power cut.
    ///
    /// # Errors
    /// A bad URL, an unreachable or unwritable database, or a failed migration.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let options = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)
        } else if let Some((scheme, _)) = url.split_once("://") {
            Err(sqlx::Error::Configuration(
                format!(
                    "unsupported database {scheme:?}: this build stores in SQLite (sqlite://FILE)"
                )
                .into(),
            ))
        } else {
            // A plain file path.
            Ok(SqliteConnectOptions::new().filename(url))
        }
        .map_err(|source| StoreError::Url {
            url: url.to_owned(),
            source,
        })?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool })
    }

    /// Closes every connection (checkpointing the WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Reads a value from the `settings` table.
    ///
    /// # Errors
    /// A database failure.
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get::<String, _>(0)))
    }

    /// Stores `value` under `key` unless the key already has a value; returns
    /// the value in force afterwards (so concurrent starts agree).
    ///
    /// # Errors
    /// A database failure.
    pub async fn setting_or_insert(&self, key: &str, value: &str) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        self.setting(key).await?.ok_or(StoreError::Corrupt {
            table: "settings",
            detail: format!("{key} vanished after insert"),
        })
    }

    /// Records that an anonymous player exists (first use) or was seen again.
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch_player(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO players (id, created_at, last_seen_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at",
        )
        .bind(id)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Inserts a new game with no moves.
    ///
    /// # Errors
    /// A database failure (including a duplicate id).
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, kind, white_player, black_player, level, rules, variant, \
             position, initial_fen, status, result, reason, plies, version, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(&g.id)
        .bind(&g.kind)
        .bind(&g.white_player)
        .bind(&g.black_player)
        .bind(&g.level)
        .bind(&g.rules)
        .bind(&g.variant)
        .bind(g.position.map(i64::from))
        .bind(&g.initial_fen)
        .bind(&g.summary.status)
        .bind(&g.summary.result)
        .bind(&g.summary.reason)
        .bind(i64::from(g.summary.plies))
        .bind(version_to_db(g.summary.version))
        .bind(g.created_at)
        .bind(g.summary.updated_at)
        .execute(&self.pool)
        .await?;
        Ok(())
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
            "SELECT ply, uci, san, clock_ms, draw_offer FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(MoveRow {
                ply: u32::try_from(r.try_get::<i64, _>(0)?).map_err(|_| StoreError::Corrupt {
                    table: "moves",
                    detail: "negative ply".into(),
                })?,
                uci: r.try_get(1)?,
                san: r.try_get(2)?,
                clock_ms: r.try_get(3)?,
                draw_offer: r.try_get::<i64, _>(4)? != 0,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some((game, moves)))
    }

    /// Appends moves and updates the game's summary in one transaction.
    ///
    /// # Errors
    /// A database failure; nothing is written then.
    pub async fn append_moves(
        &self,
        game_id: &str,
        moves: &[MoveRow],
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for m in moves {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, uci, san, clock_ms, draw_offer, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(game_id)
            .bind(i64::from(m.ply))
            .bind(&m.uci)
            .bind(&m.san)
            .bind(m.clock_ms)
            .bind(i64::from(m.draw_offer))
            .bind(summary.updated_at)
            .execute(&mut *tx)
            .await?;
        }
        update_summary(&mut tx, game_id, summary).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes the moves after ply `keep` and updates the summary, in one transaction.
    ///
    /// # Errors
    /// A database failure; nothing is written then.
    pub async fn truncate_moves(
        &self,
        game_id: &str,
        keep: u32,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
            .bind(game_id)
            .bind(i64::from(keep))
            .execute(&mut *tx)
            .await?;
        update_summary(&mut tx, game_id, summary).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Updates only the summary (a resignation, for example).
    ///
    /// # Errors
    /// A database failure.
    pub async fn update_game(
        &self,
        game_id: &str,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        update_summary(&mut tx, game_id, summary).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The games of a player, most recently changed first.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn recent_games(&self, player: &str, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE white_player = $1 OR black_player = $2 \
             ORDER BY updated_at DESC, created_at DESC LIMIT $3"
        ))
        .bind(player)
        .bind(player)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(game_from_row)
        .collect()
    }
}

const GAME_COLUMNS: &str = "id, kind, white_player, black_player, level, rules, variant, position, \
     initial_fen, status, result, reason, plies, version, created_at, updated_at";

fn version_to_db(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

async fn update_summary(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    game_id: &str,
    s: &GameSummary,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET status = $1, result = $2, reason = $3, plies = $4, version = $5, \
         updated_at = $6 WHERE id = $7",
    )
    .bind(&s.status)
    .bind(&s.result)
    .bind(&s.reason)
    .bind(i64::from(s.plies))
    .bind(version_to_db(s.version))
    .bind(s.updated_at)
    .bind(game_id)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Corrupt {
            table: "games",
            detail: format!("game {game_id} not found for update"),
        });
    }
    Ok(())
}

fn game_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<GameRow, StoreError> {
    let corrupt = |detail: &str| StoreError::Corrupt {
        table: "games",
        detail: detail.to_owned(),
    };
    let position: Option<i64> = r.try_get(7)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        kind: r.try_get(1)?,
        white_player: r.try_get(2)?,
        black_player: r.try_get(3)?,
        level: r.try_get(4)?,
        rules: r.try_get(5)?,
        variant: r.try_get(6)?,
        position: position
            .map(u32::try_from)
            .transpose()
            .map_err(|_| corrupt("bad position"))?,
        initial_fen: r.try_get(8)?,
        summary: GameSummary {
            status: r.try_get(9)?,
            result: r.try_get(10)?,
            reason: r.try_get(11)?,
            plies: u32::try_from(r.try_get::<i64, _>(12)?).map_err(|_| corrupt("bad plies"))?,
            version: u64::try_from(r.try_get::<i64, _>(13)?).map_err(|_| corrupt("bad version"))?,
            updated_at: r.try_get(15)?,
        },
        created_at: r.try_get(14)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: &str, player: &str, at: i64) -> GameRow {
        GameRow {
            id: id.into(),
            kind: "computer".into(),
            white_player: Some(player.into()),
            black_player: None,
            level: Some("easy".into()),
            rules: "plyyard".into(),
            variant: "standard".into(),
            position: None,
            initial_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            summary: GameSummary {
                status: "ongoing".into(),
                result: "*".into(),
                reason: None,
                plies: 0,
                version: 0,
                updated_at: at,
            },
            created_at: at,
        }
    }

    async fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let store = Store::open(&url).await.unwrap();
        (dir, store)
    }

    fn mv(ply: u32, uci: &str, san: &str) -> MoveRow {
        MoveRow {
            ply,
            uci: uci.into(),
            san: san.into(),
            clock_ms: None,
            draw_offer: false,
        }
    }

    #[tokio::test]
    async fn urls_and_plain_paths_open_and_other_databases_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.db");
        Store::open(plain.to_str().unwrap()).await.unwrap();
        assert!(plain.exists());
        let err = Store::open("postgres://localhost/plyyard")
            .await
            .unwrap_err();
        assert!(err.to_string().contains("SQLite"), "{err}");
        let missing_dir = dir.path().join("no/such/dir/x.db");
        assert!(
            Store::open(&format!("sqlite://{}", missing_dir.display()))
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn games_and_moves_round_trip() {
        let (_dir, store) = temp_store().await;
        store.touch_player("p1", 1).await.unwrap();
        let g = sample("g1", "p1", 10);
        store.insert_game(&g).await.unwrap();
        let mut s = g.summary.clone();
        s.plies = 2;
        s.version = 1;
        s.updated_at = 11;
        store
            .append_moves("g1", &[mv(1, "e2e4", "e4"), mv(2, "e7e5", "e5")], &s)
            .await
            .unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(back.summary, s);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[1].san, "e5");

        s.plies = 0;
        s.version = 2;
        store.truncate_moves("g1", 0, &s).await.unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert!(moves.is_empty());
        assert_eq!(back.summary.version, 2);
        assert!(store.load_game("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_failed_transaction_writes_nothing() {
        let (_dir, store) = temp_store().await;
        store.touch_player("p1", 1).await.unwrap();
        store.insert_game(&sample("g1", "p1", 10)).await.unwrap();
        let mut s = sample("g1", "p1", 10).summary;
        s.plies = 2;
        s.version = 1;
        // The second row repeats ply 1: the primary key refuses it and the
        // first row must not survive either.
        let err = store
            .append_moves("g1", &[mv(1, "e2e4", "e4"), mv(1, "d2d4", "d4")], &s)
            .await;
        assert!(err.is_err());
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert!(moves.is_empty());
        assert_eq!(back.summary.version, 0);
        // Updating a game that does not exist is an error, not a silent no-op.
        assert!(store.update_game("missing", &s).await.is_err());
    }

    #[tokio::test]
    async fn recent_games_are_newest_first_and_settings_stick() {
        let (_dir, store) = temp_store().await;
        store.touch_player("p1", 1).await.unwrap();
        store.touch_player("p2", 1).await.unwrap();
        store.insert_game(&sample("a", "p1", 10)).await.unwrap();
        store.insert_game(&sample("b", "p1", 30)).await.unwrap();
        store.insert_game(&sample("c", "p2", 20)).await.unwrap();
        let ids: Vec<_> = store
            .recent_games("p1", 50)
            .await
            .unwrap()
            .into_iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, ["b", "a"]);
        assert_eq!(store.setting_or_insert("k", "one").await.unwrap(), "one");
        assert_eq!(store.setting_or_insert("k", "two").await.unwrap(), "one");
    }
}
