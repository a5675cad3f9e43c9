//! The trainer's writes: serving puzzles (the served marks, the walk's
//! cursor, the player noted as seen) and recording a round (rated inside
//! its transaction), each a [`PuzzleWrite`] applied on a connection inside
//! the caller's transaction — the group-commit writer's on SQLite
//! (`puzzle_writer`), a transaction of its own on PostgreSQL.

use std::panic::AssertUnwindSafe;

use sqlx::AnyConnection;
use sqlx::Row as _;

use crate::error::StoreError;
use crate::player::touch_player_in;
use crate::puzzle_rows::{Glicko, PuzzleRating, Rated, Recorded};

/// The rating rule of a round, applied inside its transaction.
pub(crate) type RateFn = Box<dyn FnOnce(Option<PuzzleRating>, Glicko) -> Option<Rated> + Send>;

/// One write of the trainer.
pub(crate) enum PuzzleWrite {
    /// Marks `ids` served to `player` and moves their walk through
    /// `angle` to `cursor`.
    Serve {
        player: String,
        angle: String,
        ids: Vec<String>,
        cursor: (i64, String),
        now: i64,
    },
    /// Marks puzzle `id` served to `player`.
    Mark {
        player: String,
        id: String,
        now: i64,
    },
    /// Records `player`'s round of `puzzle`.
    Round {
        player: String,
        puzzle: String,
        angle: String,
        win: bool,
        now: i64,
        rate: RateFn,
    },
}

/// What a write did.
#[derive(Debug)]
pub(crate) enum Written {
    /// Puzzles marked served.
    Served,
    /// A round: what [`record_round_in`] answered.
    Round(Option<Recorded>),
}

impl PuzzleWrite {
    /// Applies the write on `conn`, inside the caller's transaction.
    pub(crate) async fn apply(self, conn: &mut AnyConnection) -> Result<Written, StoreError> {
        match self {
            PuzzleWrite::Serve {
                player,
                angle,
                ids,
                cursor,
                now,
            } => {
                serve_in(conn, &player, &angle, &ids, (cursor.0, &cursor.1), now).await?;
                Ok(Written::Served)
            }
            PuzzleWrite::Mark { player, id, now } => {
                mark_served_in(conn, &player, &id, now).await?;
                Ok(Written::Served)
            }
            PuzzleWrite::Round {
                player,
                puzzle,
                angle,
                win,
                now,
                rate,
            } => {
                // A rule that panics fails its own write, not the writer.
                let rate = |before, glicko| {
                    std::panic::catch_unwind(AssertUnwindSafe(|| rate(before, glicko))).map_err(
                        |_| {
                            StoreError::Db(sqlx::Error::Protocol("the rating rule panicked".into()))
                        },
                    )
                };
                let recorded =
                    record_round_in(conn, &player, &puzzle, &angle, win, now, rate).await?;
                Ok(Written::Round(recorded))
            }
        }
    }
}

/// The statement marking one puzzle served.
const MARK_SERVED: &str = "INSERT INTO puzzle_served (player_id, puzzle_id, served_at) \
     VALUES ($1, $2, $3) ON CONFLICT (player_id, puzzle_id) DO UPDATE SET served_at = $3";

/// [`crate::Store::serve_puzzles`] on `conn`, inside the caller's transaction.
async fn serve_in(
    conn: &mut AnyConnection,
    player: &str,
    angle: &str,
    ids: &[String],
    cursor: (i64, &str),
    now: i64,
) -> Result<(), StoreError> {
    touch_player_in(conn, player, now).await?;
    for id in ids {
        sqlx::query(MARK_SERVED)
            .bind(player)
            .bind(id.as_str())
            .bind(now)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query(
        "INSERT INTO puzzle_cursors (player_id, angle, rating, puzzle_id) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (player_id, angle) DO UPDATE SET rating = $3, puzzle_id = $4",
    )
    .bind(player)
    .bind(angle)
    .bind(cursor.0)
    .bind(cursor.1)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// [`crate::Store::mark_served`] on `conn`, inside the caller's transaction.
async fn mark_served_in(
    conn: &mut AnyConnection,
    player: &str,
    id: &str,
    now: i64,
) -> Result<(), StoreError> {
    touch_player_in(conn, player, now).await?;
    sqlx::query(MARK_SERVED)
        .bind(player)
        .bind(id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// [`crate::Store::record_puzzle_round`] on `conn`, inside the caller's
/// transaction; `rate` may fail the round.
async fn record_round_in(
    conn: &mut AnyConnection,
    player: &str,
    puzzle: &str,
    angle: &str,
    win: bool,
    now: i64,
    rate: impl FnOnce(Option<PuzzleRating>, Glicko) -> Result<Option<Rated>, StoreError>,
) -> Result<Option<Recorded>, StoreError> {
    // The player's row is locked first (a no-op write: portable SQL, a
    // row lock on PostgreSQL), so that two rounds of one player at once
    // rate one after the other instead of both from the same rating.
    sqlx::query("UPDATE players SET last_seen_at = last_seen_at WHERE id = $1")
        .bind(player)
        .execute(&mut *conn)
        .await?;
    let served = sqlx::query("SELECT 1 FROM puzzle_served WHERE player_id = $1 AND puzzle_id = $2")
        .bind(player)
        .bind(puzzle)
        .fetch_optional(&mut *conn)
        .await?
        .is_some();
    if !served {
        return Ok(None);
    }
    let replay = sqlx::query(
        "UPDATE puzzle_rounds SET updated_at = $3 WHERE player_id = $1 AND puzzle_id = $2",
    )
    .bind(player)
    .bind(puzzle)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1;
    if replay {
        return Ok(Some(Recorded::Replay));
    }
    // Counting the play locks the puzzle's row before its rating is read,
    // for the same reason (always after the player's: no deadlock).
    sqlx::query("UPDATE puzzles SET plays = plays + 1 WHERE id = $1")
        .bind(puzzle)
        .execute(&mut *conn)
        .await?;
    let before = player_rating_in(conn, player).await?;
    let puzzle_glicko = puzzle_glicko_in(conn, puzzle).await?;
    let change = match rate(before, puzzle_glicko)? {
        Some(r) => {
            apply_rating(conn, player, before, r, puzzle, now).await?;
            Some((r.player_before, r.player.rating))
        }
        None => None,
    };
    insert_round(conn, player, puzzle, angle, win, change, now).await?;
    Ok(Some(Recorded::First(change)))
}

pub(crate) async fn player_rating_in(
    conn: &mut AnyConnection,
    player: &str,
) -> Result<Option<PuzzleRating>, StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM puzzle_ratings WHERE player_id = $1",
    )
    .bind(player)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        Ok(PuzzleRating {
            glicko: Glicko {
                rating: r.try_get(0)?,
                deviation: r.try_get(1)?,
                volatility: r.try_get(2)?,
            },
            games: r.try_get(3)?,
        })
    })
    .transpose()
}

async fn puzzle_glicko_in(conn: &mut AnyConnection, puzzle: &str) -> Result<Glicko, StoreError> {
    let r = sqlx::query("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
        .bind(puzzle)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Glicko {
        rating: r.try_get(0)?,
        deviation: r.try_get(1)?,
        volatility: r.try_get(2)?,
    })
}

/// Inserts a first round, with its rating change when it was rated.
///
/// A rated and an unrated round are two statements: through sqlx's `Any`
/// driver a missing `f64` is bound to PostgreSQL as a `real`, and the
/// statement then prepared and cached on the connection would refuse the
/// next round's `double precision` ("incorrect binary data format").
async fn insert_round(
    conn: &mut AnyConnection,
    player: &str,
    puzzle: &str,
    angle: &str,
    win: bool,
    change: Option<(f64, f64)>,
    now: i64,
) -> Result<(), StoreError> {
    let q = match change {
        Some((before, after)) => sqlx::query(
            "INSERT INTO puzzle_rounds (player_id, puzzle_id, angle, win, rated, rating_before, \
             rating_after, created_at, updated_at) VALUES ($1, $2, $3, $4, TRUE, $5, $6, $7, $7)",
        )
        .bind(player)
        .bind(puzzle)
        .bind(angle)
        .bind(win)
        .bind(before)
        .bind(after),
        None => sqlx::query(
            "INSERT INTO puzzle_rounds (player_id, puzzle_id, angle, win, rated, rating_before, \
             rating_after, created_at, updated_at) VALUES ($1, $2, $3, $4, FALSE, NULL, NULL, $5, $5)",
        )
        .bind(player)
        .bind(puzzle)
        .bind(angle)
        .bind(win),
    };
    q.bind(now).execute(conn).await?;
    Ok(())
}

async fn apply_rating(
    conn: &mut AnyConnection,
    player: &str,
    before: Option<PuzzleRating>,
    rated: Rated,
    puzzle: &str,
    now: i64,
) -> Result<(), StoreError> {
    let games = before.map_or(0, |b| b.games) + 1;
    let g = rated.player;
    sqlx::query(
        "INSERT INTO puzzle_ratings (player_id, rating, deviation, volatility, games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id) DO UPDATE SET \
         rating = $2, deviation = $3, volatility = $4, games = $5, updated_at = $6",
    )
    .bind(player)
    .bind(g.rating)
    .bind(g.deviation)
    .bind(g.volatility)
    .bind(games)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if let Some(p) = rated.puzzle {
        sqlx::query(
            "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4",
        )
        .bind(p.rating)
        .bind(p.deviation)
        .bind(p.volatility)
        .bind(puzzle)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
