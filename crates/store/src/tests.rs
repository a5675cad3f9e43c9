//! Storage tests, each run on SQLite and, when `PLYYARD_TEST_PG` names a
//! PostgreSQL server (an admin URL), on a fresh database there too.

use plyyard_game::{GameResult, Reason, RuleSet, Variant};
use sqlx::AnyPool;

use super::*;
use crate::testing::stores;

fn sample(id: &str, player: &str, at: i64) -> GameRow {
    GameRow {
        id: id.into(),
        kind: GameKind::Computer,
        white_player: Some(player.into()),
        black_player: None,
        level: Some(plyyard_engine::Level::Easy),
        rules: RuleSet::PlyYard,
        variant: Variant::Standard,
        position: None,
        initial_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        summary: GameSummary {
            status: GameStatus::Ongoing,
            result: GameResult::Aborted,
            reason: None,
            plies: 0,
            version: 0,
            updated_at: at,
        },
        created_at: at,
        table: None,
        clock: None,
    }
}

fn mv(ply: u32, uci: &str, san: &str) -> MoveRow {
    MoveRow {
        ply,
        uci: uci.into(),
        san: san.into(),
        clock_ms: Some(1000),
        draw_offer: ply == 2,
        blur: ply == 3,
    }
}

#[tokio::test]
async fn urls_and_plain_paths_open_and_other_databases_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.db");
    let s = Store::open(plain.to_str().unwrap()).await.unwrap();
    assert_eq!(s.backend(), Backend::Sqlite);
    assert!(plain.exists());
    let err = Store::open("mysql://localhost/plyyard").await.unwrap_err();
    assert!(err.to_string().contains("postgres://"), "{err}");
    let missing_dir = dir.path().join("no/such/dir/x.db");
    assert!(
        Store::open(&format!("sqlite://{}", missing_dir.display()))
            .await
            .is_err()
    );
}

#[tokio::test]
async fn games_and_moves_round_trip() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        let mut g = sample("g1", "p1", 10);
        g.variant = Variant::Chess960;
        g.position = Some(959);
        g.rules = RuleSet::Fide;
        store.insert_game(&g).await.unwrap();
        let mut s = g.summary.clone();
        s.plies = 3;
        s.version = 1;
        s.updated_at = 11;
        // The third move comes with a lost focus (`mv`), kept like the rest.
        let three = [
            mv(1, "e2e4", "e4"),
            mv(2, "e7e5", "e5"),
            mv(3, "g1f3", "Nf3"),
        ];
        store.append_moves("g1", 0, &three, &s).await.unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(back.summary, s);
        assert_eq!(back.position, Some(959));
        assert_eq!(back.rules, RuleSet::Fide);
        assert_eq!(back.level, Some(plyyard_engine::Level::Easy));
        assert_eq!(moves, three);
        assert!(moves[2].blur && !moves[1].blur);

        let ended = GameSummary {
            status: GameStatus::Ended,
            result: GameResult::BlackWins,
            reason: Some(Reason::Resignation),
            plies: 0,
            version: 2,
            updated_at: 12,
        };
        store.truncate_moves("g1", 1, 0, &ended).await.unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert!(moves.is_empty());
        assert_eq!(back.summary, ended);
        assert!(store.load_game("nope").await.unwrap().is_none());
    }
}

#[tokio::test]
async fn a_computer_games_client_is_kept_with_it() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        store.insert_game(&sample("g1", "p1", 10)).await.unwrap();
        assert_eq!(store.engine_client("g1").await.unwrap(), None);
        let keys = r#"[{"ip":"192.0.2.7"},{"account":"p1"}]"#;
        store.set_engine_client("g1", keys).await.unwrap();
        assert_eq!(
            store.engine_client("g1").await.unwrap().as_deref(),
            Some(keys)
        );
        assert_eq!(store.engine_client("nope").await.unwrap(), None);
        let other = r#"[{"player":"p1"}]"#;
        store
            .insert_game_with_client(&sample("g2", "p1", 11), other)
            .await
            .unwrap();
        assert_eq!(
            store.engine_client("g2").await.unwrap().as_deref(),
            Some(other)
        );
        assert!(store.load_game("g2").await.unwrap().is_some());
        // A duplicate id writes nothing.
        let dup = store
            .insert_game_with_client(&sample("g2", "p1", 12), keys)
            .await;
        assert!(dup.is_err());
        assert_eq!(
            store.engine_client("g2").await.unwrap().as_deref(),
            Some(other)
        );
    }
}

#[tokio::test]
async fn a_draw_offer_is_marked_on_the_last_move_and_unmarked_when_declined() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        store.insert_game(&sample("g1", "p1", 10)).await.unwrap();
        let mut s = sample("g1", "p1", 10).summary;
        s.plies = 1;
        s.version = 1;
        let e4 = MoveRow {
            draw_offer: false,
            blur: false,
            ..mv(1, "e2e4", "e4")
        };
        store
            .append_moves("g1", 0, std::slice::from_ref(&e4), &s)
            .await
            .unwrap();
        // Offered after the move.
        s.version = 2;
        store.mark_draw_offer("g1", 1, 1, true, &s).await.unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(back.summary.version, 2);
        assert!(moves[0].draw_offer);
        // A stale version or a move that does not exist writes nothing.
        s.version = 3;
        let stale = store.mark_draw_offer("g1", 1, 1, false, &s).await;
        assert!(
            matches!(stale, Err(StoreError::Conflict { .. })),
            "{stale:?}"
        );
        let missing = store.mark_draw_offer("g1", 2, 2, false, &s).await;
        assert!(
            matches!(missing, Err(StoreError::Conflict { .. })),
            "{missing:?}"
        );
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(back.summary.version, 2);
        assert!(moves[0].draw_offer);
        // Declined.
        store.mark_draw_offer("g1", 2, 1, false, &s).await.unwrap();
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert_eq!(back.summary.version, 3);
        assert_eq!(moves, [e4]);
    }
}

#[tokio::test]
async fn a_failed_or_stale_write_writes_nothing() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        store.insert_game(&sample("g1", "p1", 10)).await.unwrap();
        let mut s = sample("g1", "p1", 10).summary;
        s.plies = 2;
        s.version = 1;
        // The second row repeats ply 1: the primary key refuses it and the
        // first row must not survive either.
        let err = store
            .append_moves("g1", 0, &[mv(1, "e2e4", "e4"), mv(1, "d2d4", "d4")], &s)
            .await;
        assert!(err.is_err());
        let (back, moves) = store.load_game("g1").await.unwrap().unwrap();
        assert!(moves.is_empty());
        assert_eq!(back.summary.version, 0);
        // A write expecting another version is refused whole.
        s.plies = 1;
        let err = store
            .append_moves("g1", 5, &[mv(1, "e2e4", "e4")], &s)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Conflict { expected: 5, .. }),
            "{err}"
        );
        assert!(store.load_game("g1").await.unwrap().unwrap().1.is_empty());
        // Two writers expecting the same version: exactly one wins.
        let (e4, d4) = ([mv(1, "e2e4", "e4")], [mv(1, "d2d4", "d4")]);
        let (a, b) = tokio::join!(
            store.append_moves("g1", 0, &e4, &s),
            store.append_moves("g1", 0, &d4, &s),
        );
        assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
        assert_eq!(store.load_game("g1").await.unwrap().unwrap().1.len(), 1);
        // Updating a game that does not exist is an error, not a silent no-op.
        assert!(store.update_game("missing", 0, &s).await.is_err());
    }
}

/// The summary of a game after `plies` plies, at version `version`.
fn after(plies: u32, version: u64) -> GameSummary {
    let mut s = sample("x", "p1", 10).summary;
    s.plies = plies;
    s.version = version;
    s.updated_at = 20 + i64::from(plies);
    s
}

#[tokio::test]
async fn writes_sent_at_once_commit_together_and_a_refused_one_fails_alone() {
    const GAMES: usize = 150;
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        let ids: Vec<String> = (0..GAMES).map(|i| format!("b{i}")).collect();
        for id in &ids {
            store.insert_game(&sample(id, "p1", 10)).await.unwrap();
        }
        // Every game's first move at once (more games than one statement
        // takes), with a stale write and a write to a missing game among
        // them: those two alone are refused.
        let mut writes = tokio::task::JoinSet::new();
        for (i, id) in ids.iter().enumerate() {
            let (store, id) = (store.clone(), id.clone());
            writes.spawn(async move {
                let r = store
                    .append_moves(&id, 0, &[mv(1, "e2e4", "e4")], &after(1, 1))
                    .await;
                (i, r)
            });
        }
        let (stale, missing) = (store.clone(), store.clone());
        writes.spawn(async move {
            let r = stale
                .append_moves("b7", 3, &[mv(1, "d2d4", "d4")], &after(1, 4))
                .await;
            (usize::MAX, r)
        });
        writes.spawn(async move {
            (
                usize::MAX - 1,
                missing.update_game("none", 0, &after(0, 1)).await,
            )
        });
        while let Some(done) = writes.join_next().await {
            match done.unwrap() {
                (usize::MAX, r) => assert!(
                    matches!(r, Err(StoreError::Conflict { expected: 3, .. })),
                    "{r:?}"
                ),
                (i, r) if i == usize::MAX - 1 => assert!(r.is_err()),
                (i, r) => assert!(r.is_ok(), "game {i}: {r:?}"),
            }
        }
        // Then the second moves of half the games, the end of a quarter of
        // them (a reason beside the missing ones) and a take-back of the
        // rest, at once.
        let mut writes = tokio::task::JoinSet::new();
        for (i, id) in ids.iter().enumerate() {
            let (store, id) = (store.clone(), id.clone());
            writes.spawn(async move {
                match i % 4 {
                    0 | 1 => {
                        store
                            .append_moves(&id, 1, &[mv(2, "e7e5", "e5")], &after(2, 2))
                            .await
                    }
                    2 => {
                        let mut ended = after(1, 2);
                        ended.status = GameStatus::Ended;
                        ended.result = GameResult::WhiteWins;
                        ended.reason = Some(Reason::Resignation);
                        store.update_game(&id, 1, &ended).await
                    }
                    _ => store.truncate_moves(&id, 1, 0, &after(0, 2)).await,
                }
            });
        }
        while let Some(done) = writes.join_next().await {
            done.unwrap().unwrap();
        }
        for (i, id) in ids.iter().enumerate() {
            let (row, moves) = store.load_game(id).await.unwrap().unwrap();
            assert_eq!(row.summary.version, 2, "{id}");
            let want = match i % 4 {
                0 | 1 => vec![mv(1, "e2e4", "e4"), mv(2, "e7e5", "e5")],
                2 => vec![mv(1, "e2e4", "e4")],
                _ => vec![],
            };
            assert_eq!(moves, want, "{id}");
            let reason = (i % 4 == 2).then_some(Reason::Resignation);
            assert_eq!(row.summary.reason, reason, "{id}");
        }
    }
}

#[tokio::test]
async fn recent_games_are_newest_first_and_settings_stick() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        store.touch_player("p2", 1).await.unwrap();
        store.insert_game(&sample("a", "p1", 10)).await.unwrap();
        store.insert_game(&sample("b", "p1", 30)).await.unwrap();
        store.insert_game(&sample("c", "p2", 20)).await.unwrap();
        let ids = |rows: Vec<GameRow>| rows.into_iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(store.recent_games("p1", 50).await.unwrap()), ["b", "a"]);
        let all = GameFilter::default();
        assert_eq!(
            ids(store.search_games("p1", &all, 1, 5).await.unwrap()),
            ["a"]
        );
        let between = |since, until| GameFilter {
            since: Some(since),
            until: Some(until),
            ..GameFilter::default()
        };
        assert_eq!(
            ids(store
                .search_games_after("p1", &between(10, 29), None, 5)
                .await
                .unwrap()),
            ["a"]
        );
        assert_eq!(
            ids(store
                .search_games_after("p1", &between(0, 100), None, 1)
                .await
                .unwrap()),
            ["b"]
        );
        // The next page starts after the last game seen, even at one time.
        store.insert_game(&sample("b2", "p1", 30)).await.unwrap();
        let first = store
            .search_games_after("p1", &between(0, 100), None, 1)
            .await
            .unwrap();
        let rest = store
            .search_games_after("p1", &between(0, 100), Some((30, &first[0].id)), 5)
            .await
            .unwrap();
        assert_eq!(
            (ids(first), ids(rest)),
            (vec!["b".to_owned()], vec!["b2".to_owned(), "a".to_owned()])
        );
        assert_eq!(ids(store.ongoing_games("p1", 5).await.unwrap()).len(), 3);
        assert!(store.ongoing_games("p3", 5).await.unwrap().is_empty());
        assert_eq!(store.setting_or_insert("k", "one").await.unwrap(), "one");
        assert_eq!(store.setting_or_insert("k", "two").await.unwrap(), "one");
    }
}

#[tokio::test]
async fn accounts_sessions_and_moved_games() {
    for (_dir, store) in stores().await {
        let alice = store.create_account("pa", "Alice", "h1", 5).await.unwrap();
        assert_eq!(alice.username, "Alice");
        let taken = store.create_account("pb", "aLICE", "h2", 6).await;
        assert!(matches!(taken, Err(StoreError::Taken(_))), "{taken:?}");
        // The refused sign-up left no player behind.
        assert_eq!(store.seat_info("pb").await.unwrap(), SeatInfo::Anonymous);
        let found = store.account_by_name("ALICE").await.unwrap().unwrap();
        assert_eq!(found.account, alice);
        assert_eq!(found.password_hash, "h1");

        let s = NewSession {
            id_hash: "s1",
            player_id: "pa",
            now: 10,
            expires_at: 100,
        };
        store.create_session(&s).await.unwrap();
        store
            .create_session(&NewSession { id_hash: "s2", ..s })
            .await
            .unwrap();
        assert_eq!(
            store.session("s1", 50).await.unwrap(),
            Some((alice.clone(), 10))
        );
        assert_eq!(store.session("s1", 100).await.unwrap(), None);
        store.touch_session("s1", 60, 200).await.unwrap();
        assert_eq!(
            store.session("s1", 150).await.unwrap(),
            Some((alice.clone(), 60))
        );
        assert_eq!(store.delete_other_sessions("pa", "s1").await.unwrap(), 1);
        assert_eq!(store.session("s2", 50).await.unwrap(), None);

        store.touch_player("anon", 1).await.unwrap();
        store.insert_game(&sample("g1", "anon", 10)).await.unwrap();
        let mut done = sample("g2", "anon", 11);
        done.summary.status = GameStatus::Ended;
        store.insert_game(&done).await.unwrap();
        assert_eq!(store.move_games("anon", "pa").await.unwrap(), ["g1"]);
        assert!(store.recent_games("anon", 10).await.unwrap().is_empty());
        assert_eq!(store.recent_games("pa", 10).await.unwrap().len(), 2);

        assert_eq!(
            store.seat_info("pa").await.unwrap(),
            SeatInfo::User("Alice".into())
        );
        store.delete_account("pa", 70).await.unwrap();
        assert_eq!(store.seat_info("pa").await.unwrap(), SeatInfo::Deleted);
        assert_eq!(store.session("s1", 80).await.unwrap(), None);
        assert!(store.account_by_name("alice").await.unwrap().is_none());
        assert_eq!(store.recent_games("pa", 10).await.unwrap().len(), 2);
        // The name stays reserved.
        assert!(matches!(
            store.create_account("pc", "alice", "h3", 90).await,
            Err(StoreError::Taken(_))
        ));
        assert_eq!(store.purge_sessions(1_000).await.unwrap(), 0);
    }
}

#[tokio::test]
async fn a_version_1_database_keeps_its_games_through_the_upgrade() {
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("v1.db").display());
    let pool = AnyPool::connect(&url).await.unwrap();
    let mut v1 = sqlx::migrate!("./migrations");
    v1.migrations = std::borrow::Cow::Owned(v1.migrations[..1].to_vec());
    v1.run(&pool).await.unwrap();
    for sql in [
        "INSERT INTO players VALUES ('p1', 1, 1)",
        "INSERT INTO games VALUES ('g1', 'computer', 'p1', NULL, 'hard', 'fide', 'chess960', 518, \
         'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ongoing', '*', NULL, 1, 1, 5, 6)",
        "INSERT INTO moves VALUES ('g1', 1, 'e2e4', 'e4', NULL, 1, 6)",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let store = Store::open(&url).await.unwrap();
    let (game, moves) = store.load_game("g1").await.unwrap().unwrap();
    assert_eq!(game.position, Some(518));
    assert_eq!(game.level, Some(plyyard_engine::Level::Hard));
    assert_eq!(game.summary.version, 1);
    assert_eq!(
        moves,
        [MoveRow {
            ply: 1,
            uci: "e2e4".into(),
            san: "e4".into(),
            clock_ms: None,
            draw_offer: true,
            blur: false,
        }]
    );
    assert_eq!(store.recent_games("p1", 5).await.unwrap().len(), 1);
}

fn table(code: &str, host: &str, created_at: i64) -> TableRow {
    TableRow {
        code: code.into(),
        host: host.into(),
        guest: None,
        variant: Variant::Standard,
        base_s: 300,
        increment_s: 3,
        rules: RuleSet::PlyYard,
        rated: true,
        public: true,
        status: TableStatus::Open,
        game_id: None,
        created_at,
        expires_at: created_at + 600_000,
    }
}

#[tokio::test]
async fn tables_open_fill_and_expire() {
    for (_dir, store) in stores().await {
        for p in ["host", "guest", "late"] {
            store.touch_player(p, 1).await.unwrap();
        }
        store
            .insert_table(&table("AAAAAA", "host", 10), 3)
            .await
            .unwrap();
        let mut private = table("BBBBBB", "host", 20);
        private.public = false;
        assert!(store.insert_table(&private, 3).await.unwrap());
        store
            .insert_table(&table("CCCCCC", "host", 30), 3)
            .await
            .unwrap();
        assert!(matches!(
            store.insert_table(&table("AAAAAA", "late", 40), 3).await,
            Err(StoreError::Taken(_))
        ));
        let codes = |rows: Vec<TableRow>| rows.into_iter().map(|t| t.code).collect::<Vec<_>>();
        assert_eq!(
            codes(store.lobby(50, 10).await.unwrap()),
            ["CCCCCC", "AAAAAA"]
        );
        assert_eq!(store.open_tables_of("host", 50).await.unwrap(), 3);
        assert_eq!(store.table("BBBBBB").await.unwrap().unwrap(), private);

        // One guest sits; a second one finds the table taken.
        let mut g = sample("game0001", "host", 60);
        g.black_player = Some("guest".into());
        store.insert_game(&g).await.unwrap();
        assert!(
            store
                .seat_guest("AAAAAA", "guest", "game0001", 60)
                .await
                .unwrap()
        );
        assert!(
            !store
                .seat_guest("AAAAAA", "late", "game0001", 61)
                .await
                .unwrap()
        );
        let t = store.table("AAAAAA").await.unwrap().unwrap();
        assert_eq!(
            (t.status, t.guest.as_deref()),
            (TableStatus::Playing, Some("guest"))
        );
        assert_eq!(codes(store.lobby(62, 10).await.unwrap()), ["CCCCCC"]);

        // A rematch moves the table on once.
        let mut g2 = sample("game0002", "guest", 70);
        g2.black_player = Some("host".into());
        store.insert_game(&g2).await.unwrap();
        assert!(
            store
                .next_table_game("AAAAAA", "game0001", "game0002")
                .await
                .unwrap()
        );
        assert!(
            !store
                .next_table_game("AAAAAA", "game0001", "game0002")
                .await
                .unwrap()
        );

        // Expiry and cancelling close open tables only.
        assert!(store.close_table("CCCCCC").await.unwrap());
        assert!(!store.close_table("AAAAAA").await.unwrap());
        assert_eq!(store.expire_tables(600_020).await.unwrap(), ["BBBBBB"]);
        assert!(store.lobby(600_021, 10).await.unwrap().is_empty());
        assert!(
            !store
                .seat_guest("BBBBBB", "guest", "game0001", 30)
                .await
                .unwrap()
        );
    }
}

fn challenge(id: &str, challenger: &str, dest: &str, at: i64) -> ChallengeRow {
    ChallengeRow {
        id: id.into(),
        challenger: challenger.into(),
        dest: dest.into(),
        status: ChallengeStatus::Created,
        decline_reason: None,
        variant: Variant::Chess960,
        base_s: 300,
        increment_s: 3,
        rated: true,
        color: "random".into(),
        final_color: "black".into(),
        created_at: at,
        seen_at: at,
        updated_at: at,
    }
}

#[tokio::test]
async fn deleting_an_account_cancels_the_challenges_it_made_or_received() {
    for (_dir, store) in stores().await {
        for p in ["ann", "bob", "cy"] {
            store.touch_player(p, 1).await.unwrap();
        }
        for (id, from, to) in [
            ("ch000001", "ann", "bob"),
            ("ch000002", "cy", "ann"),
            ("ch000003", "bob", "cy"),
        ] {
            let made = store
                .create_challenge(&challenge(id, from, to, 10), caps(5))
                .await
                .unwrap();
            assert!(made.is_ok());
        }
        let canceled = store.delete_account("ann", 20).await.unwrap();
        let mut ids: Vec<&str> = canceled.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["ch000001", "ch000002"]);
        assert!(
            canceled
                .iter()
                .all(|c| c.status == ChallengeStatus::Canceled && c.updated_at == 20)
        );
        let bobs: Vec<String> = store
            .waiting_challenges("bob")
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(bobs, ["ch000003"]);
        assert!(store.waiting_challenges("ann").await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn challenges_settle_once_and_expire_without_their_challenger() {
    for (_dir, store) in stores().await {
        for p in ["ann", "bob", "cy"] {
            store.touch_player(p, 1).await.unwrap();
        }
        assert!(
            store
                .create_challenge(&challenge("ch000001", "ann", "bob", 10), caps(2))
                .await
                .unwrap()
                .is_ok()
        );
        assert!(
            store
                .create_challenge(&challenge("ch000002", "ann", "cy", 11), caps(2))
                .await
                .unwrap()
                .is_ok()
        );
        assert!(
            store
                .create_challenge(&challenge("ch000003", "ann", "cy", 12), caps(2))
                .await
                .unwrap()
                .is_err(),
            "the cap of waiting challenges"
        );
        // One pair's cap, then the receiver's: a second challenge from bob
        // to cy is refused for the pair, and cy (two waiting) refuses more.
        let wide = ChallengeCaps {
            per_challenger: 9,
            per_dest: 2,
            per_pair: 1,
        };
        assert_eq!(
            store
                .create_challenge(&challenge("ch000010", "ann", "cy", 13), wide)
                .await
                .unwrap(),
            Err(ChallengeCap::Pair)
        );
        assert_eq!(
            store
                .create_challenge(
                    &challenge("ch000011", "bob", "cy", 13),
                    ChallengeCaps {
                        per_dest: 1,
                        ..wide
                    }
                )
                .await
                .unwrap(),
            Err(ChallengeCap::Dest)
        );
        let got = store.challenge("ch000001").await.unwrap().unwrap();
        assert_eq!(got, challenge("ch000001", "ann", "bob", 10));
        assert_eq!(store.waiting_challenges("bob").await.unwrap().len(), 1);
        assert_eq!(store.waiting_challenges("ann").await.unwrap().len(), 2);

        let declined = store
            .settle_challenge("ch000002", ChallengeStatus::Declined, Some("later"), 20)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(declined.status, ChallengeStatus::Declined);
        assert_eq!(declined.decline_reason.as_deref(), Some("later"));
        assert_eq!(
            store
                .settle_challenge("ch000002", ChallengeStatus::Canceled, None, 21)
                .await
                .unwrap(),
            None,
            "a settled challenge does not change again"
        );

        // Accepting stores the table and the game with the challenge's id, once.
        let mut game = sample("ch000001", "ann", 30);
        game.black_player = Some("bob".into());
        let mut t = table("CHTAB1", "ann", 30);
        t.guest = Some("bob".into());
        t.public = false;
        t.status = TableStatus::Playing;
        t.game_id = Some("ch000001".into());
        assert!(
            store
                .accept_challenge("ch000001", &t, &game, 30)
                .await
                .unwrap()
        );
        assert!(
            !store
                .accept_challenge("ch000001", &t, &game, 31)
                .await
                .unwrap()
        );
        assert!(store.load_game("ch000001").await.unwrap().is_some());
        assert_eq!(
            store
                .table("CHTAB1")
                .await
                .unwrap()
                .unwrap()
                .game_id
                .as_deref(),
            Some("ch000001")
        );
        assert_eq!(
            store.challenge("ch000001").await.unwrap().unwrap().status,
            ChallengeStatus::Accepted
        );

        // Only challenges whose challenger is gone expire.
        assert!(
            store
                .create_challenge(&challenge("ch000004", "cy", "ann", 40), caps(2))
                .await
                .unwrap()
                .is_ok()
        );
        assert!(
            store
                .create_challenge(&challenge("ch000005", "bob", "ann", 40), caps(2))
                .await
                .unwrap()
                .is_ok()
        );
        store.touch_challenges("bob", 70).await.unwrap();
        let expired = store.expire_challenges(60, 80).await.unwrap();
        assert_eq!(expired.len(), 1);
        assert_eq!(expired[0].id, "ch000004");
        assert_eq!(expired[0].status, ChallengeStatus::Offline);
        assert_eq!(store.waiting_challenges("ann").await.unwrap().len(), 1);
    }
}

#[tokio::test]
async fn a_review_of_an_older_format_is_replaced_and_never_the_reverse() {
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        store
            .insert_game(&sample("g0000001", "p1", 1))
            .await
            .unwrap();
        let review = |format: u32, analysis: &str| reviews::StoredReview {
            format,
            analysis: analysis.into(),
            created_at: i64::from(format),
        };
        reviews::save_review(&store, "g0000001", &review(1, "old"))
            .await
            .unwrap();
        reviews::save_review(&store, "g0000001", &review(1, "again"))
            .await
            .unwrap();
        let got = reviews::review(&store, "g0000001").await.unwrap().unwrap();
        assert_eq!((got.format, got.analysis.as_str()), (1, "old"));
        reviews::save_review(&store, "g0000001", &review(2, "new"))
            .await
            .unwrap();
        reviews::save_review(&store, "g0000001", &review(1, "stale"))
            .await
            .unwrap();
        let got = reviews::review(&store, "g0000001").await.unwrap().unwrap();
        assert_eq!((got.format, got.analysis.as_str()), (2, "new"));
    }
}

#[tokio::test]
async fn one_node_holds_a_task_lease_until_it_expires_or_is_given_up() {
    use std::time::Duration;
    for (_dir, store) in stores().await {
        let long = Duration::from_secs(30);
        assert_eq!(store.task_lease_holder("director").await.unwrap(), None);
        let first = store
            .hold_task_lease("director", "a", long)
            .await
            .unwrap()
            .expect("node a takes a free lease");
        assert_eq!(
            store.hold_task_lease("director", "b", long).await.unwrap(),
            None
        );
        // Renewing keeps the epoch; another task's lease is another row.
        assert_eq!(
            store.hold_task_lease("director", "a", long).await.unwrap(),
            Some(first)
        );
        assert!(
            store
                .hold_task_lease("other", "b", long)
                .await
                .unwrap()
                .is_some()
        );
        assert_eq!(
            store
                .task_lease_holder("director")
                .await
                .unwrap()
                .as_deref(),
            Some("a")
        );
        // Node a stops renewing: once it expires node b takes it, higher.
        store
            .hold_task_lease("director", "a", Duration::ZERO)
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(store.task_lease_holder("director").await.unwrap(), None);
        let second = store
            .hold_task_lease("director", "b", long)
            .await
            .unwrap()
            .expect("node b takes an expired lease");
        assert!(second > first);
        assert_eq!(
            store.hold_task_lease("director", "a", long).await.unwrap(),
            None
        );
        // Only its holder gives it up; then anyone takes it, higher again.
        store.release_task_lease("director", "a").await.unwrap();
        assert_eq!(
            store.hold_task_lease("director", "a", long).await.unwrap(),
            None
        );
        store.release_task_lease("director", "b").await.unwrap();
        let third = store
            .hold_task_lease("director", "a", long)
            .await
            .unwrap()
            .expect("a released lease is free");
        assert!(third > second);
    }
}

#[tokio::test]
async fn one_node_holds_a_lease_until_it_expires_and_old_epochs_cannot_write() {
    use std::time::Duration;
    for (_dir, store) in stores().await {
        store.touch_player("p1", 1).await.unwrap();
        let mut g = sample("gl", "p1", 10);
        g.kind = GameKind::Table;
        store.insert_game(&g).await.unwrap();
        let long = Duration::from_secs(30);
        let Lease::Held(first) = store.acquire_lease("gl", "a", long).await.unwrap() else {
            panic!("node a takes a free lease");
        };
        let Lease::Elsewhere(holder, left) = store.acquire_lease("gl", "b", long).await.unwrap()
        else {
            panic!("node a holds it");
        };
        assert_eq!(holder, "a");
        assert!(left > Duration::from_secs(25) && left <= long, "{left:?}");
        assert_eq!(
            store.orphaned_games(10).await.unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(store.renew_leases("a", long).await.unwrap(), vec!["gl"]);
        assert_eq!(
            store.acquire_lease("nope", "a", long).await.unwrap(),
            Lease::NoGame
        );
        // Node a's lease runs out: node b takes the game over at a new epoch.
        store.renew_leases("a", Duration::ZERO).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(store.orphaned_games(10).await.unwrap(), vec!["gl"]);
        let Lease::Held(second) = store.acquire_lease("gl", "b", long).await.unwrap() else {
            panic!("node b takes an expired lease");
        };
        assert!(second > first);
        assert!(store.renew_leases("a", long).await.unwrap().is_empty());
        let mut s = g.summary.clone();
        s.version = 1;
        s.plies = 1;
        let stale = Fence {
            version: 0,
            epoch: Some(first),
        };
        let e4 = [mv(1, "e2e4", "e4")];
        let refused = store.append_moves("gl", stale, &e4, &s).await;
        assert!(matches!(refused, Err(StoreError::Conflict { .. })));
        let owner = Fence {
            version: 0,
            epoch: Some(second),
        };
        store
            .append_moves("gl", owner, &[mv(1, "e2e4", "e4")], &s)
            .await
            .unwrap();
        // Giving it up at an old epoch does nothing; at its own, frees it.
        store.release_lease("gl", "b", first).await.unwrap();
        assert!(matches!(
            store.acquire_lease("gl", "a", long).await.unwrap(),
            Lease::Elsewhere(..)
        ));
        assert_eq!(store.release_leases("b").await.unwrap(), vec!["gl"]);
        assert!(matches!(
            store.acquire_lease("gl", "a", long).await.unwrap(),
            Lease::Held(_)
        ));
    }
}

#[tokio::test]
async fn clubs_members_leaders_and_requests() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Alice"), ("pb", "Bob"), ("pc", "Carol")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let club = NewClub {
            id: "river-club",
            name: "River Club",
            description: "By the river",
            open: false,
            leader: "pa",
            now: 10,
        };
        store.create_club(&club).await.unwrap();
        assert!(matches!(
            store
                .create_club(&NewClub {
                    leader: "pb",
                    ..club
                })
                .await,
            Err(StoreError::Taken(_))
        ));
        let row = store.club("river-club").await.unwrap().unwrap();
        assert_eq!((row.nb_members, row.open), (1, false));
        assert!(
            store
                .club_member("river-club", "pa")
                .await
                .unwrap()
                .unwrap()
                .leader
        );

        // A request, asked twice, declined, and not asked again.
        store
            .add_club_request("river-club", "pb", "let me in", 20)
            .await
            .unwrap();
        assert!(matches!(
            store
                .add_club_request("river-club", "pb", "again", 21)
                .await,
            Err(StoreError::Taken(_))
        ));
        store
            .add_club_request("river-club", "pc", "me too", 22)
            .await
            .unwrap();
        let pending = store.club_requests("river-club", false, 10).await.unwrap();
        assert_eq!(
            pending
                .iter()
                .map(|r| r.username.as_str())
                .collect::<Vec<_>>(),
            ["Bob", "Carol"]
        );
        assert!(
            store
                .decline_club_request("river-club", "pc")
                .await
                .unwrap()
        );
        assert!(
            !store
                .decline_club_request("river-club", "pc")
                .await
                .unwrap()
        );
        assert!(
            !store
                .accept_club_request("river-club", "pc", 23)
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .club_requests("river-club", true, 10)
                .await
                .unwrap()
                .len(),
            1
        );
        assert!(
            store
                .accept_club_request("river-club", "pb", 30)
                .await
                .unwrap()
        );
        assert!(
            store
                .club_request("river-club", "pb")
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            store.club("river-club").await.unwrap().unwrap().nb_members,
            2
        );
        assert!(!store.add_club_member("river-club", "pb", 31).await.unwrap());

        // Members newest first; the only leader stays until another leads.
        let members = store.club_members("river-club", 10).await.unwrap();
        assert_eq!(members[0].username, "Bob");
        assert_eq!(
            store.remove_club_member("river-club", "pa").await.unwrap(),
            Removal::OnlyLeader
        );
        assert!(
            !store
                .set_club_leader("river-club", "pa", false)
                .await
                .unwrap()
        );
        assert!(
            store
                .set_club_leader("river-club", "pb", true)
                .await
                .unwrap()
        );
        assert_eq!(store.club_leaders("river-club").await.unwrap().len(), 2);
        assert_eq!(
            store.remove_club_member("river-club", "pa").await.unwrap(),
            Removal::Removed
        );
        assert_eq!(
            store.remove_club_member("river-club", "pa").await.unwrap(),
            Removal::NotMember
        );
        assert_eq!(
            store.club("river-club").await.unwrap().unwrap().nb_members,
            1
        );

        // Pages: by size, and by a name's part taken literally.
        store
            .create_club(&NewClub {
                id: "big",
                name: "Big 100% Club",
                description: "",
                open: true,
                leader: "pa",
                now: 40,
            })
            .await
            .unwrap();
        assert!(store.add_club_member("big", "pc", 41).await.unwrap());
        let (all, total) = store.clubs_page(None, 0, 10).await.unwrap();
        assert_eq!(total, 2);
        assert_eq!(all[0].id, "big");
        let (found, n) = store.clubs_page(Some("100%"), 0, 10).await.unwrap();
        assert_eq!((n, found[0].id.as_str()), (1, "big"));
        assert_eq!(store.clubs_page(Some("1_0"), 0, 10).await.unwrap().1, 0);
        assert_eq!(
            store.clubs_page(Some("CLUB"), 1, 10).await.unwrap().0.len(),
            1
        );
        let of_c: Vec<String> = store
            .clubs_of("pc", 10)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(of_c, ["big"]);

        // A deleted leader's club passes to its longest-standing member.
        store.delete_account("pa", 50).await.unwrap();
        let big = store.club("big").await.unwrap().unwrap();
        assert_eq!(big.nb_members, 1);
        assert!(
            store
                .club_member("big", "pc")
                .await
                .unwrap()
                .unwrap()
                .leader
        );
    }
}

fn caps(per_challenger: u32) -> ChallengeCaps {
    ChallengeCaps {
        per_challenger,
        per_dest: 2,
        per_pair: 1,
    }
}

fn puzzle(id: &str, rating: f64) -> NewPuzzle {
    NewPuzzle {
        row: PuzzleRow {
            id: id.into(),
            fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1".into(),
            moves: "g8f8 a1a8".into(),
            initial_ply: 1,
            rating,
            deviation: 80.0,
            volatility: 0.06,
            popularity: 90,
            plays: 10,
            themes: "mate mateIn1 backRankMate".into(),
            game_url: String::new(),
            opening_tags: String::new(),
            source: "lichess".into(),
        },
        angles: vec!["mix".into(), "mateIn1".into()],
    }
}

#[tokio::test]
async fn puzzles_import_walk_serve_and_rate_once() {
    for (_dir, store) in stores().await {
        let batch: Vec<NewPuzzle> = (0..1000)
            .map(|i| puzzle(&format!("p{i:04}"), 1000.0 + f64::from(i)))
            .collect();
        assert_eq!(store.insert_puzzles(&batch).await.unwrap(), 1000);
        // Idempotent: the same rows again add nothing.
        assert_eq!(store.insert_puzzles(&batch[..10]).await.unwrap(), 0);
        assert_eq!(store.puzzle_count().await.unwrap(), 1000);
        let walk = store
            .angle_walk("mateIn1", (1499, "p0499"), 1510, 50)
            .await
            .unwrap();
        assert_eq!(walk.first().map(|w| w.1.as_str()), Some("p0500"));
        assert_eq!(walk.len(), 11);
        assert!(
            store
                .angle_walk("fork", (0, ""), 9999, 5)
                .await
                .unwrap()
                .is_empty()
        );

        store.touch_player("solver", 1).await.unwrap();
        let ids: Vec<String> = walk.iter().take(2).map(|w| w.1.clone()).collect();
        let rate = |before: Option<PuzzleRating>, p: Glicko| {
            assert!(before.is_none());
            Some(Rated {
                player_before: 1500.0,
                player: Glicko {
                    rating: 1520.0,
                    deviation: 300.0,
                    volatility: 0.06,
                },
                puzzle: Some(Glicko {
                    rating: p.rating - 5.0,
                    ..p
                }),
            })
        };
        // Never served: refused.
        assert_eq!(
            store
                .record_puzzle_round("solver", "p0500", "mix", true, 5, rate)
                .await
                .unwrap(),
            None
        );
        store
            .serve_puzzles("solver", "mix", &ids, (1501, "p0501"), 5)
            .await
            .unwrap();
        assert_eq!(
            store.puzzle_cursor("solver", "mix").await.unwrap(),
            Some((1501, "p0501".into()))
        );
        assert_eq!(
            store
                .served_among(
                    "solver",
                    &walk.iter().map(|w| w.1.clone()).collect::<Vec<_>>()
                )
                .await
                .unwrap()
                .len(),
            2
        );
        let first = store
            .record_puzzle_round("solver", "p0500", "mix", true, 6, rate)
            .await
            .unwrap();
        assert!(matches!(first, Some(Recorded::First(Some(_)))), "{first:?}");
        let again = store
            .record_puzzle_round("solver", "p0500", "mix", false, 7, |_, _| {
                panic!("a replay is not rated")
            })
            .await
            .unwrap();
        assert_eq!(again, Some(Recorded::Replay));
        let r = store.puzzle_rating("solver").await.unwrap().unwrap();
        assert_eq!((r.glicko.rating, r.games), (1520.0, 1));
        let p = store.puzzle("p0500").await.unwrap().unwrap();
        assert_eq!((p.rating, p.plays), (1495.0, 11));
        let rounds = store.puzzle_rounds("solver", 0, 10).await.unwrap();
        assert_eq!(rounds.len(), 1);
        assert!(rounds[0].win && rounds[0].rated);
    }
}

/// Many solvers at once (on SQLite, batched by the trainer's group-commit
/// writer): every served mark, cursor and rated round is kept, each
/// player's rounds rate one after the other, and a write that fails (a
/// puzzle that does not exist, a rule that panics) fails alone.
#[tokio::test]
async fn solvers_at_once_keep_every_write_and_a_failing_one_fails_alone() {
    for (_dir, store) in stores().await {
        let batch: Vec<NewPuzzle> = (0..40)
            .map(|i| puzzle(&format!("q{i:04}"), 1500.0))
            .collect();
        store.insert_puzzles(&batch).await.unwrap();
        let gain = |before: Option<PuzzleRating>, p: Glicko| {
            let r = before.map_or(1500.0, |b| b.glicko.rating);
            Some(Rated {
                player_before: r,
                player: Glicko {
                    rating: r + 10.0,
                    deviation: 100.0,
                    volatility: 0.06,
                },
                puzzle: Some(p),
            })
        };
        let mut tasks = tokio::task::JoinSet::new();
        for s in 0..20 {
            let store = store.clone();
            tasks.spawn(async move {
                let player = format!("s{s:02}");
                let ids = vec![format!("q{:04}", 2 * s), format!("q{:04}", 2 * s + 1)];
                store
                    .serve_puzzles(&player, "mix", &ids, (1500, &ids[1]), 3)
                    .await
                    .unwrap();
                let missing = store.mark_served(&player, "nowhere", 4).await;
                assert!(missing.is_err(), "{missing:?}");
                let panicked = store
                    .record_puzzle_round(&player, &ids[0], "mix", true, 5, |_, _| {
                        panic!("a failing rule")
                    })
                    .await;
                assert!(panicked.is_err(), "{panicked:?}");
                let (a, b) = tokio::join!(
                    store.record_puzzle_round(&player, &ids[0], "mix", true, 6, gain),
                    store.record_puzzle_round(&player, &ids[1], "mix", false, 6, gain),
                );
                for r in [a, b] {
                    assert!(matches!(r, Ok(Some(Recorded::First(Some(_))))), "{r:?}");
                }
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.unwrap();
        }
        for s in 0..20 {
            let player = format!("s{s:02}");
            let r = store.puzzle_rating(&player).await.unwrap().unwrap();
            assert_eq!((r.glicko.rating, r.games), (1520.0, 2), "{player}");
            assert_eq!(store.puzzle_rounds(&player, 0, 10).await.unwrap().len(), 2);
            assert_eq!(
                store.puzzle_cursor(&player, "mix").await.unwrap(),
                Some((1500, format!("q{:04}", 2 * s + 1)))
            );
        }
    }
}

#[tokio::test]
async fn a_rated_round_follows_unrated_ones_on_every_connection() {
    // On PostgreSQL an unrated round's missing ratings were once bound as
    // `real`, and the statement cached with them on a connection refused
    // that connection's next rated round. Unrated rounds first, enough to
    // pass through every pooled connection, then rated ones.
    for (_dir, store) in stores().await {
        let batch: Vec<NewPuzzle> = (0..20)
            .map(|i| puzzle(&format!("q{i:02}"), 1500.0))
            .collect();
        store.insert_puzzles(&batch).await.unwrap();
        let ids: Vec<String> = batch.iter().map(|p| p.row.id.clone()).collect();
        for player in ["casual", "rated"] {
            store.touch_player(player, 1).await.unwrap();
            store
                .serve_puzzles(player, "mix", &ids, (1500, "q19"), 2)
                .await
                .unwrap();
        }
        for id in &ids {
            let casual = store
                .record_puzzle_round("casual", id, "mix", false, 3, |_, _| None)
                .await
                .unwrap();
            assert_eq!(casual, Some(Recorded::First(None)));
        }
        for id in &ids {
            let rated = store
                .record_puzzle_round("rated", id, "mix", true, 4, |before, p| {
                    let rating = before.map_or(1500.0, |b| b.glicko.rating);
                    Some(Rated {
                        player_before: rating,
                        player: Glicko {
                            rating: rating + 10.0,
                            ..p
                        },
                        puzzle: None,
                    })
                })
                .await
                .unwrap();
            assert!(matches!(rated, Some(Recorded::First(Some(_)))), "{rated:?}");
        }
        let rounds = store.puzzle_rounds("rated", 0, 50).await.unwrap();
        assert_eq!(rounds.len(), 20);
        assert!(
            rounds
                .iter()
                .all(|r| r.rated && r.rating_after == r.rating_before.map(|b| b + 10.0))
        );
        let casual = store.puzzle_rounds("casual", 0, 50).await.unwrap();
        assert_eq!(casual.len(), 20);
        assert!(casual.iter().all(|r| !r.rated && r.rating_before.is_none()));
    }
}

#[tokio::test]
async fn a_half_minute_table_game_and_challenge_keep_their_30_second_base() {
    let half = plyyard_game::TimeControl::from_secs(30, 0).unwrap();
    for (_dir, store) in stores().await {
        for p in ["ann", "bob"] {
            store.touch_player(p, 1).await.unwrap();
        }
        let mut t = table("HALFMN", "ann", 10);
        t.base_s = 30;
        t.increment_s = 0;
        t.guest = Some("bob".into());
        t.status = TableStatus::Playing;
        t.game_id = Some("halfgame".into());
        let mut g = sample("halfgame", "ann", 10);
        g.kind = GameKind::Table;
        g.black_player = Some("bob".into());
        g.level = None;
        g.table = Some(TableGame {
            code: "HALFMN".into(),
            rated: true,
            control: half,
        });
        store.insert_paired_table(&t, &g).await.unwrap();
        assert_eq!(store.table("HALFMN").await.unwrap().unwrap(), t);
        let (game, _) = store.load_game("halfgame").await.unwrap().unwrap();
        assert_eq!(game.table.unwrap().control, half);

        // Three hours plus three minutes a move, the longest clock, too.
        let mut long = table("LONGMN", "bob", 20);
        long.base_s = 10_800;
        long.increment_s = 180;
        assert!(store.insert_table(&long, 3).await.unwrap());
        assert_eq!(store.table("LONGMN").await.unwrap().unwrap(), long);

        let mut c = challenge("half0001", "ann", "bob", 30);
        c.base_s = 30;
        c.increment_s = 0;
        let caps = ChallengeCaps {
            per_challenger: 9,
            per_dest: 9,
            per_pair: 9,
        };
        store.create_challenge(&c, caps).await.unwrap().unwrap();
        assert_eq!(store.challenge("half0001").await.unwrap().unwrap(), c);
        // The column no longer read still holds whole minutes.
        let minutes: i64 = sqlx::query_scalar("SELECT minutes FROM tables WHERE code = 'LONGMN'")
            .fetch_one(store.pool())
            .await
            .unwrap();
        assert_eq!(minutes, 180);
    }
}

#[tokio::test]
async fn tables_and_challenges_stored_in_minutes_get_their_base_in_seconds() {
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("v23.db").display());
    let pool = AnyPool::connect(&url).await.unwrap();
    let mut before = sqlx::migrate!("./migrations");
    let kept: Vec<_> = before
        .migrations
        .iter()
        .filter(|m| m.version < 24)
        .cloned()
        .collect();
    before.migrations = std::borrow::Cow::Owned(kept);
    before.run(&pool).await.unwrap();
    for sql in [
        "INSERT INTO players VALUES ('p1', 1, 1)",
        "INSERT INTO players VALUES ('p2', 1, 1)",
        "INSERT INTO tables (code, host_player, variant, minutes, increment_s, rules, rated, \
         public, status, created_at, expires_at) \
         VALUES ('OLDTBL', 'p1', 'standard', 15, 10, 'plyyard', 0, 1, 'open', 1, 9999999999999)",
        "INSERT INTO challenges (id, challenger, dest, status, variant, minutes, increment_s, \
         rated, color, final_color, created_at, seen_at, updated_at) \
         VALUES ('oldchall', 'p1', 'p2', 'created', 'standard', 5, 3, 0, 'random', 'white', 1, 1, 1)",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;
    let store = Store::open(&url).await.unwrap();
    let t = store.table("OLDTBL").await.unwrap().unwrap();
    assert_eq!((t.base_s, t.increment_s), (900, 10));
    let c = store.challenge("oldchall").await.unwrap().unwrap();
    assert_eq!((c.base_s, c.increment_s), (300, 3));
}

#[tokio::test]
async fn puzzles_import_keeps_the_first_of_an_id_and_never_reindexes_a_stored_puzzle() {
    for (_dir, store) in stores().await {
        let mut odd = puzzle("q0002", 1234.0);
        odd.row.game_url = "https://lichess.org/a\"b\\c#12".into();
        odd.row.opening_tags = "Caro-Kann_Defense \u{e9}\u{44b}".into();
        odd.row.initial_ply = 77;
        odd.row.plays = 4_294_967_295;
        odd.row.popularity = -100;
        let mut twin = puzzle("q0001", 2222.0);
        twin.angles.push("fork".into());
        let batch = vec![puzzle("q0001", 1111.0), odd.clone(), twin.clone()];
        assert_eq!(store.insert_puzzles(&batch).await.unwrap(), 2);
        // Every field as given, whatever its characters.
        assert_eq!(store.puzzle("q0002").await.unwrap().unwrap(), odd.row);
        // Of an id given twice, the first row is kept, with its angles.
        assert_eq!(store.puzzle("q0001").await.unwrap().unwrap().rating, 1111.0);
        assert!(
            store
                .angle_walk("fork", (0, ""), 9999, 5)
                .await
                .unwrap()
                .is_empty()
        );
        // Stored already: neither the puzzle nor its index changes.
        assert_eq!(store.insert_puzzles(&[twin]).await.unwrap(), 0);
        assert_eq!(store.puzzle("q0001").await.unwrap().unwrap().rating, 1111.0);
        let mix = store.angle_walk("mix", (0, ""), 9999, 10).await.unwrap();
        assert_eq!(
            mix,
            vec![(1111, "q0001".to_owned()), (1234, "q0002".to_owned())]
        );
        assert!(
            store
                .angle_walk("fork", (0, ""), 9999, 5)
                .await
                .unwrap()
                .is_empty()
        );
        // A large batch is one statement, whatever its size.
        let many: Vec<NewPuzzle> = (0..6000)
            .map(|i| puzzle(&format!("m{i:05}"), 600.0 + f64::from(i % 2000)))
            .collect();
        assert_eq!(store.insert_puzzles(&many).await.unwrap(), 6000);
        assert_eq!(store.puzzle_count().await.unwrap(), 6002);
        assert_eq!(store.insert_puzzles(&[]).await.unwrap(), 0);
    }
}

#[tokio::test]
async fn fair_play_verdicts_are_stored_once_and_the_walk_passes_them() {
    for (_dir, store) in stores().await {
        for p in ["ann", "bob"] {
            store.touch_player(p, 1).await.unwrap();
        }
        let mut g = sample("fp1", "ann", 10);
        g.black_player = Some("bob".into());
        store.insert_game(&g).await.unwrap();
        store
            .apply_rated_result(
                "fp1",
                "ann",
                "bob",
                plyyard_rating::Speed::Blitz,
                GameResult::WhiteWins,
                1000,
            )
            .await
            .unwrap();
        assert_eq!(
            store.games_to_assess(0, 10).await.unwrap(),
            [("fp1".to_owned(), 1000)]
        );
        assert_eq!(store.games_to_assess(1001, 10).await.unwrap(), []);
        assert_eq!(store.fair_play_reached().await.unwrap(), 0);
        let white = FairPlayRow {
            game_id: "fp1".into(),
            color: "white".into(),
            player_id: "ann".into(),
            speed: Some(plyyard_game::Speed::Blitz),
            verdict: Some("cheating".into()),
            signals: "lowLoss flatTimes".into(),
            acpl: Some(4),
            won: true,
            rated_at: 1000,
            created_at: 2000,
        };
        let black = FairPlayRow {
            color: "black".into(),
            player_id: "bob".into(),
            speed: None,
            verdict: None,
            signals: String::new(),
            acpl: None,
            won: false,
            ..white.clone()
        };
        store
            .save_fair_play(&[white.clone(), black.clone()])
            .await
            .unwrap();
        // Judged again (another node, a retry): the first verdicts stay.
        let again = FairPlayRow {
            verdict: Some("notCheating".into()),
            ..white.clone()
        };
        store.save_fair_play(&[again]).await.unwrap();
        assert_eq!(store.games_to_assess(0, 10).await.unwrap(), []);
        assert_eq!(store.fair_play_reached().await.unwrap(), 1000);
        assert_eq!(store.fair_play_of("ann", 10).await.unwrap(), [white]);
        assert_eq!(store.fair_play_of("bob", 10).await.unwrap(), [black]);
        assert_eq!(store.rated_game_count("ann").await.unwrap(), 1);
        assert_eq!(store.rated_game_count("nobody").await.unwrap(), 0);
    }
}

#[tokio::test]
async fn game_searches_keep_what_each_filter_names() {
    use plyyard_game::TimeControl;
    for (_dir, store) in stores().await {
        for p in ["me", "ann", "bob"] {
            store.touch_player(p, 1).await.unwrap();
        }
        // (id, white, black, clock, rated, result, chess960)
        let games = [
            (
                "g1",
                "me",
                "ann",
                Some(TimeControl::PRESET_1_0),
                true,
                GameResult::WhiteWins,
                false,
            ),
            (
                "g2",
                "bob",
                "me",
                Some(TimeControl::PRESET_3_2),
                false,
                GameResult::WhiteWins,
                false,
            ),
            (
                "g3",
                "ann",
                "me",
                Some(TimeControl::PRESET_10_5),
                true,
                GameResult::Draw,
                false,
            ),
            (
                "g4",
                "me",
                "bob",
                Some(TimeControl::PRESET_30_20),
                false,
                GameResult::BlackWins,
                true,
            ),
            ("g5", "me", "ann", None, false, GameResult::Aborted, false),
        ];
        for (i, (id, w, b, clock, rated, result, c960)) in games.into_iter().enumerate() {
            let at = 10 * (i as i64 + 1);
            let mut g = sample(id, w, at);
            g.black_player = Some(b.into());
            g.level = None;
            g.kind = if clock.is_some() {
                GameKind::Table
            } else {
                GameKind::Computer
            };
            g.table = clock.map(|control| TableGame {
                code: format!("T{id}"),
                rated,
                control,
            });
            if c960 {
                g.variant = Variant::Chess960;
                g.position = Some(518);
            }
            store.insert_game(&g).await.unwrap();
            if result != GameResult::Aborted {
                let mut s = g.summary.clone();
                s.status = GameStatus::Ended;
                s.result = result;
                s.reason = Some(Reason::Resignation);
                s.version = 1;
                store.update_game(id, 0, &s).await.unwrap();
            }
        }
        let review = reviews::StoredReview {
            format: 1,
            analysis: "{}".into(),
            created_at: 1,
        };
        reviews::save_review(&store, "g3", &review).await.unwrap();
        let found = |f: GameFilter| {
            let store = store.clone();
            async move {
                let rows = store.search_games("me", &f, 0, 50).await.unwrap();
                rows.into_iter().map(|g| g.id).collect::<Vec<_>>()
            }
        };
        let all = GameFilter::default();
        assert_eq!(found(all.clone()).await, ["g5", "g4", "g3", "g2", "g1"]);
        let vs_ann = GameFilter {
            vs: Some("ann".into()),
            ..all.clone()
        };
        assert_eq!(found(vs_ann.clone()).await, ["g5", "g3", "g1"]);
        let white = GameFilter {
            white: Some(true),
            ..vs_ann.clone()
        };
        assert_eq!(found(white).await, ["g5", "g1"]);
        let black = GameFilter {
            white: Some(false),
            ..all.clone()
        };
        assert_eq!(found(black).await, ["g3", "g2"]);
        let won = GameFilter {
            outcome: Some(Outcome::Win),
            ..all.clone()
        };
        assert_eq!(found(won).await, ["g1"]);
        let lost = GameFilter {
            outcome: Some(Outcome::Loss),
            ..all.clone()
        };
        assert_eq!(found(lost).await, ["g4", "g2"]);
        let drawn = GameFilter {
            outcome: Some(Outcome::Draw),
            ..all.clone()
        };
        assert_eq!(found(drawn).await, ["g3"]);
        let fast = GameFilter {
            perfs: vec!["bullet", "blitz"],
            ..all.clone()
        };
        assert_eq!(found(fast).await, ["g2", "g1"]);
        let slow = GameFilter {
            perfs: vec!["rapid", "classical", "correspondence"],
            ..all.clone()
        };
        assert_eq!(found(slow).await, ["g5", "g3"]);
        let c960 = GameFilter {
            perfs: vec!["chess960"],
            ..all.clone()
        };
        assert_eq!(found(c960).await, ["g4"]);
        let rated = GameFilter {
            rated: Some(true),
            ..all.clone()
        };
        assert_eq!(found(rated).await, ["g3", "g1"]);
        let casual = GameFilter {
            rated: Some(false),
            ended_only: true,
            ..all.clone()
        };
        assert_eq!(found(casual).await, ["g4", "g2"]);
        let analysed = GameFilter {
            analysed: Some(true),
            ..all.clone()
        };
        assert_eq!(found(analysed).await, ["g3"]);
        let dated = GameFilter {
            since: Some(20),
            until: Some(40),
            ..all.clone()
        };
        assert_eq!(found(dated).await, ["g4", "g3", "g2"]);
        let none = GameFilter {
            vs: Some("bob".into()),
            rated: Some(true),
            ..all
        };
        assert!(found(none).await.is_empty());
    }
}

#[tokio::test]
async fn a_database_of_version_30_keeps_its_angles_without_their_key() {
    use sqlx::{Executor as _, Row as _};
    sqlx::any::install_default_drivers();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let mut older = sqlx::migrate!("./migrations");
    older.migrations = older
        .migrations
        .iter()
        .filter(|m| m.version <= 30)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    older.run(&pool).await.unwrap();
    crate::sqlite_layout::cluster_tables(&pool).await.unwrap();
    for sql in [
        "INSERT INTO puzzles VALUES ('a1b2c', 'f', 'e2e4 e7e5', 1, 1500, 80, 0.09, 90, 10, \
         'fork', '', '', 'lichess')",
        "INSERT INTO puzzle_angles VALUES ('mix', 1500, 'a1b2c'), ('fork', 1500, 'a1b2c')",
    ] {
        pool.execute(sql).await.unwrap();
    }
    pool.close().await;
    let store = crate::Store::open(&url).await.unwrap();
    let walk = store.angle_walk("fork", (0, ""), 3000, 10).await.unwrap();
    assert_eq!(walk, vec![(1500, "a1b2c".to_owned())]);
    let sql: String = sqlx::query("SELECT sql FROM sqlite_master WHERE name = 'puzzle_angles'")
        .fetch_one(store.pool())
        .await
        .unwrap()
        .try_get(0)
        .unwrap();
    assert!(sql.ends_with("WITHOUT ROWID"), "{sql}");
    assert!(!sql.contains("REFERENCES"), "{sql}");
}
