//! Rate limits on two nodes of one cluster (one PostgreSQL database, one
//! Redis): each quota is counted across both nodes, not per node, with the
//! figures of a node alone. Skipped without PostgreSQL (`PLYYARD_TEST_PG`)
//! or `redis-server` (required by `PLYYARD_REQUIRE_PG` and
//! `PLYYARD_REQUIRE_REDIS`).

use std::time::Duration;

use plyyard_server::{Config, Tuning};
use plyyard_testkit::{Backend, Client, TestDb, TestRedis, TestServer};
use serde_json::{Value, json};

const PASSWORD: &str = "Knight-f3 takes e5!";

/// Two nodes, `a` and `b`, on one database and one Redis.
struct Cluster {
    a: TestServer,
    b: TestServer,
    _redis: TestRedis,
    _db: TestDb,
}

impl Cluster {
    async fn start(tune: impl Fn(&mut Tuning)) -> Option<Cluster> {
        let db = TestDb::new(Backend::Postgres).await?;
        let redis = TestRedis::start()?;
        let node = |id: &str| {
            let mut tuning = plyyard_testkit::tuning(0.25);
            tune(&mut tuning);
            TestServer::start_config(Config {
                addr: "127.0.0.1:0".into(),
                db: db.url().to_owned(),
                tuning,
                redis: Some(redis.url()),
                node_id: Some(id.to_owned()),
                ..Config::default()
            })
        };
        let a = node("a").await;
        let b = node("b").await;
        Some(Cluster {
            a,
            b,
            _redis: redis,
            _db: db,
        })
    }

    async fn stop(self) {
        self.a.stop().await;
        self.b.stop().await;
    }
}

async fn post(c: &Client, path: &str, name: &str, password: &str) -> plyyard_testkit::Response {
    c.post_json(path, &json!({"username": name, "password": password}))
        .await
        .unwrap()
}

fn refused(r: &plyyard_testkit::Response) -> u64 {
    assert_eq!(r.status, 429, "{}", r.text());
    let body: Value = r.json().unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    r.header("retry-after").unwrap().parse().unwrap()
}

/// Four sign-ups an hour from one address: two on each node, then the
/// next is refused on either node, with the wait of one node alone (an
/// hour / 4).
#[tokio::test]
async fn sign_ups_from_one_address_are_counted_across_nodes() {
    let Some(cluster) = Cluster::start(|t| t.quotas.signups_per_hour = 4).await else {
        return;
    };
    let (on_a, on_b) = (cluster.a.client(), cluster.b.client());
    for (n, c) in [&on_a, &on_b, &on_a, &on_b].into_iter().enumerate() {
        let r = post(c, "/api/account/signup", &format!("user{n}"), PASSWORD).await;
        assert_eq!(r.status, 201, "sign-up {n}: {}", r.text());
    }
    let wait_a = refused(&post(&on_a, "/api/account/signup", "user4", PASSWORD).await);
    let wait_b = refused(&post(&on_b, "/api/account/signup", "user5", PASSWORD).await);
    assert_eq!((wait_a, wait_b), (900, 900));
    cluster.stop().await;
}

/// Failed log-ins to one name on both nodes share one back-off: five
/// free failures in all, then either node makes the next attempt wait;
/// a success on one node resets it for both.
#[tokio::test]
async fn the_log_in_back_off_is_shared_by_the_nodes() {
    let Some(cluster) = Cluster::start(|_| {}).await else {
        return;
    };
    let (on_a, on_b) = (cluster.a.client(), cluster.b.client());
    let r = post(&on_a, "/api/account/signup", "olga", PASSWORD).await;
    assert_eq!(r.status, 201, "{}", r.text());
    for (n, c) in [&on_a, &on_b, &on_a, &on_b, &on_a].into_iter().enumerate() {
        let r = post(c, "/api/account/login", "olga", &format!("guess {n}")).await;
        assert_eq!(r.status, 401, "failure {n}: {}", r.text());
    }
    assert_eq!(
        refused(&post(&on_b, "/api/account/login", "Olga", "guess 5").await),
        1
    );
    assert_eq!(
        refused(&post(&on_a, "/api/account/login", "olga", PASSWORD).await),
        1
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let r = post(&on_b, "/api/account/login", "olga", PASSWORD).await;
    assert_eq!(r.status, 200, "{}", r.text());
    // The success on b reset the count that a reads.
    for n in 0..5 {
        let r = post(&on_a, "/api/account/login", "olga", &format!("again {n}")).await;
        assert_eq!(r.status, 401, "failure {n} after the reset: {}", r.text());
    }
    cluster.stop().await;
}
