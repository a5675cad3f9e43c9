//! The server's configuration: what `plyyard serve` is given ([`Config`])
//! and the runtime tunables with their defaults ([`Tuning`]).

use std::time::Duration;

use crate::conn::HEADER_TIMEOUT;
use crate::security::Quotas;
use plyyard_live::{AWAY_CLAIM, FIRST_MOVE, IDLE_UNLOAD};

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
    /// `X-Forwarded-For` tells the client address (see [`crate::security`]).
    pub trust_proxy: bool,
    /// The proxies trusted to tell the client address with `trust_proxy`
    /// (by default this machine's: 127.0.0.0/8 and ::1).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The URL people reach the site at (`https://chess.example`), when
    /// known: its origin is the only one allowed to change state, and an
    /// `https` URL makes cookies `Secure`.
    pub public_url: Option<String>,
    /// The Redis server the nodes of a cluster share (`redis://HOST:PORT/DB`);
    /// `None`: this node runs alone. Needs a PostgreSQL database.
    pub redis: Option<String>,
    /// This node's id in a cluster; `None`: one unique to this process.
    pub node_id: Option<String>,
    /// Load Ply Yard's own puzzles (shipped in the binary) into the
    /// database at start-up, unless they are there already.
    pub own_puzzles: bool,
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
    /// Whether the fair-play watch reviews and judges the rated games in
    /// the background (on by default; off for a small machine that needs
    /// every cycle, or to measure the site without it).
    pub fair_play: bool,
    /// The fair-play watch starts no review while this node's live games
    /// commit more moves a second than this (over the last minute).
    pub fair_play_pause_above: f64,
    /// At a table, each side's first move must come within this long, or
    /// the game is aborted.
    pub first_move_timeout: Duration,
    /// A table player away this long may be claimed against.
    pub away_claim_after: Duration,
    /// The head of a request (its line and headers) must arrive within
    /// this long, or the connection is closed (see [`crate::conn`]).
    pub header_timeout: Duration,
    /// A waiting challenge goes offline this long after its challenger was
    /// last seen (an open event stream renews it every few seconds).
    pub challenge_ttl: Duration,
}

/// A waiting challenge goes offline this long after its challenger was
/// last seen (the default of [`Tuning::challenge_ttl`]).
pub const CHALLENGE_TTL: Duration = Duration::from_secs(20);

/// Moves a second on a node above which the fair-play watch waits: a
/// few dozen games going on at once.
pub const FAIR_PLAY_PAUSE_ABOVE: f64 = 5.0;

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            idle_unload: IDLE_UNLOAD,
            engine_workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            engine_hash_mb: 16,
            think_time_factor: 1.0,
            quotas: Quotas::default(),
            hash_workers: std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
            hash_queue: 64,
            review_nodes: plyyard_review::DEFAULT_NODES,
            review_threads: 1,
            reviews_by_address: true,
            fair_play: true,
            fair_play_pause_above: FAIR_PLAY_PAUSE_ABOVE,
            first_move_timeout: FIRST_MOVE,
            away_claim_after: AWAY_CLAIM,
            header_timeout: HEADER_TIMEOUT,
            challenge_ttl: CHALLENGE_TTL,
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
            trusted_proxies: crate::security::default_trusted_proxies(),
            public_url: None,
            redis: None,
            node_id: None,
            own_puzzles: false,
        }
    }
}
