//! Ply Yard's web server: the HTTP API and websockets of `docs/protocol.md`,
//! one actor per live game, durable storage in SQL, the computer player on a
//! bounded engine pool, and the embedded web app.
//!
//! [`Server::bind`] opens the database and the listener; [`Server::serve`]
//! runs until a shutdown signal. [`run`] does both for the command line.

pub mod bearer;
pub mod body;
pub mod config;
pub mod conn;
pub mod http;
pub mod i18n;
pub mod identity;
pub mod lichess;
pub mod security;
pub mod state;
pub mod streams;
pub mod ws;

pub use plyyard_wire::{error, protocol};

pub use config::{Config, Tuning};
pub use state::{AppState, Shared};

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use plyyard_store::Store;

/// Connections the kernel may hold for the server before it accepts them
/// (capped by `net.core.somaxconn`): a crowd arriving at once (2,000
/// players seeking a game) is queued, not left to retry after a second.
const LISTEN_BACKLOG: u32 = 4096;

/// How long shutdown waits for the open sockets to say "going away" (a
/// game socket reads on for up to 2 s for the client's close reply).
const SOCKETS_CLOSE: Duration = Duration::from_secs(3);

/// A listener on `addr` (`host:port`) with [`LISTEN_BACKLOG`].
async fn listen(addr: &str) -> std::io::Result<TcpListener> {
    let mut last = None;
    for a in tokio::net::lookup_host(addr).await? {
        let socket = if a.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(a).and_then(|()| socket.listen(LISTEN_BACKLOG)) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("the address resolves to nothing")))
}

/// Settings key of the generated cookie secret.
const SECRET_KEY: &str = "cookie_secret";

/// A failure to start the server.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] plyyard_store::StoreError),
    /// `--public-url` is not an absolute `http(s)://` URL.
    #[error("--public-url {0:?} is not an http:// or https:// URL")]
    PublicUrl(String),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// `--redis` was given with a database other than PostgreSQL.
    #[error(
        "--redis needs a PostgreSQL database (--db postgres://…): the nodes of a cluster share it; SQLite serves one node only"
    )]
    RedisNeedsPostgres,
    /// The shipped puzzles could not be loaded.
    #[error("cannot load the shipped puzzles: {0}")]
    OwnPuzzles(String),
    /// The Redis server cannot be used.
    #[error("cannot use Redis at {url}: {source}")]
    Bus {
        /// The URL given, without its password.
        url: String,
        /// Why.
        source: plyyard_cluster::BusError,
    },
    /// The server stopped with an I/O error.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// A server with its database open and its listener bound.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    state: AppState,
}

impl Server {
    /// Binds the listener, opens the database (applying migrations), and
    /// loads or creates the cookie secret.
    ///
    /// # Errors
    /// See [`StartError`].
    pub async fn bind(config: Config) -> Result<Server, StartError> {
        let public_origin = match config.public_url.as_deref().filter(|u| !u.is_empty()) {
            Some(url) => Some(
                security::origin_of(url).ok_or_else(|| StartError::PublicUrl(url.to_owned()))?,
            ),
            None => None,
        };
        let listener = listen(&config.addr)
            .await
            .map_err(|source| StartError::Bind {
                addr: config.addr.clone(),
                source,
            })?;
        let bus = match config.redis.as_deref().filter(|u| !u.is_empty()) {
            Some(url) => Some(connect_bus(url, &config.db, config.node_id.as_deref()).await?),
            None => None,
        };
        let store = Store::open(&config.db).await?;
        tracing::info!("database {}", plyyard_store::redact_url(&config.db));
        if config.own_puzzles {
            load_own_puzzles(&store).await?;
        }
        let secret = match config.secret {
            Some(s) if !s.is_empty() => s,
            _ => {
                store
                    .setting_or_insert(SECRET_KEY, &identity::new_secret())
                    .await?
            }
        };
        let mut shared = Shared::with_bus(store, secret.as_bytes(), config.tuning, bus);
        shared.trust_proxy = config.trust_proxy;
        shared.trusted_proxies = std::sync::Arc::new(config.trusted_proxies.clone());
        shared.secure_cookies = public_origin
            .as_deref()
            .is_some_and(|o| o.starts_with("https://"));
        shared.public_origin = public_origin;
        let state = AppState::new(shared);
        Ok(Server { listener, state })
    }

    /// The address actually bound (useful with port 0).
    ///
    /// # Errors
    /// If the socket has no local address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then finishes the requests in
    /// flight and closes the database.
    ///
    /// # Errors
    /// An I/O error of the listener.
    pub async fn serve(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), StartError> {
        let addr = self.local_addr()?;
        tracing::info!("listening on http://{addr}");
        let app = http::router(self.state.clone());
        let purge = tokio::spawn(purge_sessions(self.state.clone()));
        let expire = tokio::spawn(expire_tables(self.state.clone()));
        let challenges = tokio::spawn(expire_challenges(self.state.clone()));
        let notes = tokio::spawn(prune_notifications(self.state.clone()));
        let sweep = tokio::spawn(sweep_seeks(self.state.clone()));
        let resync = tokio::spawn(resync_lobby(self.state.clone()));
        // Every node runs the director's task; in a cluster only the
        // holder of its lease directs.
        let arenas = self.state.tournaments.spawn_director();
        // Likewise the fair-play watch: only the holder of its lease walks.
        let fair_play = self
            .state
            .tuning
            .fair_play
            .then(|| self.state.fair_play.spawn());
        plyyard_live::node::start(self.state.live.deps());
        let state = self.state.clone();
        conn::serve(
            self.listener,
            app,
            self.state.tuning.header_timeout,
            async move {
                shutdown.await;
                // A node of a cluster hands its games over first, so that
                // the sockets it closes next find them on another node.
                plyyard_live::node::drain(state.live.deps()).await;
                state.shutting_down.send_replace(true);
            },
        )
        .await;
        // Upgraded sockets outlive their HTTP connection: give them the
        // time to send "going away", so clients know to reconnect.
        self.state.sockets.close();
        if tokio::time::timeout(SOCKETS_CLOSE, self.state.sockets.wait())
            .await
            .is_err()
        {
            tracing::warn!(
                open = self.state.sockets.len(),
                "sockets still open at shutdown"
            );
        }
        purge.abort();
        expire.abort();
        challenges.abort();
        notes.abort();
        sweep.abort();
        resync.abort();
        arenas.abort();
        if let Some(watch) = fair_play {
            watch.abort();
        }
        self.state.tournaments.stop_directing().await;
        tracing::info!("shutting down");
        self.state.store.close().await;
        Ok(())
    }
}

/// Connects this node to the cluster's Redis at `url`, refusing a
/// database other than PostgreSQL.
async fn connect_bus(
    url: &str,
    db: &str,
    node_id: Option<&str>,
) -> Result<Arc<plyyard_cluster::Bus>, StartError> {
    if !(db.starts_with("postgres://") || db.starts_with("postgresql://")) {
        return Err(StartError::RedisNeedsPostgres);
    }
    let node = node_id
        .filter(|n| !n.is_empty())
        .map_or_else(plyyard_cluster::new_node_id, str::to_owned);
    let bus = plyyard_cluster::Bus::connect(url, &node)
        .await
        .map_err(|source| StartError::Bus {
            url: plyyard_store::redact_url(url),
            source,
        })?;
    tracing::info!(node = %node, "cluster node on Redis {}", plyyard_store::redact_url(url));
    Ok(bus)
}

/// Loads the shipped puzzles into `store` unless they are there already.
async fn load_own_puzzles(store: &Store) -> Result<(), StartError> {
    let loaded = plyyard_trainer::shipped::load(store)
        .await
        .map_err(|e| StartError::OwnPuzzles(e.to_string()))?;
    if let Some(r) = loaded {
        tracing::info!(
            imported = r.imported,
            already = r.already,
            "Ply Yard's own puzzles loaded"
        );
    }
    Ok(())
}

/// Deletes expired log-in sessions once an hour.
async fn purge_sessions(state: AppState) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        match state.store.purge_sessions(plyyard_store::now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(sessions = n, "expired sessions deleted"),
            Err(e) => tracing::warn!("cannot purge sessions: {e}"),
        }
    }
}

/// Closes unjoined tables when they expire, and takes them off the lobby.
async fn expire_tables(state: AppState) {
    let mut every = tokio::time::interval(Duration::from_secs(15));
    loop {
        every.tick().await;
        if let Err(e) = state.pairing.expire_tables().await {
            tracing::warn!("cannot expire tables: {e}");
        }
    }
}

/// Deletes the notifications older than
/// [`plyyard_social::notify::KEEP_MS`], every hour.
async fn prune_notifications(state: AppState) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        match state.social.notifications.prune().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(pruned = n, "old notifications deleted"),
            Err(e) => tracing::warn!("old notifications not deleted: {e:?}"),
        }
    }
}

/// Marks offline the challenges whose challenger went away, every 2 s.
async fn expire_challenges(state: AppState) {
    let mut every = tokio::time::interval(Duration::from_secs(2));
    loop {
        every.tick().await;
        state
            .pairing
            .expire_challenges(state.tuning.challenge_ttl)
            .await;
    }
}

/// Pairs waiting seeks as their rating ranges widen, every
/// [`plyyard_pairing::seeks::SWEEP_EVERY`].
async fn sweep_seeks(state: AppState) {
    let mut every = tokio::time::interval(plyyard_pairing::seeks::SWEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        state.pairing.seeks.sweep().await;
    }
}

/// In a cluster, sends this node's lobby sockets the whole list again each
/// time the bus came back after a loss; alone, does nothing.
async fn resync_lobby(state: AppState) {
    state.pairing.resync_lobby().await;
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutdown signal received");
}

/// Installs the log subscriber (to stderr) with `filter` (`info`,
/// `plyyard=debug` …; `RUST_LOG` syntax).
pub fn init_logging(filter: &str) {
    use std::io::IsTerminal as _;
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// Runs the server on a new multi-threaded runtime until SIGINT/SIGTERM.
///
/// # Errors
/// See [`StartError`].
pub fn run(config: Config) -> Result<(), StartError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = rt.block_on(async {
        let server = Server::bind(config).await?;
        server.serve(shutdown_signal()).await
    });
    // Searches in flight end within their time budget; do not wait longer.
    rt.shutdown_timeout(Duration::from_secs(5));
    result
}
