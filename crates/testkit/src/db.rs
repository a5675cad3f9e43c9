//! Fresh test databases on both storage backends.
//!
//! SQLite: a file in a temporary folder that lives as long as the
//! [`TestDb`]. PostgreSQL: `CREATE DATABASE plyyard_t_<random>` on the server
//! named by `PLYYARD_TEST_PG` (an admin URL such as
//! `postgres://postgres@127.0.0.1:5432/postgres`), dropped again when the
//! [`TestDb`] goes. Without `PLYYARD_TEST_PG` the PostgreSQL tests are
//! skipped with a line on stdout, unless `PLYYARD_REQUIRE_PG=1` (as in CI),
//! where a missing server is a failure.

use std::fmt;

use sqlx::Connection as _;

/// The environment variable holding the PostgreSQL admin URL.
pub const PG_ENV: &str = "PLYYARD_TEST_PG";
/// The environment variable that makes a missing PostgreSQL a failure.
pub const REQUIRE_PG_ENV: &str = "PLYYARD_REQUIRE_PG";
/// The prefix of every test database's name on PostgreSQL.
pub const PG_PREFIX: &str = "plyyard_t_";

/// A storage backend of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded default.
    Sqlite,
    /// The shared server.
    Postgres,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        })
    }
}

/// A fresh, empty database for one test; its URL is what the server's
/// `--db` takes.
pub struct TestDb {
    backend: Backend,
    url: String,
    /// SQLite: the folder of the file.
    dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the admin URL and the database's name, to drop it.
    pg: Option<(String, String)>,
}

impl fmt::Debug for TestDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestDb")
            .field("backend", &self.backend)
            .field("url", &self.url)
            .finish()
    }
}

impl TestDb {
    /// A fresh database on `backend`, or `None` when PostgreSQL is asked for
    /// and `PLYYARD_TEST_PG` is not set (a `skipped: …` line is printed).
    ///
    /// # Panics
    /// If the database cannot be made, or PostgreSQL is missing while
    /// `PLYYARD_REQUIRE_PG=1`.
    pub async fn new(backend: Backend) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::Builder::new()
                    .prefix("plyyard-test-")
                    .tempdir()
                    .expect("a temporary folder");
                let url = format!("sqlite://{}", dir.path().join("plyyard.db").display());
                Some(TestDb {
                    backend,
                    url,
                    dir: Some(dir),
                    pg: None,
                })
            }
            Backend::Postgres => {
                let Some(admin) = pg_admin_url() else {
                    println!("skipped: {PG_ENV} not set");
                    return None;
                };
                let name = format!("{PG_PREFIX}{:016x}", rand::random::<u64>());
                let mut conn = sqlx::PgConnection::connect(&admin)
                    .await
                    .unwrap_or_else(|e| panic!("cannot connect to {PG_ENV}: {e}"));
                sqlx::query(&format!("CREATE DATABASE \"{name}\""))
                    .execute(&mut conn)
                    .await
                    .unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
                let _ = conn.close().await;
                let url = database_url(&admin, &name);
                Some(TestDb {
                    backend,
                    url,
                    dir: None,
                    pg: Some((admin, name)),
                })
            }
        }
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The database URL (`sqlite://…` or `postgres://…`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// SQLite: the folder holding the database file.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.dir.as_ref().map(tempfile::TempDir::path)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((admin, name)) = self.pg.take() else {
            return;
        };
        // Drop may run inside a runtime: drop the database from a thread of
        // its own. FORCE ends connections a killed server left behind.
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            rt.block_on(async {
                let mut conn = sqlx::PgConnection::connect(&admin).await.ok()?;
                let r = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .execute(&mut conn)
                    .await;
                let _ = conn.close().await;
                r.ok()
            })
        })
        .join();
        if !matches!(done, Ok(Some(_))) {
            eprintln!("warning: the test database could not be dropped");
        }
    }
}

/// The PostgreSQL admin URL, `None` when not configured.
///
/// # Panics
/// If it is not configured while `PLYYARD_REQUIRE_PG=1`.
pub fn pg_admin_url() -> Option<String> {
    match std::env::var(PG_ENV) {
        Ok(url) if !url.trim().is_empty() => Some(url.trim().to_owned()),
        _ if pg_required() => {
            panic!("{REQUIRE_PG_ENV}=1 but {PG_ENV} is not set: PostgreSQL tests cannot run")
        }
        _ => None,
    }
}

/// Whether `PLYYARD_REQUIRE_PG=1`.
pub fn pg_required() -> bool {
    std::env::var(REQUIRE_PG_ENV).is_ok_and(|v| v.trim() == "1")
}

/// `admin` with its database replaced by `name`, keeping user, host, port
/// and parameters.
///
/// # Panics
/// If `admin` is not a URL.
pub fn database_url(admin: &str, name: &str) -> String {
    let mut url =
        url::Url::parse(admin).unwrap_or_else(|e| panic!("{PG_ENV} is not a URL ({e}): {admin}"));
    url.set_path(&format!("/{name}"));
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_urls_keep_everything_but_the_name() {
        assert_eq!(
            database_url("postgres://postgres@127.0.0.1:5433/postgres", "plyyard_t_1"),
            "postgres://postgres@127.0.0.1:5433/plyyard_t_1"
        );
        assert_eq!(
            database_url("postgres://u:p@db.local/admin?sslmode=disable", "x"),
            "postgres://u:p@db.local/x?sslmode=disable"
        );
        assert_eq!(database_url("postgres://u@h:1", "x"), "postgres://u@h:1/x");
    }
}
