//! Which database a store talks to, and how a write transaction begins
//! on each: SQLite's `BEGIN IMMEDIATE`, PostgreSQL's `BEGIN`.

use sqlx::AnyPool;

/// Which database a [`Store`](crate::Store) talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A write transaction on `pool`: on SQLite it takes the write lock at
/// once, so two writers never deadlock upgrading a read.
pub(crate) async fn begin_write(
    pool: &AnyPool,
    backend: Backend,
) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
    match backend {
        Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Backend::Postgres => pool.begin().await,
    }
}
