//! A real Redis server for tests ([`TestRedis`]): Debian's `redis-server`
//! on a free loopback port in a temporary folder, stopped when dropped.
//! Without `redis-server` the tests that ask for one are skipped, unless
//! [`REQUIRE_REDIS_ENV`] is set (as `.ci/run` sets it): then they fail.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Set to make a missing `redis-server` fail the tests that need it.
pub const REQUIRE_REDIS_ENV: &str = "PLYYARD_REQUIRE_REDIS";

/// A Redis server started for a test.
#[derive(Debug)]
pub struct TestRedis {
    child: Child,
    port: u16,
    password: Option<String>,
    _dir: tempfile::TempDir,
}

impl TestRedis {
    /// Starts one on a free port; `None` (the test skips) when
    /// `redis-server` cannot run and [`REQUIRE_REDIS_ENV`] is not set.
    ///
    /// # Panics
    /// When it cannot run and [`REQUIRE_REDIS_ENV`] is set.
    pub fn start() -> Option<TestRedis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        TestRedis::on(port)
    }

    /// Starts one on `port` (to restart a server stopped by dropping it).
    ///
    /// # Panics
    /// As [`TestRedis::start`].
    pub fn on(port: u16) -> Option<TestRedis> {
        TestRedis::spawn(port, None)
    }

    /// Starts one on a free port that asks clients for `password`.
    ///
    /// # Panics
    /// As [`TestRedis::start`].
    pub fn with_password(password: &str) -> Option<TestRedis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        TestRedis::spawn(port, Some(password.to_owned()))
    }

    fn spawn(port: u16, password: Option<String>) -> Option<TestRedis> {
        let dir = tempfile::tempdir().ok()?;
        let mut cmd = Command::new("redis-server");
        cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path());
        if let Some(p) = &password {
            cmd.args(["--requirepass", p]);
        }
        let spawned = cmd.stdout(Stdio::null()).spawn();
        let child = match spawned {
            Ok(c) => c,
            Err(e) => {
                assert!(
                    std::env::var_os(REQUIRE_REDIS_ENV).is_none(),
                    "redis-server cannot run: {e}"
                );
                eprintln!("skipped: redis-server cannot run ({e})");
                return None;
            }
        };
        for _ in 0..250 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(TestRedis {
            child,
            port,
            password,
            _dir: dir,
        })
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its URL (`redis://127.0.0.1:PORT/0`, with `:PASSWORD@` before the
    /// host when it asks for one).
    pub fn url(&self) -> String {
        match &self.password {
            Some(p) => format!("redis://:{p}@127.0.0.1:{}/0", self.port),
            None => format!("redis://127.0.0.1:{}/0", self.port),
        }
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
