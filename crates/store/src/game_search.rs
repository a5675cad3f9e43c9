//! Searching one player's games: by opponent, colour, outcome, perf,
//! ratedness, review and date (lichess's filters of
//! `/api/games/user/{username}` and the profile's game search), newest
//! first, paged by keyset or by offset.

use sqlx::Row;
use sqlx::any::AnyArguments;
use sqlx::query::Query;

use crate::db::Store;
use crate::error::StoreError;
use crate::games::{GAME_COLUMNS, game_from_row};
use crate::rows::GameRow;

/// How a game ended for the searched player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// They won.
    Win,
    /// A draw.
    Draw,
    /// They lost.
    Loss,
}

/// Lichess's perf keys a game can have here, by its clock and variant
/// (`chess960` whatever its clock; no clock is `correspondence`).
pub const PERF_KEYS: [&str; 7] = [
    "ultraBullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "chess960",
];

/// A game's lichess perf, in SQL: the speed of `limit + 40 × increment`
/// seconds (lichess's boundaries, as `plyyard_wire::lichess::speed`), `chess960` for
/// Chess960, `correspondence` without a clock.
const PERF_SQL: &str = "(CASE WHEN variant = 'chess960' THEN 'chess960' \
     WHEN initial_ms IS NULL THEN 'correspondence' \
     WHEN initial_ms / 1000 + 40 * (increment_ms / 1000) < 30 THEN 'ultraBullet' \
     WHEN initial_ms / 1000 + 40 * (increment_ms / 1000) < 180 THEN 'bullet' \
     WHEN initial_ms / 1000 + 40 * (increment_ms / 1000) < 480 THEN 'blitz' \
     WHEN initial_ms / 1000 + 40 * (increment_ms / 1000) < 1500 THEN 'rapid' \
     WHEN initial_ms / 1000 + 40 * (increment_ms / 1000) < 21600 THEN 'classical' \
     ELSE 'correspondence' END)";

/// What a search keeps; the default keeps every game of the player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games against this player id.
    pub vs: Option<String>,
    /// Only games where the player had this colour (`true`: White).
    pub white: Option<bool>,
    /// Only games that ended so for the player (ended games only).
    pub outcome: Option<Outcome>,
    /// Only games of these perfs (keys of [`PERF_KEYS`]); empty: all.
    pub perfs: Vec<&'static str>,
    /// Only rated (`true`) or only casual (`false`) games.
    pub rated: Option<bool>,
    /// Only games with (`true`) or without (`false`) a stored review.
    pub analysed: Option<bool>,
    /// Only ended games.
    pub ended_only: bool,
    /// Leave imported games out.
    pub played_here: bool,
    /// Created at or after this Unix millisecond.
    pub since: Option<i64>,
    /// Created at or before this Unix millisecond.
    pub until: Option<i64>,
}

/// One value bound to the search's SQL.
enum Arg<'a> {
    Text(&'a str),
    Int(i64),
}

/// A `WHERE` clause being built, with the values it binds.
struct Where<'a> {
    sql: String,
    args: Vec<Arg<'a>>,
}

impl<'a> Where<'a> {
    /// Adds `AND cond`; each `?` in `cond` stands for `arg`.
    fn and(&mut self, cond: &str, arg: Option<Arg<'a>>) {
        self.sql.push_str(" AND ");
        match arg {
            Some(a) => {
                self.args.push(a);
                let n = format!("${}", self.args.len());
                self.sql.push_str(&cond.replace('?', &n));
            }
            None => self.sql.push_str(cond),
        }
    }
}

impl GameFilter {
    /// The `WHERE` clause for `player`'s games and its values, numbered
    /// from `$1` (the player).
    fn clause<'a>(&'a self, player: &'a str) -> Where<'a> {
        let mut w = Where {
            sql: String::from("(white_player = $1 OR black_player = $1)"),
            args: vec![Arg::Text(player)],
        };
        if let Some(vs) = &self.vs {
            w.and(
                "((white_player = $1 AND black_player = ?) OR (black_player = $1 AND white_player = ?))",
                Some(Arg::Text(vs)),
            );
        }
        match self.white {
            Some(true) => w.and("white_player = $1", None),
            Some(false) => w.and("black_player = $1", None),
            None => {}
        }
        if let Some(o) = self.outcome {
            w.and(outcome_sql(o), None);
        }
        if !self.perfs.is_empty() {
            w.sql.push_str(&format!(" AND {PERF_SQL} IN ("));
            for (i, p) in self.perfs.iter().enumerate() {
                w.args.push(Arg::Text(p));
                let sep = if i == 0 { "" } else { ", " };
                w.sql.push_str(&format!("{sep}${}", w.args.len()));
            }
            w.sql.push(')');
        }
        if let Some(r) = self.rated {
            w.and("CAST(rated AS INTEGER) = ?", Some(Arg::Int(i64::from(r))));
        }
        match self.analysed {
            Some(true) => w.and(
                "EXISTS (SELECT 1 FROM reviews r WHERE r.game_id = games.id)",
                None,
            ),
            Some(false) => w.and(
                "NOT EXISTS (SELECT 1 FROM reviews r WHERE r.game_id = games.id)",
                None,
            ),
            None => {}
        }
        if self.ended_only || self.outcome.is_some() {
            w.and("status = 'ended'", None);
        }
        if self.played_here {
            w.and("kind <> 'imported'", None);
        }
        if let Some(t) = self.since {
            w.and("created_at >= ?", Some(Arg::Int(t)));
        }
        if let Some(t) = self.until {
            w.and("created_at <= ?", Some(Arg::Int(t)));
        }
        w
    }
}

/// The condition that a game ended with outcome `o` for the player `$1`.
fn outcome_sql(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => {
            "((white_player = $1 AND result = '1-0') OR (black_player = $1 AND result = '0-1'))"
        }
        Outcome::Draw => "result = '1/2-1/2'",
        Outcome::Loss => {
            "((white_player = $1 AND result = '0-1') OR (black_player = $1 AND result = '1-0'))"
        }
    }
}

fn bind_all<'q>(
    mut q: Query<'q, sqlx::Any, AnyArguments<'q>>,
    args: &'q [Arg<'q>],
) -> Query<'q, sqlx::Any, AnyArguments<'q>> {
    for a in args {
        q = match a {
            Arg::Text(s) => q.bind(*s),
            Arg::Int(i) => q.bind(*i),
        };
    }
    q
}

impl Store {
    /// `player`'s games that `filter` keeps, newest first (by creation,
    /// then id): `limit` of them after skipping `offset`.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn search_games(
        &self,
        player: &str,
        filter: &GameFilter,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let Where {
            sql: clause,
            mut args,
        } = filter.clause(player);
        let n = args.len();
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE {clause} \
             ORDER BY created_at DESC, id LIMIT ${} OFFSET ${}",
            n + 1,
            n + 2
        );
        args.push(Arg::Int(i64::from(limit)));
        args.push(Arg::Int(i64::try_from(offset).unwrap_or(i64::MAX)));
        bind_all(sqlx::query(&sql), &args)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(game_from_row)
            .collect()
    }

    /// How many of `player`'s games `filter` keeps.
    ///
    /// # Errors
    /// A database failure.
    pub async fn count_games(&self, player: &str, filter: &GameFilter) -> Result<u64, StoreError> {
        let Where { sql: clause, args } = filter.clause(player);
        let sql = format!("SELECT COUNT(*) FROM games WHERE {clause}");
        let n: i64 = bind_all(sqlx::query(&sql), &args)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// `player`'s games that `filter` keeps, newest first, `limit` of them
    /// after the game `after` (its creation time and id; `None`: from the
    /// newest), for exports that stream page after page.
    ///
    /// # Errors
    /// A database failure or a corrupt row.
    pub async fn search_games_after(
        &self,
        player: &str,
        filter: &GameFilter,
        after: Option<(i64, &str)>,
        limit: u32,
    ) -> Result<Vec<GameRow>, StoreError> {
        let Where {
            sql: clause,
            mut args,
        } = filter.clause(player);
        let (at, id) = after.unwrap_or((i64::MAX, ""));
        let n = args.len();
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE {clause} \
             AND (created_at < ${a} OR (created_at = ${a} AND id > ${b})) \
             ORDER BY created_at DESC, id LIMIT ${c}",
            a = n + 1,
            b = n + 2,
            c = n + 3
        );
        args.push(Arg::Int(at));
        args.push(Arg::Text(id));
        args.push(Arg::Int(i64::from(limit)));
        bind_all(sqlx::query(&sql), &args)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(game_from_row)
            .collect()
    }
}
