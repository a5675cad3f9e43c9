//! Challenges and the event stream of the Lichess-compatible API over real
//! HTTP: a challenge reaches the other player's stream, its acceptance
//! starts a game with the challenge's id on both streams, declines and
//! cancels are told to both, a challenge without its challenger goes
//! offline, one stream per account, and bad requests change nothing — on
//! SQLite and PostgreSQL.

use std::time::Duration;

use crate::support::{PASSWORD, account, token};
use plyyard_server::Tuning;
use plyyard_testkit::{Client, Method, TestDb, TestServer};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(15);
const SCOPES: [&str; 3] = ["challenge:read", "challenge:write", "board:play"];

async fn start(db: &TestDb, ttl: Duration) -> TestServer {
    TestServer::start_with(
        db.url(),
        Tuning {
            challenge_ttl: ttl,
            ..plyyard_testkit::tuning(0.25)
        },
    )
    .await
}

/// A new account and a token of it with `scopes`.
async fn player(srv: &TestServer, name: &str, scopes: &[&str]) -> String {
    token(&account(srv, name).await, scopes).await
}

/// An open NDJSON stream, read line by line.
struct Stream {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Stream {
    async fn open(c: &Client, token: &str, path: &str) -> Stream {
        let resp = reqwest::Client::new()
            .get(c.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(
            resp.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Stream {
            resp,
            buf: Vec::new(),
        }
    }

    /// The next line (`None` at the end of the stream); empty lines too.
    async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                return Some(String::from_utf8(line[..i].to_vec()).unwrap());
            }
            let chunk = tokio::time::timeout(WAIT, self.resp.chunk())
                .await
                .expect("a line within the wait")
                .unwrap()?;
            self.buf.extend_from_slice(&chunk);
        }
    }

    /// The next non-empty line as JSON.
    async fn event(&mut self) -> Value {
        loop {
            let l = self.line().await.expect("the stream goes on");
            if !l.is_empty() {
                return serde_json::from_str(&l).unwrap();
            }
        }
    }
}

async fn challenge(
    c: &Client,
    token: &str,
    to: &str,
    body: Option<(&str, &str)>,
) -> plyyard_testkit::Response {
    c.with_token(token, Method::POST, &format!("/api/challenge/{to}"), body)
        .await
        .unwrap()
}

const BLITZ: (&str, &str) = (
    "application/json",
    r#"{"rated":false,"clock.limit":300,"clock.increment":3,"color":"white","days":null,"variant":"standard"}"#,
);

async fn a_challenge_accepted_starts_the_game_on_both_streams(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "Alice", &SCOPES).await;
    let bob = player(&srv, "Bob", &SCOPES).await;
    let c = srv.client();
    let mut a_events = Stream::open(&c, &alice, "/api/stream/event").await;
    let mut b_events = Stream::open(&c, &bob, "/api/stream/event").await;

    let r = challenge(&c, &alice, "bob", Some(BLITZ)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let ch: Value = r.json().unwrap();
    let id = ch["id"].as_str().unwrap().to_owned();
    assert_eq!(ch["status"], "created");
    assert_eq!(ch["direction"], "out");
    assert_eq!(ch["challenger"]["id"], "alice");
    assert_eq!(ch["destUser"]["name"], "Bob");
    assert_eq!(
        ch["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 3, "show": "5+3"})
    );
    assert_eq!(ch["speed"], "blitz");
    assert_eq!(ch["finalColor"], "white");

    let ev = b_events.event().await;
    assert_eq!(ev["type"], "challenge");
    assert_eq!(ev["challenge"]["id"], id.as_str());
    assert_eq!(ev["challenge"]["direction"], "in");
    assert_eq!(a_events.event().await["challenge"]["direction"], "out");

    let mine: Value = c
        .with_token(&bob, Method::GET, "/api/challenge", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(mine["in"].as_array().unwrap().len(), 1);
    assert_eq!(mine["out"], json!([]));

    // The challenger cannot accept it; the challenged can, once.
    let r = c
        .with_token(
            &alice,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 404);
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap(), json!({"ok": true}));
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 400, "{}", r.text());

    let start = b_events.event().await;
    assert_eq!(start["type"], "gameStart", "{start}");
    assert_eq!(start["game"]["gameId"], id.as_str());
    assert_eq!(start["game"]["color"], "black");
    assert_eq!(start["game"]["opponent"]["username"], "Alice");
    assert_eq!(start["game"]["isMyTurn"], false);
    assert_eq!(start["game"]["secondsLeft"], 300);
    let start = a_events.event().await;
    assert_eq!(start["game"]["color"], "white");
    assert_eq!(start["game"]["isMyTurn"], true);

    // The game is an ordinary table game, with the challenge's id.
    let game = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["kind"], "table");
    assert_eq!(game["white"]["name"], "Alice");

    // A new stream lists the ongoing game first.
    drop(b_events);
    let mut again = Stream::open(&c, &bob, "/api/stream/event").await;
    let first = again.event().await;
    assert_eq!(first["type"], "gameStart");
    assert_eq!(first["game"]["id"], id.as_str());
    // Cancelling the accepted, unplayed game aborts it: gameFinish.
    let r = c
        .with_token(
            &alice,
            Method::POST,
            &format!("/api/challenge/{id}/cancel"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let fin = again.event().await;
    assert_eq!(fin["type"], "gameFinish");
    assert_eq!(fin["game"]["status"]["name"], "aborted");
    srv.stop().await;
}

async fn declines_and_cancels_reach_both_players(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let bob = player(&srv, "bob", &SCOPES).await;
    let c = srv.client();
    let mut a_events = Stream::open(&c, &alice, "/api/stream/event").await;
    let form = (
        "application/x-www-form-urlencoded",
        "rated=true&clock.limit=600&clock.increment=5&variant=chess960",
    );
    let ch: Value = challenge(&c, &alice, "bob", Some(form))
        .await
        .json()
        .unwrap();
    assert_eq!(ch["rated"], true);
    assert_eq!(ch["variant"]["key"], "chess960");
    assert_eq!(ch["speed"], "rapid");
    let id = ch["id"].as_str().unwrap().to_owned();
    assert_eq!(a_events.event().await["type"], "challenge");
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/decline"),
            Some(("application/x-www-form-urlencoded", "reason=nonsense")),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 400, "an unknown reason changes nothing");
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/decline"),
            Some(("application/x-www-form-urlencoded", "reason=later")),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let ev = a_events.event().await;
    assert_eq!(ev["type"], "challengeDeclined");
    assert_eq!(ev["challenge"]["status"], "declined");
    assert_eq!(ev["challenge"]["declineReasonKey"], "later");
    assert!(ev["challenge"]["declineReason"].is_string());
    // Either player may look at it afterwards (the web app learns why so).
    for (token, direction) in [(&alice, "out"), (&bob, "in")] {
        let r = c
            .with_token(
                token,
                Method::GET,
                &format!("/api/challenge/{id}/show"),
                None,
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        let shown: Value = r.json().unwrap();
        assert_eq!(shown["status"], "declined");
        assert_eq!(shown["declineReasonKey"], "later");
        assert_eq!(shown["direction"], direction);
    }
    let carol = player(&srv, "carol", &SCOPES).await;
    let r = c
        .with_token(
            &carol,
            Method::GET,
            &format!("/api/challenge/{id}/show"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 404, "another's challenge is not shown");
    let r = c
        .with_token(&alice, Method::GET, "/api/challenge/nope/show", None)
        .await
        .unwrap();
    assert_eq!(r.status, 404);

    let ch: Value = challenge(&c, &alice, "bob", Some(BLITZ))
        .await
        .json()
        .unwrap();
    let id = ch["id"].as_str().unwrap().to_owned();
    let mut b_events = Stream::open(&c, &bob, "/api/stream/event").await;
    assert_eq!(
        b_events.event().await["type"],
        "challenge",
        "a waiting one, listed on open"
    );
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/cancel"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 404, "only the challenger cancels");
    let r = c
        .with_token(
            &alice,
            Method::POST,
            &format!("/api/challenge/{id}/cancel"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200);
    let ev = b_events.event().await;
    assert_eq!(ev["type"], "challengeCanceled");
    assert_eq!(ev["challenge"]["status"], "canceled");
    let r = c
        .with_token(
            &bob,
            Method::POST,
            &format!("/api/challenge/{id}/accept"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 400, "a cancelled challenge cannot be accepted");
    srv.stop().await;
}

async fn a_challenge_without_its_challenger_goes_offline(db: TestDb) {
    let srv = start(&db, Duration::from_secs(1)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let bob = player(&srv, "bob", &SCOPES).await;
    let c = srv.client();
    let mut b_events = Stream::open(&c, &bob, "/api/stream/event").await;
    let ch: Value = challenge(&c, &alice, "bob", Some(BLITZ))
        .await
        .json()
        .unwrap();
    assert_eq!(b_events.event().await["type"], "challenge");
    let ev = b_events.event().await;
    assert_eq!(ev["type"], "challengeCanceled");
    assert_eq!(ev["challenge"]["id"], ch["id"]);
    assert_eq!(ev["challenge"]["status"], "offline");
    srv.stop().await;
}

async fn a_deleted_challengers_challenges_are_cancelled(db: TestDb) {
    let srv = start(&db, Duration::from_secs(30)).await;
    let alice_web = account(&srv, "alice").await;
    let alice = token(&alice_web, &SCOPES).await;
    let bob = player(&srv, "bob", &SCOPES).await;
    let c = srv.client();
    // Alice's stream stays open: it would keep her challenge alive.
    let _a_events = Stream::open(&c, &alice, "/api/stream/event").await;
    let mut b_events = Stream::open(&c, &bob, "/api/stream/event").await;
    let ch: Value = challenge(&c, &alice, "bob", Some(BLITZ))
        .await
        .json()
        .unwrap();
    assert_eq!(b_events.event().await["type"], "challenge");
    let r = alice_web
        .post_json("/api/account/delete", &json!({"password": PASSWORD}))
        .await
        .unwrap();
    assert_eq!(r.status, 204);
    let ev = b_events.event().await;
    assert_eq!(ev["type"], "challengeCanceled", "{ev}");
    assert_eq!(ev["challenge"]["id"], ch["id"]);
    assert_eq!(ev["challenge"]["status"], "canceled");
    let r = c
        .with_token(&bob, Method::GET, "/api/challenge", None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let list: Value = r.json().unwrap();
    assert_eq!(list, json!({"in": [], "out": []}));
    srv.stop().await;
}

async fn one_event_stream_per_account_with_keep_alives(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let c = srv.client();
    let mut first = Stream::open(&c, &alice, "/api/stream/event").await;
    let status = c.get_value("/api/users/status?ids=alice").await;
    assert_eq!(status[0]["online"], true);
    // An empty line within 6 s (a client times out at 15).
    assert_eq!(first.line().await.as_deref(), Some(""));
    let _second = Stream::open(&c, &alice, "/api/stream/event").await;
    assert_eq!(first.line().await, None, "the older stream ends");
    srv.stop().await;
}

async fn bad_challenges_are_refused_and_change_nothing(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let _bob = player(&srv, "bob", &SCOPES).await;
    let reader = player(&srv, "reader", &["preference:read"]).await;
    let c = srv.client();
    let json = "application/json";
    for (to, body, want) in [
        ("alice", BLITZ.1, 400),
        ("nobody", BLITZ.1, 404),
        ("bob", r#"{"days":2}"#, 400),
        ("bob", r#"{"clock.limit":15,"clock.increment":0}"#, 400),
        ("bob", r#"{"clock.limit":10860,"clock.increment":0}"#, 400),
        ("bob", r#"{"clock.limit":60,"clock.increment":181}"#, 400),
        (
            "bob",
            r#"{"clock.limit":300,"clock.increment":3,"variant":"atomic"}"#,
            400,
        ),
        (
            "bob",
            r#"{"clock.limit":300,"clock.increment":3,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}"#,
            400,
        ),
        (
            "bob",
            r#"{"clock.limit":300,"clock.increment":3,"color":"green"}"#,
            400,
        ),
        ("bob", r#"{"clock.limit":"#, 400),
    ] {
        let r = challenge(&c, &alice, to, Some((json, body))).await;
        assert_eq!(r.status, want, "{to} {body}: {}", r.text());
        assert!(r.json::<Value>().unwrap()["error"].is_string());
    }
    let r = challenge(&c, &reader, "bob", Some(BLITZ)).await;
    assert_eq!(r.status, 403);
    let r = c
        .with_token(&reader, Method::GET, "/api/stream/event", None)
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    let mine: Value = c
        .with_token(&alice, Method::GET, "/api/challenge", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(mine, json!({"in": [], "out": []}));
    let r = c
        .with_token(&alice, Method::POST, "/api/challenge/zzzzzzzz/accept", None)
        .await
        .unwrap();
    assert_eq!(r.status, 404);
    // One player cannot pile challenges on another: three may wait from
    // one to one, the fourth is refused (each was accepted before).
    for _ in 0..plyyard_pairing::challenges::MAX_TO_ONE {
        assert_eq!(challenge(&c, &alice, "bob", Some(BLITZ)).await.status, 200);
    }
    let r = challenge(&c, &alice, "bob", Some(BLITZ)).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.text().contains("waiting for this player"), "{}", r.text());
    srv.stop().await;
}

async fn board_seeks_pair_and_tokens_stay_off_the_web_apps_api(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let bob = player(&srv, "bob", &SCOPES).await;
    let c = srv.client();
    let mut a_events = Stream::open(&c, &alice, "/api/stream/event").await;
    let mut b_events = Stream::open(&c, &bob, "/api/stream/event").await;
    let seek = |token: String| {
        let url = c.url("/api/board/seek");
        async move {
            reqwest::Client::new()
                .post(url)
                .bearer_auth(token)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("rated=false&time=5&increment=3&variant=standard&color=random&ratingRange=")
                .send()
                .await
                .unwrap()
        }
    };
    let a = seek(alice.clone()).await;
    assert_eq!(a.status(), 200);
    let b = seek(bob.clone()).await;
    assert_eq!(b.status(), 200);
    // Paired: both seeks' streams end, and the game starts on both event streams.
    for resp in [a, b] {
        tokio::time::timeout(WAIT, resp.bytes())
            .await
            .unwrap()
            .unwrap();
    }
    let a_start = a_events.event().await;
    assert_eq!(a_start["type"], "gameStart", "{a_start}");
    let b_start = b_events.event().await;
    assert_eq!(a_start["game"]["id"], b_start["game"]["id"]);
    assert_ne!(a_start["game"]["color"], b_start["game"]["color"]);

    // Bad seeks are 400s; a time control quick pairing does not offer too.
    for body in [
        "time=5",
        "time=2.5&increment=3",
        "time=7&increment=1",
        "days=2",
    ] {
        let r = c
            .with_token(
                &alice,
                Method::POST,
                "/api/board/seek",
                Some(("application/x-www-form-urlencoded", body)),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 400, "{body}: {}", r.text());
    }
    // A token works on the Lichess-compatible API only.
    let r = c
        .with_token(
            &alice,
            Method::POST,
            "/api/computer-games",
            Some((
                "application/json",
                r#"{"level":"beginner","color":"white"}"#,
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    let game = a_start["game"]["id"].as_str().unwrap();
    let r = c
        .with_token(
            &alice,
            Method::GET,
            &format!("/api/games/{game}/socket"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "no game socket with a token");
    srv.stop().await;
}

async fn a_game_against_the_computer_is_played_through_the_board_api(db: TestDb) {
    let srv = start(&db, Duration::from_secs(20)).await;
    let alice = player(&srv, "alice", &SCOPES).await;
    let c = srv.client();
    let mut events = Stream::open(&c, &alice, "/api/stream/event").await;
    let r = c
        .with_token(
            &alice,
            Method::POST,
            "/api/challenge/ai",
            Some((
                "application/x-www-form-urlencoded",
                "level=1&color=white&clock.limit=300&clock.increment=3",
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let game: Value = r.json().unwrap();
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["player"], "white");
    assert_eq!(game["source"], "ai");
    assert_eq!(game["status"]["name"], "started");
    // The clock asked for is the game's: 5+3 is blitz.
    assert_eq!(game["speed"], "blitz");
    let start = events.event().await;
    assert_eq!(start["type"], "gameStart");
    assert_eq!(start["game"]["id"], id.as_str());
    assert_eq!(start["game"]["opponent"]["ai"], 1);

    let mut s = Stream::open(&c, &alice, &format!("/api/board/game/stream/{id}")).await;
    let full = s.event().await;
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["black"]["aiLevel"], 1);
    assert_eq!(full["speed"], "blitz");
    assert_eq!(full["clock"]["initial"], 300_000);
    assert_eq!(full["clock"]["increment"], 3_000);
    assert_eq!(full["state"]["wtime"], 300_000);
    let r = c
        .with_token(
            &alice,
            Method::POST,
            &format!("/api/board/game/{id}/move/e2e4"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    // Our move, then the computer's reply.
    loop {
        let st = s.event().await;
        let moves = st["moves"].as_str().unwrap_or_default().to_owned();
        if moves.split(' ').count() >= 2 {
            assert!(moves.starts_with("e2e4 "), "{moves}");
            break;
        }
    }
    for bad in [
        "level=9",
        "level=3&days=2",
        "level=3&variant=atomic",
        "level=3&clock.limit=300",
        "level=3&clock.increment=2",
        "level=3&clock.limit=7&clock.increment=0",
        "level=3&clock.limit=300&clock.increment=999",
    ] {
        let r = c
            .with_token(
                &alice,
                Method::POST,
                "/api/challenge/ai",
                Some(("application/x-www-form-urlencoded", bad)),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 400, "{bad}");
    }
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    a_deleted_challengers_challenges_are_cancelled,
    a_game_against_the_computer_is_played_through_the_board_api,
    board_seeks_pair_and_tokens_stay_off_the_web_apps_api,
    a_challenge_accepted_starts_the_game_on_both_streams,
    declines_and_cancels_reach_both_players,
    a_challenge_without_its_challenger_goes_offline,
    one_event_stream_per_account_with_keep_alives,
    bad_challenges_are_refused_and_change_nothing,
);
