//! Swiss storage tests, on SQLite and (with `PLYYARD_TEST_PG`) on
//! PostgreSQL: a round is paired once and only after the last one
//! finished, a bye is given once per player, games keep their round, a
//! player is removed only before the start, and edits apply only in the
//! status they expect.

use super::*;
use crate::testing::stores;
use crate::tournament_tests::{game, tournament};

#[tokio::test]
async fn swiss_rounds_byes_and_removals() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob"), ("pc", "Cy")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let mut row = tournament("arena001", "pa", None, 100);
        row.kind = "swiss".into();
        store.create_tournament(&row).await.unwrap();
        for p in ["pa", "pb", "pc"] {
            store
                .join_tournament("arena001", p, 1500, 10, 20)
                .await
                .unwrap();
        }
        // Listed as a Swiss only.
        assert!(
            store
                .tournaments_with_status("arena", TournamentStatus::Created, false, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store
                .tournaments_with_status("swiss", TournamentStatus::Created, false, 10)
                .await
                .unwrap()
                .len(),
            1
        );

        // Before the start: no round; a player is removed; edits apply.
        assert!(
            !store
                .pair_swiss_round("arena001", 1, None, 30)
                .await
                .unwrap()
        );
        assert!(
            store
                .remove_tournament_player("arena001", "pc")
                .await
                .unwrap()
        );
        assert!(
            !store
                .remove_tournament_player("arena001", "pc")
                .await
                .unwrap()
        );
        assert_eq!(
            store
                .tournament("arena001")
                .await
                .unwrap()
                .unwrap()
                .nb_players,
            2
        );
        row.name = "Renamed".into();
        assert!(
            store
                .edit_tournament(&row, TournamentStatus::Created)
                .await
                .unwrap()
        );
        assert!(
            !store
                .edit_tournament(&row, TournamentStatus::Started)
                .await
                .unwrap()
        );
        assert_eq!(
            store.tournament("arena001").await.unwrap().unwrap().name,
            "Renamed"
        );
        store
            .join_tournament("arena001", "pc", 1500, 10, 21)
            .await
            .unwrap();

        assert!(
            store
                .set_tournament_status(
                    "arena001",
                    TournamentStatus::Created,
                    TournamentStatus::Started,
                    None
                )
                .await
                .unwrap()
        );
        assert!(
            !store
                .remove_tournament_player("arena001", "pc")
                .await
                .unwrap()
        );
        // Round 2 cannot come first; round 1 is paired once.
        assert!(
            !store
                .pair_swiss_round("arena001", 2, None, 30)
                .await
                .unwrap()
        );
        assert!(
            store
                .pair_swiss_round("arena001", 1, Some("pc"), 30)
                .await
                .unwrap()
        );
        assert!(
            !store
                .pair_swiss_round("arena001", 1, None, 31)
                .await
                .unwrap()
        );
        let (t, g, mut p) = game("game0001", "CODE01", "pa", "pb");
        p.round = 1;
        assert!(store.insert_tournament_game(&t, &g, &p).await.unwrap());
        assert_eq!(
            store.tournament_pairings("arena001").await.unwrap()[0].round,
            1
        );
        // Round 2 waits for round 1 to finish.
        assert!(
            !store
                .pair_swiss_round("arena001", 2, None, 40)
                .await
                .unwrap()
        );
        assert!(!store.schedule_swiss_round("arena001", 99).await.unwrap());
        assert!(
            store
                .finish_swiss_round("arena001", 1, 50, None)
                .await
                .unwrap()
        );
        assert!(
            !store
                .finish_swiss_round("arena001", 1, 51, None)
                .await
                .unwrap()
        );
        assert!(store.schedule_swiss_round("arena001", 60).await.unwrap());
        let rounds = store.swiss_rounds("arena001").await.unwrap();
        assert_eq!(
            rounds,
            [SwissRoundRow {
                round: 1,
                paired_at: 30,
                finished_at: Some(50),
                next_round_at: Some(60),
            }]
        );
        // A second bye for the same player is refused and nothing is written.
        assert!(
            store
                .pair_swiss_round("arena001", 2, Some("pc"), 70)
                .await
                .is_err()
        );
        assert_eq!(store.swiss_rounds("arena001").await.unwrap().len(), 1);
        assert!(
            store
                .pair_swiss_round("arena001", 2, Some("pb"), 70)
                .await
                .unwrap()
        );
        assert_eq!(
            store.swiss_byes("arena001").await.unwrap(),
            [(1, "pc".to_string()), (2, "pb".to_string())]
        );
    }
}
