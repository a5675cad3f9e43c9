//! The server over real HTTP and websockets: a server on a port-0 listener,
//! driven by the testkit client, every test once on SQLite and once on
//! PostgreSQL.

use std::time::Duration;

use plyyard_server::Tuning;
use plyyard_testkit::{Client, Socket, TestDb, TestServer, recv_json, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn new_game(c: &Client, body: Value) -> Value {
    c.new_game(&body).await
}

async fn state(c: &Client, id: &str) -> Value {
    let r = c.get(&format!("/api/games/{id}")).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json().unwrap()
}

async fn socket(c: &Client, id: &str, v: Option<u64>) -> Socket {
    c.game_socket(id, v).await.unwrap()
}

fn is(t: &'static str) -> impl Fn(&Value) -> bool {
    move |m| m["t"] == t
}

/// Sends a command and waits for its ack or error, returning it.
async fn command(ws: &mut Socket, msg: Value) -> Value {
    let id = msg["id"].clone();
    send_json(ws, &msg).await.unwrap();
    recv_until(ws, WAIT, |m| {
        (m["t"] == "ack" || m["t"] == "error") && m["id"] == id
    })
    .await
    .unwrap()
}

/// Waits for the event that brings the game to `ply` plies.
async fn until_ply(ws: &mut Socket, ply: u64) -> Value {
    recv_until(ws, WAIT, |m| m["t"] == "event" && m["game"]["ply"] == ply)
        .await
        .unwrap()
}

async fn metric(c: &Client, name: &str) -> u64 {
    let m = c.get("/metrics").await.unwrap().text();
    m.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .unwrap()
        .parse()
        .unwrap()
}

async fn games_live(c: &Client) -> u64 {
    metric(c, "plyyard_games_live").await
}

async fn play_a_game_against_the_computer(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let g = new_game(
        &c,
        json!({"level":"beginner","color":"white","variant":"standard"}),
    )
    .await;
    assert!(c.cookie("plyyard_player").is_some(), "{c:?}");
    assert_eq!(g["you"], "white");
    assert_eq!(g["v"], 0);
    assert_eq!(g["thinking"], false);
    assert_eq!(g["dests"]["e2"], json!(["e3", "e4"]));
    let id = g["id"].as_str().unwrap().to_owned();

    let mut ws = socket(&c, &id, Some(0)).await;
    let sent = std::time::Instant::now();
    let ack = command(&mut ws, json!({"t":"move","id":1,"uci":"e2e4"})).await;
    assert_eq!(ack, json!({"t":"ack","id":1,"v":1}));
    let reply = until_ply(&mut ws, 2).await;
    // The reply is paced: never sooner than the floor (scaled like the budgets).
    assert!(sent.elapsed() >= plyyard_engine_time::pool::MIN_REPLY.mul_f64(0.25));
    assert_eq!(reply["v"], 2);
    assert_eq!(reply["kind"], "move");
    // Events are the same text for every socket: no viewer, no move list
    // (the client keeps both).
    assert_eq!(reply["game"]["you"], Value::Null);
    assert!(reply["game"].get("moves").is_none(), "{reply}");
    assert_eq!(
        reply["move"]["san"].as_str().map(str::is_empty),
        Some(false)
    );
    assert_eq!(reply["game"]["thinking"], false);
    assert_eq!(reply["game"]["turn"], "white");
    let computer_uci = reply["move"]["uci"].as_str().unwrap().to_owned();

    // The stored state agrees with the events.
    let s = state(&c, &id).await;
    assert_eq!(s["v"], 2);
    assert_eq!(s["moves"][0], json!({"uci":"e2e4","san":"e4"}));
    assert_eq!(s["moves"][1]["uci"], computer_uci.as_str());
    assert_eq!(s["last_move"][0], &computer_uci[..2]);

    // Illegal moves are refused and change nothing.
    for (n, bad) in ["e2e4", "e4e6", "a1a8", "zz", "e7e8q"]
        .into_iter()
        .enumerate()
    {
        let err = command(&mut ws, json!({"t":"move","id":10 + n,"uci":bad})).await;
        assert_eq!(err["t"], "error", "{bad}");
        assert_eq!(err["code"], "illegal_move", "{bad}: {err}");
    }
    assert_eq!(state(&c, &id).await, s);

    // The PGN has the moves.
    let pgn = c.get(&format!("/api/games/{id}/pgn")).await.unwrap();
    assert_eq!(pgn.status, 200);
    assert!(
        pgn.header("content-type")
            .unwrap()
            .starts_with("application/x-chess-pgn")
    );
    assert_eq!(
        pgn.header("content-disposition").unwrap(),
        format!("attachment; filename=\"plyyard-{id}.pgn\"")
    );
    let text = pgn.text();
    assert!(text.contains("[White \"Anonymous\"]"), "{text}");
    assert!(
        text.contains("[Black \"Ply Yard computer (beginner)\"]"),
        "{text}"
    );
    assert!(text.contains("1. e4 "), "{text}");
    assert!(text.trim_end().ends_with('*'), "{text}");

    // Metrics count the moves.
    let m = c.get("/metrics").await.unwrap().text();
    assert!(m.contains("plyyard_moves_total 2\n"), "{m}");
    assert!(m.contains("plyyard_sockets_open 1\n"), "{m}");
    srv.stop().await;
}

async fn out_of_turn_and_undo_while_thinking(db: TestDb) {
    // Expert searches for its whole budget (here 3 × 2 s), so the next
    // messages surely arrive while it thinks.
    let srv = TestServer::start(db.url(), 3.0).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"expert","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, None).await;
    let full = recv_json(&mut ws, WAIT).await.unwrap().unwrap();
    assert_eq!(full["t"], "full");
    assert_eq!(full["v"], 0);

    assert_eq!(
        command(&mut ws, json!({"t":"move","id":1,"uci":"d2d4"})).await["t"],
        "ack"
    );
    let err = command(&mut ws, json!({"t":"move","id":2,"uci":"e2e4"})).await;
    assert_eq!(err["code"], "not_your_turn");
    let err = command(&mut ws, json!({"t":"move","id":3,"uci":"d7d5"})).await;
    assert_eq!(err["code"], "not_your_turn");

    let s = state(&c, &id).await;
    assert_eq!(s["thinking"], true);
    assert_eq!(s["ply"], 1);

    // Undo while the computer thinks: only our move goes, the search stops.
    let ack = command(&mut ws, json!({"t":"undo","id":4})).await;
    assert_eq!(ack, json!({"t":"ack","id":4,"v":2}));
    let s = state(&c, &id).await;
    assert_eq!(s["ply"], 0);
    assert_eq!(s["thinking"], false);
    assert_eq!(s["fen"], s["initial_fen"]);
    // The stop flag ends the search long before its 6 s budget.
    let t0 = tokio::time::Instant::now();
    while metric(&c, "plyyard_engine_running").await != 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(3),
            "the search was not stopped"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = state(&c, &id).await;
    assert_eq!(s["ply"], 0, "a cancelled search must not play");
    assert_eq!(s["v"], 2);

    let err = command(&mut ws, json!({"t":"undo","id":5})).await;
    assert_eq!(err["code"], "nothing_to_undo");
    srv.stop().await;
}

async fn undo_takes_back_the_move_and_the_reply(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    // As Black, the computer opens.
    let g = new_game(&c, json!({"level":"easy","color":"black"})).await;
    assert_eq!(g["you"], "black");
    assert_eq!(g["thinking"], true);
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    let first = until_ply(&mut ws, 1).await;
    assert_eq!(first["v"], 1);
    let after_first = state(&c, &id).await;

    // Nothing of ours to take back yet.
    assert_eq!(
        command(&mut ws, json!({"t":"undo","id":1})).await["code"],
        "nothing_to_undo"
    );

    // Play a legal reply from the dests we were given.
    let (from, tos) = after_first["dests"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    let uci = format!("{from}{}", tos[0].as_str().unwrap());
    assert_eq!(
        command(&mut ws, json!({"t":"move","id":2,"uci":uci})).await["t"],
        "ack"
    );
    until_ply(&mut ws, 3).await;

    let ack = command(&mut ws, json!({"t":"undo","id":3})).await;
    assert_eq!(ack["t"], "ack");
    let ev = recv_until(&mut ws, WAIT, |m| m["t"] == "event" && m["kind"] == "undo")
        .await
        .unwrap();
    assert_eq!(ev["game"]["ply"], 1);
    let s = state(&c, &id).await;
    assert_eq!(s["fen"], after_first["fen"]);
    assert_eq!(s["moves"], after_first["moves"]);
    assert_eq!(s["v"].as_u64().unwrap(), ack["v"].as_u64().unwrap());
    srv.stop().await;
}

async fn resign_ends_the_game(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"normal","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    assert_eq!(
        command(&mut ws, json!({"t":"resign","id":1})).await,
        json!({"t":"ack","id":1,"v":1})
    );
    let ev = recv_until(&mut ws, WAIT, is("event")).await.unwrap();
    assert_eq!(ev["kind"], "end");
    assert_eq!(ev["game"]["status"], "ended");
    assert_eq!(ev["game"]["result"], "0-1");
    assert_eq!(ev["game"]["reason"], "resignation");
    assert_eq!(ev["game"]["dests"], json!({}));
    for (n, msg) in [
        json!({"t":"move","id":2,"uci":"e2e4"}),
        json!({"t":"resign","id":3}),
        json!({"t":"undo","id":4}),
    ]
    .into_iter()
    .enumerate()
    {
        let err = command(&mut ws, msg).await;
        assert_eq!(err["code"], "game_over", "message {n}: {err}");
    }
    let pgn = c.get(&format!("/api/games/{id}/pgn")).await.unwrap().text();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    let mine: Value = c.get("/api/my-games").await.unwrap().json().unwrap();
    assert_eq!(mine[0]["id"], id.as_str());
    assert_eq!(mine[0]["reason"], "resignation");
    assert_eq!(mine[0]["you"], "white");
    assert_eq!(mine[0]["opponent"]["kind"], "computer");
    assert_eq!(mine[0]["opponent"]["level"], mine[0]["level"]);
    srv.stop().await;
}

async fn strangers_can_watch_but_not_play(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let owner = srv.client();
    let g = new_game(&owner, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();

    let stranger = srv.client();
    let s = state(&stranger, &id).await;
    assert_eq!(s["you"], Value::Null);
    let mut ws = socket(&stranger, &id, None).await;
    assert_eq!(
        recv_json(&mut ws, WAIT).await.unwrap().unwrap()["t"],
        "full"
    );
    for (n, msg) in [
        json!({"t":"move","id":1,"uci":"e2e4"}),
        json!({"t":"undo","id":2}),
        json!({"t":"resign","id":3}),
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(
            command(&mut ws, msg).await["code"],
            "forbidden",
            "message {n}"
        );
    }
    let mine: Value = stranger.get("/api/my-games").await.unwrap().json().unwrap();
    assert_eq!(mine, json!([]));
    assert_eq!(state(&owner, &id).await["v"], 0);

    // A forged cookie is a stranger too.
    let forger = srv.client();
    let real = owner.cookie("plyyard_player").unwrap();
    let last = if real.ends_with('x') { 'y' } else { 'x' };
    forger.set_cookie(
        "plyyard_player",
        &format!("{}{last}", &real[..real.len() - 1]),
    );
    assert_eq!(state(&forger, &id).await["you"], Value::Null);

    // The spectator sees the owner's moves live.
    let mut ows = socket(&owner, &id, Some(0)).await;
    assert_eq!(
        command(&mut ows, json!({"t":"move","id":1,"uci":"e2e4"})).await["t"],
        "ack"
    );
    let seen = until_ply(&mut ws, 1).await;
    assert_eq!(seen["game"]["you"], Value::Null);
    srv.stop().await;
}

async fn reconnect_with_a_version_gets_the_missed_events(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let mut c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    command(&mut ws, json!({"t":"move","id":1,"uci":"g1f3"})).await;
    until_ply(&mut ws, 2).await;
    command(&mut ws, json!({"t":"move","id":2,"uci":"g2g3"})).await;
    until_ply(&mut ws, 4).await;
    drop(ws);

    // Missed events are replayed in order.
    let mut ws = socket(&c, &id, Some(2)).await;
    let a = recv_json(&mut ws, WAIT).await.unwrap().unwrap();
    let b = recv_json(&mut ws, WAIT).await.unwrap().unwrap();
    assert_eq!((a["t"].as_str(), a["v"].as_u64()), (Some("event"), Some(3)));
    assert_eq!(a["move"]["uci"], "g2g3");
    assert_eq!((b["t"].as_str(), b["v"].as_u64()), (Some("event"), Some(4)));

    // Up to date: nothing but the answer to a ping.
    let mut ws2 = socket(&c, &id, Some(4)).await;
    send_json(&mut ws2, &json!({"t":"ping"})).await.unwrap();
    assert_eq!(
        recv_json(&mut ws2, WAIT).await.unwrap().unwrap(),
        json!({"t":"pong"})
    );

    // A version from the future gets the full state.
    let mut ws3 = socket(&c, &id, Some(99)).await;
    let full = recv_json(&mut ws3, WAIT).await.unwrap().unwrap();
    assert_eq!(
        (full["t"].as_str(), full["v"].as_u64()),
        (Some("full"), Some(4))
    );
    assert_eq!(full["game"]["ply"], 4);

    // `sync` on an open socket replays too.
    send_json(&mut ws2, &json!({"t":"sync","v":3}))
        .await
        .unwrap();
    let e = recv_json(&mut ws2, WAIT).await.unwrap().unwrap();
    assert_eq!((e["t"].as_str(), e["v"].as_u64()), (Some("event"), Some(4)));

    // After a restart the replay buffer is gone: an old version gets `full`,
    // the latest one nothing; the cookie (secret kept in the database) and
    // the game survive.
    drop((ws, ws2, ws3));
    srv.stop().await;
    let srv = TestServer::start(db.url(), 0.25).await;
    c.set_addr(srv.addr);
    let s = state(&c, &id).await;
    assert_eq!(s["you"], "white");
    assert_eq!(s["v"], 4);
    assert_eq!(s["moves"][2]["uci"], "g2g3");
    let mut ws = socket(&c, &id, Some(2)).await;
    let full = recv_json(&mut ws, WAIT).await.unwrap().unwrap();
    assert_eq!(
        (full["t"].as_str(), full["v"].as_u64()),
        (Some("full"), Some(4))
    );
    // And play goes on.
    command(&mut ws, json!({"t":"move","id":3,"uci":"f1g2"})).await;
    let ev = until_ply(&mut ws, 6).await;
    assert_eq!(ev["v"], 6);
    srv.stop().await;
}

async fn bad_socket_input_gets_errors_and_never_changes_the_game(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let before = state(&c, &id).await;
    let mut ws = socket(&c, &id, Some(0)).await;

    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    for text in [
        "{not json",
        "[]",
        "42",
        r#"{"t":"teleport","id":9}"#,
        r#"{"t":"move","id":8}"#,
    ] {
        ws.send(Message::Text(text.into())).await.unwrap();
        let err = recv_json(&mut ws, WAIT).await.unwrap().unwrap();
        assert_eq!(err["t"], "error", "{text}");
        assert_eq!(err["code"], "bad_request", "{text}");
    }
    ws.send(Message::Binary(vec![1u8, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(
        recv_json(&mut ws, WAIT).await.unwrap().unwrap()["code"],
        "bad_request"
    );
    // Still usable.
    send_json(&mut ws, &json!({"t":"ping"})).await.unwrap();
    assert_eq!(
        recv_json(&mut ws, WAIT).await.unwrap().unwrap()["t"],
        "pong"
    );

    // An oversized frame closes the socket.
    let big = json!({"t":"move","id":1,"uci":"e2e4","pad":"x".repeat(8000)});
    let _ = ws.send(Message::Text(big.to_string().into())).await;
    let mut closed = false;
    for _ in 0..3 {
        match recv_json(&mut ws, WAIT).await {
            Ok(None) | Err(_) => {
                closed = true;
                break;
            }
            Ok(Some(m)) => assert_ne!(m["t"], "ack", "an oversized move must not be played"),
        }
    }
    assert!(closed, "the socket must close after an oversized frame");

    // A flood gets rate_limited errors, then a close.
    let mut ws = socket(&c, &id, Some(0)).await;
    for n in 0..200 {
        if ws
            .send(Message::Text(json!({"t":"ping","id":n}).to_string().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut limited = 0;
    let mut pongs = 0;
    loop {
        match recv_json(&mut ws, WAIT).await {
            Ok(Some(m)) if m["code"] == "rate_limited" => limited += 1,
            Ok(Some(m)) if m["t"] == "pong" => pongs += 1,
            Ok(Some(m)) => panic!("unexpected {m}"),
            Ok(None) | Err(_) => break,
        }
    }
    // 20 pass at once; a slow server may refill a few before the close.
    assert!((1..=40).contains(&pongs), "pongs {pongs}");
    assert!(limited >= 1, "limited {limited}");

    // The server is fine and the game unchanged.
    assert_eq!(state(&c, &id).await, before);
    assert_eq!(c.get("/healthz").await.unwrap().text(), "ok");
    srv.stop().await;
}

async fn foreign_origins_and_unknown_games_are_refused(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/socket");
    let err = c
        .socket_from(&path, Some("http://evil.example"))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(403), "{err}");
    // Same origin and no origin (non-browser clients) are accepted.
    assert!(c.socket(&path).await.is_ok());
    assert!(c.socket_from(&path, None).await.is_ok());

    let err = c.socket("/api/games/zzzzzzzz/socket").await.unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
    let r = c.get("/api/games/zzzzzzzz").await.unwrap();
    assert_eq!(r.status, 404);
    let body: Value = r.json().unwrap();
    assert_eq!(body["error"]["code"], "not_found");
    assert_eq!(c.get("/api/games/..%2F..%2Fetc").await.unwrap().status, 404);
    assert_eq!(c.get("/api/nothing-here").await.unwrap().status, 404);
    // A plain GET of the socket path, or a bad version, is a JSON error.
    let r = c.get(&path).await.unwrap();
    assert_eq!(r.status, 400);
    assert_eq!(r.json::<Value>().unwrap()["error"]["code"], "bad_request");
    let err = c.socket(&format!("{path}?v=-3")).await.unwrap_err();
    assert_eq!(err.status(), Some(400), "{err}");
    srv.stop().await;
}

async fn game_requests_are_validated(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    for body in [
        "not json",
        r#"{"level":"grandmaster"}"#,
        r#"{"color":"white"}"#,
        r#"{"level":"easy","color":"purple"}"#,
        r#"{"level":"easy","variant":"chess960","position":960}"#,
        r#"{"level":"easy","variant":"standard","position":3}"#,
        r#"{"level":"easy","surprise":true}"#,
        r#"{"level":"easy","clock":{"minutes":0.1,"increment":0}}"#,
        r#"{"level":"easy","clock":{"minutes":5,"increment":181}}"#,
        r#"{"level":"easy","clock":{"minutes":200,"increment":0}}"#,
        r#"{"level":"easy","clock":{"minutes":5}}"#,
        r#"{"level":"easy","clock":"5+3"}"#,
    ] {
        let r = c.post("/api/computer-games", body).await.unwrap();
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        let e: Value = r.json().unwrap();
        assert_eq!(e["error"]["code"], "bad_request", "{body}");
    }
    let big = format!(r#"{{"level":"easy","pad":"{}"}}"#, "x".repeat(100_000));
    assert_eq!(
        c.post("/api/computer-games", &big).await.unwrap().status,
        413
    );

    // A clock: the state carries it, at no table, never rated.
    let g = new_game(
        &c,
        json!({"level":"easy","color":"white","clock":{"minutes":0.5,"increment":1}}),
    )
    .await;
    assert_eq!(g["kind"], "computer");
    assert_eq!(g["table"], Value::Null);
    assert_eq!(g["rated"], false);
    assert_eq!(g["speed"], "bullet");
    assert_eq!(g["clock"]["initial_ms"], 30_000);
    assert_eq!(g["clock"]["increment_ms"], 1_000);
    assert_eq!(g["clock"]["running"], Value::Null);
    let plain = new_game(&c, json!({"level":"easy","color":"white"})).await;
    assert_eq!(plain.get("clock"), None, "no clock unless asked: {plain}");

    let g = new_game(
        &c,
        json!({"level":"hard","color":"white","variant":"chess960","position":0}),
    )
    .await;
    assert_eq!(g["variant"], "chess960");
    assert_eq!(g["position"], 0);
    let fen = g["initial_fen"].as_str().unwrap();
    assert!(
        fen.starts_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w "),
        "{fen}"
    );
    // Chess960 castling is offered king-to-rook only.
    assert!(g["dests"].get("g1").is_none());
    let g = new_game(
        &c,
        json!({"level":"expert","color":"random","variant":"chess960"}),
    )
    .await;
    let n = g["position"].as_u64().unwrap();
    assert!(n < 960);
    assert!(g["you"] == "white" || g["you"] == "black");
    srv.stop().await;
}

async fn games_can_start_from_a_fen_and_promotion_needs_a_piece(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let mut c = srv.client();
    // Each refusal names why, as a code the browser translates.
    for (fen, reason) in [
        ("garbage", "syntax"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "empty_board"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "missing_king"),
        ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "opposite_check"),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "mated"),
        ("7k/8/6QK/8/8/8/8/8 b - - 0 1", "stalemate"),
        ("k7/8/8/8/8/8/8/K7 w - - 0 1", "insufficient_material"),
    ] {
        let body = json!({"level":"easy","color":"white","fen":fen}).to_string();
        let r = c.post("/api/computer-games", &body).await.unwrap();
        assert_eq!(r.status, 400, "{reason}: {}", r.text());
        let v: Value = r.json().unwrap();
        assert_eq!(v["error"]["reason"], reason, "{fen}: {v}");
    }
    let body = json!({"level":"easy","variant":"chess960","position":3,"fen":"8/P6k/8/8/8/8/8/K7 w - - 0 1"});
    assert_eq!(
        c.post("/api/computer-games", &body.to_string())
            .await
            .unwrap()
            .status,
        400
    );

    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let g = new_game(&c, json!({"level":"easy","color":"white","fen":fen})).await;
    assert_eq!(g["initial_fen"], fen);
    assert_eq!(g["dests"]["a7"], json!(["a8"]));
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    let err = command(&mut ws, json!({"t":"move","id":1,"uci":"a7a8"})).await;
    assert_eq!(err["code"], "illegal_move", "the piece must be chosen");
    let ack = command(&mut ws, json!({"t":"move","id":2,"uci":"a7a8q"})).await;
    assert_eq!(ack["t"], "ack");
    until_ply(&mut ws, 2).await;
    let s = state(&c, &id).await;
    assert_eq!(s["moves"][0], json!({"uci":"a7a8q","san":"a8=Q"}));
    let pgn = c.get(&format!("/api/games/{id}/pgn")).await.unwrap().text();
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("1. a8=Q "), "{pgn}");

    // The game reloads from its FEN after a restart.
    drop(ws);
    srv.stop().await;
    let srv = TestServer::start(db.url(), 0.25).await;
    c.set_addr(srv.addr);
    let back = state(&c, &id).await;
    assert_eq!(back["initial_fen"], fen);
    assert_eq!(back["fen"], s["fen"]);
    srv.stop().await;
}

async fn draws_are_claimed_under_fide_rules(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let fen = "k7/8/8/8/8/8/1R6/K7 w - - 99 80";
    let g = new_game(
        &c,
        json!({"level":"easy","color":"white","rules":"fide","fen":fen}),
    )
    .await;
    assert_eq!(g["rules"], "fide");
    assert_eq!(g["claimable"], json!([]));
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    let err = command(&mut ws, json!({"t":"claim","id":1,"reason":"fifty_moves"})).await;
    assert_eq!(err["code"], "cannot_claim", "{err}");
    let err = command(
        &mut ws,
        json!({"t":"claim","id":2,"reason":"checkmate","uci":"b2b3"}),
    )
    .await;
    assert_eq!(err["code"], "cannot_claim", "{err}");
    let err = command(
        &mut ws,
        json!({"t":"claim","id":3,"reason":"fifty_moves","uci":"b2b9"}),
    )
    .await;
    assert_eq!(err["code"], "illegal_move", "{err}");
    assert_eq!(state(&c, &id).await["v"], 0);
    // Announcing the move that makes the hundredth half-move.
    let ack = command(
        &mut ws,
        json!({"t":"claim","id":4,"reason":"fifty_moves","uci":"b2b3"}),
    )
    .await;
    assert_eq!(ack, json!({"t":"ack","id":4,"v":1}));
    let s = state(&c, &id).await;
    assert_eq!(s["status"], "ended");
    assert_eq!(s["result"], "1/2-1/2");
    assert_eq!(s["reason"], "fifty_moves");
    assert_eq!(s["moves"][0]["uci"], "b2b3");

    // Under Ply Yard rules the same move ends the game by itself, and
    // claims are refused.
    let g = new_game(&c, json!({"level":"easy","color":"white","fen":fen})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&c, &id, Some(0)).await;
    let err = command(
        &mut ws,
        json!({"t":"claim","id":1,"reason":"fifty_moves","uci":"b2b3"}),
    )
    .await;
    assert_eq!(err["code"], "cannot_claim", "{err}");
    command(&mut ws, json!({"t":"move","id":2,"uci":"b2b3"})).await;
    let s = state(&c, &id).await;
    assert_eq!(
        (s["status"].as_str(), s["reason"].as_str()),
        (Some("ended"), Some("fifty_moves"))
    );

    // A FIDE game reached with the claim already available shows it.
    let g = new_game(
        &c,
        json!({"level":"easy","color":"white","rules":"fide","fen":"k7/8/8/8/8/8/1R6/K7 w - - 100 80"}),
    )
    .await;
    assert_eq!(g["claimable"], json!(["fifty_moves"]));
    srv.stop().await;
}

async fn idle_games_are_unloaded_and_come_back_on_demand(db: TestDb) {
    let tuning = Tuning {
        engine_workers: 1,
        engine_hash_mb: 1,
        think_time_factor: 0.25,
        idle_unload: Duration::from_millis(300),
        ..Tuning::default()
    };
    let srv = TestServer::start_with(db.url(), tuning).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    assert_eq!(games_live(&c).await, 1);

    // An open socket keeps the game loaded.
    let mut ws = socket(&c, &id, Some(0)).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(games_live(&c).await, 1);
    assert_eq!(
        command(&mut ws, json!({"t":"move","id":1,"uci":"e2e4"})).await["t"],
        "ack"
    );
    until_ply(&mut ws, 2).await;
    drop(ws);

    let deadline = tokio::time::Instant::now() + WAIT;
    while games_live(&c).await != 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the idle game stays loaded"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Loaded again on demand, with everything it had.
    let s = state(&c, &id).await;
    assert_eq!(s["ply"], 2);
    assert_eq!(s["v"], 2);
    assert_eq!(games_live(&c).await, 1);
    let mut ws = socket(&c, &id, Some(2)).await;
    assert_eq!(
        command(&mut ws, json!({"t":"move","id":2,"uci":"d2d4"})).await,
        json!({"t":"ack","id":2,"v":3})
    );
    srv.stop().await;
}

async fn shutdown_closes_sockets_with_going_away(db: TestDb) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let mut ws = socket(&c, g["id"].as_str().unwrap(), Some(0)).await;
    let stopped = tokio::spawn(srv.stop());
    let frame = tokio::time::timeout(WAIT, ws.next()).await.unwrap();
    match frame {
        Some(Ok(Message::Close(Some(f)))) => assert_eq!(u16::from(f.code), 1001),
        other => panic!("expected a close frame, got {other:?}"),
    }
    stopped.await.unwrap();
}

async fn requests_racing_the_unloading_never_fail(db: TestDb) {
    let tuning = Tuning {
        engine_workers: 1,
        engine_hash_mb: 1,
        think_time_factor: 0.25,
        idle_unload: Duration::from_millis(60),
        ..Tuning::default()
    };
    let srv = TestServer::start_with(db.url(), tuning).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    // Pauses around the unload delay (60 ms idle + up to 50 ms until the
    // actor checks), so requests meet actors that are loading, live, or
    // just unloading; the 200 ms pauses surely let it unload.
    let pauses = [0u64, 55, 70, 85, 100, 115, 200];
    for step in 0..28 {
        tokio::time::sleep(Duration::from_millis(pauses[step % pauses.len()])).await;
        let mut tasks = Vec::new();
        for _ in 0..3 {
            let c = c.clone();
            let id = id.clone();
            tasks.push(tokio::spawn(async move {
                let r = c.get(&format!("/api/games/{id}")).await.unwrap();
                assert_eq!(r.status, 200, "{}", r.text());
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
    }
    let m = c.get("/metrics").await.unwrap().text();
    let loads: u64 = m
        .lines()
        .find_map(|l| l.strip_prefix("plyyard_games_loaded_total "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        loads >= 2,
        "the game should have been unloaded and reloaded: {loads}"
    );
    let mut ws = socket(&c, &id, Some(0)).await;
    assert_eq!(
        command(&mut ws, json!({"t":"move","id":1,"uci":"e2e4"})).await["t"],
        "ack"
    );
    srv.stop().await;
}

async fn racing_moves_from_two_sockets_apply_once(db: TestDb) {
    let srv = TestServer::start(db.url(), 1.0).await;
    let c = srv.client();
    let g = new_game(&c, json!({"level":"expert","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut a = socket(&c, &id, Some(0)).await;
    let mut b = socket(&c, &id, Some(0)).await;
    send_json(&mut a, &json!({"t":"move","id":1,"uci":"e2e4"}))
        .await
        .unwrap();
    send_json(&mut b, &json!({"t":"move","id":1,"uci":"d2d4"}))
        .await
        .unwrap();
    let ra = recv_until(&mut a, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
        .await
        .unwrap();
    let rb = recv_until(&mut b, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
        .await
        .unwrap();
    let acks = [&ra, &rb].iter().filter(|m| m["t"] == "ack").count();
    assert_eq!(acks, 1, "{ra} {rb}");
    let refused = if ra["t"] == "error" { &ra } else { &rb };
    assert_eq!(refused["code"], "not_your_turn");
    let s = state(&c, &id).await;
    assert_eq!(s["ply"], 1);
    assert_eq!(s["v"], 1);
    srv.stop().await;
}

async fn the_web_app_and_service_endpoints_are_served(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    for page in ["/", "/game/abcdefgh"] {
        let r = c.get(page).await.unwrap();
        assert_eq!(r.status, 200, "{page}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(r.header("cache-control"), Some("no-cache"));
        assert!(r.text().to_lowercase().starts_with("<!doctype html"));
    }
    assert_eq!(c.get("/assets/no-such-file.js").await.unwrap().status, 404);
    let root = c.get("/").await.unwrap().text();
    assert!(root.contains("<html lang=\"en\">"), "{root}");
    assert_eq!(c.get("/healthz").await.unwrap().text(), "ok");
    let m = c.get("/metrics").await.unwrap();
    assert!(m.header("content-type").unwrap().starts_with("text/plain"));
    for name in [
        "plyyard_games_live",
        "plyyard_moves_total",
        "plyyard_moves_per_second",
        "plyyard_engine_queue",
    ] {
        assert!(m.text().contains(&format!("\n{name} ")), "{name}");
    }
    srv.stop().await;
}

/// One address's many computer games share its part of the engine pool:
/// another client's reply does not wait for them, and none of their
/// moves is lost (those refused by the pool's queue come a little later).
async fn one_clients_pile_of_searches_neither_delays_others_nor_gets_lost(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let from = |last: u8| {
        Client::connecting_from(srv.addr, Some(std::net::IpAddr::from([127, 0, 0, last])))
    };
    let busy = from(2);
    let mut games = Vec::new();
    for _ in 0..8 {
        let g = new_game(&busy, json!({"level":"expert","color":"white"})).await;
        let id = g["id"].as_str().unwrap().to_owned();
        let ws = socket(&busy, &id, Some(0)).await;
        games.push((id, ws));
    }
    for (n, (_, ws)) in games.iter_mut().enumerate() {
        let ack = command(ws, json!({"t":"move","id":n,"uci":"e2e4"})).await;
        assert_eq!(ack["t"], "ack", "{ack}");
    }
    let other = from(3);
    let g = new_game(&other, json!({"level":"beginner","color":"white"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = socket(&other, &id, Some(0)).await;
    command(&mut ws, json!({"t":"move","id":1,"uci":"d2d4"})).await;
    until_ply(&mut ws, 2).await;
    let mut answered = 0;
    for (id, _) in &games {
        answered += u64::from(state(&busy, id).await["ply"] == 2);
    }
    // Each Expert search takes 500 ms, one at a time for the busy client.
    assert!(
        answered <= 2,
        "{answered} of the busy client's replies went first"
    );
    for (_, ws) in &mut games {
        until_ply(ws, 2).await;
    }
    assert!(metric(&busy, "plyyard_engine_refused_total").await > 0);
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    one_clients_pile_of_searches_neither_delays_others_nor_gets_lost,
    play_a_game_against_the_computer,
    out_of_turn_and_undo_while_thinking,
    undo_takes_back_the_move_and_the_reply,
    resign_ends_the_game,
    strangers_can_watch_but_not_play,
    reconnect_with_a_version_gets_the_missed_events,
    bad_socket_input_gets_errors_and_never_changes_the_game,
    foreign_origins_and_unknown_games_are_refused,
    game_requests_are_validated,
    games_can_start_from_a_fen_and_promotion_needs_a_piece,
    draws_are_claimed_under_fide_rules,
    idle_games_are_unloaded_and_come_back_on_demand,
    shutdown_closes_sockets_with_going_away,
    requests_racing_the_unloading_never_fail,
    racing_moves_from_two_sockets_apply_once,
    the_web_app_and_service_endpoints_are_served,
);
