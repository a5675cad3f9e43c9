//! Ply Yard's web server: the HTTP API and websockets of `docs/protocol.md`,
//! one actor per live game, durable storage in SQL, the computer player on a
//! bounded engine pool, and the embedded web app.
//!
//! [`Server::bind`] opens the database and the listener; [`Server::serve`]
//! runs until a shutdown signal. [`run`] does both for the command line.

pub mod auth;
pub mod conn;
pub mod http;
pub mod i18n;
pub mod identity;
pub mod learn;
pub mod review;
pub mod security;
pub mod tables;
pub mod ws;

pub use wire::{error, protocol};

/// The ratings (`plyyard-rating`) under their old name, for `live/` only
/// until the live games move into a crate of their own; everything else
/// names `plyyard_rating`.
pub use plyyard_rating as rating;
/// Storage (`plyyard-store`) under its old path, for `live/` only until
/// the live games move into a crate of their own.
pub use plyyard_store as store;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::identity::CookieSigner;
use crate::security::{Limits, Quotas};
use live::engine_pool::EnginePool;
use live::metrics::Metrics;
use live::{LiveDeps, LiveTuning};
use plyyard_store::Store;

/// Settings key of the generated cookie secret.
const SECRET_KEY: &str = "cookie_secret";

/// Server configuration (from flags and environment, see `plyyard serve --help`).
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:8080`; port 0 picks a free port).
    pub addr: String,
    /// Database URL (`sqlite://plyyard.db`).
    pub db: String,
    /// Cookie-signing secret; generated and stored in the database if absent.
    pub secret: Option<String>,
    /// Runtime tunables.
    pub tuning: Tuning,
    /// Whether the server runs behind a reverse proxy whose
    /// `X-Forwarded-For` tells the client address (see [`security`]).
    pub trust_proxy: bool,
    /// The URL people reach the site at (`https://chess.example`), when
    /// known: its origin is the only one allowed to change state, and an
    /// `https` URL makes cookies `Secure`.
    pub public_url: Option<String>,
}

/// Tunables with sensible defaults.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// A live game with no socket and no activity for this long is unloaded.
    pub idle_unload: Duration,
    /// Engine searches running at once.
    pub engine_workers: usize,
    /// Hash table per engine, MiB.
    pub engine_hash_mb: usize,
    /// Multiplier of every level's thinking time (1.0 = the level's budget).
    pub think_time_factor: f64,
    /// Rate-limit quotas.
    pub quotas: Quotas,
    /// Password hashes computed at once (each takes one core for tens of
    /// milliseconds and 19 MiB).
    pub hash_workers: usize,
    /// Password hashes waiting beyond those; more are refused (`429`).
    pub hash_queue: usize,
    /// Nodes the engine searches per position of a game review.
    pub review_nodes: u64,
    /// Engines (threads) the reviews search with, beside the live games'
    /// engines; the reviews under way take turns on them position by
    /// position, one client after another.
    pub review_threads: usize,
    /// Whether engine work (the computer's moves, engine replies, reviews,
    /// analyses) counts by the client address besides the account or
    /// anonymous player: shares of the engines and one review at a time
    /// per address. Off only for load tests from one machine.
    pub reviews_by_address: bool,
    /// Analysis-board searches one player may start per minute (0: no
    /// limit).
    pub analyses_per_minute: u32,
    /// At a table, each side's first move must come within this long, or
    /// the game is aborted.
    pub first_move_timeout: Duration,
    /// A table player away this long may be claimed against.
    pub away_claim_after: Duration,
    /// The head of a request (its line and headers) must arrive within
    /// this long, or the connection is closed (see [`conn`]).
    pub header_timeout: Duration,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            idle_unload: Duration::from_secs(600),
            engine_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            engine_hash_mb: 16,
            think_time_factor: 1.0,
            quotas: Quotas::default(),
            hash_workers: std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
            hash_queue: 64,
            review_nodes: plyyard_review::DEFAULT_NODES,
            review_threads: 1,
            reviews_by_address: true,
            analyses_per_minute: review::service::ANALYSES_PER_MINUTE,
            first_move_timeout: live::FIRST_MOVE,
            away_claim_after: live::AWAY_CLAIM,
            header_timeout: conn::HEADER_TIMEOUT,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: "127.0.0.1:8080".into(),
            db: "sqlite://plyyard.db".into(),
            secret: None,
            tuning: Tuning::default(),
            trust_proxy: false,
            public_url: None,
        }
    }
}

/// Everything the handlers and actors share.
#[derive(Debug)]
pub struct Shared {
    /// Storage.
    pub store: Store,
    /// Live games: their registry and what they share.
    pub live: Arc<LiveDeps>,
    /// The computer player.
    pub engines: Arc<EnginePool>,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// Cookie signing.
    pub signer: CookieSigner,
    /// Rate limits (game creation, sign-ups, log-ins).
    pub limits: Limits,
    /// Whether `X-Forwarded-For` tells the client address
    /// ([`Config::trust_proxy`]).
    pub trust_proxy: bool,
    /// The origin of [`Config::public_url`] (`https://chess.example`), the
    /// only one allowed to change state when set.
    pub public_origin: Option<String>,
    /// Whether cookies must be `Secure` (the public URL is `https`).
    pub secure_cookies: bool,
    /// Password hashing (a bounded pool).
    pub hasher: auth::Hasher,
    /// The lobby's live feed of open tables.
    pub lobby: tables::lobby::Lobby,
    /// Game reviews: their queue and engines.
    pub reviews: Arc<review::service::Reviews>,
    /// The analysis board's engine.
    pub analyses: Arc<review::service::Analyses>,
    /// Tunables.
    pub tuning: Tuning,
    /// Becomes `true` when the server starts shutting down; open sockets
    /// then close with "going away" so clients reconnect to the next server.
    pub shutting_down: tokio::sync::watch::Sender<bool>,
}

impl Shared {
    /// The shared state over an open store, signing cookies with `secret`.
    pub fn new(store: Store, secret: &[u8], tuning: Tuning) -> Shared {
        let metrics = Arc::new(Metrics::default());
        let engines = Arc::new(EnginePool::new(
            tuning.engine_workers,
            tuning.engine_hash_mb,
            tuning.think_time_factor,
            Arc::clone(&metrics),
        ));
        Shared {
            store: store.clone(),
            live: Arc::new(LiveDeps::new(
                live::registry(),
                store,
                Arc::clone(&engines),
                Arc::clone(&metrics),
                LiveTuning {
                    idle_unload: tuning.idle_unload,
                    first_move_timeout: tuning.first_move_timeout,
                    away_claim_after: tuning.away_claim_after,
                },
            )),
            engines,
            metrics,
            signer: CookieSigner::new(secret),
            limits: Limits::new(&tuning.quotas),
            hasher: auth::Hasher::new(tuning.hash_workers, tuning.hash_queue),
            lobby: tables::lobby::Lobby::default(),
            reviews: Arc::new(review::service::Reviews::new(
                review::service::library(tuning.review_nodes),
                tuning.review_threads,
            )),
            analyses: Arc::new(review::service::Analyses::new(tuning.analyses_per_minute)),
            trust_proxy: false,
            public_origin: None,
            secure_cookies: false,
            tuning,
            shutting_down: tokio::sync::watch::Sender::new(false),
        }
    }
}

impl Shared {
    /// The keys of a request's client (see [`fair::Requester::keys`]):
    /// its address and, when logged in, its account; without
    /// [`Tuning::reviews_by_address`], the account or the anonymous
    /// player alone.
    pub fn requester(
        &self,
        player: &identity::PlayerId,
        ip: security::ClientIp,
        account: Option<&security::AccountKey>,
    ) -> Vec<live::fair::Requester> {
        live::fair::Requester::keys(
            account.map(|a| a.0.as_str()),
            &player.0,
            ip.0,
            self.tuning.reviews_by_address,
        )
    }
}

/// The state handed to axum handlers.
pub type AppState = Arc<Shared>;

/// A failure to start the server.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] store::StoreError),
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
        let listener =
            TcpListener::bind(&config.addr)
                .await
                .map_err(|source| StartError::Bind {
                    addr: config.addr.clone(),
                    source,
                })?;
        let store = Store::open(&config.db).await?;
        tracing::info!("database {}", store::redact_url(&config.db));
        let secret = match config.secret {
            Some(s) if !s.is_empty() => s,
            _ => {
                store
                    .setting_or_insert(SECRET_KEY, &identity::new_secret())
                    .await?
            }
        };
        let mut shared = Shared::new(store, secret.as_bytes(), config.tuning);
        shared.trust_proxy = config.trust_proxy;
        shared.secure_cookies = public_origin
            .as_deref()
            .is_some_and(|o| o.starts_with("https://"));
        shared.public_origin = public_origin;
        let state = Arc::new(shared);
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
        let app = http::router(Arc::clone(&self.state));
        let purge = tokio::spawn(purge_sessions(Arc::clone(&self.state)));
        let expire = tokio::spawn(expire_tables(Arc::clone(&self.state)));
        let state = Arc::clone(&self.state);
        conn::serve(
            self.listener,
            app,
            self.state.tuning.header_timeout,
            async move {
                shutdown.await;
                state.shutting_down.send_replace(true);
            },
        )
        .await;
        purge.abort();
        expire.abort();
        tracing::info!("shutting down");
        self.state.store.close().await;
        Ok(())
    }
}

/// Deletes expired log-in sessions once an hour.
async fn purge_sessions(state: AppState) {
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    loop {
        every.tick().await;
        match state.store.purge_sessions(store::now_ms()).await {
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
        match state.store.expire_tables(store::now_ms()).await {
            Ok(codes) => {
                for code in codes {
                    state
                        .lobby
                        .publish(&tables::lobby::LobbyMsg::Remove { code });
                }
            }
            Err(e) => tracing::warn!("cannot expire tables: {e}"),
        }
    }
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
