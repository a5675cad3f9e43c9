//! Puzzles: the SQL of `puzzles` and their `puzzle_angles` index, each
//! player's puzzle rating, walk cursors, served puzzles and rounds.
//!
//! The store knows no puzzle rules: the trainer gives it rows, angle keys
//! and, when a round is recorded, the rating rule to apply inside the
//! round's transaction (so that two solves at once each rate from the
//! other's result).

use std::collections::HashSet;

use sqlx::Row;
use sqlx::any::AnyRow;

use serde::Serialize;

use crate::backend::Backend;
use crate::db::{Store, get_bool};
use crate::error::StoreError;
use crate::puzzle_rows::{Glicko, PuzzleRating, Rated, Recorded};
use crate::puzzle_writes::{PuzzleWrite, Written, player_rating_in};

/// A puzzle as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PuzzleRow {
    /// Its id (lichess's, when imported from lichess).
    pub id: String,
    /// The position before the opponent's move (FEN).
    pub fen: String,
    /// The opponent's move, then the solution: UCI, space-separated.
    pub moves: String,
    /// The ply of the game at which the solver is to move, as lichess's
    /// API counts it.
    pub initial_ply: i64,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Players' votes, −100 to 100.
    pub popularity: i64,
    /// Times played.
    pub plays: i64,
    /// Theme keys, space-separated.
    pub themes: String,
    /// The game it comes from (may be empty).
    pub game_url: String,
    /// Opening keys, space-separated.
    pub opening_tags: String,
    /// `lichess` or `plyyard`.
    pub source: String,
}

/// A puzzle to store, with the angles it is chosen by.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPuzzle {
    /// The puzzle.
    pub row: PuzzleRow,
    /// Its angle keys (`mix`, its themes, its openings).
    pub angles: Vec<String>,
}

/// One round as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRoundRow {
    /// The puzzle.
    pub puzzle_id: String,
    /// The angle it was played under.
    pub angle: String,
    /// Solved at the first attempt.
    pub win: bool,
    /// It changed the player's rating.
    pub rated: bool,
    /// The player's rating before, when rated.
    pub rating_before: Option<f64>,
    /// The player's rating after, when rated.
    pub rating_after: Option<f64>,
    /// First played, Unix milliseconds.
    pub created_at: i64,
    /// Last played, Unix milliseconds.
    pub updated_at: i64,
    /// The puzzle's themes, space-separated.
    pub themes: String,
    /// The puzzle's rating now.
    pub puzzle_rating: f64,
}

const PUZZLE_COLUMNS: &str = "id, fen, moves, initial_ply, rating, deviation, volatility, popularity, \
     plays, themes, game_url, opening_tags, source";

fn puzzle_from_row(r: &AnyRow) -> Result<PuzzleRow, StoreError> {
    Ok(PuzzleRow {
        id: r.try_get(0)?,
        fen: r.try_get(1)?,
        moves: r.try_get(2)?,
        initial_ply: r.try_get(3)?,
        rating: r.try_get(4)?,
        deviation: r.try_get(5)?,
        volatility: r.try_get(6)?,
        popularity: r.try_get(7)?,
        plays: r.try_get(8)?,
        themes: r.try_get(9)?,
        game_url: r.try_get(10)?,
        opening_tags: r.try_get(11)?,
        source: r.try_get(12)?,
    })
}

/// The angle index's rating of a puzzle (whole points).
pub fn angle_rating(rating: f64) -> i64 {
    rating.round() as i64
}

/// SQLite: the batch's puzzles from one JSON array of objects (`->>`
/// reads a field as an SQL value); the ids actually inserted come back.
const SQLITE_INSERT_PUZZLES: &str = "INSERT INTO puzzles (id, fen, moves, initial_ply, rating, \
     deviation, volatility, popularity, plays, themes, game_url, opening_tags, source) \
     SELECT value ->> 'id', value ->> 'fen', value ->> 'moves', value ->> 'initial_ply', \
     value ->> 'rating', value ->> 'deviation', value ->> 'volatility', value ->> 'popularity', \
     value ->> 'plays', value ->> 'themes', value ->> 'game_url', value ->> 'opening_tags', \
     value ->> 'source' FROM json_each($1) WHERE true ON CONFLICT (id) DO NOTHING RETURNING id";

/// SQLite: the angle index entries of the puzzles just inserted.
const SQLITE_INSERT_ANGLES: &str = "INSERT INTO puzzle_angles (angle, rating, puzzle_id) \
     SELECT value ->> 'a', value ->> 'r', value ->> 'p' FROM json_each($1) WHERE true \
     ON CONFLICT (angle, rating, puzzle_id) DO NOTHING";

/// PostgreSQL: as [`SQLITE_INSERT_PUZZLES`], through `json_to_recordset`.
const PG_INSERT_PUZZLES: &str = "INSERT INTO puzzles (id, fen, moves, initial_ply, rating, \
     deviation, volatility, popularity, plays, themes, game_url, opening_tags, source) \
     SELECT * FROM json_to_recordset(CAST($1 AS json)) AS x(id TEXT, fen TEXT, moves TEXT, \
     initial_ply BIGINT, rating DOUBLE PRECISION, deviation DOUBLE PRECISION, \
     volatility DOUBLE PRECISION, popularity BIGINT, plays BIGINT, themes TEXT, \
     game_url TEXT, opening_tags TEXT, source TEXT) \
     ON CONFLICT (id) DO NOTHING RETURNING id";

/// PostgreSQL: as [`SQLITE_INSERT_ANGLES`].
const PG_INSERT_ANGLES: &str = "INSERT INTO puzzle_angles (angle, rating, puzzle_id) \
     SELECT a, r, p FROM json_to_recordset(CAST($1 AS json)) AS x(a TEXT, r BIGINT, p TEXT) \
     ON CONFLICT (angle, rating, puzzle_id) DO NOTHING";

/// One angle index entry as the insert statements read it.
#[derive(Serialize)]
struct AngleEntry<'a> {
    a: &'a str,
    r: i64,
    p: &'a str,
}

/// The batch as one JSON array, each id once (its first row), in id
/// order: two batches written at once that share ids then take their
/// locks in the same order (no deadlock), and the key's pages are
/// written in order.
fn puzzles_json(puzzles: &[NewPuzzle]) -> Result<String, StoreError> {
    let mut seen = HashSet::with_capacity(puzzles.len());
    let mut rows: Vec<&PuzzleRow> = puzzles
        .iter()
        .map(|p| &p.row)
        .filter(|r| seen.insert(r.id.as_str()))
        .collect();
    rows.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    serde_json::to_string(&rows).map_err(json_failed)
}

/// The angle entries of the puzzles in `added` (of each id, its first
/// row), sorted as the index is, so that its pages are written in order.
fn angles_json(puzzles: &[NewPuzzle], added: &HashSet<String>) -> Result<String, StoreError> {
    let mut done = HashSet::with_capacity(added.len());
    let mut entries: Vec<AngleEntry<'_>> = puzzles
        .iter()
        .filter(|p| added.contains(&p.row.id) && done.insert(p.row.id.as_str()))
        .flat_map(|p| {
            let r = angle_rating(p.row.rating);
            p.angles.iter().map(move |a| AngleEntry {
                a: a.as_str(),
                r,
                p: p.row.id.as_str(),
            })
        })
        .collect();
    entries.sort_unstable_by(|x, y| (x.a, x.r, x.p).cmp(&(y.a, y.r, y.p)));
    entries.dedup_by(|x, y| (x.a, x.r, x.p) == (y.a, y.r, y.p));
    serde_json::to_string(&entries).map_err(json_failed)
}

fn json_failed(e: serde_json::Error) -> StoreError {
    StoreError::Corrupt {
        table: "puzzles",
        detail: format!("the batch could not be written as JSON: {e}"),
    }
}

impl Store {
    /// Stores puzzles not stored yet (by id; of one id repeated in
    /// `puzzles`, the first) with their angles, in one transaction; the
    /// count of new ones. Puzzles already stored are left as they are, and
    /// so is their angle index, so an import can run again.
    ///
    /// The whole batch travels as one JSON text: two statements (the
    /// puzzles, then the angles of those just inserted) whatever its size,
    /// with no statement per row and no statement text per batch size.
    ///
    /// # Errors
    /// A database failure; the batch is then not stored.
    pub async fn insert_puzzles(&self, puzzles: &[NewPuzzle]) -> Result<u64, StoreError> {
        if puzzles.is_empty() {
            return Ok(0);
        }
        let doc = puzzles_json(puzzles)?;
        let mut tx = self.begin_write().await?;
        let (insert, angles) = match self.backend() {
            Backend::Sqlite => (SQLITE_INSERT_PUZZLES, SQLITE_INSERT_ANGLES),
            Backend::Postgres => (PG_INSERT_PUZZLES, PG_INSERT_ANGLES),
        };
        let rows = sqlx::query(insert).bind(doc).fetch_all(&mut *tx).await?;
        let added: HashSet<String> = rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?;
        if !added.is_empty() {
            let doc = angles_json(puzzles, &added)?;
            sqlx::query(angles).bind(doc).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(added.len() as u64)
    }

    /// The puzzle `id`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(puzzle_from_row).transpose()
    }

    /// How many puzzles are stored.
    ///
    /// # Errors
    /// A database failure.
    pub async fn puzzle_count(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM puzzles")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Up to `limit` puzzles of `angle` after `(rating, id)` in rating
    /// order, rated at most `max_rating`: `(rating, id)` pairs.
    ///
    /// # Errors
    /// A database failure.
    pub async fn angle_walk(
        &self,
        angle: &str,
        after: (i64, &str),
        max_rating: i64,
        limit: u32,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT rating, puzzle_id FROM puzzle_angles \
             WHERE angle = $1 AND (rating, puzzle_id) > ($2, $3) AND rating <= $4 \
             ORDER BY rating, puzzle_id LIMIT $5",
        )
        .bind(angle)
        .bind(after.0)
        .bind(after.1)
        .bind(max_rating)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Where `player`'s walk through `angle` has reached.
    ///
    /// # Errors
    /// A database failure.
    pub async fn puzzle_cursor(
        &self,
        player: &str,
        angle: &str,
    ) -> Result<Option<(i64, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, puzzle_id FROM puzzle_cursors WHERE player_id = $1 AND angle = $2",
        )
        .bind(player)
        .bind(angle)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    /// Marks `ids` served to `player` (noted as seen at `now`) and moves
    /// their walk through `angle` to `cursor`, in one transaction.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn serve_puzzles(
        &self,
        player: &str,
        angle: &str,
        ids: &[String],
        cursor: (i64, &str),
        now: i64,
    ) -> Result<(), StoreError> {
        self.puzzle_write(PuzzleWrite::Serve {
            player: player.to_owned(),
            angle: angle.to_owned(),
            ids: ids.to_vec(),
            cursor: (cursor.0, cursor.1.to_owned()),
            now,
        })
        .await?;
        Ok(())
    }

    /// Marks puzzle `id` served to `player` (asked for by its id; the
    /// player noted as seen at `now`).
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn mark_served(&self, player: &str, id: &str, now: i64) -> Result<(), StoreError> {
        self.puzzle_write(PuzzleWrite::Mark {
            player: player.to_owned(),
            id: id.to_owned(),
            now,
        })
        .await?;
        Ok(())
    }

    /// Applies one trainer write: through the group-commit writer on
    /// SQLite ([`crate::puzzle_writer`]), in a transaction of its own on
    /// PostgreSQL.
    async fn puzzle_write(&self, write: PuzzleWrite) -> Result<Written, StoreError> {
        if let Some(writer) = &self.puzzle_writer {
            return writer.write(write).await;
        }
        let mut tx = self.begin_write().await?;
        let written = write.apply(&mut tx).await?;
        tx.commit().await?;
        Ok(written)
    }

    /// Which of `ids` were served to `player` before.
    ///
    /// # Errors
    /// A database failure.
    pub async fn served_among(
        &self,
        player: &str,
        ids: &[String],
    ) -> Result<HashSet<String>, StoreError> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let marks: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT puzzle_id FROM puzzle_served WHERE player_id = $1 AND puzzle_id IN ({})",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(player);
        for id in ids {
            q = q.bind(id.as_str());
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// `player`'s puzzle rating (`None`: never rated).
    ///
    /// # Errors
    /// A database failure.
    pub async fn puzzle_rating(&self, player: &str) -> Result<Option<PuzzleRating>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        player_rating_in(&mut conn, player).await
    }

    /// Records `player`'s round of `puzzle` (which must have been served
    /// to them). A first attempt is stored and, when `rate` gives new
    /// ratings (from the player's rating before, `None` if never rated,
    /// and the puzzle's), rated: the player's rating and the puzzle's
    /// change in the same transaction. A replay only notes the time.
    /// `None` when the puzzle was never served to the player.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn record_puzzle_round(
        &self,
        player: &str,
        puzzle: &str,
        angle: &str,
        win: bool,
        now: i64,
        rate: impl FnOnce(Option<PuzzleRating>, Glicko) -> Option<Rated> + Send + 'static,
    ) -> Result<Option<Recorded>, StoreError> {
        let written = self
            .puzzle_write(PuzzleWrite::Round {
                player: player.to_owned(),
                puzzle: puzzle.to_owned(),
                angle: angle.to_owned(),
                win,
                now,
                rate: Box::new(rate),
            })
            .await?;
        match written {
            Written::Round(recorded) => Ok(recorded),
            Written::Served => Err(StoreError::Db(sqlx::Error::Protocol(
                "a round's write answered as a serve".into(),
            ))),
        }
    }

    /// `player`'s rounds played since `since` (Unix milliseconds), the
    /// latest first, at most `limit`, with their puzzles' themes.
    ///
    /// # Errors
    /// A database failure.
    pub async fn puzzle_rounds(
        &self,
        player: &str,
        since: i64,
        limit: u32,
    ) -> Result<Vec<PuzzleRoundRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.puzzle_id, r.angle, CAST(r.win AS INTEGER), CAST(r.rated AS INTEGER), \
             r.rating_before, r.rating_after, r.created_at, r.updated_at, p.themes, p.rating \
             FROM puzzle_rounds r JOIN puzzles p ON p.id = r.puzzle_id \
             WHERE r.player_id = $1 AND r.updated_at >= $2 \
             ORDER BY r.updated_at DESC, r.puzzle_id LIMIT $3",
        )
        .bind(player)
        .bind(since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PuzzleRoundRow {
                    puzzle_id: r.try_get(0)?,
                    angle: r.try_get(1)?,
                    win: get_bool(r, 2)?,
                    rated: get_bool(r, 3)?,
                    rating_before: r.try_get(4)?,
                    rating_after: r.try_get(5)?,
                    created_at: r.try_get(6)?,
                    updated_at: r.try_get(7)?,
                    themes: r.try_get(8)?,
                    puzzle_rating: r.try_get(9)?,
                })
            })
            .collect()
    }
}
