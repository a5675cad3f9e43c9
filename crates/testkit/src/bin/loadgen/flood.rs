//! `password-flood`: clients send sign-ups and password changes with
//! 256-character passwords as fast as the server answers, against the
//! server's **default** limits, while a prober measures what everyone else
//! feels: `GET /healthz` and a game socket's `ping` → `pong`, every 50 ms.
//!
//! The contract (hardening, item 2): under such a flood both stay under
//! 100 ms at p99, because the password is scored only after the rate
//! limits and on the bounded hashing pool.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use plyyard_testkit::{Client, recv_json, send_json};
use rand::Rng;
use serde_json::json;

use super::{Result, WAIT, create, percentile};

/// What to run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Flooding clients.
    pub clients: usize,
    /// Length of the measured window, seconds.
    pub seconds: u64,
}

/// A password of 256 random printable characters.
fn long_password() -> String {
    let mut rng = rand::rng();
    (0..256)
        .map(|_| char::from(rng.random_range(b'!'..=b'~')))
        .collect()
}

/// One flooding client until `end`: sign-ups, and password changes once it
/// holds an account; the statuses it got.
async fn flood(addr: SocketAddr, n: usize, end: Instant) -> BTreeMap<u16, u64> {
    let c = Client::new(addr);
    let mut statuses = BTreeMap::new();
    let mut password: Option<String> = None;
    let mut i = 0u64;
    while Instant::now() < end {
        i += 1;
        let new = long_password();
        let r = match &password {
            Some(current) if i.is_multiple_of(2) => {
                let body = json!({"current": current, "new": new});
                c.post_json("/api/account/password", &body).await
            }
            _ => {
                let body = json!({"username": format!("fl{n}x{i}"), "password": new});
                c.post_json("/api/account/signup", &body).await
            }
        };
        let Ok(r) = r else { continue };
        match r.status {
            201 => password = Some(new),
            204 => password = Some(new),
            _ => {}
        }
        *statuses.entry(r.status).or_insert(0) += 1;
    }
    statuses
}

fn line(what: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{what:<22} n={:<5} p50={:>7.1} ms  p99={:>7.1} ms  max={:>7.1} ms",
        ms.len(),
        percentile(&ms, 50.0),
        percentile(&ms, 99.0),
        ms.last().copied().unwrap_or(0.0)
    );
}

/// Runs the flood and prints the prober's latencies and the flood's statuses.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    let prober = Client::new(addr);
    let game = create(&prober, "beginner").await?;
    let id = game["id"].as_str().unwrap_or_default().to_owned();
    let mut ws = prober.game_socket(&id, None).await?;
    recv_json(&mut ws, WAIT).await?;
    let end = Instant::now() + Duration::from_secs(o.seconds);
    let floods: Vec<_> = (0..o.clients)
        .map(|n| tokio::spawn(flood(addr, n, end)))
        .collect();
    let (mut health, mut pings) = (Vec::new(), Vec::new());
    while Instant::now() < end {
        let t = Instant::now();
        prober.get("/healthz").await?;
        health.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        send_json(&mut ws, &json!({"t": "ping"})).await?;
        while let Some(m) = recv_json(&mut ws, WAIT).await? {
            if m["t"] == "pong" {
                break;
            }
        }
        pings.push(t.elapsed().as_secs_f64() * 1000.0);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut statuses = BTreeMap::new();
    for f in floods {
        for (s, n) in f.await.unwrap_or_default() {
            *statuses.entry(s).or_insert(0) += n;
        }
    }
    println!("password flood: {} clients, {} s", o.clients, o.seconds);
    line("GET /healthz", health);
    line("socket ping -> pong", pings);
    println!("flood answers by status: {statuses:?}");
    Ok(())
}
