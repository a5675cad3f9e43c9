//! `plyyard serve --redis` refuses at start, with a clear message and exit
//! status 1, what cannot make a cluster: SQLite, an unreadable Redis URL,
//! a Redis nobody answers at, a bad node id.

use std::process::Command;

fn serve(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .env_remove("PLYYARD_REDIS")
        .env_remove("PLYYARD_NODE_ID")
        .output()
        .expect("plyyard runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), stderr)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn redis_with_sqlite_is_refused() {
    // Refused before the database is opened: no file is made.
    let db = std::env::temp_dir().join(format!("plyyard-flags-{}.db", std::process::id()));
    let url = format!("sqlite://{}", db.display());
    let (code, err) = serve(&["--db", &url, "--redis", "redis://127.0.0.1:6379/0"]);
    assert!(!db.exists());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--redis needs a PostgreSQL database"), "{err}");
}

#[test]
fn a_bad_or_unreachable_redis_is_refused() {
    let pg = "postgres://nobody@127.0.0.1:1/none";
    let (code, err) = serve(&["--db", pg, "--redis", "http://nope"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad Redis URL"), "{err}");
    let url = format!("redis://127.0.0.1:{}/0", free_port());
    let started = std::time::Instant::now();
    let (code, err) = serve(&["--db", pg, "--redis", &url]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot use Redis at"), "{err}");
    assert!(started.elapsed().as_secs() < 15, "{err}");
}

#[test]
fn a_bad_node_id_is_refused() {
    let (code, err) = serve(&["--node-id", "two words"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("node id"), "{err}");
}
