//! Moderation storage tests, on SQLite and (with `PLYYARD_TEST_PG`) on
//! PostgreSQL: roles given once and logged, marks set and lifted once,
//! closing an account revoking its sessions and tokens in the same
//! transaction, shadow chat lines read by their author only, warnings
//! until read, reports closed with their action in one change, and the
//! SQLite backup.

use super::*;
use crate::testing::stores;
use plyyard_game::GameResult;

async fn accounts(store: &Store, names: &[&str]) {
    for (i, n) in names.iter().enumerate() {
        store
            .create_account(&format!("p_{n}"), n, "hash", 1 + i as i64)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn roles_are_given_once_taken_away_and_logged() {
    for (_dir, store) in stores().await {
        accounts(&store, &["ada", "bob"]).await;
        let admin = store
            .set_staff_role(None, "p_ada", Some("admin"), 10)
            .await
            .unwrap();
        assert_eq!(admin, MarkChange::Done);
        let again = store
            .set_staff_role(None, "p_ada", Some("admin"), 11)
            .await
            .unwrap();
        assert_eq!(again, MarkChange::Unchanged);
        let by_ada = store
            .set_staff_role(Some("p_ada"), "p_bob", Some("moderator"), 12)
            .await
            .unwrap();
        assert_eq!(by_ada, MarkChange::Done);
        assert_eq!(
            store.staff_role("p_bob").await.unwrap().as_deref(),
            Some("moderator")
        );
        assert_eq!(
            store.staff().await.unwrap(),
            [
                ("ada".to_owned(), "admin".to_owned()),
                ("bob".to_owned(), "moderator".to_owned())
            ]
        );
        store
            .set_staff_role(Some("p_ada"), "p_bob", None, 13)
            .await
            .unwrap();
        assert_eq!(store.staff_role("p_bob").await.unwrap(), None);
        let log = store.mod_log(None, None, 10).await.unwrap();
        let seen: Vec<_> = log
            .iter()
            .map(|e| {
                (
                    e.moderator.as_deref(),
                    e.action.as_str(),
                    e.target.as_deref(),
                    e.details.as_str(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (Some("ada"), "role", Some("bob"), "none"),
                (Some("ada"), "role", Some("bob"), "moderator"),
                (None, "role", Some("ada"), "admin"),
            ]
        );
        // Paging by time, and one player's entries.
        assert_eq!(store.mod_log(None, Some(12), 10).await.unwrap().len(), 1);
        assert_eq!(
            store.mod_log(Some("p_ada"), None, 10).await.unwrap().len(),
            1
        );
    }
}

#[tokio::test]
async fn marks_are_set_once_and_lifted_once() {
    for (_dir, store) in stores().await {
        accounts(&store, &["mia", "max"]).await;
        let by = Some("p_mia");
        assert_eq!(
            store
                .set_mark(by, "p_max", "mute", "spam", 5)
                .await
                .unwrap(),
            MarkChange::Done
        );
        assert_eq!(
            store
                .set_mark(by, "p_max", "mute", "again", 6)
                .await
                .unwrap(),
            MarkChange::Unchanged
        );
        assert_eq!(
            store.set_mark(by, "p_max", "engine", "", 7).await.unwrap(),
            MarkChange::Done
        );
        assert!(store.has_mark("p_max", "mute").await.unwrap());
        let marks = store.mod_marks("p_max").await.unwrap();
        assert_eq!(marks.len(), 2);
        assert_eq!(marks[0].mark, "engine");
        assert_eq!(marks[1].moderator.as_deref(), Some("mia"));
        assert_eq!(marks[1].reason, "spam");
        let lifted = store
            .lift_mark(by, "p_max", ("mute", "unmute"), "sorry", 8)
            .await
            .unwrap();
        assert_eq!(lifted, MarkChange::Done);
        let twice = store
            .lift_mark(by, "p_max", ("mute", "unmute"), "", 9)
            .await
            .unwrap();
        assert_eq!(twice, MarkChange::Unchanged);
        assert!(!store.has_mark("p_max", "mute").await.unwrap());
        let actions: Vec<String> = store
            .mod_log(Some("p_max"), None, 10)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.action)
            .collect();
        assert_eq!(
            actions,
            ["unmute", "engine", "mute"],
            "nothing logged for what was refused"
        );
    }
}

#[tokio::test]
async fn closing_revokes_every_session_and_token_at_once() {
    for (_dir, store) in stores().await {
        accounts(&store, &["mod", "cat"]).await;
        let session = NewSession {
            id_hash: "s1",
            player_id: "p_cat",
            now: 1,
            expires_at: i64::MAX / 2,
        };
        store.create_session(&session).await.unwrap();
        let token = NewToken {
            id: "t1",
            hash: "h1",
            player_id: "p_cat",
            kind: TokenKind::Personal,
            scopes: "board:play",
            description: "bot",
            client_id: None,
            now: 1,
            expires_at: None,
        };
        assert!(store.create_token(&token, 10).await.unwrap());
        assert!(store.session("s1", 2).await.unwrap().is_some());
        let closed = store
            .set_mark(Some("p_mod"), "p_cat", "close", "abuse", 3)
            .await
            .unwrap();
        assert_eq!(closed, MarkChange::Done);
        assert!(store.session("s1", 4).await.unwrap().is_none());
        assert!(store.tokens_of("p_cat", 4).await.unwrap().is_empty());
        assert!(store.has_mark("p_cat", "close").await.unwrap());
        // Reopened: the mark goes, the revoked credentials stay revoked.
        let reopened = store
            .lift_mark(Some("p_mod"), "p_cat", ("close", "reopen"), "", 5)
            .await
            .unwrap();
        assert_eq!(reopened, MarkChange::Done);
        assert!(!store.has_mark("p_cat", "close").await.unwrap());
        assert!(store.session("s1", 6).await.unwrap().is_none());
    }
}

fn line(author: &str, text: &str, at: i64) -> ChatLineRow {
    ChatLineRow {
        game_id: "club1".into(),
        room: "club".into(),
        author: format!("p_{author}"),
        author_name: author.into(),
        text: text.into(),
        created_at: at,
    }
}

#[tokio::test]
async fn a_muted_players_lines_are_read_by_them_alone() {
    for (_dir, store) in stores().await {
        accounts(&store, &["mod", "eve", "ann"]).await;
        assert!(!store.add_chat_line(&line("eve", "hello", 1)).await.unwrap());
        store
            .set_mark(Some("p_mod"), "p_eve", "mute", "spam", 2)
            .await
            .unwrap();
        assert!(
            store
                .add_chat_line(&line("eve", "buy my course", 3))
                .await
                .unwrap()
        );
        assert!(
            !store
                .add_chat_line(&line("ann", "hi eve", 4))
                .await
                .unwrap()
        );
        let texts = |lines: Vec<ChatLineRow>| lines.into_iter().map(|l| l.text).collect::<Vec<_>>();
        let everyone = store.chat_lines("club1", "club", 10).await.unwrap();
        assert_eq!(texts(everyone), ["hello", "hi eve"]);
        let ann = store
            .chat_lines_for("club1", "club", 10, Some("p_ann"))
            .await
            .unwrap();
        assert_eq!(texts(ann), ["hello", "hi eve"]);
        let eve = store
            .chat_lines_for("club1", "club", 10, Some("p_eve"))
            .await
            .unwrap();
        assert_eq!(texts(eve), ["hello", "buy my course", "hi eve"]);
        // The moderators' evidence holds every line, the shadow ones marked.
        let by_eve = store.chat_lines_by("p_eve", 10).await.unwrap();
        let seen: Vec<(&str, bool)> = by_eve.iter().map(|(l, s)| (l.text.as_str(), *s)).collect();
        assert_eq!(seen, [("buy my course", true), ("hello", false)]);
        // Unmuted: later lines are everyone's again.
        store
            .lift_mark(Some("p_mod"), "p_eve", ("mute", "unmute"), "", 5)
            .await
            .unwrap();
        assert!(!store.add_chat_line(&line("eve", "sorry", 6)).await.unwrap());
        let everyone = store.chat_lines("club1", "club", 10).await.unwrap();
        assert_eq!(texts(everyone), ["hello", "hi eve", "sorry"]);
    }
}

#[tokio::test]
async fn a_warning_waits_until_read_or_withdrawn() {
    for (_dir, store) in stores().await {
        accounts(&store, &["mod", "ivy"]).await;
        assert!(store.unread_warning("p_ivy").await.unwrap().is_none());
        assert_eq!(
            store
                .warn(Some("p_mod"), "p_ivy", "be nice", 1)
                .await
                .unwrap(),
            MarkChange::Done
        );
        assert_eq!(
            store
                .warn(Some("p_mod"), "p_ivy", "again", 2)
                .await
                .unwrap(),
            MarkChange::Unchanged
        );
        let w = store.unread_warning("p_ivy").await.unwrap().unwrap();
        assert_eq!(w.text, "be nice");
        assert!(
            !store.read_warning("p_mod", &w.id, 3).await.unwrap(),
            "someone else's"
        );
        assert!(store.read_warning("p_ivy", &w.id, 3).await.unwrap());
        assert!(!store.read_warning("p_ivy", &w.id, 4).await.unwrap());
        assert!(store.unread_warning("p_ivy").await.unwrap().is_none());
        // Read: nothing to withdraw; a new one can be withdrawn unread.
        let none = store
            .withdraw_warning(Some("p_mod"), "p_ivy", "", 5)
            .await
            .unwrap();
        assert_eq!(none, MarkChange::Unchanged);
        store
            .warn(Some("p_mod"), "p_ivy", "last one", 6)
            .await
            .unwrap();
        let gone = store
            .withdraw_warning(Some("p_mod"), "p_ivy", "mistake", 7)
            .await
            .unwrap();
        assert_eq!(gone, MarkChange::Done);
        assert!(store.unread_warning("p_ivy").await.unwrap().is_none());
    }
}

#[tokio::test]
async fn reports_are_closed_with_their_action_in_one_change() {
    for (_dir, store) in stores().await {
        accounts(&store, &["mod", "rob", "sue", "tom"]).await;
        for (who, at) in [("p_sue", 1), ("p_tom", 2)] {
            let r = NewReport {
                reporter: who,
                reported: "p_rob",
                reason: "abuse",
                text: "insults",
                now: at,
            };
            store.add_report(&r).await.unwrap();
        }
        let other = NewReport {
            reporter: "p_rob",
            reported: "p_tom",
            reason: "cheat",
            text: "too strong",
            now: 3,
        };
        store.add_report(&other).await.unwrap();
        let open = store.open_reports(10).await.unwrap();
        assert_eq!(open.len(), 3);
        assert_eq!(
            (open[0].reporter.as_str(), open[0].reported.as_str()),
            ("sue", "rob")
        );
        let closed = store
            .close_reports(
                "p_mod",
                "p_rob",
                Some(("mute", "insults")),
                "mute: insults",
                10,
            )
            .await
            .unwrap();
        assert_eq!(closed, 2);
        assert!(store.has_mark("p_rob", "mute").await.unwrap());
        assert_eq!(store.open_reports(10).await.unwrap().len(), 1);
        let again = store
            .close_reports("p_mod", "p_rob", None, "none", 11)
            .await
            .unwrap();
        assert_eq!(again, 0);
        // Sue and Tom are told, once each, and Rob is not.
        for (who, n) in [("p_sue", 1), ("p_tom", 1), ("p_rob", 0)] {
            let notes = store.notifications(who, 10).await.unwrap();
            assert_eq!(notes.len(), n, "{who}");
            if let Some(note) = notes.first() {
                assert_eq!(note.kind, "report");
                let content: serde_json::Value = serde_json::from_str(&note.content).unwrap();
                assert_eq!(
                    content,
                    serde_json::json!({"kind": "report", "about": "rob"})
                );
            }
        }
        let about = store.reports_about("p_rob", 10).await.unwrap();
        assert!(about.iter().all(|r| r.closed_by.as_deref() == Some("mod")
            && r.outcome.as_deref() == Some("mute: insults")));
        let mut actions: Vec<String> = store
            .mod_log(Some("p_rob"), None, 10)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.action)
            .collect();
        actions.sort();
        assert_eq!(actions, ["mute", "report"]);
        // A warning given on closing.
        let warned = store
            .close_reports(
                "p_mod",
                "p_tom",
                Some(("warn", "no accusations")),
                "warn",
                12,
            )
            .await
            .unwrap();
        assert_eq!(warned, 1);
        assert_eq!(
            store.unread_warning("p_tom").await.unwrap().unwrap().text,
            "no accusations"
        );
    }
}

#[tokio::test]
async fn a_sqlite_backup_is_a_copy_and_postgresql_is_refused() {
    for (dir, store) in stores().await {
        accounts(&store, &["zoe"]).await;
        let Some(dir) = dir else {
            let err = store.backup_into("/tmp/never.db").await.unwrap_err();
            assert!(matches!(err, StoreError::Unsupported(_)), "{err}");
            continue;
        };
        let out = dir.path().join("copy.db");
        store.backup_into(out.to_str().unwrap()).await.unwrap();
        let copy = Store::open(out.to_str().unwrap()).await.unwrap();
        assert!(copy.account_named("zoe").await.unwrap().is_some());
        // An existing, non-empty file is never overwritten.
        assert!(store.backup_into(out.to_str().unwrap()).await.is_err());
    }
}

/// A finished game `id` of `white` against `black`, rated at `at`.
async fn rated(store: &Store, id: &str, (white, black): (&str, &str), result: GameResult, at: i64) {
    store
        .insert_game(&GameRow {
            id: id.into(),
            kind: GameKind::Computer,
            white_player: Some(white.into()),
            black_player: Some(black.into()),
            level: None,
            rules: plyyard_game::RuleSet::PlyYard,
            variant: plyyard_game::Variant::Standard,
            position: None,
            initial_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            summary: GameSummary {
                status: GameStatus::Ended,
                result,
                reason: None,
                plies: 40,
                version: 41,
                updated_at: at,
            },
            created_at: at,
            table: None,
            clock: None,
        })
        .await
        .unwrap();
    store
        .apply_rated_result(id, white, black, plyyard_rating::Speed::Blitz, result, at)
        .await
        .unwrap()
        .unwrap();
}

async fn blitz(store: &Store, player: &str) -> plyyard_rating::PlayerRating {
    store
        .rating(player, plyyard_rating::Speed::Blitz)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_engine_mark_gives_established_victims_their_points_back_once() {
    const DAY: i64 = 24 * 3600 * 1000;
    let now = 100 * DAY;
    for (_dir, store) in stores().await {
        accounts(&store, &["cheat", "vic", "newbie", "old", "filler", "mia"]).await;
        // Vic and Old are established: ten games each against Filler.
        for (i, p) in ["p_vic", "p_old"].into_iter().enumerate() {
            for g in 0..10 {
                let result = [GameResult::WhiteWins, GameResult::BlackWins][g % 2];
                let id = format!("f{i}{g}");
                rated(&store, &id, (p, "p_filler"), result, now - 20 * DAY).await;
            }
        }
        // Old lost to the cheater a week ago: too long ago.
        rated(
            &store,
            "g_old",
            ("p_cheat", "p_old"),
            GameResult::WhiteWins,
            now - 7 * DAY,
        )
        .await;
        let before = blitz(&store, "p_vic").await;
        rated(
            &store,
            "g1",
            ("p_cheat", "p_vic"),
            GameResult::WhiteWins,
            now - DAY,
        )
        .await;
        rated(
            &store,
            "g2",
            ("p_vic", "p_cheat"),
            GameResult::BlackWins,
            now - DAY / 2,
        )
        .await;
        // Newbie's rating is provisional: nothing to refund.
        rated(
            &store,
            "g3",
            ("p_newbie", "p_cheat"),
            GameResult::BlackWins,
            now - DAY,
        )
        .await;
        let after = blitz(&store, "p_vic").await;
        let lost = before.glicko.rating - after.glicko.rating;
        // Vic won half of the ten games against Filler, and lost both to the cheater.
        assert_eq!(
            store.results_by_speed("p_vic").await.unwrap(),
            [(plyyard_rating::Speed::Blitz, 5, 0, 7)]
        );
        assert!(lost > 10.0, "{lost}");
        let old = blitz(&store, "p_old").await;
        let newbie = blitz(&store, "p_newbie").await;

        assert_eq!(
            store
                .set_mark(Some("p_mia"), "p_cheat", "engine", "", now)
                .await
                .unwrap(),
            MarkChange::Done
        );
        let refunds = store.refunds_for("p_cheat").await.unwrap();
        assert_eq!(refunds.len(), 1, "{refunds:?}");
        assert_eq!(refunds[0].player_id, "p_vic");
        // Vic is still below the best rating of those games: all of it, rounded.
        assert_eq!(refunds[0].points, lost.round());
        let now_vic = blitz(&store, "p_vic").await;
        assert!((now_vic.glicko.rating - (after.glicko.rating + lost.round())).abs() < 1e-9);
        assert_eq!(blitz(&store, "p_old").await, old);
        assert_eq!(blitz(&store, "p_newbie").await, newbie);
        let notes = store.notifications("p_vic", 10).await.unwrap();
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].kind, "refund");
        let content: serde_json::Value = serde_json::from_str(&notes[0].content).unwrap();
        assert_eq!(content["points"], serde_json::json!(lost.round() as i64));

        // Lifted and marked again: no second refund.
        store
            .lift_mark(
                Some("p_mia"),
                "p_cheat",
                ("engine", "unengine"),
                "",
                now + 1,
            )
            .await
            .unwrap();
        store
            .set_mark(Some("p_mia"), "p_cheat", "engine", "", now + 2)
            .await
            .unwrap();
        assert_eq!(store.refunds_for("p_cheat").await.unwrap(), refunds);
        assert_eq!(blitz(&store, "p_vic").await, now_vic);
    }
}

#[tokio::test]
async fn names_are_found_by_their_beginning_but_not_closed_ones() {
    for (_dir, store) in stores().await {
        accounts(&store, &["Anna", "annie_b", "annxb", "ann_c", "Bob"]).await;
        let names = |p: &'static str| {
            let store = store.clone();
            async move {
                store
                    .names_beginning(p, 10)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(names("ANN").await, ["ann_c", "Anna", "annie_b", "annxb"]);
        // `_` is a letter of a name here, not LIKE's wildcard.
        assert_eq!(names("ann_").await, ["ann_c"]);
        assert_eq!(names("annie_").await, ["annie_b"]);
        assert!(names("zed").await.is_empty());
        store
            .set_mark(None, "p_ann_c", "close", "", 5)
            .await
            .unwrap();
        assert_eq!(names("ann_").await, Vec::<String>::new());
        assert_eq!(store.names_beginning("ann", 2).await.unwrap().len(), 2);
    }
}
