//! Stores for tests: a fresh database on each backend available here
//! (behind the `testing` feature, for other crates' tests).

use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::AnyPool;

use crate::{Backend, Store};

/// A fresh store on each available backend (the temp dir keeps SQLite's
/// file): SQLite, and PostgreSQL when `PLYYARD_TEST_PG` names a server.
pub async fn stores() -> Vec<(Option<tempfile::TempDir>, Store)> {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let mut out = vec![(Some(dir), Store::open(&url).await.unwrap())];
    match std::env::var("PLYYARD_TEST_PG") {
        Ok(admin) => {
            sqlx::any::install_default_drivers();
            let name = unique_name();
            let pool = AnyPool::connect(&admin).await.unwrap();
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
            let (base, _) = admin.rsplit_once('/').unwrap();
            let store = Store::open(&format!("{base}/{name}")).await.unwrap();
            assert_eq!(store.backend(), Backend::Postgres);
            out.push((None, store));
        }
        Err(_) if std::env::var("PLYYARD_REQUIRE_PG").is_ok_and(|v| v == "1") => {
            panic!("PLYYARD_REQUIRE_PG=1 but PLYYARD_TEST_PG is not set")
        }
        Err(_) => eprintln!("skipped PostgreSQL: PLYYARD_TEST_PG not set"),
    }
    out
}

/// A database name no other test of any process uses: this process's id,
/// the time, and a counter.
fn unique_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("plyyard_unit_{}_{nanos}_{n}", std::process::id())
}

/// Stores table game `id` between the players `white` and `black` (made
/// players first), unstarted: standard chess under FIDE rules, 3+2,
/// rated or not.
///
/// # Panics
/// When the store fails (a test's store).
pub async fn table_game(store: &Store, id: &str, white: &str, black: &str, rated: bool) {
    for p in [white, black] {
        store.touch_player(p, 1).await.expect("player");
    }
    let game = plyyard_game::Game::new(plyyard_game::RuleSet::Fide);
    let now = crate::now_ms();
    let row = crate::GameRow {
        id: id.into(),
        kind: crate::GameKind::Table,
        white_player: Some(white.into()),
        black_player: Some(black.into()),
        level: None,
        rules: plyyard_game::RuleSet::Fide,
        variant: plyyard_game::Variant::Standard,
        position: None,
        initial_fen: game.fen(),
        summary: crate::replay::summary_of(&game, 0, now),
        created_at: now,
        table: Some(crate::TableGame {
            code: "ABCDEF".into(),
            rated,
            control: plyyard_game::TimeControl::table(3, 2).expect("3+2"),
        }),
        clock: None,
    };
    store.insert_game(&row).await.expect("game");
}
