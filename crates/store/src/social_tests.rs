//! Storage tests of relations, private messages and notifications, each
//! run on SQLite and, when `PLYYARD_TEST_PG` names a server, PostgreSQL.

use plyyard_game::{GameResult, RuleSet, Variant};

use super::*;
use crate::testing::stores;

/// A casual table game between `white` and `black`, not begun.
fn game(id: &str, white: &str, black: &str) -> GameRow {
    GameRow {
        id: id.into(),
        kind: GameKind::Table,
        white_player: Some(white.into()),
        black_player: Some(black.into()),
        level: None,
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
            updated_at: 5,
        },
        created_at: 5,
        table: None,
        clock: None,
    }
}

async fn accounts(store: &Store, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        store
            .create_account(&format!("p{name}"), name, "h", i as i64 + 1)
            .await
            .unwrap();
    }
}

fn names(list: &[Account]) -> Vec<&str> {
    list.iter().map(|a| a.username.as_str()).collect()
}

#[tokio::test]
async fn follows_and_blocks_replace_each_other_and_a_block_ends_the_follow_back() {
    for (_dir, store) in stores().await {
        accounts(&store, &["Ann", "Bob", "Cy"]).await;
        store
            .set_relation("pAnn", "pBob", RelationKind::Follow, 10)
            .await
            .unwrap();
        store
            .set_relation("pAnn", "pCy", RelationKind::Follow, 20)
            .await
            .unwrap();
        store
            .set_relation("pBob", "pAnn", RelationKind::Follow, 30)
            .await
            .unwrap();
        // Following again keeps the first date (the order of the list).
        store
            .set_relation("pAnn", "pBob", RelationKind::Follow, 40)
            .await
            .unwrap();
        let following = store
            .related_by("pAnn", RelationKind::Follow, 10)
            .await
            .unwrap();
        assert_eq!(names(&following), ["Cy", "Bob"]);
        let followers = store
            .related_to("pAnn", RelationKind::Follow, 10)
            .await
            .unwrap();
        assert_eq!(names(&followers), ["Bob"]);
        assert_eq!(store.follow_counts("pAnn").await.unwrap(), (2, 1));
        assert_eq!(
            store.relation("pAnn", "pBob").await.unwrap(),
            Some(RelationKind::Follow)
        );

        // Bob blocks Ann: his follow becomes a block, hers of him ends.
        store
            .set_relation("pBob", "pAnn", RelationKind::Block, 50)
            .await
            .unwrap();
        assert_eq!(
            store.relation("pBob", "pAnn").await.unwrap(),
            Some(RelationKind::Block)
        );
        assert_eq!(store.relation("pAnn", "pBob").await.unwrap(), None);
        assert_eq!(store.follow_counts("pAnn").await.unwrap(), (1, 0));
        let blocked = store
            .related_by("pBob", RelationKind::Block, 10)
            .await
            .unwrap();
        assert_eq!(names(&blocked), ["Ann"]);

        // Ending the other kind changes nothing; ending the right one does.
        assert!(
            !store
                .end_relation("pBob", "pAnn", RelationKind::Follow)
                .await
                .unwrap()
        );
        assert!(
            store
                .end_relation("pBob", "pAnn", RelationKind::Block)
                .await
                .unwrap()
        );
        assert_eq!(store.relation("pBob", "pAnn").await.unwrap(), None);
        assert!(
            store
                .related_by("pBob", RelationKind::Block, 10)
                .await
                .unwrap()
                .is_empty()
        );

        // The limit holds.
        assert_eq!(
            store
                .related_by("pAnn", RelationKind::Follow, 0)
                .await
                .unwrap()
                .len(),
            0
        );
    }
}

#[tokio::test]
async fn messages_make_one_thread_per_pair_with_its_unread_mark() {
    for (_dir, store) in stores().await {
        accounts(&store, &["Ann", "Bob", "Cy"]).await;
        let msg = |author: &str, text: &str, at: i64| MsgRow {
            author: author.into(),
            text: text.into(),
            created_at: at,
        };
        store
            .add_msg("pAnn", "pBob", &msg("pAnn", "hi Bob", 10))
            .await
            .unwrap();
        store
            .add_msg("pBob", "pAnn", &msg("pBob", "hi Ann", 20))
            .await
            .unwrap();
        store
            .add_msg("pCy", "pAnn", &msg("pCy", "<b>hello</b>", 30))
            .await
            .unwrap();
        assert_eq!(thread_id("pBob", "pAnn"), thread_id("pAnn", "pBob"));
        assert!(store.has_written("pCy", "pAnn").await.unwrap());
        assert!(!store.has_written("pAnn", "pCy").await.unwrap());

        let between = store.msgs_between("pBob", "pAnn", 10).await.unwrap();
        assert_eq!(
            between,
            [msg("pAnn", "hi Bob", 10), msg("pBob", "hi Ann", 20)]
        );
        assert_eq!(
            store.msgs_between("pAnn", "pBob", 1).await.unwrap(),
            [msg("pBob", "hi Ann", 20)]
        );

        let ann = store.msg_threads("pAnn", 10).await.unwrap();
        assert_eq!(ann.len(), 2);
        assert_eq!(
            (ann[0].other.as_str(), ann[0].other_name.as_deref()),
            ("pCy", Some("Cy"))
        );
        assert_eq!(ann[0].last, msg("pCy", "<b>hello</b>", 30));
        assert!(ann[0].unread_by("pAnn") && ann[1].unread_by("pAnn"));
        assert_eq!(store.unread_threads("pAnn").await.unwrap(), 2);
        // Bob wrote last in his thread with Ann: nothing unread for him.
        assert_eq!(store.unread_threads("pBob").await.unwrap(), 0);
        let bob = store.msg_threads("pBob", 10).await.unwrap();
        assert!(!bob[0].unread_by("pBob") && !bob[0].read);

        assert!(store.read_thread("pAnn", "pBob").await.unwrap());
        assert!(!store.read_thread("pAnn", "pBob").await.unwrap());
        assert_eq!(store.unread_threads("pAnn").await.unwrap(), 1);
        // A new message makes it unread again, for its reader only.
        store
            .add_msg("pBob", "pAnn", &msg("pBob", "again", 40))
            .await
            .unwrap();
        assert_eq!(store.unread_threads("pAnn").await.unwrap(), 2);
        assert_eq!(store.msg_threads("pAnn", 1).await.unwrap()[0].other, "pBob");
    }
}

#[tokio::test]
async fn players_who_met_at_a_game_are_known_to_each_other() {
    for (_dir, store) in stores().await {
        accounts(&store, &["Ann", "Bob", "Cy"]).await;
        assert!(!store.have_played("pAnn", "pBob").await.unwrap());
        store
            .insert_game(&game("g1", "pAnn", "pBob"))
            .await
            .unwrap();
        assert!(store.have_played("pBob", "pAnn").await.unwrap());
        assert!(store.have_played("pAnn", "pBob").await.unwrap());
        assert!(!store.have_played("pAnn", "pCy").await.unwrap());
    }
}

#[tokio::test]
async fn notifications_are_listed_seen_and_pruned() {
    for (_dir, store) in stores().await {
        accounts(&store, &["Ann", "Bob"]).await;
        let note = |id: &str, who: &str, at: i64| NotificationRow {
            id: id.into(),
            player_id: who.into(),
            kind: "msg".into(),
            content: format!("{{\"n\":\"{id}\"}}"),
            seen: false,
            created_at: at,
        };
        for n in [
            note("n1", "pAnn", 10),
            note("n2", "pAnn", 20),
            note("n3", "pBob", 30),
        ] {
            store.add_notification(&n).await.unwrap();
        }
        let ann = store.notifications("pAnn", 10).await.unwrap();
        assert_eq!(ann, [note("n2", "pAnn", 20), note("n1", "pAnn", 10)]);
        assert_eq!(store.unseen_notifications("pAnn").await.unwrap(), 2);
        assert_eq!(store.see_notifications("pAnn").await.unwrap(), 2);
        assert_eq!(store.see_notifications("pAnn").await.unwrap(), 0);
        assert_eq!(store.unseen_notifications("pAnn").await.unwrap(), 0);
        assert!(
            store
                .notifications("pAnn", 10)
                .await
                .unwrap()
                .iter()
                .all(|n| n.seen)
        );
        assert_eq!(store.unseen_notifications("pBob").await.unwrap(), 1);
        assert_eq!(store.prune_notifications(20).await.unwrap(), 1);
        assert_eq!(store.notifications("pAnn", 10).await.unwrap().len(), 1);
    }
}
