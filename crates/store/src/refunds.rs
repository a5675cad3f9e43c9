//! Owns `rating_refunds`: when an account is engine-marked, the rating
//! points its recent victims lost are given back (the rule is
//! `plyyard_rating::refund`'s), in the mark's own transaction, at most
//! once per victim and speed, each victim told by a notification.

use std::collections::HashMap;

use plyyard_rating::{Speed, provisional, refund};
use sqlx::{Any, Row, Transaction};

use crate::db::{Store, parsed};
use crate::error::StoreError;

/// The engine user's games looked at: those rated in the last 5 days…
const REFUND_WINDOW_MS: i64 = 5 * 24 * 3600 * 1000;
/// … the latest 40 of them.
const REFUND_GAMES: i64 = 40;

/// Points given back to one victim at one speed.
#[derive(Debug, Clone, PartialEq)]
pub struct Refund {
    /// The victim.
    pub player_id: String,
    /// The speed of the rating.
    pub speed: Speed,
    /// Whole points added to it.
    pub points: f64,
}

/// What one victim lost at one speed, and the best rating they had in
/// those games.
#[derive(Default)]
struct Loss {
    lost: f64,
    top: f64,
}

/// Gives `cheater`'s victims their points back, inside the engine mark's
/// `tx`: the refunds made (none for victims refunded for this account
/// before).
pub(crate) async fn refund_in(
    tx: &mut Transaction<'static, Any>,
    cheater: &str,
    now: i64,
) -> Result<Vec<Refund>, StoreError> {
    let rows = sqlx::query(
        "SELECT op.player_id, op.speed, op.rating_before, op.rating_after, op.games_before \
         FROM rating_changes me JOIN rating_changes op \
         ON op.game_id = me.game_id AND op.player_id <> me.player_id \
         WHERE me.player_id = $1 AND me.created_at >= $2 \
         ORDER BY me.created_at DESC, me.game_id LIMIT $3",
    )
    .bind(cheater)
    .bind(now - REFUND_WINDOW_MS)
    .bind(REFUND_GAMES)
    .fetch_all(&mut **tx)
    .await?;
    let mut losses: HashMap<(String, String), Loss> = HashMap::new();
    for r in &rows {
        let (before, after): (f64, f64) = (r.try_get(2)?, r.try_get(3)?);
        let games: i64 = r.try_get(4)?;
        if after >= before || provisional(u32::try_from(games).unwrap_or(u32::MAX)) {
            continue;
        }
        let l = losses.entry((r.try_get(0)?, r.try_get(1)?)).or_default();
        l.lost += before - after;
        l.top = l.top.max(before);
    }
    let mut victims: Vec<_> = losses.into_iter().collect();
    victims.sort_by(|a, b| a.0.cmp(&b.0));
    let mut done = Vec::new();
    for ((victim, speed), loss) in victims {
        if let Some(r) = refund_one(tx, cheater, (&victim, &speed), &loss, now).await? {
            // As `plyyard_social::notify::Notice::Refund` reads it.
            let content =
                serde_json::json!({"kind": "refund", "speed": speed, "points": r.points as i64})
                    .to_string();
            sqlx::query(
                "INSERT INTO notifications (id, player_id, kind, content, seen, created_at) \
                 VALUES ($1, $2, 'refund', $3, FALSE, $4)",
            )
            .bind(crate::db::new_id())
            .bind(&victim)
            .bind(content)
            .bind(now)
            .execute(&mut **tx)
            .await?;
            done.push(r);
        }
    }
    Ok(done)
}

/// Refunds one victim at one speed, unless refunded for `cheater` before
/// or owed nothing.
async fn refund_one(
    tx: &mut Transaction<'static, Any>,
    cheater: &str,
    (victim, speed): (&str, &str),
    loss: &Loss,
    now: i64,
) -> Result<Option<Refund>, StoreError> {
    let before = sqlx::query(
        "SELECT 1 FROM rating_refunds WHERE cheater_id = $1 AND player_id = $2 AND speed = $3",
    )
    .bind(cheater)
    .bind(victim)
    .bind(speed)
    .fetch_optional(&mut **tx)
    .await?;
    let current = sqlx::query("SELECT rating FROM ratings WHERE player_id = $1 AND speed = $2")
        .bind(victim)
        .bind(speed)
        .fetch_optional(&mut **tx)
        .await?;
    let (None, Some(current)) = (before, current) else {
        return Ok(None);
    };
    let current: f64 = current.try_get(0)?;
    let highest = sqlx::query(
        "SELECT MAX(rating_after) FROM rating_changes WHERE player_id = $1 AND speed = $2",
    )
    .bind(victim)
    .bind(speed)
    .fetch_one(&mut **tx)
    .await?
    .try_get::<Option<f64>, _>(0)?;
    let points = refund::points(loss.lost, current, loss.top, highest);
    if points < 1.0 {
        return Ok(None);
    }
    sqlx::query("UPDATE ratings SET rating = rating + $1 WHERE player_id = $2 AND speed = $3")
        .bind(points)
        .bind(victim)
        .bind(speed)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO rating_refunds (cheater_id, player_id, speed, points, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(cheater)
    .bind(victim)
    .bind(speed)
    .bind(points)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(Some(Refund {
        player_id: victim.to_owned(),
        speed: parsed("rating_refunds", "speed", speed)?,
        points,
    }))
}

impl Store {
    /// The refunds made for `cheater`'s victims, by victim and speed.
    ///
    /// # Errors
    /// A database failure.
    pub async fn refunds_for(&self, cheater: &str) -> Result<Vec<Refund>, StoreError> {
        let rows = sqlx::query(
            "SELECT player_id, speed, points FROM rating_refunds WHERE cheater_id = $1 \
             ORDER BY player_id, speed",
        )
        .bind(cheater)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Refund {
                    player_id: r.try_get(0)?,
                    speed: parsed("rating_refunds", "speed", &r.try_get::<String, _>(1)?)?,
                    points: r.try_get(2)?,
                })
            })
            .collect()
    }
}
