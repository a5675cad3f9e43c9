//! The exercises over real HTTP: drills played to mate against the
//! solver's defence, puzzles judged and hinted, and Learn progress per
//! anonymous player and per account (moving at log-in) — every test once
//! on SQLite and once on PostgreSQL.

use plyyard_testkit::{Client, TestDb, TestServer};
use serde_json::{Value, json};

const PASSWORD: &str = "Knight-f3 takes e5!";

async fn start(db: &TestDb) -> TestServer {
    TestServer::start(db.url(), 0.25).await
}

async fn post(c: &Client, path: &str, body: &Value) -> (u16, Value) {
    let r = c.post_json(path, body).await.unwrap();
    (r.status, r.json().unwrap_or(Value::Null))
}

async fn progress(c: &Client) -> Value {
    c.get_value("/api/learn/progress").await["done"].clone()
}

async fn progress_is_kept_per_player_and_moves_to_the_account(db: TestDb) {
    let srv = start(&db).await;
    let anon = srv.client();
    assert_eq!(progress(&anon).await, json!([]));
    let (s, body) = post(
        &anon,
        "/api/learn/progress",
        &json!({"done": ["ex:puzzles", "page:board", "page:board"]}),
    )
    .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["done"], json!(["ex:puzzles", "page:board"]));
    let (_, body) = post(
        &anon,
        "/api/learn/progress",
        &json!({"done": ["drill:kqk-1"]}),
    )
    .await;
    assert_eq!(
        body["done"],
        json!(["drill:kqk-1", "ex:puzzles", "page:board"])
    );
    assert_eq!(progress(&srv.client()).await, json!([]), "another browser");

    for bad in [
        json!({"done": ["Page:Board"]}),
        json!({"done": ["x".repeat(65)]}),
        json!({"done": (0..201).map(|i| format!("k{i}")).collect::<Vec<_>>()}),
        json!({"done": "page:board"}),
        json!({"keys": []}),
        // Puzzle keys are the server's to write, as it judges the moves.
        json!({"done": ["page:board", "puzzle:m1-01"]}),
        json!({"done": ["puzzle-helped:m1-01"]}),
    ] {
        let (s, body) = post(&anon, "/api/learn/progress", &bad).await;
        assert_eq!(
            (s, body["error"]["code"].as_str()),
            (400, Some("bad_request")),
            "{bad}"
        );
    }

    // An account has its own progress; signing up takes the browser's.
    let other = srv.client();
    assert_eq!(progress(&other).await, json!([]));
    post(
        &other,
        "/api/learn/progress",
        &json!({"done": ["page:faq"]}),
    )
    .await;
    let (s, _) = post(
        &other,
        "/api/account/signup",
        &json!({"username": "learner", "password": PASSWORD}),
    )
    .await;
    assert_eq!(s, 201);
    assert_eq!(progress(&other).await, json!(["page:faq"]));
    // Logging in from the first browser merges its progress into the account.
    let (s, _) = post(
        &anon,
        "/api/account/login",
        &json!({"username": "learner", "password": PASSWORD}),
    )
    .await;
    assert_eq!(s, 200);
    let merged = json!(["drill:kqk-1", "ex:puzzles", "page:board", "page:faq"]);
    assert_eq!(progress(&anon).await, merged);
    assert_eq!(progress(&other).await, merged);
    let r = anon.post_empty("/api/account/logout").await.unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(progress(&anon).await, json!([]), "the anonymous copy moved");
    srv.stop().await;
}

async fn a_queen_drill_is_played_to_mate(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let drills = c.get_value("/api/drills").await;
    let kinds: Vec<&str> = drills
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.iter().filter(|k| **k == "kqk").count() >= 3,
        "{drills}"
    );
    assert!(
        kinds.iter().filter(|k| **k == "krk").count() >= 3,
        "{drills}"
    );

    // From a position one move from mate: a wrong move, then the mate.
    let fen = "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1";
    let (s, body) = post(&c, "/api/drills/move", &json!({"fen": fen, "uci": "c1c7"})).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["status"], "stalemate");
    assert_eq!(body["failed"], true);
    assert_eq!(body["mate_in_before"], 1);
    let (_, body) = post(&c, "/api/drills/move", &json!({"fen": fen, "uci": "c1c8"})).await;
    assert_eq!(
        (
            &body["status"],
            &body["san"],
            &body["failed"],
            &body["reply"]
        ),
        (
            &json!("checkmate"),
            &json!("Qc8#"),
            &json!(false),
            &Value::Null
        )
    );

    // A move that keeps the win gets the defence and the distance left.
    let start = &drills[0];
    let (s, body) = post(
        &c,
        "/api/drills/move",
        &json!({"fen": start["fen"], "uci": "d1d3"}),
    )
    .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["mate_in_before"], start["fewest"]);
    assert_eq!(body["status"], "ongoing");
    assert!(
        body["reply"]["san"].as_str().unwrap().starts_with('K'),
        "{body}"
    );
    assert!(body["mate_in"].as_u64().unwrap() >= 1);

    for (fen, uci, code) in [
        (start["fen"].as_str().unwrap(), "d1d9", "illegal_move"),
        (start["fen"].as_str().unwrap(), "e5e4", "illegal_move"),
        ("8/8/8/4k3/8/8/8/3NK3 w - - 0 1", "e1e2", "not_a_drill"),
        ("8/8/8/4k3/8/8/8/3QK3 b - - 0 1", "e5e4", "not_a_drill"),
        ("garbage", "e1e2", "not_a_drill"),
    ] {
        let (s, body) = post(&c, "/api/drills/move", &json!({"fen": fen, "uci": uci})).await;
        assert_eq!(
            (s, body["error"]["code"].as_str()),
            (422, Some(code)),
            "{fen} {uci}"
        );
    }
    srv.stop().await;
}

async fn puzzles_are_listed_without_solutions_and_judged(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    let list = c.get_value("/api/puzzles").await;
    let list = list.as_array().unwrap();
    assert!(list.len() >= 50, "{}", list.len());
    assert!(list.iter().all(|p| p.get("solution").is_none()));
    let shipped = plyyard_exercises::puzzles::shipped();
    for (mate_in, p) in [
        (1, &shipped[0]),
        (2, shipped.iter().find(|p| p.mate_in == 2).unwrap()),
    ] {
        let path = format!("/api/puzzles/{}/check", p.id);
        let hint = c
            .get_value(&format!("/api/puzzles/{}/hint?level=2", p.id))
            .await;
        assert_eq!(hint["square"], json!(&p.solution[0][..2]), "{hint}");
        let (s, v) = post(&c, &path, &json!({"moves": [p.solution[0]]})).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["correct"], true);
        if mate_in == 1 {
            assert_eq!(v["done"], true);
            assert_eq!(v["counted"], false, "a hint was asked for: {v}");
            continue;
        }
        assert_eq!(
            (&v["done"], &v["reply"]),
            (&json!(false), &json!(p.solution[1]))
        );
        let moves = &p.solution[..2];
        let hint = c
            .get_value(&format!(
                "/api/puzzles/{}/hint?level=1&moves={}",
                p.id,
                moves.join(",")
            ))
            .await;
        assert!(
            hint["role"].is_string() && hint["square"].is_null(),
            "{hint}"
        );
        let (_, v) = post(&c, &path, &json!({"moves": p.solution})).await;
        assert_eq!(
            (&v["correct"], &v["done"]),
            (&json!(true), &json!(true)),
            "{v}"
        );
    }
    let p = &shipped[0];
    let path = format!("/api/puzzles/{}/check", p.id);
    let (s, body) = post(&c, &path, &json!({"moves": ["a1a9"]})).await;
    assert_eq!(
        (s, body["error"]["code"].as_str()),
        (422, Some("illegal_move"))
    );
    let (s, _) = post(&c, &path, &json!({"moves": []})).await;
    assert_eq!(s, 400);
    let (s, _) = post(
        &c,
        &path,
        &json!({"moves": ["e2e4", "e7e5", "d1h5", "b8c6"]}),
    )
    .await;
    assert_eq!(s, 400);
    let (s, _) = post(&c, "/api/puzzles/nope/check", &json!({"moves": ["e2e4"]})).await;
    assert_eq!(s, 404);
    let r = c
        .get(&format!("/api/puzzles/{}/hint?level=3", p.id))
        .await
        .unwrap();
    assert_eq!(r.status, 400);
    srv.stop().await;
}

/// Learn progress from a request without a player cookie is refused (it
/// created a new player row each time), and writes are limited per client.
async fn progress_needs_a_cookie_and_is_limited(db: TestDb) {
    let mut tuning = plyyard_testkit::tuning(0.25);
    tuning.quotas.progress_per_minute = 5;
    let srv = TestServer::start_with(db.url(), tuning).await;
    let body = json!({"done": ["page:board"]});
    let (s, refused) = post(&srv.client(), "/api/learn/progress", &body).await;
    assert_eq!(s, 400, "{refused}");
    let anon = srv.client();
    assert_eq!(progress(&anon).await, json!([]));
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(post(&anon, "/api/learn/progress", &body).await.0);
    }
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    srv.stop().await;
}

/// The server is the judge of "solved": only a solve with no wrong move
/// and no hint counts, and a wrong move gives nothing of the solution away.
async fn a_puzzle_counts_only_when_solved_without_help(db: TestDb) {
    let srv = start(&db).await;
    let c = srv.client();
    assert_eq!(progress(&c).await, json!([]));
    let shipped = plyyard_exercises::puzzles::shipped();
    let ones: Vec<_> = shipped.iter().filter(|p| p.mate_in == 1).take(2).collect();
    let (clean, helped) = (ones[0], ones[1]);

    // Solved at once: counted and recorded.
    let path = format!("/api/puzzles/{}/check", clean.id);
    let (_, v) = post(&c, &path, &json!({"moves": [clean.solution[0]]})).await;
    assert_eq!(
        (&v["done"], &v["counted"]),
        (&json!(true), &json!(true)),
        "{v}"
    );

    // A wrong move first: nothing of the solution in the answer; solving
    // afterwards (and again later) does not count.
    use plyyard_game::shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    let pos: Chess = helped
        .fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let wrong = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .find(|u| *u != helped.solution[0])
        .unwrap();
    let path = format!("/api/puzzles/{}/check", helped.id);
    let (s, v) = post(&c, &path, &json!({"moves": [wrong]})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (&v["correct"], &v["done"]),
        (&json!(false), &json!(false)),
        "{v}"
    );
    assert!(v.get("solution").is_none() && v["reply"].is_null(), "{v}");
    assert!(!v.to_string().contains(&helped.solution[0]), "{v}");
    for _ in 0..2 {
        let (_, v) = post(&c, &path, &json!({"moves": [helped.solution[0]]})).await;
        assert_eq!(
            (&v["done"], &v["counted"]),
            (&json!(true), &json!(false)),
            "{v}"
        );
    }
    assert_eq!(
        progress(&c).await,
        json!([
            format!("puzzle-helped:{}", helped.id),
            format!("puzzle:{}", clean.id)
        ])
    );
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    a_puzzle_counts_only_when_solved_without_help,
    progress_needs_a_cookie_and_is_limited,
    progress_is_kept_per_player_and_moves_to_the_account,
    a_queen_drill_is_played_to_mate,
    puzzles_are_listed_without_solutions_and_judged,
);
