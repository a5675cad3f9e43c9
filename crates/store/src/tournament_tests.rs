//! Tournament storage tests, on SQLite and (with `PLYYARD_TEST_PG`) on
//! PostgreSQL: creating and listing, joining once and within the bound,
//! withdrawing with its pauses, games stored with their table only while
//! started, and scoring each game once.

use plyyard_game::{GameResult, RuleSet, TimeControl, Variant};

use super::*;
use crate::testing::stores;

pub(crate) fn tournament(id: &str, by: &str, club: Option<&str>, starts_at: i64) -> TournamentRow {
    TournamentRow {
        id: id.into(),
        kind: "arena".into(),
        name: format!("{id} Arena"),
        description: String::new(),
        created_by: by.into(),
        club_id: club.map(str::to_owned),
        settings: "{}".into(),
        status: TournamentStatus::Created,
        starts_at,
        finishes_at: starts_at + 3_600_000,
        nb_players: 0,
        created_at: 1,
    }
}

pub(crate) fn game(
    id: &str,
    code: &str,
    white: &str,
    black: &str,
) -> (TableRow, GameRow, PairingRow) {
    let control = TimeControl::table(3, 2).unwrap();
    let table = TableRow {
        code: code.into(),
        host: white.into(),
        guest: Some(black.into()),
        variant: Variant::Standard,
        base_s: 180,
        increment_s: 2,
        rules: RuleSet::PlyYard,
        rated: true,
        public: false,
        status: TableStatus::Playing,
        game_id: Some(id.into()),
        created_at: 10,
        expires_at: 10,
    };
    let row = GameRow {
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
            updated_at: 10,
        },
        created_at: 10,
        table: Some(TableGame {
            code: code.into(),
            rated: true,
            control,
        }),
        clock: None,
    };
    let pairing = PairingRow {
        game_id: id.into(),
        tournament_id: "arena001".into(),
        white: white.into(),
        black: black.into(),
        white_rating: 1500,
        black_rating: 1600,
        status: PairingStatus::Playing,
        result: None,
        plies: 0,
        white_berserk: false,
        black_berserk: false,
        created_at: 10,
        finished_at: None,
        round: 0,
    };
    (table, row, pairing)
}

#[tokio::test]
async fn tournaments_players_and_games() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob"), ("pc", "Cy")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        store
            .create_tournament(&tournament("arena001", "pa", None, 100))
            .await
            .unwrap();
        store
            .create_tournament(&tournament("arena002", "pb", None, 50))
            .await
            .unwrap();
        assert!(matches!(
            store
                .create_tournament(&tournament("arena001", "pb", None, 1))
                .await,
            Err(StoreError::Taken(_))
        ));
        let ids = |rows: Vec<TournamentRow>| rows.into_iter().map(|t| t.id).collect::<Vec<_>>();
        assert_eq!(
            ids(store
                .tournaments_with_status("arena", TournamentStatus::Created, false, 10)
                .await
                .unwrap()),
            ["arena002", "arena001"]
        );
        assert_eq!(store.tournaments_created_since("pa", 0).await.unwrap(), 1);
        assert_eq!(store.tournaments_created_since("pa", 2).await.unwrap(), 0);

        // Joining: once, within the bound; withdrawing records a pause.
        let join = |p: &'static str, max: i64| {
            let store = store.clone();
            async move { store.join_tournament("arena001", p, 1500, max, 20).await }
        };
        assert_eq!(join("pa", 2).await.unwrap(), JoinResult::Joined);
        assert_eq!(join("pa", 2).await.unwrap(), JoinResult::AlreadyIn);
        assert_eq!(join("pb", 2).await.unwrap(), JoinResult::Joined);
        assert_eq!(join("pc", 2).await.unwrap(), JoinResult::Full);
        assert_eq!(
            store
                .join_tournament("nosuch00", "pa", 1500, 9, 20)
                .await
                .unwrap(),
            JoinResult::Closed
        );
        assert!(
            store
                .withdraw_from_tournament("arena001", "pb", 30)
                .await
                .unwrap()
        );
        assert!(
            !store
                .withdraw_from_tournament("arena001", "pb", 31)
                .await
                .unwrap()
        );
        assert!(
            !store
                .withdraw_from_tournament("arena001", "pc", 31)
                .await
                .unwrap()
        );
        let bob = store
            .tournament_player("arena001", "pb")
            .await
            .unwrap()
            .unwrap();
        assert!(bob.withdrawn);
        assert_eq!((bob.pauses, bob.username.as_str()), (vec![30], "Bob"));
        assert_eq!(join("pb", 2).await.unwrap(), JoinResult::Rejoined);
        let players = store.tournament_players("arena001").await.unwrap();
        assert_eq!(players.len(), 2);
        assert!(players.iter().all(|p| !p.withdrawn));
        assert_eq!(
            store
                .tournament("arena001")
                .await
                .unwrap()
                .unwrap()
                .nb_players,
            2
        );

        // Games are stored only while the tournament is started.
        let (t, g, p) = game("tgame001", "TTTTT1", "pa", "pb");
        assert!(!store.insert_tournament_game(&t, &g, &p).await.unwrap());
        assert!(store.load_game("tgame001").await.unwrap().is_none());
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
                .set_tournament_status(
                    "arena001",
                    TournamentStatus::Created,
                    TournamentStatus::Started,
                    None
                )
                .await
                .unwrap()
        );
        assert!(store.insert_tournament_game(&t, &g, &p).await.unwrap());
        assert!(store.table("TTTTT1").await.unwrap().is_some());
        // Nobody still playing is paired again (two directors, one stale):
        // nothing of the second game is stored.
        let (t3, g3, mut p3) = game("tgame003", "TTTTT3", "pc", "pb");
        p3.game_id = "tgame003".into();
        assert!(matches!(
            store.insert_tournament_game(&t3, &g3, &p3).await,
            Err(StoreError::Busy(who)) if who == "pb"
        ));
        assert!(store.load_game("tgame003").await.unwrap().is_none());
        assert!(store.table("TTTTT3").await.unwrap().is_none());
        assert_eq!(
            store.tournament_pairing("tgame001").await.unwrap().unwrap(),
            p
        );
        assert!(
            store
                .set_tournament_berserk("tgame001", "pb")
                .await
                .unwrap()
        );
        assert!(
            !store
                .set_tournament_berserk("tgame001", "pc")
                .await
                .unwrap()
        );
        assert!(store.tournament_games_ended(10).await.unwrap().is_empty());

        // The game ends: it is found once, scored once.
        let mut ended = g.summary.clone();
        ended.status = GameStatus::Ended;
        ended.result = GameResult::BlackWins;
        ended.plies = 24;
        ended.version = 1;
        ended.updated_at = 77;
        store.update_game("tgame001", 0, &ended).await.unwrap();
        let due = store.tournament_games_ended(10).await.unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(
            (due[0].result, due[0].plies, due[0].ended_at),
            (GameResult::BlackWins, 24, 77)
        );
        assert!(due[0].pairing.black_berserk && !due[0].pairing.white_berserk);
        assert!(
            store
                .finish_tournament_pairing("tgame001", GameResult::BlackWins, 24, 99)
                .await
                .unwrap()
        );
        assert!(
            !store
                .finish_tournament_pairing("tgame001", GameResult::BlackWins, 24, 99)
                .await
                .unwrap()
        );
        assert!(store.tournament_games_ended(10).await.unwrap().is_empty());
        let all = store.tournament_pairings("arena001").await.unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(
            (all[0].status, all[0].result, all[0].finished_at),
            (
                PairingStatus::Finished,
                Some(GameResult::BlackWins),
                Some(99)
            )
        );

        // Finished: no more games, no more joins.
        assert!(
            store
                .set_tournament_status(
                    "arena001",
                    TournamentStatus::Started,
                    TournamentStatus::Finished,
                    Some(500)
                )
                .await
                .unwrap()
        );
        let done = store.tournament("arena001").await.unwrap().unwrap();
        assert_eq!(
            (done.status, done.finishes_at),
            (TournamentStatus::Finished, 500)
        );
        assert_eq!(join("pc", 9).await.unwrap(), JoinResult::Closed);
        let (t2, g2, mut p2) = game("tgame002", "TTTTT2", "pa", "pb");
        p2.game_id = "tgame002".into();
        assert!(!store.insert_tournament_game(&t2, &g2, &p2).await.unwrap());
    }
}

#[tokio::test]
async fn club_tournaments_are_listed_for_their_club() {
    for (_dir, store) in stores().await {
        store.create_account("pa", "Ann", "h", 1).await.unwrap();
        store
            .create_club(&NewClub {
                id: "club-one",
                name: "Club One",
                description: "d",
                open: true,
                leader: "pa",
                now: 1,
            })
            .await
            .unwrap();
        store
            .create_tournament(&tournament("clubare1", "pa", Some("club-one"), 10))
            .await
            .unwrap();
        store
            .create_tournament(&tournament("clubare2", "pa", Some("club-one"), 20))
            .await
            .unwrap();
        store
            .create_tournament(&tournament("openare1", "pa", None, 30))
            .await
            .unwrap();
        let ids: Vec<_> = store
            .club_tournaments("arena", "club-one", 10)
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(ids, ["clubare2", "clubare1"]);
    }
}
