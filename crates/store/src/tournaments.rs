//! Tournaments: the SQL of `tournaments`, `tournament_players` and
//! `tournament_pairings` (migration 14).
//!
//! Every change of a tournament's players runs in one transaction that
//! first locks the tournament's row (a no-op `UPDATE` of it: PostgreSQL
//! then holds the row until the commit, SQLite's write transaction holds
//! everything), so that its checks (is the player in already? is it
//! full? is it finished?) still hold when it writes. A tournament game is
//! stored with its private table and its pairing in one transaction, and
//! only while the tournament is started.

use std::str::FromStr;

use plyyard_game::GameResult;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use crate::db::{Store, get_bool, parsed};
use crate::error::StoreError;
use crate::games::insert_game_in;
use crate::rows::GameRow;
use crate::tables::{TableRow, insert_table_in};

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentStatus {
    /// Created, not started yet: players may join.
    Created,
    /// Running: games are being paired.
    Started,
    /// Over (at its end, or terminated by its creator).
    Finished,
}

impl TournamentStatus {
    /// The stored (and lichess's) name.
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Created => "created",
            TournamentStatus::Started => "started",
            TournamentStatus::Finished => "finished",
        }
    }
}

impl FromStr for TournamentStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<TournamentStatus, String> {
        match s {
            "created" => Ok(TournamentStatus::Created),
            "started" => Ok(TournamentStatus::Started),
            "finished" => Ok(TournamentStatus::Finished),
            other => Err(format!("unknown tournament status {other:?}")),
        }
    }
}

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id (8 characters).
    pub id: String,
    /// Its system: `arena`.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// What its creator wrote about it.
    pub description: String,
    /// The player who created it.
    pub created_by: String,
    /// The club whose members alone may join, if any.
    pub club_id: Option<String>,
    /// Its settings, as the JSON its crate wrote.
    pub settings: String,
    /// Where it stands.
    pub status: TournamentStatus,
    /// When it starts, Unix milliseconds.
    pub starts_at: i64,
    /// When it finishes (or finished), Unix milliseconds.
    pub finishes_at: i64,
    /// How many players joined (withdrawn ones included).
    pub nb_players: i64,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
}

/// A player of a tournament, with the account's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentPlayerRow {
    /// The player.
    pub player_id: String,
    /// The account's name.
    pub username: String,
    /// Their rating when they joined.
    pub rating: i64,
    /// Withdrawn or paused: not paired until they join again.
    pub withdrawn: bool,
    /// When they paused, Unix milliseconds, oldest first.
    pub pauses: Vec<i64>,
    /// When they first joined, Unix milliseconds.
    pub joined_at: i64,
}

/// Where a tournament game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PairingStatus {
    /// Being played.
    Playing,
    /// Over and scored.
    Finished,
}

impl PairingStatus {
    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            PairingStatus::Playing => "playing",
            PairingStatus::Finished => "finished",
        }
    }
}

impl FromStr for PairingStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<PairingStatus, String> {
        match s {
            "playing" => Ok(PairingStatus::Playing),
            "finished" => Ok(PairingStatus::Finished),
            other => Err(format!("unknown pairing status {other:?}")),
        }
    }
}

/// One game of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRow {
    /// The game.
    pub game_id: String,
    /// The tournament.
    pub tournament_id: String,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
    /// White's rating when paired.
    pub white_rating: i64,
    /// Black's rating when paired.
    pub black_rating: i64,
    /// Playing or finished.
    pub status: PairingStatus,
    /// The game's result once finished (`Aborted`: nobody won, the game
    /// was never started by one side).
    pub result: Option<GameResult>,
    /// Plies played (once finished).
    pub plies: i64,
    /// Whether White went berserk.
    pub white_berserk: bool,
    /// Whether Black went berserk.
    pub black_berserk: bool,
    /// When it was paired, Unix milliseconds.
    pub created_at: i64,
    /// When it was scored, Unix milliseconds.
    pub finished_at: Option<i64>,
    /// The Swiss round it belongs to (1-based); 0 for an Arena's games.
    pub round: i64,
}

/// What a join did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinResult {
    /// A new player.
    Joined,
    /// A withdrawn player is back.
    Rejoined,
    /// They are in and not withdrawn already.
    AlreadyIn,
    /// The tournament has `max_players` players already.
    Full,
    /// The tournament is finished (or does not exist).
    Closed,
}

/// A game settled from its row in `games`: what the runtime scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndedPairing {
    /// The pairing, still `playing`.
    pub pairing: PairingRow,
    /// The game's result.
    pub result: GameResult,
    /// The game's plies.
    pub plies: i64,
    /// When the game ended (its last write), Unix ms.
    pub ended_at: i64,
}

const TOURNAMENT_COLUMNS: &str = "id, kind, name, description, created_by, club_id, settings, \
     status, starts_at, finishes_at, nb_players, created_at";
const PLAYER_SELECT: &str = "SELECT p.player_id, a.username, p.rating, \
     CAST(p.withdrawn AS INTEGER), p.pauses, p.joined_at \
     FROM tournament_players p JOIN accounts a ON a.player_id = p.player_id";
pub(crate) const PAIRING_COLUMNS: &str = "t.game_id, t.tournament_id, t.white_player, t.black_player, \
     t.white_rating, t.black_rating, t.status, t.result, t.plies, \
     CAST(t.white_berserk AS INTEGER), CAST(t.black_berserk AS INTEGER), t.created_at, \
     t.finished_at, t.round";

fn tournament_from_row(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get(0)?,
        kind: r.try_get(1)?,
        name: r.try_get(2)?,
        description: r.try_get(3)?,
        created_by: r.try_get(4)?,
        club_id: r.try_get(5)?,
        settings: r.try_get(6)?,
        status: parsed("tournaments", "status", &r.try_get::<String, _>(7)?)?,
        starts_at: r.try_get(8)?,
        finishes_at: r.try_get(9)?,
        nb_players: r.try_get(10)?,
        created_at: r.try_get(11)?,
    })
}

fn pauses_from_json(s: &str) -> Result<Vec<i64>, StoreError> {
    serde_json::from_str(s).map_err(|e| StoreError::Corrupt {
        table: "tournament_players",
        detail: format!("pauses {s:?}: {e}"),
    })
}

fn player_from_row(r: &AnyRow) -> Result<TournamentPlayerRow, StoreError> {
    Ok(TournamentPlayerRow {
        player_id: r.try_get(0)?,
        username: r.try_get(1)?,
        rating: r.try_get(2)?,
        withdrawn: get_bool(r, 3)?,
        pauses: pauses_from_json(&r.try_get::<String, _>(4)?)?,
        joined_at: r.try_get(5)?,
    })
}

pub(crate) fn pairing_from_row(r: &AnyRow) -> Result<PairingRow, StoreError> {
    let result = r
        .try_get::<Option<String>, _>(7)?
        .map(|s| parsed("tournament_pairings", "result", &s))
        .transpose()?;
    Ok(PairingRow {
        game_id: r.try_get(0)?,
        tournament_id: r.try_get(1)?,
        white: r.try_get(2)?,
        black: r.try_get(3)?,
        white_rating: r.try_get(4)?,
        black_rating: r.try_get(5)?,
        status: parsed("tournament_pairings", "status", &r.try_get::<String, _>(6)?)?,
        result,
        plies: r.try_get(8)?,
        white_berserk: get_bool(r, 9)?,
        black_berserk: get_bool(r, 10)?,
        created_at: r.try_get(11)?,
        finished_at: r.try_get(12)?,
        round: r.try_get(13)?,
    })
}

/// Locks tournament `id`'s row for the transaction; its status, or `None`
/// when there is no such tournament.
pub(crate) async fn lock_tournament(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<TournamentStatus>, StoreError> {
    let done = sqlx::query("UPDATE tournaments SET nb_players = nb_players WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() != 1 {
        return Ok(None);
    }
    let status: String = sqlx::query("SELECT status FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    Ok(Some(parsed("tournaments", "status", &status)?))
}

impl Store {
    /// Stores a new tournament (status `created`, no players).
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the id is taken; a database failure.
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let inserted = sqlx::query(&format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11)"
        ))
        .bind(&t.id)
        .bind(&t.kind)
        .bind(&t.name)
        .bind(&t.description)
        .bind(&t.created_by)
        .bind(&t.club_id)
        .bind(&t.settings)
        .bind(t.status.as_str())
        .bind(t.starts_at)
        .bind(t.finishes_at)
        .bind(t.created_at)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::Taken(t.id.clone()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The tournament `id`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// Tournaments of `kind` (`arena`, `swiss`) with `status`, by start
    /// (the latest first when `newest_first`), at most `limit`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournaments_with_status(
        &self,
        kind: &str,
        status: TournamentStatus,
        newest_first: bool,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let order = if newest_first { "DESC" } else { "ASC" };
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = $1 AND kind = $3 \
             ORDER BY starts_at {order}, id LIMIT $2"
        ))
        .bind(status.as_str())
        .bind(i64::from(limit))
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// Tournaments not started yet (any kind) that start at or before
    /// `until` and whose players were not told they start soon, the
    /// earliest first, at most `limit`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournaments_starting_soon(
        &self,
        until: i64,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = 'created' \
             AND starts_at <= $1 AND soon_notified_at IS NULL \
             ORDER BY starts_at, id LIMIT $2"
        ))
        .bind(until)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// Marks tournament `id`'s players as told it starts soon: `true` for
    /// the one caller that marks it (the others, on any node, get `false`).
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_soon_notice(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET soon_notified_at = $2 WHERE id = $1 AND soon_notified_at IS NULL",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Club `club`'s tournaments of `kind`, the latest start first, at
    /// most `limit`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn club_tournaments(
        &self,
        kind: &str,
        club: &str,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE club_id = $1 AND kind = $3 \
             ORDER BY starts_at DESC, id LIMIT $2"
        ))
        .bind(club)
        .bind(i64::from(limit))
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// How many tournaments `player` created since `since` (Unix ms).
    ///
    /// # Errors
    /// A database failure.
    pub async fn tournaments_created_since(
        &self,
        player: &str,
        since: i64,
    ) -> Result<i64, StoreError> {
        Ok(sqlx::query(
            "SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND created_at >= $2",
        )
        .bind(player)
        .bind(since)
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?)
    }

    /// Moves tournament `id` from status `from` to `to`, setting its finish
    /// time to `finishes_at` when given; false (nothing changed) when it
    /// was not in `from`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_tournament_status(
        &self,
        id: &str,
        from: TournamentStatus,
        to: TournamentStatus,
        finishes_at: Option<i64>,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = $1, finishes_at = COALESCE($2, finishes_at) \
             WHERE id = $3 AND status = $4",
        )
        .bind(to.as_str())
        .bind(finishes_at)
        .bind(id)
        .bind(from.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Adds `player` (rated `rating`) to tournament `id`, or brings a
    /// withdrawn player back; at most `max_players` players ever join.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn join_tournament(
        &self,
        id: &str,
        player: &str,
        rating: i64,
        max_players: i64,
        now: i64,
    ) -> Result<JoinResult, StoreError> {
        let mut tx = self.begin_write().await?;
        match lock_tournament(&mut tx, id).await? {
            None | Some(TournamentStatus::Finished) => return Ok(JoinResult::Closed),
            Some(_) => {}
        }
        let existing = sqlx::query(
            "SELECT CAST(withdrawn AS INTEGER) FROM tournament_players \
             WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(id)
        .bind(player)
        .fetch_optional(&mut *tx)
        .await?;
        let result = match existing {
            Some(row) if get_bool(&row, 0)? => {
                sqlx::query(
                    "UPDATE tournament_players SET withdrawn = $1 \
                     WHERE tournament_id = $2 AND player_id = $3",
                )
                .bind(false)
                .bind(id)
                .bind(player)
                .execute(&mut *tx)
                .await?;
                JoinResult::Rejoined
            }
            Some(_) => JoinResult::AlreadyIn,
            None => {
                let count: i64 = sqlx::query("SELECT nb_players FROM tournaments WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get(0)?;
                if count >= max_players {
                    return Ok(JoinResult::Full);
                }
                sqlx::query(
                    "INSERT INTO tournament_players \
                     (tournament_id, player_id, rating, withdrawn, pauses, joined_at) \
                     VALUES ($1, $2, $3, $4, '[]', $5)",
                )
                .bind(id)
                .bind(player)
                .bind(rating)
                .bind(false)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                sqlx::query("UPDATE tournaments SET nb_players = nb_players + 1 WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                JoinResult::Joined
            }
        };
        tx.commit().await?;
        Ok(result)
    }

    /// Withdraws (pauses) `player` from tournament `id` at `now`, adding
    /// the pause to their record; false when they are not in it or are
    /// withdrawn already.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        player: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if lock_tournament(&mut tx, id).await?.is_none() {
            return Ok(false);
        }
        let row = sqlx::query(
            "SELECT CAST(withdrawn AS INTEGER), pauses FROM tournament_players \
             WHERE tournament_id = $1 AND player_id = $2",
        )
        .bind(id)
        .bind(player)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        if get_bool(&row, 0)? {
            return Ok(false);
        }
        let mut pauses = pauses_from_json(&row.try_get::<String, _>(1)?)?;
        pauses.push(now);
        let json = serde_json::to_string(&pauses).map_err(|e| StoreError::Corrupt {
            table: "tournament_players",
            detail: e.to_string(),
        })?;
        sqlx::query(
            "UPDATE tournament_players SET withdrawn = $1, pauses = $2 \
             WHERE tournament_id = $3 AND player_id = $4",
        )
        .bind(true)
        .bind(json)
        .bind(id)
        .bind(player)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Tournament `id`'s players, in the order they joined.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament_players(
        &self,
        id: &str,
    ) -> Result<Vec<TournamentPlayerRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{PLAYER_SELECT} WHERE p.tournament_id = $1 ORDER BY p.joined_at, p.player_id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(player_from_row).collect()
    }

    /// `player` in tournament `id`, if they joined.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament_player(
        &self,
        id: &str,
        player: &str,
    ) -> Result<Option<TournamentPlayerRow>, StoreError> {
        let row = sqlx::query(&format!(
            "{PLAYER_SELECT} WHERE p.tournament_id = $1 AND p.player_id = $2"
        ))
        .bind(id)
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(player_from_row).transpose()
    }

    /// Stores a tournament game: its private table `t`, its game row `g`
    /// and its pairing `p` (status `playing`), in one transaction, only
    /// while the tournament is started; false (nothing stored) otherwise.
    /// The tournament's row is locked first, so two writers (two nodes'
    /// directors, one of them stale) cannot both pair a player.
    ///
    /// # Errors
    /// [`StoreError::Taken`] if the table's code is taken;
    /// [`StoreError::Busy`] if either player is still playing a game of
    /// the tournament; a database failure. Nothing is stored then.
    pub async fn insert_tournament_game(
        &self,
        t: &TableRow,
        g: &GameRow,
        p: &PairingRow,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if lock_tournament(&mut tx, &p.tournament_id).await? != Some(TournamentStatus::Started) {
            return Ok(false);
        }
        let busy = sqlx::query(
            "SELECT white_player, black_player FROM tournament_pairings \
             WHERE tournament_id = $1 AND status = $2 \
             AND (white_player IN ($3, $4) OR black_player IN ($3, $4)) LIMIT 1",
        )
        .bind(&p.tournament_id)
        .bind(PairingStatus::Playing.as_str())
        .bind(&p.white)
        .bind(&p.black)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = busy {
            let (w, b): (String, String) = (row.try_get(0)?, row.try_get(1)?);
            let who = if w == p.white || b == p.white {
                &p.white
            } else {
                &p.black
            };
            return Err(StoreError::Busy(who.clone()));
        }
        insert_game_in(&mut *tx, g).await?;
        insert_table_in(&mut tx, t).await?;
        sqlx::query(
            "INSERT INTO tournament_pairings (game_id, tournament_id, white_player, black_player, \
             white_rating, black_rating, status, result, plies, white_berserk, black_berserk, \
             created_at, finished_at, round) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, 0, $8, $9, $10, NULL, $11)",
        )
        .bind(&p.game_id)
        .bind(&p.tournament_id)
        .bind(&p.white)
        .bind(&p.black)
        .bind(p.white_rating)
        .bind(p.black_rating)
        .bind(PairingStatus::Playing.as_str())
        .bind(p.white_berserk)
        .bind(p.black_berserk)
        .bind(p.created_at)
        .bind(p.round)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Tournament `id`'s games, the oldest first.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament_pairings(&self, id: &str) -> Result<Vec<PairingRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {PAIRING_COLUMNS} FROM tournament_pairings t \
             WHERE t.tournament_id = $1 ORDER BY t.created_at, t.game_id"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(pairing_from_row).collect()
    }

    /// The pairing of game `game_id`, if it is a tournament game.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament_pairing(
        &self,
        game_id: &str,
    ) -> Result<Option<PairingRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {PAIRING_COLUMNS} FROM tournament_pairings t WHERE t.game_id = $1"
        ))
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(pairing_from_row).transpose()
    }

    /// Tournament games still `playing` whose game has ended, in any
    /// tournament, the oldest first, at most `limit`: what is left to
    /// score.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn tournament_games_ended(
        &self,
        limit: u32,
    ) -> Result<Vec<EndedPairing>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {PAIRING_COLUMNS}, g.result, g.plies, g.updated_at FROM tournament_pairings t \
             JOIN games g ON g.id = t.game_id \
             WHERE t.status = $1 AND g.status = $2 \
             ORDER BY t.created_at, t.game_id LIMIT $3"
        ))
        .bind(PairingStatus::Playing.as_str())
        .bind(crate::rows::GameStatus::Ended.as_str())
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EndedPairing {
                    pairing: pairing_from_row(r)?,
                    result: parsed("games", "result", &r.try_get::<String, _>(14)?)?,
                    plies: r.try_get(15)?,
                    ended_at: r.try_get(16)?,
                })
            })
            .collect()
    }

    /// Scores game `game_id` of a tournament: `finished` with `result`
    /// and `plies`; false when it was scored already.
    ///
    /// # Errors
    /// A database failure.
    pub async fn finish_tournament_pairing(
        &self,
        game_id: &str,
        result: GameResult,
        plies: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_pairings SET status = $1, result = $2, plies = $3, finished_at = $4 \
             WHERE game_id = $5 AND status = $6",
        )
        .bind(PairingStatus::Finished.as_str())
        .bind(result.as_str())
        .bind(plies)
        .bind(now)
        .bind(game_id)
        .bind(PairingStatus::Playing.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks that `player` went berserk in tournament game `game_id`;
    /// false when they are not in that game.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_tournament_berserk(
        &self,
        game_id: &str,
        player: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_pairings SET \
             white_berserk = CASE WHEN white_player = $1 THEN $2 ELSE white_berserk END, \
             black_berserk = CASE WHEN black_player = $1 THEN $2 ELSE black_berserk END \
             WHERE game_id = $3 AND (white_player = $1 OR black_player = $1)",
        )
        .bind(player)
        .bind(true)
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
