//! A Swiss over real stores (SQLite, and PostgreSQL with
//! `PLYYARD_TEST_PG`) and real live games: created by a club's leader,
//! joined by its members, three rounds paired by the FIDE Dutch system
//! with a bye, a forfeit that makes its player absent, rounds started by
//! the leader; its TRF re-paired round by round by `plyyard_swiss` gives
//! the same pairings; bad requests are refused with nothing changed.

use std::collections::BTreeSet;
use std::sync::Arc;

use plyyard_arena::Timestamp;
use plyyard_clubs::Clubs;
use plyyard_live::{Action, Games};
use plyyard_social::Presence;
use plyyard_store::testing::stores;
use plyyard_store::{PlayerId, Store, TournamentStatus, now_ms};
use plyyard_swiss::model::RoundEntry;
use plyyard_swiss::{pair_round, trf};

use crate::swiss::{RoundInterval, SwissSettings};
use crate::tests::{play, tournaments};
use crate::{NewSwiss, TournamentError, Tournaments};

fn settings(now: i64) -> SwissSettings {
    SwissSettings {
        clock_limit: 180,
        clock_increment: 2,
        nb_rounds: 3,
        starts_at: now,
        round_interval: RoundInterval::Manual,
        rated: true,
        variant: "standard".into(),
        chat_for: 20,
        forbidden: Vec::new(),
    }
}

fn new_swiss(settings: SwissSettings, forbidden: &[(&str, &str)]) -> NewSwiss {
    NewSwiss {
        name: Some("Friday Swiss".into()),
        description: "rapid".into(),
        settings,
        forbidden_names: Some(
            forbidden
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect(),
        ),
    }
}

/// Plays every board of the current round: `abort` boards are aborted by
/// White before moving (White forfeits); on the others the player with
/// the greater id resigns after two moves.
async fn play_round(t: &Tournaments, games: &Games, id: &str, round: i64, abort: &[usize]) {
    let boards: Vec<_> = t
        .games(id)
        .await
        .unwrap()
        .into_iter()
        .filter(|g| g.round == round)
        .collect();
    for (i, g) in boards.iter().enumerate() {
        if abort.contains(&i) {
            games
                .act(&g.game_id, PlayerId(g.white.clone()), Action::Abort)
                .await
                .unwrap_or_else(|e| panic!("abort: {}", e.message));
            continue;
        }
        play(games, &g.game_id, &g.white, &g.black, &["e2e4", "e7e5"]).await;
        let loser = g.white.clone().max(g.black.clone());
        games
            .act(&g.game_id, PlayerId(loser), Action::Resign)
            .await
            .unwrap_or_else(|e| panic!("resign: {}", e.message));
    }
}

/// Re-pairs every round of `text` from the rounds before it; each must
/// give the same boards (as unordered pairs) and bye as the file says.
fn repair_every_round(text: &str) {
    let read = trf::read(text).unwrap();
    let full = read.tournament;
    for r in 0..full.rounds_paired() {
        let mut before = full.clone();
        for p in &mut before.players {
            p.rounds.truncate(r);
        }
        let mut present = Vec::new();
        let mut boards = BTreeSet::new();
        let mut bye = None;
        for p in &full.players {
            match p.rounds[r] {
                RoundEntry::Absent => continue,
                RoundEntry::PairingBye => bye = Some(p.start),
                e => {
                    let o = e.opponent().unwrap();
                    boards.insert((p.start.min(o), p.start.max(o)));
                }
            }
            present.push(p.start);
        }
        let again = pair_round(&before, &present).unwrap();
        let got: BTreeSet<_> = again
            .boards
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        assert_eq!((got, again.bye), (boards, bye), "round {}", r + 1);
    }
}

/// `player`'s notifications, oldest first: kind and content.
async fn notes_of(store: &Store, player: &str) -> Vec<(String, serde_json::Value)> {
    let mut rows = store.notifications(player, 50).await.unwrap();
    rows.reverse();
    rows.into_iter()
        .map(|r| (r.kind, serde_json::from_str(&r.content).unwrap()))
        .collect()
}

#[tokio::test]
async fn a_swiss_runs_three_rounds_and_its_trf_repairs_the_same() {
    for (_dir, store) in stores().await {
        let players = [
            ("pa", "Ann"),
            ("pb", "Bob"),
            ("pc", "Cy"),
            ("pd", "Dee"),
            ("pe", "Eve"),
            ("pg", "Gus"),
            ("ph", "Hal"),
            ("pf", "Fay"),
        ];
        for (id, name) in players {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let clubs = Clubs::new(store.clone());
        let club = clubs
            .create("pa", "Knights", "a club", true, 1)
            .await
            .unwrap();
        for p in ["pb", "pc", "pd", "pe", "pg", "ph"] {
            clubs.join(&club.id, p, None, 2).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, games) = tournaments(&store, &presence);
        let now = now_ms();

        // Refused: a non-leader, absurd lengths, an unknown player in a
        // forbidden pairing. Nothing is stored.
        let e = t
            .create_swiss("pb", &club.id, new_swiss(settings(now), &[]), now)
            .await;
        assert!(matches!(e, Err(TournamentError::Forbidden(_))), "{e:?}");
        let long = SwissSettings {
            nb_rounds: 101,
            ..settings(now)
        };
        let e = t
            .create_swiss("pa", &club.id, new_swiss(long, &[]), now)
            .await;
        assert!(
            matches!(&e, Err(TournamentError::Invalid(m)) if m.contains("nbRounds")),
            "{e:?}"
        );
        let e = t
            .create_swiss(
                "pa",
                &club.id,
                new_swiss(settings(now), &[("Ann", "Nobody")]),
                now,
            )
            .await;
        assert!(matches!(e, Err(TournamentError::Invalid(_))), "{e:?}");
        assert!(t.club_swiss(&club.id, 10).await.unwrap().is_empty());

        let swiss = t
            .create_swiss(
                "pa",
                &club.id,
                new_swiss(settings(now), &[("Ann", "Bob")]),
                now,
            )
            .await
            .unwrap();
        let id = swiss.id().to_owned();
        for p in ["pa", "pb", "pc", "pd", "pe", "pg", "ph"] {
            t.join_swiss(&id, p, now).await.unwrap();
        }
        let e = t.join_swiss(&id, "pa", now).await;
        assert!(
            matches!(&e, Err(TournamentError::Invalid(m)) if m.contains("already")),
            "{e:?}"
        );
        let e = t.join_swiss(&id, "pf", now).await;
        assert!(matches!(e, Err(TournamentError::Forbidden(_))), "{e:?}");
        // Withdrawing before the start removes; joining again is allowed.
        t.withdraw_swiss(&id, "pe", now).await.unwrap();
        assert_eq!(t.swiss(&id).await.unwrap().row.nb_players, 6);
        t.join_swiss(&id, "pe", now).await.unwrap();

        // Round 1: started and paired at once, with a bye (7 players).
        let report = t.tick(Timestamp::from_millis(now + 1)).await.unwrap();
        assert_eq!(
            (report.started, report.rounds, report.paired),
            (1, 1, 3),
            "{report:?}"
        );
        let state = t.swiss_state(&t.swiss(&id).await.unwrap()).await.unwrap();
        assert!(state.byes[0].is_some());
        // The bell: each player was told the Swiss starts soon, then their
        // round-1 opponent (the bye player, their bye).
        for p in ["pa", "pb", "pc", "pd", "pe", "pg", "ph"] {
            let kinds = notes_of(&store, p).await;
            assert_eq!(kinds.len(), 2, "{p}: {kinds:?}");
            assert!(
                kinds.iter().any(|(k, _)| k == "tournament_soon"),
                "{p}: {kinds:?}"
            );
            let round = &kinds.iter().find(|(k, _)| k == "swiss_round").unwrap().1;
            assert_eq!(round["round"], 1);
            let bye = state.byes[0].as_deref() == Some(p);
            assert_eq!(round["opponent"].is_null(), bye, "{p}: {round}");
        }
        // Fay, no member, follows everyone: she hears of the winner only.
        for p in ["pa", "pb", "pc", "pd", "pe", "pg", "ph"] {
            store
                .set_relation("pf", p, plyyard_store::RelationKind::Follow, now)
                .await
                .unwrap();
        }
        for b in &state.boards[0] {
            let pair = [b.white.as_str(), b.black.as_str()];
            assert!(
                !(pair.contains(&"pa") && pair.contains(&"pb")),
                "forbidden pair met"
            );
        }
        // After the start, TRF-affecting edits are refused.
        let more = SwissSettings {
            nb_rounds: 5,
            ..swiss.settings.clone()
        };
        let e = t
            .edit_swiss(&id, "pa", new_swiss(more, &[("Ann", "Bob")]), now)
            .await;
        assert!(matches!(e, Err(TournamentError::Invalid(_))), "{e:?}");
        let e = t.schedule_next_round(&id, "pa", now, now).await;
        assert!(matches!(e, Err(TournamentError::Invalid(_))), "{e:?}");
        // A new name is fine; the forbidden pairs stay when not given.
        let mut rename = new_swiss(swiss.settings.clone(), &[]);
        rename.name = Some("Renamed Swiss".into());
        rename.forbidden_names = None;
        let edited = t.edit_swiss(&id, "pa", rename, now).await.unwrap();
        assert_eq!(edited.row.name, "Renamed Swiss");
        assert_eq!(edited.settings.forbidden.len(), 1);

        play_round(&t, &games, &id, 1, &[]).await;
        let report = t.tick(Timestamp::from_millis(now + 2)).await.unwrap();
        assert_eq!((report.scored, report.rounds), (3, 0), "{report:?}");
        // Manual rounds: nothing until a leader says.
        assert_eq!(
            t.tick(Timestamp::from_millis(now + 3))
                .await
                .unwrap()
                .rounds,
            0
        );
        let e = t.schedule_next_round(&id, "pb", now, now).await;
        assert!(matches!(e, Err(TournamentError::Forbidden(_))), "{e:?}");
        t.schedule_next_round(&id, "pa", now + 4, now + 4)
            .await
            .unwrap();
        let report = t.tick(Timestamp::from_millis(now + 5)).await.unwrap();
        assert_eq!((report.rounds, report.paired), (1, 3), "{report:?}");

        // Round 2: White of the first board forfeits and is marked absent.
        let forfeiter = t
            .games(&id)
            .await
            .unwrap()
            .into_iter()
            .find(|g| g.round == 2)
            .unwrap()
            .white;
        play_round(&t, &games, &id, 2, &[0]).await;
        t.tick(Timestamp::from_millis(now + 6)).await.unwrap();
        let standings = t
            .swiss_state(&t.swiss(&id).await.unwrap())
            .await
            .unwrap()
            .standings();
        assert!(
            standings
                .iter()
                .find(|s| s.player_id == forfeiter)
                .unwrap()
                .absent
        );
        t.schedule_next_round(&id, "pa", now + 7, now + 7)
            .await
            .unwrap();
        let report = t.tick(Timestamp::from_millis(now + 8)).await.unwrap();
        assert_eq!(report.rounds, 1, "{report:?}");
        let third: Vec<_> = t
            .games(&id)
            .await
            .unwrap()
            .into_iter()
            .filter(|g| g.round == 3)
            .collect();
        assert!(
            third
                .iter()
                .all(|g| g.white != forfeiter && g.black != forfeiter)
        );

        play_round(&t, &games, &id, 3, &[]).await;
        let report = t.tick(Timestamp::from_millis(now + 9)).await.unwrap();
        assert_eq!(report.finished, 1, "{report:?}");
        let swiss = t.swiss(&id).await.unwrap();
        assert_eq!(swiss.status(), TournamentStatus::Finished);
        let state = t.swiss_state(&swiss).await.unwrap();
        let standings = state.standings();
        assert_eq!(standings.len(), 7);
        assert!(
            standings
                .windows(2)
                .all(|w| w[0].half_points >= w[1].half_points)
        );
        let total: u32 = standings.iter().map(|s| s.half_points).sum();
        let told = notes_of(&store, "pf").await;
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0].0, "tournament_win");
        assert_eq!(told[0].1["winner"], standings[0].username.as_str());
        assert_eq!(told[0].1["tournament"], id.as_str());
        // Round 1: 3 games + a bye; round 2: 2 games, 1 forfeit, a bye;
        // round 3: 6 present players, 3 games.
        assert_eq!(total, 2 * (3 + 1) + 2 * (3 + 1) + 2 * 3);

        let text = state.trf("Ply Yard", swiss.row.starts_at, Some(swiss.row.finishes_at));
        assert!(text.contains("XXR 3"), "{text}");
        assert!(text.contains("XXP "), "{text}");
        assert!(text.contains(" U"), "{text}");
        assert!(text.contains(" +") && text.contains(" -"), "{text}");
        repair_every_round(&text);

        // Joining a finished Swiss is refused.
        let e = t.join_swiss(&id, "pf", now).await;
        assert!(matches!(e, Err(TournamentError::Invalid(_))), "{e:?}");
        assert_eq!(t.club_swiss(&club.id, 10).await.unwrap().len(), 1);
        // A Swiss is no Arena, and is in no Arena list.
        assert!(matches!(
            t.get(&id).await,
            Err(TournamentError::NotFound(_))
        ));
        assert!(t.lists().await.unwrap().finished.is_empty());
    }
}

#[tokio::test]
async fn late_joiners_are_paired_and_the_trf_repairs_the_same_and_the_chat_keeps_to_members() {
    for (_dir, store) in stores().await {
        let players = [
            ("qa", "Ada"),
            ("qb", "Ben"),
            ("qc", "Cal"),
            ("qd", "Dot"),
            ("qe", "Eli"),
            ("qf", "Flo"),
            ("qg", "Guy"),
            ("qx", "Xan"),
        ];
        for (id, name) in players {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let clubs = Clubs::new(store.clone());
        let club = clubs
            .create("qa", "Rooks", "a club", true, 1)
            .await
            .unwrap();
        for p in ["qb", "qc", "qd", "qe", "qf", "qg"] {
            clubs.join(&club.id, p, None, 2).await.unwrap();
        }
        let presence = Arc::new(Presence::default());
        let (t, games) = tournaments(&store, &presence);
        let now = now_ms();
        let four = SwissSettings {
            nb_rounds: 4,
            ..settings(now)
        };
        let swiss = t
            .create_swiss("qa", &club.id, new_swiss(four, &[]), now)
            .await
            .unwrap();
        let id = swiss.id().to_owned();

        // The chat is for the club's members (`chatFor` 20).
        t.say(&id, "qb", "Ben", "good luck", Timestamp::from_millis(now))
            .await
            .unwrap();
        let e = t
            .say(&id, "qx", "Xan", "hi", Timestamp::from_millis(now))
            .await;
        assert!(matches!(e, Err(TournamentError::Forbidden(_))), "{e:?}");
        assert!(matches!(
            t.chat(&id, "qx").await,
            Err(TournamentError::Forbidden(_))
        ));
        assert_eq!(t.chat(&id, "qa").await.unwrap().len(), 1);

        for p in ["qa", "qb", "qc", "qd", "qe"] {
            t.join_swiss(&id, p, now).await.unwrap();
        }
        let report = t.tick(Timestamp::from_millis(now + 1)).await.unwrap();
        assert_eq!((report.rounds, report.paired), (1, 2), "{report:?}");
        play_round(&t, &games, &id, 1, &[]).await;
        t.tick(Timestamp::from_millis(now + 2)).await.unwrap();

        // Two late joiners after round 1 of 4: paired from round 2.
        t.join_swiss(&id, "qf", now + 3).await.unwrap();
        t.join_swiss(&id, "qg", now + 3).await.unwrap();
        for (round, at) in [(2, 4), (3, 7), (4, 10)] {
            t.schedule_next_round(&id, "qa", now + at, now + at)
                .await
                .unwrap();
            let report = t.tick(Timestamp::from_millis(now + at + 1)).await.unwrap();
            assert_eq!(
                (report.rounds, report.paired),
                (1, 3),
                "round {round}: {report:?}"
            );
            if round == 3 {
                // Half the rounds are played: too late to join.
                clubs.join(&club.id, "qx", None, now).await.unwrap();
                let e = t.join_swiss(&id, "qx", now + at).await;
                assert!(matches!(e, Err(TournamentError::Invalid(_))), "{e:?}");
            }
            play_round(&t, &games, &id, round, &[]).await;
            t.tick(Timestamp::from_millis(now + at + 2)).await.unwrap();
        }
        let swiss = t.swiss(&id).await.unwrap();
        assert_eq!(swiss.status(), TournamentStatus::Finished);
        let state = t.swiss_state(&swiss).await.unwrap();
        let text = state.trf("Ply Yard", swiss.row.starts_at, Some(swiss.row.finishes_at));
        assert!(text.contains("XXR 4"), "{text}");
        // The late joiners were absent in round 1 and played every round after.
        let late: Vec<_> = text
            .lines()
            .filter(|l| l.contains("Flo") || l.contains("Guy"))
            .collect();
        assert_eq!(late.len(), 2, "{text}");
        repair_every_round(&text);
    }
}
