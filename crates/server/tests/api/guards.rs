//! Limits and guards of issue 43 item 6 over a real port-0 server, each
//! test on SQLite and on PostgreSQL: socket floods of every frame kind,
//! NUL characters, imported games' tags, slow request headers, unknown
//! fields, bounded error messages, the analysis stream's origin check,
//! table-code guessing and the review cache (`docs/security-low.md`).

use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use plyyard_server::{Config, Tuning};
use plyyard_testkit::{Client, TestDb, TestServer};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const NEW_GAME: &str = r#"{"level":"beginner","color":"white","variant":"standard"}"#;

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
    TestServer::start_config(config).await
}

async fn start(db: &TestDb) -> TestServer {
    start_with(db, |_| {}).await
}

fn error_code(r: &plyyard_testkit::Response) -> String {
    let v: Value = r
        .json()
        .unwrap_or_else(|_| panic!("not JSON: {}", r.text()));
    v["error"]["code"].as_str().unwrap_or_default().to_owned()
}

/// Sends `frame` `n` times (stopping when the server has closed), then
/// reads to the end: the text replies and the close code.
async fn flood(
    ws: &mut plyyard_testkit::Socket,
    frame: Message,
    n: usize,
) -> (usize, Option<CloseCode>) {
    for _ in 0..n {
        if ws.send(frame.clone()).await.is_err() {
            break;
        }
    }
    let mut replies = 0;
    loop {
        let next = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("the server answers or closes in time");
        match next {
            Some(Ok(Message::Text(_))) => replies += 1,
            Some(Ok(Message::Close(frame))) => return (replies, frame.map(|f| f.code)),
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return (replies, None),
        }
    }
}

async fn socket_floods_of_any_frame_kind_are_cut_short(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let game = c.new_game(&serde_json::from_str(NEW_GAME).unwrap()).await;
    let id = game["id"].as_str().unwrap();
    let floods = [
        Message::Binary(vec![0u8; 16].into()),
        Message::Ping(vec![1u8; 8].into()),
        Message::Pong(vec![1u8; 8].into()),
    ];
    for frame in floods {
        let mut ws = c.game_socket(id, None).await.unwrap();
        let full = plyyard_testkit::recv_json(&mut ws, Duration::from_secs(20))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(full["t"], "full");
        let (replies, code) = flood(&mut ws, frame.clone(), 2000).await;
        // At most one `bad_request` per binary frame within the limit of
        // 20 a second: never a reply per frame of the flood.
        assert!(replies <= 25, "{frame:?}: {replies} replies");
        assert_eq!(code, Some(CloseCode::Policy), "{frame:?}");
    }
    // The lobby's socket counts frames too.
    let mut lobby = c.socket("/api/lobby/socket").await.unwrap();
    let first = plyyard_testkit::recv_json(&mut lobby, Duration::from_secs(20))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first["t"], "lobby");
    let (_, code) = flood(&mut lobby, Message::Ping(vec![1u8; 8].into()), 2000).await;
    assert_eq!(code, Some(CloseCode::Policy));
    // A well-behaved client is not affected.
    let mut ws = c.game_socket(id, None).await.unwrap();
    plyyard_testkit::recv_json(&mut ws, Duration::from_secs(20))
        .await
        .unwrap();
    plyyard_testkit::send_json(&mut ws, &json!({"t":"ping"}))
        .await
        .unwrap();
    let pong =
        plyyard_testkit::recv_until(&mut ws, Duration::from_secs(20), |m| m["t"] == "pong").await;
    assert!(pong.is_ok());
    s.stop().await;
}

async fn error_messages_echo_at_most_100_characters_of_input(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let long = "x".repeat(60_000);
    let paths = [
        format!("/api/games/{long}"),
        format!("/api/games/{long}/pgn"),
        format!("/api/games/{long}/review"),
        format!("/api/tables/{long}"),
        format!("/api/users/{long}"),
        format!("/api/learn/{long}"),
        format!("/api/puzzles/{long}/hint"),
        format!("/api/{long}"),
        format!("/api/analysis/stream?fen={long}"),
        format!("/api/analysis/stream?game={long}&ply=1"),
    ];
    for path in &paths {
        let r = c.get(path).await.unwrap();
        assert!(r.status >= 400, "{}: {}", &path[..20], r.status);
        let body = r.text();
        assert!(
            body.len() < 400,
            "{}: {} bytes: {}",
            &path[..20],
            body.len(),
            &body[..200]
        );
        assert!(!body.contains(&"x".repeat(101)), "{}", &path[..20]);
    }
    // Bodies: a long value where a short one is expected.
    let bodies = [
        (
            "/api/computer-games",
            json!({"level": long, "color": "white"}),
        ),
        ("/api/analysis", json!({"fen": long})),
        (
            "/api/account/login",
            json!({"username": long, "password": "x"}),
        ),
    ];
    for (path, body) in bodies {
        let r = c.post_json(path, &body).await.unwrap();
        assert!(r.status >= 400, "{path}: {}", r.status);
        let text = r.text();
        assert!(text.len() < 400, "{path}: {} bytes", text.len());
        assert!(!text.contains(&"x".repeat(101)), "{path}: {text}");
    }
    s.stop().await;
}

async fn a_slow_request_head_is_cut_off(db: TestDb) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    assert_eq!(Tuning::default().header_timeout, Duration::from_secs(10));
    let s = start_with(&db, |c| c.tuning.header_timeout = Duration::from_secs(1)).await;
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(b"GET /healthz HT").await.unwrap();
    let t0 = std::time::Instant::now();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(8), tcp.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the connection is still open after 8 s");
    let waited = t0.elapsed();
    assert!(
        waited >= Duration::from_millis(900),
        "closed after {waited:?}"
    );
    // A whole request on a fresh connection is served as ever.
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(8), tcp.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&buf);
    assert!(
        text.starts_with("HTTP/1.1 200") && text.ends_with("ok"),
        "{text}"
    );
    s.stop().await;
}

async fn unknown_fields_are_refused_by_every_body(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let bodies = [
        (
            "/api/computer-games",
            json!({"level": "beginner", "extra": 1}),
        ),
        (
            "/api/positions/inspect",
            json!({"fen": start_fen, "extra": 1}),
        ),
        (
            "/api/positions/reply",
            json!({"fen": start_fen, "uci": "e2e4", "extra": 1}),
        ),
        (
            "/api/drills/move",
            json!({"fen": "8/8/8/8/8/2k5/8/K6Q w - - 0 1", "uci": "h1h2", "extra": 1}),
        ),
        (
            "/api/analysis",
            json!({"fen": start_fen, "movetime_ms": 100, "extra": 1}),
        ),
        ("/api/import", json!({"pgn": "1. e4 e5 *", "extra": 1})),
        ("/api/learn/progress", json!({"done": [], "extra": 1})),
        (
            "/api/account/signup",
            json!({"username": "extra1", "password": "Tq8#vLm2pZx!w9r", "extra": 1}),
        ),
        (
            "/api/account/login",
            json!({"username": "extra1", "password": "Tq8#vLm2pZx!w9r", "extra": 1}),
        ),
    ];
    for (path, body) in bodies {
        let r = c.post_json(path, &body).await.unwrap();
        assert_eq!(r.status, 400, "{path}: {}", r.text());
        assert_eq!(error_code(&r), "bad_request", "{path}");
        assert!(r.text().contains("extra"), "{path}: {}", r.text());
    }
    // The same bodies without the extra field are taken.
    let ok = c
        .post_json("/api/positions/inspect", &json!({"fen": start_fen}))
        .await
        .unwrap();
    assert_eq!(ok.status, 200, "{}", ok.text());
    let ok = c
        .post_json("/api/import", &json!({"pgn": "1. e4 e5 *"}))
        .await
        .unwrap();
    assert_eq!(ok.status, 201, "{}", ok.text());
    // The analysis stream's query as well.
    let r = c
        .get("/api/analysis/stream?fen=8/8/8/8/8/2k5/8/K6Q%20w%20-%20-%200%201&extra=1")
        .await
        .unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    s.stop().await;
}

async fn the_analysis_stream_is_refused_cross_site(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let path = "/api/analysis/stream?fen=8/8/8/8/8/2k5/8/K6Q%20w%20-%20-%200%201&movetime_ms=100";
    let own = c.origin();
    let cases: [(&[(&str, &str)], u16); 8] = [
        (&[("origin", "http://evil.example")], 403),
        (&[("sec-fetch-site", "cross-site")], 403),
        (&[("sec-fetch-site", "same-site")], 403),
        (
            &[
                ("sec-fetch-site", "same-origin"),
                ("origin", "http://evil.example"),
            ],
            403,
        ),
        (&[("sec-fetch-site", "same-origin")], 200),
        (&[("sec-fetch-site", "none")], 200),
        (&[("origin", own.as_str())], 200),
        (&[], 200),
    ];
    for (headers, status) in cases {
        let mut req = c.builder(plyyard_testkit::Method::GET, path);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let r = c.send(req).await.unwrap();
        assert_eq!(r.status, status, "{headers:?}: {}", r.text());
        if status == 403 {
            assert_eq!(error_code(&r), "forbidden");
        } else {
            assert!(r.text().contains("event: lines"), "{}", r.text());
        }
    }
    s.stop().await;
}

/// A new client signed up as `name`.
async fn signed_up(s: &TestServer, name: &str) -> Client {
    let c = s.client();
    let r = c
        .post_json(
            "/api/account/signup",
            &json!({"username": name, "password": "Tq8#vLm2pZx!w9r"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    c
}

/// `GET path` as if from `ip` behind the trusted proxy.
async fn get_from(c: &Client, ip: &str, path: &str) -> plyyard_testkit::Response {
    let req = c
        .builder(plyyard_testkit::Method::GET, path)
        .header("x-forwarded-for", ip);
    c.send(req).await.unwrap()
}

async fn table_codes_cannot_be_guessed_quickly(db: TestDb) {
    let s = start_with(&db, |c| {
        c.trust_proxy = true;
        c.tuning.quotas.signups_per_hour = 100;
    })
    .await;
    let host = signed_up(&s, "host1").await;
    let new_table = |public: bool| json!({"minutes": 5, "increment": 3, "public": public});
    let private: Value = host
        .post_json("/api/tables", &new_table(false))
        .await
        .unwrap()
        .json()
        .unwrap();
    let public: Value = host
        .post_json("/api/tables", &new_table(true))
        .await
        .unwrap()
        .json()
        .unwrap();
    let private = private["code"].as_str().unwrap().to_owned();
    let public = public["code"].as_str().unwrap().to_owned();
    let missing = if private == "222222" {
        "333333"
    } else {
        "222222"
    };

    // An anonymous guesser: 30 unknown codes a minute, then 429 for
    // everything that could reveal a private table.
    let guesser = s.client();
    let mut not_found = 0;
    let refused = loop {
        let r = get_from(&guesser, "203.0.113.1", &format!("/api/tables/{missing}")).await;
        match r.status {
            404 => not_found += 1,
            429 => break r,
            other => panic!("{other}: {}", r.text()),
        }
        assert!(not_found <= 30, "no limit after {not_found} guesses");
    };
    assert!(not_found >= 25, "{not_found}");
    let wait: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(error_code(&refused), "rate_limited");
    let hit = get_from(&guesser, "203.0.113.1", &format!("/api/tables/{private}")).await;
    assert_eq!(hit.status, 429, "a hit looks like a miss");
    let bad = get_from(&guesser, "203.0.113.1", "/api/tables/!!").await;
    assert_eq!(bad.status, 429);
    // Public tables are in the lobby anyway; another address has its own quota.
    let open = get_from(&guesser, "203.0.113.1", &format!("/api/tables/{public}")).await;
    assert_eq!(open.status, 200);
    let other = get_from(&guesser, "203.0.113.2", &format!("/api/tables/{missing}")).await;
    assert_eq!(other.status, 404);

    // The host polls its own private table as often as it likes.
    for _ in 0..40 {
        let r = get_from(&host, "203.0.113.1", &format!("/api/tables/{private}")).await;
        assert_eq!(r.status, 200, "{}", r.text());
    }

    // An account guessing (joins) from ever new addresses is limited too.
    let joiner = signed_up(&s, "joiner1").await;
    let mut refused = None;
    for n in 0..40 {
        let req = joiner
            .builder(
                plyyard_testkit::Method::POST,
                &format!("/api/tables/{missing}/join"),
            )
            .header("x-forwarded-for", format!("198.51.100.{n}"));
        let r = joiner.send(req).await.unwrap();
        if r.status == 429 {
            refused = Some(n);
            break;
        }
        assert_eq!(r.status, 404, "{}", r.text());
    }
    let n = refused.expect("joins by code are limited per account");
    assert!((25..=30).contains(&n), "{n}");
    s.stop().await;
}

async fn nul_characters_are_refused_at_the_edge(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let pgn_tag =
        "[Event \"x\"]\n[White \"Nul\u{0}Player\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let pgn_comment = "1. e4 {a\u{0}b} e5 *\n";
    let bodies = [
        (
            "/api/account/signup",
            json!({"username": "nul\u{0}1", "password": "Tq8#vLm2pZx!w9r"}),
        ),
        (
            "/api/account/login",
            json!({"username": "nul\u{0}1", "password": "Tq8#vLm2pZx!w9r"}),
        ),
        ("/api/import", json!({"pgn": pgn_tag})),
        ("/api/import", json!({"pgn": pgn_comment})),
        ("/api/learn/progress", json!({"done": ["a\u{0}"]})),
        ("/api/analysis", json!({"game": "ab\u{0}cdefg", "ply": 0})),
        (
            "/api/positions/inspect",
            json!({"fen": "8/8/8/8/8/2k5/8/K6Q w - - 0 1\u{0}"}),
        ),
    ];
    for (path, body) in bodies {
        let r = c.post_json(path, &body).await.unwrap();
        assert_eq!(r.status, 400, "{path}: {}", r.text());
        assert_eq!(error_code(&r), "bad_request", "{path}");
        assert!(r.text().contains("NUL"), "{path}: {}", r.text());
    }
    let paths = [
        "/api/games/abc%00defg",
        "/api/games/abc%00defg/pgn",
        "/api/games/abc%00defg/review",
        "/api/tables/AB%00CD",
        "/api/users/a%00b",
        "/api/analysis/stream?game=ab%00cdefg&ply=0",
        "/api/my-games?x=%00",
    ];
    for path in paths {
        let r = c.get(path).await.unwrap();
        assert_eq!(r.status, 400, "{path}: {}", r.text());
        assert!(r.text().contains("NUL"), "{path}: {}", r.text());
    }
    // The same requests without the NUL are served as ever.
    let r = c
        .post_json(
            "/api/import",
            &json!({"pgn": pgn_tag.replace('\u{0}', " ")}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let r = c.get("/api/games/abcdefgh").await.unwrap();
    assert_eq!(r.status, 404, "{}", r.text());
    s.stop().await;
}

/// A metric's value from `/metrics`.
async fn metric(c: &Client, name: &str) -> u64 {
    let text = c.get("/metrics").await.unwrap().text();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

async fn an_imported_game_keeps_its_tags_and_names(db: TestDb) {
    let s = start(&db).await;
    let c = s.client();
    let long = "L".repeat(300);
    let pgn = format!(
        "[Event \"Tata Steel Masters\"]\n[Site \"Wijk aan Zee NED\"]\n[Date \"2023.01.15\"]\n\
         [Round \"2\"]\n[White \"Carlsen, Magnus\"]\n[Black \"Giri, Anish\"]\n[Result \"1-0\"]\n\
         [ECO \"C65\"]\n[WhiteElo \"2859\"]\n[BlackElo \"2780\"]\n[Annotator \"{long}\"]\n\
         [TimeControl \"40/7200:3600\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 1-0\n"
    );
    let r = c
        .post_json("/api/import", &json!({ "pgn": pgn }))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let v: Value = r.json().unwrap();
    let id = v["games"][0]["id"].as_str().unwrap().to_owned();

    let exported = c.get(&format!("/api/games/{id}/pgn")).await.unwrap();
    assert_eq!(exported.status, 200);
    let text = exported.text();
    for tag in [
        "[Event \"Tata Steel Masters\"]",
        "[Site \"Wijk aan Zee NED\"]",
        "[Date \"2023.01.15\"]",
        "[Round \"2\"]",
        "[White \"Carlsen, Magnus\"]",
        "[Black \"Giri, Anish\"]",
        "[Result \"1-0\"]",
        "[ECO \"C65\"]",
        "[WhiteElo \"2859\"]",
        "[BlackElo \"2780\"]",
        "[TimeControl \"40/7200:3600\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing from {text}");
    }
    assert!(!text.contains("Anonymous"), "{text}");
    // Long values are cut at 100 characters.
    let annotator = format!("[Annotator \"{}\"]", "L".repeat(100));
    assert!(text.contains(&annotator), "{text}");
    assert!(!text.contains(&"L".repeat(101)), "{text}");
    assert!(text.trim_end().ends_with("1-0"), "{text}");

    let state = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(state["white"]["name"], "Carlsen, Magnus", "{state}");
    assert_eq!(state["white"]["kind"], "pgn");
    assert_eq!(state["black"]["name"], "Giri, Anish");
    s.stop().await;
}

async fn a_stored_review_is_rendered_once_per_language(db: TestDb) {
    let s = start_with(&db, |c| c.tuning.review_nodes = 2_000).await;
    let c = s.client();
    let r = c
        .post_json(
            "/api/import",
            &json!({"pgn": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let v: Value = r.json().unwrap();
    let id = v["games"][0]["id"].as_str().unwrap().to_owned();
    let asked = c
        .post(&format!("/api/games/{id}/review"), "")
        .await
        .unwrap();
    assert!(matches!(asked.status, 200 | 202), "{}", asked.text());
    let path = format!("/api/games/{id}/review?lang=en");
    let t0 = std::time::Instant::now();
    let first = loop {
        let v = c.get_value(&path).await;
        if v["status"] == "done" {
            break v;
        }
        assert!(t0.elapsed() < Duration::from_secs(120), "{v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let renders = metric(&c, "plyyard_review_renders_total").await;
    assert!(renders >= 1);
    for _ in 0..3 {
        let again = c.get_value(&path).await;
        assert_eq!(again["review"], first["review"]);
    }
    let other = s.client();
    let seen = other.get_value(&path).await;
    assert_eq!(seen["review"], first["review"], "the same for every viewer");
    assert_eq!(metric(&c, "plyyard_review_renders_total").await, renders);
    // Another language is rendered once too.
    let fr = format!("/api/games/{id}/review?lang=fr");
    let in_french = c.get_value(&fr).await;
    assert_eq!(in_french["lang"], "fr");
    c.get_value(&fr).await;
    assert_eq!(
        metric(&c, "plyyard_review_renders_total").await,
        renders + 1
    );
    s.stop().await;
}

plyyard_testkit::both_backends!(
    socket_floods_of_any_frame_kind_are_cut_short,
    error_messages_echo_at_most_100_characters_of_input,
    a_slow_request_head_is_cut_off,
    unknown_fields_are_refused_by_every_body,
    the_analysis_stream_is_refused_cross_site,
    table_codes_cannot_be_guessed_quickly,
    nul_characters_are_refused_at_the_edge,
    an_imported_game_keeps_its_tags_and_names,
    a_stored_review_is_rendered_once_per_language,
);
