//! The runtime over real stores (SQLite, and PostgreSQL with
//! `PLYYARD_TEST_PG`) and real live games: an Arena starts, pairs two
//! online players into a live game, the game is played to mate through
//! the live door and scored on the sheets; pauses, rejoining,
//! terminating and club Arenas are refused and allowed as they should be.

use std::sync::Arc;
use std::time::Duration;

use plyyard_arena::{ArenaDraft, ConditionsDraft, Timestamp};
use plyyard_clubs::Clubs;
use plyyard_engine_time::pool::EnginePool;
use plyyard_live::metrics::Metrics;
use plyyard_live::{Action, Games, LiveDeps, LiveTuning};
use plyyard_social::Presence;
use plyyard_store::testing::stores;
use plyyard_store::{PairingStatus, PlayerId, Store, TournamentStatus, now_ms};

use crate::{NewArena, TournamentError, Tournaments, TournamentsDeps};

fn live(store: &Store) -> Games {
    let metrics = Arc::new(Metrics::default());
    let engines = Arc::new(EnginePool::new(1, 1, 1.0, Arc::clone(&metrics.engine)));
    Games::new(Arc::new(LiveDeps::new(
        plyyard_live::registry(),
        store.clone(),
        engines,
        metrics,
        LiveTuning::default(),
    )))
}

pub(crate) fn tournaments(store: &Store, presence: &Arc<Presence>) -> (Tournaments, Games) {
    let games = live(store);
    let t = Tournaments::new(TournamentsDeps {
        store: store.clone(),
        live: games.clone(),
        clubs: Clubs::new(store.clone()),
        presence: Arc::clone(presence),
        notifications: plyyard_social::notify::Notifications::new(store.clone(), Arc::default()),
        feeds: Arc::default(),
    });
    (t, games)
}

fn draft(now: Timestamp) -> ArenaDraft {
    ArenaDraft {
        clock_base_seconds: 180,
        clock_increment_seconds: 2,
        minutes: 30,
        starts_at: now,
        berserkable: true,
        streakable: true,
        rated: true,
        variant: "standard".into(),
        conditions: ConditionsDraft::default(),
        has_chat: true,
    }
}

fn new_arena(draft: ArenaDraft) -> NewArena {
    NewArena {
        name: Some("Test".into()),
        description: String::new(),
        draft,
    }
}

fn later(t: Timestamp, secs: u64) -> Timestamp {
    t.after(Duration::from_secs(secs))
}

pub(crate) async fn play(games: &Games, id: &str, white: &str, black: &str, moves: &[&str]) {
    for (i, uci) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        let action = Action::Move {
            uci: (*uci).into(),
            draw_offer: false,
            blur: false,
            lag: Duration::ZERO,
            client: Vec::new(),
        };
        games
            .act(id, PlayerId(who.into()), action)
            .await
            .unwrap_or_else(|e| panic!("{uci}: {}", e.message));
    }
}

#[tokio::test]
async fn an_arena_pairs_online_players_and_scores_their_game() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob"), ("pc", "Cy")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, games) = tournaments(&store, &presence);
        let _ann = presence.here("ann");
        let _bob = presence.here("bob");
        let now = Timestamp::from_millis(now_ms());

        // Bad settings are refused, each saying why, and nothing is stored.
        let too_long = ArenaDraft {
            minutes: 24 * 60 + 1,
            ..draft(now)
        };
        let e = t.create("pa", "Ann", new_arena(too_long), now).await;
        assert!(
            matches!(&e, Err(TournamentError::Invalid(m)) if m.contains("24 h")),
            "{e:?}"
        );
        // A quarter of a minute: lichess offers it, no clock here plays it.
        let quarter = ArenaDraft {
            clock_base_seconds: 15,
            clock_increment_seconds: 0,
            ..draft(now)
        };
        let e = t.create("pa", "Ann", new_arena(quarter), now).await;
        assert!(
            matches!(&e, Err(TournamentError::Invalid(m)) if m.contains("clockTime is 0.5")),
            "{e:?}"
        );
        assert!(t.lists().await.unwrap().created.is_empty());

        let arena = t
            .create("pa", "Ann", new_arena(draft(now)), now)
            .await
            .unwrap();
        let id = arena.id().to_owned();
        assert_eq!(arena.full_name(), "Test Arena");
        t.join(&id, "pa", None, now).await.unwrap();
        t.join(&id, "pb", None, now).await.unwrap();
        assert!(matches!(
            t.join(&id, "pa", None, now).await,
            Err(TournamentError::Invalid(m)) if m.contains("already")
        ));
        // Cy joins but is offline: never paired.
        t.join(&id, "pc", None, now).await.unwrap();

        // The first tick starts it and pairs the two online players.
        let report = t.tick(later(now, 1)).await.unwrap();
        assert_eq!((report.started, report.paired), (1, 1), "{report:?}");
        let pairings = t.games(&id).await.unwrap();
        assert_eq!(pairings.len(), 1);
        let p = pairings[0].clone();
        assert_eq!(p.status, PairingStatus::Playing);
        let mut pair = [p.white.as_str(), p.black.as_str()];
        pair.sort_unstable();
        assert_eq!(pair, ["pa", "pb"]);
        let state = games.state(&p.game_id, None).await.unwrap();
        assert_eq!(state.id, p.game_id);
        // Nobody else is waiting: no second game.
        assert_eq!(t.tick(later(now, 2)).await.unwrap().paired, 0);
        // Each player's current game, and the game's Arena.
        assert_eq!(t.playing(&id, "pa").await.unwrap(), Some(p.game_id.clone()));
        assert_eq!(t.playing(&id, "pc").await.unwrap(), None);
        let (of, _) = t.of_game(&p.game_id).await.unwrap().unwrap();
        assert_eq!(of.id(), id);
        assert!(t.of_game("nosuchgame").await.unwrap().is_none());

        // Fool's mate: Black wins, scored 2 on Black's sheet.
        play(
            &games,
            &p.game_id,
            &p.white,
            &p.black,
            &["f2f3", "e7e5", "g2g4", "d8h4"],
        )
        .await;
        let report = t.tick(later(now, 3)).await.unwrap();
        assert_eq!(report.scored, 1, "{report:?}");
        assert_eq!(t.playing(&id, "pa").await.unwrap(), None);
        let arena = t.get(&id).await.unwrap();
        assert_eq!(arena.status(), TournamentStatus::Started);
        let standings = t.standings(&arena).await.unwrap();
        let top = &standings[0];
        assert_eq!(
            (
                top.rank,
                top.player_id.as_str(),
                top.score,
                top.sheet.scores.as_str()
            ),
            (1, p.black.as_str(), 2, "2")
        );
        let loser = standings.iter().find(|s| s.player_id == p.white).unwrap();
        assert_eq!((loser.score, loser.sheet.scores.as_str()), (0, "0"));
        assert_eq!(standings.len(), 3);

        // Pausing: once; rejoining waits out the penalty (10 s at first).
        t.withdraw(&id, "pc", later(now, 50)).await.unwrap();
        assert!(matches!(
            t.withdraw(&id, "pc", later(now, 50)).await,
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.join(&id, "pc", None, later(now, 55)).await,
            Err(TournamentError::Invalid(m)) if m.contains("rejoin")
        ));

        // After their wait, the two meet again: with Cy paused, only they
        // are active.
        assert_eq!(t.tick(later(now, 5)).await.unwrap().paired, 0);
        assert_eq!(t.tick(later(now, 60)).await.unwrap().paired, 1);
        let second = t.games(&id).await.unwrap()[1].clone();
        t.join(&id, "pc", None, later(now, 61)).await.unwrap();

        // Only the creator terminates; the game being played still counts.
        assert!(matches!(
            t.terminate(&id, "pb", later(now, 80)).await,
            Err(TournamentError::Forbidden(_))
        ));
        t.terminate(&id, "pa", later(now, 80)).await.unwrap();
        assert!(matches!(
            t.terminate(&id, "pa", later(now, 81)).await,
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.join(&id, "pc", None, later(now, 81)).await,
            Err(TournamentError::Invalid(m)) if m.contains("finished")
        ));
        games
            .act(
                &second.game_id,
                PlayerId(second.white.clone()),
                Action::Resign,
            )
            .await
            .unwrap();
        let report = t.tick(later(now, 82)).await.unwrap();
        assert_eq!((report.scored, report.paired), (1, 0), "{report:?}");
        let arena = t.get(&id).await.unwrap();
        assert_eq!(arena.status(), TournamentStatus::Finished);
        let standings = t.standings(&arena).await.unwrap();
        let second_black = standings
            .iter()
            .find(|s| s.player_id == second.black)
            .unwrap();
        assert_eq!(second_black.sheet.scores.chars().next(), Some('2'));
        assert_eq!(t.lists().await.unwrap().finished.len(), 1);
    }
}

#[tokio::test]
async fn an_arena_finishes_at_its_end_and_club_arenas_take_members_only() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, _games) = tournaments(&store, &presence);
        let now = Timestamp::from_millis(now_ms());
        let club = Clubs::new(store.clone())
            .create("pa", "Knights", "a club", true, 1)
            .await
            .unwrap();
        let club_draft = ArenaDraft {
            conditions: ConditionsDraft {
                team: Some(club.id.clone()),
                ..ConditionsDraft::default()
            },
            minutes: 5,
            ..draft(now)
        };
        assert!(matches!(
            t.create("pb", "Bob", new_arena(club_draft.clone()), now)
                .await,
            Err(TournamentError::Forbidden(_))
        ));
        let arena = t
            .create("pa", "Ann", new_arena(club_draft), now)
            .await
            .unwrap();
        let id = arena.id().to_owned();
        assert!(matches!(
            t.join(&id, "pb", None, now).await,
            Err(TournamentError::Invalid(m)) if m.contains("team")
        ));
        t.join(&id, "pa", None, now).await.unwrap();
        let listed = t.club_arenas(&club.id, 10).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id(), id);

        assert_eq!(t.tick(now).await.unwrap().started, 1);
        let report = t.tick(later(now, 5 * 60)).await.unwrap();
        assert_eq!(report.finished, 1, "{report:?}");
        assert_eq!(
            t.get(&id).await.unwrap().status(),
            TournamentStatus::Finished
        );
        assert!(matches!(
            t.get("nosuch00").await,
            Err(TournamentError::NotFound(_))
        ));
    }
}

#[tokio::test]
async fn an_arena_chat_takes_lines_only_when_the_arena_has_one() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, _games) = tournaments(&store, &presence);
        let now = Timestamp::from_millis(now_ms());
        let chatty = t
            .create("pa", "Ann", new_arena(draft(now)), now)
            .await
            .unwrap();
        let id = chatty.id().to_owned();
        assert!(t.chat(&id, "pa").await.unwrap().is_empty());
        t.say(&id, "pa", "Ann", "  good luck  ", now).await.unwrap();
        t.say(&id, "pb", "Bob", "you too", later(now, 1))
            .await
            .unwrap();
        let lines = t.chat(&id, "pa").await.unwrap();
        let said: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| (l.author_name.as_str(), l.text.as_str()))
            .collect();
        assert_eq!(said, [("Ann", "good luck"), ("Bob", "you too")]);
        // A blank line and a line too long are refused and not stored.
        assert!(matches!(
            t.say(&id, "pa", "Ann", "   ", now).await,
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.say(&id, "pa", "Ann", &"x".repeat(1000), now).await,
            Err(TournamentError::Invalid(_))
        ));
        assert_eq!(t.chat(&id, "pa").await.unwrap().len(), 2);

        // An Arena without a chat refuses both reading and saying.
        let quiet = t
            .create(
                "pa",
                "Ann",
                new_arena(ArenaDraft {
                    has_chat: false,
                    ..draft(now)
                }),
                now,
            )
            .await
            .unwrap();
        assert!(!t.get(quiet.id()).await.unwrap().settings.has_chat());
        assert!(matches!(
            t.say(quiet.id(), "pa", "Ann", "hello", now).await,
            Err(TournamentError::Invalid(m)) if m.contains("no chat")
        ));
        assert!(matches!(
            t.chat(quiet.id(), "pa").await,
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.chat("nosuch", "pa").await,
            Err(TournamentError::NotFound(_))
        ));
    }
}

#[tokio::test]
async fn berserk_halves_the_clock_and_a_long_win_scores_its_point() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Ann"), ("pb", "Bob")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, games) = tournaments(&store, &presence);
        let _ann = presence.here("ann");
        let _bob = presence.here("bob");
        let now = Timestamp::from_millis(now_ms());
        let arena = t
            .create("pa", "Ann", new_arena(draft(now)), now)
            .await
            .unwrap();
        let id = arena.id().to_owned();
        t.join(&id, "pa", None, now).await.unwrap();
        t.join(&id, "pb", None, now).await.unwrap();
        assert_eq!(t.tick(later(now, 1)).await.unwrap().paired, 1);
        let p = t.games(&id).await.unwrap().remove(0);

        assert!(matches!(
            t.berserk(&p.game_id, "nobody").await,
            Err(TournamentError::Forbidden(_))
        ));
        assert!(matches!(
            t.berserk("nosuchgame", "pa").await,
            Err(TournamentError::NotFound(_))
        ));
        t.berserk(&p.game_id, &p.white).await.unwrap();
        let state = games.state(&p.game_id, None).await.unwrap();
        let clock = state.table.unwrap().clock;
        assert_eq!((clock.white_ms, clock.white_berserk), (90_000, true));
        assert_eq!((clock.black_ms, clock.black_berserk), (180_000, false));
        assert!(matches!(
            t.berserk(&p.game_id, &p.white).await,
            Err(TournamentError::Invalid(m)) if m.contains("already")
        ));
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "b1d2",
            "a7a6", "h2h3", "h7h6",
        ];
        play(&games, &p.game_id, &p.white, &p.black, &moves[..2]).await;
        assert!(matches!(
            t.berserk(&p.game_id, &p.black).await,
            Err(TournamentError::Invalid(m)) if m.contains("first move")
        ));
        play(&games, &p.game_id, &p.white, &p.black, &moves[2..]).await;
        games
            .act(&p.game_id, PlayerId(p.black.clone()), Action::Resign)
            .await
            .unwrap();
        t.tick(later(now, 2)).await.unwrap();
        let pairing = t.games(&id).await.unwrap().remove(0);
        assert!(pairing.white_berserk && !pairing.black_berserk);
        let standings = t.standings(&t.get(&id).await.unwrap()).await.unwrap();
        let top = &standings[0];
        assert_eq!(
            (top.player_id.as_str(), top.score, top.sheet.scores.as_str()),
            (p.white.as_str(), 3, "3"),
            "2 for the win, 1 for berserk"
        );

        // An Arena without berserk refuses it.
        let calm = t
            .create(
                "pa",
                "Ann",
                new_arena(ArenaDraft {
                    berserkable: false,
                    ..draft(now)
                }),
                now,
            )
            .await
            .unwrap();
        t.join(calm.id(), "pa", None, now).await.unwrap();
        t.join(calm.id(), "pb", None, now).await.unwrap();
        t.tick(later(now, 3)).await.unwrap();
        let q = t.games(calm.id()).await.unwrap().remove(0);
        assert!(matches!(
            t.berserk(&q.game_id, &q.white).await,
            Err(TournamentError::Invalid(m)) if m.contains("not allowed")
        ));
    }
}
