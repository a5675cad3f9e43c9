//! The storage handle: opening a database from its URL (applying the
//! embedded migrations), its settings and players, and the helpers every
//! table's code reads rows with.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor as _, Row};

use crate::backend::{Backend, begin_write};
use crate::error::StoreError;
use crate::writer;

/// Length of the random ids of reports, warnings, log entries and
/// notifications the store writes itself.
const ID_LEN: usize = 12;

/// A new random id (base62, [`ID_LEN`] characters).
pub(crate) fn new_id() -> String {
    use rand::Rng;
    rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(ID_LEN)
        .map(char::from)
        .collect()
}

/// The storage handle; cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) pool: AnyPool,
    backend: Backend,
    pub(crate) writer: writer::Writer,
    /// The trainer's group-commit writer: SQLite only (PostgreSQL writes
    /// concurrently).
    pub(crate) puzzle_writer: Option<crate::puzzle_writer::PuzzleWriter>,
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Settings applied to every new SQLite connection: WAL with
/// `synchronous=FULL` (a committed transaction survives a killed process
/// and a power cut), foreign keys, a wait instead of `SQLITE_BUSY`, and a
/// page cache of up to 32 MiB a connection (large tables, such as the
/// puzzles and their index, are written and read at random places).
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
     PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -32768;";

/// The backend and connection URL for a `--db` value: `sqlite://FILE`, a
/// plain file path (SQLite), or `postgres://…` / `postgresql://…`. A SQLite
/// file is created when missing.
///
/// # Errors
/// Any other scheme.
///
/// # Examples
/// ```
/// use plyyard_store::{Backend, resolve_url};
/// assert_eq!(resolve_url("games.db").unwrap().0, Backend::Sqlite);
/// assert_eq!(resolve_url("postgres://db/plyyard").unwrap().0, Backend::Postgres);
/// assert!(resolve_url("mysql://db/plyyard").is_err());
/// ```
pub fn resolve_url(url: &str) -> Result<(Backend, String), String> {
    let Some((scheme, rest)) = url.split_once(':') else {
        return Ok((Backend::Sqlite, format!("sqlite://{url}?mode=rwc")));
    };
    match scheme {
        "sqlite" => {
            let with_mode = if rest.contains("mode=") {
                url.to_owned()
            } else if rest.contains('?') {
                format!("{url}&mode=rwc")
            } else {
                format!("{url}?mode=rwc")
            };
            Ok((Backend::Sqlite, with_mode))
        }
        "postgres" | "postgresql" => Ok((Backend::Postgres, url.to_owned())),
        _ if !rest.starts_with("//") => Ok((Backend::Sqlite, format!("sqlite://{url}?mode=rwc"))),
        other => Err(format!(
            "unsupported database {other:?}: use sqlite://FILE or postgres://USER@HOST/DB"
        )),
    }
}

impl Store {
    /// Opens the database at `url` (see [`resolve_url`]) and applies the
    /// embedded migrations.
    ///
    /// # Errors
    /// A bad URL, an unreachable or unwritable database, or a failed migration.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let refuse = |source| StoreError::Url {
            url: redact_url(url),
            source,
        };
        let (backend, url) =
            resolve_url(url).map_err(|m| refuse(sqlx::Error::Configuration(m.into())))?;
        let options = AnyConnectOptions::from_str(&url).map_err(refuse)?;
        let pool = match backend {
            Backend::Sqlite => {
                AnyPoolOptions::new()
                    .max_connections(4)
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute(SQLITE_PRAGMAS).await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?
            }
            Backend::Postgres => {
                AnyPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_with(options)
                    .await?
            }
        };
        sqlx::migrate!("./migrations").run(&pool).await?;
        if backend == Backend::Sqlite {
            crate::sqlite_layout::cluster_tables(&pool).await?;
        }
        let writer = writer::Writer::start(pool.clone(), backend);
        let puzzle_writer = (backend == Backend::Sqlite)
            .then(|| crate::puzzle_writer::PuzzleWriter::start(pool.clone(), backend));
        Ok(Store {
            pool,
            backend,
            writer,
            puzzle_writer,
        })
    }

    /// The connection pool, for the SQL of modules that own their tables
    /// (`review::store`).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Begins a write transaction: on SQLite it takes the write lock at
    /// once (`BEGIN IMMEDIATE`, waiting out the busy timeout), so that a
    /// transaction that reads before it writes can never fail for another
    /// writer's commit in between ("database is locked").
    ///
    /// # Errors
    /// A database failure.
    pub async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        begin_write(&self.pool, self.backend).await
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// How many bulk writes (such as an import's batches) are worth
    /// running at once: SQLite has a single writer, PostgreSQL writes
    /// on a server process per connection, so two keep two cores busy.
    pub fn bulk_writers(&self) -> usize {
        match self.backend {
            Backend::Sqlite => 1,
            Backend::Postgres => 2,
        }
    }

    /// Writes a consistent copy of a SQLite database to the file at
    /// `path` (which must not exist, or be empty) with `VACUUM INTO`: one
    /// read transaction, so writers carry on meanwhile and the copy holds
    /// every transaction committed before it began. PostgreSQL is backed
    /// up with `pg_dump` instead (`plyyard backup`).
    ///
    /// # Errors
    /// A database failure (an existing non-empty file, an unwritable
    /// folder), or a PostgreSQL store.
    pub async fn backup_into(&self, path: &str) -> Result<(), StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::Unsupported(
                "this backup copies SQLite databases; PostgreSQL's is pg_dump",
            ));
        }
        sqlx::query("VACUUM INTO $1")
            .bind(path)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Closes every connection (checkpointing SQLite's WAL).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Reads a value from the `settings` table.
    ///
    /// # Errors
    /// A database failure.
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.get::<String, _>(0)))
    }

    /// Stores `value` under `key` unless the key already has a value; returns
    /// the value in force afterwards (so concurrent starts agree).
    ///
    /// # Errors
    /// A database failure.
    pub async fn setting_or_insert(&self, key: &str, value: &str) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        self.setting(key).await?.ok_or(StoreError::Corrupt {
            table: "settings",
            detail: format!("{key} vanished after insert"),
        })
    }

    /// Records that an anonymous player exists (first use) or was seen again.
    ///
    /// # Errors
    /// A database failure.
    pub async fn touch_player(&self, id: &str, now: i64) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        crate::player::touch_player_in(&mut conn, id, now).await
    }
}

impl Store {
    /// The rows of `select` (a `SELECT … FROM table` with a `player_id`
    /// column) for the players in `players`, in one query.
    pub(crate) async fn rows_of_players(
        &self,
        select: &str,
        players: &[&str],
    ) -> Result<Vec<AnyRow>, StoreError> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let list: Vec<String> = (1..=players.len()).map(|i| format!("${i}")).collect();
        let sql = format!("{select} WHERE player_id IN ({})", list.join(", "));
        let mut query = sqlx::query(&sql);
        for p in players {
            query = query.bind(*p);
        }
        Ok(query.fetch_all(&self.pool).await?)
    }
}

/// A `BOOLEAN` column selected as `CAST(… AS INTEGER)`: the `Any` driver
/// reads SQLite's booleans only as integers.
pub(crate) fn get_bool(r: &AnyRow, i: usize) -> Result<bool, StoreError> {
    Ok(r.try_get::<i64, _>(i)? != 0)
}

pub(crate) fn parsed<T: FromStr>(
    table: &'static str,
    what: &str,
    s: &str,
) -> Result<T, StoreError> {
    s.parse().map_err(|_| StoreError::Corrupt {
        table,
        detail: format!("bad {what} {s:?}"),
    })
}

/// A database URL without its password, for logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            let user = creds.split(':').next().unwrap_or_default();
            format!("{}{user}:***{}", &url[..s + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_logs() {
        assert_eq!(redact_url("sqlite://plyyard.db"), "sqlite://plyyard.db");
        assert_eq!(
            redact_url("postgres://app:s3cret@db.local/plyyard"),
            "postgres://app:***@db.local/plyyard"
        );
    }
}
