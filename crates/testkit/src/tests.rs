//! Tests of the kit through what the other crates' tests use: a fresh
//! database on each backend, gone afterwards.

use sqlx::Connection as _;

use crate::db::{PG_PREFIX, pg_admin_url};
use crate::{Backend, TestDb};

/// Whether the database `name` exists on the admin server.
async fn pg_exists(name: &str) -> bool {
    let admin = pg_admin_url().unwrap();
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = $1")
        .bind(name)
        .fetch_one(&mut conn)
        .await
        .unwrap();
    n == 1
}

async fn databases_are_fresh_and_removed_afterwards(a: TestDb) {
    let b = TestDb::new(a.backend()).await.unwrap();
    assert_ne!(a.url(), b.url());
    match a.backend() {
        Backend::Sqlite => {
            assert!(a.url().starts_with("sqlite://"));
            let dir = a.dir().unwrap().to_owned();
            assert!(dir.is_dir());
            drop(a);
            assert!(!dir.exists());
        }
        Backend::Postgres => {
            assert!(a.url().starts_with("postgres://"));
            let name = a.url().rsplit('/').next().unwrap().to_owned();
            assert!(name.starts_with(PG_PREFIX), "{name}");
            // The database is usable at its URL.
            let mut conn = sqlx::PgConnection::connect(a.url()).await.unwrap();
            let here: String = sqlx::query_scalar("SELECT current_database()")
                .fetch_one(&mut conn)
                .await
                .unwrap();
            assert_eq!(here, name);
            // A connection left open does not keep it alive.
            drop(a);
            assert!(!pg_exists(&name).await);
            drop(conn);
        }
    }
}

crate::both_backends!(databases_are_fresh_and_removed_afterwards);
