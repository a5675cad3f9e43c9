//! Accounts over real HTTP: sign-up, log-in, sessions, password change,
//! deletion, profiles, and the limits that guard them — every test once on
//! SQLite and once on PostgreSQL.

use std::time::Duration;

use plyyard_server::security::Quotas;
use plyyard_testkit::{Client, Method, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);
const PASSWORD: &str = "Knight-f3 takes e5!";

async fn start(db: &TestDb) -> TestServer {
    TestServer::start(db.url(), 0.25).await
}

async fn signup(c: &Client, name: &str, password: &str) -> plyyard_testkit::Response {
    c.post_json(
        "/api/account/signup",
        &json!({"username": name, "password": password}),
    )
    .await
    .unwrap()
}

async fn login(c: &Client, name: &str, password: &str) -> plyyard_testkit::Response {
    c.post_json(
        "/api/account/login",
        &json!({"username": name, "password": password}),
    )
    .await
    .unwrap()
}

async fn me(c: &Client) -> (u16, Value) {
    let r = c.get("/api/account").await.unwrap();
    (r.status, r.json().unwrap())
}

/// `/api/session`: always 200, the account or `null`; it must agree with `/api/account`.
async fn who(c: &Client) -> Value {
    let r = c.get("/api/session").await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let account = r.json::<Value>().unwrap()["account"].clone();
    let (status, body) = me(c).await;
    match status {
        200 => {
            assert_eq!(account["username"], body["username"]);
            assert_eq!(account["created_at"], body["created_at"]);
        }
        _ => assert_eq!(account, Value::Null),
    }
    account
}

fn error(r: &plyyard_testkit::Response) -> Value {
    r.json::<Value>().unwrap()["error"].clone()
}

/// `POST /api/computer-games` for a Beginner game as White, whatever the answer.
async fn post_game(c: &Client) -> plyyard_testkit::Response {
    c.post_json(
        "/api/computer-games",
        &json!({"level": "beginner", "color": "white"}),
    )
    .await
    .unwrap()
}

async fn new_game(c: &Client) -> String {
    let game = c
        .new_game(&json!({"level": "beginner", "color": "white"}))
        .await;
    game["id"].as_str().unwrap().to_owned()
}

async fn sign_up_log_in_and_out(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    assert_eq!(me(&c).await.0, 401);
    // `/api/account` is lichess's: `{"error":"…"}` without a token or session.
    assert!(error(&c.get("/api/account").await.unwrap()).is_string());
    assert_eq!(who(&c).await, Value::Null);

    let r = signup(&c, "Alice_1", PASSWORD).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap(), json!({"username": "Alice_1"}));
    let set: Vec<_> = r.header_all("set-cookie");
    let session = set
        .iter()
        .find(|c| c.starts_with("plyyard_session="))
        .expect("a session cookie");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(part), "{session}");
    }
    assert!(!session.contains("Secure"), "plain http: {session}");
    let (status, body) = me(&c).await;
    assert_eq!(status, 200);
    assert_eq!(body["username"], "Alice_1");
    assert!(body["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(who(&c).await["username"], "Alice_1");

    // The name is taken in any case; bad names and weak passwords say why.
    let other = srv.client();
    let r = signup(&other, "aLiCe_1", PASSWORD).await;
    assert_eq!(
        (r.status, error(&r)["code"].clone()),
        (409, json!("username_taken"))
    );
    for (name, reason) in [
        ("ab", "length"),
        ("bad name", "characters"),
        ("_alice", "start"),
    ] {
        let r = signup(&other, name, PASSWORD).await;
        assert_eq!(r.status, 422, "{name}");
        assert_eq!(error(&r)["code"], "invalid_username");
        assert_eq!(error(&r)["reason"], reason, "{name}");
    }
    for (password, reason) in [
        ("password", "common"),
        ("short", "too_short"),
        ("Bob_the_2nd", "same_as_username"),
    ] {
        let r = signup(&other, "Bob_the_2nd", password).await;
        assert_eq!(r.status, 422, "{password}");
        assert_eq!(error(&r)["code"], "weak_password");
        assert_eq!(error(&r)["reason"], reason, "{password}");
    }
    assert_eq!(me(&other).await.0, 401);

    // Wrong password and unknown user: one answer.
    let wrong = login(&other, "alice_1", "Knight-f3 takes e6!").await;
    let unknown = login(&other, "nobody_here", PASSWORD).await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.text(), unknown.text());
    assert_eq!(error(&wrong)["code"], "bad_credentials");

    // Log-in issues a new session id, even to a client that sends one.
    let before = c.cookie("plyyard_session").unwrap();
    let r = login(&c, "ALICE_1", PASSWORD).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap()["username"], "Alice_1");
    let after = c.cookie("plyyard_session").unwrap();
    assert_ne!(before, after);
    let stale = srv.client();
    stale.set_cookie("plyyard_session", &before);
    assert_eq!(me(&stale).await.0, 401, "the replaced session ended");
    // A session id chosen by the client is never adopted.
    let fixed = srv.client();
    fixed.set_cookie("plyyard_session", "00112233445566778899aabbccddeeff");
    assert_eq!(login(&fixed, "alice_1", PASSWORD).await.status, 200);
    assert_ne!(
        fixed.cookie("plyyard_session").unwrap(),
        "00112233445566778899aabbccddeeff"
    );

    // Log-out ends the session on the server: the old cookie is dead.
    let r = c.post_empty("/api/account/logout").await.unwrap();
    assert_eq!(r.status, 204);
    assert_eq!(me(&c).await.0, 401);
    assert_eq!(who(&c).await, Value::Null);
    let replay = srv.client();
    replay.set_cookie("plyyard_session", &after);
    assert_eq!(me(&replay).await.0, 401);
    assert_eq!(me(&fixed).await.0, 200, "other sessions live on");
    srv.stop().await;
}

async fn a_password_change_ends_the_other_sessions(db: TestDb) {
    let srv = start(&db).await;
    let (a, b) = (srv.client(), srv.client());
    assert_eq!(signup(&a, "carol", PASSWORD).await.status, 201);
    assert_eq!(login(&b, "carol", PASSWORD).await.status, 200);
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    let r = a
        .post_json(
            "/api/account/password",
            &change("nope nope nope", "Bishop-c4 eyes f7!"),
        )
        .await
        .unwrap();
    assert_eq!(
        (r.status, error(&r)["code"].clone()),
        (403, json!("wrong_password"))
    );
    let r = a
        .post_json("/api/account/password", &change(PASSWORD, "password1"))
        .await
        .unwrap();
    assert_eq!(error(&r)["code"], "weak_password");
    assert_eq!(me(&b).await.0, 200, "refused changes end nothing");
    let r = a
        .post_json(
            "/api/account/password",
            &change(PASSWORD, "Bishop-c4 eyes f7!"),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(me(&a).await.0, 200);
    assert_eq!(me(&b).await.0, 401);
    assert_eq!(login(&srv.client(), "carol", PASSWORD).await.status, 401);
    assert_eq!(
        login(&srv.client(), "carol", "Bishop-c4 eyes f7!")
            .await
            .status,
        200
    );
    let anon = srv.client();
    let r = anon
        .post_json("/api/account/password", &change(PASSWORD, "Rook-a1 to d1!"))
        .await
        .unwrap();
    assert_eq!(r.status, 401);
    srv.stop().await;
}

async fn cross_site_posts_are_refused(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let body = json!({"username": "mallory", "password": PASSWORD}).to_string();
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let r = c
            .request_from(origin, Method::POST, "/api/account/signup", Some(&body))
            .await
            .unwrap();
        assert_eq!(r.status, 403, "{origin:?}: {}", r.text());
    }
    assert_eq!(
        login(&c, "mallory", PASSWORD).await.status,
        401,
        "no account made"
    );
    assert_eq!(signup(&c, "mallory", PASSWORD).await.status, 201);
    let r = c
        .request_from(
            Some("http://evil.example"),
            Method::POST,
            "/api/account/logout",
            None,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(me(&c).await.0, 200, "a cross-site log-out changes nothing");
    srv.stop().await;
}

async fn failed_log_ins_back_off(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    assert_eq!(signup(&c, "dave", PASSWORD).await.status, 201);
    let attacker = srv.client();
    let mut limited = None;
    for i in 0..30 {
        let r = login(&attacker, "dave", &format!("guess number {i}")).await;
        if r.status == 429 {
            limited = Some(r);
            break;
        }
        assert_eq!(r.status, 401);
    }
    let r = limited.expect("429 after repeated failures");
    assert_eq!(error(&r)["code"], "rate_limited");
    let secs: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(secs >= 1, "{secs}");
    // Even the right password waits now: the limit is per username too.
    assert_eq!(login(&srv.client(), "dave", PASSWORD).await.status, 429);
    srv.stop().await;
}

/// Twenty wrong passwords for one name at once: only the free failures
/// are checked, the others wait (the probe found all twenty checked).
async fn racing_wrong_passwords_are_backed_off(db: TestDb) {
    let srv = start(&db).await;
    assert_eq!(signup(&srv.client(), "ivan", PASSWORD).await.status, 201);
    let tries: Vec<_> = (0..20)
        .map(|i| {
            let c = srv.client();
            tokio::spawn(async move { login(&c, "ivan", &format!("wrong guess {i}")).await.status })
        })
        .collect();
    let mut checked = 0;
    for t in tries {
        match t.await.unwrap() {
            401 => checked += 1,
            429 => {}
            other => panic!("{other}"),
        }
    }
    assert_eq!(checked, Quotas::default().login_free_failures);
    srv.stop().await;
}

async fn cookieless_game_bursts_are_limited_by_address(db: TestDb) {
    let tuning = plyyard_testkit::tuning(0.25);
    let burst = Quotas::default().games_per_minute;
    let srv = TestServer::start_with(db.url(), tuning).await;
    let mut created = 0;
    let mut refused = None;
    for _ in 0..300 {
        let r = post_game(&srv.client()).await;
        match r.status {
            201 => created += 1,
            429 => {
                refused = Some(r);
                break;
            }
            other => panic!("{other}: {}", r.text()),
        }
    }
    let r = refused.expect("a burst of cookieless creations is refused");
    assert!(r.header("retry-after").is_some());
    assert!(created <= burst, "{created} > {burst}");
    srv.stop().await;
}

/// Switching accounts does not dodge the address's game limit: three
/// accounts logged in from one address share its quota (they had one each
/// before), and so does a cookieless client there.
async fn accounts_on_one_address_share_its_game_limit(db: TestDb) {
    let mut tuning = plyyard_testkit::tuning(0.25);
    tuning.quotas.games_per_minute = 4;
    let srv = TestServer::start_with(db.url(), tuning).await;
    let clients: Vec<Client> = (0..3).map(|_| srv.client()).collect();
    for (n, c) in clients.iter().enumerate() {
        assert_eq!(signup(c, &format!("share{n}"), PASSWORD).await.status, 201);
    }
    let mut created = 0;
    let mut refused = 0;
    for round in 0..4 {
        for c in &clients {
            let r = post_game(c).await;
            match r.status {
                201 => created += 1,
                429 => {
                    refused += 1;
                    assert!(r.header("retry-after").is_some());
                    assert_eq!(error(&r)["code"], "rate_limited");
                }
                other => panic!("round {round}: {other}: {}", r.text()),
            }
        }
    }
    assert_eq!(
        created, 4,
        "three accounts on one address got {created} games"
    );
    assert_eq!(refused, 8);
    let anonymous = srv
        .client()
        .post_json(
            "/api/computer-games",
            &json!({"level": "beginner", "color": "white"}),
        )
        .await
        .unwrap();
    assert_eq!(anonymous.status, 429, "{}", anonymous.text());
    srv.stop().await;
}

async fn anonymous_games_follow_the_player_to_the_account(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let id = new_game(&c).await;
    assert_eq!(signup(&c, "erin", PASSWORD).await.status, 201);
    assert!(
        c.cookie("plyyard_player").is_none(),
        "the anonymous cookie is dropped"
    );
    let mine: Value = c.get_value("/api/my-games").await;
    assert_eq!(mine[0]["id"], id.as_str());
    let game: Value = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["you"], "white");
    assert_eq!(
        game["white"],
        json!({"kind": "user", "name": "erin", "level": null})
    );
    assert_eq!(game["black"]["kind"], "computer");
    // The game is playable from the account.
    let mut ws = c.game_socket(&id, None).await.unwrap();
    send_json(&mut ws, &json!({"t": "move", "id": 1, "uci": "e2e4"}))
        .await
        .unwrap();
    let ack = recv_until(&mut ws, WAIT, |m| m["id"] == 1).await.unwrap();
    assert_eq!(ack["t"], "ack", "{ack}");

    // Log out: a fresh anonymous player sees none of it.
    assert_eq!(
        c.post_empty("/api/account/logout").await.unwrap().status,
        204
    );
    let mine: Value = c.get_value("/api/my-games").await;
    assert_eq!(mine, json!([]));
    let game: Value = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["you"], Value::Null);

    // Games played anonymously in another browser join at log-in.
    let other = srv.client();
    let second = new_game(&other).await;
    assert_eq!(login(&other, "erin", PASSWORD).await.status, 200);
    let mine: Value = other.get_value("/api/my-games").await;
    let ids: Vec<_> = mine
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].clone())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&json!(second)) && ids.contains(&json!(id)));
    srv.stop().await;
}

/// The password's strength is scored (tens of milliseconds of CPU) only
/// after the rate limits let the request through: a sign-up over the limit
/// is refused before its password is looked at, and a password change
/// checks the current password (itself limited) first.
async fn passwords_are_scored_after_the_limits(db: TestDb) {
    let mut tuning = plyyard_testkit::tuning(0.25);
    tuning.quotas.signups_per_hour = 2;
    let srv = TestServer::start_with(db.url(), tuning).await;
    let c = srv.client();
    assert_eq!(signup(&c, "weakling", "password1").await.status, 422);
    assert_eq!(signup(&c, "frank", PASSWORD).await.status, 201);
    let r = signup(&srv.client(), "grace", "password1").await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(error(&r)["code"], "rate_limited");
    // The form of a password is checked first, for nothing.
    let r = signup(&srv.client(), "heidi", "short").await;
    assert_eq!(error(&r)["reason"], "too_short");
    let r = c
        .post_json(
            "/api/account/password",
            &json!({"current": "not my password", "new": "password1"}),
        )
        .await
        .unwrap();
    assert_eq!(error(&r)["code"], "wrong_password", "{}", r.text());
    let long = format!("{}{}", "Knight-f3 takes e5! ".repeat(12), "x".repeat(16));
    let r = c
        .post_json(
            "/api/account/password",
            &json!({"current": PASSWORD, "new": long}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(login(&srv.client(), "frank", &long).await.status, 200);
    srv.stop().await;
}

/// The probe that found "database is locked": 40 correct log-ins and
/// sign-ups at once, each taking over an anonymous player's game and Learn
/// progress, while two clients keep writing Learn progress. Every one
/// succeeds; none answers 500.
async fn log_ins_during_other_writes_never_fail(db: TestDb) {
    let mut tuning = plyyard_testkit::tuning(0.25);
    tuning.quotas.signups_per_hour = 1_000;
    tuning.quotas.logins_per_minute = 1_000;
    tuning.quotas.games_per_minute = 1_000;
    tuning.quotas.progress_per_minute = 0;
    let srv = TestServer::start_with(db.url(), tuning).await;
    for i in 0..20 {
        assert_eq!(
            signup(&srv.client(), &format!("busy{i}"), PASSWORD)
                .await
                .status,
            201
        );
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let (c, stop) = (srv.client(), std::sync::Arc::clone(&stop));
            tokio::spawn(async move {
                assert_eq!(c.get("/api/learn/progress").await.unwrap().status, 200);
                let mut i = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let key = format!("drill:m1-{:02}", (i + w * 7) % 40 + 1);
                    let r = c
                        .post_json("/api/learn/progress", &json!({"done": [key]}))
                        .await
                        .unwrap();
                    assert_eq!(r.status, 200, "{}", r.text());
                    i += 1;
                }
                i
            })
        })
        .collect();
    let attempts: Vec<_> = (0..40)
        .map(|i| {
            let c = srv.client();
            tokio::spawn(async move {
                new_game(&c).await;
                let r = c
                    .post_json("/api/learn/progress", &json!({"done": ["page:board"]}))
                    .await
                    .unwrap();
                assert_eq!(r.status, 200, "{}", r.text());
                let r = if i < 20 {
                    login(&c, &format!("busy{i}"), PASSWORD).await
                } else {
                    signup(&c, &format!("fresh{i}"), PASSWORD).await
                };
                (r.status, r.text())
            })
        })
        .collect();
    for a in attempts {
        let (status, text) = a.await.unwrap();
        assert!(matches!(status, 200 | 201), "{status}: {text}");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for w in writers {
        assert!(w.await.unwrap() > 0);
    }
    srv.stop().await;
}

async fn another_players_game_is_refused(db: TestDb) {
    let srv = start(&db).await;
    let (a, b) = (srv.client(), srv.client());
    assert_eq!(signup(&a, "frank", PASSWORD).await.status, 201);
    assert_eq!(signup(&b, "grace", PASSWORD).await.status, 201);
    let id = new_game(&a).await;
    let game: Value = b.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["you"], Value::Null);
    let mut ws = b.game_socket(&id, None).await.unwrap();
    for (n, msg) in [
        json!({"t": "move", "id": 1, "uci": "e2e4"}),
        json!({"t": "resign", "id": 2}),
        json!({"t": "undo", "id": 3}),
    ]
    .into_iter()
    .enumerate()
    {
        send_json(&mut ws, &msg).await.unwrap();
        let n = n as u64 + 1;
        let reply = recv_until(&mut ws, WAIT, |m| m["id"] == n).await.unwrap();
        assert_eq!(
            (reply["t"].clone(), reply["code"].clone()),
            (json!("error"), json!("forbidden")),
            "{reply}"
        );
    }
    let game: Value = a.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(game["ply"], 0);
    assert_eq!(game["status"], "ongoing");
    srv.stop().await;
}

async fn profiles_list_games_and_deleted_players_stay_in_them(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    assert_eq!(signup(&c, "Heidi", PASSWORD).await.status, 201);
    let mut ids = Vec::new();
    for _ in 0..21 {
        ids.push(new_game(&c).await);
    }
    let mut ws = c.game_socket(&ids[0], None).await.unwrap();
    send_json(&mut ws, &json!({"t": "resign", "id": 1}))
        .await
        .unwrap();
    recv_until(&mut ws, WAIT, |m| m["id"] == 1).await.unwrap();

    let viewer = srv.client();
    let profile: Value = viewer.get_value("/api/users/heidi").await;
    assert_eq!(profile["username"], "Heidi");
    let page1: Value = viewer.get_value("/api/users/HEIDI/games").await;
    assert_eq!(page1["games"].as_array().unwrap().len(), 20);
    assert_eq!(
        (page1["page"].clone(), page1["more"].clone()),
        (json!(1), json!(true))
    );
    let page2: Value = viewer.get_value("/api/users/heidi/games?page=2").await;
    let last = &page2["games"][0];
    assert_eq!(page2["more"], false);
    assert_eq!(
        last["id"],
        ids[0].as_str(),
        "newest first: the first game is last"
    );
    assert_eq!(last["result"], "0-1");
    assert_eq!(last["reason"], "resignation");
    assert_eq!(last["white"]["name"], "Heidi");
    for bad in ["?page=0", "?page=x", "?page=99999999"] {
        let r = viewer
            .get(&format!("/api/users/heidi/games{bad}"))
            .await
            .unwrap();
        assert_eq!(r.status, 400, "{bad}");
    }
    assert_eq!(
        viewer.get("/api/users/nobody_here").await.unwrap().status,
        404
    );
    assert_eq!(viewer.get("/api/users/..%2F").await.unwrap().status, 404);

    let pgn = viewer
        .get(&format!("/api/games/{}/pgn", ids[0]))
        .await
        .unwrap()
        .text();
    assert!(pgn.contains("[White \"Heidi\"]"), "{pgn}");

    // Deleting needs the password; the games stay, shown as a deleted player.
    let r = c
        .post_json("/api/account/delete", &json!({"password": "not it at all"}))
        .await
        .unwrap();
    assert_eq!(r.status, 403);
    let r = c
        .post_json("/api/account/delete", &json!({"password": PASSWORD}))
        .await
        .unwrap();
    assert_eq!(r.status, 204);
    assert_eq!(me(&c).await.0, 401);
    assert_eq!(viewer.get("/api/users/heidi").await.unwrap().status, 404);
    assert_eq!(login(&viewer, "heidi", PASSWORD).await.status, 401);
    let r = signup(&viewer, "heidi", PASSWORD).await;
    assert_eq!(r.status, 409, "the name stays reserved");
    let game: Value = viewer.get_value(&format!("/api/games/{}", ids[1])).await;
    assert_eq!(game["status"], "ongoing");
    let pgn = viewer
        .get(&format!("/api/games/{}/pgn", ids[5]))
        .await
        .unwrap()
        .text();
    assert!(pgn.contains("[White \"Deleted player\"]"), "{pgn}");
    assert_eq!(
        game["white"],
        json!({"kind": "deleted", "name": null, "level": null})
    );
    srv.stop().await;
}

async fn sessions_survive_a_restart(db: TestDb) {
    let srv = start(&db).await;
    let mut c = srv.client();
    assert_eq!(signup(&c, "ivan", PASSWORD).await.status, 201);
    srv.stop().await;
    let srv = start(&db).await;
    c.set_addr(srv.addr);
    assert_eq!(me(&c).await.1["username"], "ivan");
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    sign_up_log_in_and_out,
    a_password_change_ends_the_other_sessions,
    cross_site_posts_are_refused,
    failed_log_ins_back_off,
    racing_wrong_passwords_are_backed_off,
    cookieless_game_bursts_are_limited_by_address,
    accounts_on_one_address_share_its_game_limit,
    anonymous_games_follow_the_player_to_the_account,
    log_ins_during_other_writes_never_fail,
    passwords_are_scored_after_the_limits,
    another_players_game_is_refused,
    profiles_list_games_and_deleted_players_stay_in_them,
    sessions_survive_a_restart,
);
