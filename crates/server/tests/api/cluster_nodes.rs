//! Two nodes of a cluster (one PostgreSQL database, one Redis) serving
//! any request each: the lobby, quick pairing, presence, each account's
//! event stream, challenges going offline, and game chat reach across
//! them. PostgreSQL only (a cluster needs it); skipped without it, or
//! without `redis-server` unless `PLYYARD_REQUIRE_REDIS` is set.

use std::time::Duration;

use crate::support::{PASSWORD, Stream, account, join_table, open_table, token};
use plyyard_server::{Config, Tuning};
use plyyard_testkit::{
    Backend, Client, Method, Socket, TestDb, TestRedis, TestServer, recv_until, send_json,
};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);
const SCOPES: [&str; 3] = ["challenge:read", "challenge:write", "board:play"];

/// Runs `test` on a fresh PostgreSQL database with a Redis of its own;
/// nothing when either is missing (see [`plyyard_testkit::run_on`]).
fn on_cluster<F, Fut>(test: F)
where
    F: FnOnce(TestDb, TestRedis) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    plyyard_testkit::run_on(Backend::Postgres, |db| async move {
        if let Some(redis) = TestRedis::start() {
            test(db, redis).await;
        }
    });
}

fn tuning() -> Tuning {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.quotas.signups_per_hour = 0;
    tuning.hash_workers = 2;
    tuning
}

/// Node `node` of the cluster on `db` and `redis`.
async fn node(db: &TestDb, redis: &TestRedis, node: &str, tuning: Tuning) -> TestServer {
    TestServer::start_config(Config {
        addr: "127.0.0.1:0".into(),
        db: db.url().to_owned(),
        tuning,
        redis: Some(redis.url()),
        node_id: Some(node.to_owned()),
        ..Config::default()
    })
    .await
}

/// Nodes `a` and `b` (one after the other: the first makes the cookie
/// secret both use).
async fn two_nodes(db: &TestDb, redis: &TestRedis, tuning: Tuning) -> (TestServer, TestServer) {
    let a = node(db, redis, "a", tuning.clone()).await;
    let b = node(db, redis, "b", tuning).await;
    (a, b)
}

/// The same browser (its cookies) on another node.
fn on(c: &Client, srv: &TestServer) -> Client {
    let mut other = c.clone();
    other.set_addr(srv.addr);
    other
}

/// A lobby socket past its first list: (socket, that list).
async fn lobby(c: &Client) -> (Socket, Value) {
    let mut s = c.socket("/api/lobby/socket").await.unwrap();
    let first = recv_until(&mut s, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    (s, first)
}

async fn lobby_changes_reach_every_nodes_sockets(db: TestDb, redis: TestRedis) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let ann = account(&a, "lobbyann").await;
    let (mut on_a, _) = lobby(&ann).await;
    let (mut on_b, first) = lobby(&b.client()).await;
    assert_eq!(first["tables"], json!([]), "{first}");

    let r = ann
        .post_json("/api/tables", &json!({"minutes": 5, "increment": 3}))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let code = r.json::<Value>().unwrap()["code"].clone();
    let add = recv_until(&mut on_b, WAIT, |m| m["t"] == "add")
        .await
        .unwrap();
    assert_eq!(add["table"]["code"], code);
    assert_eq!(add["table"]["host"]["name"], "lobbyann");
    // Once on the node that opened it too, not twice.
    recv_until(&mut on_a, WAIT, |m| m["t"] == "add")
        .await
        .unwrap();

    // Cancelled through node b: both lobbies hear it.
    let r = on(&ann, &b)
        .post_empty(&format!("/api/tables/{}/cancel", code.as_str().unwrap()))
        .await
        .unwrap();
    assert!(r.status < 300, "{} {}", r.status, r.text());
    for s in [&mut on_a, &mut on_b] {
        let m = recv_until(s, WAIT, |m| m["t"] != "pong").await.unwrap();
        assert_eq!(m, json!({"t": "remove", "code": code}));
    }
    // A later socket on b lists nothing.
    assert_eq!(lobby(&b.client()).await.1["tables"], json!([]));
    a.stop().await;
    b.stop().await;
}

/// Seeks `body` on `c`'s node on a task: (status, JSON) once answered.
fn seek(c: &Client, body: Value) -> tokio::task::JoinHandle<(u16, Value)> {
    let c = c.clone();
    tokio::spawn(async move {
        let r = c.post_json("/api/seeks", &body).await.unwrap();
        (r.status, r.json().unwrap_or(Value::Null))
    })
}

async fn seeks_on_two_nodes_pair_into_one_game(db: TestDb, redis: TestRedis) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let ann = account(&a, "seekann").await;
    let bob = on(&account(&a, "seekbob").await, &b);
    let (mut watch_b, _) = lobby(&b.client()).await;
    let blitz = json!({"minutes": 3, "increment": 2, "rated": true});

    let ann_seek = seek(&ann, blitz.clone());
    let added = recv_until(&mut watch_b, WAIT, |m| m["t"] == "seek_add")
        .await
        .unwrap();
    assert_eq!(added["seek"]["name"], "seekann");
    let listed = b.client().get_value("/api/lobby").await;
    assert_eq!(
        listed["seeks"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );

    let bob_seek = seek(&bob, blitz);
    let (sa, pa) = tokio::time::timeout(WAIT, ann_seek).await.unwrap().unwrap();
    let (sb, pb) = tokio::time::timeout(WAIT, bob_seek).await.unwrap().unwrap();
    assert_eq!((sa, sb), (200, 200), "{pa} {pb}");
    assert_eq!(pa["game_id"], pb["game_id"]);
    assert_ne!(pa["color"], pb["color"]);
    let removed = recv_until(&mut watch_b, WAIT, |m| m["t"] == "seek_remove")
        .await
        .unwrap();
    assert_eq!(removed["id"], added["seek"]["id"]);
    // Both see the one game from either node.
    let id = pa["game_id"].as_str().unwrap();
    let game = bob.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["you"], pb["color"], "{game}");
    for srv in [&a, &b] {
        let listed = srv.client().get_value("/api/lobby").await;
        assert_eq!(listed["seeks"], json!([]), "{listed}");
    }

    // A seek cancelled on the other node ends the request holding it.
    let held = seek(&ann, json!({"minutes": 5, "increment": 3}));
    recv_until(&mut watch_b, WAIT, |m| m["t"] == "seek_add")
        .await
        .unwrap();
    let ann_on_b = on(&ann, &b);
    let r = ann_on_b
        .send(ann_on_b.builder(Method::DELETE, "/api/seeks"))
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    let (status, body) = tokio::time::timeout(WAIT, held).await.unwrap().unwrap();
    assert_eq!(status, 409, "{body}");
    a.stop().await;
    b.stop().await;
}

async fn a_seek_whose_node_died_leaves_the_pool(db: TestDb, redis: TestRedis) {
    use plyyard_pairing::seeks::{PoolKey, RedisSeeks, Seek, SeekStore};
    let a = node(&db, &redis, "a", tuning()).await;
    let (mut watch, _) = lobby(&a.client()).await;
    // Node c adds a seek, then dies: nobody renews its seeker.
    let bus = plyyard_cluster::Bus::connect(&redis.url(), "c")
        .await
        .unwrap();
    let store = RedisSeeks::new(&bus);
    let seek = Seek {
        id: store.new_id(),
        player: "p-ghost".into(),
        name: "ghost".into(),
        rating: 1500,
        provisional: true,
        key: PoolKey {
            variant: plyyard_game::Variant::Standard,
            minutes: 3,
            increment: 2,
            rated: false,
        },
        since: plyyard_store::now_ms(),
        node: "c".into(),
        address: String::new(),
    };
    store.hold(&seek).await;
    assert!(store.add(seek.clone(), seek.since).await.paired.is_none());
    drop(store);
    drop(bus);
    let added = recv_until(&mut watch, WAIT, |m| m["t"] == "seek_add")
        .await
        .unwrap();
    assert_eq!(added["seek"]["name"], "ghost");
    let t0 = std::time::Instant::now();
    let gone = recv_until(&mut watch, Duration::from_secs(25), |m| {
        m["t"] == "seek_remove"
    })
    .await
    .unwrap();
    assert_eq!(gone["id"], added["seek"]["id"]);
    let waited = t0.elapsed();
    assert!(waited <= Duration::from_secs(17), "{waited:?}");
    assert_eq!(a.client().get_value("/api/lobby").await["seeks"], json!([]));
    a.stop().await;
}

async fn many_seeks_through_two_stores_pair_exactly_once(_db: TestDb, redis: TestRedis) {
    use plyyard_pairing::pool::Pair;
    use plyyard_pairing::seeks::{PoolKey, RedisSeeks, Seek, SeekStore};
    let key = PoolKey {
        variant: plyyard_game::Variant::Standard,
        minutes: 5,
        increment: 3,
        rated: true,
    };
    let mut tasks = Vec::new();
    let buses = [
        plyyard_cluster::Bus::connect(&redis.url(), "x")
            .await
            .unwrap(),
        plyyard_cluster::Bus::connect(&redis.url(), "y")
            .await
            .unwrap(),
    ];
    for i in 0..200u32 {
        let store = RedisSeeks::new(&buses[(i % 2) as usize]);
        tasks.push(tokio::spawn(async move {
            let seek = Seek {
                id: store.new_id(),
                player: format!("p{i}"),
                name: format!("p{i}"),
                rating: 1500 + i64::from(i % 7) * 10,
                provisional: false,
                key,
                since: plyyard_store::now_ms(),
                node: if i % 2 == 0 { "x".into() } else { "y".into() },
                address: String::new(),
            };
            store.hold(&seek).await;
            let added = store.add(seek.clone(), seek.since).await;
            (seek.id, added.paired)
        }));
    }
    let mut paired = Vec::new();
    let mut ids = Vec::new();
    for t in tasks {
        let (id, pair) = t.await.unwrap();
        ids.push(id);
        if let Some(Pair(a, b)) = pair {
            assert_ne!(a.player, b.player);
            paired.extend([a.id, b.id]);
        }
    }
    let store = RedisSeeks::new(&buses[0]);
    for Pair(a, b) in store.sweep(plyyard_store::now_ms()).await {
        paired.extend([a.id, b.id]);
    }
    let n = paired.len();
    paired.sort_unstable();
    paired.dedup();
    assert_eq!(paired.len(), n, "a seek paired twice");
    assert_eq!(n, 200, "all pair (ratings within 60 of one another)");
    assert!(store.waiting().await.is_empty());
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 200);
}

async fn online(srv: &TestServer, name: &str) -> bool {
    let status = srv
        .client()
        .get_value(&format!("/api/users/status?ids={name}"))
        .await;
    status[0]["online"] == true
}

async fn until_online(srv: &TestServer, name: &str, want: bool) {
    let t0 = std::time::Instant::now();
    while online(srv, name).await != want {
        assert!(t0.elapsed() < WAIT, "{name} is not online={want}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const BLITZ: (&str, &str) = (
    "application/json",
    r#"{"rated":false,"clock.limit":300,"clock.increment":3,"color":"white","variant":"standard"}"#,
);

async fn presence_and_event_streams_span_the_nodes(db: TestDb, redis: TestRedis) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let alice = token(&account(&a, "alice").await, &SCOPES).await;
    let bob = token(&account(&a, "bob").await, &SCOPES).await;
    assert!(!online(&b, "alice").await);

    // Alice streams on a: online when asked on b.
    let mut first = Stream::open(&a, &alice, "/api/stream/event").await;
    until_online(&b, "alice", true).await;
    assert!(online(&a, "alice").await);

    // Bob challenges her through b: her stream on a hears it, and the
    // challenge shows her online.
    let r = b
        .client()
        .with_token(&bob, Method::POST, "/api/challenge/alice", Some(BLITZ))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let ch: Value = r.json().unwrap();
    assert_eq!(ch["destUser"]["online"], true, "{ch}");
    let ev = first.event().await;
    assert_eq!(ev["type"], "challenge", "{ev}");
    assert_eq!(ev["challenge"]["id"], ch["id"]);

    // Declined on a: bob's stream on b hears it.
    let mut bobs = Stream::open(&b, &bob, "/api/stream/event").await;
    assert_eq!(
        bobs.event().await["type"],
        "challenge",
        "the waiting one, listed"
    );
    let path = format!("/api/challenge/{}/decline", ch["id"].as_str().unwrap());
    let r = a
        .client()
        .with_token(&alice, Method::POST, &path, None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let ev = bobs.event().await;
    assert_eq!(ev["type"], "challengeDeclined", "{ev}");
    assert_eq!(first.event().await["type"], "challengeDeclined");

    // A second stream of alice's on b ends the first, on a.
    let mut second = Stream::open(&b, &alice, "/api/stream/event").await;
    loop {
        match first.line().await {
            None => break,
            Some(l) => assert!(l.is_empty() || l.contains("challenge"), "{l}"),
        }
    }
    // The second goes on (a keep-alive within 6 s), and she is online.
    assert_eq!(second.line().await.as_deref(), Some(""));
    assert!(online(&a, "alice").await);
    drop(second);
    until_online(&a, "alice", false).await;
    until_online(&b, "alice", false).await;
    drop(bobs);
    a.stop().await;
    b.stop().await;
}

async fn challenges_live_while_their_challenger_streams_on_any_node(db: TestDb, redis: TestRedis) {
    let ttl = Duration::from_secs(8);
    let (a, b) = two_nodes(
        &db,
        &redis,
        Tuning {
            challenge_ttl: ttl,
            ..tuning()
        },
    )
    .await;
    let alice = token(&account(&a, "alice").await, &SCOPES).await;
    let bob = token(&account(&a, "bob").await, &SCOPES).await;
    // Alice streams on a and challenges through b; both nodes sweep.
    let mut hers = Stream::open(&a, &alice, "/api/stream/event").await;
    let r = b
        .client()
        .with_token(&alice, Method::POST, "/api/challenge/bob", Some(BLITZ))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(hers.event().await["type"], "challenge");
    let mut his = Stream::open(&b, &bob, "/api/stream/event").await;
    assert_eq!(his.event().await["challenge"]["id"], id.as_str());
    tokio::time::sleep(ttl + Duration::from_secs(4)).await;
    let show = format!("/api/challenge/{id}/show");
    for srv in [&a, &b] {
        let c: Value = srv
            .client()
            .with_token(&bob, Method::GET, &show, None)
            .await
            .unwrap()
            .json()
            .unwrap();
        assert_eq!(c["status"], "created", "{c}");
    }
    // She leaves: it goes offline once, told to bob on b.
    drop(hers);
    let ev = his.event().await;
    assert_eq!(ev["type"], "challengeCanceled", "{ev}");
    assert_eq!(ev["challenge"]["status"], "offline");
    let quiet = tokio::time::timeout(Duration::from_secs(5), his.event()).await;
    assert!(quiet.is_err(), "told once: {quiet:?}");
    a.stop().await;
    b.stop().await;
}

async fn chat_said_on_one_node_reaches_sockets_on_the_other(db: TestDb, redis: TestRedis) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let host = account(&a, "chathost").await;
    let guest = account(&a, "chatguest").await;
    let body = json!({"minutes": 5, "increment": 3, "public": false});
    let code = open_table(&host, &body).await;
    let id = join_table(&guest, &code).await;
    // The host's socket on a, the guest's on b.
    let mut on_a = host.game_socket(&id, None).await.unwrap();
    let mut on_b = on(&guest, &b).game_socket(&id, None).await.unwrap();
    for s in [&mut on_a, &mut on_b] {
        recv_until(s, WAIT, |m| m["t"] == "chat_history")
            .await
            .unwrap();
    }
    send_json(
        &mut on_a,
        &json!({"t": "chat", "id": 7, "room": "player", "text": "good luck"}),
    )
    .await
    .unwrap();
    let ack = recv_until(&mut on_a, WAIT, |m| m["id"] == 7).await.unwrap();
    assert_eq!(ack["t"], "ack", "{ack}");
    let line = json!({"t": "chat", "room": "player", "user": "chathost", "text": "good luck"});
    assert_eq!(
        recv_until(&mut on_b, WAIT, |m| m["t"] == "chat")
            .await
            .unwrap(),
        line
    );
    // Once on the speaker's node too.
    assert_eq!(
        recv_until(&mut on_a, WAIT, |m| m["t"] == "chat")
            .await
            .unwrap(),
        line
    );
    send_json(&mut on_a, &json!({"t": "ping"})).await.unwrap();
    let next = recv_until(&mut on_a, WAIT, |m| m["t"] == "chat" || m["t"] == "pong")
        .await
        .unwrap();
    assert_eq!(next["t"], "pong", "no second copy: {next}");
    a.stop().await;
    b.stop().await;
}

/// Issue 58: a token revoked through one node ends at once the streams
/// opened with it on the other; an account deleted through one node ends
/// its streams on the other.
async fn a_credential_ended_on_one_node_ends_its_streams_on_the_other(
    db: TestDb,
    redis: TestRedis,
) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let alice = account(&a, "endann").await;
    let r = alice
        .post_json(
            "/api/account/tokens",
            &json!({"description": "a board app", "scopes": SCOPES}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let created: Value = r.json().unwrap();
    let (revoked, id) = (
        created["token"].as_str().unwrap(),
        created["id"].as_str().unwrap(),
    );
    let kept = token(&alice, &SCOPES).await;
    let mut on_b = Stream::open(&b, revoked, "/api/stream/event").await;
    // A second stream of hers would end the first: the kept token streams
    // a seek instead.
    let seek = reqwest::Client::new()
        .post(b.client().url("/api/board/seek"))
        .bearer_auth(&kept)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("time=5&increment=3&rated=false")
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status(), 200);
    let mut seeking = Stream::from_response(seek);

    let r = alice
        .request(Method::DELETE, &format!("/api/account/tokens/{id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let ends = async { while on_b.line().await.is_some() {} };
    tokio::time::timeout(Duration::from_secs(1), ends)
        .await
        .expect("the revoked token's stream on b ends within a second");
    assert!(
        !matches!(
            tokio::time::timeout(Duration::from_millis(1500), seeking.line()).await,
            Ok(None)
        ),
        "the other token's stream goes on"
    );

    let r = alice
        .post_json("/api/account/delete", &json!({"password": PASSWORD}))
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    let ends = async { while seeking.line().await.is_some() {} };
    tokio::time::timeout(Duration::from_secs(1), ends)
        .await
        .expect("a deleted account's stream on b ends within a second");
    a.stop().await;
    b.stop().await;
}

/// Issue 58: an account holds at most 8 game streams over all the nodes
/// (they were counted per node: 24 over 3); one that ends frees its place
/// for a stream on another node.
async fn game_streams_are_counted_across_the_nodes(db: TestDb, redis: TestRedis) {
    let (a, b) = two_nodes(&db, &redis, tuning()).await;
    let ann = account(&a, "streamann").await;
    let bob = account(&a, "streambob").await;
    let code = open_table(&ann, &json!({"minutes": 5, "increment": 3})).await;
    let game = join_table(&bob, &code).await;
    let tok = token(&ann, &SCOPES).await;
    let path = format!("/api/board/game/stream/{game}");
    let mut held = Vec::new();
    for srv in [&a, &b].into_iter().cycle().take(8) {
        let mut s = Stream::open(srv, &tok, &path).await;
        assert_eq!(s.event().await["type"], "gameFull");
        held.push(s);
    }
    let status = |srv: &TestServer| {
        let url = srv.client().url(&path);
        let tok = tok.clone();
        async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(tok)
                .send()
                .await
                .unwrap()
        }
    };
    for srv in [&a, &b] {
        assert_eq!(status(srv).await.status(), 429, "a ninth stream");
    }
    // One of a's ends: b opens one in its place.
    drop(held.remove(0));
    let until = std::time::Instant::now() + WAIT;
    let ninth = loop {
        let r = status(&b).await;
        if r.status() == 200 {
            break r;
        }
        assert_eq!(r.status(), 429);
        assert!(
            std::time::Instant::now() < until,
            "the place was never freed"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    held.push(Stream::from_response(ninth));
    assert_eq!(status(&a).await.status(), 429, "still 8 in all");
    drop(held);
    a.stop().await;
    b.stop().await;
}

macro_rules! cluster_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                on_cluster(super::$name);
            }
        )*
    };
}

mod on_postgres {
    use super::on_cluster;
    cluster_tests!(
        lobby_changes_reach_every_nodes_sockets,
        seeks_on_two_nodes_pair_into_one_game,
        a_seek_whose_node_died_leaves_the_pool,
        many_seeks_through_two_stores_pair_exactly_once,
        presence_and_event_streams_span_the_nodes,
        challenges_live_while_their_challenger_streams_on_any_node,
        chat_said_on_one_node_reaches_sockets_on_the_other,
        a_credential_ended_on_one_node_ends_its_streams_on_the_other,
        game_streams_are_counted_across_the_nodes,
    );
}
