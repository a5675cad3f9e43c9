//! The operator's commands against a running server, SQLite and
//! PostgreSQL: `plyyard backup` while games are played (the copy holds
//! every move acknowledged before it began, and a server started on the
//! copy — after `pg_restore` for PostgreSQL — serves them), its refusals
//! (an existing file, an unwritable path), and `plyyard admin role` on the
//! running site's database with its refusals.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use plyyard_testkit::{Backend, Client, ServerProcess, TestDb, recv_until, send_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);
const BIN: &str = env!("CARGO_BIN_EXE_plyyard");
/// Games played at once while the backup runs, and our moves in each.
const GAMES: usize = 3;
const MOVES: u64 = 8;

async fn start(db: &str) -> ServerProcess {
    ServerProcess::start(Path::new(BIN), db, &["--think-time-factor", "0.05"]).await
}

/// `plyyard ARGS…`: (success, stderr).
fn plyyard(args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Plays `MOVES` of white's moves against the beginner, counting each
/// acknowledged one in `acked`; returns the game's id.
async fn play(c: Client, acked: Arc<AtomicU64>, id: String) {
    let mut ws = c.game_socket(&id, Some(0)).await.unwrap();
    let mut state = c.get_value(&format!("/api/games/{id}")).await;
    for n in 0..MOVES {
        let dests = state["dests"].as_object().unwrap().clone();
        let Some((from, tos)) = dests.iter().next() else {
            return;
        };
        let uci = format!("{from}{}", tos[0].as_str().unwrap());
        send_json(&mut ws, &json!({"t": "move", "id": n, "uci": uci}))
            .await
            .unwrap();
        let ack = recv_until(&mut ws, WAIT, |m| m["t"] == "ack" || m["t"] == "error")
            .await
            .unwrap();
        if ack["t"] != "ack" {
            return;
        }
        acked.store(n + 1, Ordering::SeqCst);
        let ply = 2 * n + 2;
        let reply = recv_until(&mut ws, WAIT, |m| {
            (m["t"] == "event" || m["t"] == "full") && m["game"]["ply"].as_u64() >= Some(ply)
                || m["game"]["status"] == "ended"
        })
        .await
        .unwrap();
        if reply["game"]["status"] == "ended" {
            return;
        }
        state = c.get_value(&format!("/api/games/{id}")).await;
    }
}

async fn a_backup_while_games_are_played_holds_every_acknowledged_move(db: TestDb) {
    let server = start(db.url()).await;
    let mut games = Vec::new();
    for _ in 0..GAMES {
        let c = server.client();
        let g: Value = c
            .post(
                "/api/computer-games",
                r#"{"level":"beginner","color":"white"}"#,
            )
            .await
            .unwrap()
            .json()
            .unwrap();
        let id = g["id"].as_str().unwrap().to_owned();
        let acked = Arc::new(AtomicU64::new(0));
        let task = tokio::spawn(play(c, Arc::clone(&acked), id.clone()));
        games.push((id, acked, task));
    }
    // Some moves in, the backup runs while the games go on.
    let t0 = std::time::Instant::now();
    while games
        .iter()
        .map(|g| g.1.load(Ordering::SeqCst))
        .sum::<u64>()
        < GAMES as u64 * 2
    {
        assert!(t0.elapsed() < WAIT, "the games do not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("backup.copy");
    let out_s = out.to_str().unwrap().to_owned();
    let before: Vec<u64> = games.iter().map(|g| g.1.load(Ordering::SeqCst)).collect();
    let url = db.url().to_owned();
    let args = ["backup", "--db", url.as_str(), "--out", out_s.as_str()].map(str::to_owned);
    let (ok, err) = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        plyyard(&args)
    })
    .await
    .unwrap();
    assert!(ok, "{err}");
    for (_, _, task) in games.iter_mut() {
        task.await.unwrap();
    }
    let live = server.client();
    let mut played = Vec::new();
    for (id, _, _) in &games {
        played.push(live.get_value(&format!("/api/games/{id}")).await["moves"].clone());
    }
    let went_on = played
        .iter()
        .zip(&before)
        .any(|(m, b)| m.as_array().unwrap().len() as u64 > 2 * b);
    assert!(
        went_on,
        "the games went on after the backup began: {before:?}"
    );
    // Refusals: never over an existing file, never into a missing folder.
    let (ok, err) = plyyard(&["backup", "--db", db.url(), "--out", &out_s]);
    assert!(!ok && err.contains("exist"), "{err}");
    let (ok, err) = plyyard(&["backup", "--db", db.url(), "--out", "/nonexistent/dir/copy"]);
    assert!(!ok, "{err}");
    server.kill().await;

    // Restoring is starting a server on the copy.
    let restored;
    let copy_url = if db.backend() == Backend::Postgres {
        restored = TestDb::new(Backend::Postgres).await.unwrap();
        let r = Command::new("pg_restore")
            .args(["--no-owner", "--dbname", restored.url(), &out_s])
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        restored.url().to_owned()
    } else {
        format!("sqlite://{out_s}")
    };
    let copy = start(&copy_url).await;
    let c = copy.client();
    for (((id, _, _), acked), moves) in games.iter().zip(&before).zip(&played) {
        let g = c.get_value(&format!("/api/games/{id}")).await;
        let kept = g["moves"].as_array().unwrap();
        // Each acknowledged white move and the reply before it.
        let want = (2 * acked).saturating_sub(1) as usize;
        assert!(
            kept.len() >= want,
            "game {id}: {} moves kept, {acked} acknowledged",
            kept.len()
        );
        assert_eq!(
            kept[..],
            moves.as_array().unwrap()[..kept.len()],
            "game {id}"
        );
    }
    copy.kill().await;
}

async fn admin_role_works_on_a_running_sites_database(db: TestDb) {
    let server = start(db.url()).await;
    let c = server.client();
    let r = c
        .post_json(
            "/api/account/signup",
            &json!({"username": "Olga", "password": "Knight-f3 takes e5!"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201);
    assert_eq!(c.get("/api/mod/log").await.unwrap().status, 403);
    let (ok, err) = plyyard(&[
        "admin",
        "role",
        "--db",
        db.url(),
        "--user",
        "olga",
        "--role",
        "admin",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("Olga is now admin"), "{err}");
    assert_eq!(c.get_value("/api/session").await["role"], "admin");
    let log = c.get_value("/api/mod/log").await;
    assert_eq!(log["entries"][0]["action"], "role", "{log}");
    assert!(
        log["entries"][0]["moderator"].is_null(),
        "the command line's entry: {log}"
    );
    let (ok, err) = plyyard(&[
        "admin",
        "role",
        "--db",
        db.url(),
        "--user",
        "Olga",
        "--role",
        "admin",
    ]);
    assert!(ok && err.contains("already"), "{err}");
    let (ok, err) = plyyard(&[
        "admin",
        "role",
        "--db",
        db.url(),
        "--user",
        "Olga",
        "--role",
        "king",
    ]);
    assert!(!ok && err.contains("--role"), "{err}");
    let (ok, err) = plyyard(&[
        "admin",
        "role",
        "--db",
        db.url(),
        "--user",
        "Nobody",
        "--role",
        "none",
    ]);
    assert!(!ok && err.contains("no account"), "{err}");
    let (ok, err) = plyyard(&[
        "admin",
        "role",
        "--db",
        db.url(),
        "--user",
        "Olga",
        "--role",
        "none",
    ]);
    assert!(ok, "{err}");
    assert_eq!(c.get("/api/mod/log").await.unwrap().status, 403);
    server.kill().await;
}

plyyard_testkit::both_backends!(
    a_backup_while_games_are_played_holds_every_acknowledged_move,
    admin_role_works_on_a_running_sites_database,
);
