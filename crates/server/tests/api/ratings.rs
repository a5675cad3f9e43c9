//! Ratings in the store and on the profile: rating a game updates both
//! players once and only once, aborted games are unrated, ratings stop
//! being provisional after ten games, idle time widens the deviation, and
//! concurrent applications lose nothing — every test once on SQLite and
//! once on PostgreSQL.
//!
//! Expected numbers come from `python3 tools/glicko2_reference.py`, our own
//! implementation of Glickman's steps (τ 0.75, one game per rating period),
//! written independently of the `skillratings` crate `plyyard-rating` uses.

use plyyard_game::{GameResult, RuleSet, Variant};
use plyyard_rating::{self as rating, Glicko2, Outcome, PlayerRating, Speed};
use plyyard_store::{GameKind, GameRow, GameStatus, GameSummary, RatedGame, Store};
use plyyard_testkit::{TestDb, TestServer};
use serde_json::{Value, json};

const T0: i64 = 1_750_000_000_000;
const DAY: i64 = 86_400_000;
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

async fn open(db: &TestDb) -> Store {
    Store::open(db.url())
        .await
        .expect("the test database opens")
}

/// An account (and its player); returns the player id.
async fn player(store: &Store, name: &str) -> String {
    let id = format!("p-{name}");
    store
        .create_account(&id, name, "unused-hash", T0)
        .await
        .unwrap();
    id
}

/// A finished game between two players.
pub(crate) async fn game(store: &Store, id: &str, white: &str, black: &str, result: GameResult) {
    store
        .insert_game(&GameRow {
            id: id.into(),
            kind: GameKind::Computer,
            white_player: Some(white.into()),
            black_player: Some(black.into()),
            level: None,
            rules: RuleSet::PlyYard,
            variant: Variant::Standard,
            position: None,
            initial_fen: START_FEN.into(),
            summary: GameSummary {
                status: GameStatus::Ended,
                result,
                reason: None,
                plies: 40,
                version: 41,
                updated_at: T0,
            },
            created_at: T0,
            table: None,
            clock: None,
        })
        .await
        .unwrap();
}

fn close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() <= 1e-9,
        "{actual} is not {expected}"
    );
}

fn same(actual: Glicko2, expected: (f64, f64, f64)) {
    close(actual.rating, expected.0);
    close(actual.deviation, expected.1);
    close(actual.volatility, expected.2);
}

async fn a_result_rates_both_players_once(db: TestDb) {
    let store = open(&db).await;
    let (alice, bob) = (player(&store, "alice").await, player(&store, "bob").await);
    game(&store, "g1", &alice, &bob, GameResult::WhiteWins).await;

    let rated = store
        .apply_rated_result("g1", &alice, &bob, Speed::Blitz, GameResult::WhiteWins, T0)
        .await
        .unwrap()
        .expect("a decisive game is rated");
    assert_eq!(rated.outcome, Outcome::WhiteWins);
    assert_eq!((rated.speed, rated.rated_at), (Speed::Blitz, T0));
    assert_eq!(rated.white.player_id, alice);
    assert_eq!(rated.black.player_id, bob);
    assert_eq!(rated.white.before, rating::DEFAULT);
    assert_eq!(rated.black.before, rating::DEFAULT);
    // Reference: fresh vs fresh, White wins.
    same(
        rated.white.after,
        (1662.3108925690603, 290.31896252204893, 0.05999926959652241),
    );
    same(
        rated.black.after,
        (1337.6891074309397, 290.31896252204893, 0.05999926959652241),
    );
    assert_eq!(
        (rated.white.shown_change(), rated.black.shown_change()),
        (162, -162)
    );
    assert_eq!((rated.white.games, rated.black.games), (1, 1));
    assert!(rated.white.provisional() && rated.black.provisional());

    // Both ratings are stored, floats read back exactly on both backends.
    let a = store.rating(&alice, Speed::Blitz).await.unwrap();
    let b = store.rating(&bob, Speed::Blitz).await.unwrap();
    assert_eq!(
        a,
        PlayerRating {
            glicko: rated.white.after,
            games: 1,
            updated_at: Some(T0)
        }
    );
    assert_eq!(b.glicko, rated.black.after);
    assert_eq!(b.games, 1);
    // Other speeds are untouched.
    let all = store.ratings(&alice).await.unwrap();
    assert_eq!(
        all.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        Speed::ALL.to_vec()
    );
    assert_eq!(all[1].1, a);
    for i in [0, 2, 3] {
        assert_eq!(all[i].1, PlayerRating::default());
    }
    assert_eq!(
        store.rating_changes("g1").await.unwrap(),
        Some(rated.clone())
    );

    // Applying the same game again (even with another result, later) is a
    // no-op that returns the first changes.
    for result in [GameResult::WhiteWins, GameResult::BlackWins] {
        let again = store
            .apply_rated_result("g1", &alice, &bob, Speed::Blitz, result, T0 + DAY)
            .await
            .unwrap();
        assert_eq!(again, Some(rated.clone()));
    }
    assert_eq!(store.rating(&alice, Speed::Blitz).await.unwrap(), a);
    assert_eq!(store.rating(&bob, Speed::Blitz).await.unwrap(), b);

    // A game that does not exist cannot be rated, and leaves nothing.
    assert!(
        store
            .apply_rated_result("nope", &alice, &bob, Speed::Blitz, GameResult::Draw, T0)
            .await
            .is_err()
    );
    assert_eq!(store.rating(&alice, Speed::Blitz).await.unwrap(), a);
    assert_eq!(store.rating_changes("nope").await.unwrap(), None);
    store.close().await;
}

async fn aborted_games_are_unrated(db: TestDb) {
    let store = open(&db).await;
    let (carol, dave) = (player(&store, "carol").await, player(&store, "dave").await);
    game(&store, "g2", &carol, &dave, GameResult::Aborted).await;
    let none = store
        .apply_rated_result("g2", &carol, &dave, Speed::Rapid, GameResult::Aborted, T0)
        .await
        .unwrap();
    assert_eq!(none, None);
    assert_eq!(store.rating_changes("g2").await.unwrap(), None);
    for p in [&carol, &dave] {
        for (_, r) in store.ratings(p).await.unwrap() {
            assert_eq!(r, PlayerRating::default());
        }
    }
    // Nor is a game against oneself.
    game(&store, "g3", &carol, &carol, GameResult::WhiteWins).await;
    let none = store
        .apply_rated_result(
            "g3",
            &carol,
            &carol,
            Speed::Rapid,
            GameResult::WhiteWins,
            T0,
        )
        .await
        .unwrap();
    assert_eq!(none, None);
    assert_eq!(
        store.rating(&carol, Speed::Rapid).await.unwrap(),
        PlayerRating::default()
    );
    store.close().await;
}

async fn provisional_until_ten_games(db: TestDb) {
    let store = open(&db).await;
    let (erin, frank) = (player(&store, "erin").await, player(&store, "frank").await);
    for i in 0..12u32 {
        let (id, result) = (
            format!("s{i}"),
            if i % 2 == 0 {
                GameResult::WhiteWins
            } else {
                GameResult::Draw
            },
        );
        game(&store, &id, &erin, &frank, result).await;
        let rated = store
            .apply_rated_result(&id, &erin, &frank, Speed::Classical, result, T0)
            .await
            .unwrap()
            .unwrap();
        let r = store.rating(&erin, Speed::Classical).await.unwrap();
        assert_eq!(r.games, i + 1);
        assert_eq!(r.provisional(), i + 1 < 10, "after {} games", i + 1);
        assert_eq!(rated.white.provisional(), r.provisional());
    }
    // Reference: the same series of twelve games.
    same(
        store.rating(&erin, Speed::Classical).await.unwrap().glicko,
        (1596.5559928864977, 130.46822620879567, 0.05997656949885845),
    );
    same(
        store.rating(&frank, Speed::Classical).await.unwrap().glicko,
        (1403.4440071135023, 130.46822620879567, 0.05997656949885845),
    );
    store.close().await;
}

async fn idle_time_widens_the_deviation_before_a_game(db: TestDb) {
    let store = open(&db).await;
    let (gina, hugo) = (player(&store, "gina").await, player(&store, "hugo").await);
    game(&store, "i1", &gina, &hugo, GameResult::Draw).await;
    game(&store, "i2", &gina, &hugo, GameResult::BlackWins).await;
    let first = store
        .apply_rated_result("i1", &gina, &hugo, Speed::Rapid, GameResult::Draw, T0)
        .await
        .unwrap()
        .unwrap();
    let later = T0 + 200 * DAY;
    let second = store
        .apply_rated_result(
            "i2",
            &gina,
            &hugo,
            Speed::Rapid,
            GameResult::BlackWins,
            later,
        )
        .await
        .unwrap()
        .unwrap();
    let widened = first.white.after.after_inactivity(200 * DAY);
    assert!(widened.deviation > first.white.after.deviation + 5.0);
    assert_eq!(second.white.before, widened);
    assert_eq!(
        second.black.before,
        first.black.after.after_inactivity(200 * DAY)
    );
    // Each stored change recomputes from its own "before" values.
    let (w, b) = rating::update(second.white.before, second.black.before, Outcome::BlackWins);
    assert_eq!((second.white.after, second.black.after), (w, b));
    let stored = store.rating(&gina, Speed::Rapid).await.unwrap();
    assert_eq!(stored.updated_at, Some(later));
    assert_eq!(stored.glicko, w);
    store.close().await;
}

async fn concurrent_applications_lose_nothing(db: TestDb) {
    let store = open(&db).await;
    let (ivan, judy) = (player(&store, "ivan").await, player(&store, "judy").await);
    for id in ["c1", "c2", "c3"] {
        game(&store, id, &ivan, &judy, GameResult::WhiteWins).await;
    }
    let apply = |id: &'static str, white: String, black: String| {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .apply_rated_result(id, &white, &black, Speed::Blitz, GameResult::WhiteWins, T0)
                .await
                .unwrap()
                .unwrap()
        })
    };
    // The same game twice at once, and two more games of the same pair
    // (one with the colours the other way round).
    let tasks = [
        apply("c1", ivan.clone(), judy.clone()),
        apply("c1", ivan.clone(), judy.clone()),
        apply("c2", ivan.clone(), judy.clone()),
        apply("c3", judy.clone(), ivan.clone()),
    ];
    let mut results: Vec<RatedGame> = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }
    assert_eq!(results[0], results[1], "one game, one rating");
    for p in [&ivan, &judy] {
        assert_eq!(store.rating(p, Speed::Blitz).await.unwrap().games, 3);
    }
    // The three games were applied one after the other: Ivan's "before" in
    // one is the start, in each other it is the "after" of another, and the
    // stored rating is the "after" that no game started from.
    let games = [&results[0], &results[2], &results[3]];
    let ivan_seat = |r: &RatedGame| {
        assert!(r.white.player_id == judy || r.black.player_id == judy);
        let seat = if r.white.player_id == ivan {
            &r.white
        } else {
            &r.black
        };
        (seat.before, seat.after)
    };
    let chain: Vec<(Glicko2, Glicko2)> = games.iter().map(|r| ivan_seat(r)).collect();
    assert_eq!(
        chain.iter().filter(|(b, _)| *b == rating::DEFAULT).count(),
        1
    );
    for (before, _) in chain.iter().filter(|(b, _)| *b != rating::DEFAULT) {
        assert!(chain.iter().any(|(_, a)| a == before), "a lost update");
    }
    let last: Vec<Glicko2> = chain
        .iter()
        .map(|(_, a)| *a)
        .filter(|a| !chain.iter().any(|(b, _)| b == a))
        .collect();
    let stored = store.rating(&ivan, Speed::Blitz).await.unwrap().glicko;
    assert_eq!(last, vec![stored]);
    store.close().await;
}

async fn the_profile_shows_the_ratings(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    for name in ["Kate", "Liam"] {
        let r = c
            .post_json(
                "/api/account/signup",
                &json!({"username": name, "password": "Knight-f3 takes e5!"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let fresh: Value = c.get_value("/api/users/kate").await;
    let start = json!({"rating": 1500, "deviation": 350, "provisional": true, "games": 0});
    assert_eq!(
        fresh["ratings"],
        json!({"bullet": start, "blitz": start, "rapid": start, "classical": start})
    );
    assert_eq!(fresh["username"], "Kate");

    let store = open(&db).await;
    let kate = store.account_by_name("kate").await.unwrap().unwrap();
    let liam = store.account_by_name("liam").await.unwrap().unwrap();
    let (kate, liam) = (kate.account.player_id, liam.account.player_id);
    game(&store, "h1", &liam, &kate, GameResult::BlackWins).await;
    let now = plyyard_store::now_ms();
    store
        .apply_rated_result("h1", &liam, &kate, Speed::Rapid, GameResult::BlackWins, now)
        .await
        .unwrap()
        .unwrap();
    let profile: Value = c.get_value("/api/users/KATE").await;
    assert_eq!(profile["ratings"]["blitz"], start);
    assert_eq!(
        profile["ratings"]["rapid"],
        json!({"rating": 1662, "deviation": 290, "provisional": true, "games": 1})
    );
    let profile: Value = c.get_value("/api/users/liam").await;
    assert_eq!(profile["ratings"]["rapid"]["rating"], 1338);
    store.close().await;
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    a_result_rates_both_players_once,
    aborted_games_are_unrated,
    provisional_until_ten_games,
    idle_time_widens_the_deviation_before_a_game,
    concurrent_applications_lose_nothing,
    the_profile_shows_the_ratings,
);
