//! Load generator for a Ply Yard server on this machine (loopback only).
//!
//! - `latency`: plays games against the computer at each level and measures
//!   the time from sending a move to receiving the computer's reply.
//! - `idle`: creates many games (optionally with an open socket each) and
//!   reads the server's resident memory from `/metrics`.
//!
//! Every loop is bounded by the counts given and by `--timeout`.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use testkit::{Client, ClientError, Socket, recv_until, send_json};

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
    let limit = Duration::from_secs(cli.timeout);
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

async fn create(c: &Client, level: &str) -> Result<Value> {
    let body = json!({"level": level, "color": "white", "variant": "standard"}).to_string();
    let r = c.post("/api/computer-games", &body).await?;
    if r.status != 201 {
        return Err(ClientError::Unexpected(format!(
            "create game: {} {}",
            r.status,
            r.text()
        )));
    }
    r.json()
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

/// Plays one game of `moves` random moves; returns the reply times in ms.
async fn play_game(addr: SocketAddr, level: String, moves: u32, seed: u64) -> Result<Vec<f64>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut samples = Vec::new();
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
        let reply = recv_until(&mut ws, WAIT, |m| {
            (m["t"] == "event" && (m["game"]["ply"] == ply + 2 || m["game"]["status"] == "ended"))
                || m["t"] == "error"
        })
        .await?;
        if reply["t"] == "error" {
            return Err(ClientError::Unexpected(format!("move refused: {reply}")));
        }
        state = reply["game"].clone();
        if state["ply"] == ply + 2 {
            samples.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(samples)
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
        let t0 = Instant::now();
        let mut samples = Vec::new();
        let mut next = 0u32;
        let mut running = tokio::task::JoinSet::new();
        while next < games || !running.is_empty() {
            while next < games && running.len() < concurrency.max(1) {
                let game_seed = seed.wrapping_mul(1000).wrapping_add(u64::from(next));
                running.spawn(play_game(addr, level.clone(), moves, game_seed));
                next += 1;
            }
            if let Some(done) = running.join_next().await {
                samples.extend(done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??);
            }
        }
        let wall = t0.elapsed().as_secs_f64();
        samples.sort_by(f64::total_cmp);
        println!(
            "| {level} | {} | {:.0} | {:.0} | {:.0} | {:.1} |",
            samples.len(),
            percentile(&samples, 50.0),
            percentile(&samples, 95.0),
            samples.last().copied().unwrap_or(f64::NAN),
            2.0 * samples.len() as f64 / wall
        );
    }
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
