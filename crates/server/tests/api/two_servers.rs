//! Two servers on one database (as behind a load balancer on PostgreSQL):
//! a game written through one is never overwritten by the other's stale
//! copy; the stale server answers `conflict`, reloads, and goes on.

use std::time::Duration;

use plyyard_testkit::{Client, Socket, TestDb, TestServer, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

async fn play(ws: &mut Socket, id: u64, uci: &str) -> Value {
    send_json(ws, &json!({"t": "move", "id": id, "uci": uci}))
        .await
        .unwrap();
    recv_until(ws, WAIT, |m| m["id"] == id).await.unwrap()
}

async fn until_ply(ws: &mut Socket, ply: u64) {
    recv_until(ws, WAIT, |m| m["t"] == "event" && m["game"]["ply"] == ply)
        .await
        .unwrap();
}

async fn a_stale_server_never_overwrites_a_game(db: TestDb) {
    let (a, b) = (
        TestServer::start(db.url(), 0.05).await,
        TestServer::start(db.url(), 0.05).await,
    );
    let on_a = a.client();
    let game = on_a
        .new_game(&json!({"level": "beginner", "color": "white"}))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let mut ws_a = on_a.game_socket(&id, None).await.unwrap();
    assert_eq!(play(&mut ws_a, 1, "e2e4").await["t"], "ack");
    until_ply(&mut ws_a, 2).await;

    // The same player on the other server (the cookie secret is shared
    // through the database).
    let on_b = Client::new(b.addr);
    on_b.set_cookie("plyyard_player", &on_a.cookie("plyyard_player").unwrap());
    let mut ws_b = on_b.game_socket(&id, None).await.unwrap();
    assert_eq!(play(&mut ws_b, 1, "d2d4").await["t"], "ack");
    until_ply(&mut ws_b, 4).await;

    // Server A still holds the game at ply 2: its write is refused whole.
    let refused = play(&mut ws_a, 2, "g1f3").await;
    assert_eq!(refused["t"], "error", "{refused}");
    assert_eq!(refused["code"], "conflict", "{refused}");
    let stored: Value = on_b.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(stored["ply"], 4, "{stored}");
    assert_eq!(stored["moves"][2]["uci"], "d2d4");

    // Server A reloads the game and plays on from the stored position.
    let mut ws_a = on_a.game_socket(&id, None).await.unwrap();
    assert_eq!(play(&mut ws_a, 3, "g1f3").await["t"], "ack");
    until_ply(&mut ws_a, 6).await;
    let pgn = on_a
        .get(&format!("/api/games/{id}/pgn"))
        .await
        .unwrap()
        .text();
    assert!(
        pgn.contains("1. e4") && pgn.contains("2. d4") && pgn.contains("3. Nf3"),
        "{pgn}"
    );
    a.stop().await;
    b.stop().await;
}

plyyard_testkit::both_backends!(a_stale_server_never_overwrites_a_game);
