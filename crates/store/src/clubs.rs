//! Clubs: the SQL of `clubs`, `club_members` and `club_requests`.
//!
//! Every change of a club's members runs in one transaction that first
//! locks the club's row (a no-op `UPDATE` of it: PostgreSQL then holds
//! the row until the commit, SQLite's write transaction holds everything),
//! so that the checks it makes (is there another leader? is the player a
//! member already?) still hold when it writes, and `nb_members` always
//! equals the number of member rows.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use crate::db::{Store, get_bool};
use crate::error::StoreError;

/// A club as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubRow {
    /// Its id, made from its name (`my-chess-club`).
    pub id: String,
    /// Its name as typed.
    pub name: String,
    /// What it says of itself.
    pub description: String,
    /// Open clubs are joined at once; closed ones by a request.
    pub open: bool,
    /// The player who created it.
    pub created_by: String,
    /// How many members it has.
    pub nb_members: i64,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
}

/// A club to create, with its first leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewClub<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its description.
    pub description: &'a str,
    /// Open or closed.
    pub open: bool,
    /// The creator's player id: the first member and leader.
    pub leader: &'a str,
    /// Now, Unix milliseconds.
    pub now: i64,
}

/// A member of a club, with the account's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubMember {
    /// The member's player id.
    pub player_id: String,
    /// The account's name.
    pub username: String,
    /// Whether they lead the club.
    pub leader: bool,
    /// When they joined, Unix milliseconds.
    pub joined_at: i64,
}

/// A request to join a closed club.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubRequestRow {
    /// The club.
    pub club_id: String,
    /// Who asks.
    pub player_id: String,
    /// Their account's name.
    pub username: String,
    /// What they wrote.
    pub message: String,
    /// Declined by a leader (kept so that they cannot ask again).
    pub declined: bool,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

/// What removing a member did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// They are gone.
    Removed,
    /// They were not a member.
    NotMember,
    /// They are the club's only leader: a club keeps one.
    OnlyLeader,
}

const CLUB_COLUMNS: &str =
    "id, name, description, CAST(open AS INTEGER), created_by, nb_members, created_at";
const CLUB_COLUMNS_C: &str = "c.id, c.name, c.description, CAST(c.open AS INTEGER), c.created_by, \
     c.nb_members, c.created_at";
const MEMBER_SELECT: &str = "SELECT m.player_id, a.username, CAST(m.leader AS INTEGER), m.joined_at \
     FROM club_members m JOIN accounts a ON a.player_id = m.player_id";
const REQUEST_SELECT: &str = "SELECT r.club_id, r.player_id, a.username, r.message, \
     CAST(r.declined AS INTEGER), r.created_at \
     FROM club_requests r JOIN accounts a ON a.player_id = r.player_id";

fn club_from_row(r: &AnyRow) -> Result<ClubRow, StoreError> {
    Ok(ClubRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        description: r.try_get(2)?,
        open: get_bool(r, 3)?,
        created_by: r.try_get(4)?,
        nb_members: r.try_get(5)?,
        created_at: r.try_get(6)?,
    })
}

fn member_from_row(r: &AnyRow) -> Result<ClubMember, StoreError> {
    Ok(ClubMember {
        player_id: r.try_get(0)?,
        username: r.try_get(1)?,
        leader: get_bool(r, 2)?,
        joined_at: r.try_get(3)?,
    })
}

fn request_from_row(r: &AnyRow) -> Result<ClubRequestRow, StoreError> {
    Ok(ClubRequestRow {
        club_id: r.try_get(0)?,
        player_id: r.try_get(1)?,
        username: r.try_get(2)?,
        message: r.try_get(3)?,
        declined: get_bool(r, 4)?,
        created_at: r.try_get(5)?,
    })
}

/// `text` as a `LIKE` pattern that matches it anywhere, its own `%`, `_`
/// and `\` taken literally (with `ESCAPE '\'`).
fn contains_pattern(text: &str) -> String {
    let mut p = String::with_capacity(text.len() + 2);
    p.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// Locks club `id`'s row for the transaction; false when there is no such
/// club.
async fn lock_club(conn: &mut AnyConnection, id: &str) -> Result<bool, StoreError> {
    let done = sqlx::query("UPDATE clubs SET nb_members = nb_members WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Adds a member (no request left behind); false when they already are one.
async fn insert_member(
    conn: &mut AnyConnection,
    club: &str,
    player: &str,
    leader: bool,
    now: i64,
) -> Result<bool, StoreError> {
    let exists = sqlx::query("SELECT 1 FROM club_members WHERE club_id = $1 AND player_id = $2")
        .bind(club)
        .bind(player)
        .fetch_optional(&mut *conn)
        .await?
        .is_some();
    if exists {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO club_members (club_id, player_id, leader, joined_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(club)
    .bind(player)
    .bind(leader)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND player_id = $2")
        .bind(club)
        .bind(player)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE clubs SET nb_members = nb_members + 1 WHERE id = $1")
        .bind(club)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

impl Store {
    /// Creates a club with its creator as its first member and leader.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when the id is taken; a database failure.
    pub async fn create_club(&self, c: &NewClub<'_>) -> Result<(), StoreError> {
        let mut tx = self.begin_write().await?;
        let inserted = sqlx::query(
            "INSERT INTO clubs (id, name, name_key, description, open, created_by, nb_members, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7)",
        )
        .bind(c.id)
        .bind(c.name)
        .bind(c.name.to_lowercase())
        .bind(c.description)
        .bind(c.open)
        .bind(c.leader)
        .bind(c.now)
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(StoreError::Taken(c.id.to_owned()));
            }
            Err(e) => return Err(e.into()),
        }
        insert_member(&mut tx, c.id, c.leader, true, c.now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether a club has this id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_exists(&self, id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query("SELECT 1 FROM clubs WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .is_some())
    }

    /// The club `id`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club(&self, id: &str) -> Result<Option<ClubRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {CLUB_COLUMNS} FROM clubs WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(club_from_row).transpose()
    }

    /// Changes a club's description and whether it is open.
    ///
    /// # Errors
    /// A database failure.
    pub async fn update_club(
        &self,
        id: &str,
        description: &str,
        open: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE clubs SET description = $1, open = $2 WHERE id = $3")
            .bind(description)
            .bind(open)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// `player`'s membership of `club`, if they are a member.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_member(
        &self,
        club: &str,
        player: &str,
    ) -> Result<Option<ClubMember>, StoreError> {
        let row = sqlx::query(&format!(
            "{MEMBER_SELECT} WHERE m.club_id = $1 AND m.player_id = $2"
        ))
        .bind(club)
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(member_from_row).transpose()
    }

    /// A club's leaders, longest-standing first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_leaders(&self, club: &str) -> Result<Vec<ClubMember>, StoreError> {
        let rows = sqlx::query(&format!(
            "{MEMBER_SELECT} WHERE m.club_id = $1 AND m.leader = TRUE \
             ORDER BY m.joined_at, m.player_id"
        ))
        .bind(club)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(member_from_row).collect()
    }

    /// A club's members, the latest to join first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_members(
        &self,
        club: &str,
        limit: u32,
    ) -> Result<Vec<ClubMember>, StoreError> {
        let rows = sqlx::query(&format!(
            "{MEMBER_SELECT} WHERE m.club_id = $1 ORDER BY m.joined_at DESC, m.player_id LIMIT $2"
        ))
        .bind(club)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(member_from_row).collect()
    }

    /// Adds `player` to `club`; false when they already are a member or
    /// the club does not exist. A request of theirs goes.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn add_club_member(
        &self,
        club: &str,
        player: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if !lock_club(&mut tx, club).await? {
            return Ok(false);
        }
        let added = insert_member(&mut tx, club, player, false, now).await?;
        tx.commit().await?;
        Ok(added)
    }

    /// Removes `player` from `club`, unless they are its only leader.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn remove_club_member(
        &self,
        club: &str,
        player: &str,
    ) -> Result<Removal, StoreError> {
        let mut tx = self.begin_write().await?;
        if !lock_club(&mut tx, club).await? {
            return Ok(Removal::NotMember);
        }
        let Some(leader) = member_leader(&mut tx, club, player).await? else {
            return Ok(Removal::NotMember);
        };
        if leader && other_leaders(&mut tx, club, player).await? == 0 {
            return Ok(Removal::OnlyLeader);
        }
        sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND player_id = $2")
            .bind(club)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE clubs SET nb_members = nb_members - 1 WHERE id = $1")
            .bind(club)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Removal::Removed)
    }

    /// Makes a member a leader (`leader`) or not; refused (false) for a
    /// non-member, and for taking the lead from the club's only leader.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn set_club_leader(
        &self,
        club: &str,
        player: &str,
        leader: bool,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if !lock_club(&mut tx, club).await? {
            return Ok(false);
        }
        let Some(was) = member_leader(&mut tx, club, player).await? else {
            return Ok(false);
        };
        if was && !leader && other_leaders(&mut tx, club, player).await? == 0 {
            return Ok(false);
        }
        sqlx::query("UPDATE club_members SET leader = $1 WHERE club_id = $2 AND player_id = $3")
            .bind(leader)
            .bind(club)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Files `player`'s request to join `club` with `message`.
    ///
    /// # Errors
    /// [`StoreError::Taken`] when they asked already (pending or
    /// declined); a database failure.
    pub async fn add_club_request(
        &self,
        club: &str,
        player: &str,
        message: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO club_requests (club_id, player_id, message, declined, created_at) \
             VALUES ($1, $2, $3, FALSE, $4)",
        )
        .bind(club)
        .bind(player)
        .bind(message)
        .bind(now)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(StoreError::Taken(format!("a request to join {club}")))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// `player`'s request to join `club`, pending or declined.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_request(
        &self,
        club: &str,
        player: &str,
    ) -> Result<Option<ClubRequestRow>, StoreError> {
        let row = sqlx::query(&format!(
            "{REQUEST_SELECT} WHERE r.club_id = $1 AND r.player_id = $2"
        ))
        .bind(club)
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(request_from_row).transpose()
    }

    /// A club's pending (or, with `declined`, declined) requests, oldest
    /// first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn club_requests(
        &self,
        club: &str,
        declined: bool,
        limit: u32,
    ) -> Result<Vec<ClubRequestRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{REQUEST_SELECT} WHERE r.club_id = $1 AND r.declined = $2 \
             ORDER BY r.created_at, r.player_id LIMIT $3"
        ))
        .bind(club)
        .bind(declined)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(request_from_row).collect()
    }

    /// Accepts `player`'s pending request: they become a member. False
    /// when there is no pending request of theirs.
    ///
    /// # Errors
    /// A database failure; nothing is changed then.
    pub async fn accept_club_request(
        &self,
        club: &str,
        player: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        if !lock_club(&mut tx, club).await? {
            return Ok(false);
        }
        let pending = sqlx::query(
            "DELETE FROM club_requests WHERE club_id = $1 AND player_id = $2 AND declined = FALSE",
        )
        .bind(club)
        .bind(player)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !pending {
            return Ok(false);
        }
        insert_member(&mut tx, club, player, false, now).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Declines `player`'s pending request; false when there is none.
    ///
    /// # Errors
    /// A database failure.
    pub async fn decline_club_request(&self, club: &str, player: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE club_requests SET declined = TRUE \
             WHERE club_id = $1 AND player_id = $2 AND declined = FALSE",
        )
        .bind(club)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The clubs `player` is a member of, the latest joined first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn clubs_of(&self, player: &str, limit: u32) -> Result<Vec<ClubRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {CLUB_COLUMNS_C} FROM clubs c JOIN club_members m ON m.club_id = c.id \
             WHERE m.player_id = $1 ORDER BY m.joined_at DESC, c.id LIMIT $2"
        ))
        .bind(player)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(club_from_row).collect()
    }

    /// A page of clubs, the largest first (name order among equals), whose
    /// name contains `text` in any case (`None`: every club), and how many
    /// clubs match in all.
    ///
    /// # Errors
    /// A database failure.
    pub async fn clubs_page(
        &self,
        text: Option<&str>,
        offset: u64,
        limit: u32,
    ) -> Result<(Vec<ClubRow>, u64), StoreError> {
        let pattern = contains_pattern(&text.unwrap_or("").to_lowercase());
        let filter = "WHERE name_key LIKE $1 ESCAPE '\\'";
        let total: i64 = sqlx::query(&format!("SELECT COUNT(*) FROM clubs {filter}"))
            .bind(pattern.as_str())
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        let rows = sqlx::query(&format!(
            "SELECT {CLUB_COLUMNS} FROM clubs {filter} \
             ORDER BY nb_members DESC, name_key, id LIMIT $2 OFFSET $3"
        ))
        .bind(pattern.as_str())
        .bind(i64::from(limit))
        .bind(i64::try_from(offset).unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        let clubs = rows.iter().map(club_from_row).collect::<Result<_, _>>()?;
        Ok((clubs, u64::try_from(total).unwrap_or(0)))
    }
}

/// Whether `player` leads `club` (`None`: not a member).
async fn member_leader(
    conn: &mut AnyConnection,
    club: &str,
    player: &str,
) -> Result<Option<bool>, StoreError> {
    let row = sqlx::query(
        "SELECT CAST(leader AS INTEGER) FROM club_members WHERE club_id = $1 AND player_id = $2",
    )
    .bind(club)
    .bind(player)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| get_bool(&r, 0)).transpose()
}

/// How many leaders `club` has besides `player`.
async fn other_leaders(
    conn: &mut AnyConnection,
    club: &str,
    player: &str,
) -> Result<i64, StoreError> {
    Ok(sqlx::query(
        "SELECT COUNT(*) FROM club_members WHERE club_id = $1 AND leader = TRUE AND player_id <> $2",
    )
    .bind(club)
    .bind(player)
    .fetch_one(&mut *conn)
    .await?
    .try_get(0)?)
}

/// Takes a deleted account out of every club and request, and gives each
/// club it led alone a new leader (its longest-standing member), in the
/// caller's transaction.
pub(crate) async fn leave_all_clubs(
    conn: &mut AnyConnection,
    player: &str,
) -> Result<(), StoreError> {
    let clubs: Vec<(String, bool)> = sqlx::query(
        "SELECT club_id, CAST(leader AS INTEGER) FROM club_members WHERE player_id = $1",
    )
    .bind(player)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| Ok((r.try_get(0)?, get_bool(r, 1)?)))
    .collect::<Result<_, StoreError>>()?;
    for (club, leader) in clubs {
        lock_club(conn, &club).await?;
        sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND player_id = $2")
            .bind(club.as_str())
            .bind(player)
            .execute(&mut *conn)
            .await?;
        sqlx::query("UPDATE clubs SET nb_members = nb_members - 1 WHERE id = $1")
            .bind(club.as_str())
            .execute(&mut *conn)
            .await?;
        if leader && other_leaders(conn, &club, player).await? == 0 {
            promote_oldest(conn, &club).await?;
        }
    }
    sqlx::query("DELETE FROM club_requests WHERE player_id = $1")
        .bind(player)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Makes the longest-standing member of `club` its leader.
async fn promote_oldest(conn: &mut AnyConnection, club: &str) -> Result<(), StoreError> {
    let oldest: Option<String> = sqlx::query(
        "SELECT player_id FROM club_members WHERE club_id = $1 ORDER BY joined_at, player_id LIMIT 1",
    )
    .bind(club)
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| r.try_get(0))
    .transpose()?;
    if let Some(p) = oldest {
        sqlx::query("UPDATE club_members SET leader = TRUE WHERE club_id = $1 AND player_id = $2")
            .bind(club)
            .bind(p.as_str())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
