//! `loadgen seeks`: many players seek a game by quick pairing at the same
//! moment; how long until every one of them is paired.
//!
//! Setup (not measured): accounts `load0`, `load1`, … are signed up, or
//! logged in to when they exist (as `loadgen tables` does).
//!
//! Warm-up (not measured): every player asks `GET /api/session`, so that
//! each has an open connection as a player on the site has (the accounts'
//! own connections closed while the others were set up; without this, the
//! run measures 2,000 TCP connections at once, past the listener's backlog
//! of 1,024, unless `--cold`).
//!
//! Measured: every player sends `POST /api/seeks` at once (the requests
//! are all built first, then released together), player `i` seeking the
//! grid's cell `i mod --cells` (the five presets rated, then the five in
//! Chess960), and waits for its answer. The time of a player is from the
//! release to its answer; *all_paired_ms* is the last one's. Every answer
//! is checked: each game has exactly two players of the same cell, one
//! White and one Black.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use plyyard_testkit::{Client, ClientError};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::Barrier;
use tokio::time::Instant;

use super::{Result, percentile};

/// How long one seek may wait for its game.
const SEEK_WAIT: Duration = Duration::from_secs(60);

/// The grid's cells: (variant, minutes, increment).
const CELLS: [(&str, u32, u32); 10] = [
    ("standard", 3, 2),
    ("standard", 5, 3),
    ("standard", 10, 5),
    ("standard", 15, 10),
    ("standard", 30, 20),
    ("chess960", 3, 2),
    ("chess960", 5, 3),
    ("chess960", 10, 5),
    ("chess960", 15, 10),
    ("chess960", 30, 20),
];

/// The options of `loadgen seeks`.
#[derive(Debug)]
pub struct Options {
    /// Players seeking at once (even: everyone can pair).
    pub players: usize,
    /// Grid cells the players are spread over (1–10).
    pub cells: usize,
    /// No warm-up: each seek opens its connection when released.
    pub cold: bool,
}

/// What a run measured.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Players seeking.
    pub players: usize,
    /// Grid cells used.
    pub cells: usize,
    /// Games made (should be players / 2).
    pub games: usize,
    /// From the release of the seeks to the last answer, ms.
    pub all_paired_ms: f64,
    /// Median time to a player's answer, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Seeks that failed, timed out or were answered wrongly.
    pub errors: usize,
}

/// Runs the load and prints its report.
///
/// # Errors
/// Setup failures; a refused seek (`429`: rate limits must be off).
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    let cells = o.cells.clamp(1, CELLS.len());
    if !o.players.is_multiple_of(2 * cells) {
        return Err(ClientError::Unexpected(format!(
            "--players must be a multiple of 2 × --cells ({}) so that everyone can pair",
            2 * cells
        )));
    }
    super::tables::raise_open_files(2 * o.players as u64 + 256)?;
    let t_setup = Instant::now();
    let players = super::tables::accounts(addr, o.players).await?;
    eprintln!(
        "{} accounts ready in {:.1} s",
        players.len(),
        t_setup.elapsed().as_secs_f64()
    );
    let release = Arc::new(Barrier::new(players.len() + 1));
    let mut running = tokio::task::JoinSet::new();
    for (i, c) in players.into_iter().enumerate() {
        let (variant, minutes, increment) = CELLS[i % cells];
        let body =
            json!({"variant": variant, "minutes": minutes, "increment": increment, "rated": true});
        let release = Arc::clone(&release);
        let cold = o.cold;
        running.spawn(async move { seek(c, i, body, cold, release).await });
    }
    release.wait().await;
    let t0 = Instant::now();
    let mut times = Vec::with_capacity(o.players);
    let mut games: HashMap<String, Vec<(usize, String)>> = HashMap::new();
    let mut errors = 0;
    while let Some(done) = running.join_next().await {
        match done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))? {
            Ok((i, at, answer)) => {
                times.push(at.duration_since(t0).as_secs_f64() * 1000.0);
                let id = answer["game_id"].as_str().unwrap_or_default().to_owned();
                let color = answer["color"].as_str().unwrap_or_default().to_owned();
                games.entry(id).or_default().push((i, color));
            }
            Err(e) => {
                errors += 1;
                eprintln!("seek: {e}");
            }
        }
    }
    for (id, seated) in &games {
        let good = seated.len() == 2
            && seated[0].1 != seated[1].1
            && seated[0].0 % cells == seated[1].0 % cells
            && !id.is_empty();
        if !good {
            errors += seated.len();
            eprintln!("game {id:?}: {seated:?}");
        }
    }
    times.sort_by(f64::total_cmp);
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let report = Report {
        players: o.players,
        cells,
        games: games.len(),
        all_paired_ms: round(times.last().copied().unwrap_or(0.0)),
        p50_ms: round(percentile(&times, 50.0)),
        p99_ms: round(percentile(&times, 99.0)),
        errors,
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

/// Player `i` seeks `body` once released; its answer and when it came.
async fn seek(
    c: Client,
    i: usize,
    body: Value,
    cold: bool,
    release: Arc<Barrier>,
) -> Result<(usize, Instant, Value)> {
    let text = body.to_string();
    if !cold {
        super::expect("warm-up", c.get("/api/session").await?, 200)?;
    }
    release.wait().await;
    let r = tokio::time::timeout(SEEK_WAIT, c.post("/api/seeks", &text))
        .await
        .map_err(|_| {
            ClientError::Unexpected(format!("player {i}: no game within {SEEK_WAIT:?}"))
        })??;
    let at = Instant::now();
    let r = super::expect("seek", r, 200)?;
    Ok((i, at, r.json()?))
}
