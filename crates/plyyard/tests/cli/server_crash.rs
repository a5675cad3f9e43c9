//! The real binary is killed with SIGKILL in the middle of a game and
//! restarted on the same database, SQLite and PostgreSQL: every
//! acknowledged move is still there, the player's cookie still works, and
//! the computer resumes its turn.

use std::path::Path;
use std::time::Duration;

use plyyard_testkit::{Client, ServerProcess, Socket, TestDb, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// Starts `plyyard serve` on `db` and a free port.
async fn start(db: &TestDb) -> ServerProcess {
    ServerProcess::start(
        Path::new(env!("CARGO_BIN_EXE_plyyard")),
        db.url(),
        &["--think-time-factor", "0.25"],
    )
    .await
}

async fn open(c: &Client, id: &str, v: u64) -> Socket {
    c.game_socket(id, Some(v)).await.expect("socket opens")
}

async fn play(ws: &mut Socket, n: u64, uci: &str) -> Value {
    send_json(ws, &json!({"t":"move","id":n,"uci":uci}))
        .await
        .unwrap();
    recv_until(ws, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
        .await
        .unwrap()
}

/// The state at `ply` from the socket, and the move that made it (an
/// event carries its own move, not the whole list).
async fn until_ply(ws: &mut Socket, ply: u64) -> Value {
    let m = recv_until(ws, WAIT, |m| {
        (m["t"] == "event" || m["t"] == "full") && m["game"]["ply"] == ply
    })
    .await
    .unwrap();
    let mut game = m["game"].clone();
    game["last"] = m["move"].clone();
    game
}

async fn kill_dash_nine_loses_no_acknowledged_move(db: TestDb) {
    let first = start(&db).await;
    let mut c = first.client();
    let r = c
        .post(
            "/api/computer-games",
            r#"{"level":"expert","color":"white","variant":"standard"}"#,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let g: Value = r.json().unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let mut ws = open(&c, &id, 0).await;
    // Each of our moves is played from the dests the server gives.
    let mut state = g;
    let mut acked = 0;
    let mut last_uci = String::new();
    for n in 0..4u64 {
        let dests = state["dests"].as_object().unwrap().clone();
        let (from, tos) = dests.iter().next_back().unwrap();
        let uci = format!("{from}{}", tos[0].as_str().unwrap());
        let ack = play(&mut ws, n, &uci).await;
        assert_eq!(ack["t"], "ack", "{ack}");
        acked = ack["v"].as_u64().unwrap();
        last_uci = uci;
        if n < 3 {
            state = until_ply(&mut ws, 2 * n + 2).await;
        }
    }
    // The last move is acknowledged, the computer is thinking: kill now.
    first.kill().await;
    drop(ws);

    let second = start(&db).await;
    c.set_addr(second.addr);
    let r = c.get(&format!("/api/games/{id}")).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let s: Value = r.json().unwrap();
    assert_eq!(s["you"], "white", "the cookie survives a restart");
    // Killed while the computer was thinking (expert searches for its
    // whole budget): our last move is there and the computer is on it.
    assert_eq!(s["v"].as_u64().unwrap(), acked, "{s}");
    assert_eq!(s["ply"], 7, "{s}");
    assert_eq!(s["moves"][6]["uci"], last_uci.as_str());
    assert_eq!(s["thinking"], true, "{s}");
    // The computer resumes its turn and the game goes on.
    let mut ws = open(&c, &id, 0).await;
    let g = until_ply(&mut ws, 8).await;
    assert_eq!(g["turn"], "white");
    let g = c.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(g["moves"][6]["uci"], last_uci.as_str());
    second.kill().await;
}

async fn sigterm_stops_the_server_cleanly_even_with_open_sockets(db: TestDb) {
    let running = start(&db).await;
    let mut c = running.client();
    let r = c
        .post(
            "/api/computer-games",
            r#"{"level":"beginner","color":"white"}"#,
        )
        .await
        .unwrap();
    let g: Value = r.json().unwrap();
    let mut ws = open(&c, g["id"].as_str().unwrap(), 0).await;
    assert_eq!(play(&mut ws, 1, "e2e4").await["t"], "ack");
    let exit = running.terminate(Duration::from_secs(15)).await;
    assert!(exit.success(), "{exit:?}");
    drop(ws);
    // The database is intact and reopens with the move.
    let again = start(&db).await;
    c.set_addr(again.addr);
    let games: Value = c.get("/api/my-games").await.unwrap().json().unwrap();
    assert!(games[0]["plies"].as_u64().unwrap() >= 1, "{games}");
    again.kill().await;
}

/// A small deterministic generator for choosing moves (xorshift64).
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One of the player's legal moves in `state`, promoting to a queen. The
/// king-onto-rook alias of castling that the board accepts is left out, so
/// every move picked is written as the server stores it.
fn pick(state: &Value, rng: &mut Xorshift) -> Option<String> {
    let board: Vec<&str> = state["fen"]
        .as_str()?
        .split(' ')
        .next()?
        .split('/')
        .collect();
    let mut all = Vec::new();
    for (from, tos) in state["dests"].as_object()? {
        let mover = piece_at(&board, from);
        for to in tos.as_array()? {
            let to = to.as_str()?;
            let target = piece_at(&board, to);
            if target == ' ' || target.is_uppercase() != mover.is_uppercase() {
                all.push(format!("{from}{to}"));
            }
        }
    }
    if all.is_empty() {
        return None;
    }
    let mut uci = all.swap_remove(rng.below(all.len()));
    let last_rank = matches!(uci.as_bytes()[3], b'1' | b'8');
    if piece_at(&board, &uci[..2]).eq_ignore_ascii_case(&'p') && last_rank {
        uci.push('q');
    }
    Some(uci)
}

/// The piece on `square` (such as "e4") of a FEN board's ranks, or ' '.
fn piece_at(board: &[&str], square: &str) -> char {
    let (file, rank) = (square.as_bytes()[0] - b'a', square.as_bytes()[1] - b'1');
    let mut f = 0u8;
    for ch in board[7 - rank as usize].chars() {
        match ch.to_digit(10) {
            Some(n) => f += n as u8,
            None if f == file => return ch,
            None => f += 1,
        }
    }
    ' '
}

async fn repeated_kills_keep_every_move_the_client_saw(db: TestDb) {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut c: Option<Client> = None;
    let mut id = String::new();
    let mut seen: Vec<String> = Vec::new();
    for round in 0..4 {
        let server = start(&db).await;
        let client = c.get_or_insert_with(|| server.client());
        client.set_addr(server.addr);
        let stop_after = 2 + rng.below(4);
        let mut state: Value = if round == 0 {
            let r = client
                .post(
                    "/api/computer-games",
                    r#"{"level":"beginner","color":"white"}"#,
                )
                .await
                .unwrap();
            r.json().unwrap()
        } else {
            let r = client.get(&format!("/api/games/{id}")).await.unwrap();
            r.json().unwrap()
        };
        id = state["id"].as_str().unwrap().to_owned();
        // Everything seen before the kill is still there.
        let moves: Vec<String> = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_owned())
            .collect();
        assert!(
            moves.len() >= seen.len() && moves[..seen.len()] == seen[..],
            "round {round}: stored {moves:?}, seen {seen:?}"
        );
        seen = moves;
        let mut ws = open(client, &id, state["v"].as_u64().unwrap()).await;
        if state["status"] == "ongoing" && (state["thinking"] == true || state["turn"] != "white") {
            state = until_ply(&mut ws, seen.len() as u64 + 1).await;
            seen.push(state["last"]["uci"].as_str().unwrap().to_owned());
        }
        for n in 0..stop_after {
            if state["status"] != "ongoing" {
                break;
            }
            let uci = pick(&state, &mut rng).unwrap();
            let ack = play(&mut ws, n as u64, &uci).await;
            assert_eq!(ack["t"], "ack", "{uci}: {ack}");
            seen.push(uci);
            if n + 1 == stop_after {
                break; // kill right after the ack, the computer thinking
            }
            let ply = seen.len() as u64 + 1;
            let reply = recv_until(&mut ws, WAIT, |m| {
                m["t"] == "event" && (m["game"]["ply"] == ply || m["game"]["status"] == "ended")
            })
            .await
            .unwrap();
            state = reply["game"].clone();
            if state["ply"] == ply {
                seen.push(reply["move"]["uci"].as_str().unwrap().to_owned());
            }
        }
        server.kill().await;
    }
    assert!(seen.len() >= 6, "the rounds played too little: {seen:?}");
}

async fn signup(c: &Client, name: &str) {
    let r = c
        .post_json(
            "/api/account/signup",
            &json!({"username": name, "password": "Knight-f3 takes e5!"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
}

/// A table game killed mid-game: every acknowledged move and its clock
/// come back, and the time the server was down is not charged to anyone.
async fn a_table_game_survives_kill_dash_nine_with_its_clocks(db: TestDb) {
    let first = start(&db).await;
    let (host, guest) = (first.client(), first.client());
    signup(&host, "crashhost").await;
    signup(&guest, "crashguest").await;
    let table: Value = host
        .post_json("/api/tables", &json!({"minutes": 3, "increment": 2}))
        .await
        .unwrap()
        .json()
        .unwrap();
    let code = table["code"].as_str().unwrap();
    let joined: Value = guest
        .post_empty(&format!("/api/tables/{code}/join"))
        .await
        .unwrap()
        .json()
        .unwrap();
    let id = joined["game_id"].as_str().unwrap().to_owned();
    let state = host.get_value(&format!("/api/games/{id}")).await;
    let (mut white, mut black) = if state["you"] == "white" {
        (host, guest)
    } else {
        (guest, host)
    };
    let mut w = open(&white, &id, 0).await;
    let mut b = open(&black, &id, 0).await;
    for (n, (side, uci)) in [("w", "e2e4"), ("b", "e7e5"), ("w", "g1f3"), ("b", "b8c6")]
        .into_iter()
        .enumerate()
    {
        let ws = if side == "w" { &mut w } else { &mut b };
        assert_eq!(play(ws, n as u64, uci).await["t"], "ack", "{uci}");
    }
    let before = white.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(before["clock"]["running"], "white");
    first.kill().await;
    drop((w, b));
    // Down for a while: nobody's clock runs meanwhile.
    std::thread::sleep(Duration::from_millis(1500));

    let second = start(&db).await;
    white.set_addr(second.addr);
    black.set_addr(second.addr);
    let after = white.get_value(&format!("/api/games/{id}")).await;
    assert_eq!(after["ply"], 4, "{after}");
    assert_eq!(after["moves"][3]["uci"], "b8c6");
    assert_eq!(after["clock"]["black_ms"], before["clock"]["black_ms"]);
    // White's clock restarts from the time stored with White's last move:
    // about what it showed before the kill, and nothing of the 1.5 s down.
    let ms = |s: &Value| s["clock"]["white_ms"].as_i64().unwrap();
    let charged = ms(&before) - ms(&after);
    assert!(
        charged < 1000,
        "white was charged {charged} ms for the downtime"
    );
    assert!(ms(&after) <= 180_000 + 2 * 2_000, "{after}");
    let mut b = open(&black, &id, 0).await;
    let mut w = open(&white, &id, 0).await;
    assert_eq!(play(&mut w, 10, "f1b5").await["t"], "ack");
    assert_eq!(play(&mut b, 10, "a7a6").await["t"], "ack");
    let pgn = white
        .get(&format!("/api/games/{id}/pgn"))
        .await
        .unwrap()
        .text();
    assert!(pgn.contains("3. Bb5") && pgn.contains("[%clk"), "{pgn}");
    second.terminate(WAIT).await;
}

plyyard_testkit::both_backends!(
    a_table_game_survives_kill_dash_nine_with_its_clocks,
    kill_dash_nine_loses_no_acknowledged_move,
    sigterm_stops_the_server_cleanly_even_with_open_sockets,
    repeated_kills_keep_every_move_the_client_saw,
);
