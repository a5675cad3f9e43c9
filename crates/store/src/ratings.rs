//! Ratings: the SQL of `ratings` (one Glicko-2 rating per player and speed)
//! and `rating_changes` (what each rated game did to its two players).
//!
//! Rating a game is one transaction that locks both players' rows, updates
//! both and records both changes; the primary key of `rating_changes`
//! (game, player) makes a game impossible to rate twice, so applying a
//! result again is a no-op that hands back what the first one stored.
//! The computation itself is in `plyyard_rating`.

use std::collections::HashMap;

use plyyard_game::GameResult;
use sqlx::Row;
use sqlx::any::AnyRow;

use plyyard_rating::{self as rating, Glicko2, Outcome, PlayerRating, Speed};

use crate::db::{Store, parsed};
use crate::error::StoreError;

/// What one rated game did to one of its players.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub player_id: String,
    /// The rating the game was computed from: the stored one, its deviation
    /// widened by the time since the player's previous rated game.
    pub before: Glicko2,
    /// The rating after the game.
    pub after: Glicko2,
    /// Rated games at this speed, this one included.
    pub games: u32,
}

impl RatingChange {
    /// The change as shown (`+8`, `-8`): shown rating after minus shown
    /// rating before.
    pub fn shown_change(&self) -> i64 {
        rating::display_change(self.before.rating, self.after.rating)
    }

    /// Whether the rating is still provisional after the game.
    pub const fn provisional(&self) -> bool {
        rating::provisional(self.games)
    }
}

/// A rated game's effect on both players.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedGame {
    /// The game.
    pub game_id: String,
    /// The speed it was rated at.
    pub speed: Speed,
    /// Its result.
    pub outcome: Outcome,
    /// White's change.
    pub white: RatingChange,
    /// Black's change.
    pub black: RatingChange,
    /// When it was rated, Unix milliseconds.
    pub rated_at: i64,
}

fn games_from_db(table: &'static str, n: i64) -> Result<u32, StoreError> {
    u32::try_from(n).map_err(|_| StoreError::Corrupt {
        table,
        detail: format!("bad games count {n}"),
    })
}

fn rating_from_row(r: &AnyRow) -> Result<PlayerRating, StoreError> {
    Ok(PlayerRating {
        glicko: Glicko2 {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        games: games_from_db("ratings", r.try_get(3)?)?,
        updated_at: r.try_get(4)?,
    })
}

const RATING_COLUMNS: &str = "rating, deviation, volatility, games, updated_at";

const CHANGE_COLUMNS: &str = "player_id, color, speed, result, rating_before, deviation_before, \
     volatility_before, games_before, rating_after, deviation_after, volatility_after, created_at";

/// Reads the two rows of a rated game (any order) into a [`RatedGame`].
fn rated_game_from_rows(game_id: &str, rows: &[AnyRow]) -> Result<RatedGame, StoreError> {
    let corrupt = |detail: String| StoreError::Corrupt {
        table: "rating_changes",
        detail,
    };
    let mut white = None;
    let mut black = None;
    let mut common = None;
    for r in rows {
        let change = RatingChange {
            player_id: r.try_get(0)?,
            before: Glicko2 {
                rating: r.try_get(4)?,
                deviation: r.try_get(5)?,
                volatility: r.try_get(6)?,
            },
            after: Glicko2 {
                rating: r.try_get(8)?,
                deviation: r.try_get(9)?,
                volatility: r.try_get(10)?,
            },
            games: games_from_db("rating_changes", r.try_get::<i64, _>(7)?.saturating_add(1))?,
        };
        let speed: Speed = parsed("rating_changes", "speed", &r.try_get::<String, _>(2)?)?;
        let result: GameResult = parsed("rating_changes", "result", &r.try_get::<String, _>(3)?)?;
        let outcome = Outcome::from_result(result)
            .ok_or_else(|| corrupt(format!("game {game_id} rated with no result")))?;
        let at: i64 = r.try_get(11)?;
        if common.is_some_and(|c| c != (speed, outcome, at)) {
            return Err(corrupt(format!("game {game_id}: its two rows disagree")));
        }
        common = Some((speed, outcome, at));
        let seat = match r.try_get::<String, _>(1)?.as_str() {
            "white" => &mut white,
            "black" => &mut black,
            other => return Err(corrupt(format!("bad colour {other:?}"))),
        };
        if seat.replace(change).is_some() {
            return Err(corrupt(format!("game {game_id}: two rows for one colour")));
        }
    }
    match (white, black, common) {
        (Some(white), Some(black), Some((speed, outcome, rated_at))) => Ok(RatedGame {
            game_id: game_id.to_owned(),
            speed,
            outcome,
            white,
            black,
            rated_at,
        }),
        _ => Err(corrupt(format!(
            "game {game_id} has {} rating rows, not 2",
            rows.len()
        ))),
    }
}

impl Store {
    /// A player's rating at `speed` (the starting rating if they have not
    /// played a rated game at that speed).
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn rating(&self, player: &str, speed: Speed) -> Result<PlayerRating, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND speed = $2"
        ))
        .bind(player)
        .bind(speed.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref()
            .map(rating_from_row)
            .transpose()
            .map(Option::unwrap_or_default)
    }

    /// A player's ratings at every speed, in [`Speed::ALL`] order (the
    /// starting rating where they have not played).
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn ratings(&self, player: &str) -> Result<Vec<(Speed, PlayerRating)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS}, speed FROM ratings WHERE player_id = $1"
        ))
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        let mut all: Vec<(Speed, PlayerRating)> = Speed::ALL
            .into_iter()
            .map(|s| (s, PlayerRating::default()))
            .collect();
        for r in &rows {
            let speed: Speed = parsed("ratings", "speed", &r.try_get::<String, _>(5)?)?;
            if let Some(slot) = all.iter_mut().find(|(s, _)| *s == speed) {
                slot.1 = rating_from_row(r)?;
            }
        }
        Ok(all)
    }

    /// `player`'s rated games per speed they played: `(speed, wins,
    /// draws, losses)`, in [`Speed::ALL`] order.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn results_by_speed(
        &self,
        player: &str,
    ) -> Result<Vec<(Speed, u32, u32, u32)>, StoreError> {
        let rows = sqlx::query(
            "SELECT speed, \
             SUM(CASE WHEN (color = 'white' AND result = '1-0') \
                 OR (color = 'black' AND result = '0-1') THEN 1 ELSE 0 END), \
             SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), COUNT(*) \
             FROM rating_changes WHERE player_id = $1 GROUP BY speed",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        let count = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let speed: Speed = parsed("rating_changes", "speed", &r.try_get::<String, _>(0)?)?;
            let (wins, draws, all) = (
                count(r.try_get(1)?),
                count(r.try_get(2)?),
                count(r.try_get(3)?),
            );
            out.push((speed, wins, draws, all.saturating_sub(wins + draws)));
        }
        out.sort_by_key(|(s, ..)| Speed::ALL.iter().position(|x| x == s));
        Ok(out)
    }

    /// `player`'s rating after each of their rated games, the earliest
    /// first: `(speed, Unix milliseconds, rating)`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn rating_points(&self, player: &str) -> Result<Vec<(Speed, i64, f64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT speed, created_at, rating_after FROM rating_changes WHERE player_id = $1 \
             ORDER BY created_at, game_id",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let speed: Speed = parsed("rating_changes", "speed", &r.try_get::<String, _>(0)?)?;
                Ok((speed, r.try_get(1)?, r.try_get(2)?))
            })
            .collect()
    }

    /// The stored ratings of several players at every speed they have
    /// played, in one query (see [`Store::rating`] for one).
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn ratings_of(
        &self,
        players: &[&str],
    ) -> Result<HashMap<(String, Speed), PlayerRating>, StoreError> {
        let select = format!("SELECT {RATING_COLUMNS}, player_id, speed FROM ratings");
        let rows = self.rows_of_players(&select, players).await?;
        let mut out = HashMap::new();
        for r in rows {
            let speed: Speed = parsed("ratings", "speed", &r.try_get::<String, _>(6)?)?;
            out.insert((r.try_get(5)?, speed), rating_from_row(&r)?);
        }
        Ok(out)
    }

    /// What each of `games` did to `player`'s rating, rounded as shown
    /// (rating after minus rating before); games that were not rated for
    /// them are left out.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn rating_diffs(
        &self,
        player: &str,
        games: &[&str],
    ) -> Result<std::collections::HashMap<String, i64>, StoreError> {
        if games.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        let list: Vec<String> = (0..games.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT game_id, rating_before, rating_after FROM rating_changes \
             WHERE player_id = $1 AND game_id IN ({})",
            list.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(player);
        for g in games {
            q = q.bind(*g);
        }
        let rows = q.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                let (before, after): (f64, f64) = (r.try_get(1)?, r.try_get(2)?);
                Ok((r.try_get(0)?, rating::display_change(before, after)))
            })
            .collect()
    }

    /// `player`'s rated games at `speed`, the earliest first, as the perf
    /// statistics read them: when each started and ended, how it ended
    /// for them, their rating after it, the opponent (and their name
    /// unless the account was deleted) with their rating before it, and
    /// whether it was a tournament game and they went berserk.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn perf_games(
        &self,
        player: &str,
        speed: Speed,
    ) -> Result<Vec<rating::perf_stat::PlayedGame>, StoreError> {
        use rating::perf_stat::{PlayedGame, Score};
        let rows = sqlx::query(
            "SELECT c.game_id, g.created_at, g.updated_at, c.color, c.result, c.rating_after, \
             o.player_id, CASE WHEN a.deleted_at IS NULL THEN a.username END, o.rating_before, \
             CASE WHEN tp.game_id IS NULL THEN 0 ELSE 1 END, \
             CASE WHEN (c.color = 'white' AND tp.white_berserk) \
               OR (c.color = 'black' AND tp.black_berserk) THEN 1 ELSE 0 END \
             FROM rating_changes c \
             JOIN games g ON g.id = c.game_id \
             JOIN rating_changes o ON o.game_id = c.game_id AND o.player_id <> c.player_id \
             LEFT JOIN accounts a ON a.player_id = o.player_id \
             LEFT JOIN tournament_pairings tp ON tp.game_id = c.game_id \
             WHERE c.player_id = $1 AND c.speed = $2 \
             ORDER BY c.created_at, c.game_id",
        )
        .bind(player)
        .bind(speed.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let (color, result): (String, String) = (r.try_get(3)?, r.try_get(4)?);
                let score = match (result.as_str(), color.as_str()) {
                    ("1/2-1/2", _) => Score::Draw,
                    ("1-0", "white") | ("0-1", "black") => Score::Win,
                    ("1-0" | "0-1", _) => Score::Loss,
                    _ => {
                        return Err(StoreError::Corrupt {
                            table: "rating_changes",
                            detail: format!("bad result {result:?}"),
                        });
                    }
                };
                Ok(PlayedGame {
                    id: r.try_get(0)?,
                    started: r.try_get(1)?,
                    ended: r.try_get(2)?,
                    score,
                    rating_after: r.try_get(5)?,
                    opponent: (r.try_get(6)?, r.try_get(7)?),
                    opponent_rating: r.try_get(8)?,
                    tournament: r.try_get::<i64, _>(9)? == 1,
                    berserk: r.try_get::<i64, _>(10)? == 1,
                })
            })
            .collect()
    }

    /// The share of players rated at `speed` whose rating is below
    /// `rating`, in percent (0 when nobody is rated there).
    ///
    /// # Errors
    /// A database failure.
    pub async fn percentile(&self, speed: Speed, rating: f64) -> Result<f64, StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*), SUM(CASE WHEN rating < $2 THEN 1 ELSE 0 END) \
             FROM ratings WHERE speed = $1 AND games > 0",
        )
        .bind(speed.as_str())
        .bind(rating)
        .fetch_one(&self.pool)
        .await?;
        let all: i64 = r.try_get(0)?;
        let below: Option<i64> = r.try_get(1)?;
        #[allow(clippy::cast_precision_loss)]
        Ok(if all == 0 {
            0.0
        } else {
            (below.unwrap_or(0) as f64 * 1000.0 / all as f64).round() / 10.0
        })
    }

    /// What rating `game_id` did, if it was rated.
    ///
    /// # Errors
    /// A database failure or corrupt rows.
    pub async fn rating_changes(&self, game_id: &str) -> Result<Option<RatedGame>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1"
        ))
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        if rows.is_empty() {
            return Ok(None);
        }
        rated_game_from_rows(game_id, &rows).map(Some)
    }

    /// Rates a finished game: both players' ratings at `speed` are updated
    /// from `result` (one Glicko-2 rating period, see [`rating::update`]),
    /// and both changes recorded, in one transaction; in it too, the game
    /// is marked for the moderators when the two accounts were ever seen
    /// on one address ([`Store::shared_address_games`]).
    ///
    /// Returns `None`, writing nothing, when the game is not rateable: a
    /// `*` result (aborted) or one player on both seats. If the game was
    /// rated already, nothing changes and the stored changes are returned:
    /// the first application wins.
    ///
    /// # Errors
    /// A database failure (including a game or player that does not
    /// exist); nothing is written then.
    pub async fn apply_rated_result(
        &self,
        game_id: &str,
        white: &str,
        black: &str,
        speed: Speed,
        result: GameResult,
        now: i64,
    ) -> Result<Option<RatedGame>, StoreError> {
        let Some(outcome) = Outcome::from_result(result) else {
            return Ok(None);
        };
        if white == black {
            return Ok(None);
        }
        let mut tx = self.begin_write().await?;
        // Lock both rows, creating them if need be, always in the same
        // order (no deadlock between two games of the same pair). On
        // PostgreSQL the upsert holds a row lock until commit and the reads
        // below see the latest committed rows; SQLite takes its one write
        // lock at this first write.
        let mut order = [white, black];
        order.sort_unstable();
        for player in order {
            sqlx::query(
                "INSERT INTO ratings (player_id, speed, rating, deviation, volatility, games, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, 0, NULL) \
                 ON CONFLICT (player_id, speed) DO UPDATE SET games = ratings.games",
            )
            .bind(player)
            .bind(speed.as_str())
            .bind(rating::DEFAULT.rating)
            .bind(rating::DEFAULT.deviation)
            .bind(rating::DEFAULT.volatility)
            .execute(&mut *tx)
            .await?;
        }
        let stored = sqlx::query(&format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1"
        ))
        .bind(game_id)
        .fetch_all(&mut *tx)
        .await?;
        if !stored.is_empty() {
            tx.rollback().await?;
            return rated_game_from_rows(game_id, &stored).map(Some);
        }
        let mut current = Vec::with_capacity(2);
        for player in [white, black] {
            let row = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND speed = $2"
            ))
            .bind(player)
            .bind(speed.as_str())
            .fetch_one(&mut *tx)
            .await?;
            current.push(rating_from_row(&row)?);
        }
        let (w_before, b_before) = (current[0].at(now), current[1].at(now));
        let (w_after, b_after) = rating::update(w_before, b_before, outcome);
        let seats = [
            (white, "white", &current[0], w_before, w_after),
            (black, "black", &current[1], b_before, b_after),
        ];
        for (player, color, stored, before, after) in seats {
            sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, \
                 games = games + 1, updated_at = $4 WHERE player_id = $5 AND speed = $6",
            )
            .bind(after.rating)
            .bind(after.deviation)
            .bind(after.volatility)
            .bind(now)
            .bind(player)
            .bind(speed.as_str())
            .execute(&mut *tx)
            .await?;
            let inserted = sqlx::query(&format!(
                "INSERT INTO rating_changes (game_id, {CHANGE_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
            ))
            .bind(game_id)
            .bind(player)
            .bind(color)
            .bind(speed.as_str())
            .bind(outcome.result().as_str())
            .bind(before.rating)
            .bind(before.deviation)
            .bind(before.volatility)
            .bind(i64::from(stored.games))
            .bind(after.rating)
            .bind(after.deviation)
            .bind(after.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match inserted {
                Ok(_) => {}
                // Rated meanwhile by a writer that did not take the locks
                // first: keep its changes.
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    tx.rollback().await?;
                    return self.rating_changes(game_id).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        crate::addresses::mark_if_shared(&mut tx, game_id, white, black, now).await?;
        tx.commit().await?;
        Ok(Some(RatedGame {
            game_id: game_id.to_owned(),
            speed,
            outcome,
            white: RatingChange {
                player_id: white.to_owned(),
                before: w_before,
                after: w_after,
                games: current[0].games + 1,
            },
            black: RatingChange {
                player_id: black.to_owned(),
                before: b_before,
                after: b_after,
                games: current[1].games + 1,
            },
            rated_at: now,
        }))
    }
}
