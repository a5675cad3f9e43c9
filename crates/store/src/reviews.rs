//! Storage of reviews and imported games: the SQL of the `reviews` and
//! `imported_games` tables (migration `0006_reviews.sql`), and replaying a
//! stored game for analysis.
//!
//! A review is written once, when its analysis is done, as JSON text; a
//! second write of the same game keeps the first (reviews are immutable).
//! An import stores every game of a PGN in one transaction: all or none,
//! with its tags (at most [`MAX_TAGS`], values cut at [`MAX_TAG_CHARS`]
//! characters; migration `0007_imported_tags.sql`) for its PGN export.

use plyyard_game::Game;
use plyyard_game::pgn::{ImportedGame, PgnTags};
use sqlx::Row;

use crate::db::Store;
use crate::error::StoreError;
use crate::games::insert_game_in;
use crate::replay::{start_of, summary_of};
use crate::rows::{GameKind, GameRow, MoveRow};

pub use crate::replay::new_game_id;

/// A stored review: the analysis as JSON text and its format number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredReview {
    /// Format of `analysis` (the review library's version).
    pub format: u32,
    /// The analysis, JSON.
    pub analysis: String,
    /// When it was stored, Unix milliseconds.
    pub created_at: i64,
}

/// What an imported game stores beside its `games` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedInfo {
    /// The player who imported it.
    pub owner: String,
    /// White's name in the PGN (`?` when unknown).
    pub white: String,
    /// Black's name in the PGN.
    pub black: String,
    /// The event.
    pub event: String,
    /// The site.
    pub site: String,
    /// The date as written (`YYYY.MM.DD`, `??` for unknown parts).
    pub date: String,
    /// The PGN's tags in file order (see [`MAX_TAGS`]); empty for games
    /// imported before tags were kept.
    pub tags: Vec<(String, String)>,
}

impl ImportedInfo {
    /// The tags of the game's PGN export: those the PGN gave (the exporter
    /// derives `Result` and the set-up tags from the game itself), or for
    /// a game imported before tags were kept, its names, event, site and
    /// date.
    pub fn pgn_tags(&self) -> PgnTags {
        let get = |name: &str| {
            self.tags
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        PgnTags {
            event: get("Event").unwrap_or_else(|| self.event.clone()),
            site: get("Site").unwrap_or_else(|| self.site.clone()),
            date: get("Date").unwrap_or_else(|| self.date.clone()),
            round: get("Round").unwrap_or_else(|| "?".into()),
            white: self.white.clone(),
            black: self.black.clone(),
            time_control: get("TimeControl"),
            extra: self
                .tags
                .iter()
                .filter(|(k, _)| !plyyard_game::pgn::DERIVED_TAGS.contains(&k.as_str()))
                .cloned()
                .collect(),
        }
    }
}

/// The stored review of `game_id`, if any.
///
/// # Errors
/// A database failure.
pub async fn review(store: &Store, game_id: &str) -> Result<Option<StoredReview>, StoreError> {
    let row = sqlx::query("SELECT format, analysis, created_at FROM reviews WHERE game_id = $1")
        .bind(game_id)
        .fetch_optional(store.pool())
        .await?;
    row.map(|r| {
        Ok(StoredReview {
            format: u32::try_from(r.try_get::<i64, _>(0)?).map_err(|_| StoreError::Corrupt {
                table: "reviews",
                detail: "bad format".into(),
            })?,
            analysis: r.try_get(1)?,
            created_at: r.try_get(2)?,
        })
    })
    .transpose()
}

/// Stores the review of `game_id` unless one of the same or a newer format
/// is stored already (the first stays; one made by an older format of the
/// analysis is replaced).
///
/// # Errors
/// A database failure.
pub async fn save_review(
    store: &Store,
    game_id: &str,
    review: &StoredReview,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO reviews (game_id, format, analysis, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (game_id) DO UPDATE SET format = excluded.format, \
         analysis = excluded.analysis, created_at = excluded.created_at \
         WHERE reviews.format < excluded.format",
    )
    .bind(game_id)
    .bind(i64::from(review.format))
    .bind(&review.analysis)
    .bind(review.created_at)
    .execute(store.pool())
    .await?;
    Ok(())
}

/// What an imported game's `imported_games` row holds.
fn info_of(g: &ImportedGame, owner: &str) -> ImportedInfo {
    let tag = |n: &str, d: &str| clip(g.tag(n).unwrap_or(d));
    ImportedInfo {
        owner: owner.to_owned(),
        white: tag("White", "?"),
        black: tag("Black", "?"),
        event: tag("Event", "?"),
        site: tag("Site", "?"),
        date: tag("Date", "????.??.??"),
        tags: kept_tags(&g.tags),
    }
}

/// Tags kept of an imported game at most (the first ones of the file).
pub const MAX_TAGS: usize = 40;
/// Longest tag name kept.
const MAX_TAG_NAME: usize = 40;
/// Tag values are kept to this many characters.
pub const MAX_TAG_CHARS: usize = 100;

/// The tags an import keeps: well-formed names (letters, digits, `_`) of
/// at most [`MAX_TAG_NAME`] characters, each name once, at most
/// [`MAX_TAGS`] of them, values cut at [`MAX_TAG_CHARS`] characters.
fn kept_tags(tags: &[(String, String)]) -> Vec<(String, String)> {
    let mut kept: Vec<(String, String)> = Vec::new();
    for (k, v) in tags {
        let well_formed = !k.is_empty()
            && k.len() <= MAX_TAG_NAME
            && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if well_formed && !kept.iter().any(|(n, _)| n == k) {
            kept.push((k.clone(), clip(v)));
            if kept.len() == MAX_TAGS {
                break;
            }
        }
    }
    kept
}

fn clip(s: &str) -> String {
    s.chars().take(MAX_TAG_CHARS).collect()
}

/// The `games` row of an imported game, owned by nobody at the board: the
/// game is finished when the PGN says how it ended, else it stays
/// unfinished (`*`) and can still be reviewed.
fn row_of(id: &str, g: &Game, now: i64) -> GameRow {
    GameRow {
        id: id.to_owned(),
        kind: GameKind::Imported,
        white_player: None,
        black_player: None,
        level: None,
        rules: g.rules(),
        variant: g.variant(),
        position: None,
        initial_fen: g.initial_fen(),
        summary: summary_of(g, 1, now),
        created_at: now,
        table: None,
        clock: None,
    }
}

/// Stores imported games under the ids given, owned by player `owner`,
/// all in one transaction.
///
/// # Errors
/// A database failure; nothing is stored then.
pub async fn import(
    store: &Store,
    owner: &str,
    games: &[(String, ImportedGame)],
    now: i64,
) -> Result<(), StoreError> {
    let mut tx = store.begin_write().await?;
    for (id, g) in games {
        insert_game_in(&mut *tx, &row_of(id, &g.game, now)).await?;
        for (i, m) in g.game.history().iter().enumerate() {
            sqlx::query(
                "INSERT INTO moves (game_id, ply, uci, san, clock_ms, draw_offer, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(i64::try_from(i + 1).unwrap_or(i64::MAX))
            .bind(&m.uci)
            .bind(&m.san)
            .bind(m.clock_ms.and_then(|c| i64::try_from(c).ok()))
            .bind(m.draw_offer)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let info = info_of(g, owner);
        let tags = serde_json::to_string(&info.tags).map_err(|e| StoreError::Corrupt {
            table: "imported_games",
            detail: format!("tags: {e}"),
        })?;
        sqlx::query(
            "INSERT INTO imported_games (game_id, owner, white_name, black_name, event, site, \
             played_on, created_at, tags) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id)
        .bind(&info.owner)
        .bind(&info.white)
        .bind(&info.black)
        .bind(&info.event)
        .bind(&info.site)
        .bind(&info.date)
        .bind(now)
        .bind(tags)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// What was stored about imported game `game_id`, if it is one.
///
/// # Errors
/// A database failure.
pub async fn imported(store: &Store, game_id: &str) -> Result<Option<ImportedInfo>, StoreError> {
    let row = sqlx::query(
        "SELECT owner, white_name, black_name, event, site, played_on, tags FROM imported_games \
         WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(store.pool())
    .await?;
    row.map(|r| {
        Ok(ImportedInfo {
            owner: r.try_get(0)?,
            white: r.try_get(1)?,
            black: r.try_get(2)?,
            event: r.try_get(3)?,
            site: r.try_get(4)?,
            date: r.try_get(5)?,
            tags: match r.try_get::<Option<String>, _>(6)? {
                Some(json) => serde_json::from_str(&json).map_err(|e| StoreError::Corrupt {
                    table: "imported_games",
                    detail: format!("tags of {game_id}: {e}"),
                })?,
                None => Vec::new(),
            },
        })
    })
    .transpose()
}

/// Replays a stored game's moves from its starting position (how it ended
/// does not matter to a review).
///
/// # Errors
/// A stored position or move the rules refuse.
pub fn replay(row: &GameRow, moves: &[MoveRow]) -> Result<Game, String> {
    let mut game = start_of(row)?;
    for m in moves {
        game.play_uci(&m.uci)
            .map_err(|e| format!("stored move {}: {e}", m.ply))?;
    }
    Ok(game)
}
