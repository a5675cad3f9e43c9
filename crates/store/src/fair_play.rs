//! Owns fair play's table: the verdict on each side of each rated game,
//! and the walk of rated games still to assess (the signals and verdicts
//! are `plyyard_moderation::fairplay`'s, the background task that writes
//! them `plyyard_fairplay`'s).

use plyyard_game::Speed;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::db::{Store, get_bool, parsed};
use crate::error::StoreError;

/// One side of one rated game, as fair play judged it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FairPlayRow {
    /// The game.
    pub game_id: String,
    /// The side: `white` or `black`.
    pub color: String,
    /// The player of that side.
    pub player_id: String,
    /// The game's speed.
    pub speed: Option<Speed>,
    /// The verdict's key; `None` for a game too short to assess.
    pub verdict: Option<String>,
    /// The signals raised, their keys separated by spaces.
    pub signals: String,
    /// The player's average centipawn loss, rounded.
    pub acpl: Option<i64>,
    /// Whether the player won.
    pub won: bool,
    /// When the game was rated, Unix milliseconds.
    pub rated_at: i64,
    /// When it was judged, Unix milliseconds.
    pub created_at: i64,
}

const COLUMNS: &str =
    "game_id, color, player_id, speed, verdict, signals, acpl, won, rated_at, created_at";
/// [`COLUMNS`] as read (a boolean is read as an integer on both databases).
const SELECTED: &str = "game_id, color, player_id, speed, verdict, signals, acpl, \
     CAST(won AS INTEGER), rated_at, created_at";

fn row_of(r: &AnyRow) -> Result<FairPlayRow, StoreError> {
    let speed: Option<String> = r.try_get(3)?;
    Ok(FairPlayRow {
        game_id: r.try_get(0)?,
        color: r.try_get(1)?,
        player_id: r.try_get(2)?,
        speed: speed
            .map(|s| parsed("fair_play", "speed", &s))
            .transpose()?,
        verdict: r.try_get(4)?,
        signals: r.try_get(5)?,
        acpl: r.try_get(6)?,
        won: get_bool(r, 7)?,
        rated_at: r.try_get(8)?,
        created_at: r.try_get(9)?,
    })
}

impl Store {
    /// Rated games rated at `since` or later that have no verdict yet,
    /// the earliest rated first, at most `limit`: `(game, rated at)`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn games_to_assess(
        &self,
        since: i64,
        limit: u32,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT rc.game_id, MIN(rc.created_at) AS rated_at FROM rating_changes rc \
             WHERE rc.created_at >= $1 \
             AND NOT EXISTS (SELECT 1 FROM fair_play f WHERE f.game_id = rc.game_id) \
             GROUP BY rc.game_id ORDER BY rated_at, rc.game_id LIMIT $2",
        )
        .bind(since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// The latest rating time of a judged game (0 when none is).
    ///
    /// # Errors
    /// A database failure.
    pub async fn fair_play_reached(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT MAX(rated_at) FROM fair_play")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<Option<i64>, _>(0)?.unwrap_or(0))
    }

    /// Stores the judged sides of one game, all or none; sides judged
    /// already are kept as they were.
    ///
    /// # Errors
    /// A database failure.
    pub async fn save_fair_play(&self, rows: &[FairPlayRow]) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        for f in rows {
            sqlx::query(&format!(
                "INSERT INTO fair_play ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
                 $10) ON CONFLICT (game_id, color) DO NOTHING"
            ))
            .bind(&f.game_id)
            .bind(&f.color)
            .bind(&f.player_id)
            .bind(f.speed.map(|s| s.to_string()))
            .bind(&f.verdict)
            .bind(&f.signals)
            .bind(f.acpl)
            .bind(f.won)
            .bind(f.rated_at)
            .bind(f.created_at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `player_id`'s judged games, the latest rated first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn fair_play_of(
        &self,
        player_id: &str,
        limit: u32,
    ) -> Result<Vec<FairPlayRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {SELECTED} FROM fair_play WHERE player_id = $1 \
             ORDER BY rated_at DESC, game_id LIMIT $2"
        ))
        .bind(player_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(row_of).collect()
    }

    /// How many rated games `player_id` has played.
    ///
    /// # Errors
    /// A database failure.
    pub async fn rated_game_count(&self, player_id: &str) -> Result<u32, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM rating_changes WHERE player_id = $1")
            .bind(player_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(u32::try_from(row.try_get::<i64, _>(0)?).unwrap_or(u32::MAX))
    }
}
