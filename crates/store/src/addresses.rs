//! Owns the addresses accounts are seen on (sign-up and log-in) and the
//! rated games between accounts seen on one address, marked for the
//! moderators when the game is rated (`Store::apply_rated_result`).
//! Nothing here refuses anything: a club or a school shares one address.

use sqlx::{AnyConnection, Row};

use crate::db::Store;
use crate::error::StoreError;

/// A rated game between a player and an account seen on one of the
/// player's addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedAddressGame {
    /// The game.
    pub game_id: String,
    /// The other player's id.
    pub opponent_id: String,
    /// The other player's name (`None`: the account was deleted).
    pub opponent: Option<String>,
    /// When it was rated (Unix ms).
    pub at: i64,
}

/// Marks game `game_id` between `white` and `black`, rated at `now`, when
/// the two accounts were ever seen on one address (inside the rating's
/// transaction).
pub(crate) async fn mark_if_shared(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: &str,
    white: &str,
    black: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO shared_address_games (game_id, white_id, black_id, created_at) \
         SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM account_addresses a \
         JOIN account_addresses b ON b.address = a.address \
         WHERE a.player_id = $2 AND b.player_id = $3) \
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(white)
    .bind(black)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records that account `player_id` was seen on `address` at `now`
/// (inside a log-in's transaction).
pub(crate) async fn seen_on_address_in(
    conn: &mut AnyConnection,
    player_id: &str,
    address: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO account_addresses (player_id, address, first_seen, last_seen) \
         VALUES ($1, $2, $3, $3) ON CONFLICT (player_id, address) \
         DO UPDATE SET last_seen = $3",
    )
    .bind(player_id)
    .bind(address)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

impl Store {
    /// Records that account `player_id` was seen on `address` at `now`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn seen_on_address(
        &self,
        player_id: &str,
        address: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        seen_on_address_in(&mut conn, player_id, address, now).await
    }

    /// The rated games of `player_id` marked as played against an account
    /// seen on one of its addresses, the latest first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn shared_address_games(
        &self,
        player_id: &str,
        limit: u32,
    ) -> Result<Vec<SharedAddressGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.game_id, s.other, s.created_at, a.username FROM \
             (SELECT game_id, black_id AS other, created_at FROM shared_address_games \
              WHERE white_id = $1 \
              UNION ALL SELECT game_id, white_id AS other, created_at FROM shared_address_games \
              WHERE black_id = $1) s \
             LEFT JOIN accounts a ON a.player_id = s.other AND a.deleted_at IS NULL \
             ORDER BY s.created_at DESC, s.game_id LIMIT $2",
        )
        .bind(player_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SharedAddressGame {
                    game_id: r.try_get(0)?,
                    opponent_id: r.try_get(1)?,
                    at: r.try_get(2)?,
                    opponent: r.try_get(3)?,
                })
            })
            .collect()
    }
}
