//! A real Redis server for tests ([`TestRedis`]): Debian's `redis-server`
//! on a free loopback port in a temporary folder, stopped when dropped;
//! with a password, or speaking TLS only under a throwaway certificate
//! made with the `openssl` command ([`TestRedis::with_tls`]).
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
    /// With TLS: the certificate of the authority that signed its own.
    ca: Option<std::path::PathBuf>,
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
        TestRedis::spawn(port, None, false)
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
        TestRedis::spawn(port, Some(password.to_owned()), false)
    }

    /// Starts one on a free port that speaks TLS only, its certificate
    /// (for `localhost` and `127.0.0.1`) signed by a throwaway authority
    /// ([`TestRedis::ca_file`]); `None` as [`TestRedis::start`], or when
    /// the `openssl` command is missing.
    ///
    /// # Panics
    /// As [`TestRedis::start`].
    pub fn with_tls() -> Option<TestRedis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        TestRedis::spawn(port, None, true)
    }

    fn spawn(port: u16, password: Option<String>, tls: bool) -> Option<TestRedis> {
        let dir = tempfile::tempdir().ok()?;
        let mut cmd = Command::new("redis-server");
        if tls {
            let Some(ca) = throwaway_certificates(dir.path()) else {
                eprintln!("skipped: the openssl command cannot make a certificate");
                return None;
            };
            let at = |f: &str| dir.path().join(f);
            cmd.args(["--port", "0", "--tls-port", &port.to_string()])
                .arg("--tls-cert-file")
                .arg(at("server.pem"))
                .arg("--tls-key-file")
                .arg(at("server.key"))
                .arg("--tls-ca-cert-file")
                .arg(ca)
                .args(["--tls-auth-clients", "no"]);
        } else {
            cmd.args(["--port", &port.to_string()]);
        }
        cmd.args(["--bind", "127.0.0.1"])
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
            ca: tls.then(|| dir.path().join("ca.pem")),
            _dir: dir,
        })
    }

    /// With TLS, the file of the authority that signed its certificate
    /// (PEM), which a client must trust.
    pub fn ca_file(&self) -> Option<&std::path::Path> {
        self.ca.as_deref()
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its URL (`redis://127.0.0.1:PORT/0`, with `:PASSWORD@` before the
    /// host when it asks for one; `rediss://localhost:PORT/0` with TLS).
    pub fn url(&self) -> String {
        match (&self.password, &self.ca) {
            (_, Some(_)) => format!("rediss://localhost:{}/0", self.port),
            (Some(p), None) => format!("redis://:{p}@127.0.0.1:{}/0", self.port),
            (None, None) => format!("redis://127.0.0.1:{}/0", self.port),
        }
    }
}

/// Makes in `dir` a throwaway authority (`ca.pem`) and a server
/// certificate it signed for `localhost` and `127.0.0.1` (`server.pem`,
/// `server.key`) with the `openssl` command; the authority's file.
fn throwaway_certificates(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let ext = dir.join("server.ext");
    std::fs::write(
        &ext,
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
         keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
    )
    .ok()?;
    let key = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let steps: [Vec<&str>; 3] = [
        [
            &["req", "-x509"][..],
            &key[..],
            &["-keyout", "ca.key", "-out", "ca.pem"],
        ]
        .concat(),
        [
            &["req"][..],
            &key[..],
            &["-keyout", "server.key", "-out", "server.csr"],
        ]
        .concat(),
        vec![
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-extfile",
            "server.ext",
        ],
    ];
    for (i, args) in steps.iter().enumerate() {
        let mut cmd = Command::new("openssl");
        cmd.args(args).current_dir(dir);
        if i < 2 {
            let subject = if i == 0 {
                "/CN=plyyard test authority"
            } else {
                "/CN=localhost"
            };
            cmd.args(["-days", "2", "-subj", subject]);
        } else {
            cmd.args(["-days", "2"]);
        }
        let done = cmd.stdout(Stdio::null()).stderr(Stdio::null()).status();
        if !done.is_ok_and(|s| s.success()) {
            return None;
        }
    }
    Some(dir.join("ca.pem"))
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
