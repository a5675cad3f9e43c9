//! Live games over two nodes of a cluster in one process (one PostgreSQL
//! database, one real Redis): commands forwarded to a game's owner, its
//! events relayed to sockets on the other node in order, and a game moving
//! to the other node when its owner stops. The three-process tests (nodes
//! killed, rolling restarts) are in `cluster`.

use std::time::Duration;

use crate::support::{account, join_table, open_table, token};
use plyyard_testkit::{
    Backend, Client, Socket, TestDb, TestRedis, TestServer, recv_until, send_json,
};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn node(db: &TestDb, redis: &TestRedis, name: &str) -> TestServer {
    TestServer::start_config(plyyard_server::Config {
        addr: "127.0.0.1:0".into(),
        db: db.url().to_owned(),
        tuning: plyyard_testkit::tuning(0.05),
        redis: Some(redis.url()),
        node_id: Some(name.to_owned()),
        ..plyyard_server::Config::default()
    })
    .await
}

/// A PostgreSQL database and a Redis, or `None` (skipped) without them.
async fn cluster_env() -> Option<(TestDb, TestRedis)> {
    let db = TestDb::new(Backend::Postgres).await?;
    let redis = TestRedis::start()?;
    Some((db, redis))
}

/// A socket on game `id`, past its first `full` state: (socket, version).
async fn ws(c: &Client, id: &str) -> (Socket, u64) {
    let mut s = c.game_socket(id, None).await.unwrap();
    let full = recv_until(&mut s, WAIT, |m| m["t"] == "full")
        .await
        .unwrap();
    let v = full["v"].as_u64().unwrap();
    (s, v)
}

async fn play(ws: &mut Socket, id: u64, uci: &str) -> Value {
    send_json(ws, &json!({"t": "move", "id": id, "uci": uci}))
        .await
        .unwrap();
    recv_until(ws, WAIT, |m| m["id"] == id).await.unwrap()
}

/// The events a socket hears until the game reaches `ply`: their versions.
async fn versions_until(ws: &mut Socket, ply: u64) -> Vec<u64> {
    let mut seen = Vec::new();
    loop {
        let m = recv_until(ws, WAIT, |m| m["t"] == "event").await.unwrap();
        seen.push(m["v"].as_u64().unwrap());
        if m["game"]["ply"] == ply {
            return seen;
        }
    }
}

fn consecutive(vs: &[u64]) -> bool {
    vs.windows(2).all(|w| w[1] == w[0] + 1)
}

/// `host` on one node opens a 5+3 table and `guest` on the other sits:
/// the game id and the white player's client.
async fn table_game(host: &Client, guest: &Client) -> (String, bool) {
    let body =
        json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true});
    let code = open_table(host, &body).await;
    let id = join_table(guest, &code).await;
    let state = host.get_value(&format!("/api/games/{id}")).await;
    (id, state["you"] == "white")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_on_both_nodes_see_every_move_in_order() {
    let Some((db, redis)) = cluster_env().await else {
        return;
    };
    let (a, b) = (node(&db, &redis, "a").await, node(&db, &redis, "b").await);
    let host = account(&a, "hostess").await;
    let guest = account(&b, "visitor").await;
    let (id, host_white) = table_game(&host, &guest).await;
    let (white, black) = if host_white {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let (mut ws_w, _) = ws(white, &id).await;
    let (mut ws_b, _) = ws(black, &id).await;
    let watcher_a = a.client();
    let watcher_b = b.client();
    let (mut spec_a, va) = ws(&watcher_a, &id).await;
    let (mut spec_b, vb) = ws(&watcher_b, &id).await;
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    for (i, uci) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut ws_w } else { &mut ws_b };
        let ack = play(mover, i as u64 + 1, uci).await;
        assert_eq!(ack["t"], "ack", "{uci}: {ack}");
    }
    let plies = moves.len() as u64;
    for (s, v) in [(&mut spec_a, va), (&mut spec_b, vb)] {
        let vs = versions_until(s, plies).await;
        assert!(consecutive(&vs), "{vs:?}");
        assert_eq!(vs[0], v + 1, "{vs:?} after {v}");
    }
    let stored = watcher_b.get_value(&format!("/api/games/{id}")).await;
    let ucis: Vec<&str> = stored["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(ucis, moves);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_declined_on_either_node_is_gone_on_both() {
    let Some((db, redis)) = cluster_env().await else {
        return;
    };
    let (a, b) = (node(&db, &redis, "a").await, node(&db, &redis, "b").await);
    let host = account(&a, "offerer").await;
    let guest = account(&b, "decliner").await;
    let (id, host_white) = table_game(&host, &guest).await;
    let (white, black) = if host_white {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let (mut ws_w, _) = ws(white, &id).await;
    let (mut ws_b, _) = ws(black, &id).await;
    let (watcher_a, watcher_b) = (a.client(), b.client());
    let (mut spec_a, _) = ws(&watcher_a, &id).await;
    let (mut spec_b, _) = ws(&watcher_b, &id).await;
    // One player sits on each node, so one of the two declines is a
    // command forwarded to the game's owner.
    let rounds = [("e2e4", 1), ("e7e5", 2)];
    for (i, (uci, ply)) in rounds.into_iter().enumerate() {
        let (mover, other) = if i == 0 {
            (&mut ws_w, &mut ws_b)
        } else {
            (&mut ws_b, &mut ws_w)
        };
        let id_n = 10 * (i as u64 + 1);
        let offer = json!({"t": "move", "id": id_n, "uci": uci, "draw_offer": true});
        send_json(mover, &offer).await.unwrap();
        let ack = recv_until(mover, WAIT, |m| m["id"] == id_n).await.unwrap();
        assert_eq!(ack["t"], "ack", "{ack}");
        let decline = json!({"t": "decline_draw", "id": id_n + 1});
        send_json(other, &decline).await.unwrap();
        let ack = recv_until(other, WAIT, |m| m["id"] == id_n + 1)
            .await
            .unwrap();
        assert_eq!(ack["t"], "ack", "{ack}");
        for s in [&mut spec_a, &mut spec_b] {
            let e = recv_until(s, WAIT, |m| m["t"] == "event" && m["kind"] == "draw")
                .await
                .unwrap();
            assert_eq!(
                (&e["game"]["ply"], &e["game"]["draw_offer"]),
                (&json!(ply), &Value::Null),
                "{e}"
            );
        }
        for c in [&watcher_a, &watcher_b] {
            let st = c.get_value(&format!("/api/games/{id}")).await;
            assert_eq!(st["table"]["draw_offer"], Value::Null, "{st}");
        }
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_to_the_other_node_when_its_owner_stops() {
    let Some((db, redis)) = cluster_env().await else {
        return;
    };
    let (a, b) = (node(&db, &redis, "a").await, node(&db, &redis, "b").await);
    let host = account(&a, "hostess").await;
    let guest = account(&a, "visitor").await;
    let (id, host_white) = table_game(&host, &guest).await;
    let (white, black) = if host_white {
        (&host, &guest)
    } else {
        (&guest, &host)
    };
    let (mut ws_w, _) = ws(white, &id).await;
    assert_eq!(play(&mut ws_w, 1, "d2d4").await["t"], "ack");
    // Both players move to node b; node a, the owner, stops.
    let (mut w_b, mut b_b) = (white.clone(), black.clone());
    w_b.set_addr(b.addr);
    b_b.set_addr(b.addr);
    a.stop().await;
    let (mut ws_w, _) = ws(&w_b, &id).await;
    let (mut ws_b, _) = ws(&b_b, &id).await;
    assert_eq!(play(&mut ws_b, 1, "d7d5").await["t"], "ack");
    assert_eq!(play(&mut ws_w, 2, "c2c4").await["t"], "ack");
    let vs = versions_until(&mut ws_b, 3).await;
    assert!(consecutive(&vs), "{vs:?}");
    let stored = b_b.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(stored["ply"], 3, "{stored}");
    assert_eq!(stored["status"], "ongoing", "{stored}");
    b.stop().await;
}

/// The node holding game `id`'s lease, straight from PostgreSQL, waited for.
async fn owner(db: &TestDb, id: &str) -> String {
    use sqlx::Connection as _;
    let mut conn = sqlx::PgConnection::connect(db.url()).await.unwrap();
    let t0 = std::time::Instant::now();
    loop {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT node_id FROM game_leases WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&mut conn)
                .await
                .unwrap();
        if let Some((node,)) = row {
            let _ = conn.close().await;
            return node;
        }
        assert!(t0.elapsed() < WAIT, "nobody owns {id}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_move_during_a_redis_outage_is_unavailable_not_refused() {
    let Some((db, redis)) = cluster_env().await else {
        return;
    };
    let (a, b) = (node(&db, &redis, "a").await, node(&db, &redis, "b").await);
    let host = account(&a, "outagehost").await;
    let guest = account(&b, "outageguest").await;
    let (id, host_white) = table_game(&host, &guest).await;
    let white = if host_white { &host } else { &guest };
    let bearer = token(white, &["board:play"]).await;
    let elsewhere = if owner(&db, &id).await == "a" { &b } else { &a };
    // Redis goes away: the other node cannot reach the game's owner. A
    // bot must read "try again" (503), not "refused move" (400).
    drop(redis);
    let path = format!("/api/board/game/{id}/move/e2e4");
    let r = elsewhere
        .client()
        .with_token(&bearer, plyyard_testkit::Method::POST, &path, None)
        .await
        .unwrap();
    assert_eq!(r.status, 503, "{}", r.text());
    a.stop().await;
    b.stop().await;
}
