//! `loadgen notify`: many logged-in pages hold the site socket while
//! challenges and private messages are sent between their accounts; how
//! soon each notification reaches the recipient's page.
//!
//! Setup (not measured): accounts `notify0`, `notify1`, … are signed up
//! (or logged in to), each with a session (its page) and a `challenge:write
//! msg:write follow:write` token; account `i` follows account `i − 1`, so
//! `i − 1` may write to it in its first hour; every page opens
//! `/api/socket/site` and reads its `hello`.
//!
//! Load: `--sends` sends at `--rate` a second, alternating a challenge
//! from a random account to another (`POST /api/challenge/{name}`, cancelled
//! once answered) and a message from account `k` to `k + 1`
//! (`POST /inbox/{name}`, its text naming the send).
//!
//! Measured: from just before a send's request to the arrival of its
//! `notify` on the recipient's socket (a challenge is known by its id, a
//! message by its text). Sends whose notification never came within
//! [`LATE`] count as missing.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plyyard_testkit::{Client, ClientError, Socket, recv_json};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reqwest::Method;
use serde::Serialize;
use tokio::time::Instant;

use super::tables::raise_open_files;
use super::{Result, account_token, expect, metric, percentile, ready_all};

/// Accounts made ready at once.
const ACCOUNT_CONCURRENCY: usize = 8;
/// Sockets opened at once.
const SOCKET_CONCURRENCY: usize = 32;
/// How long a setup step may take.
const STEP: Duration = Duration::from_secs(60);
/// A notification not seen this long after the last send is missing.
const LATE: Duration = Duration::from_secs(10);
/// File descriptors kept besides the connections.
const SPARE_FDS: u64 = 512;

/// The options of `loadgen notify`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Accounts, each with an open page.
    pub users: usize,
    /// Challenges and messages sent, in all.
    pub sends: usize,
    /// Sends a second.
    pub rate: f64,
    /// Seed of the challenge pairs.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Pages connected.
    pub users: usize,
    /// Challenges sent.
    pub challenges: usize,
    /// Messages sent.
    pub msgs: usize,
    /// Challenge → notification: p50, p90, p99, max, ms.
    pub challenge_ms: [f64; 4],
    /// Message → notification: p50, p90, p99, max, ms.
    pub msg_ms: [f64; 4],
    /// Both together: p50, p90, p99, max, ms.
    pub all_ms: [f64; 4],
    /// Notifications that never came.
    pub missing: usize,
    /// Refused sends.
    pub errors: usize,
    /// The server's resident memory at the end, MiB.
    pub rss_mb: f64,
}

/// An account: its page's client, name and token.
struct User {
    client: Client,
    name: String,
    token: String,
}

/// When each send went and each notification came, by key.
#[derive(Default)]
struct Clock {
    sent: HashMap<String, (bool, Instant)>,
    heard: HashMap<String, Instant>,
}

/// Runs the load and prints the report.
///
/// # Errors
/// A setup step failed.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    raise_open_files(3 * o.users as u64 + SPARE_FDS)?;
    let users = ready_all(o.users, ACCOUNT_CONCURRENCY, |i| async move {
        let client = Client::new(addr);
        let name = format!("notify{i}");
        let scopes = ["challenge:write", "msg:write", "follow:write"];
        let token = account_token(&client, &name, "loadgen notify", &scopes).await?;
        Ok(User {
            client,
            name,
            token,
        })
    })
    .await?;
    let users = Arc::new(users);
    eprintln!("notify: {} accounts ready", users.len());
    let n = users.len();
    let follows = Arc::clone(&users);
    ready_all(n, ACCOUNT_CONCURRENCY, move |i| {
        let users = Arc::clone(&follows);
        async move {
            let me = &users[i];
            let before = &users[(i + n - 1) % n];
            let path = format!("/api/rel/follow/{}", before.name);
            let r = me
                .client
                .with_token(&me.token, Method::POST, &path, None)
                .await?;
            expect("follow", r, 200).map(|_| ())
        }
    })
    .await?;
    let clock = Arc::new(Mutex::new(Clock::default()));
    let sockets = Arc::clone(&users);
    let opened = ready_all(n, SOCKET_CONCURRENCY, move |i| {
        let users = Arc::clone(&sockets);
        async move {
            let mut ws = users[i].client.socket("/api/socket/site").await?;
            let hello = recv_json(&mut ws, STEP).await?;
            if hello.as_ref().and_then(|h| h["t"].as_str()) != Some("hello") {
                return Err(ClientError::Unexpected(format!(
                    "site socket said {hello:?}"
                )));
            }
            Ok(ws)
        }
    })
    .await?;
    eprintln!("notify: {} pages connected", opened.len());
    for ws in opened {
        tokio::spawn(listen(ws, Arc::clone(&clock)));
    }
    let errors = send_all(&users, &o, &clock).await;
    let deadline = Instant::now() + LATE;
    while Instant::now() < deadline {
        let all_heard = {
            let c = clock.lock().expect("clock");
            c.sent.keys().all(|k| c.heard.contains_key(k))
        };
        if all_heard {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let report = report(
        &clock,
        n,
        errors,
        metric(addr, "process_resident_memory_bytes").await,
    );
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    Ok(())
}

/// Reads one page's socket, noting when each notification came.
async fn listen(mut ws: Socket, clock: Arc<Mutex<Clock>>) {
    loop {
        let msg = match recv_json(&mut ws, Duration::from_secs(3600)).await {
            Ok(Some(m)) => m,
            _ => return,
        };
        let at = Instant::now();
        if msg["t"] != "notify" {
            continue;
        }
        let note = &msg["note"];
        let key = match note["kind"].as_str() {
            Some("challenge") => note["challenge"].as_str().map(|c| format!("c:{c}")),
            Some("msg") => note["text"].as_str().map(|t| format!("m:{t}")),
            _ => None,
        };
        if let Some(k) = key {
            clock.lock().expect("clock").heard.entry(k).or_insert(at);
        }
    }
}

/// Sends every challenge and message at the rate asked; the refused
/// sends.
async fn send_all(users: &Arc<Vec<User>>, o: &Options, clock: &Arc<Mutex<Clock>>) -> usize {
    let mut rng = StdRng::seed_from_u64(o.seed);
    let gap = Duration::from_secs_f64(1.0 / o.rate.max(0.1));
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for k in 0..o.sends {
        tokio::time::sleep_until(start + gap.mul_f64(k as f64)).await;
        let users = Arc::clone(users);
        let clock = Arc::clone(clock);
        let n = users.len();
        if k % 2 == 0 {
            let from = rng.random_range(0..n);
            let to = (from + rng.random_range(1..n)) % n;
            tasks.spawn(async move { challenge(&users[from], &users[to], &clock).await });
        } else {
            let from = (k / 2) % n;
            tasks.spawn(
                async move { message(&users[from], &users[(from + 1) % n], k, &clock).await },
            );
        }
    }
    let mut errors = 0;
    while let Some(done) = tasks.join_next().await {
        if !matches!(done, Ok(Ok(()))) {
            errors += 1;
        }
    }
    errors
}

async fn challenge(from: &User, to: &User, clock: &Mutex<Clock>) -> Result<()> {
    let t0 = Instant::now();
    let path = format!("/api/challenge/{}", to.name);
    let body = (
        "application/x-www-form-urlencoded",
        "rated=false&clock.limit=300&clock.increment=3",
    );
    let r = from
        .client
        .with_token(&from.token, Method::POST, &path, Some(body))
        .await?;
    let made: serde_json::Value = expect("challenge", r, 200)?.json()?;
    let id = made["id"]
        .as_str()
        .ok_or_else(|| ClientError::Unexpected(format!("no challenge id: {made}")))?;
    clock
        .lock()
        .expect("clock")
        .sent
        .insert(format!("c:{id}"), (true, t0));
    let cancel = format!("/api/challenge/{id}/cancel");
    from.client
        .with_token(&from.token, Method::POST, &cancel, None)
        .await?;
    Ok(())
}

async fn message(from: &User, to: &User, k: usize, clock: &Mutex<Clock>) -> Result<()> {
    let text = format!("load-{k}");
    clock
        .lock()
        .expect("clock")
        .sent
        .insert(format!("m:{text}"), (false, Instant::now()));
    let path = format!("/inbox/{}", to.name);
    let body = format!("text={text}");
    let form = ("application/x-www-form-urlencoded", body.as_str());
    let r = from
        .client
        .with_token(&from.token, Method::POST, &path, Some(form))
        .await?;
    expect("message", r, 200).map(|_| ())
}

fn report(clock: &Mutex<Clock>, users: usize, errors: usize, rss: Result<f64>) -> Report {
    let c = clock.lock().expect("clock");
    let (mut ch, mut ms, mut all) = (Vec::new(), Vec::new(), Vec::new());
    let mut missing = 0;
    for (key, (is_challenge, t0)) in &c.sent {
        let Some(at) = c.heard.get(key) else {
            missing += 1;
            continue;
        };
        let ms_taken = at.saturating_duration_since(*t0).as_secs_f64() * 1000.0;
        if *is_challenge {
            ch.push(ms_taken);
        } else {
            ms.push(ms_taken);
        }
        all.push(ms_taken);
    }
    let figures = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        [
            percentile(v, 50.0),
            percentile(v, 90.0),
            percentile(v, 99.0),
            v.last().copied().unwrap_or(f64::NAN),
        ]
    };
    Report {
        users,
        challenges: c.sent.values().filter(|(is_c, _)| *is_c).count(),
        msgs: c.sent.values().filter(|(is_c, _)| !*is_c).count(),
        challenge_ms: figures(&mut ch),
        msg_ms: figures(&mut ms),
        all_ms: figures(&mut all),
        missing,
        errors,
        rss_mb: rss.map_or(f64::NAN, |b| b / (1024.0 * 1024.0)),
    }
}
