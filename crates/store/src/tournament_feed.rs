//! Owns [`FeedMark`]: a few numbers read in one cheap query that change
//! whenever anything a tournament's watchers see changes (its status, its
//! players and pauses, its games begun, ended and berserked, its Swiss
//! rounds, its chat), so that a node can push standings only on a change.

use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;

/// What a tournament's watchers see, summed up: equal marks, nothing to
/// push; a different one, something changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeedMark {
    /// The tournament's status (`created`, `started`, `finished`).
    pub status: String,
    /// Players who ever joined.
    pub nb_players: i64,
    /// Players paused or withdrawn now.
    pub withdrawn: i64,
    /// Games paired.
    pub games: i64,
    /// Games scored.
    pub finished: i64,
    /// Berserks taken.
    pub berserks: i64,
    /// The latest end of a scored game, Unix ms.
    pub last_finished_at: Option<i64>,
    /// Swiss rounds paired and finished, summed.
    pub rounds: i64,
    /// The latest chat line's number (0 without one).
    pub chat: i64,
}

impl Store {
    /// The [`FeedMark`] of tournament `id`, `None` when there is none.
    ///
    /// # Errors
    /// A database failure.
    pub async fn tournament_feed_mark(&self, id: &str) -> Result<Option<FeedMark>, StoreError> {
        let row = sqlx::query(
            "SELECT t.status, t.nb_players, \
               (SELECT COUNT(*) FROM tournament_players p \
                 WHERE p.tournament_id = t.id AND p.withdrawn = TRUE), \
               (SELECT COUNT(*) FROM tournament_pairings g WHERE g.tournament_id = t.id), \
               (SELECT COUNT(*) FROM tournament_pairings g \
                 WHERE g.tournament_id = t.id AND g.status = 'finished'), \
               (SELECT COALESCE(SUM(CASE WHEN g.white_berserk = TRUE THEN 1 ELSE 0 END \
                                  + CASE WHEN g.black_berserk = TRUE THEN 1 ELSE 0 END), 0) \
                  FROM tournament_pairings g WHERE g.tournament_id = t.id), \
               (SELECT MAX(g.finished_at) FROM tournament_pairings g \
                 WHERE g.tournament_id = t.id AND g.status = 'finished'), \
               (SELECT COUNT(*) + COUNT(r.finished_at) FROM swiss_rounds r \
                 WHERE r.tournament_id = t.id), \
               (SELECT COALESCE(MAX(c.seq), 0) FROM chat_lines c \
                 WHERE c.game_id = t.id AND c.room = 'tournament') \
             FROM tournaments t WHERE t.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(FeedMark {
            status: r.try_get(0)?,
            nb_players: r.try_get(1)?,
            withdrawn: r.try_get(2)?,
            games: r.try_get(3)?,
            finished: r.try_get(4)?,
            berserks: r.try_get(5)?,
            last_finished_at: r.try_get(6)?,
            rounds: r.try_get(7)?,
            chat: r.try_get(8)?,
        }))
    }
}
