//! The bus against a real Redis server started for each test (see
//! [`plyyard_cluster::testing`]).

use std::sync::Arc;
use std::time::Duration;

use plyyard_cluster::inbox::Inbox;
use plyyard_cluster::testing::TestRedis as Redis;
use plyyard_cluster::{Bus, BusError};

async fn next(rx: &mut tokio::sync::broadcast::Receiver<bytes::Bytes>) -> Vec<u8> {
    tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .expect("a message in time")
        .expect("a message")
        .to_vec()
}

/// Publishes on `topic` until someone hears it (a subscription takes a
/// moment to reach Redis).
async fn publish_heard(bus: &Bus, topic: &str, payload: &[u8]) {
    for _ in 0..100 {
        if bus.publish(topic, payload).await.unwrap_or(0) > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("nobody subscribed to {topic}");
}

#[tokio::test]
async fn messages_reach_every_node_that_listens() {
    let Some(redis) = Redis::start() else { return };
    let a = Bus::connect(&redis.url(), "a").await.unwrap();
    let b = Bus::connect(&redis.url(), "b").await.unwrap();
    let mut on_a = a.subscribe("lobby");
    let mut on_b = b.subscribe("lobby");
    // Probes until both subscriptions reached Redis (either may be first).
    while b.publish("lobby", b"probe").await.unwrap() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.publish("lobby", b"one").await.unwrap();
    b.publish("lobby", b"two").await.unwrap();
    // Each node hears both, in order, after whatever probes reached it.
    for rx in [&mut on_a, &mut on_b] {
        let mut seen = Vec::new();
        while seen.last().map(Vec::as_slice) != Some(&b"two"[..]) {
            seen.push(next(rx).await);
        }
        seen.retain(|m| m.as_slice() != b"probe");
        assert_eq!(seen, [b"one".to_vec(), b"two".to_vec()]);
    }
}

#[tokio::test]
async fn a_request_is_answered_by_its_node_and_fails_fast_when_nobody_listens() {
    let Some(redis) = Redis::start() else { return };
    let a = Bus::connect(&redis.url(), "a").await.unwrap();
    let b = Bus::connect(&redis.url(), "b").await.unwrap();
    let (inbox_a, _) = Inbox::start(&a);
    let (_inbox_b, mut to_b) = Inbox::start(&b);
    tokio::spawn(async move {
        while let Some(msg) = to_b.recv().await {
            let mut body = msg.body.to_vec();
            body.reverse();
            if let Some(r) = msg.reply {
                r.answer(&body).await;
            }
        }
    });
    let mut answer = None;
    for _ in 0..100 {
        match inbox_a.request("b", b"abc", Duration::from_secs(2)).await {
            Ok(body) => {
                answer = Some(body);
                break;
            }
            Err(BusError::NoListener(_)) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(answer.as_deref(), Some(&b"cba"[..]));
    let gone = inbox_a
        .request("nobody", b"x", Duration::from_secs(2))
        .await;
    assert!(matches!(gone, Err(BusError::NoListener(n)) if n == "nobody"));
}

#[tokio::test]
async fn a_bad_url_or_no_server_fails_at_once() {
    assert!(matches!(
        Bus::connect("http://nope", "a").await,
        Err(BusError::BadUrl { .. })
    ));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let started = std::time::Instant::now();
    let refused = Bus::connect(&format!("redis://127.0.0.1:{port}/0"), "a").await;
    assert!(matches!(refused, Err(BusError::Redis(_))));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn listeners_hear_again_after_redis_restarts() {
    let Some(redis) = Redis::start() else { return };
    let port = redis.port();
    let bus: Arc<Bus> = Bus::connect(&redis.url(), "a").await.unwrap();
    let mut rx = bus.subscribe("t");
    let mut again = bus.resubscribed();
    publish_heard(&bus, "t", b"before").await;
    assert_eq!(next(&mut rx).await, b"before");
    drop(redis);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _redis = Redis::on(port).expect("redis again");
    tokio::time::timeout(Duration::from_secs(10), again.changed())
        .await
        .expect("resubscribed in time")
        .unwrap();
    assert!(bus.is_up());
    publish_heard(&bus, "t", b"after").await;
    assert_eq!(next(&mut rx).await, b"after");
}

#[tokio::test]
async fn a_password_in_the_url_is_used_and_never_shown() {
    let Some(redis) = Redis::with_password("s3cret-pass") else {
        return;
    };
    let url = redis.url();
    assert!(url.contains(":s3cret-pass@"), "{url}");
    let a = Bus::connect(&url, "a").await.unwrap();
    let b = Bus::connect(&url, "b").await.unwrap();
    let mut rx = b.subscribe("t");
    publish_heard(&a, "t", b"hi").await;
    assert_eq!(next(&mut rx).await, b"hi");
    // A wrong password, and none, are refused; the errors never say it.
    for bad in [
        url.replace("s3cret-pass", "wrong-pass"),
        format!("redis://127.0.0.1:{}/0", redis.port()),
    ] {
        let e = Bus::connect(&bad, "c").await.unwrap_err();
        assert!(matches!(e, BusError::Redis(_)), "{e}");
        let shown = e.to_string();
        assert!(
            !shown.contains("s3cret") && !shown.contains("wrong-pass"),
            "{e}"
        );
    }
    let e = Bus::connect("redis://:s3cret-pass@127.0.0.1:notaport/0", "c")
        .await
        .unwrap_err();
    assert!(!e.to_string().contains("s3cret"), "{e}");
}

#[test]
fn urls_are_redacted_for_errors_and_logs() {
    use plyyard_cluster::redacted;
    assert_eq!(
        redacted("redis://:pw@10.0.0.1:6379/0"),
        "redis://***@10.0.0.1:6379/0"
    );
    assert_eq!(
        redacted("rediss://user:p@ss@host/0?x=@"),
        "rediss://***@host/0?x=@"
    );
    assert_eq!(redacted("redis://host:6379/0"), "redis://host:6379/0");
    assert_eq!(redacted("nonsense"), "nonsense");
}

/// Issue 58: `rediss://` URLs speak TLS. A Redis server that speaks only
/// TLS, under a certificate of a private authority, is reached once the
/// authority is trusted (`SSL_CERT_FILE`, read by a run of this test
/// binary of its own: the variable is the process's); untrusted, the
/// connection is refused.
#[tokio::test]
async fn rediss_urls_speak_tls_to_a_trusted_server() {
    let Some(redis) = Redis::with_tls() else {
        // In CI (PLYYARD_REQUIRE_REDIS) a skipped TLS test would pass unseen.
        assert!(
            std::env::var_os("PLYYARD_REQUIRE_REDIS").is_none(),
            "a TLS redis-server and openssl are needed (PLYYARD_REQUIRE_REDIS is set)"
        );
        return;
    };
    let refused = Bus::connect(&redis.url(), "a").await;
    assert!(refused.is_err(), "an untrusted certificate is refused");
    let plain = redis.url().replacen("rediss://", "redis://", 1);
    assert!(Bus::connect(&plain, "a").await.is_err(), "TLS only");
    let run = tokio::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "over_tls", "--ignored", "--nocapture"])
        .env("SSL_CERT_FILE", redis.ca_file().unwrap())
        .env(TLS_URL_ENV, redis.url())
        .output()
        .await
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}");
    assert!(out.contains("1 passed"), "{out}");
}

/// Where [`rediss_urls_speak_tls_to_a_trusted_server`] tells its own run
/// the URL.
const TLS_URL_ENV: &str = "PLYYARD_TEST_REDISS_URL";

/// Two nodes over TLS: run by [`rediss_urls_speak_tls_to_a_trusted_server`].
#[tokio::test]
#[ignore = "run by rediss_urls_speak_tls_to_a_trusted_server, which trusts the server"]
async fn over_tls() {
    let url = std::env::var(TLS_URL_ENV).expect("run by the TLS test");
    let a = Bus::connect(&url, "a").await.unwrap();
    let b = Bus::connect(&url, "b").await.unwrap();
    let mut on_b = b.subscribe("lobby");
    publish_heard(&a, "lobby", b"over tls").await;
    assert_eq!(next(&mut on_b).await, b"over tls");
}
