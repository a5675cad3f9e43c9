//! Who plays: a player's id, the key of its games and, once it signs up,
//! of its account.

/// A player's id: the verified anonymous player of a request (the
/// server's identity middleware puts it in the request's extensions), and
/// the player column of stored games.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

/// Notes player `id` seen at `now` (its row created on first use), on
/// `conn`.
///
/// # Errors
/// A database failure.
pub(crate) async fn touch_player_in(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    now: i64,
) -> Result<(), crate::error::StoreError> {
    sqlx::query(
        "INSERT INTO players (id, created_at, last_seen_at) VALUES ($1, $2, $3) \
         ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at",
    )
    .bind(id)
    .bind(now)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
