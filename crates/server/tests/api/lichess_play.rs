//! Playing through the Lichess-compatible Board and Bot APIs over real
//! HTTP: table games between two accounts played only with tokens, their
//! NDJSON game streams (order, draw offers, ends, `opponentGone`,
//! keep-alive, never compressed, bounded per account), refused and
//! duplicated moves, bots, `/api/account/playing` and the exports — on
//! SQLite and PostgreSQL.

use std::time::Duration;

use crate::support::{account, token};
use plyyard_testkit::{Client, Method, TestDb, TestServer};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn start(db: &TestDb) -> TestServer {
    let mut tuning = plyyard_testkit::tuning(0.05);
    tuning.away_claim_after = Duration::from_millis(400);
    TestServer::start_with(db.url(), tuning).await
}

/// A player: its session client, its name and its token.
struct Side {
    web: Client,
    name: String,
    token: String,
}

/// `host` opens a casual 5+3 table and `guest` sits: (white, black, game id).
async fn table_game(host: Side, guest: Side) -> (Side, Side, String) {
    let r = host
        .web
        .post_json(
            "/api/tables",
            &json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let code = r.json::<Value>().unwrap()["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = guest
        .web
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let state = host.web.get_value(&format!("/api/games/{id}")).await;
    if state["you"] == "white" {
        (host, guest, id)
    } else {
        (guest, host, id)
    }
}

/// `challenger` challenges `dest` (5+3, casual) and `dest` accepts, all
/// through the API: (white, black, game id).
async fn challenge_game(c: &Client, challenger: Side, dest: Side) -> (Side, Side, String) {
    let r = c
        .with_token(
            &challenger.token,
            Method::POST,
            &format!("/api/challenge/{}", dest.name),
            Some((
                "application/x-www-form-urlencoded",
                "clock.limit=300&clock.increment=3",
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = post(c, &dest.token, &format!("/api/challenge/{id}/accept")).await;
    assert_eq!(status, 200, "{body}");
    let state = c.get_value(&format!("/api/games/{id}")).await;
    if state["white"]["name"] == challenger.name.as_str() {
        (challenger, dest, id)
    } else {
        (dest, challenger, id)
    }
}

async fn side(srv: &TestServer, name: &str, scopes: &[&str]) -> Side {
    let web = account(srv, name).await;
    let token = token(&web, scopes).await;
    Side {
        web,
        name: name.to_owned(),
        token,
    }
}

/// `POST path` with `token`: (status, JSON body).
async fn post(c: &Client, token: &str, path: &str) -> (u16, Value) {
    let r = c.with_token(token, Method::POST, path, None).await.unwrap();
    let body: Value = r
        .json()
        .unwrap_or_else(|_| panic!("{path}: not JSON: {}", r.text()));
    (r.status, body)
}

/// An open NDJSON stream, read line by line.
struct Stream {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Stream {
    /// Opens `path` with `token` (and `Accept-Encoding: gzip`, which a
    /// stream must ignore).
    async fn open(srv: &TestServer, token: &str, path: &str) -> Result<Stream, (u16, Value)> {
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let resp = http
            .get(srv.client().url(path))
            .bearer_auth(token)
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        if status != 200 {
            let body = resp.json::<Value>().await.unwrap();
            return Err((status, body));
        }
        assert_eq!(
            resp.headers()["content-type"],
            "application/x-ndjson",
            "{path}"
        );
        assert!(
            resp.headers().get("content-encoding").is_none(),
            "a stream is never compressed"
        );
        Ok(Stream {
            resp,
            buf: Vec::new(),
        })
    }

    /// The next line (`""` for a keep-alive), `None` once the stream ended.
    async fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let rest = self.buf.split_off(i + 1);
                let mut line = std::mem::replace(&mut self.buf, rest);
                line.pop();
                return Some(String::from_utf8(line).unwrap());
            }
            let chunk = tokio::time::timeout(WAIT, self.resp.chunk())
                .await
                .expect("a line in time")
                .expect("the stream reads");
            match chunk {
                Some(c) => self.buf.extend_from_slice(&c),
                None => {
                    assert!(self.buf.is_empty(), "an unfinished line");
                    return None;
                }
            }
        }
    }

    /// The next JSON line, skipping keep-alives and, unless `gone`,
    /// `opponentGone` (sent while the other player's stream is not open
    /// yet).
    async fn next_line(&mut self, gone: bool) -> Value {
        loop {
            let line = self.line().await.expect("the stream is open");
            if line.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(&line).unwrap();
            if gone || v["type"] != "opponentGone" {
                return v;
            }
        }
    }

    /// The next line but `opponentGone` and keep-alives.
    async fn next(&mut self) -> Value {
        self.next_line(false).await
    }

    /// Asserts that the stream ends (after keep-alives only).
    async fn ends(&mut self) {
        while let Some(line) = self.line().await {
            assert!(line.is_empty(), "after the end: {line}");
        }
    }
}

async fn stream(srv: &TestServer, s: &Side, id: &str) -> Stream {
    Stream::open(srv, &s.token, &format!("/api/board/game/stream/{id}"))
        .await
        .unwrap()
}

async fn mv(s: &Side, id: &str, uci: &str) -> (u16, Value) {
    post(
        &s.web,
        &s.token,
        &format!("/api/board/game/{id}/move/{uci}"),
    )
    .await
}

const OK: (u16, &str) = (200, r#"{"ok":true}"#);

fn ok(r: (u16, Value)) -> (u16, String) {
    (r.0, r.1.to_string())
}

async fn a_board_game_with_a_draw_offer_and_the_exports(db: TestDb) {
    let srv = start(&db).await;
    let board = ["board:play"];
    let (w, b, id) = table_game(
        side(&srv, "Anna", &board).await,
        side(&srv, "Boris", &board).await,
    )
    .await;
    let mut ws = stream(&srv, &w, &id).await;
    let mut bs = stream(&srv, &b, &id).await;
    let full = ws.next().await;
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(full["id"], id.as_str());
    assert_eq!(
        full["variant"],
        json!({"key":"standard","name":"Standard","short":"Std"})
    );
    assert_eq!(full["speed"], "blitz");
    assert_eq!(full["perf"]["name"], "Blitz");
    assert_eq!(full["rated"], false);
    assert!(
        full["createdAt"].as_i64().unwrap() > 1_600_000_000_000,
        "{full}"
    );
    assert_eq!(full["white"]["name"], w.name.as_str());
    assert_eq!(full["white"]["id"], w.name.to_lowercase());
    assert_eq!(full["black"]["name"], b.name.as_str());
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(
        full["clock"],
        json!({"initial": 300_000, "increment": 3_000})
    );
    let st = &full["state"];
    assert_eq!(st["type"], "gameState");
    assert_eq!(st["moves"], "");
    assert_eq!(
        (st["wtime"].as_u64(), st["winc"].as_u64()),
        (Some(300_000), Some(3_000))
    );
    assert_eq!(st["status"], "started");
    assert_eq!(bs.next().await["type"], "gameFull");

    // Who may do what.
    let eve = side(&srv, "Eve", &board).await;
    assert_eq!(mv(&eve, &id, "e2e4").await.0, 404);
    assert_eq!(mv(&w, "zzzzzzzz", "e2e4").await.0, 404);
    assert_eq!(
        Stream::open(&srv, &eve.token, &format!("/api/board/game/stream/{id}"))
            .await
            .err()
            .map(|e| e.0),
        Some(404)
    );
    let reader = token(&w.web, &["challenge:read"]).await;
    let (status, body) = post(&w.web, &reader, &format!("/api/board/game/{id}/move/e2e4")).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("Missing scope: board:play"))
    );
    let bot_way = post(&w.web, &w.token, &format!("/api/bot/game/{id}/move/e2e4")).await;
    assert_eq!(bot_way.0, 403, "{}", bot_way.1);
    assert_eq!(mv(&b, &id, "e7e5").await.0, 400, "not Black's turn");
    assert_eq!(mv(&w, &id, "e2e5").await.0, 400, "illegal");
    assert_eq!(mv(&w, &id, "e2e4e2e4").await.0, 400, "not UCI");

    assert_eq!(ok(mv(&w, &id, "e2e4").await), (OK.0, OK.1.to_owned()));
    assert_eq!(mv(&w, &id, "e2e4").await.0, 400, "a duplicate");
    for s in [&mut ws, &mut bs] {
        let st = s.next().await;
        assert_eq!(
            (st["type"].as_str(), st["moves"].as_str()),
            (Some("gameState"), Some("e2e4"))
        );
        assert_eq!(st["wtime"], 300_000);
    }

    // What each one plays.
    let c = srv.client();
    let r = c
        .with_token(&b.token, Method::GET, "/api/account/playing", None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let playing: Value = r.json().unwrap();
    let g = &playing["nowPlaying"][0];
    assert_eq!(
        playing["nowPlaying"].as_array().unwrap().len(),
        1,
        "{playing}"
    );
    assert_eq!(g["gameId"], id.as_str());
    assert_eq!(g["fullId"].as_str().unwrap().len(), 12);
    assert_eq!(g["color"], "black");
    assert_eq!(g["isMyTurn"], true);
    assert_eq!(g["hasMoved"], false);
    assert_eq!(g["lastMove"], "e2e4");
    assert_eq!(g["opponent"]["username"], w.name.as_str());
    assert_eq!(g["speed"], "blitz");
    assert_eq!(g["status"], json!({"id": 20, "name": "started"}));
    assert_eq!(g["variant"]["key"], "standard");
    assert_eq!(g["secondsLeft"], 300);
    // The full id works wherever the game id does.
    let full_id = g["fullId"].as_str().unwrap().to_owned();

    let (status, _) = post(
        &b.web,
        &b.token,
        &format!("/api/board/game/{full_id}/move/e7e5?offeringDraw=true"),
    )
    .await;
    assert_eq!(status, 200);
    for s in [&mut ws, &mut bs] {
        let st = s.next().await;
        assert_eq!(st["moves"], "e2e4 e7e5");
        assert_eq!(
            (st["bdraw"].as_bool(), st.get("wdraw")),
            (Some(true), None),
            "{st}"
        );
    }
    assert_eq!(
        post(
            &w.web,
            &w.token,
            &format!("/api/board/game/{id}/takeback/yes")
        )
        .await
        .0,
        400
    );
    assert_eq!(
        ok(post(
            &w.web,
            &w.token,
            &format!("/api/board/game/{id}/takeback/no")
        )
        .await)
        .0,
        200
    );
    assert_eq!(
        ok(post(&w.web, &w.token, &format!("/api/board/game/{id}/draw/yes")).await),
        (OK.0, OK.1.to_owned())
    );
    for s in [&mut ws, &mut bs] {
        let st = s.next().await;
        assert_eq!(
            (st["status"].as_str(), st.get("winner")),
            (Some("draw"), None),
            "{st}"
        );
        s.ends().await;
    }
    assert_eq!(mv(&b, &id, "g8f6").await.0, 400, "late");
    assert_eq!(
        post(&w.web, &w.token, &format!("/api/board/game/{id}/draw/yes"))
            .await
            .0,
        400
    );

    // A finished game's stream: gameFull, then the end.
    let mut late = stream(&srv, &w, &id).await;
    let full = late.next().await;
    assert_eq!(
        (full["type"].as_str(), full["state"]["status"].as_str()),
        (Some("gameFull"), Some("draw"))
    );
    late.ends().await;

    // Exports.
    let pgn = c.get(&format!("/game/export/{id}")).await.unwrap();
    assert_eq!(pgn.status, 200);
    assert!(
        pgn.text().contains("1. e4 {[%clk 0:05:00]} 1... e5"),
        "{}",
        pgn.text()
    );
    let r = c
        .send(
            c.builder(Method::GET, &format!("/game/export/{id}?pgnInJson=true"))
                .header("accept", "application/json"),
        )
        .await
        .unwrap();
    let g: Value = r.json().unwrap();
    assert_eq!(g["id"], id.as_str());
    assert_eq!(
        (g["status"].as_str(), g["moves"].as_str()),
        (Some("draw"), Some("e4 e5"))
    );
    assert_eq!(g["players"]["white"]["user"]["name"], w.name.as_str());
    assert_eq!(
        g["clock"],
        json!({"initial": 300, "increment": 3, "totalTime": 420})
    );
    assert!(
        g["pgn"].as_str().unwrap().contains("[Result \"1/2-1/2\"]"),
        "{g}"
    );
    assert!(g["lastMoveAt"].as_i64() >= g["createdAt"].as_i64());
    assert_eq!(c.get("/game/export/nosuchgm").await.unwrap().status, 404);
    let r = c
        .send(
            c.builder(Method::GET, &format!("/api/games/user/{}?max=5", w.name))
                .header("accept", "application/x-ndjson"),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200);
    let lines: Vec<Value> = r
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["id"], id.as_str());
    let r = c
        .get(&format!("/api/games/user/{}?since=0&until=1", w.name))
        .await
        .unwrap();
    assert_eq!((r.status, r.text()), (200, String::new()));
    let r = c.get(&format!("/api/games/user/{}", b.name)).await.unwrap();
    assert!(r.text().starts_with("[Event "), "{}", r.text());
    assert_eq!(c.get("/api/games/user/nobody").await.unwrap().status, 404);
    // `max=1` gives the newest game (the newest page is not held back).
    let r = c
        .send(
            c.builder(Method::GET, &format!("/api/games/user/{}?max=1", w.name))
                .header("accept", "application/x-ndjson"),
        )
        .await
        .unwrap();
    assert_eq!(r.text().lines().count(), 1, "{}", r.text());
    // A client that takes gzip or brotli gets the whole export: the
    // compression layer polls the finished stream again, which must not
    // panic (it cut every such export).
    for encoding in ["gzip", "br"] {
        let r = c
            .send(
                c.builder(Method::GET, &format!("/api/games/user/{}", b.name))
                    .header("accept-encoding", encoding),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{encoding}");
        assert!(!r.body.is_empty(), "{encoding}");
    }
}

async fn mate_resign_abort_castling_and_concurrent_duplicates(db: TestDb) {
    let srv = start(&db).await;
    let board = ["board:play"];
    let (w, b, id) = table_game(
        side(&srv, "Carla", &board).await,
        side(&srv, "Dmitri", &board).await,
    )
    .await;
    let mut ws = stream(&srv, &w, &id).await;
    ws.next().await;
    // The same move sent twice at once is played once.
    let (one, two) = tokio::join!(mv(&w, &id, "f2f3"), mv(&w, &id, "f2f3"));
    let mut statuses = [one.0, two.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 400], "{one:?} {two:?}");
    assert_eq!(ws.next().await["moves"], "f2f3");
    for (s, m) in [(&b, "e7e5"), (&w, "g2g4"), (&b, "d8h4")] {
        assert_eq!(mv(s, &id, m).await.0, 200);
    }
    let mut seen = Vec::new();
    loop {
        let st = ws.next().await;
        seen.push(st["moves"].as_str().unwrap().to_owned());
        if st["status"] != "started" {
            assert_eq!(
                (st["status"].as_str(), st["winner"].as_str()),
                (Some("mate"), Some("black"))
            );
            break;
        }
    }
    assert_eq!(seen, ["f2f3 e7e5", "f2f3 e7e5 g2g4", "f2f3 e7e5 g2g4 d8h4"]);
    ws.ends().await;
    assert_eq!(mv(&w, &id, "a2a3").await.0, 400);

    // Castling, given either way, is streamed king-takes-rook.
    let (w, b, id) = table_game(w, b).await;
    let mut bs = stream(&srv, &b, &id).await;
    bs.next().await;
    let white = ["e2e4", "g1f3", "f1c4", "e1g1"];
    let black = ["e7e5", "g8f6", "f8c5", "e8h8"];
    for (wm, bm) in white.iter().zip(black) {
        assert_eq!(mv(&w, &id, wm).await.0, 200);
        assert_eq!(mv(&b, &id, bm).await.0, 200);
    }
    let mut last = Value::Null;
    for _ in 0..8 {
        last = bs.next().await;
    }
    assert_eq!(last["moves"], "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8");
    assert_eq!(
        post(&w.web, &w.token, &format!("/api/board/game/{id}/abort"))
            .await
            .0,
        400,
        "too late"
    );
    assert_eq!(
        post(&b.web, &b.token, &format!("/api/board/game/{id}/resign"))
            .await
            .0,
        200
    );
    let end = bs.next().await;
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("resign"), Some("white"))
    );
    bs.ends().await;

    // Abort before the first moves.
    let (w, _b, id) = table_game(w, b).await;
    let mut ws = stream(&srv, &w, &id).await;
    ws.next().await;
    assert_eq!(
        post(&w.web, &w.token, &format!("/api/board/game/{id}/abort"))
            .await
            .0,
        200
    );
    let end = ws.next().await;
    assert_eq!(
        (end["status"].as_str(), end.get("winner")),
        (Some("aborted"), None)
    );
    ws.ends().await;
}

async fn bots_play_on_the_bot_api_and_claims_follow_closed_streams(db: TestDb) {
    let srv = start(&db).await;
    let robot = side(&srv, "Robo", &["bot:play"]).await;
    let c = srv.client();
    let (status, _) = post(&c, &robot.token, "/api/bot/account/upgrade").await;
    assert_eq!(status, 200);
    let person = side(&srv, "Petra", &["board:play"]).await;
    // A bot cannot sit at a table meant for people; a challenge brings it.
    let r = robot
        .web
        .post_json(
            "/api/tables",
            &json!({"minutes": 5, "increment": 3, "rules": "plyyard", "rated": false, "public": true}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    let (w, b, id) = challenge_game(&c, person, robot).await;
    let (person, robot) = if w.name == "Petra" { (w, b) } else { (b, w) };
    let bot_path = |what: &str| format!("/api/bot/game/{id}/{what}");
    // Each API keeps to its own kind of account.
    let r = post(&c, &robot.token, &format!("/api/board/game/{id}/resign")).await;
    assert_eq!(r.0, 403, "{}", r.1);
    let board_token = token(&robot.web, &["board:play"]).await;
    let r = post(&c, &board_token, &format!("/api/board/game/{id}/resign")).await;
    assert_eq!(r.0, 400, "{}", r.1);
    assert!(
        r.1["error"].as_str().unwrap().contains("Bot account"),
        "{}",
        r.1
    );
    let r = post(&c, &person.token, &format!("/api/bot/game/{id}/resign")).await;
    assert_eq!(r.0, 403);
    let both = token(&person.web, &["board:play", "bot:play"]).await;
    let r = post(&c, &both, &format!("/api/bot/game/{id}/resign")).await;
    assert_eq!(r.0, 400, "{}", r.1);
    assert_eq!(
        Stream::open(&srv, &robot.token, &format!("/api/board/game/stream/{id}"))
            .await
            .err()
            .map(|e| e.0),
        Some(403)
    );

    let mut rs = Stream::open(&srv, &robot.token, &format!("/api/bot/game/stream/{id}"))
        .await
        .unwrap();
    let full = rs.next().await;
    assert_eq!(full["type"], "gameFull");
    let bot_color = if full["white"]["name"] == "Robo" {
        "white"
    } else {
        "black"
    };
    assert_eq!(full[bot_color]["title"], "BOT");
    let mut ps = stream(&srv, &person, &id).await;
    ps.next().await;
    // The bot is online while its stream is open.
    let online = c
        .get("/api/users/status?ids=robo")
        .await
        .unwrap()
        .json::<Value>()
        .unwrap();
    assert_eq!(online[0]["online"], true, "{online}");

    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    for (i, m) in moves.iter().enumerate() {
        let white_moves = i % 2 == 0;
        let bot_moves = white_moves == (bot_color == "white");
        let r = if bot_moves {
            post(&c, &robot.token, &bot_path(&format!("move/{m}"))).await
        } else {
            mv(&person, &id, m).await
        };
        assert_eq!(r.0, 200, "{m}: {}", r.1);
    }
    for _ in 0..4 {
        assert_eq!(rs.next().await["type"], "gameState");
    }
    for _ in 0..4 {
        ps.next().await;
    }
    // The bot's stream closes: the person is told, then may claim.
    drop(rs);
    let gone = ps.next_line(true).await;
    assert_eq!(
        gone,
        json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 1})
    );
    let early = post(
        &c,
        &person.token,
        &format!("/api/board/game/{id}/claim-victory"),
    )
    .await;
    assert_eq!(early.0, 400, "{}", early.1);
    let claimable = ps.next_line(true).await;
    assert_eq!(
        claimable,
        json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 0})
    );
    let online = c
        .get("/api/users/status?ids=robo")
        .await
        .unwrap()
        .json::<Value>()
        .unwrap();
    assert_eq!(online[0]["online"], false, "{online}");

    // Streams per account are bounded.
    let mut more = Vec::new();
    for _ in 0..7 {
        more.push(stream(&srv, &person, &id).await);
    }
    let refused = Stream::open(&srv, &person.token, &format!("/api/board/game/stream/{id}")).await;
    assert_eq!(refused.err().map(|e| e.0), Some(429));
    // An empty line comes at least every 6 s.
    let first = &mut more[0];
    assert_eq!(first.next().await["type"], "gameFull");
    let keep_alive = tokio::time::timeout(Duration::from_secs(8), async {
        loop {
            match first.line().await {
                Some(l) if l.is_empty() => return true,
                Some(_) => {}
                None => return false,
            }
        }
    })
    .await;
    assert_eq!(keep_alive.ok(), Some(true));
    drop(more);

    let (status, _) = post(
        &c,
        &person.token,
        &format!("/api/board/game/{id}/claim-victory/"),
    )
    .await;
    assert_eq!(status, 200);
    let end = ps.next().await;
    let winner = if bot_color == "white" {
        "black"
    } else {
        "white"
    };
    assert_eq!(
        (end["status"].as_str(), end["winner"].as_str()),
        (Some("timeout"), Some(winner)),
        "{end}"
    );
    ps.ends().await;
}

plyyard_testkit::both_backends!(
    a_board_game_with_a_draw_offer_and_the_exports,
    mate_resign_abort_castling_and_concurrent_duplicates,
    bots_play_on_the_bot_api_and_claims_follow_closed_streams,
);
