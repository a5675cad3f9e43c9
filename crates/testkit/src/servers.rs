//! Servers for tests: [`TestServer`] runs the server library in-process on a
//! port-0 listener; [`ServerProcess`] runs the real `plyyard serve` binary,
//! to be stopped with SIGTERM or killed with SIGKILL; [`plyyard_binary`]
//! finds (and builds) that binary for tests outside its own package.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use plyyard_server::{Config, Server, Tuning};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::Client;

/// How long a server may take to start.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The tunables of most tests: two small engines, thinking `think` times
/// each level's budget.
pub fn tuning(think: f64) -> Tuning {
    Tuning {
        engine_workers: 2,
        engine_hash_mb: 4,
        think_time_factor: think,
        ..Tuning::default()
    }
}

/// The server library serving on `127.0.0.1:0` inside the test's runtime.
#[derive(Debug)]
pub struct TestServer {
    /// The address it listens on.
    pub addr: SocketAddr,
    db: String,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on the database `db` with [`tuning`]`(think)`.
    ///
    /// # Panics
    /// If the server does not start.
    pub async fn start(db: &str, think: f64) -> TestServer {
        TestServer::start_with(db, tuning(think)).await
    }

    /// Starts a server on the database `db` with `tuning`.
    ///
    /// # Panics
    /// If the server does not start.
    pub async fn start_with(db: &str, tuning: Tuning) -> TestServer {
        TestServer::start_config(Config {
            addr: "127.0.0.1:0".into(),
            db: db.to_owned(),
            tuning,
            ..Config::default()
        })
        .await
    }

    /// Starts a server with `config` (whose `addr` should be port 0).
    ///
    /// # Panics
    /// If the server does not start.
    pub async fn start_config(config: Config) -> TestServer {
        let db = config.db.clone();
        let server = Server::bind(config).await.expect("the server starts");
        let addr = server.local_addr().expect("a bound address");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .serve(async move {
                    let _ = rx.await;
                })
                .await
                .expect("the server runs");
        });
        TestServer {
            addr,
            db,
            stop: Some(tx),
            task: Some(task),
        }
    }

    /// A new client (no cookies) of this server.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }

    /// The database URL it serves.
    pub fn db(&self) -> &str {
        &self.db
    }

    /// Shuts the server down gracefully and waits until it has closed its
    /// database.
    ///
    /// # Panics
    /// If the server failed.
    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            t.await.expect("the server task ends cleanly");
        }
    }
}

/// The real binary serving on a free port; killed (SIGKILL) when dropped.
#[derive(Debug)]
pub struct ServerProcess {
    child: tokio::process::Child,
    /// The address it listens on.
    pub addr: SocketAddr,
}

/// The log filter of the servers the tests start: `info`, or
/// `PLYYARD_TEST_SERVER_LOG` (e.g. `info,plyyard_live=debug` to follow a cluster).
fn node_log_filter() -> String {
    std::env::var("PLYYARD_TEST_SERVER_LOG").unwrap_or_else(|_| "info".to_owned())
}

impl ServerProcess {
    /// Runs `bin serve --addr 127.0.0.1:0 --db <db> <args…>` and waits for
    /// its `listening on http://…` line. The child's log goes to this
    /// process's stderr.
    ///
    /// # Panics
    /// If it does not start within [`START_TIMEOUT`].
    pub async fn start(bin: &Path, db: &str, args: &[&str]) -> ServerProcess {
        ServerProcess::start_named(bin, db, args, "server").await
    }

    /// Like [`ServerProcess::start`], its log lines prefixed with `[name]`
    /// (to tell the nodes of a cluster apart).
    ///
    /// # Panics
    /// As [`ServerProcess::start`].
    pub async fn start_named(bin: &Path, db: &str, args: &[&str], name: &str) -> ServerProcess {
        let name = name.to_owned();
        let mut child = tokio::process::Command::new(bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .args(args)
            .env_remove("PLYYARD_SECRET")
            .env_remove("PLYYARD_DB")
            .env("PLYYARD_LOG", node_log_filter())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = oneshot::channel();
        tokio::spawn(async move {
            let mut tx = Some(tx);
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("[{name}] {line}");
                if let Some(rest) = line.split("listening on http://").nth(1)
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(rest.trim().to_owned());
                }
            }
        });
        let addr = match tokio::time::timeout(START_TIMEOUT, rx).await {
            Ok(Ok(addr)) => addr.parse().expect("a socket address"),
            Ok(Err(_)) => {
                let status = child.wait().await;
                panic!("the server exited before listening: {status:?}")
            }
            Err(_) => panic!("the server did not start within {START_TIMEOUT:?}"),
        };
        ServerProcess { child, addr }
    }

    /// A new client (no cookies) of this server.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }

    /// The child's process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Kills the server with SIGKILL and waits until it is gone.
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }

    /// Sends SIGTERM and waits up to `limit` for the server to exit.
    ///
    /// # Panics
    /// If the signal cannot be sent or the server outlives `limit` (it is
    /// then killed).
    pub async fn terminate(mut self, limit: Duration) -> ExitStatus {
        let pid = self.pid().expect("the server is running").to_string();
        let sent = tokio::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .await
            .expect("kill runs");
        assert!(sent.success(), "kill -TERM {pid} failed");
        match tokio::time::timeout(limit, self.child.wait()).await {
            Ok(status) => status.expect("the server's exit status"),
            Err(_) => panic!("the server did not stop within {limit:?} of SIGTERM"),
        }
    }
}

/// Where `PLYYARD_BIN` may name the binary to test.
pub const BIN_ENV: &str = "PLYYARD_BIN";

/// The `plyyard` binary, for tests of another package than its own (those
/// of `crates/plyyard` use `env!("CARGO_BIN_EXE_plyyard")`): `PLYYARD_BIN`
/// when set, else the binary of this test's own target folder and profile,
/// brought up to date by `cargo build -p plyyard` once per test process
/// (a no-op when it is: a test never runs a stale binary).
///
/// # Panics
/// If the build fails.
pub fn plyyard_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| match std::env::var_os(BIN_ENV) {
        Some(bin) if !bin.is_empty() => PathBuf::from(bin),
        _ => build_plyyard(),
    })
    .clone()
}

/// Runs `cargo build -p plyyard` into the target folder and profile of the
/// running test (`<target>/<profile>/deps/<test>`) and returns the binary.
fn build_plyyard() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("a test binary lives in <target>/<profile>/deps");
    let target = profile_dir.parent().expect("a target folder");
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args([
            "build",
            "-p",
            "plyyard",
            "--profile",
            profile,
            "--target-dir",
        ])
        .arg(target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p plyyard failed: {status}");
    profile_dir.join("plyyard")
}
