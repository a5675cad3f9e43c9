//! Quick pairing over real HTTP and the lobby socket: two seekers of the
//! same game get the same new game, different games never pair, a seek
//! dies with its request or by `DELETE` and leaves nothing, a new seek
//! replaces the old, seeks are rate limited, and 200 seekers at once all
//! pair exactly once. Every test once on SQLite and once on PostgreSQL.

use std::collections::HashMap;
use std::time::Duration;

use crate::support::{PASSWORD, account as player};
use plyyard_testkit::{Client, Method, TestDb, TestServer, recv_until};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

async fn start(db: &TestDb, adjust: impl FnOnce(&mut plyyard_server::Tuning)) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.quotas.signups_per_hour = 0;
    tuning.hash_workers = 2;
    tuning.hash_queue = 256;
    adjust(&mut tuning);
    TestServer::start_with(db.url(), tuning).await
}

/// Seeks `body` on a task of its own; the task answers (status, JSON) once
/// the request ends. Aborting the task drops the request: the client left.
fn seek(c: &Client, body: Value) -> tokio::task::JoinHandle<(u16, Value)> {
    let c = c.clone();
    tokio::spawn(async move {
        let r = c.post_json("/api/seeks", &body).await.unwrap();
        (r.status, r.json().unwrap_or(Value::Null))
    })
}

fn blitz() -> Value {
    json!({"minutes": 3, "increment": 2, "rated": true})
}

/// The waiting seeks as `GET /api/lobby` lists them.
async fn waiting(c: &Client) -> Vec<Value> {
    let lobby = c.get_value("/api/lobby").await;
    lobby["seeks"].as_array().cloned().unwrap_or_default()
}

/// Waits until `GET /api/lobby` lists `n` seeks.
async fn until_waiting(c: &Client, n: usize) -> Vec<Value> {
    let t0 = tokio::time::Instant::now();
    loop {
        let seeks = waiting(c).await;
        if seeks.len() == n {
            return seeks;
        }
        assert!(
            t0.elapsed() < WAIT,
            "{} seeks waiting, not {n}: {seeks:?}",
            seeks.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn two_seekers_of_the_same_game_get_the_same_new_game(db: TestDb) {
    let srv = start(&db, |_| {}).await;
    let anon = srv.client();
    let r = anon.post_json("/api/seeks", &blitz()).await.unwrap();
    assert_eq!(r.status, 401, "tables need an account, so do seeks");
    let ann = player(&srv, "seekann").await;
    let bob = player(&srv, "seekbob").await;
    for (bad, says) in [
        (
            json!({"minutes": 4, "increment": 2}),
            "3+2, 5+3, 10+5, 15+10, 30+20",
        ),
        (
            json!({"minutes": 3, "increment": 2, "variant": "atomic"}),
            "atomic",
        ),
        (
            json!({"minutes": 3, "increment": 2, "colour": "white"}),
            "colour",
        ),
        (json!({"minutes": 3}), "increment"),
    ] {
        let r = ann.post_json("/api/seeks", &bad).await.unwrap();
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert!(r.text().contains(says), "{bad}: {}", r.text());
    }
    let mut lobby = anon.socket("/api/lobby/socket").await.unwrap();
    let first = recv_until(&mut lobby, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    assert_eq!(first["seeks"], json!([]));
    let a = seek(&ann, blitz());
    let added = recv_until(&mut lobby, WAIT, |m| m["t"] == "seek_add")
        .await
        .unwrap();
    let s = &added["seek"];
    assert_eq!(
        (
            &s["name"],
            &s["minutes"],
            &s["increment"],
            &s["rated"],
            &s["variant"],
            &s["speed"]
        ),
        (
            &json!("seekann"),
            &json!(3),
            &json!(2),
            &json!(true),
            &json!("standard"),
            &json!("blitz")
        ),
        "{added}"
    );
    assert_eq!(s["rating"], 1500);
    let b = seek(&bob, blitz());
    let removed = recv_until(&mut lobby, WAIT, |m| m["t"] == "seek_remove")
        .await
        .unwrap();
    assert_eq!(removed["id"], s["id"]);
    let (sa, pa) = tokio::time::timeout(WAIT, a).await.unwrap().unwrap();
    let (sb, pb) = tokio::time::timeout(WAIT, b).await.unwrap().unwrap();
    assert_eq!((sa, sb), (200, 200), "{pa} {pb}");
    assert_eq!(pa["game_id"], pb["game_id"]);
    assert_eq!(pa["code"], pb["code"]);
    let code = pa["code"].as_str().unwrap();
    assert_eq!(pa["url"], format!("/t/{code}"));
    let mut colours = [pa["color"].as_str().unwrap(), pb["color"].as_str().unwrap()];
    colours.sort_unstable();
    assert_eq!(colours, ["black", "white"]);
    let id = pa["game_id"].as_str().unwrap();
    let game = ann.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["you"], pa["color"], "{game}");
    assert_eq!(game["status"], "ongoing", "{game}");
    assert_eq!(
        (&game["kind"], &game["rated"], &game["table"]),
        (&json!("table"), &json!(true), &json!(code))
    );
    let table = ann.get_value(&format!("/api/tables/{code}")).await;
    assert_eq!(
        (
            &table["status"],
            &table["game_id"],
            &table["public"],
            &table["rated"],
            &table["minutes"]
        ),
        (
            &json!("playing"),
            &json!(id),
            &json!(false),
            &json!(true),
            &json!(3)
        ),
        "{table}"
    );
    assert!(waiting(&anon).await.is_empty());
    assert_eq!(
        bob.get_value("/api/my-games")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    srv.stop().await;
}

async fn different_games_never_pair_and_cancelled_seeks_leave_nothing(db: TestDb) {
    let srv = start(&db, |_| {}).await;
    let watcher = srv.client();
    let mut clients = Vec::new();
    let mut asks = Vec::new();
    for (i, body) in [
        blitz(),
        json!({"minutes": 3, "increment": 2, "rated": false}),
        json!({"minutes": 5, "increment": 3, "rated": true}),
        json!({"minutes": 3, "increment": 2, "rated": true, "variant": "chess960"}),
    ]
    .into_iter()
    .enumerate()
    {
        let c = player(&srv, &format!("apart{i}")).await;
        asks.push(seek(&c, body));
        clients.push(c);
    }
    until_waiting(&watcher, 4).await;
    // Two sweeps later nothing has paired: the games differ.
    tokio::time::sleep(plyyard_pairing::seeks::SWEEP_EVERY * 3).await;
    assert_eq!(waiting(&watcher).await.len(), 4);
    assert!(asks.iter().all(|a| !a.is_finished()));
    // Cancelled by DELETE: that request answers 409, the seek is gone.
    let r = clients[3]
        .request(Method::DELETE, "/api/seeks", None)
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    let (status, body) = tokio::time::timeout(WAIT, asks.pop().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (status, &body["error"]["code"]),
        (409, &json!("conflict")),
        "{body}"
    );
    let r = clients[3]
        .request(Method::DELETE, "/api/seeks", None)
        .await
        .unwrap();
    assert_eq!(r.status, 404, "nothing left to cancel");
    until_waiting(&watcher, 3).await;
    // The others leave: their requests end, their seeks with them.
    let mut lobby = watcher.socket("/api/lobby/socket").await.unwrap();
    let first = recv_until(&mut lobby, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    assert_eq!(first["seeks"].as_array().unwrap().len(), 3, "{first}");
    for a in asks {
        a.abort();
    }
    for _ in 0..3 {
        recv_until(&mut lobby, WAIT, |m| m["t"] == "seek_remove")
            .await
            .unwrap();
    }
    until_waiting(&watcher, 0).await;
    // Nothing stored: no game, no table.
    for c in &clients {
        assert_eq!(c.get_value("/api/my-games").await, json!([]));
    }
    // A newcomer finds nobody to pair with.
    let late = player(&srv, "latecomer").await;
    let l = seek(&late, blitz());
    until_waiting(&watcher, 1).await;
    l.abort();
    until_waiting(&watcher, 0).await;
    srv.stop().await;
}

async fn a_new_seek_replaces_the_old_and_seeks_are_limited(db: TestDb) {
    let srv = start(&db, |t| t.quotas.seeks_per_minute = 3).await;
    let ann = player(&srv, "replacer").await;
    let first = seek(&ann, blitz());
    until_waiting(&ann, 1).await;
    let second = seek(&ann, json!({"minutes": 10, "increment": 5}));
    let (status, body) = tokio::time::timeout(WAIT, first).await.unwrap().unwrap();
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("replaced")
    );
    let seeks = until_waiting(&ann, 1).await;
    assert_eq!(
        (&seeks[0]["minutes"], &seeks[0]["name"]),
        (&json!(10), &json!("replacer"))
    );
    let third = seek(&ann, blitz());
    let (status, _) = tokio::time::timeout(WAIT, second).await.unwrap().unwrap();
    assert_eq!(status, 409);
    let r = ann.post_json("/api/seeks", &blitz()).await.unwrap();
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    assert_eq!(
        until_waiting(&ann, 1).await[0]["minutes"],
        3,
        "the refused seek changed nothing"
    );
    third.abort();
    until_waiting(&ann, 0).await;
    srv.stop().await;
}

async fn two_hundred_seekers_at_once_all_pair_exactly_once(db: TestDb) {
    const N: usize = 200;
    let srv = start(&db, |t| t.quotas.seeks_per_minute = 0).await;
    let mut players = Vec::with_capacity(N);
    let mut signups = tokio::task::JoinSet::new();
    for chunk in 0..N / 20 {
        for i in chunk * 20..(chunk + 1) * 20 {
            let c = srv.client();
            signups.spawn(async move {
                let r = c
                    .post_json(
                        "/api/account/signup",
                        &json!({"username": format!("crowd{i}"), "password": PASSWORD}),
                    )
                    .await
                    .unwrap();
                assert_eq!(r.status, 201, "{}", r.text());
                (i, c)
            });
        }
        while let Some(done) = signups.join_next().await {
            players.push(done.unwrap());
        }
    }
    players.sort_by_key(|(i, _)| *i);
    let asks: Vec<_> = players
        .iter()
        .map(|(i, c)| {
            let body = if i % 2 == 0 {
                blitz()
            } else {
                json!({"minutes": 5, "increment": 3, "rated": true})
            };
            seek(c, body)
        })
        .collect();
    let mut games: HashMap<String, Vec<(usize, String)>> = HashMap::new();
    for (i, a) in asks.into_iter().enumerate() {
        let (status, body) = tokio::time::timeout(WAIT, a).await.unwrap().unwrap();
        assert_eq!(status, 200, "seeker {i}: {body}");
        games
            .entry(body["game_id"].as_str().unwrap().to_owned())
            .or_default()
            .push((i, body["color"].as_str().unwrap().to_owned()));
    }
    assert_eq!(games.len(), N / 2, "every game has two seekers");
    for (id, seated) in &games {
        assert_eq!(seated.len(), 2, "{id}: {seated:?}");
        let (a, b) = (&seated[0], &seated[1]);
        assert_ne!(a.0, b.0);
        assert_ne!(a.1, b.1, "{id}: one White, one Black");
        assert_eq!(a.0 % 2, b.0 % 2, "{id}: same time control");
    }
    assert!(waiting(&srv.client()).await.is_empty());
    for (_, c) in players.iter().take(4) {
        assert_eq!(
            c.get_value("/api/my-games").await.as_array().unwrap().len(),
            1
        );
    }
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    two_seekers_of_the_same_game_get_the_same_new_game,
    different_games_never_pair_and_cancelled_seeks_leave_nothing,
    a_new_seek_replaces_the_old_and_seeks_are_limited,
    two_hundred_seekers_at_once_all_pair_exactly_once,
);
