//! The server's defences over real HTTP, on a port-0 server, each test on
//! SQLite and on PostgreSQL: the same-origin rule for state changes, rate
//! limits by client address (and `X-Forwarded-For` only behind a trusted
//! proxy), security headers, compression and `ETag`s.

use std::net::SocketAddr;
use std::time::Duration;

use plyyard_server::security::Quotas;
use plyyard_server::{Config, Server, Tuning};
use plyyard_testkit::TestDb;
use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Client, Response, StatusCode};
use serde_json::{Value, json};

const NEW_GAME: &str = r#"{"level":"beginner","color":"white","variant":"standard"}"#;

/// A server (testkit's, in-process) and a client without a cookie store:
/// every request is a new anonymous visitor.
struct TestServer {
    addr: SocketAddr,
    http: Client,
    server: plyyard_testkit::TestServer,
}

impl TestServer {
    async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, |_| {}).await
    }

    async fn start_with(db: &TestDb, adjust: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config {
            addr: "127.0.0.1:0".into(),
            db: db.url().to_owned(),
            tuning: Tuning {
                engine_workers: 1,
                engine_hash_mb: 4,
                think_time_factor: 0.05,
                ..Tuning::default()
            },
            ..Config::default()
        };
        adjust(&mut config);
        let server = plyyard_testkit::TestServer::start_config(config).await;
        let http = Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        TestServer {
            addr: server.addr,
            http,
            server,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        let mut req = self.http.get(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }

    /// `POST /api/computer-games` with `headers` (and nothing else).
    async fn create(&self, headers: &[(&str, &str)]) -> Response {
        let mut req = self
            .http
            .post(self.url("/api/computer-games"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(NEW_GAME);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send().await.unwrap()
    }

    async fn create_same_origin(&self, extra: &[(&str, &str)]) -> Response {
        let origin = self.origin();
        let mut headers = vec![("origin", origin.as_str())];
        headers.extend_from_slice(extra);
        self.create(&headers).await
    }

    /// Games written since start, from `/metrics`.
    async fn games_created(&self) -> u64 {
        let text = self.get("/metrics", &[]).await.text().await.unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("plyyard_games_created_total "))
            .and_then(|v| v.trim().parse().ok())
            .expect("metric present")
    }

    async fn stop(self) {
        self.server.stop().await;
    }
}

async fn error_code(resp: Response) -> String {
    let body: Value = resp.json().await.unwrap();
    body["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn retry_after(headers: &HeaderMap) -> u64 {
    headers
        .get(header::RETRY_AFTER)
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .expect("whole seconds")
}

/// Creates games until the first refusal; the successes and the refusal.
async fn create_until_refused(
    s: &TestServer,
    extra: &[(&str, &str)],
    at_most: usize,
) -> (usize, Option<Response>) {
    for n in 0..at_most {
        let r = s.create_same_origin(extra).await;
        match r.status() {
            StatusCode::CREATED => {}
            StatusCode::TOO_MANY_REQUESTS => return (n, Some(r)),
            other => panic!("unexpected {other}: {}", r.text().await.unwrap()),
        }
    }
    (at_most, None)
}

async fn cross_site_and_originless_posts_are_refused(db: TestDb) {
    let s = TestServer::start(&db).await;

    let foreign = s.create(&[("origin", "http://evil.example")]).await;
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    assert!(foreign.headers().get(header::SET_COOKIE).is_none());
    assert_eq!(error_code(foreign).await, "forbidden");

    let other_port = s.create(&[("origin", "http://127.0.0.1:1")]).await;
    assert_eq!(other_port.status(), StatusCode::FORBIDDEN);
    let null = s.create(&[("origin", "null")]).await;
    assert_eq!(null.status(), StatusCode::FORBIDDEN);
    let cross = s.create(&[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
    let bare = s.create(&[]).await;
    assert_eq!(bare.status(), StatusCode::FORBIDDEN);
    assert_eq!(error_code(bare).await, "forbidden");
    // Unknown endpoints too: the rule runs before routing decides.
    let unknown = s
        .http
        .post(s.url("/api/nothing-here"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), StatusCode::FORBIDDEN);
    assert_eq!(s.games_created().await, 0, "nothing written");

    let same = s.create_same_origin(&[]).await;
    assert_eq!(same.status(), StatusCode::CREATED);
    let fetch_site = s.create(&[("sec-fetch-site", "same-origin")]).await;
    assert_eq!(fetch_site.status(), StatusCode::CREATED);
    // Reads need no Origin.
    assert_eq!(s.get("/api/my-games", &[]).await.status(), StatusCode::OK);
    assert_eq!(s.games_created().await, 2);
    s.stop().await;
}

async fn the_public_url_is_the_only_origin(db: TestDb) {
    let s = TestServer::start_with(&db, |c| {
        c.public_url = Some("https://Chess.Example/".into())
    })
    .await;
    let local = s.create_same_origin(&[]).await;
    assert_eq!(local.status(), StatusCode::FORBIDDEN);
    let http = s.create(&[("origin", "http://chess.example")]).await;
    assert_eq!(http.status(), StatusCode::FORBIDDEN);
    let public = s.create(&[("origin", "https://chess.example")]).await;
    assert_eq!(public.status(), StatusCode::CREATED);

    // Behind https, cookies are Secure.
    let set = public.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(set.contains("Secure"), "{set}");
    s.stop().await;

    let plain = TestServer::start(&db).await;
    let r = plain.create_same_origin(&[]).await;
    let set = r.headers()[header::SET_COOKIE].to_str().unwrap();
    assert!(!set.contains("Secure"), "{set}");
    plain.stop().await;

    let bad = Server::bind(Config {
        addr: "127.0.0.1:0".into(),
        db: "sqlite::memory:".into(),
        public_url: Some("chess.example".into()),
        ..Config::default()
    })
    .await;
    assert!(bad.is_err(), "a public URL without scheme is refused");
}

async fn a_burst_of_cookieless_creations_from_one_address_is_limited(db: TestDb) {
    let s = TestServer::start(&db).await;
    let burst = Quotas::default().games_per_minute as usize;
    let (created, refused) = create_until_refused(&s, &[], 300).await;
    let refused = refused.expect("refused long before 300");
    assert!(created <= burst, "{created} games before the first 429");
    assert!(created >= burst / 2, "the burst is usable: {created}");
    let wait = retry_after(refused.headers());
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    assert_eq!(error_code(refused).await, "rate_limited");

    // The rest of the flood is refused as well, and writes nothing.
    let mut more_refused = 0;
    for _ in 0..270 {
        let r = s.create_same_origin(&[]).await;
        if r.status() == StatusCode::TOO_MANY_REQUESTS {
            assert!(retry_after(r.headers()) >= 1);
            more_refused += 1;
        }
    }
    assert!(more_refused >= 265, "{more_refused} of 270 refused");
    let stored = s.games_created().await;
    assert!(stored as usize <= burst + 5, "{stored} games written");

    // Another client, told apart by a forged X-Forwarded-For, is the same
    // address without --trust-proxy.
    let (forged, _) = create_until_refused(&s, &[("x-forwarded-for", "198.51.100.9")], 3).await;
    assert_eq!(
        forged, 0,
        "X-Forwarded-For is ignored without --trust-proxy"
    );
    s.stop().await;
}

async fn behind_a_trusted_proxy_the_forwarded_address_is_the_key(db: TestDb) {
    let s = TestServer::start_with(&db, |c| {
        c.trust_proxy = true;
        c.trusted_proxies = ["127.0.0.0/8", "10.0.0.0/8"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        c.tuning.quotas.games_per_minute = 5;
    })
    .await;
    let a = [("x-forwarded-for", "203.0.113.7")];
    let (created, refused) = create_until_refused(&s, &a, 20).await;
    assert_eq!(created, 5);
    assert!(retry_after(refused.unwrap().headers()) >= 1);

    // Another client of the proxy has its own quota.
    let b = [("x-forwarded-for", "203.0.113.8")];
    assert_eq!(s.create_same_origin(&b).await.status(), StatusCode::CREATED);
    // The client cannot escape by writing a left-most entry: the right-most
    // untrusted entry, the one the proxy appended, counts.
    let spoof = [("x-forwarded-for", "192.0.2.1, 203.0.113.7")];
    assert_eq!(
        s.create_same_origin(&spoof).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Trusted proxies on the way are skipped.
    let chained = [("x-forwarded-for", "203.0.113.7, 10.0.0.2")];
    assert_eq!(
        s.create_same_origin(&chained).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // A client on a private network that is no trusted proxy is a client:
    // what it wrote on its left is not read (it used to escape every limit
    // by writing a new address each time).
    for forged in [
        "198.51.100.1",
        "198.51.100.2",
        "198.51.100.3",
        "198.51.100.4",
        "198.51.100.5",
    ] {
        let xff = format!("{forged}, 192.168.7.7");
        let r = s
            .create_same_origin(&[("x-forwarded-for", xff.as_str())])
            .await;
        assert_eq!(r.status(), StatusCode::CREATED, "{forged}");
    }
    let r = s
        .create_same_origin(&[("x-forwarded-for", "198.51.100.6, 192.168.7.7")])
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // One IPv6 /64 is one client.
    let v6a = [("x-forwarded-for", "2001:db8:5:6::1")];
    let (created, _) = create_until_refused(&s, &v6a, 20).await;
    assert_eq!(created, 5);
    let v6b = [("x-forwarded-for", "2001:db8:5:6:ffff::2")];
    assert_eq!(
        s.create_same_origin(&v6b).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    let v6c = [("x-forwarded-for", "2001:db8:5:7::1")];
    assert_eq!(
        s.create_same_origin(&v6c).await.status(),
        StatusCode::CREATED
    );
    s.stop().await;
}

fn assert_security_headers(resp: &Response, what: &str) {
    let h = resp.headers();
    let csp = h
        .get(header::CONTENT_SECURITY_POLICY)
        .unwrap_or_else(|| panic!("{what}: no CSP"))
        .to_str()
        .unwrap();
    for part in [
        "default-src 'self'",
        "script-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ] {
        assert!(csp.contains(part), "{what}: {csp}");
    }
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{what}");
    assert_eq!(
        h[header::REFERRER_POLICY],
        "strict-origin-when-cross-origin",
        "{what}"
    );
    assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{what}");
}

async fn every_response_has_the_security_headers(db: TestDb) {
    let s = TestServer::start_with(&db, |c| c.tuning.quotas.games_per_minute = 1).await;
    let page = s.get("/", &[]).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_security_headers(&page, "/");
    let html = page.text().await.unwrap();
    assert!(!html.contains("<script>"), "no inline script: {html}");
    assert!(!html.contains("<style"), "no inline style: {html}");
    assert!(!html.contains(" style="), "no style attribute: {html}");

    assert_security_headers(&s.get("/assets/app.js", &[]).await, "app.js");
    assert_security_headers(&s.get("/api/games/nosuchgame", &[]).await, "404");
    assert_security_headers(&s.get("/api/my-games", &[]).await, "my-games");
    assert_security_headers(&s.create(&[]).await, "403");
    let created = s.create_same_origin(&[]).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    assert_security_headers(&created, "201");
    let limited = s.create_same_origin(&[]).await;
    assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_security_headers(&limited, "429");
    s.stop().await;
}

async fn assets_are_compressed_and_revalidated(db: TestDb) {
    let s = TestServer::start(&db).await;
    let plain = s.get("/assets/app.js", &[]).await;
    assert_eq!(plain.status(), StatusCode::OK);
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    let tag = plain.headers()[header::ETAG].clone();
    let plain_len = plain.bytes().await.unwrap().len();
    assert!(plain_len > 1000, "app.js is {plain_len} bytes");

    for (accept, encoding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let r = s
            .get("/assets/app.js", &[("accept-encoding", accept)])
            .await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[header::CONTENT_ENCODING], encoding, "{accept}");
        let vary = r.headers()[header::VARY].to_str().unwrap().to_owned();
        assert!(
            vary.to_ascii_lowercase().contains("accept-encoding"),
            "{vary}"
        );
        assert_eq!(r.headers()[header::ETAG], tag, "one tag per content");
        let len = r.bytes().await.unwrap().len();
        assert!(len * 2 < plain_len, "{encoding}: {len} of {plain_len}");
    }
    // Tiny bodies stay as they are.
    let tiny = s.get("/healthz", &[("accept-encoding", "gzip, br")]).await;
    assert!(tiny.headers().get(header::CONTENT_ENCODING).is_none());
    assert_eq!(tiny.text().await.unwrap(), "ok");

    let tag_str = tag.to_str().unwrap();
    for accept in ["identity", "gzip"] {
        let again = s
            .get(
                "/assets/app.js",
                &[("if-none-match", tag_str), ("accept-encoding", accept)],
            )
            .await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{accept}");
        assert!(again.bytes().await.unwrap().is_empty());
    }
    let stale = s
        .get("/assets/app.js", &[("if-none-match", "W/\"0000\"")])
        .await;
    assert_eq!(stale.status(), StatusCode::OK);

    // The page: its language by cookie, else Accept-Language, one tag each.
    let en = s.get("/", &[]).await;
    let vary = en.headers()[header::VARY].to_str().unwrap().to_owned();
    assert!(
        vary.contains("Accept-Language") && vary.contains("Cookie"),
        "{vary}"
    );
    let en_tag = en.headers()[header::ETAG].clone();
    assert!(en.text().await.unwrap().contains("<html lang=\"en\">"));
    let ru = s.get("/", &[("accept-language", "ru-RU,ru;q=0.9")]).await;
    assert_ne!(ru.headers()[header::ETAG], en_tag);
    assert!(ru.text().await.unwrap().contains("<html lang=\"ru\">"));
    let fr = s
        .get(
            "/game/abcdefgh",
            &[("accept-language", "ru"), ("cookie", "plyyard_lang=fr")],
        )
        .await;
    assert!(fr.text().await.unwrap().contains("<html lang=\"fr\">"));
    let same = s
        .get("/", &[("if-none-match", en_tag.to_str().unwrap())])
        .await;
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    s.stop().await;
}

async fn websockets_still_upgrade_through_the_layers(db: TestDb) {
    use futures_util::StreamExt as _;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

    let s = TestServer::start(&db).await;
    let created = s.create_same_origin(&[]).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let cookie = created
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("player cookie")
        .to_owned();
    let game: Value = created.json().await.unwrap();
    let id = game["id"].as_str().unwrap();

    let url = format!("ws://{}/api/games/{id}/socket", s.addr);
    let mut req = url.as_str().into_client_request().unwrap();
    let h = req.headers_mut();
    h.insert("origin", HeaderValue::from_str(&s.origin()).unwrap());
    h.insert("accept-encoding", HeaderValue::from_static("gzip, br"));
    h.insert("cookie", HeaderValue::from_str(&cookie).unwrap());
    let (mut ws, resp) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert!(resp.headers().get(header::CONTENT_ENCODING).is_none());
    let first = tokio::time::timeout(Duration::from_secs(20), ws.next())
        .await
        .expect("a message")
        .expect("open")
        .unwrap();
    let msg: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(msg["t"], json!("full"), "{msg}");

    // A foreign origin still cannot open it.
    let mut req = url.as_str().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", HeaderValue::from_static("http://evil.example"));
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    s.stop().await;
}

async fn sign_ups_are_limited_per_address(db: TestDb) {
    let s = TestServer::start_with(&db, |c| c.tuning.quotas.signups_per_hour = 2).await;
    let origin = s.origin();
    let signup = |n: u32| {
        s.http
            .post(s.url("/api/account/signup"))
            .header("origin", origin.as_str())
            .json(&json!({"username": format!("limit{n}"), "password": "Tq8#vLm2pZx!w9r"}))
            .send()
    };
    assert_eq!(signup(1).await.unwrap().status(), StatusCode::CREATED);
    assert_eq!(signup(2).await.unwrap().status(), StatusCode::CREATED);
    let third = signup(3).await.unwrap();
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = retry_after(third.headers());
    assert!((60..=1800).contains(&wait), "Retry-After {wait}");
    assert_eq!(error_code(third).await, "rate_limited");
    s.stop().await;
}

plyyard_testkit::both_backends!(
    cross_site_and_originless_posts_are_refused,
    the_public_url_is_the_only_origin,
    a_burst_of_cookieless_creations_from_one_address_is_limited,
    behind_a_trusted_proxy_the_forwarded_address_is_the_key,
    every_response_has_the_security_headers,
    assets_are_compressed_and_revalidated,
    websockets_still_upgrade_through_the_layers,
    sign_ups_are_limited_per_address,
);
