//! Load generator for a Ply Yard server on this machine (loopback only).
//!
//! - `latency`: plays games against the computer at each level and measures
//!   the time from sending a move to receiving the computer's reply.
//! - `idle`: creates many games (optionally with an open socket each) and
//!   reads the server's resident memory from `/metrics`.
//! - `login`: signs up accounts, then logs in to them many times with many
//!   log-ins in flight: log-in latency and throughput.
//! - `moves-under-logins`: the move latency of computer games alone, then
//!   while a number of log-ins (Argon2id hashes) are kept in flight.
//! - `tables`: many table games between accounts, two sockets each, moves
//!   after a think time for a fixed window: persisted moves per second and
//!   move → ack latency (see [`tables`]); its last line is one JSON object.
//! - `bots`: many games between bot accounts over the Lichess-compatible
//!   API only (HTTP and NDJSON game streams): moves per second and the
//!   latency from a move's POST to the opponent's `gameState` (see
//!   [`bots`]); its last line is one JSON object.
//! - `spread`: table games like `tables` with the players spread over
//!   several nodes or balancers, sockets that reconnect (`?v=`), moves
//!   resent only after checking the game, and an exact account (lost,
//!   duplicated moves; time to resume) checked against every game's final
//!   move list (see [`spread`]); its last line is one JSON object.
//! - `arena`: one Arena of many players over the Board API and event
//!   streams, watched by many tournament sockets: the time from a game's
//!   end to its players' next game, and to the watchers' standings (see
//!   [`arena`]); its last line is one JSON object.
//! - `seeks`: many players seek a game by quick pairing at the same moment:
//!   the time until every one is paired (see [`seeks`]).
//! - `password-flood`: sign-ups and password changes with 256-character
//!   passwords from many clients against the default limits, while
//!   `/healthz` and a socket ping are timed (see [`flood`]).
//! - `fairness`: one client address saturates its games, replies,
//!   analyses and reviews while another client's Beginner reply latency
//!   and analysis and review start delays are measured (see [`fairness`]);
//!   the server's rate limits stay on for this one.
//! - `notify`: many logged-in pages hold the site socket while challenges
//!   and messages go between their accounts: the time from a send to its
//!   notification on the recipient's page (see [`notify`]); its last line
//!   is one JSON object.
//! - `tv`: one game over the Board API while many viewers hold TV's
//!   Classical feed: the time from a move's POST to its `fen` line (see
//!   [`tv`]); its last line is one JSON object.
//! - `puzzles`: many solvers loop next puzzle → solve over lichess's
//!   puzzle API: the latency of both (see [`puzzles`]); its last line is
//!   one JSON object.
//!
//! Every loop is bounded by the counts given and by `--timeout` (for
//! `tables`, the timeout bounds the setup and the window is added to it).
//! The server's rate limits must be off for these loads (`plyyard serve
//! --rate-limits off`); a `429` stops the tool with that advice.

#[path = "loadgen/arena.rs"]
mod arena;
#[path = "loadgen/bots.rs"]
mod bots;
#[path = "loadgen/fairness.rs"]
mod fairness;
#[path = "loadgen/flood.rs"]
mod flood;
#[path = "loadgen/ledger.rs"]
mod ledger;
#[path = "loadgen/notify.rs"]
mod notify;
#[path = "loadgen/probes.rs"]
mod probes;
#[path = "loadgen/puzzles.rs"]
mod puzzles;
#[path = "loadgen/seeks.rs"]
mod seeks;
#[path = "loadgen/spread.rs"]
mod spread;
#[path = "loadgen/tables.rs"]
mod tables;
#[path = "loadgen/tv.rs"]
mod tv;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use plyyard_testkit::{Client, ClientError, Response, Socket, recv_json, send_json};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// Load generator for a Ply Yard server on loopback.
#[derive(Debug, Parser)]
#[command(name = "loadgen")]
struct Cli {
    /// The server (a loopback address).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 900)]
    timeout: u64,
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Debug, Subcommand)]
enum Mode {
    /// Move → computer reply latency per level.
    Latency {
        /// Levels to measure, comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "beginner,easy,normal,hard,expert"
        )]
        levels: Vec<String>,
        /// Games per level (played one after another).
        #[arg(long, default_value_t = 3)]
        games: u32,
        /// Our moves per game.
        #[arg(long, default_value_t = 10)]
        moves: u32,
        /// Seed of our random move choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at the same time.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
    },
    /// Server memory with many idle live games.
    Idle {
        /// Games to create.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Keep a websocket open on every game.
        #[arg(long)]
        sockets: bool,
        /// Requests in flight at once.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
    },
    /// Log-in latency and throughput.
    Login {
        /// Accounts signed up first (log-ins go round them).
        #[arg(long, default_value_t = 50)]
        accounts: u32,
        /// Log-ins to measure.
        #[arg(long, default_value_t = 500)]
        logins: u32,
        /// Log-ins in flight at once.
        #[arg(long, default_value_t = 50)]
        concurrency: usize,
    },
    /// Move latency of computer games without, then with, log-ins in flight.
    MovesUnderLogins {
        /// Level of the computer.
        #[arg(long, default_value = "beginner")]
        level: String,
        /// Games per phase.
        #[arg(long, default_value_t = 8)]
        games: u32,
        /// Our moves per game.
        #[arg(long, default_value_t = 10)]
        moves: u32,
        /// Games played at the same time.
        #[arg(long, default_value_t = 4)]
        concurrency: usize,
        /// Log-ins kept in flight during the second phase.
        #[arg(long, default_value_t = 50)]
        in_flight: usize,
        /// Accounts signed up first (log-ins go round them).
        #[arg(long, default_value_t = 50)]
        accounts: u32,
        /// Seed of our random move choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Move latency of computer games without, then with, game reviews
    /// under way (each by its own player, on an imported game).
    MovesUnderReviews {
        /// A PGN file whose first game every reviewer imports.
        #[arg(long)]
        pgn: std::path::PathBuf,
        /// Reviews kept under way during the second phase.
        #[arg(long, default_value_t = 3)]
        reviews: usize,
        /// Level of the computer.
        #[arg(long, default_value = "beginner")]
        level: String,
        /// Games per phase.
        #[arg(long, default_value_t = 8)]
        games: u32,
        /// Our moves per game.
        #[arg(long, default_value_t = 10)]
        moves: u32,
        /// Games played at the same time.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Seed of our random move choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Sign-ups and password changes with long passwords from many clients
    /// (against the server's default limits), while `/healthz` and a game
    /// socket's ping are timed.
    PasswordFlood {
        /// Flooding clients.
        #[arg(long, default_value_t = 8)]
        clients: usize,
        /// Length of the measured window, seconds.
        #[arg(long, default_value_t = 20)]
        seconds: u64,
    },
    /// One address saturates everything its limits allow; another client's
    /// Beginner replies, analyses and reviews are timed meanwhile. Run it
    /// against a server with its default limits.
    Fairness {
        /// A PGN file whose first game every review imports.
        #[arg(long)]
        pgn: std::path::PathBuf,
        /// The busy client's local (loopback) address.
        #[arg(long, default_value = "127.0.0.2")]
        busy_from: std::net::IpAddr,
        /// The probe's local (loopback) address.
        #[arg(long, default_value = "127.0.0.3")]
        probe_from: std::net::IpAddr,
        /// Expert games the busy client keeps going.
        #[arg(long, default_value_t = 30)]
        games: usize,
        /// `/api/positions/reply` requests the busy client keeps in flight.
        #[arg(long, default_value_t = 4)]
        replies: usize,
        /// Accounts the busy client signs up, each analysing and reviewing.
        #[arg(long, default_value_t = 5)]
        accounts: usize,
        /// Seconds of load before the probe starts.
        #[arg(long, default_value_t = 10)]
        warmup: u64,
        /// Seconds the probe measures.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
    },
    /// Games between bot accounts over the Lichess-compatible API (HTTP
    /// and NDJSON game streams): moves/s and move POST → opponent's
    /// `gameState` latency.
    Bots {
        /// Games played at once (two game streams each).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Length of the measured window, seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Bot accounts `bot0`… (signed up, or logged in to if they exist;
        /// at least games / 4: an account holds 8 game streams).
        #[arg(long, default_value_t = 250)]
        accounts: usize,
        /// Mean think time per move, ms (uniform in [0, 2 × this]).
        #[arg(long, default_value_t = 2400)]
        think_ms: u64,
        /// Seed of the think times and move choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// One Arena of many players over the Board API and event streams,
    /// watched through the tournament socket: game end → next game, and
    /// game end → watchers' standings.
    Arena {
        /// Players (accounts `arena0`…, signed up or logged in to).
        #[arg(long, default_value_t = 2000)]
        players: usize,
        /// Pages watching the standings.
        #[arg(long, default_value_t = 1000)]
        watchers: usize,
        /// The Arena's length, minutes (pairing closes 90 s before its end).
        #[arg(long, default_value_t = 8)]
        minutes: u32,
        /// Mean think time per move, ms (uniform in [0, 2 × this]).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
        /// Fewest plies before one side resigns.
        #[arg(long, default_value_t = 10)]
        min_plies: usize,
        /// Most plies before one side resigns.
        #[arg(long, default_value_t = 60)]
        max_plies: usize,
        /// Seed of the think times, move choices and resignations.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Players seeking a game by quick pairing all at once: the time until
    /// every one is paired.
    Seeks {
        /// Players seeking at once (accounts `load0`…, signed up or logged
        /// in to; a multiple of 2 × `--cells`).
        #[arg(long, default_value_t = 2000)]
        players: usize,
        /// Grid cells (presets, then the same in Chess960) the players are
        /// spread over, 1–10.
        #[arg(long, default_value_t = 10)]
        cells: usize,
        /// No warm-up request: every seek opens its connection when
        /// released (2,000 connections at once).
        #[arg(long)]
        cold: bool,
    },
    /// Logged-in pages holding the site socket while challenges and
    /// messages go between their accounts: send → notification latency.
    Notify {
        /// Accounts, each with an open page (`notify0`…, signed up or
        /// logged in to).
        #[arg(long, default_value_t = 1000)]
        users: usize,
        /// Challenges and messages sent, alternately.
        #[arg(long, default_value_t = 2000)]
        sends: usize,
        /// Sends a second.
        #[arg(long, default_value_t = 20.0)]
        rate: f64,
        /// Seed of the challenge pairs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// One game played over the Board API while many viewers hold TV's
    /// Classical feed: move → feed line latency.
    Tv {
        /// Feeds held.
        #[arg(long, default_value_t = 200)]
        viewers: usize,
        /// Moves played.
        #[arg(long, default_value_t = 100)]
        moves: usize,
        /// Pause between moves, ms.
        #[arg(long, default_value_t = 200)]
        gap_ms: u64,
        /// Seed of the move choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solvers looping next puzzle → solve over lichess's puzzle API:
    /// the latency of both.
    Puzzles {
        /// Solvers at once (accounts `puz0`…, signed up or logged in to).
        #[arg(long, default_value_t = 200)]
        solvers: usize,
        /// Length of the measured window, seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Mean think time between puzzles, ms (uniform in [0, 2 × this];
        /// 0: no pause).
        #[arg(long, default_value_t = 2000)]
        think_ms: u64,
        /// Share of solves sent as wins (0–1).
        #[arg(long, default_value_t = 0.7)]
        win_rate: f64,
        /// Seed of the wins and losses.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Table games over several nodes or balancers, with reconnecting
    /// sockets and an exact account of every move (see `spread`).
    Spread(SpreadArgs),
    /// Table games between accounts, both players on sockets, moving after
    /// a think time: persisted moves/s, move → ack and move → opponent
    /// latencies.
    Tables {
        /// Games played at once (two sockets each).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Length of the measured window, seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        /// Accounts `load0`… signed up, or logged in to if they exist.
        #[arg(long, default_value_t = 200)]
        accounts: usize,
        /// Mean think time per move, ms (uniform in [0, 2 × this]). The
        /// default makes 5,000 games offer about 2,000 moves/s.
        #[arg(long, default_value_t = 2400)]
        think_ms: u64,
        /// Only make (or log in to) the accounts, and say how long it took.
        #[arg(long)]
        setup_only: bool,
        /// The server's process id: its CPU time in the window is read from
        /// `/proc/PID/stat`.
        #[arg(long)]
        server_pid: Option<u32>,
        /// Seed of the think times and move choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The options of `loadgen spread`.
#[derive(Debug, clap::Args)]
struct SpreadArgs {
    /// Where the players connect, comma-separated: the nodes, or one or
    /// more balancers (default: `--addr`).
    #[arg(long, value_delimiter = ',')]
    targets: Vec<SocketAddr>,
    /// The nodes' own addresses, for `/metrics` (default: the targets).
    #[arg(long, value_delimiter = ',')]
    nodes: Vec<SocketAddr>,
    /// The nodes' process ids, in the order of `--nodes` (CPU, memory, and
    /// the node `--kill-node` kills).
    #[arg(long, value_delimiter = ',')]
    node_pids: Vec<u32>,
    /// Games played at once (two sockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Length of the measured window, seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Accounts `load0`… signed up, or logged in to if they exist.
    #[arg(long, default_value_t = 200)]
    accounts: usize,
    /// Mean think time per move, ms (uniform in [0, 2 × this]).
    #[arg(long, default_value_t = 2400)]
    think_ms: u64,
    /// Seed of the think times and move choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Redis (its `INFO`: commands and CPU over the window).
    #[arg(long)]
    redis: Option<SocketAddr>,
    /// The database URL (`pg_stat_database`, `pg_stat_wal`).
    #[arg(long)]
    pg: Option<String>,
    /// PostgreSQL's postmaster process id (the CPU of its whole cluster).
    #[arg(long)]
    pg_pid: Option<u32>,
    /// Other processes whose CPU is read, `name=pid` (balancers).
    #[arg(long, value_delimiter = ',', value_parser = name_pid)]
    other: Vec<(String, u32)>,
    /// Kill (SIGKILL) the node of this index in `--node-pids` …
    #[arg(long)]
    kill_node: Option<usize>,
    /// … this many seconds into the window.
    #[arg(long, default_value_t = 30)]
    kill_after: u64,
    /// A name for the run, echoed in the report.
    #[arg(long, default_value = "spread")]
    label: String,
}

fn name_pid(s: &str) -> std::result::Result<(String, u32), String> {
    let (name, pid) = s.split_once('=').ok_or("expected name=pid")?;
    Ok((name.to_owned(), pid.parse().map_err(|e| format!("{e}"))?))
}

type Result<T> = std::result::Result<T, ClientError>;

const WAIT: Duration = Duration::from_secs(60);

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if !cli.addr.ip().is_loopback() {
        eprintln!(
            "loadgen: {} is not a loopback address; this tool only loads a server on this machine",
            cli.addr
        );
        return std::process::ExitCode::FAILURE;
    }
    let window = match &cli.mode {
        Mode::Spread(SpreadArgs { seconds, .. }) => seconds + 60,
        Mode::Tables { seconds, .. }
        | Mode::Bots { seconds, .. }
        | Mode::Puzzles { seconds, .. }
        | Mode::PasswordFlood { seconds, .. } => *seconds,
        Mode::Arena { minutes, .. } => u64::from(*minutes) * 60,
        Mode::Fairness {
            warmup, seconds, ..
        } => warmup + seconds,
        _ => 0,
    };
    let limit = Duration::from_secs(cli.timeout.saturating_add(window));
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("loadgen: cannot start a runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async move {
        tokio::time::timeout(limit, async {
            match cli.mode {
                Mode::Latency {
                    levels,
                    games,
                    moves,
                    seed,
                    concurrency,
                } => latency(cli.addr, &levels, games, moves, seed, concurrency).await,
                Mode::Idle {
                    games,
                    sockets,
                    concurrency,
                } => idle(cli.addr, games, sockets, concurrency).await,
                Mode::Login {
                    accounts,
                    logins,
                    concurrency,
                } => login(cli.addr, accounts, logins, concurrency).await,
                Mode::MovesUnderLogins {
                    level,
                    games,
                    moves,
                    concurrency,
                    in_flight,
                    accounts,
                    seed,
                } => {
                    let games = Games {
                        level,
                        games,
                        moves,
                        seed,
                        concurrency,
                    };
                    moves_under_logins(cli.addr, &games, in_flight, accounts).await
                }
                Mode::MovesUnderReviews {
                    pgn,
                    reviews,
                    level,
                    games,
                    moves,
                    concurrency,
                    seed,
                } => {
                    let games = Games {
                        level,
                        games,
                        moves,
                        seed,
                        concurrency,
                    };
                    moves_under_reviews(cli.addr, &games, &pgn, reviews).await
                }
                Mode::PasswordFlood { clients, seconds } => {
                    flood::run(cli.addr, flood::Options { clients, seconds }).await
                }
                Mode::Fairness {
                    pgn,
                    busy_from,
                    probe_from,
                    games,
                    replies,
                    accounts,
                    warmup,
                    seconds,
                } => {
                    let pgn = std::fs::read_to_string(&pgn)
                        .map_err(|e| ClientError::Unexpected(format!("{}: {e}", pgn.display())))?;
                    let o = fairness::Options {
                        busy_from,
                        probe_from,
                        games,
                        replies,
                        accounts,
                        pgn,
                        warmup,
                        seconds,
                    };
                    fairness::run(cli.addr, o).await
                }
                Mode::Seeks {
                    players,
                    cells,
                    cold,
                } => {
                    let o = seeks::Options {
                        players,
                        cells,
                        cold,
                    };
                    seeks::run(cli.addr, o).await
                }
                Mode::Bots {
                    games,
                    seconds,
                    accounts,
                    think_ms,
                    seed,
                } => {
                    let o = bots::Options {
                        games,
                        seconds,
                        accounts,
                        think_ms,
                        seed,
                    };
                    bots::run(cli.addr, o).await
                }
                Mode::Arena {
                    players,
                    watchers,
                    minutes,
                    think_ms,
                    min_plies,
                    max_plies,
                    seed,
                } => {
                    let o = arena::Options {
                        players,
                        watchers,
                        minutes,
                        think_ms,
                        min_plies,
                        max_plies,
                        seed,
                    };
                    arena::run(cli.addr, o).await
                }
                Mode::Notify {
                    users,
                    sends,
                    rate,
                    seed,
                } => {
                    let o = notify::Options {
                        users,
                        sends,
                        rate,
                        seed,
                    };
                    notify::run(cli.addr, o).await
                }
                Mode::Tv {
                    viewers,
                    moves,
                    gap_ms,
                    seed,
                } => {
                    let o = tv::Options {
                        viewers,
                        moves,
                        gap_ms,
                        seed,
                    };
                    tv::run(cli.addr, o).await
                }
                Mode::Puzzles {
                    solvers,
                    seconds,
                    think_ms,
                    win_rate,
                    seed,
                } => {
                    let o = puzzles::Options {
                        solvers,
                        seconds,
                        think_ms,
                        win_rate,
                        seed,
                    };
                    puzzles::run(cli.addr, o).await
                }
                Mode::Spread(a) => spread_run(cli.addr, a).await,
                Mode::Tables {
                    games,
                    seconds,
                    accounts,
                    think_ms,
                    setup_only,
                    server_pid,
                    seed,
                } => {
                    let o = tables::Options {
                        games,
                        seconds,
                        accounts,
                        think_ms,
                        setup_only,
                        server_pid,
                        seed,
                    };
                    tables::run(cli.addr, o).await
                }
            }
        })
        .await
    });
    match outcome {
        Ok(Ok(())) => std::process::ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("loadgen: {e}");
            std::process::ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("loadgen: gave up after {limit:?}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs `loadgen spread` with `a` (targets default to `addr`).
async fn spread_run(addr: SocketAddr, a: SpreadArgs) -> Result<()> {
    let targets = if a.targets.is_empty() {
        vec![addr]
    } else {
        a.targets
    };
    let nodes = if a.nodes.is_empty() {
        targets.clone()
    } else {
        a.nodes
    };
    if let Some(bad) = targets.iter().chain(&nodes).find(|t| !t.ip().is_loopback()) {
        return Err(ClientError::Unexpected(format!(
            "{bad} is not a loopback address; this tool only loads servers on this machine"
        )));
    }
    let o = spread::Options {
        targets,
        nodes,
        node_pids: a.node_pids,
        games: a.games,
        seconds: a.seconds,
        accounts: a.accounts,
        think_ms: a.think_ms,
        seed: a.seed,
        redis: a.redis,
        pg: a.pg,
        pg_pid: a.pg_pid,
        others: a.other,
        kill: a.kill_node.map(|i| (i, a.kill_after)),
        label: a.label,
    };
    spread::run(o).await
}

/// Account `name` signed up (or logged in to when it exists) through
/// `client`, with a new token of `scopes` described as `description`.
async fn account_token(
    client: &Client,
    name: &str,
    description: &str,
    scopes: &[&str],
) -> Result<String> {
    let body = json!({"username": name, "password": PASSWORD});
    let r = client.post_json("/api/account/signup", &body).await?;
    if r.status == 409 {
        expect(
            "log in",
            client.post_json("/api/account/login", &body).await?,
            200,
        )?;
    } else {
        expect("sign up", r, 201)?;
    }
    let made: Value = expect(
        "make a token",
        client
            .post_json(
                "/api/account/tokens",
                &json!({"description": description, "scopes": scopes}),
            )
            .await?,
        201,
    )?
    .json()?;
    made["token"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| ClientError::Unexpected(format!("no token: {made}")))
}

/// `make(0)` … `make(n - 1)`, at most `at_once` running at a time, in
/// their order.
async fn ready_all<T, F, Fut>(n: usize, at_once: usize, make: F) -> Result<Vec<T>>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<T>> + Send + 'static,
{
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < n || !running.is_empty() {
        while next < n && running.len() < at_once {
            let made = make(next);
            let i = next;
            running.spawn(async move { Ok::<_, ClientError>((i, made.await?)) });
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            let (i, t) = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            out[i] = Some(t);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// `r` if its status is `want`, else an error naming `what` (with advice on
/// a `429`).
fn expect(what: &str, r: Response, want: u16) -> Result<Response> {
    if r.status == want {
        return Ok(r);
    }
    let advice = if r.status == 429 {
        " (start the server with --rate-limits off)"
    } else {
        ""
    };
    Err(ClientError::Unexpected(format!(
        "{what}: {} {}{advice}",
        r.status,
        r.text()
    )))
}

async fn create(c: &Client, level: &str) -> Result<Value> {
    let body = json!({"level": level, "color": "white", "variant": "standard"}).to_string();
    expect(
        "create game",
        c.post("/api/computer-games", &body).await?,
        201,
    )?
    .json()
}

fn random_move(state: &Value, rng: &mut StdRng) -> Option<String> {
    let dests = state["dests"].as_object()?;
    let all: Vec<(String, String)> = dests
        .iter()
        .flat_map(|(from, tos)| {
            tos.as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t.as_str())
                .map(move |to| (from.clone(), to.to_owned()))
        })
        .collect();
    if all.is_empty() {
        return None;
    }
    let (from, to) = &all[rng.random_range(0..all.len())];
    // Promote to a queen when a pawn reaches the last rank.
    let fen = state["fen"].as_str().unwrap_or_default();
    let promo = if is_pawn(fen, from) && (to.ends_with('8') || to.ends_with('1')) {
        "q"
    } else {
        ""
    };
    Some(format!("{from}{to}{promo}"))
}

fn is_pawn(fen: &str, square: &str) -> bool {
    let b = square.as_bytes();
    if b.len() != 2 {
        return false;
    }
    let file = usize::from(b[0].wrapping_sub(b'a'));
    let rank = usize::from(b[1].wrapping_sub(b'1'));
    let Some(row) = fen
        .split(' ')
        .next()
        .and_then(|p| p.split('/').nth(7 - rank))
    else {
        return false;
    };
    let mut f = 0;
    for ch in row.chars() {
        if let Some(n) = ch.to_digit(10) {
            f += n as usize;
        } else {
            if f == file {
                return ch == 'P' || ch == 'p';
            }
            f += 1;
        }
    }
    false
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Times of one or more games, in ms: from sending a move to its ack, and
/// to the computer's reply.
#[derive(Debug, Default)]
struct Samples {
    acks: Vec<f64>,
    replies: Vec<f64>,
}

impl Samples {
    fn extend(&mut self, other: Samples) {
        self.acks.extend(other.acks);
        self.replies.extend(other.replies);
    }

    fn sort(&mut self) {
        self.acks.sort_by(f64::total_cmp);
        self.replies.sort_by(f64::total_cmp);
    }
}

/// Plays one game of `moves` random moves.
async fn play_game(addr: SocketAddr, level: String, moves: u32, seed: u64) -> Result<Samples> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut samples = Samples::default();
    let c = Client::new(addr);
    let mut state = create(&c, &level).await?;
    let id = state["id"].as_str().unwrap_or_default().to_owned();
    let mut ws: Socket = c.socket(&format!("/api/games/{id}/socket?v=0")).await?;
    for n in 0..moves {
        if state["status"] != "ongoing" {
            break;
        }
        let Some(uci) = random_move(&state, &mut rng) else {
            break;
        };
        let ply = state["ply"].as_u64().unwrap_or(0);
        let t0 = Instant::now();
        send_json(&mut ws, &json!({"t":"move","id":n,"uci":uci})).await?;
        let deadline = t0 + WAIT;
        let mut acked = false;
        let mut reply = None;
        while !acked || reply.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = recv_json(&mut ws, left).await?.ok_or(ClientError::Closed)?;
            if m["t"] == "error" {
                return Err(ClientError::Unexpected(format!("move refused: {m}")));
            }
            if m["t"] == "ack" && m["id"] == n && !acked {
                acked = true;
                samples.acks.push(ms(t0));
            }
            if m["t"] == "event" && (m["game"]["ply"] == ply + 2 || m["game"]["status"] == "ended")
            {
                reply = Some(m);
            }
        }
        let reply = reply.unwrap_or_default();
        state = reply["game"].clone();
        if state["ply"] == ply + 2 {
            samples.replies.push(ms(t0));
        }
    }
    Ok(samples)
}

/// Milliseconds since `t0`.
fn ms(t0: Instant) -> f64 {
    t0.elapsed().as_secs_f64() * 1000.0
}

/// A set of games against the computer.
#[derive(Debug, Clone)]
struct Games {
    level: String,
    games: u32,
    moves: u32,
    seed: u64,
    concurrency: usize,
}

/// Plays `g`, at most `g.concurrency` games at a time; the samples and the
/// wall time in seconds.
async fn play_games(addr: SocketAddr, g: &Games) -> Result<(Samples, f64)> {
    let t0 = Instant::now();
    let mut samples = Samples::default();
    let mut next = 0u32;
    let mut running = tokio::task::JoinSet::new();
    while next < g.games || !running.is_empty() {
        while next < g.games && running.len() < g.concurrency.max(1) {
            let game_seed = g.seed.wrapping_mul(1000).wrapping_add(u64::from(next));
            running.spawn(play_game(addr, g.level.clone(), g.moves, game_seed));
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            samples.extend(done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??);
        }
    }
    samples.sort();
    Ok((samples, t0.elapsed().as_secs_f64()))
}

async fn latency(
    addr: SocketAddr,
    levels: &[String],
    games: u32,
    moves: u32,
    seed: u64,
    concurrency: usize,
) -> Result<()> {
    println!("concurrency {concurrency}, {games} games x {moves} moves per level");
    println!("| level | replies | median ms | p95 ms | max ms | moves/s |");
    println!("|---|---|---|---|---|---|");
    for level in levels {
        let g = Games {
            level: level.clone(),
            games,
            moves,
            seed,
            concurrency,
        };
        let (samples, wall) = play_games(addr, &g).await?;
        let replies = &samples.replies;
        println!(
            "| {level} | {} | {:.0} | {:.0} | {:.0} | {:.1} |",
            replies.len(),
            percentile(replies, 50.0),
            percentile(replies, 95.0),
            replies.last().copied().unwrap_or(f64::NAN),
            2.0 * replies.len() as f64 / wall
        );
    }
    Ok(())
}

/// The password of every account loadgen makes (strong enough for the
/// server's estimator).
const PASSWORD: &str = "Loadgen rook lifts to h3, then mates";

/// Signs up `n` fresh accounts, `concurrency` at a time; their names.
async fn sign_up(addr: SocketAddr, n: u32, concurrency: usize) -> Result<Vec<String>> {
    // A random tag keeps the names apart from earlier runs on the same
    // database: `lg` + 8 hex digits + `-` + the index, at most 20 characters.
    let tag: u32 = rand::random();
    let names: Vec<String> = (0..n).map(|i| format!("lg{tag:08x}-{i}")).collect();
    let t0 = Instant::now();
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < names.len() || !running.is_empty() {
        while next < names.len() && running.len() < concurrency.max(1) {
            let name = names[next].clone();
            running.spawn(async move {
                let c = Client::new(addr);
                let body = json!({"username": name, "password": PASSWORD});
                expect(
                    "sign up",
                    c.post_json("/api/account/signup", &body).await?,
                    201,
                )
                .map(drop)
            });
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "accounts signed up: {n} in {wall:.1} s ({:.1}/s)",
        f64::from(n) / wall
    );
    Ok(names)
}

/// One log-in to `name` by `c`; its latency in ms.
async fn log_in(c: &Client, name: &str) -> Result<f64> {
    let body = json!({"username": name, "password": PASSWORD});
    let t0 = Instant::now();
    let r = c.post_json("/api/account/login", &body).await?;
    let took = ms(t0);
    expect("log in", r, 200)?;
    Ok(took)
}

/// Keeps `in_flight` log-ins going round `names` until `stop` is set (or
/// `limit` log-ins are done); the sorted latencies and the wall time in
/// seconds.
async fn log_in_storm(
    addr: SocketAddr,
    names: Arc<Vec<String>>,
    in_flight: usize,
    limit: Option<u32>,
    stop: Arc<AtomicBool>,
) -> Result<(Vec<f64>, f64)> {
    let t0 = Instant::now();
    let next = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..in_flight.max(1) {
        let (names, stop, next) = (Arc::clone(&names), Arc::clone(&stop), Arc::clone(&next));
        workers.spawn(async move {
            let c = Client::new(addr);
            let mut took = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if limit.is_some_and(|l| i >= l) {
                    break;
                }
                let name = &names[i as usize % names.len().max(1)];
                took.push(log_in(&c, name).await?);
            }
            Ok::<_, ClientError>(took)
        });
    }
    let mut all = Vec::new();
    while let Some(done) = workers.join_next().await {
        all.extend(done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??);
    }
    all.sort_by(f64::total_cmp);
    Ok((all, t0.elapsed().as_secs_f64()))
}

async fn login(addr: SocketAddr, accounts: u32, logins: u32, concurrency: usize) -> Result<()> {
    let names = Arc::new(sign_up(addr, accounts.max(1), concurrency).await?);
    let stop = Arc::new(AtomicBool::new(false));
    let (took, wall) = log_in_storm(addr, names, concurrency, Some(logins), stop).await?;
    println!("| log-ins | in flight | p50 ms | p99 ms | max ms | log-ins/s |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| {} | {concurrency} | {:.0} | {:.0} | {:.0} | {:.1} |",
        took.len(),
        percentile(&took, 50.0),
        percentile(&took, 99.0),
        took.last().copied().unwrap_or(f64::NAN),
        took.len() as f64 / wall
    );
    Ok(())
}

async fn moves_under_logins(
    addr: SocketAddr,
    games: &Games,
    in_flight: usize,
    accounts: u32,
) -> Result<()> {
    let names = Arc::new(sign_up(addr, accounts.max(1), in_flight).await?);
    // The second before the games lets the log-ins fill the server's
    // hashing pool.
    let (alone, busy, (logins, wall)) = alone_and_under(addr, games, move |stop| {
        log_in_storm(addr, names, in_flight, None, stop)
    })
    .await?;
    print_phases(
        games,
        &["log-ins", "log-in p50 ms", "log-in p99 ms", "log-ins/s"],
        &alone,
        "0 | - | - | -",
        &format!("{in_flight} log-ins in flight"),
        &busy,
        &format!(
            "{} | {:.0} | {:.0} | {:.1}",
            logins.len(),
            percentile(&logins, 50.0),
            percentile(&logins, 99.0),
            logins.len() as f64 / wall
        ),
    );
    Ok(())
}

/// Plays `games` alone, then again under `load`, started a second before
/// the games and stopped through its flag once they are over: the games'
/// samples alone and under load, and what the load answered.
async fn alone_and_under<T, F>(
    addr: SocketAddr,
    games: &Games,
    load: impl FnOnce(Arc<AtomicBool>) -> F,
) -> Result<(Samples, Samples, T)>
where
    F: std::future::Future<Output = Result<T>> + Send + 'static,
    T: Send + 'static,
{
    let (alone, _) = play_games(addr, games).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let running = tokio::spawn(load(Arc::clone(&stop)));
    tokio::time::sleep(Duration::from_secs(1)).await;
    let played = play_games(addr, games).await;
    stop.store(true, Ordering::Relaxed);
    let out = running
        .await
        .map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
    let (busy, _) = played?;
    Ok((alone, busy, out))
}

/// Prints the games' table, a row alone and one under load (`phase`);
/// `heads` name the load's own columns, `alone_cells` and `busy_cells`
/// fill them.
fn print_phases(
    games: &Games,
    heads: &[&str],
    alone: &Samples,
    alone_cells: &str,
    phase: &str,
    busy: &Samples,
    busy_cells: &str,
) {
    println!(
        "level {}, {} games x {} moves, {} at a time",
        games.level, games.games, games.moves, games.concurrency
    );
    println!(
        "| phase | replies | ack p50 ms | ack p99 ms | reply p50 ms | reply p99 ms | {} |",
        heads.join(" | ")
    );
    println!("{}|", "|---".repeat(6 + heads.len()));
    let row = |phase: &str, s: &Samples, cells: &str| {
        println!(
            "| {phase} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {cells} |",
            s.replies.len(),
            percentile(&s.acks, 50.0),
            percentile(&s.acks, 99.0),
            percentile(&s.replies, 50.0),
            percentile(&s.replies, 99.0),
        );
    };
    row("games alone", alone, alone_cells);
    row(phase, busy, busy_cells);
}

/// A reviewer: its own anonymous player with one imported game.
async fn importer(addr: SocketAddr, pgn: &str) -> Result<(Client, String)> {
    let c = Client::new(addr);
    let body = serde_json::json!({ "pgn": pgn }).to_string();
    let r = expect("import", c.post("/api/import", &body).await?, 201)?;
    let v: Value = r.json()?;
    let id = v["games"][0]["id"]
        .as_str()
        .ok_or_else(|| ClientError::Unexpected(format!("import answered {v}")))?
        .to_owned();
    Ok((c, id))
}

/// Imports the game afresh and reviews it, again and again until `stop`
/// (a new game each round, so no review is served from storage); the
/// seconds each review took from the request to its end.
async fn review_loop(addr: SocketAddr, pgn: String, stop: Arc<AtomicBool>) -> Result<Vec<f64>> {
    let mut took = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let (c, id) = importer(addr, &pgn).await?;
        let path = format!("/api/games/{id}/review");
        let t0 = Instant::now();
        let r = c.post(&path, "{}").await?;
        if !matches!(r.status, 200 | 202) {
            return Err(ClientError::Unexpected(format!(
                "review: {} {}",
                r.status,
                r.text()
            )));
        }
        loop {
            let v: Value = c.get(&path).await?.json()?;
            match v["status"].as_str() {
                Some("done") => break,
                Some("queued" | "running") => tokio::time::sleep(Duration::from_millis(100)).await,
                _ => return Err(ClientError::Unexpected(format!("review: {v}"))),
            }
        }
        took.push(t0.elapsed().as_secs_f64());
    }
    Ok(took)
}

async fn moves_under_reviews(
    addr: SocketAddr,
    games: &Games,
    pgn: &std::path::Path,
    reviews: usize,
) -> Result<()> {
    let text = std::fs::read_to_string(pgn)
        .map_err(|e| ClientError::Unexpected(format!("{}: {e}", pgn.display())))?;
    let (alone, busy, mut took) = alone_and_under(addr, games, move |stop| async move {
        let loops: Vec<_> = (0..reviews)
            .map(|_| tokio::spawn(review_loop(addr, text.clone(), Arc::clone(&stop))))
            .collect();
        let mut took = Vec::new();
        for l in loops {
            took.extend(
                l.await
                    .map_err(|e| ClientError::Unexpected(format!("task: {e}")))??,
            );
        }
        Ok(took)
    })
    .await?;
    took.sort_by(f64::total_cmp);
    print_phases(
        games,
        &["reviews done", "review p50 s", "review max s"],
        &alone,
        "0 | - | -",
        &format!("{reviews} reviews under way"),
        &busy,
        &format!(
            "{} | {:.1} | {:.1}",
            took.len(),
            percentile(&took, 50.0),
            took.last().copied().unwrap_or(f64::NAN)
        ),
    );
    Ok(())
}

async fn metric(addr: SocketAddr, name: &str) -> Result<f64> {
    let text = Client::new(addr).get("/metrics").await?.text();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .ok_or_else(|| ClientError::Unexpected(format!("no metric {name}")))
}

async fn idle(addr: SocketAddr, games: u32, sockets: bool, concurrency: usize) -> Result<()> {
    let rss0 = metric(addr, "process_resident_memory_bytes").await?;
    let live0 = metric(addr, "plyyard_games_live").await?;
    let t0 = Instant::now();
    let mut open: Vec<Socket> = Vec::new();
    let mut made = 0u32;
    while made < games {
        let batch = (games - made).min(u32::try_from(concurrency.max(1)).unwrap_or(1));
        let mut tasks = Vec::new();
        for _ in 0..batch {
            tasks.push(tokio::spawn(async move {
                let c = Client::new(addr);
                let g = create(&c, "normal").await?;
                let id = g["id"].as_str().unwrap_or_default().to_owned();
                if sockets {
                    let ws = c.socket(&format!("/api/games/{id}/socket?v=0")).await?;
                    Ok::<_, ClientError>(Some(ws))
                } else {
                    Ok(None)
                }
            }));
        }
        for t in tasks {
            let ws = t
                .await
                .map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            open.extend(ws);
        }
        made += batch;
    }
    let created = t0.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss1 = metric(addr, "process_resident_memory_bytes").await?;
    let live1 = metric(addr, "plyyard_games_live").await?;
    let sockets_open = metric(addr, "plyyard_sockets_open").await?;
    let mib = |b: f64| b / (1024.0 * 1024.0);
    println!("games created: {games} in {:.1} s", created.as_secs_f64());
    println!("live games: {live0} -> {live1}; sockets open: {sockets_open}");
    println!(
        "server RSS: {:.1} MiB -> {:.1} MiB (+{:.1} MiB, {:.1} KiB per game)",
        mib(rss0),
        mib(rss1),
        mib(rss1 - rss0),
        (rss1 - rss0) / 1024.0 / f64::from(games.max(1))
    );
    drop(open);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawns_are_found_in_fen() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(is_pawn(fen, "e2"));
        assert!(is_pawn(fen, "a7"));
        assert!(!is_pawn(fen, "e1"));
        assert!(!is_pawn(fen, "e4"));
        assert!(is_pawn("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7"));
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 10.0);
        assert_eq!(percentile(&v, 95.0), 19.0);
        assert_eq!(percentile(&v, 100.0), 20.0);
        assert!(percentile(&[], 50.0).is_nan());
    }
}
