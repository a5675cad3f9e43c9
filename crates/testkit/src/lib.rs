//! Test support for Ply Yard, shared by the integration tests of every crate
//! and by the `loadgen` benchmark tool.
//!
//! - [`Client`]: HTTP (`reqwest`, a cookie store per client, the site's own
//!   `Origin` on state-changing requests) and game websockets, with
//!   [`send_json`], [`recv_json`] and [`recv_until`].
//! - [`TestDb`]: a fresh database on [`Backend::Sqlite`] or
//!   [`Backend::Postgres`] (through `PLYYARD_TEST_PG`).
//! - [`TestServer`] (the library in-process) and [`ServerProcess`] (the real
//!   binary, for crash and cluster tests; [`plyyard_binary`] finds it).
//! - [`TestRedis`]: a real Redis server for cluster tests.
//! - [`both_backends!`]: one test body, run once per backend.
//!
//! # PostgreSQL on a developer's machine
//! The `…::postgres` tests need a server they may create databases on;
//! without `PLYYARD_TEST_PG` they print `skipped: PLYYARD_TEST_PG not set`
//! and pass. A throwaway one, as `.ci/run` starts it (as root, initdb runs
//! as `postgres`; drop the `runuser -u postgres --` otherwise):
//!
//! ```sh
//! PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
//! PORT=55432   # any free port
//! DIR=$(mktemp -d) && chown postgres: "$DIR"
//! runuser -u postgres -- "$PGBIN/initdb" -D "$DIR/data" --auth=trust -U postgres
//! runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
//!     -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR" start
//! PLYYARD_TEST_PG=postgres://postgres@127.0.0.1:$PORT/postgres PLYYARD_REQUIRE_PG=1 \
//!     cargo test -p plyyard-server
//! runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DIR/data" -m fast stop && rm -rf "$DIR"
//! ```

pub mod client;
pub mod db;
pub mod servers;

use std::future::Future;

pub use client::{
    Client, ClientError, HTTP_TIMEOUT, Method, Response, Socket, recv_json, recv_until, send_json,
};
pub use db::{Backend, PG_ENV, REQUIRE_PG_ENV, TestDb};
pub use plyyard_cluster::testing::{REQUIRE_REDIS_ENV, TestRedis};
pub use servers::{BIN_ENV, ServerProcess, TestServer, plyyard_binary, tuning};

#[cfg(test)]
mod tests;

/// Runs `test` on a fresh [`TestDb`] of `backend`, on a new single-threaded
/// runtime; returns at once when the backend is not configured (see
/// [`TestDb::new`]). What [`both_backends!`] expands to.
///
/// # Panics
/// If `test` panics, or the database cannot be made.
pub fn run_on<F, Fut>(backend: Backend, test: F)
where
    F: FnOnce(TestDb) -> Fut,
    Fut: Future<Output = ()>,
{
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
        .block_on(async move {
            if let Some(db) = TestDb::new(backend).await {
                test(db).await;
            }
        });
}

/// Runs test bodies once per backend: each `async fn name(db: TestDb)`
/// becomes a module `name` with two tests, `name::sqlite` and
/// `name::postgres`, each on a fresh database of its backend.
///
/// Two forms: the functions written inside the macro, or (so that rustfmt
/// and clippy see the bodies) written as ordinary items and only named in
/// the macro — a function left out of the list is dead code, which the
/// lints refuse. Attributes (`#[ignore]`, docs) go on both tests; a module
/// sees its parent's items.
///
/// # Examples
/// ```ignore
/// use plyyard_testkit::{TestDb, TestServer};
///
/// async fn the_server_starts(db: TestDb) {
///     let srv = TestServer::start(db.url(), 0.25).await;
///     assert_eq!(srv.client().get("/healthz").await.unwrap().text(), "ok");
///     srv.stop().await;
/// }
///
/// plyyard_testkit::both_backends!(the_server_starts);
///
/// plyyard_testkit::both_backends! {
///     async fn the_server_starts_too(db: TestDb) {
///         let srv = TestServer::start(db.url(), 0.25).await;
///         srv.stop().await;
///     }
/// }
/// ```
#[macro_export]
macro_rules! both_backends {
    (@tests [$(#[$meta:meta])*] $f:path) => {
        $(#[$meta])*
        #[test]
        fn sqlite() {
            $crate::run_on($crate::Backend::Sqlite, $f)
        }

        $(#[$meta])*
        #[test]
        fn postgres() {
            $crate::run_on($crate::Backend::Postgres, $f)
        }
    };
    ($( $(#[$meta:meta])* async fn $name:ident($db:ident : $ty:ty) $body:block )+) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                async fn the_test($db: $ty) $body

                $crate::both_backends!(@tests [$(#[$meta])*] the_test);
            }
        )+
    };
    ($( $(#[$meta:meta])* $name:ident ),+ $(,)?) => {
        $(
            mod $name {
                $crate::both_backends!(@tests [$(#[$meta])*] super::$name);
            }
        )+
    };
}
