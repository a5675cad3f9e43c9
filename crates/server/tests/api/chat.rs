//! Game chat over real websockets and the Board API: the player and
//! spectator rooms of a table game, who may read and speak where, bad
//! texts, the rate limit, history on connect, computer games without
//! chat, and `POST`/`GET …/chat` with `chatLine` on the game streams — on
//! SQLite and PostgreSQL.

use std::time::Duration;

use crate::support::{account, join_table, open_table, token};
use plyyard_testkit::{Client, Method, Socket, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn start(db: &TestDb, chat_lines_per_10s: u32) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.quotas.chat_lines_per_10s = chat_lines_per_10s;
    TestServer::start_with(db.url(), tuning).await
}

/// `host` opens a casual 5+3 table and `guest` sits: (white, black, game
/// id), each with its name.
async fn table_game(
    host: (Client, &'static str),
    guest: (Client, &'static str),
) -> ((Client, &'static str), (Client, &'static str), String) {
    let body =
        json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true});
    let code = open_table(&host.0, &body).await;
    let id = join_table(&guest.0, &code).await;
    let state = host.0.get_value(&format!("/api/games/{id}")).await;
    if state["you"] == "white" {
        (host, guest, id)
    } else {
        (guest, host, id)
    }
}

/// A socket on game `id`, past its first state; with the chat history it
/// got (`None`: none came before the next message, as in computer games).
async fn ws(c: &Client, id: &str) -> (Socket, Value) {
    let mut s = c.game_socket(id, None).await.unwrap();
    recv_until(&mut s, WAIT, |m| m["t"] == "full")
        .await
        .unwrap();
    send_json(&mut s, &json!({"t": "ping"})).await.unwrap();
    let next = recv_until(&mut s, WAIT, |m| {
        m["t"] == "chat_history" || m["t"] == "pong"
    })
    .await
    .unwrap();
    if next["t"] == "chat_history" {
        recv_until(&mut s, WAIT, |m| m["t"] == "pong")
            .await
            .unwrap();
        (s, next)
    } else {
        (s, Value::Null)
    }
}

/// Says `text` in `room`: the ack or the error.
async fn say(s: &mut Socket, id: u64, room: &str, text: &str) -> Value {
    send_json(
        s,
        &json!({"t": "chat", "id": id, "room": room, "text": text}),
    )
    .await
    .unwrap();
    recv_until(s, WAIT, |m| m["id"] == id).await.unwrap()
}

fn acked(v: &Value) -> bool {
    v["t"] == "ack"
}

/// The next chat line a socket gets.
async fn heard(s: &mut Socket) -> Value {
    recv_until(s, WAIT, |m| m["t"] == "chat").await.unwrap()
}

async fn players_and_spectators_talk_in_their_rooms(db: TestDb) {
    let srv = start(&db, 100).await;
    let ((white, wn), (black, bn), id) = table_game(
        (account(&srv, "Amelie").await, "Amelie"),
        (account(&srv, "Bruno").await, "Bruno"),
    )
    .await;
    let watcher = account(&srv, "Wanda").await;
    let anon = srv.client();
    let (mut w, wh) = ws(&white, &id).await;
    let (mut b, bh) = ws(&black, &id).await;
    let (mut s, sh) = ws(&watcher, &id).await;
    let (mut a, ah) = ws(&anon, &id).await;
    assert_eq!(
        wh,
        json!({"t": "chat_history", "room": "player", "lines": []})
    );
    assert_eq!(bh["room"], "player");
    assert_eq!(
        sh,
        json!({"t": "chat_history", "room": "spectator", "lines": []})
    );
    assert_eq!(
        ah["room"], "spectator",
        "anonymous viewers read the spectator room"
    );

    // Players talk; markup is text, trimmed.
    let r = say(&mut w, 1, "player", "  <b>hi</b> & good luck ").await;
    assert!(acked(&r), "{r}");
    let line = json!({"t": "chat", "room": "player", "user": wn, "text": "<b>hi</b> & good luck"});
    assert_eq!(heard(&mut b).await, line);
    assert_eq!(heard(&mut w).await, line);
    assert!(acked(&say(&mut b, 2, "player", "you too").await));
    assert_eq!(heard(&mut w).await["text"], "you too");
    assert_eq!(heard(&mut b).await["text"], "you too");

    // A spectator talks in the spectator room, which players do not see.
    assert!(acked(&say(&mut s, 3, "spectator", "Nice opening").await));
    let spec = json!({"t": "chat", "room": "spectator", "user": "Wanda", "text": "Nice opening"});
    assert_eq!(heard(&mut s).await, spec);
    assert_eq!(heard(&mut a).await, spec);
    assert!(acked(&say(&mut w, 4, "player", "thanks").await));
    assert_eq!(
        heard(&mut b).await["text"],
        "thanks",
        "no spectator line in between"
    );
    assert_eq!(heard(&mut w).await["text"], "thanks");

    // Who may not speak where, and bad texts: refused, nothing said.
    let r = say(&mut s, 5, "player", "let me in").await;
    assert_eq!(r["code"], "forbidden", "{r}");
    let r = say(&mut a, 6, "spectator", "anonymous").await;
    assert_eq!(r["code"], "not_logged_in", "{r}");
    let long = "x".repeat(141);
    for (i, bad) in ["", "   ", "two\nlines", "bell\u{7}", long.as_str()]
        .into_iter()
        .enumerate()
    {
        let r = say(&mut w, 10 + i as u64, "player", bad).await;
        assert_eq!(r["code"], "bad_request", "{bad:?}: {r}");
    }
    assert!(acked(&say(&mut w, 20, "player", &"é".repeat(140)).await));
    send_json(
        &mut w,
        &json!({"t": "chat", "id": 21, "room": "lobby", "text": "hi"}),
    )
    .await
    .unwrap();
    let r = recv_until(&mut w, WAIT, |m| m["id"] == 21).await.unwrap();
    assert_eq!(r["code"], "bad_request", "{r}");
    send_json(&mut w, &json!({"t": "chat", "id": 22, "room": "player"}))
        .await
        .unwrap();
    let r = recv_until(&mut w, WAIT, |m| m["id"] == 22).await.unwrap();
    assert_eq!(r["code"], "bad_request", "{r}");

    // History on connect: each viewer gets the room it reads, in order.
    let (_b2, h) = ws(&black, &id).await;
    let texts: Vec<&str> = h["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(h["room"], "player");
    assert_eq!(texts.len(), 4, "{h}");
    assert_eq!(&texts[..3], ["<b>hi</b> & good luck", "you too", "thanks"]);
    assert_eq!(h["lines"][1]["user"], bn);
    let (_s2, h) = ws(&watcher, &id).await;
    assert_eq!(
        h,
        json!({"t": "chat_history", "room": "spectator", "lines": [
            {"room": "spectator", "user": "Wanda", "text": "Nice opening"}
        ]})
    );

    // Computer games have no chat.
    let game = white
        .new_game(&json!({"level": "beginner", "color": "white"}))
        .await;
    let cid = game["id"].as_str().unwrap();
    let (mut c, ch) = ws(&white, cid).await;
    assert_eq!(ch, Value::Null, "no history at a computer game");
    let r = say(&mut c, 30, "player", "hello computer").await;
    assert_eq!(r["code"], "bad_request", "{r}");
}

async fn chat_is_rate_limited(db: TestDb) {
    let srv = start(&db, 3).await;
    let ((white, _), (_black, _), id) = table_game(
        (account(&srv, "Ana").await, "Ana"),
        (account(&srv, "Bob").await, "Bob"),
    )
    .await;
    let (mut w, _) = ws(&white, &id).await;
    for i in 0..3 {
        assert!(acked(&say(&mut w, i, "player", "quick").await));
    }
    let r = say(&mut w, 3, "player", "one too many").await;
    assert_eq!(r["code"], "rate_limited", "{r}");
    let (_b, h) = ws(&white, &id).await;
    assert_eq!(h["lines"].as_array().unwrap().len(), 3, "{h}");
}

/// `METHOD path` with `token` and `body`: (status, JSON).
async fn call(
    c: &Client,
    token: &str,
    method: Method,
    path: &str,
    body: Option<(&str, &str)>,
) -> (u16, Value) {
    let r = c.with_token(token, method, path, body).await.unwrap();
    let v: Value = r
        .json()
        .unwrap_or_else(|_| panic!("{path}: not JSON: {}", r.text()));
    (r.status, v)
}

/// The next non-empty line of an NDJSON stream.
async fn next_line(resp: &mut reqwest::Response, buf: &mut Vec<u8>) -> Value {
    loop {
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            let rest = buf.split_off(i + 1);
            let line = std::mem::replace(buf, rest);
            let line = String::from_utf8(line).unwrap();
            if line.trim().is_empty() {
                continue;
            }
            return serde_json::from_str(&line).unwrap();
        }
        let chunk = tokio::time::timeout(WAIT, resp.chunk())
            .await
            .expect("a line in time")
            .expect("the stream reads")
            .expect("the stream is open");
        buf.extend_from_slice(&chunk);
    }
}

/// The next line of a game stream that is neither `opponentGone` nor a
/// keep-alive.
async fn next_event(resp: &mut reqwest::Response, buf: &mut Vec<u8>) -> Value {
    loop {
        let v = next_line(resp, buf).await;
        if v["type"] != "opponentGone" {
            return v;
        }
    }
}

async fn chat_through_the_board_api(db: TestDb) {
    let srv = start(&db, 100).await;
    let ((white, wn), (black, bn), id) = table_game(
        (account(&srv, "Anouk").await, "Anouk"),
        (account(&srv, "Boris").await, "Boris"),
    )
    .await;
    let wt = token(&white, &["board:play"]).await;
    let bt = token(&black, &["board:play"]).await;
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    let mut bs = http
        .get(srv.client().url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&bt)
        .send()
        .await
        .unwrap();
    assert_eq!(bs.status(), 200);
    let mut buf = Vec::new();
    assert_eq!(next_event(&mut bs, &mut buf).await["type"], "gameFull");
    let (mut wsock, _) = ws(&white, &id).await;

    let path = format!("/api/board/game/{id}/chat");
    let form = "room=player&text=Hello+%3Ci%3Ethere%3C%2Fi%3E";
    let r = call(
        &white,
        &wt,
        Method::POST,
        &path,
        Some(("application/x-www-form-urlencoded", form)),
    )
    .await;
    assert_eq!(r, (200, json!({"ok": true})));
    assert_eq!(
        next_event(&mut bs, &mut buf).await,
        json!({"type": "chatLine", "username": wn, "text": "Hello <i>there</i>", "room": "player"})
    );
    assert_eq!(
        heard(&mut wsock).await["text"],
        "Hello <i>there</i>",
        "the web app hears it"
    );

    // The spectator room is open to players through the API (lichess bots
    // greet spectators), but the game stream carries the player room only.
    let r = call(
        &black,
        &bt,
        Method::POST,
        &path,
        Some((
            "application/json",
            r#"{"room":"spectator","text":"hi all"}"#,
        )),
    )
    .await;
    assert_eq!(r, (200, json!({"ok": true})));
    let r = call(
        &black,
        &bt,
        Method::POST,
        &path,
        Some(("application/json", r#"{"room":"player","text":"gl"}"#)),
    )
    .await;
    assert_eq!(r.0, 200, "{}", r.1);
    let got = next_event(&mut bs, &mut buf).await;
    assert_eq!(
        (got["text"].as_str(), got["username"].as_str()),
        (Some("gl"), Some(bn))
    );

    let bot_path = format!("/api/bot/game/{id}/chat");
    let (status, list) = call(&black, &bt, Method::GET, &path, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        list,
        json!([{"text": "Hello <i>there</i>", "user": wn}, {"text": "gl", "user": bn}])
    );

    // Refusals, each a JSON error and nothing said.
    let long = format!("room=player&text={}", "x".repeat(141));
    for (body, want) in [
        (("application/x-www-form-urlencoded", long.as_str()), 400),
        (
            ("application/x-www-form-urlencoded", "room=lobby&text=hi"),
            400,
        ),
        (("application/x-www-form-urlencoded", "text=hi"), 400),
        (("application/json", r#"{"room":"player"}"#), 400),
        (("application/json", r#"{"room":"player","#), 400),
    ] {
        let (status, v) = call(&white, &wt, Method::POST, &path, Some(body)).await;
        assert_eq!(status, want, "{body:?}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (status, _) = call(
        &white,
        &wt,
        Method::POST,
        &bot_path,
        Some(("application/json", r#"{"room":"player","text":"hi"}"#)),
    )
    .await;
    assert_eq!(status, 403, "a board token on the bot API");
    let eve = account(&srv, "Evelyn").await;
    let et = token(&eve, &["board:play"]).await;
    let (status, v) = call(
        &eve,
        &et,
        Method::POST,
        &path,
        Some(("application/json", r#"{"room":"player","text":"psst"}"#)),
    )
    .await;
    assert_eq!(status, 403, "{v}");
    let (status, _) = call(&eve, &et, Method::GET, &path, None).await;
    assert_eq!(status, 404, "someone else's player room");
    let (status, _) = call(
        &eve,
        &et,
        Method::GET,
        "/api/board/game/zzzzzzzz/chat",
        None,
    )
    .await;
    assert_eq!(status, 404);
    let (_, list) = call(&white, &wt, Method::GET, &path, None).await;
    assert_eq!(list.as_array().unwrap().len(), 2, "{list}");
}

plyyard_testkit::both_backends!(
    players_and_spectators_talk_in_their_rooms,
    chat_is_rate_limited,
    chat_through_the_board_api,
);
