//! The `serve` subcommand (also what runs with no subcommand): flags and
//! environment for the web server in the `server` crate.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};

/// Subcommands of this family.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the Ply Yard web site (the default when no subcommand is given).
    Serve(ServeArgs),
}

/// Flags of `plyyard serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port (the log says which).
    #[arg(long, env = "PLYYARD_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Database: `sqlite://FILE` or a plain file path (SQLite, created if
    /// missing), or `postgres://USER:PASSWORD@HOST:PORT/DB` (PostgreSQL, an
    /// existing database; several servers may share it). Migrations are
    /// applied at start.
    #[arg(long, env = "PLYYARD_DB", default_value = "sqlite://plyyard.db")]
    pub db: String,
    /// Log filter: a level (`info`, `debug`) or `RUST_LOG` directives. Falls
    /// back to `RUST_LOG`, then `info`.
    #[arg(long = "log", env = "PLYYARD_LOG")]
    pub log: Option<String>,
    /// Secret for signing player cookies. If absent, one is generated and
    /// kept in the database so cookies survive restarts.
    #[arg(long, env = "PLYYARD_SECRET", hide_env_values = true)]
    pub secret: Option<String>,
    /// Computer searches running at once (default: number of CPUs).
    #[arg(long, env = "PLYYARD_ENGINE_WORKERS")]
    pub engine_workers: Option<usize>,
    /// Hash table per engine worker, in MiB.
    #[arg(long, env = "PLYYARD_ENGINE_HASH_MB", default_value_t = 16)]
    pub engine_hash_mb: usize,
    /// Multiplier of every computer level's thinking time.
    #[arg(long, env = "PLYYARD_THINK_TIME_FACTOR", default_value_t = 1.0)]
    pub think_time_factor: f64,
    /// Nodes the engine searches per position of a game review.
    #[arg(long, env = "PLYYARD_REVIEW_NODES", default_value_t = plyyard_review::DEFAULT_NODES)]
    pub review_nodes: u64,
    /// Engines (threads) one game review uses; reviews run one at a time,
    /// beside the computer players' engines.
    #[arg(long, env = "PLYYARD_REVIEW_THREADS", default_value_t = 1)]
    pub review_threads: usize,
    /// Seconds a game without sockets or activity stays in memory.
    #[arg(long, env = "PLYYARD_IDLE_UNLOAD_SECS", default_value_t = 600)]
    pub idle_unload_secs: u64,
    /// Seconds a waiting challenge stays open after its challenger was last
    /// seen (an open event stream renews it; at least 1).
    #[arg(long, env = "PLYYARD_CHALLENGE_TTL_SECS", default_value_t = 20)]
    pub challenge_ttl_secs: u64,
    /// The URL people reach the site at, e.g. `https://chess.example`: only
    /// its origin may make state-changing requests, and with `https` the
    /// cookies are marked `Secure`. Without it, the request's `Host` is the
    /// site's origin.
    #[arg(long, env = "PLYYARD_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Behind a reverse proxy: take the client address from
    /// `X-Forwarded-For` when the request comes from a trusted proxy (the
    /// right-most entry that is not a trusted proxy).
    #[arg(long, env = "PLYYARD_TRUST_PROXY")]
    pub trust_proxy: bool,
    /// The proxies trusted with `--trust-proxy`: addresses or networks,
    /// comma-separated (`10.0.0.2,10.1.0.0/16`). Only requests from them
    /// may tell the client address.
    #[arg(
        long,
        env = "PLYYARD_TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = "127.0.0.0/8,::1/128",
        value_parser = parse_net
    )]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Run as one node of a cluster: the Redis server the nodes share,
    /// `redis://HOST:PORT/DB`. Needs a PostgreSQL `--db` (the nodes share
    /// it too). Without it this node serves alone.
    #[arg(long, env = "PLYYARD_REDIS", hide_env_values = true)]
    pub redis: Option<String>,
    /// This node's id in a cluster (letters, digits, `-`, `_`); by default
    /// one unique to this process.
    #[arg(long, env = "PLYYARD_NODE_ID", value_parser = node_id)]
    pub node_id: Option<String>,
    /// New games one client (address, or account when logged in) may start
    /// per minute, also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_GAMES_PER_MINUTE", default_value_t = 30)]
    pub limit_games_per_minute: u32,
    /// Engine replies to candidate moves (`/api/positions/reply`) one
    /// client (address, or account when logged in) may ask for per minute,
    /// also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_REPLIES_PER_MINUTE", default_value_t = 30)]
    pub limit_replies_per_minute: u32,
    /// Accounts one address may sign up per hour, also the burst; 0 turns
    /// the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_SIGNUPS_PER_HOUR", default_value_t = 10)]
    pub limit_signups_per_hour: u32,
    /// Log-in attempts one address may make per minute, also the burst; 0
    /// turns the limit off (the per-username back-off stays).
    #[arg(long, env = "PLYYARD_LIMIT_LOGINS_PER_MINUTE", default_value_t = 20)]
    pub limit_logins_per_minute: u32,
    /// Tables one client may open or close per minute, counted against its
    /// address and its account alike, also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_TABLES_PER_MINUTE", default_value_t = 20)]
    pub limit_tables_per_minute: u32,
    /// Seeks (quick pairing) one client may start per minute, counted
    /// against its address and its account alike, also the burst; 0 turns
    /// the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_SEEKS_PER_MINUTE", default_value_t = 30)]
    pub limit_seeks_per_minute: u32,
    /// PGN imports one client may make per minute (address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_IMPORTS_PER_MINUTE", default_value_t = 10)]
    pub limit_imports_per_minute: u32,
    /// Learn progress writes one client may make per minute (address and
    /// account alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_PROGRESS_PER_MINUTE", default_value_t = 60)]
    pub limit_progress_per_minute: u32,
    /// API credentials one client may obtain per minute (personal tokens
    /// created, OAuth approvals and code exchanges; address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_CREDENTIALS_PER_MINUTE",
        default_value_t = 10
    )]
    pub limit_credentials_per_minute: u32,
    /// Challenges one client may send per minute (address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_CHALLENGES_PER_MINUTE",
        default_value_t = 20
    )]
    pub limit_challenges_per_minute: u32,
    /// Clubs one client may create per day (address and account alike),
    /// also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_CLUBS_PER_DAY", default_value_t = 5)]
    pub limit_clubs_per_day: u32,
    /// Club actions (joins, requests, quits, kicks, answers, leader
    /// changes, chat lines) one client may make per hour (address and
    /// account alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_CLUB_ACTIONS_PER_HOUR",
        default_value_t = 120
    )]
    pub limit_club_actions_per_hour: u32,
    /// Batches of puzzle solutions one client may send per minute
    /// (address and account alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_PUZZLE_SOLVES_PER_MINUTE",
        default_value_t = 60
    )]
    pub limit_puzzle_solves_per_minute: u32,
    /// Public Lichess-API reads (token tests, user statuses, online bots,
    /// game exports) one client may make per minute (address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_API_READS_PER_MINUTE",
        default_value_t = 120
    )]
    pub limit_api_reads_per_minute: u32,
    /// Tournaments one client may create per day (address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_TOURNAMENTS_PER_DAY", default_value_t = 12)]
    pub limit_tournaments_per_day: u32,
    /// Tournament joins and withdrawals one client may make per hour
    /// (address and account alike), also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_TOURNAMENT_JOINS_PER_HOUR",
        default_value_t = 120
    )]
    pub limit_tournament_joins_per_hour: u32,
    /// Private messages one client may send per day (address and account
    /// alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_MSGS_PER_DAY", default_value_t = 200)]
    pub limit_msgs_per_day: u32,
    /// Follows, unfollows, blocks and unblocks one client may make per
    /// hour (address and account alike), also the burst; 0 turns the
    /// limit off.
    #[arg(long, env = "PLYYARD_LIMIT_RELATIONS_PER_HOUR", default_value_t = 200)]
    pub limit_relations_per_hour: u32,
    /// Reports of players one client may send per hour (address and
    /// account alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_REPORTS_PER_HOUR", default_value_t = 10)]
    pub limit_reports_per_hour: u32,
    /// Chat lines one client may say in any ten seconds (address and
    /// account alike), also the burst; 0 turns the limit off.
    #[arg(long, env = "PLYYARD_LIMIT_CHAT_LINES_PER_10S", default_value_t = 10)]
    pub limit_chat_lines_per_10s: u32,
    /// Table look-ups by code that could reveal a private table (unknown
    /// codes, private tables one does not sit at) one address, and one
    /// account, may make per minute, also the burst; 0 turns the limit off.
    #[arg(
        long,
        env = "PLYYARD_LIMIT_TABLE_LOOKUPS_PER_MINUTE",
        default_value_t = 30
    )]
    pub limit_table_lookups_per_minute: u32,
    /// `off` turns every rate limit off (the `--limit-…` quotas; the
    /// per-username log-in back-off stays): only
    /// for a load test on loopback, where every client comes from one
    /// address. Never `off` on a server people can reach.
    #[arg(
        long,
        env = "PLYYARD_RATE_LIMITS",
        value_enum,
        default_value_t = Switch::On
    )]
    pub rate_limits: Switch,
    /// `off` stops the fair-play watch (rated games reviewed and judged in
    /// the background at the lowest priority): for a machine too small to
    /// spare it, or to measure the site without it.
    #[arg(
        long,
        env = "PLYYARD_FAIR_PLAY",
        value_enum,
        default_value_t = Switch::On
    )]
    pub fair_play: Switch,
    /// The fair-play watch starts no review while this node's live games
    /// commit more moves a second than this, over the last minute (it
    /// catches up once the site is quieter; no game is skipped).
    #[arg(
        long,
        env = "PLYYARD_FAIR_PLAY_PAUSE_ABOVE",
        default_value_t = plyyard_server::config::FAIR_PLAY_PAUSE_ABOVE
    )]
    pub fair_play_pause_above: f64,
    /// Load Ply Yard's own puzzles (shipped in the binary,
    /// `data/puzzles.csv.gz`) into the database at start-up, once.
    #[arg(
        long,
        env = "PLYYARD_OWN_PUZZLES",
        value_enum,
        default_value_t = Switch::On
    )]
    pub own_puzzles: Switch,
}

/// A setting that is `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// Enabled.
    On,
    /// Disabled.
    Off,
}

/// Runs a subcommand of this family.
pub fn run(cmd: Command) -> ExitCode {
    match cmd {
        Command::Serve(args) => serve(args),
    }
}

/// What `plyyard` does with no subcommand: serve with the top-level flags
/// (the same as `plyyard serve`'s), the environment and defaults.
pub fn run_default(args: ServeArgs) -> ExitCode {
    serve(args)
}

fn serve(args: ServeArgs) -> ExitCode {
    let filter = args
        .log
        .clone()
        .or_else(|| std::env::var("RUST_LOG").ok())
        .unwrap_or_else(|| "info".to_owned());
    plyyard_server::init_logging(&filter);
    let mut tuning = plyyard_server::Tuning {
        idle_unload: Duration::from_secs(args.idle_unload_secs.max(1)),
        engine_hash_mb: args.engine_hash_mb.max(1),
        think_time_factor: args.think_time_factor,
        review_nodes: args
            .review_nodes
            .clamp(1, plyyard_review::analyse::MAX_NODES),
        review_threads: args.review_threads.clamp(1, 8),
        challenge_ttl: Duration::from_secs(args.challenge_ttl_secs.max(1)),
        quotas: plyyard_server::security::Quotas {
            games_per_minute: args.limit_games_per_minute,
            replies_per_minute: args.limit_replies_per_minute,
            signups_per_hour: args.limit_signups_per_hour,
            logins_per_minute: args.limit_logins_per_minute,
            tables_per_minute: args.limit_tables_per_minute,
            imports_per_minute: args.limit_imports_per_minute,
            seeks_per_minute: args.limit_seeks_per_minute,
            progress_per_minute: args.limit_progress_per_minute,
            credentials_per_minute: args.limit_credentials_per_minute,
            challenges_per_minute: args.limit_challenges_per_minute,
            chat_lines_per_10s: args.limit_chat_lines_per_10s,
            clubs_per_day: args.limit_clubs_per_day,
            club_actions_per_hour: args.limit_club_actions_per_hour,
            puzzle_solves_per_minute: args.limit_puzzle_solves_per_minute,
            api_reads_per_minute: args.limit_api_reads_per_minute,
            tournaments_per_day: args.limit_tournaments_per_day,
            tournament_joins_per_hour: args.limit_tournament_joins_per_hour,
            msgs_per_day: args.limit_msgs_per_day,
            relations_per_hour: args.limit_relations_per_hour,
            reports_per_hour: args.limit_reports_per_hour,
            table_lookups_per_minute: args.limit_table_lookups_per_minute,
            ..plyyard_server::security::Quotas::default()
        },
        ..plyyard_server::Tuning::default()
    };
    if args.rate_limits == Switch::Off {
        tuning.quotas = rate_limits_off(tuning.quotas);
        tuning.reviews_by_address = false;
        eprintln!(
            "plyyard: rate limits are off (--rate-limits off): for load tests on loopback only"
        );
    }
    if let Some(n) = args.engine_workers {
        tuning.engine_workers = n.max(1);
    }
    tuning.fair_play = args.fair_play == Switch::On;
    tuning.fair_play_pause_above = args.fair_play_pause_above.max(0.0);
    let config = plyyard_server::Config {
        addr: args.addr,
        db: args.db,
        secret: args.secret,
        tuning,
        trust_proxy: args.trust_proxy,
        trusted_proxies: args.trusted_proxies.clone(),
        public_url: args.public_url,
        redis: args.redis,
        node_id: args.node_id,
        own_puzzles: args.own_puzzles == Switch::On,
    };
    match plyyard_server::run(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plyyard: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A node id: 1 to 64 letters, digits, `-` or `_`.
fn node_id(s: &str) -> Result<String, String> {
    let ok = (1..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(s.to_owned())
    } else {
        Err("a node id is 1 to 64 letters, digits, '-' or '_'".to_owned())
    }
}

/// An address (`10.0.0.2`, a network of one) or a network (`10.1.0.0/16`).
fn parse_net(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{s:?} is not an address or a network (10.0.0.2, 10.1.0.0/16)"))
}

/// `quotas` with every rate limit off (a quota of 0 is no limit); the
/// per-username log-in back-off is kept.
fn rate_limits_off(quotas: plyyard_server::security::Quotas) -> plyyard_server::security::Quotas {
    plyyard_server::security::Quotas {
        games_per_minute: 0,
        replies_per_minute: 0,
        signups_per_hour: 0,
        logins_per_minute: 0,
        tables_per_minute: 0,
        imports_per_minute: 0,
        seeks_per_minute: 0,
        progress_per_minute: 0,
        credentials_per_minute: 0,
        challenges_per_minute: 0,
        chat_lines_per_10s: 0,
        table_lookups_per_minute: 0,
        analyses_per_minute: 0,
        clubs_per_day: 0,
        club_actions_per_hour: 0,
        puzzle_solves_per_minute: 0,
        api_reads_per_minute: 0,
        tournaments_per_day: 0,
        tournament_joins_per_hour: 0,
        msgs_per_day: 0,
        relations_per_hour: 0,
        reports_per_hour: 0,
        ..quotas
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    #[tokio::test]
    async fn rate_limits_are_on_by_default_and_off_turns_every_quota_off() {
        let on = Cli::try_parse_from(["plyyard"]).unwrap().serve;
        assert_eq!(on.rate_limits, Switch::On);
        assert_eq!(
            Duration::from_secs(on.challenge_ttl_secs),
            plyyard_server::config::CHALLENGE_TTL
        );
        let off = Cli::try_parse_from(["plyyard", "--rate-limits", "off"])
            .unwrap()
            .serve;
        assert_eq!(off.rate_limits, Switch::Off);
        assert!(Cli::try_parse_from(["plyyard", "--rate-limits", "maybe"]).is_err());
        let q = rate_limits_off(plyyard_server::security::Quotas::default());
        let limits = plyyard_server::security::Limits::new(&q);
        let ip = plyyard_server::security::ClientIp("127.0.0.1".parse().unwrap());
        let key = plyyard_server::security::LimitKey::new(ip, None);
        for _ in 0..1000 {
            limits.check_signup(ip).await.unwrap();
            limits.check_login(ip, "load1").await.unwrap();
            limits.login_succeeded("load1").await;
            limits.check_create_game(&key).await.unwrap();
            limits.check_tables(ip, None).await.unwrap();
            limits.check_import(ip, None).await.unwrap();
            limits.check_progress(ip, None).await.unwrap();
            limits.check_table_lookup(ip, None).await.unwrap();
            limits.check_reply(&key).await.unwrap();
            limits.check_table_lookup(ip, None).await.unwrap();
            limits.check_tournaments(ip, None).await.unwrap();
            limits.check_tournament_joins(ip, None).await.unwrap();
        }
        let on =
            plyyard_server::security::Limits::new(&plyyard_server::security::Quotas::default());
        let mut refused = false;
        for _ in 0..1000 {
            refused |= on.check_signup(ip).await.is_err();
        }
        assert!(refused);
        assert_eq!(
            q.login_free_failures,
            plyyard_server::security::Quotas::default().login_free_failures
        );
    }
}
