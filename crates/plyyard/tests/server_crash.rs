//! The real binary is killed with SIGKILL in the middle of a game and
//! restarted on the same database: every acknowledged move is still there,
//! the player's cookie still works, and the computer resumes its turn.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use server::client::{Client, Socket, block_on, recv_until, send_json};

const WAIT: Duration = Duration::from_secs(30);

struct Running {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `plyyard serve` on a free port and waits for its "listening on" line.
fn start(db: &Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--think-time-factor",
            "0.25",
        ])
        .arg("--db")
        .arg(format!("sqlite://{}", db.display()))
        .env_remove("PLYYARD_SECRET")
        .env("PLYYARD_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start plyyard");
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if !sent && let Some(rest) = line.split("listening on http://").nth(1) {
                let _ = tx.send(rest.trim().to_owned());
                sent = true;
            }
        }
    });
    let addr = rx
        .recv_timeout(WAIT)
        .expect("the server prints its address")
        .parse()
        .expect("a socket address");
    Running { child, addr }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "plyyard-crash-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn open(c: &Client, id: &str, v: u64) -> Socket {
    c.socket(&format!("/api/games/{id}/socket?v={v}"), None)
        .await
        .expect("socket opens")
}

async fn play(ws: &mut Socket, n: u64, uci: &str) -> Value {
    send_json(ws, &json!({"t":"move","id":n,"uci":uci}))
        .await
        .unwrap();
    recv_until(ws, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
        .await
        .unwrap()
}

async fn until_ply(ws: &mut Socket, ply: u64) -> Value {
    recv_until(ws, WAIT, |m| {
        (m["t"] == "event" || m["t"] == "full") && m["game"]["ply"] == ply
    })
    .await
    .unwrap()["game"]
        .clone()
}

#[test]
fn kill_dash_nine_loses_no_acknowledged_move() {
    let dir = temp_dir();
    let db = dir.join("crash.db");

    let first = start(&db);
    let mut c = Client::new(first.addr);
    let (id, acked, last_uci) = block_on(async {
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
        let mut last = String::new();
        for n in 0..4u64 {
            let dests = state["dests"].as_object().unwrap().clone();
            let (from, tos) = dests.iter().next_back().unwrap();
            let uci = format!("{from}{}", tos[0].as_str().unwrap());
            let ack = play(&mut ws, n, &uci).await;
            assert_eq!(ack["t"], "ack", "{ack}");
            acked = ack["v"].as_u64().unwrap();
            last = uci;
            if n < 3 {
                state = until_ply(&mut ws, 2 * n + 2).await;
            }
        }
        (id, acked, last)
    });
    // The last move is acknowledged, the computer is thinking: kill now.
    drop(first);

    let second = start(&db);
    c.addr = second.addr;
    block_on(async {
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
        assert_eq!(g["moves"][6]["uci"], last_uci.as_str());
    });
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_stops_the_server_cleanly_even_with_open_sockets() {
    let dir = temp_dir();
    let db = dir.join("term.db");
    let mut running = start(&db);
    let mut c = Client::new(running.addr);
    let _ws = block_on(async {
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
        ws
    });
    let pid = running.child.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(s) = running.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server must stop within 15 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    drop(running);
    // The database is intact and reopens with the move.
    let again = start(&db);
    c.addr = again.addr;
    block_on(async {
        let games: Value = c.get("/api/my-games").await.unwrap().json().unwrap();
        assert!(games[0]["plies"].as_u64().unwrap() >= 1, "{games}");
    });
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
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

/// One of the player's legal moves in `state`, promoting to a queen.
fn pick(state: &Value, rng: &mut Xorshift) -> Option<String> {
    let mut all = Vec::new();
    for (from, tos) in state["dests"].as_object()? {
        for to in tos.as_array()? {
            all.push(format!("{from}{}", to.as_str()?));
        }
    }
    if all.is_empty() {
        return None;
    }
    let mut uci = all.swap_remove(rng.below(all.len()));
    let rank = |s: &str| s.as_bytes()[1];
    let board: Vec<&str> = state["fen"]
        .as_str()?
        .split(' ')
        .next()?
        .split('/')
        .collect();
    let (file, r) = (uci.as_bytes()[0] - b'a', rank(&uci) - b'1');
    let row = board[7 - r as usize];
    let mut f = 0u8;
    let mut piece = ' ';
    for ch in row.chars() {
        match ch.to_digit(10) {
            Some(n) => f += n as u8,
            None => {
                if f == file {
                    piece = ch;
                }
                f += 1;
            }
        }
    }
    if piece.eq_ignore_ascii_case(&'p') && matches!(rank(&uci[2..]), b'1' | b'8') {
        uci.push('q');
    }
    Some(uci)
}

#[test]
fn repeated_kills_keep_every_move_the_client_saw() {
    let dir = temp_dir();
    let db = dir.join("kills.db");
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut c: Option<Client> = None;
    let mut id = String::new();
    let mut seen: Vec<String> = Vec::new();
    for round in 0..4 {
        let server = start(&db);
        let client = c.get_or_insert_with(|| Client::new(server.addr));
        client.addr = server.addr;
        let stop_after = 2 + rng.below(4);
        let (new_id, after) = block_on(async {
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
            let gid = state["id"].as_str().unwrap().to_owned();
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
            let mut seen_now = moves;
            let mut ws = open(client, &gid, state["v"].as_u64().unwrap()).await;
            if state["status"] == "ongoing"
                && (state["thinking"] == true || state["turn"] != "white")
            {
                state = until_ply(&mut ws, seen_now.len() as u64 + 1).await;
                seen_now.push(
                    state["moves"].as_array().unwrap().last().unwrap()["uci"]
                        .as_str()
                        .unwrap()
                        .to_owned(),
                );
            }
            for n in 0..stop_after {
                if state["status"] != "ongoing" {
                    break;
                }
                let uci = pick(&state, &mut rng).unwrap();
                let ack = play(&mut ws, n as u64, &uci).await;
                assert_eq!(ack["t"], "ack", "{uci}: {ack}");
                seen_now.push(uci);
                if n + 1 == stop_after {
                    break; // kill right after the ack, the computer thinking
                }
                let ply = seen_now.len() as u64 + 1;
                let reply = recv_until(&mut ws, WAIT, |m| {
                    m["t"] == "event" && (m["game"]["ply"] == ply || m["game"]["status"] == "ended")
                })
                .await
                .unwrap();
                state = reply["game"].clone();
                if state["ply"] == ply {
                    seen_now.push(reply["move"]["uci"].as_str().unwrap().to_owned());
                }
            }
            (gid, seen_now)
        });
        id = new_id;
        seen = after;
        drop(server); // SIGKILL
    }
    assert!(seen.len() >= 6, "the rounds played too little: {seen:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
