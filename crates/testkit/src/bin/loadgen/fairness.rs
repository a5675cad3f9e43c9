//! `loadgen fairness`: one client address saturates everything its rate
//! limits allow, and another client's experience is measured meanwhile.
//!
//! The busy client (`--busy-from`, a loopback address of its own such as
//! `127.0.0.2`) signs up `--accounts` accounts and then, until the end:
//! keeps `--games` Expert games going (each a fresh anonymous player,
//! moving as soon as the computer has replied, a new game when one ends or
//! when creation is refused later), keeps `--replies` requests to
//! `/api/positions/reply` in flight, has every account ask for 10-second
//! analyses one after another and review an imported game one after
//! another. Refusals (`429`) are waited out as `Retry-After` says.
//!
//! After `--warmup` seconds, the probe (`--probe-from`, another address)
//! plays Beginner games for `--seconds` (a move 200 ms after each reply)
//! and, in parallel, asks for a 200 ms analysis every 2 s and reviews a
//! freshly imported short game (a 7-ply mate) again and again. It measures its move → reply latency,
//! the time until each analysis answered, and each review's start delay
//! (from the request to a status other than `queued`).
//!
//! Tables are printed (ms and s); a probe request refused with `429`
//! counts as refused, and a review that did not start by the end counts as
//! not started.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use plyyard_testkit::{Client, ClientError, recv_json, send_json};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::{PASSWORD, Result, ms, percentile, random_move};

/// The game the probe reviews, again and again: short, so that each
/// review ends soon and the next one's start is measured.
const PROBE_PGN: &str = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

/// The start position, for analyses and replies.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What `loadgen fairness` is asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The busy client's local address.
    pub busy_from: IpAddr,
    /// The probe's local address.
    pub probe_from: IpAddr,
    /// Expert games the busy client keeps going.
    pub games: usize,
    /// `/api/positions/reply` requests the busy client keeps in flight.
    pub replies: usize,
    /// Accounts of the busy client (analyses and reviews).
    pub accounts: usize,
    /// The PGN text every review imports.
    pub pgn: String,
    /// Seconds of load before the probe starts.
    pub warmup: u64,
    /// Seconds the probe measures.
    pub seconds: u64,
}

/// Counts of what the busy client got.
#[derive(Debug, Default)]
struct Tally {
    expert_replies: AtomicU64,
    games_refused: AtomicU64,
    replies_answered: AtomicU64,
    replies_refused: AtomicU64,
    analyses_answered: AtomicU64,
    analyses_refused: AtomicU64,
    reviews_done: AtomicU64,
    reviews_refused: AtomicU64,
}

fn bump(n: &AtomicU64) {
    n.fetch_add(1, Ordering::Relaxed);
}

/// The wait a `429` asks for (at least 1 s).
fn retry_after(r: &plyyard_testkit::Response) -> Duration {
    let secs = r
        .header("retry-after")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(1);
    Duration::from_secs(secs.max(1))
}

/// Sleeps `d`, or less if `stop` is set meanwhile.
async fn nap(d: Duration, stop: &AtomicBool) {
    let until = Instant::now() + d;
    while !stop.load(Ordering::Relaxed) && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50).min(until - Instant::now())).await;
    }
}

fn unexpected(what: &str, r: &plyyard_testkit::Response) -> ClientError {
    ClientError::Unexpected(format!("{what}: {} {}", r.status, r.text()))
}

/// Creates a game at `level` for `c`, waiting out refusals; `None` once
/// `stop` is set.
async fn create_game(
    c: &Client,
    level: &str,
    stop: &AtomicBool,
    refused: Option<&AtomicU64>,
) -> Result<Option<Value>> {
    let body = json!({"level": level, "color": "white", "variant": "standard"}).to_string();
    while !stop.load(Ordering::Relaxed) {
        let r = c.post("/api/computer-games", &body).await?;
        match r.status {
            201 => return Ok(Some(r.json()?)),
            429 => {
                if let Some(n) = refused {
                    bump(n);
                }
                nap(retry_after(&r), stop).await;
            }
            _ => return Err(unexpected("create game", &r)),
        }
    }
    Ok(None)
}

/// Plays games at `level` from `local` until `stop`, a fresh player per
/// game, waiting `think` before each move; the move → reply times in ms.
async fn game_loop(
    addr: SocketAddr,
    local: IpAddr,
    level: &'static str,
    think: Duration,
    seed: u64,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> Result<Vec<f64>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut took = Vec::new();
    let expert = level == "expert";
    while !stop.load(Ordering::Relaxed) {
        let c = Client::connecting_from(addr, Some(local));
        let refused = expert.then_some(&tally.games_refused);
        let Some(mut state) = create_game(&c, level, &stop, refused).await? else {
            break;
        };
        let id = state["id"].as_str().unwrap_or_default().to_owned();
        let mut ws = c.socket(&format!("/api/games/{id}/socket?v=0")).await?;
        let mut n = 0u64;
        while state["status"] == "ongoing" && !stop.load(Ordering::Relaxed) {
            nap(think, &stop).await;
            let Some(uci) = random_move(&state, &mut rng) else {
                break;
            };
            let ply = state["ply"].as_u64().unwrap_or(0);
            let t0 = Instant::now();
            send_json(&mut ws, &json!({"t":"move","id":n,"uci":uci})).await?;
            n += 1;
            let next = loop {
                let m = recv_json(&mut ws, Duration::from_secs(300))
                    .await?
                    .ok_or(ClientError::Closed)?;
                if m["t"] == "error" {
                    return Err(ClientError::Unexpected(format!("move refused: {m}")));
                }
                if m["t"] == "event"
                    && (m["game"]["ply"] == ply + 2 || m["game"]["status"] == "ended")
                {
                    break m["game"].clone();
                }
            };
            if next["ply"] == ply + 2 {
                took.push(ms(t0));
                if expert {
                    bump(&tally.expert_replies);
                }
            }
            state = next;
        }
    }
    Ok(took)
}

/// Asks `/api/positions/reply` again and again from `local` until `stop`.
async fn reply_loop(
    addr: SocketAddr,
    local: IpAddr,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> Result<()> {
    let c = Client::connecting_from(addr, Some(local));
    let body = json!({"fen": START, "uci": "e2e4"}).to_string();
    while !stop.load(Ordering::Relaxed) {
        let r = c.post("/api/positions/reply", &body).await?;
        match r.status {
            200 => bump(&tally.replies_answered),
            429 => {
                bump(&tally.replies_refused);
                nap(retry_after(&r), &stop).await;
            }
            _ => return Err(unexpected("reply", &r)),
        }
    }
    Ok(())
}

/// One analysis of the start position for `movetime_ms`: its status and
/// the time it took in ms.
async fn analysis(c: &Client, movetime_ms: u64) -> Result<(plyyard_testkit::Response, f64)> {
    let body = json!({"fen": START, "movetime_ms": movetime_ms}).to_string();
    let t0 = Instant::now();
    let r = c.post("/api/analysis", &body).await?;
    Ok((r, ms(t0)))
}

/// Ten-second analyses by `c`, one after another, until `stop`.
async fn analysis_loop(c: Client, stop: Arc<AtomicBool>, tally: Arc<Tally>) -> Result<()> {
    while !stop.load(Ordering::Relaxed) {
        let (r, _) = analysis(&c, 10_000).await?;
        match r.status {
            200 | 409 => bump(&tally.analyses_answered),
            429 => {
                bump(&tally.analyses_refused);
                nap(retry_after(&r), &stop).await;
            }
            _ => return Err(unexpected("analysis", &r)),
        }
    }
    Ok(())
}

/// Imports `pgn` for `c`; the game's id.
async fn import(c: &Client, pgn: &str) -> Result<String> {
    let r = c
        .post("/api/import", &json!({ "pgn": pgn }).to_string())
        .await?;
    if r.status != 201 {
        return Err(unexpected("import", &r));
    }
    let v: Value = r.json()?;
    v["games"][0]["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| ClientError::Unexpected(format!("import answered {v}")))
}

/// How a review request went.
enum Review {
    /// Refused (`429`), with the wait asked for.
    Refused(Duration),
    /// Accepted; it left `queued` after this many seconds (`None`: not by
    /// the time `stop` was set).
    Started(Option<f64>),
}

/// Imports `pgn` and asks for its review; on acceptance, waits until it
/// leaves `queued` and then until it is done (or `stop`).
async fn review_once(c: &Client, pgn: &str, stop: &AtomicBool) -> Result<Review> {
    let id = import(c, pgn).await?;
    let path = format!("/api/games/{id}/review");
    let t0 = Instant::now();
    let r = c.post(&path, "{}").await?;
    match r.status {
        200 => return Ok(Review::Started(Some(0.0))),
        202 => {}
        429 => return Ok(Review::Refused(retry_after(&r))),
        _ => return Err(unexpected("review", &r)),
    }
    let mut started = None;
    while !stop.load(Ordering::Relaxed) {
        let v: Value = c.get(&path).await?.json()?;
        let status = v["status"].as_str().unwrap_or_default();
        if status != "queued" && started.is_none() {
            started = Some(t0.elapsed().as_secs_f64());
        }
        match status {
            "done" => break,
            // `none` can come between the review being stored and its job
            // ending (the server reads the two one after the other): ask
            // again.
            "queued" | "running" | "none" => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => return Err(ClientError::Unexpected(format!("review: {v}"))),
        }
    }
    Ok(Review::Started(started))
}

/// Reviews by `c`, one after another, until `stop`.
async fn review_loop(
    c: Client,
    pgn: Arc<String>,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> Result<()> {
    while !stop.load(Ordering::Relaxed) {
        match review_once(&c, &pgn, &stop).await? {
            Review::Refused(wait) => {
                bump(&tally.reviews_refused);
                nap(wait, &stop).await;
            }
            Review::Started(_) => bump(&tally.reviews_done),
        }
    }
    Ok(())
}

/// Signs up `n` accounts from `local`; their logged-in clients.
async fn accounts(addr: SocketAddr, local: IpAddr, n: usize) -> Result<Vec<Client>> {
    let tag: u32 = rand::random();
    let mut out = Vec::new();
    for i in 0..n {
        let c = Client::connecting_from(addr, Some(local));
        let body = json!({"username": format!("fair{tag:08x}-{i}"), "password": PASSWORD});
        let r = c.post_json("/api/account/signup", &body).await?;
        if r.status != 201 {
            return Err(unexpected("sign up", &r));
        }
        out.push(c);
    }
    Ok(out)
}

/// The probe's reviews: the start delays in s, the refusals, and the
/// reviews not started by `stop`.
async fn probe_reviews(
    c: Client,
    pgn: Arc<String>,
    stop: Arc<AtomicBool>,
) -> Result<(Vec<f64>, u32, u32)> {
    let (mut delays, mut refused, mut waiting) = (Vec::new(), 0, 0);
    while !stop.load(Ordering::Relaxed) {
        match review_once(&c, &pgn, &stop).await? {
            Review::Refused(wait) => {
                refused += 1;
                nap(wait, &stop).await;
            }
            Review::Started(Some(s)) => delays.push(s),
            Review::Started(None) => waiting += 1,
        }
    }
    Ok((delays, refused, waiting))
}

/// The probe's analyses of 200 ms, one every 2 s: the answer times in ms
/// and the refusals.
async fn probe_analyses(c: Client, stop: Arc<AtomicBool>) -> Result<(Vec<f64>, u32)> {
    let (mut took, mut refused) = (Vec::new(), 0);
    while !stop.load(Ordering::Relaxed) {
        let (r, t) = analysis(&c, 200).await?;
        match r.status {
            200 => took.push(t),
            429 => refused += 1,
            _ => return Err(unexpected("probe analysis", &r)),
        }
        nap(Duration::from_secs(2), &stop).await;
    }
    Ok((took, refused))
}

fn join_err(e: tokio::task::JoinError) -> ClientError {
    ClientError::Unexpected(format!("task: {e}"))
}

/// Runs `loadgen fairness` (see the module documentation).
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let pgn = Arc::new(o.pgn.clone());
    let mut busy = tokio::task::JoinSet::new();
    let busy_from = o.busy_from;
    for c in accounts(addr, busy_from, o.accounts).await? {
        let (stop, tally) = (Arc::clone(&stop), Arc::clone(&tally));
        busy.spawn(analysis_loop(
            c.clone(),
            Arc::clone(&stop),
            Arc::clone(&tally),
        ));
        busy.spawn(review_loop(c, Arc::clone(&pgn), stop, tally));
    }
    for _ in 0..o.replies {
        busy.spawn(reply_loop(
            addr,
            busy_from,
            Arc::clone(&stop),
            Arc::clone(&tally),
        ));
    }
    for g in 0..o.games {
        let (stop, tally) = (Arc::clone(&stop), Arc::clone(&tally));
        busy.spawn(async move {
            game_loop(
                addr,
                busy_from,
                "expert",
                Duration::ZERO,
                g as u64,
                stop,
                tally,
            )
            .await
            .map(drop)
        });
    }
    println!(
        "busy client {}: {} expert games, {} replies in flight, {} accounts analysing and reviewing; probe {}",
        o.busy_from, o.games, o.replies, o.accounts, o.probe_from
    );
    tokio::time::sleep(Duration::from_secs(o.warmup)).await;
    if let Some(Ok(Err(e))) = busy.try_join_next() {
        return Err(e);
    }

    let probe_stop = Arc::new(AtomicBool::new(false));
    let probe = Client::connecting_from(addr, Some(o.probe_from));
    let games = tokio::spawn(game_loop(
        addr,
        o.probe_from,
        "beginner",
        Duration::from_millis(200),
        7,
        Arc::clone(&probe_stop),
        Arc::clone(&tally),
    ));
    let analyses = tokio::spawn(probe_analyses(probe.clone(), Arc::clone(&probe_stop)));
    let reviews = tokio::spawn(probe_reviews(
        probe,
        Arc::new(PROBE_PGN.to_owned()),
        Arc::clone(&probe_stop),
    ));
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(o.seconds)).await;
    probe_stop.store(true, Ordering::Relaxed);
    // The probe's requests in flight end on their own (a reply, a 10 s
    // analysis at most); the busy client's are dropped.
    let mut replies = games.await.map_err(join_err)??;
    let (mut answered, analyses_refused) = analyses.await.map_err(join_err)??;
    let (mut delays, reviews_refused, not_started) = reviews.await.map_err(join_err)??;
    let window = t0.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut failures = Vec::new();
    while let Some(done) = busy.try_join_next() {
        if let Ok(Err(e)) = done {
            failures.push(e.to_string());
        }
    }
    busy.abort_all();
    for v in [&mut replies, &mut answered, &mut delays] {
        v.sort_by(f64::total_cmp);
    }
    let t = &tally;
    let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
    println!(
        "busy client over the run: {} expert replies, {} game creations refused; \
         positions/reply {} answered, {} refused; analyses {} answered, {} refused; \
         reviews {} done, {} refused",
        n(&t.expert_replies),
        n(&t.games_refused),
        n(&t.replies_answered),
        n(&t.replies_refused),
        n(&t.analyses_answered),
        n(&t.analyses_refused),
        n(&t.reviews_done),
        n(&t.reviews_refused),
    );
    if !failures.is_empty() {
        println!("busy client errors: {}", failures.join("; "));
    }
    println!("probe over {window:.0} s:");
    println!("| probe measure | samples | p50 | p99 | max | refused / not started |");
    println!("|---|---|---|---|---|---|");
    let row = |what: &str, v: &[f64], unit: &str, scale: f64, other: String| {
        println!(
            "| {what} | {} | {:.2} {unit} | {:.2} {unit} | {:.2} {unit} | {other} |",
            v.len(),
            percentile(v, 50.0) * scale,
            percentile(v, 99.0) * scale,
            v.last().copied().unwrap_or(f64::NAN) * scale,
        );
    };
    row("Beginner move → reply", &replies, "s", 0.001, "-".into());
    row(
        "analysis of 200 ms, request → answer",
        &answered,
        "s",
        0.001,
        format!("{analyses_refused} refused"),
    );
    row(
        "review, request → started",
        &delays,
        "s",
        1.0,
        format!("{reviews_refused} refused, {not_started} not started"),
    );
    Ok(())
}
