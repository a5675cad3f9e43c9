//! Reviews, the analysis board and PGN import over real HTTP, on SQLite and
//! PostgreSQL: a finished game is analysed once and served from storage to
//! the next viewer, unfinished games are refused, one review per player at
//! a time, import errors word for word as the importer's, and the analysis
//! board's three lines.

use std::time::{Duration, Instant};

use plyyard_testkit::{Client, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(60);

/// Nodes per position of the tests' reviews: enough for the mates and
/// hung pieces they look for, and quick on a loaded machine.
const TEST_REVIEW_NODES: u64 = 30_000;

async fn start(db: &TestDb) -> TestServer {
    let tuning = plyyard_server::Tuning {
        review_nodes: TEST_REVIEW_NODES,
        ..plyyard_testkit::tuning(0.25)
    };
    TestServer::start_with(db.url(), tuning).await
}

/// Back-rank mate in one for White: Ra8#.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

/// A computer game ended by the player's mate in one; its id.
async fn finished_computer_game(c: &Client) -> String {
    let g = c
        .new_game(&json!({"level":"beginner","color":"white","fen": MATE_IN_ONE}))
        .await;
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = c.game_socket(&id, Some(0)).await.unwrap();
    send_json(&mut ws, &json!({"t":"move","id":1,"uci":"a1a8"}))
        .await
        .unwrap();
    let ev = recv_until(&mut ws, WAIT, |m| {
        m["t"] == "event" && m["game"]["status"] == "ended"
    })
    .await
    .unwrap();
    assert_eq!(ev["game"]["reason"], "checkmate");
    id
}

/// Asks for the review of game `id`.
async fn ask_review(c: &Client, id: &str) -> plyyard_testkit::Response {
    c.post(&format!("/api/games/{id}/review"), "")
        .await
        .unwrap()
}

/// Polls the review of `id` until it is done.
async fn review_done(c: &Client, id: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let r = c.get(&format!("/api/games/{id}/review")).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        let v: Value = r.json().unwrap();
        match v["status"].as_str() {
            Some("done") => return v,
            Some("queued" | "running") => {}
            other => panic!("unexpected status {other:?}: {v}"),
        }
        assert!(t0.elapsed() < WAIT, "review of {id} not done: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn import(c: &Client, pgn: &str) -> plyyard_testkit::Response {
    c.post_json("/api/import", &json!({ "pgn": pgn }))
        .await
        .unwrap()
}

async fn a_finished_game_is_reviewed_once_and_served_to_the_next_viewer(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let id = finished_computer_game(&c).await;
    let path = format!("/api/games/{id}/review");
    assert_eq!(c.get_value(&path).await, json!({"status":"none"}));
    let r = c.post(&path, "").await.unwrap();
    assert_eq!(r.status, 202, "{}", r.text());
    let first = review_done(&c, &id).await;
    assert_eq!(first["game"]["moves"][0]["san"], "Ra8#");
    assert_eq!(first["game"]["white"]["kind"], "anonymous");
    assert_eq!(first["game"]["black"]["level"], "beginner");
    assert_eq!(first["game"]["you"], "white");

    let other = Client::new(srv.addr);
    let r = other.post(&path, "").await.unwrap();
    assert_eq!(r.status, 200, "served from storage: {}", r.text());
    let second: Value = r.json().unwrap();
    assert_eq!(second["status"], "done");
    assert_eq!(second["review"], first["review"]);
    assert_eq!(second["game"]["you"], Value::Null, "a spectator");
    let events = other.get(&format!("{path}/events")).await.unwrap();
    assert!(
        events.text().contains(r#"{"status":"done"}"#),
        "{}",
        events.text()
    );
    srv.stop().await;
}

async fn unfinished_and_unknown_games_are_refused(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let g = c
        .new_game(&json!({"level":"beginner","color":"white"}))
        .await;
    let id = g["id"].as_str().unwrap();
    let r = ask_review(&c, id).await;
    assert_eq!(r.status, 409, "{}", r.text());
    let v: Value = r.json().unwrap();
    assert_eq!(v["error"]["code"], "not_over");
    let r = c.post("/api/games/nosuchgm/review", "").await.unwrap();
    assert_eq!(r.status, 404, "{}", r.text());

    // Resigned before any move: a review with no moves.
    let mut ws = c.game_socket(id, Some(0)).await.unwrap();
    send_json(&mut ws, &json!({"t":"resign","id":1}))
        .await
        .unwrap();
    recv_until(&mut ws, WAIT, |m| {
        m["t"] == "event" && m["game"]["status"] == "ended"
    })
    .await
    .unwrap();
    let r = ask_review(&c, id).await;
    assert_eq!(r.status, 202, "{}", r.text());
    let done = review_done(&c, id).await;
    assert_eq!(done["review"]["moves"], json!([]));
    assert_eq!(done["review"]["white"]["accuracy"], Value::Null);
    srv.stop().await;
}

/// A table game called off before anyone moved: it ends `*`, and a review
/// of it is refused with `aborted` (there is nothing to review).
async fn an_aborted_game_has_no_review(db: TestDb) {
    let srv = start(&db).await;
    let mut players = Vec::new();
    for name in ["abortw", "abortb"] {
        let c = srv.client();
        let r = c
            .post_json(
                "/api/account/signup",
                &json!({"username": name, "password": "Knight-f3 takes e5!"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{}", r.text());
        players.push(c);
    }
    let (host, guest) = (&players[0], &players[1]);
    let r = host
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
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let id = r.json::<Value>().unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ws = host.game_socket(&id, None).await.unwrap();
    send_json(&mut ws, &json!({"t":"abort","id":1}))
        .await
        .unwrap();
    let ended = recv_until(&mut ws, WAIT, |m| {
        m["t"] == "event" && m["game"]["status"] == "ended"
    })
    .await
    .unwrap();
    assert_eq!(
        (
            ended["game"]["result"].clone(),
            ended["game"]["reason"].clone()
        ),
        (json!("*"), json!("aborted"))
    );
    for c in [host, guest, &srv.client()] {
        let r = ask_review(c, &id).await;
        assert_eq!(r.status, 409, "{}", r.text());
        let v: Value = r.json().unwrap();
        assert_eq!(v["error"]["code"], "aborted", "{v}");
    }
    let path = format!("/api/games/{id}/review");
    assert_eq!(host.get_value(&path).await, json!({"status":"none"}));
    srv.stop().await;
}

/// A long game (80 plies of legal moves picked by a fixed rule), so that
/// its review is still under way when asked again.
fn long_pgn() -> String {
    let mut g = plyyard_game::Game::new(plyyard_game::RuleSet::Fide);
    let mut movetext = String::new();
    for ply in 0..80 {
        let legal = g.legal_uci();
        if legal.is_empty() || g.outcome().is_some() {
            break;
        }
        let uci = &legal[(ply * 7 + 3) % legal.len()];
        let san = g.play_uci(uci).unwrap().san.clone();
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        }
        movetext.push_str(&san);
        movetext.push(' ');
    }
    format!("[White \"A\"]\n[Black \"B\"]\n\n{movetext}*\n")
}

async fn one_review_per_player_at_a_time(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let r = import(&c, &long_pgn()).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let long: Value = r.json().unwrap();
    let long_id = long["games"][0]["id"].as_str().unwrap().to_owned();
    let short = finished_computer_game(&c).await;

    let r = ask_review(&c, &long_id).await;
    assert_eq!(r.status, 202, "{}", r.text());
    let r = ask_review(&c, &short).await;
    assert_eq!(r.status, 429, "{}", r.text());
    let v: Value = r.json().unwrap();
    assert_eq!(v["error"]["code"], "rate_limited");
    assert!(r.header("retry-after").is_some());
    // Someone else may join the review under way.
    let other = Client::new(srv.addr);
    let r = ask_review(&other, &long_id).await;
    assert!(matches!(r.status, 200 | 202), "{}", r.text());
    // A fresh anonymous player from the same address has to wait too.
    let r = ask_review(&other, &short).await;
    assert_eq!(r.status, 429, "{}", r.text());

    review_done(&c, &long_id).await;
    let r = ask_review(&c, &short).await;
    assert_eq!(r.status, 202, "free again: {}", r.text());
    review_done(&c, &short).await;
    srv.stop().await;
}

async fn imports_store_games_and_refuse_bad_pgn_word_for_word(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let scholar = "[Event \"Club\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n\n\
                   1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let r = import(&c, scholar).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let v: Value = r.json().unwrap();
    let g = &v["games"][0];
    assert_eq!(
        (&g["white"], &g["black"], &g["result"], &g["plies"]),
        (&json!("Ann"), &json!("Bob"), &json!("1-0"), &json!(7))
    );
    let id = g["id"].as_str().unwrap();
    let state = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(state["kind"], "imported");
    assert_eq!(state["status"], "ended");
    assert_eq!(
        (&state["white"], &state["black"]),
        (
            &json!({"kind":"pgn","name":"Ann","level":null}),
            &json!({"kind":"pgn","name":"Bob","level":null})
        ),
        "the game page names the PGN's players"
    );
    let r = ask_review(&c, id).await;
    assert_eq!(r.status, 202, "{}", r.text());
    let done = review_done(&c, id).await;
    assert_eq!(
        done["game"]["white"],
        json!({"kind":"pgn","name":"Ann","level":null})
    );
    assert_eq!(done["game"]["moves"][6]["san"], "Qxf7#");
    let nf6 = &done["review"]["moves"][5];
    assert_eq!(nf6["san"], "Nf6", "{nf6}");
    assert_eq!(nf6["label"], "blunder", "{nf6}");
    assert_eq!(nf6["symbol"], "??");
    assert!(
        nf6["texts"].to_string().contains("Qxf7#"),
        "the mate allowed is named: {nf6}"
    );
    assert_eq!(
        nf6["best"]["uci"].as_array().unwrap().len(),
        nf6["best"]["fens"].as_array().unwrap().len()
    );
    let fr = c
        .get_value(&format!("/api/games/{id}/review?lang=fr"))
        .await;
    assert_eq!(fr["lang"], "fr");
    assert_eq!(fr["review"]["moves"][5]["label"], "blunder");
    assert_ne!(
        fr["review"]["moves"][5]["texts"], nf6["texts"],
        "rendered in French"
    );

    for bad in [
        "1. e4 e5 2. Ke3 *\n",
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Zz9 *\n",
        "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
        "1. f3 e5 2. g4 Qh4# 1-0\n",
    ] {
        let expected = plyyard_game::pgn::PgnImporter::new(bad.as_bytes())
            .find_map(Result::err)
            .unwrap()
            .to_string();
        let r = import(&c, bad).await;
        assert_eq!(r.status, 422, "{bad}: {}", r.text());
        let v: Value = r.json().unwrap();
        assert_eq!(v["error"]["code"], "invalid_pgn");
        assert_eq!(v["error"]["message"], expected.as_str());
    }
    let r = import(&c, "   \n").await;
    assert_eq!(r.status, 422, "{}", r.text());
    let huge = "1. e4 e5 ".repeat(40_000);
    let r = import(&c, &huge).await;
    assert_eq!(r.status, 413, "{}", r.text());
    srv.stop().await;
}

/// PGN imports are limited per client: the address's quota holds for
/// every player on it (the probe stored 2,274 games in 10 s).
async fn imports_are_limited_per_client(db: TestDb) {
    let mut tuning = plyyard_testkit::tuning(0.25);
    tuning.quotas.imports_per_minute = 3;
    let srv = TestServer::start_with(db.url(), tuning).await;
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *\n";
    let c = srv.client();
    for _ in 0..3 {
        let r = import(&c, pgn).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = import(&c, pgn).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(import(&srv.client(), pgn).await.status, 429);
    srv.stop().await;
}

async fn the_analysis_board_gives_three_lines(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let r = c
        .post_json("/api/analysis", &json!({"fen": start, "movetime_ms": 300}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let v: Value = r.json().unwrap();
    assert_eq!(v["done"], true);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let firsts: std::collections::HashSet<&str> = lines
        .iter()
        .map(|l| l["uci"][0].as_str().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3, "three different moves: {v}");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["rank"], i + 1);
        assert!(l["score"]["cp"].is_i64(), "{l}");
        assert_eq!(
            l["uci"].as_array().unwrap().len(),
            l["san"].as_array().unwrap().len()
        );
    }

    // A mate in one is found, from White's side.
    let r = c
        .post_json(
            "/api/analysis",
            &json!({"fen": MATE_IN_ONE, "movetime_ms": 300}),
        )
        .await
        .unwrap();
    let v: Value = r.json().unwrap();
    assert_eq!(v["lines"][0]["san"][0], "Ra8#", "{v}");
    assert_eq!(v["lines"][0]["score"]["mate"], 1);

    // The stream deepens and ends with the final lines.
    let s = c
        .get(&format!(
            "/api/analysis/stream?fen={}&movetime_ms=300",
            start.replace(' ', "%20").replace('/', "%2F")
        ))
        .await
        .unwrap();
    assert_eq!(s.status, 200, "{}", s.text());
    let text = s.text();
    assert!(text.matches("event: lines").count() >= 2, "{text}");
    assert!(text.contains(r#""done":true"#), "{text}");

    // Moves played from the FEN, then the legal moves of the position reached.
    let r = c
        .post_json(
            "/api/analysis",
            &json!({"fen": start, "moves": "e2e4 e7e5", "movetime_ms": 100}),
        )
        .await
        .unwrap();
    let v: Value = r.json().unwrap();
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(v["dests"]["g1"], json!(["e2", "f3", "h3"]));
    assert_eq!(v["dests"]["e1"], json!(["e2"]));

    // A position of a stored game: after 3...Nf6 White mates in one.
    let r = import(&c, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n").await;
    let id = r.json::<Value>().unwrap()["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = c
        .post_json(
            "/api/analysis",
            &json!({"game": id, "ply": 6, "movetime_ms": 200}),
        )
        .await
        .unwrap();
    let v: Value = r.json().unwrap();
    assert_eq!(v["lines"][0]["san"][0], "Qxf7#", "{v}");

    for (body, status) in [
        (json!({"fen": start, "moves": "e2e5"}), 422),
        (json!({"game": id, "ply": 99}), 400),
        (json!({"fen": "not a fen"}), 400),
        (json!({"fen": "x".repeat(500)}), 400),
        (json!({}), 400),
        (json!({"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}), 409),
    ] {
        let r = c.post_json("/api/analysis", &body).await.unwrap();
        assert_eq!(r.status, status, "{body}: {}", r.text());
    }
    srv.stop().await;
}

/// A client of the test server from its own loopback address.
fn client_from(srv: &TestServer, last: u8) -> Client {
    Client::connecting_from(srv.addr, Some(std::net::IpAddr::from([127, 0, 0, last])))
}

/// The status of `id`'s review as `c` sees it.
async fn review_status(c: &Client, id: &str) -> String {
    let v: Value = c.get_value(&format!("/api/games/{id}/review")).await;
    v["status"].as_str().unwrap_or_default().to_owned()
}

/// Reviews of different clients take turns position by position: a short
/// review asked for while a long one of another address runs is done long
/// before it (it used to wait for the whole long review).
async fn another_clients_review_goes_between_the_positions_of_a_long_one(db: TestDb) {
    let srv = start(&db).await;
    let busy = client_from(&srv, 2);
    let r = import(&busy, &long_pgn()).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let long_id = r.json::<Value>().unwrap()["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(ask_review(&busy, &long_id).await.status, 202);
    let t0 = Instant::now();
    while review_status(&busy, &long_id).await == "queued" {
        assert!(t0.elapsed() < WAIT, "the long review never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let other = client_from(&srv, 3);
    let r = import(
        &other,
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
",
    )
    .await;
    let short = r.json::<Value>().unwrap()["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(ask_review(&other, &short).await.status, 202);
    let done = review_done(&other, &short).await;
    assert_eq!(done["review"]["moves"].as_array().unwrap().len(), 7);
    let long = busy
        .get_value(&format!("/api/games/{long_id}/review"))
        .await;
    assert_eq!(long["status"], "running", "{long}");
    let progress = long["done"].as_u64().unwrap();
    assert!(
        progress < 70,
        "the short review waited for {progress} positions"
    );
    review_done(&busy, &long_id).await;
    srv.stop().await;
}

/// One client's long analysis does not hold the analysis engine: once it
/// has run its slice, another client's waiting analysis takes the engine,
/// and the long one answers early with the lines it has.
async fn a_long_analysis_yields_the_engine_to_another_client(db: TestDb) {
    let srv = start(&db).await;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let busy = client_from(&srv, 2);
    let t0 = Instant::now();
    let long = tokio::spawn(async move {
        busy.post_json(
            "/api/analysis",
            &json!({"fen": start, "movetime_ms": 10_000}),
        )
        .await
        .unwrap()
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let other = client_from(&srv, 3);
    let r = other
        .post_json("/api/analysis", &json!({"fen": start, "movetime_ms": 200}))
        .await
        .unwrap();
    let answered = t0.elapsed();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json::<Value>().unwrap()["done"], true);
    // The long search would have held the engine for 10 s.
    assert!(
        answered < Duration::from_secs(9),
        "the other client waited {answered:?}"
    );
    let long = long.await.unwrap();
    assert_eq!(long.status, 200, "{}", long.text());
    let v: Value = long.json().unwrap();
    assert_eq!(v["done"], true);
    assert_eq!(v["lines"].as_array().unwrap().len(), 3, "{v}");
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    imports_are_limited_per_client,
    a_finished_game_is_reviewed_once_and_served_to_the_next_viewer,
    another_clients_review_goes_between_the_positions_of_a_long_one,
    a_long_analysis_yields_the_engine_to_another_client,
    unfinished_and_unknown_games_are_refused,
    an_aborted_game_has_no_review,
    one_review_per_player_at_a_time,
    imports_store_games_and_refuse_bad_pgn_word_for_word,
    the_analysis_board_gives_three_lines,
);
