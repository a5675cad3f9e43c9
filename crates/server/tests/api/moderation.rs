//! Moderation over HTTP, on SQLite and PostgreSQL: every `/api/mod/` path
//! and page answers 403 to players; roles given by admins only; reports
//! and their bad input and flood limit; the queue grouped with evidence
//! and closed with an action; each action and its undo (409 twice, 403 on
//! oneself or on an admin by a moderator, nothing half-applied); shadow
//! mute in game chat; closing refuses log-in, ends the session and the
//! tokens, resigns the ongoing game and shows on the profile; the warning
//! read once.

use std::time::Duration;

use crate::support::{PASSWORD, account, call, grant, join_table, open_table, token};
use plyyard_store::Store;
use plyyard_testkit::{Client, Method, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn start(db: &TestDb) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.quotas.reports_per_hour = 3;
    TestServer::start_with(db.url(), tuning).await
}

async fn players_are_refused_everywhere(db: TestDb) {
    let srv = start(&db).await;
    let eve = account(&srv, "Eve").await;
    let anon = srv.client();
    for c in [&eve, &anon] {
        for (m, path) in [
            (Method::GET, "/api/mod/reports"),
            (Method::GET, "/api/mod/log"),
            (Method::GET, "/api/mod/staff"),
            (Method::GET, "/api/mod/user/Eve"),
            (Method::POST, "/api/mod/user/Eve/mute"),
            (Method::DELETE, "/api/mod/user/Eve/mute"),
            (Method::POST, "/api/mod/user/Eve/role"),
            (Method::POST, "/api/mod/reports/Eve/close"),
            (Method::GET, "/api/mod/no/such/path"),
        ] {
            let (status, v) = call(c, m.clone(), path, Some(json!({}))).await;
            assert_eq!(status, 403, "{m} {path}: {v}");
            assert_eq!(v["error"]["code"], "forbidden", "{v}");
        }
        for page in ["/mod", "/mod/log", "/mod/roles", "/mod/user/Eve"] {
            let r = c.get(page).await.unwrap();
            assert_eq!(r.status, 403, "{page}");
            assert!(r.text().contains("<html"), "the web app says why");
        }
    }
    // A moderator reaches them; an unknown moderation path is then a 404.
    grant(&db, "Eve", "moderator").await;
    assert_eq!(eve.get("/mod/log").await.unwrap().status, 200);
    assert_eq!(call(&eve, Method::GET, "/api/mod/log", None).await.0, 200);
    assert_eq!(
        call(&eve, Method::GET, "/api/mod/no/such", None).await.0,
        404
    );
    assert_eq!(eve.get_value("/api/session").await["role"], "moderator");
}

async fn roles_are_given_by_admins_only(db: TestDb) {
    let srv = start(&db).await;
    let ann = account(&srv, "Ann").await;
    let mo = account(&srv, "Moe").await;
    let _pat = account(&srv, "Pat").await;
    grant(&db, "Ann", "admin").await;
    grant(&db, "Moe", "moderator").await;
    let role = |r: &str| Some(json!({ "role": r }));
    assert_eq!(
        call(
            &mo,
            Method::POST,
            "/api/mod/user/Pat/role",
            role("moderator")
        )
        .await
        .0,
        403
    );
    assert_eq!(
        call(
            &ann,
            Method::POST,
            "/api/mod/user/Pat/role",
            role("moderator")
        )
        .await
        .0,
        204
    );
    let (status, v) = call(
        &ann,
        Method::POST,
        "/api/mod/user/Pat/role",
        role("moderator"),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("conflict")),
        "{v}"
    );
    assert_eq!(
        call(&ann, Method::POST, "/api/mod/user/Pat/role", role("king"))
            .await
            .0,
        400
    );
    assert_eq!(
        call(
            &ann,
            Method::POST,
            "/api/mod/user/Nobody/role",
            role("admin")
        )
        .await
        .0,
        404
    );
    assert_eq!(
        call(&ann, Method::POST, "/api/mod/user/Ann/role", role("none"))
            .await
            .0,
        403
    );
    let staff = call(&mo, Method::GET, "/api/mod/staff", None).await.1;
    assert_eq!(staff["you"], "moderator");
    assert_eq!(staff["staff"].as_array().unwrap().len(), 3, "{staff}");
    let log = call(&mo, Method::GET, "/api/mod/log", None).await.1;
    let first = &log["entries"][0];
    assert_eq!(
        (
            first["moderator"].as_str(),
            first["action"].as_str(),
            first["target"].as_str(),
            first["details"].as_str()
        ),
        (Some("Ann"), Some("role"), Some("Pat"), Some("moderator")),
        "{log}"
    );
}

async fn reports_are_checked_limited_and_queued(db: TestDb) {
    let srv = start(&db).await;
    let rex = account(&srv, "Rex").await;
    let sam = account(&srv, "Sam").await;
    let mo = account(&srv, "Moe").await;
    grant(&db, "Moe", "moderator").await;
    let report = |name: &str, reason: &str, text: &str| {
        Some(json!({"username": name, "reason": reason, "text": text}))
    };
    let bad = [
        (report("Rex", "cheat", "me"), 400),
        (report("Nobody", "cheat", "who?"), 404),
        (report("Sam", "spam", "x"), 400),
        (report("Sam", "abuse", "  "), 400),
        (report("Sam", "abuse", &"x".repeat(10 * 1024)), 400),
        (Some(json!({"username": "Sam", "reason": "abuse"})), 400),
    ];
    for (body, want) in bad {
        let (status, v) = call(&rex, Method::POST, "/api/report", body.clone()).await;
        assert_eq!(status, want, "{body:?}: {v}");
        assert!(v["error"]["message"].is_string(), "{v}");
    }
    assert_eq!(
        call(
            &srv.client(),
            Method::POST,
            "/api/report",
            report("Sam", "abuse", "x")
        )
        .await
        .0,
        401
    );
    let (status, v) = call(
        &rex,
        Method::POST,
        "/api/report",
        report("Sam", "abuse", "Insults."),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    assert!(v["id"].is_string());
    call(
        &mo,
        Method::POST,
        "/api/report",
        report("Sam", "cheat", "Too strong."),
    )
    .await;
    // The flood limit: three an hour per account and address.
    call(
        &rex,
        Method::POST,
        "/api/report",
        report("Moe", "other", "x"),
    )
    .await;
    call(
        &rex,
        Method::POST,
        "/api/report",
        report("Moe", "other", "y"),
    )
    .await;
    let (status, _) = call(
        &rex,
        Method::POST,
        "/api/report",
        report("Moe", "other", "z"),
    )
    .await;
    assert_eq!(status, 429);
    // The queue: the most reported first, with the evidence.
    let q = call(&mo, Method::GET, "/api/mod/reports", None).await.1;
    let players = q["players"].as_array().unwrap();
    assert_eq!(players[0]["username"], "Sam", "{q}");
    assert_eq!(players[0]["reports"].as_array().unwrap().len(), 2, "{q}");
    assert!(
        players[0]["evidence"]["chat"].is_array() && players[0]["evidence"]["games"].is_array()
    );
    // Closed with a mute: the reports and the mute are one change.
    let close = Some(json!({"action": "mute", "reason": "insults"}));
    assert_eq!(
        call(
            &sam,
            Method::POST,
            "/api/mod/reports/Sam/close",
            close.clone()
        )
        .await
        .0,
        403
    );
    let (status, v) = call(
        &mo,
        Method::POST,
        "/api/mod/reports/Sam/close",
        close.clone(),
    )
    .await;
    assert_eq!((status, v["closed"].as_u64()), (200, Some(2)), "{v}");
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/reports/Sam/close", close)
            .await
            .0,
        409
    );
    let rec = call(&mo, Method::GET, "/api/mod/user/Sam", None).await.1;
    assert_eq!(rec["marks"][0]["mark"], "mute", "{rec}");
    assert_eq!(rec["reports"][0]["outcome"], "mute: insults", "{rec}");
    let q = call(&mo, Method::GET, "/api/mod/reports", None).await.1;
    assert!(
        q["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["username"] != "Sam"),
        "{q}"
    );
}

async fn each_action_is_taken_once_and_undone_once(db: TestDb) {
    let srv = start(&db).await;
    let ann = account(&srv, "Ann").await;
    let mo = account(&srv, "Moe").await;
    let tim = account(&srv, "Tim").await;
    grant(&db, "Ann", "admin").await;
    grant(&db, "Moe", "moderator").await;
    let why = |r: &str| Some(json!({ "reason": r }));
    for action in ["mute", "engine"] {
        let path = format!("/api/mod/user/Tim/{action}");
        assert_eq!(call(&tim, Method::POST, &path, why("x")).await.0, 403);
        assert_eq!(
            call(&mo, Method::POST, &path, why("x")).await.0,
            204,
            "{action}"
        );
        let (status, v) = call(&mo, Method::POST, &path, why("x")).await;
        assert_eq!(status, 409, "{action}: {v}");
        assert_eq!(
            call(&mo, Method::DELETE, &path, None).await.0,
            204,
            "{action}"
        );
        assert_eq!(
            call(&mo, Method::DELETE, &path, None).await.0,
            409,
            "{action}"
        );
    }
    // Oneself, an admin by a moderator, unknown actions and players, bad reasons.
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Moe/mute", None)
            .await
            .0,
        403
    );
    let (status, v) = call(&mo, Method::POST, "/api/mod/user/Ann/mute", None).await;
    assert_eq!(status, 403, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("admin"),
        "{v}"
    );
    assert_eq!(
        call(&ann, Method::POST, "/api/mod/user/Moe/engine", None)
            .await
            .0,
        204
    );
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Tim/ban", None)
            .await
            .0,
        404
    );
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Nobody/mute", None)
            .await
            .0,
        404
    );
    assert_eq!(
        call(
            &mo,
            Method::POST,
            "/api/mod/user/Tim/mute",
            why(&"x".repeat(1001))
        )
        .await
        .0,
        400
    );
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Tim/warn", None)
            .await
            .0,
        400,
        "a warning needs its text"
    );
    // A warning: shown until read, once.
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Tim/warn", why("Be kind."))
            .await
            .0,
        204
    );
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Tim/warn", why("Again."))
            .await
            .0,
        409
    );
    let w = tim.get_value("/api/account/warning").await;
    assert_eq!(w["warning"]["text"], "Be kind.", "{w}");
    let id = w["warning"]["id"].as_str().unwrap();
    assert_eq!(
        call(
            &mo,
            Method::POST,
            &format!("/api/account/warning/{id}/read"),
            None
        )
        .await
        .0,
        404
    );
    assert_eq!(
        call(
            &tim,
            Method::POST,
            &format!("/api/account/warning/{id}/read"),
            None
        )
        .await
        .0,
        204
    );
    assert!(tim.get_value("/api/account/warning").await["warning"].is_null());
    assert_eq!(
        call(&mo, Method::DELETE, "/api/mod/user/Tim/warn", None)
            .await
            .0,
        409,
        "read already"
    );
    // The log of Tim, newest first; the refused requests left nothing.
    let rec = call(&mo, Method::GET, "/api/mod/user/Tim", None).await.1;
    let actions: Vec<&str> = rec["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["warn", "unengine", "engine", "unmute", "mute"],
        "{rec}"
    );
}

async fn a_muted_player_speaks_to_themselves(db: TestDb) {
    let srv = start(&db).await;
    let (white, black) = (account(&srv, "Wes").await, account(&srv, "Bea").await);
    let mo = account(&srv, "Moe").await;
    grant(&db, "Moe", "moderator").await;
    let body =
        json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true});
    let code = open_table(&white, &body).await;
    let id = join_table(&black, &code).await;
    let mut ws_w = white.game_socket(&id, None).await.unwrap();
    let mut ws_b = black.game_socket(&id, None).await.unwrap();
    for ws in [&mut ws_w, &mut ws_b] {
        recv_until(ws, WAIT, |m| m["t"] == "full").await.unwrap();
    }
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Wes/mute", None)
            .await
            .0,
        204
    );
    send_json(
        &mut ws_w,
        &json!({"t": "chat", "id": 1, "room": "player", "text": "you are bad"}),
    )
    .await
    .unwrap();
    let own = recv_until(&mut ws_w, WAIT, |m| m["t"] == "chat")
        .await
        .unwrap();
    assert_eq!(own["text"], "you are bad", "the author sees it");
    send_json(
        &mut ws_b,
        &json!({"t": "chat", "id": 2, "room": "player", "text": "gl hf"}),
    )
    .await
    .unwrap();
    let heard = recv_until(&mut ws_b, WAIT, |m| m["t"] == "chat")
        .await
        .unwrap();
    assert_eq!(
        heard["text"], "gl hf",
        "the other player never got the muted line"
    );
    // History: the author reads both, the other player one.
    let wt = token(&white, &["board:play"]).await;
    let bt = token(&black, &["board:play"]).await;
    let path = format!("/api/board/game/{id}/chat");
    assert_eq!(lines(&white, &wt, &path).await.as_array().unwrap().len(), 2);
    let theirs = lines(&black, &bt, &path).await;
    assert_eq!(theirs.as_array().unwrap().len(), 1, "{theirs}");
    assert_eq!(theirs[0]["text"], "gl hf");
    let rec = call(&mo, Method::GET, "/api/mod/user/Wes", None).await.1;
    assert_eq!(rec["evidence"]["chat"][0]["shadow"], true, "{rec}");
}

/// `GET path` with token `t`, as JSON.
async fn lines(c: &Client, t: &str, path: &str) -> Value {
    let req = c.builder(Method::GET, path).bearer_auth(t);
    c.send(req).await.unwrap().json::<Value>().unwrap()
}

async fn a_closed_account_is_locked_out_and_its_game_resigned(db: TestDb) {
    let srv = start(&db).await;
    let (cal, dee) = (account(&srv, "Cal").await, account(&srv, "Dee").await);
    let mo = account(&srv, "Moe").await;
    grant(&db, "Moe", "moderator").await;
    let body =
        json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true});
    let code = open_table(&cal, &body).await;
    let id = join_table(&dee, &code).await;
    // Both move once, so that the game can be resigned.
    for n in 0..2u64 {
        for c in [&cal, &dee] {
            let g = c.get_value(&format!("/api/games/{id}")).await;
            if g["you"] != g["turn"] || g["ply"] != n {
                continue;
            }
            let dests = g["dests"].as_object().unwrap();
            let (from, tos) = dests.iter().next().unwrap();
            let uci = format!("{from}{}", tos[0].as_str().unwrap());
            let mut ws = c.game_socket(&id, None).await.unwrap();
            recv_until(&mut ws, WAIT, |m| m["t"] == "full")
                .await
                .unwrap();
            send_json(&mut ws, &json!({"t": "move", "id": n, "uci": uci}))
                .await
                .unwrap();
            let ack = recv_until(&mut ws, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
                .await
                .unwrap();
            assert_eq!(ack["t"], "ack", "{ack}");
        }
    }
    let tok = token(&cal, &["board:play"]).await;
    assert_eq!(
        call(
            &mo,
            Method::POST,
            "/api/mod/user/Cal/close",
            Some(json!({"reason": "abuse"}))
        )
        .await
        .0,
        204
    );
    assert_eq!(
        call(&mo, Method::POST, "/api/mod/user/Cal/close", None)
            .await
            .0,
        409
    );
    // The session is gone, the token too, log-in is refused.
    assert!(cal.get_value("/api/session").await["account"].is_null());
    let r = cal
        .send(cal.builder(Method::GET, "/api/account").bearer_auth(&tok))
        .await
        .unwrap();
    assert_eq!(r.status, 401, "{}", r.text());
    let login = json!({"username": "Cal", "password": PASSWORD});
    let r = srv
        .client()
        .post_json("/api/account/login", &login)
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("account_closed"), "{}", r.text());
    // The game is over, resigned by Cal.
    let mut over = Value::Null;
    for _ in 0..50 {
        over = dee.get_value(&format!("/api/games/{id}")).await;
        if over["status"] == "ended" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(over["status"], "ended", "{over}");
    assert_eq!(over["reason"], "resignation", "{over}");
    assert_eq!(dee.get_value("/api/users/Cal").await["closed"], true);
    // Reopened: log-in works again.
    assert_eq!(
        call(&mo, Method::DELETE, "/api/mod/user/Cal/close", None)
            .await
            .0,
        204
    );
    let r = srv
        .client()
        .post_json("/api/account/login", &login)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        dee.get_value("/api/users/Cal")
            .await
            .get("closed")
            .is_none()
    );
}

/// Rated games between accounts seen on one address (rating farming, or a
/// club behind one address) are marked for the moderators when rated:
/// never refused, never for a game with an account seen elsewhere, never
/// for an unrated one; a deleted opponent shows without a name.
async fn rated_games_between_accounts_of_one_address_are_shown_to_moderators(db: TestDb) {
    use plyyard_game::GameResult;
    use plyyard_rating::Speed;

    let srv = start(&db).await;
    let mo = account(&srv, "Mona").await;
    grant(&db, "Mona", "moderator").await;
    // Ann and Ben sign up from this test's one address; Cat only ever
    // logged in from another.
    account(&srv, "Ann").await;
    account(&srv, "Ben").await;
    let store = Store::open(db.url()).await.unwrap();
    let id = |name: &'static str| {
        let store = store.clone();
        async move { store.account_named(name).await.unwrap().unwrap().player_id }
    };
    let (ann, ben) = (id("Ann").await, id("Ben").await);
    let cat = "p-cat".to_owned();
    store
        .create_account(&cat, "Cat", "unused-hash", 1)
        .await
        .unwrap();
    store.seen_on_address(&cat, "203.0.113.9", 2).await.unwrap();

    for (game, white, black, result) in [
        ("sa1", &ann, &ben, GameResult::WhiteWins),
        ("sa2", &ann, &cat, GameResult::Draw),
        ("sa3", &ben, &ann, GameResult::Aborted),
    ] {
        crate::ratings::game(&store, game, white, black, result).await;
        store
            .apply_rated_result(
                game,
                white,
                black,
                Speed::Blitz,
                result,
                plyyard_store::now_ms(),
            )
            .await
            .unwrap();
    }
    let shared = |name: &'static str| {
        let mo = &mo;
        async move {
            let (status, v) = call(mo, Method::GET, &format!("/api/mod/user/{name}"), None).await;
            assert_eq!(status, 200, "{v}");
            v["evidence"]["sharedAddress"].clone()
        }
    };
    let ann_shared = shared("Ann").await;
    assert_eq!(ann_shared.as_array().map(Vec::len), Some(1), "{ann_shared}");
    assert_eq!(ann_shared[0]["game"], "sa1");
    assert_eq!(ann_shared[0]["opponent"], "Ben");
    assert_eq!(shared("Ben").await[0]["opponent"], "Ann");
    assert_eq!(shared("Cat").await, json!([]));
    // Rated all the same: nothing was refused.
    assert!(store.rating_changes("sa1").await.unwrap().is_some());

    // Ben deletes his account: the mark stays, without his name.
    store
        .delete_account(&ben, plyyard_store::now_ms())
        .await
        .unwrap();
    assert_eq!(shared("Ann").await[0]["opponent"], Value::Null);
    store.close().await;
}

plyyard_testkit::both_backends!(
    players_are_refused_everywhere,
    roles_are_given_by_admins_only,
    reports_are_checked_limited_and_queued,
    each_action_is_taken_once_and_undone_once,
    a_muted_player_speaks_to_themselves,
    a_closed_account_is_locked_out_and_its_game_resigned,
    rated_games_between_accounts_of_one_address_are_shown_to_moderators,
);
