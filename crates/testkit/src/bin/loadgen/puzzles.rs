//! `loadgen puzzles`: many solvers using the puzzle trainer at once over
//! lichess's puzzle API, as the mobile app does; the latency of the next
//! puzzle and of a solve's round trip.
//!
//! Setup (not measured): accounts `puz0`, `puz1`, … are signed up (or
//! logged in to), and each makes a token with the scopes `puzzle:read`
//! and `puzzle:write` (`POST /api/account/tokens`).
//!
//! Measured window (`--seconds`): every solver loops, thinking between
//! puzzles for a time drawn uniformly from `[0, 2 × --think-ms]` (the
//! first wait too, so that the solvers start spread out; `0`: no pause,
//! the server saturated): `GET /api/puzzle/next` (the *next* latency), then
//! `POST /api/puzzle/batch/mix?nb=1` with that puzzle's solution
//! (`{"solutions":[{"id","win","rated":true}]}`, a win drawn with
//! `--win-rate` from the seed): the *solve* round trip, which records the
//! round, rates it, and answers the next puzzle and the new rating. Every
//! answer is checked: the next puzzle has an id and a solution, the solve
//! answers exactly one round for that id, rated the first time.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use plyyard_testkit::{Client, ClientError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::tables::raise_open_files;
use super::{Result, account_token, expect, percentile, ready_all};

/// Accounts made ready at once.
const ACCOUNT_CONCURRENCY: usize = 8;

/// File descriptors the tool keeps besides its connections.
const SPARE_FDS: u64 = 256;

/// How long one request may take before it counts as an error.
const REQUEST_WAIT: Duration = Duration::from_secs(30);

/// The options of `loadgen puzzles`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Solvers looping at once (one account each).
    pub solvers: usize,
    /// Length of the measured window, seconds.
    pub seconds: u64,
    /// Mean think time between puzzles, ms.
    pub think_ms: u64,
    /// Share of solves sent as wins.
    pub win_rate: f64,
    /// Seed of the wins and losses.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Solvers looping at once.
    pub solvers: usize,
    /// Mean think time between puzzles, ms.
    pub think_ms: u64,
    /// Rounds (next, then solve) completed in the window.
    pub rounds: u64,
    /// `rounds` per second of the window.
    pub rounds_per_s: f64,
    /// Median `GET /api/puzzle/next` latency, ms.
    pub next_p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub next_p99_ms: f64,
    /// Median solve round trip (`POST /api/puzzle/batch/mix`), ms.
    pub solve_p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub solve_p99_ms: f64,
    /// Solves that came back rated.
    pub rated: u64,
    /// Failed, refused or malformed answers.
    pub errors: u64,
}

/// A solver: its HTTP client and token.
#[derive(Debug, Clone)]
struct Solver {
    client: Client,
    token: String,
}

/// What one solver measured.
#[derive(Debug, Default)]
struct Times {
    next_ms: Vec<f64>,
    solve_ms: Vec<f64>,
    rated: u64,
    errors: u64,
}

/// Runs `loadgen puzzles`.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    raise_open_files(2 * o.solvers as u64 + SPARE_FDS)?;
    let t0 = std::time::Instant::now();
    let solvers = solvers(addr, o.solvers.max(1)).await?;
    println!(
        "solvers ready: {} in {:.1} s (signed up or logged in, token made)",
        solvers.len(),
        t0.elapsed().as_secs_f64()
    );
    let end = Instant::now() + Duration::from_secs(o.seconds);
    let options = Arc::new(o.clone());
    let mut running = tokio::task::JoinSet::new();
    for (i, s) in solvers.into_iter().enumerate() {
        let o = Arc::clone(&options);
        running.spawn(solve_loop(
            s,
            end,
            Arc::clone(&o),
            o.seed.wrapping_add(i as u64),
        ));
    }
    let mut all = Times::default();
    while let Some(done) = running.join_next().await {
        let t = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?;
        all.next_ms.extend(t.next_ms);
        all.solve_ms.extend(t.solve_ms);
        all.rated += t.rated;
        all.errors += t.errors;
    }
    all.next_ms.sort_by(f64::total_cmp);
    all.solve_ms.sort_by(f64::total_cmp);
    let rounds = all.solve_ms.len() as u64;
    let report = Report {
        solvers: options.solvers,
        think_ms: options.think_ms,
        rounds,
        rounds_per_s: round(rounds as f64 / options.seconds.max(1) as f64, 1),
        next_p50_ms: round(percentile(&all.next_ms, 50.0), 2),
        next_p99_ms: round(percentile(&all.next_ms, 99.0), 2),
        solve_p50_ms: round(percentile(&all.solve_ms, 50.0), 2),
        solve_p99_ms: round(percentile(&all.solve_ms, 99.0), 2),
        rated: all.rated,
        errors: all.errors,
    };
    println!(
        "{}",
        serde_json::to_string(&report).map_err(|e| ClientError::Unexpected(e.to_string()))?
    );
    Ok(())
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// Accounts `puz0`… made ready, [`ACCOUNT_CONCURRENCY`] at a time, each
/// with a new puzzle token.
async fn solvers(addr: SocketAddr, n: usize) -> Result<Vec<Solver>> {
    ready_all(n, ACCOUNT_CONCURRENCY, move |i| async move {
        let client = Client::new(addr);
        let scopes = ["puzzle:read", "puzzle:write"];
        let token = account_token(&client, &format!("puz{i}"), "loadgen puzzles", &scopes).await?;
        Ok(Solver { client, token })
    })
    .await
}

/// One solver's rounds until `end`.
async fn solve_loop(s: Solver, end: Instant, o: Arc<Options>, seed: u64) -> Times {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t = Times::default();
    loop {
        if o.think_ms > 0 {
            let think = rng.random_range(0..=2 * o.think_ms);
            tokio::time::sleep(Duration::from_millis(think)).await;
        }
        if Instant::now() >= end {
            break;
        }
        let win = rng.random_bool(o.win_rate.clamp(0.0, 1.0));
        match one_round(&s, win).await {
            Ok((next_ms, solve_ms, rated)) => {
                t.next_ms.push(next_ms);
                t.solve_ms.push(solve_ms);
                t.rated += u64::from(rated);
            }
            Err(e) => {
                t.errors += 1;
                if t.errors <= 3 {
                    eprintln!("loadgen puzzles: {e}");
                }
            }
        }
    }
    t
}

/// Next, then solve: both latencies in ms, and whether the solve was rated.
async fn one_round(s: &Solver, win: bool) -> Result<(f64, f64, bool)> {
    let started = Instant::now();
    let r = timed(
        s.client
            .with_token(&s.token, reqwest::Method::GET, "/api/puzzle/next", None),
    )
    .await?;
    let next_ms = started.elapsed().as_secs_f64() * 1000.0;
    let next: Value = expect("next puzzle", r, 200)?.json()?;
    let id = next["puzzle"]["id"]
        .as_str()
        .filter(|_| {
            next["puzzle"]["solution"]
                .as_array()
                .is_some_and(|s| !s.is_empty())
        })
        .ok_or_else(|| ClientError::Unexpected(format!("no puzzle: {next}")))?
        .to_owned();
    let body = json!({"solutions": [{"id": id, "win": win, "rated": true}]}).to_string();
    let started = Instant::now();
    let r = timed(s.client.with_token(
        &s.token,
        reqwest::Method::POST,
        "/api/puzzle/batch/mix?nb=1",
        Some(("application/json", &body)),
    ))
    .await?;
    let solve_ms = started.elapsed().as_secs_f64() * 1000.0;
    let answer: Value = expect("solve", r, 200)?.json()?;
    let rounds = answer["rounds"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if rounds.len() != 1 || rounds[0]["id"] != id.as_str() || answer["puzzles"].as_array().is_none()
    {
        return Err(ClientError::Unexpected(format!("solve of {id}: {answer}")));
    }
    Ok((next_ms, solve_ms, rounds[0].get("ratingDiff").is_some()))
}

async fn timed<F: std::future::Future<Output = Result<plyyard_testkit::Response>>>(
    f: F,
) -> Result<plyyard_testkit::Response> {
    tokio::time::timeout(REQUEST_WAIT, f)
        .await
        .map_err(|_| ClientError::Unexpected(format!("no answer in {REQUEST_WAIT:?}")))?
}
