//! The Lichess-compatible API's credentials over real HTTP: personal
//! tokens (created with a session, used with `Authorization: Bearer` and no
//! `Origin`, tested, revoked), scopes, the OAuth PKCE flow, bot upgrades,
//! users and their online status — on SQLite and PostgreSQL.

use std::time::Duration;

use crate::support::{PASSWORD, Stream, account, join_table, open_table, token};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use plyyard_testkit::{Client, Method, Socket, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

async fn start(db: &TestDb) -> TestServer {
    TestServer::start(db.url(), 0.25).await
}

fn error_text(r: &plyyard_testkit::Response) -> String {
    r.json::<Value>().unwrap()["error"]
        .as_str()
        .unwrap_or_else(|| panic!("not a lichess error: {}", r.text()))
        .to_owned()
}

async fn tokens_are_created_used_tested_and_revoked(db: TestDb) {
    let srv = start(&db).await;
    let alice = account(&srv, "Alice").await;
    let r = alice
        .post_json(
            "/api/account/tokens",
            &json!({"description": "  my bot  ", "scopes": ["bot:play", "challenge:read"]}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let created: Value = r.json().unwrap();
    let tok = created["token"].as_str().unwrap().to_owned();
    assert!(tok.starts_with("lip_") && tok.len() == 28, "{tok}");
    assert_eq!(created["description"], "my bot");
    assert_eq!(created["scopes"], json!(["challenge:read", "bot:play"]));

    // A program: no cookies, no Origin.
    let program = srv.client();
    let r = program
        .with_token(&tok, Method::GET, "/api/account", None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let me: Value = r.json().unwrap();
    assert_eq!(me["id"], "alice");
    assert_eq!(me["username"], "Alice");
    assert!(me.get("title").is_none(), "{me}");
    assert!(me["createdAt"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(me["perfs"]["blitz"]["rating"], 1500);
    assert!(
        r.header("set-cookie").is_none(),
        "a token request sets no cookie"
    );

    // Token test: a raw body, no content type, no Origin, no auth.
    let bad = "lip_nosuchtoken0000000000000";
    let r = program
        .send(
            reqwest::Client::new()
                .post(program.url("/api/token/test"))
                .body(format!("{tok},{bad}")),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let tested: Value = r.json().unwrap();
    assert_eq!(
        tested,
        json!({tok.clone(): {"userId": "alice", "scopes": "challenge:read,bot:play", "expires": null}, bad: null})
    );

    // The owner lists it (never its secret) and revokes it.
    let list = alice.get_value("/api/account/tokens").await;
    let tokens = list["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 1);
    assert!(!list.to_string().contains(&tok), "{list}");
    assert!(tokens[0]["last_used_at"].is_string(), "{list}");
    let id = tokens[0]["id"].as_str().unwrap();
    let r = alice
        .request(Method::DELETE, &format!("/api/account/tokens/{id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap(), json!({"ok": true}));
    let r = program
        .with_token(&tok, Method::GET, "/api/account", None)
        .await
        .unwrap();
    assert_eq!(r.status, 401);
    assert_eq!(error_text(&r), "No such token");
    let r = alice
        .request(Method::DELETE, &format!("/api/account/tokens/{id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 404);
    srv.stop().await;
}

async fn bad_token_requests_are_refused_and_change_nothing(db: TestDb) {
    let srv = start(&db).await;
    let alice = account(&srv, "alice").await;
    for (body, want) in [
        (json!({"description": "x", "scopes": []}), 400),
        (json!({"description": "x", "scopes": ["web:mod"]}), 400),
        (json!({"description": "", "scopes": ["bot:play"]}), 400),
        (
            json!({"description": "x".repeat(201), "scopes": ["bot:play"]}),
            400,
        ),
        (
            json!({"description": "x\u{7}", "scopes": ["bot:play"]}),
            400,
        ),
        // Spoofing: a direction override, a zero-width space.
        (
            json!({"description": "\u{202E}tob ym", "scopes": ["bot:play"]}),
            400,
        ),
        (
            json!({"description": "my\u{200B}bot", "scopes": ["bot:play"]}),
            400,
        ),
        (
            json!({"description": "x", "scopes": ["bot:play"], "admin": true}),
            400,
        ),
        (json!({"scopes": ["bot:play"]}), 400),
    ] {
        let r = alice.post_json("/api/account/tokens", &body).await.unwrap();
        assert_eq!(r.status, want, "{body}: {}", r.text());
        assert!(error_text(&r).len() < 400);
    }
    assert_eq!(
        alice.get_value("/api/account/tokens").await["tokens"],
        json!([])
    );

    // A cookie request from a foreign page is refused before anything.
    let r = alice
        .request_from(
            Some("https://evil.example"),
            Method::POST,
            "/api/account/tokens",
            Some(r#"{"description":"x","scopes":["bot:play"]}"#),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    // Without a session.
    let stranger = srv.client();
    let r = stranger
        .post_json(
            "/api/account/tokens",
            &json!({"description": "x", "scopes": ["bot:play"]}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 401, "{}", r.text());

    // A token can neither mint nor list tokens.
    let tok = token(&alice, &["board:play"]).await;
    let r = stranger
        .with_token(
            &tok,
            Method::POST,
            "/api/account/tokens",
            Some((
                "application/json",
                r#"{"description":"x","scopes":["bot:play"]}"#,
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    let r = stranger
        .with_token(&tok, Method::GET, "/api/account/tokens", None)
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());

    // A missing scope is a 403 naming it; a malformed header a 401.
    let r = stranger
        .with_token(&tok, Method::POST, "/api/bot/account/upgrade", None)
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(error_text(&r), "Missing scope: bot:play");
    let r = stranger
        .send(
            reqwest::Client::new()
                .get(stranger.url("/api/account"))
                .header("authorization", "Bearer lip_a-b"),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 401);
    // A token request ignores the cookies it carries: it is the token's
    // account, and a bad token is refused even with a good session.
    let r = alice
        .with_token("lip_unknown", Method::GET, "/api/account", None)
        .await
        .unwrap();
    assert_eq!(r.status, 401);
    srv.stop().await;
}

async fn only_an_account_without_games_becomes_a_bot(db: TestDb) {
    let srv = start(&db).await;
    let bot = account(&srv, "RoboKnight").await;
    let tok = token(&bot, &["bot:play"]).await;
    let program = srv.client();
    let r = program
        .with_token(&tok, Method::POST, "/api/bot/account/upgrade", None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap(), json!({"ok": true}));
    let me: Value = program
        .with_token(&tok, Method::GET, "/api/account", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(me["title"], "BOT");
    let r = program
        .with_token(&tok, Method::POST, "/api/bot/account/upgrade", None)
        .await
        .unwrap();
    assert_eq!(r.status, 400);
    assert_eq!(
        srv.client().get_value("/api/user/roboknight").await["title"],
        "BOT"
    );

    let player = account(&srv, "Player").await;
    let game = player
        .new_game(&json!({"level": "beginner", "color": "white"}))
        .await;
    assert!(game["id"].is_string());
    let tok = token(&player, &["bot:play"]).await;
    let r = program
        .with_token(&tok, Method::POST, "/api/bot/account/upgrade", None)
        .await
        .unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(error_text(&r).contains("games"));
    let me: Value = program
        .with_token(&tok, Method::GET, "/api/account", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert!(me.get("title").is_none(), "{me}");
    srv.stop().await;
}

fn pkce() -> (String, String) {
    let verifier: String = "Zz9-._~".repeat(8);
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

fn query_of(url: &str) -> Value {
    let url = url::Url::parse(url).unwrap();
    let map: serde_json::Map<String, Value> = url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect();
    Value::Object(map)
}

async fn the_pkce_flow_gives_a_working_token_once(db: TestDb) {
    let srv = start(&db).await;
    let alice = account(&srv, "alice").await;
    let (verifier, challenge) = pkce();
    let redirect = "http://127.0.0.1:9999/callback?app=1";
    let params = json!({
        "response_type": "code",
        "client_id": "example-app",
        "redirect_uri": redirect,
        "code_challenge_method": "S256",
        "code_challenge": challenge,
        "scope": "board:play challenge:read",
        "state": "st4te",
    });
    let query = serde_urlencoded::to_string(
        params
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str().unwrap()))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let described = alice
        .get_value(&format!("/api/oauth/request?{query}"))
        .await;
    assert_eq!(described["scopes"], json!(["challenge:read", "board:play"]));
    assert_eq!(described["redirect_origin"], "http://127.0.0.1:9999");
    assert_eq!(described["insecure"], false);

    let mut denied = params.clone();
    denied["approve"] = json!(false);
    let r = alice
        .post_json("/api/oauth/approve", &denied)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let back = query_of(r.json::<Value>().unwrap()["redirect"].as_str().unwrap());
    assert_eq!(back["error"], "access_denied");
    assert_eq!(back["state"], "st4te");

    let approve = |p: &Value| {
        let mut p = p.clone();
        p["approve"] = json!(true);
        p
    };
    let r = alice
        .post_json("/api/oauth/approve", &approve(&params))
        .await
        .unwrap();
    let to = r.json::<Value>().unwrap()["redirect"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        to.starts_with("http://127.0.0.1:9999/callback?app=1&"),
        "{to}"
    );
    let back = query_of(&to);
    assert_eq!(back["state"], "st4te");
    let code = back["code"].as_str().unwrap().to_owned();
    assert!(code.starts_with("liu_"));

    // The exchange: a form, no cookie, no Origin.
    let app = srv.client();
    let exchange = |code: &str, verifier: &str, redirect: &str| {
        let form = serde_urlencoded::to_string([
            ("grant_type", "authorization_code"),
            ("code", code),
            ("code_verifier", verifier),
            ("redirect_uri", redirect),
            ("client_id", "example-app"),
        ])
        .unwrap();
        reqwest::Client::new()
            .post(app.url("/api/token"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
    };
    let wrong = "a".repeat(43);
    let r = app.send(exchange(&code, &wrong, redirect)).await.unwrap();
    assert_eq!(r.status, 400);
    assert_eq!(r.json::<Value>().unwrap()["error"], "invalid_grant");
    // The code was used up by the failed try.
    let r = app
        .send(exchange(&code, &verifier, redirect))
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().unwrap()["error"], "invalid_grant");

    let r = alice
        .post_json("/api/oauth/approve", &approve(&params))
        .await
        .unwrap();
    let code = query_of(r.json::<Value>().unwrap()["redirect"].as_str().unwrap())["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app
        .send(exchange(&code, &verifier, "http://127.0.0.1:9999/other"))
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().unwrap()["error"], "invalid_grant");

    let r = alice
        .post_json("/api/oauth/approve", &approve(&params))
        .await
        .unwrap();
    let code = query_of(r.json::<Value>().unwrap()["redirect"].as_str().unwrap())["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = app
        .send(exchange(&code, &verifier, redirect))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let granted: Value = r.json().unwrap();
    assert_eq!(granted["token_type"], "Bearer");
    assert_eq!(granted["expires_in"], 31_536_000);
    let access = granted["access_token"].as_str().unwrap().to_owned();
    assert!(access.starts_with("lio_"));
    let me: Value = app
        .with_token(&access, Method::GET, "/api/account", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(me["id"], "alice");
    let r = app
        .with_token(&access, Method::POST, "/api/bot/account/upgrade", None)
        .await
        .unwrap();
    assert_eq!(r.status, 403, "the scopes approved are all it has");
    let r = app
        .with_token(&access, Method::DELETE, "/api/token", None)
        .await
        .unwrap();
    assert_eq!(r.status, 204);
    let r = app
        .with_token(&access, Method::GET, "/api/account", None)
        .await
        .unwrap();
    assert_eq!(r.status, 401);

    // Bad requests: no redirect to a bad URI; the others say why.
    let bad = alice
        .get("/api/oauth/request?response_type=code&client_id=x&redirect_uri=javascript:alert(1)")
        .await
        .unwrap();
    assert_eq!(bad.status, 400);
    let plain = query.replace("S256", "plain");
    let r = alice
        .get(&format!("/api/oauth/request?{plain}"))
        .await
        .unwrap();
    assert_eq!(r.status, 400);
    assert!(error_text(&r).contains("S256"));
    srv.stop().await;
}

async fn users_and_their_status_read_as_lichess_shows_them(db: TestDb) {
    let srv = start(&db).await;
    let _alice = account(&srv, "Alice").await;
    let c = srv.client();
    let user = c.get_value("/api/user/ALICE").await;
    assert_eq!(user["id"], "alice");
    assert_eq!(user["username"], "Alice");
    assert_eq!(c.get("/api/user/nobody").await.unwrap().status, 404);
    let status = c
        .get_value("/api/users/status?ids=alice,nobody,a%20b")
        .await;
    assert_eq!(
        status,
        json!([{"id": "alice", "name": "Alice", "online": false}])
    );
    assert_eq!(c.get("/api/users/status").await.unwrap().status, 400);
    let many = vec!["x"; 101].join(",");
    assert_eq!(
        c.get(&format!("/api/users/status?ids={many}"))
            .await
            .unwrap()
            .status,
        400
    );
    // Names that are our own path segments cannot be taken.
    for name in ["status", "Status"] {
        let r = srv
            .client()
            .post_json(
                "/api/account/signup",
                &json!({"username": name, "password": PASSWORD}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 409, "{name}: {}", r.text());
    }
    let bots = c.get("/api/bot/online").await.unwrap();
    assert_eq!(bots.status, 200);
    assert_eq!(bots.header("content-type"), Some("application/x-ndjson"));
    srv.stop().await;
}

/// A new token of `c`'s account with `scopes`: (its secret, its id).
async fn token_and_id(c: &Client, scopes: &[&str]) -> (String, String) {
    let r = c
        .post_json(
            "/api/account/tokens",
            &json!({"description": "a board app", "scopes": scopes}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let v: Value = r.json().unwrap();
    let text = |k: &str| v[k].as_str().unwrap().to_owned();
    (text("token"), text("id"))
}

/// How long an ended stream or socket may take to close.
const ENDS_WITHIN: Duration = Duration::from_secs(1);

/// Reads `s` to its end, which must come within [`ENDS_WITHIN`].
async fn stream_ends(s: &mut Stream, what: &str) {
    tokio::time::timeout(ENDS_WITHIN, async { while s.line().await.is_some() {} })
        .await
        .unwrap_or_else(|_| panic!("{what} still open"));
}

/// Whether `s` is still open: nothing (or a keep-alive) for a while.
async fn stream_open(s: &mut Stream) -> bool {
    !matches!(
        tokio::time::timeout(Duration::from_millis(1500), s.line()).await,
        Ok(None)
    )
}

/// Reads socket `ws` to its close, which must come within [`ENDS_WITHIN`].
async fn socket_closes(ws: &mut Socket, what: &str) {
    use futures_util::StreamExt;
    let closed = async {
        while let Some(Ok(m)) = ws.next().await {
            if m.is_close() {
                break;
            }
        }
    };
    tokio::time::timeout(ENDS_WITHIN, closed)
        .await
        .unwrap_or_else(|_| panic!("{what} still open"));
}

/// Whether socket `ws` still answers a ping.
async fn socket_open(ws: &mut Socket) -> bool {
    send_json(ws, &json!({"t": "ping"})).await.is_ok()
        && recv_until(ws, Duration::from_secs(5), |m| m["t"] == "pong")
            .await
            .is_ok()
}

/// Issue 58: revoking a token ends at once the streams opened with it (the
/// event stream, a Board game stream), and only those; a password change
/// ends the account's streams and the sockets of its other sessions, not
/// those of the session that changed it; deleting the account ends the
/// rest.
async fn ending_a_credential_ends_its_streams_and_sockets(db: TestDb) {
    let srv = start(&db).await;
    let alice = account(&srv, "Alice").await;
    let bob = account(&srv, "Bob").await;
    let code = open_table(&alice, &json!({"minutes": 5, "increment": 3})).await;
    let game = join_table(&bob, &code).await;
    let scopes = ["board:play", "challenge:read"];
    let (revoked, revoked_id) = token_and_id(&alice, &scopes).await;
    let (kept, _) = token_and_id(&alice, &scopes).await;
    let board = format!("/api/board/game/stream/{game}");
    let mut events = Stream::open(&srv, &revoked, "/api/stream/event").await;
    assert_eq!(events.event().await["type"], "gameStart");
    let mut moves = Stream::open(&srv, &revoked, &board).await;
    assert_eq!(moves.event().await["type"], "gameFull");
    let mut other = Stream::open(&srv, &kept, &board).await;
    assert_eq!(other.event().await["type"], "gameFull");

    let r = alice
        .request(
            Method::DELETE,
            &format!("/api/account/tokens/{revoked_id}"),
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    stream_ends(&mut events, "the revoked token's event stream").await;
    stream_ends(&mut moves, "the revoked token's game stream").await;
    assert!(
        stream_open(&mut other).await,
        "another token's stream ended"
    );

    // Alice in another browser, on the game's page; and in this one.
    let elsewhere = srv.client();
    let r = elsewhere
        .post_json(
            "/api/account/login",
            &json!({"username": "Alice", "password": PASSWORD}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let mut their_socket = elsewhere.game_socket(&game, None).await.unwrap();
    let mut my_socket = alice.game_socket(&game, None).await.unwrap();
    assert!(socket_open(&mut their_socket).await);
    assert!(socket_open(&mut my_socket).await);
    let new_password = "Bishop-c4 eyes f7!";
    let r = alice
        .post_json(
            "/api/account/password",
            &json!({"current": PASSWORD, "new": new_password}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    stream_ends(&mut other, "a token's stream after a password change").await;
    socket_closes(&mut their_socket, "another session's socket").await;
    assert!(
        socket_open(&mut my_socket).await,
        "the session that changed the password keeps its socket"
    );

    // Deleting the account ends everything of it.
    let (last, _) = token_and_id(&alice, &scopes).await;
    let mut events = Stream::open(&srv, &last, "/api/stream/event").await;
    assert_eq!(events.event().await["type"], "gameStart");
    let r = alice
        .post_json("/api/account/delete", &json!({"password": new_password}))
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    stream_ends(&mut events, "a deleted account's event stream").await;
    socket_closes(&mut my_socket, "a deleted account's socket").await;
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    tokens_are_created_used_tested_and_revoked,
    ending_a_credential_ends_its_streams_and_sockets,
    bad_token_requests_are_refused_and_change_nothing,
    only_an_account_without_games_becomes_a_bot,
    the_pkce_flow_gives_a_working_token_once,
    users_and_their_status_read_as_lichess_shows_them,
);

/// The public look-ups and exports are limited per address: each used to
/// answer anyone, as often as asked (one status look-up per name, one
/// account look-up per online account).
#[test]
fn public_reads_are_limited_per_address() {
    let tuning = plyyard_server::Tuning {
        quotas: plyyard_server::security::Quotas {
            api_reads_per_minute: 4,
            ..plyyard_server::security::Quotas::default()
        },
        ..plyyard_testkit::tuning(0.05)
    };
    plyyard_testkit::run_on(plyyard_testkit::Backend::Sqlite, async |db| {
        let s = plyyard_testkit::TestServer::start_with(db.url(), tuning).await;
        let c = s.client();
        for path in ["/api/users/status?ids=nobody", "/api/bot/online"] {
            assert_eq!(c.get(path).await.unwrap().status, 200, "{path}");
        }
        let r = c.post("/api/token/test", "lip_x").await.unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        // An export of up to 100 games is one read (300: three).
        let r = c.get("/api/games/user/nobody?max=50").await.unwrap();
        assert_eq!(r.status, 404);
        let r = c.get("/api/users/status?ids=nobody").await.unwrap();
        assert_eq!(r.status, 429, "{}", r.text());
        assert!(r.headers.contains_key("retry-after"));
        s.stop().await;
    });
}

/// Browser apps on other origins call the API with a token (CORS, as on
/// lichess: `*`, so never with the visitor's cookies); a cookie write from
/// another origin is still refused.
#[test]
fn other_origins_call_the_api_with_a_token_never_with_cookies() {
    plyyard_testkit::run_on(plyyard_testkit::Backend::Sqlite, async |db| {
        let srv = start(&db).await;
        let alice = account(&srv, "Corsa").await;
        let _bob = account(&srv, "Corsb").await;
        let tok = token(&alice, &["challenge:write"]).await;
        let http = reqwest::Client::new();
        let origin = "https://app.example";
        let r = http
            .request(reqwest::Method::OPTIONS, alice.url("/api/challenge/corsb"))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "authorization,content-type",
            )
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "preflight: {}", r.status());
        assert_eq!(r.headers()["access-control-allow-origin"], "*");
        let allowed = r.headers()["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_lowercase();
        assert!(allowed.contains("authorization"), "{allowed}");
        let r = http
            .post(alice.url("/api/challenge/corsb"))
            .header("Origin", origin)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .bearer_auth(&tok)
            .body("rated=false&clock.limit=300&clock.increment=3")
            .send()
            .await
            .unwrap();
        assert_eq!(r.headers()["access-control-allow-origin"], "*");
        assert!(!r.headers().contains_key("access-control-allow-credentials"));
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
        // The same write with Alice's cookies from that origin: refused.
        let r = alice
            .request_from(
                Some(origin),
                Method::POST,
                "/api/challenge/corsb",
                Some(r#"{"rated":false,"clock.limit":300,"clock.increment":3}"#),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 403, "{}", r.text());
        srv.stop().await;
    });
}
