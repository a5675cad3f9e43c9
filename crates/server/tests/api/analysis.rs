//! The analysis board's positions over real HTTP, on SQLite and
//! PostgreSQL: a move played from a FEN (SAN, position, legal moves and
//! opening name from the server), the tree of a FEN, of a finished game
//! and of a PGN with nested variations, and every bound (FEN length, move
//! text, PGN size, moves in a tree, variation depth, unfinished games)
//! refused with a clear 4xx.

use plyyard_testkit::{Client, TestDb, TestServer};
use serde_json::{Value, json};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

async fn post(c: &Client, path: &str, body: &Value) -> (u16, Value) {
    let r = c.post_json(path, body).await.unwrap();
    let v = r.json().unwrap_or(Value::Null);
    (r.status, v)
}

/// The nodes of a tree answer as (parent, SAN).
fn shape(v: &Value) -> Vec<(Option<u64>, String)> {
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["parent"].as_u64(),
                n["san"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

async fn a_move_is_played_by_the_server(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let (status, v) = post(
        &c,
        "/api/analysis/move",
        &json!({"fen": START, "uci": "e2e4"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["san"], "e4");
    assert_eq!(v["uci"], "e2e4");
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(v["dests"]["g8"], json!(["f6", "h6"]));
    assert_eq!(v["opening"]["eco"], "B00");
    let (_, v) = post(
        &c,
        "/api/analysis/move",
        &json!({"fen": v["fen"], "uci": "c7c5"}),
    )
    .await;
    assert_eq!(
        v["opening"],
        json!({"eco": "B20", "name": "Sicilian Defense"})
    );

    // Castling, promotion and mate come back as the server writes them.
    let (_, v) = post(
        &c,
        "/api/analysis/move",
        &json!({"fen": "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "uci": "e1g1"}),
    )
    .await;
    assert_eq!(v["san"], "O-O+");
    let (_, v) = post(
        &c,
        "/api/analysis/move",
        &json!({"fen": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "uci": "a1a8"}),
    )
    .await;
    assert_eq!(v["san"], "Ra8#");
    assert_eq!(v["dests"], json!({}));
    assert_eq!(v["opening"], Value::Null);

    for (body, status, needle) in [
        (json!({"fen": START, "uci": "e2e5"}), 422, "illegal"),
        (
            json!({"fen": START, "uci": "e2e4e2e4e2"}),
            400,
            "at most 8 bytes",
        ),
        (
            json!({"fen": "x".repeat(200), "uci": "e2e4"}),
            400,
            "at most 128 bytes",
        ),
        (json!({"fen": "not a fen", "uci": "e2e4"}), 400, ""),
        (json!({"fen": START}), 400, "uci"),
        (json!({"fen": START, "uci": "e2e4", "more": 1}), 400, "more"),
    ] {
        let (s, v) = post(&c, "/api/analysis/move", &body).await;
        assert_eq!(s, status, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(needle), "{body}: {message}");
    }
    srv.stop().await;
}

async fn trees_come_from_a_fen_a_game_or_a_pgn(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();

    let (status, v) = post(&c, "/api/analysis/tree", &json!({"fen": START})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(shape(&v), [(None, String::new())]);
    assert_eq!(v["nodes"][0]["fen"], START);
    assert_eq!(v["nodes"][0]["dests"]["b1"], json!(["a3", "c3"]));

    let pgn =
        "[Event \"t\"]\n\n1. e4 {a comment} c5 (1... e5 2. Nf3 (2. Bc4) 2... Nc6) 2. Nf3 $1 d6 *";
    let (status, v) = post(&c, "/api/analysis/tree", &json!({"pgn": pgn})).await;
    assert_eq!(status, 200, "{v}");
    let want: Vec<(Option<u64>, String)> = [
        (None, ""),
        (Some(0), "e4"),
        (Some(1), "c5"),
        (Some(1), "e5"),
        (Some(3), "Nf3"),
        (Some(3), "Bc4"),
        (Some(4), "Nc6"),
        (Some(2), "Nf3"),
        (Some(7), "d6"),
    ]
    .into_iter()
    .map(|(p, s)| (p, s.to_owned()))
    .collect();
    assert_eq!(shape(&v), want);
    // The PGN's tags come back, for the board's export to keep.
    assert_eq!(v["tags"][0], json!(["Event", "t"]), "{v}");
    assert_eq!(v["nodes"][2]["opening"]["name"], "Sicilian Defense");
    assert_eq!(v["nodes"][6]["opening"]["eco"], "C44");

    // A stored, finished game: its moves are the main line.
    let r = c
        .post_json(
            "/api/import",
            &json!({"pgn": "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json::<Value>().unwrap()["games"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, v) = post(&c, "/api/analysis/tree", &json!({"game": id})).await;
    assert_eq!(status, 200, "{v}");
    let sans: Vec<String> = shape(&v).into_iter().skip(1).map(|(_, s)| s).collect();
    assert_eq!(sans, ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    assert_eq!(v["nodes"][7]["dests"], json!({}));
    // A stored game's tags are those of its PGN download.
    let tags = v["tags"].as_array().expect("tags");
    assert!(tags.contains(&json!(["Result", "1-0"])), "{v}");
    assert!(tags.iter().any(|t| t[0] == "Event"), "{v}");
    let (_, fen_tree) = post(&c, "/api/analysis/tree", &json!({"fen": START})).await;
    assert_eq!(fen_tree["tags"], json!([]));

    // A game still being played is not opened on the analysis board.
    let g = c
        .new_game(&json!({"level": "beginner", "color": "white"}))
        .await;
    let (status, v) = post(&c, "/api/analysis/tree", &json!({"game": g["id"]})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over")),
        "{v}"
    );
    let (status, _) = post(&c, "/api/analysis/tree", &json!({"game": "nosuchgame"})).await;
    assert_eq!(status, 404);
    srv.stop().await;
}

async fn trees_are_bounded_and_bad_pgn_is_named(db: TestDb) {
    let srv = TestServer::start(db.url(), 0.25).await;
    let c = srv.client();
    let refused = async |body: Value| -> (u16, String) {
        let (s, v) = post(&c, "/api/analysis/tree", &body).await;
        (
            s,
            v["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
    };
    assert_eq!(
        refused(json!({"pgn": "1. e4 e5 2. Ke3 *"})).await,
        (422, "move 2. Ke3: illegal".to_owned())
    );
    assert_eq!(
        refused(json!({"pgn": "(1. d4) 1. e4 *"})).await,
        (422, "a variation opens before the first move".to_owned())
    );
    assert_eq!(
        refused(json!({"pgn": ""})).await,
        (422, "no game found in the PGN".to_owned())
    );
    // Knights out and back: 2,001 moves in all.
    let mut long = String::new();
    for i in 0..501 {
        long.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2));
    }
    long.push('*');
    assert_eq!(
        refused(json!({"pgn": long})).await,
        (422, "more than 2000 moves".to_owned())
    );
    let mut deep = "1. e4 e5 ".to_owned();
    for _ in 0..33 {
        deep.push_str("(1... c5 ");
    }
    for _ in 0..33 {
        deep.push(')');
    }
    assert_eq!(
        refused(json!({"pgn": deep})).await,
        (422, "variations nested more than 32 deep".to_owned())
    );
    let (status, msg) = refused(json!({"pgn": format!("{{{}}} *", "x".repeat(70_000))})).await;
    assert_eq!(status, 413, "{msg}");
    assert!(msg.contains("64 KiB"), "{msg}");
    let (status, _) = refused(json!({"fen": START, "pgn": "1. e4 *"})).await;
    assert_eq!(status, 400);
    let (status, _) = refused(json!({})).await;
    assert_eq!(status, 400);
    let (status, msg) = refused(json!({"fen": "x".repeat(129)})).await;
    assert_eq!((status, msg.contains("128")), (400, true));
    srv.stop().await;
}

plyyard_testkit::both_backends!(
    a_move_is_played_by_the_server,
    trees_come_from_a_fen_a_game_or_a_pgn,
    trees_are_bounded_and_bad_pgn_is_named,
);
