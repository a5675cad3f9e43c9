//! `loadgen arena`: one Arena of many players playing over the Board API
//! and event streams, as lichess's Board API apps do, watched by many
//! pages through the tournament socket; how soon a player whose game
//! ended is paired again, and how soon a game's end reaches the watchers'
//! standings.
//!
//! Setup (not measured): accounts `arena0`, `arena1`, … are signed up (or
//! logged in to) and each makes a `board:play tournament:write` token;
//! `arena0` creates a rated 3+2 Arena starting once everyone can have
//! joined; every player opens its event stream (which keeps it "on the
//! tournament page") and joins; the watchers open
//! `GET /api/tournament/{id}/socket`.
//!
//! Play: a player that reads `gameStart` opens the game's Board stream and
//! plays random legal moves after a think time drawn uniformly from
//! `[0, 2 × --think-ms]`, resigning when the game reaches the ply it drew
//! from `[--min-plies, --max-plies]` (so games end at a steady rate); then
//! it reads its event stream for the next `gameStart`.
//!
//! Measured:
//! - **re-pairing**: from a player's game ending (its Board stream shows
//!   the end) to its next `gameStart`, for games that ended more than
//!   [`CLOSING_SLACK`] before pairing closes; a player never paired again
//!   counts with the time to pairing's close.
//! - **standings**: each watcher's message says how many games are scored
//!   (`finished`); the games that ended are ordered by when their end was
//!   seen; for every message that adds games, the time from the earliest
//!   added game's end to the message's arrival (the worst game of that
//!   message).
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plyyard_testkit::{Client, ClientError, recv_json};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tokio::time::Instant;

use super::bots::{Api, Board, Stream};
use super::tables::raise_open_files;
use super::{Result, account_token, metric, percentile, ready_all};

/// How long one setup step (a request, a stream line) may take.
const STEP: Duration = Duration::from_secs(60);
/// Accounts made ready at once.
const ACCOUNT_CONCURRENCY: usize = 8;
/// Players joining (and watchers connecting) at once.
const JOIN_CONCURRENCY: usize = 32;
/// Games that end this close to pairing's close are not measured: their
/// players may rightly not be paired again (a small crowd waits up to 32 s
/// at 3+2 before a wave).
const CLOSING_SLACK: Duration = Duration::from_secs(45);
/// File descriptors the tool keeps besides its connections.
const SPARE_FDS: u64 = 512;
/// The Arena's clock: the fastest tables play.
const CLOCK: (u32, u32) = (3, 2);

/// The options of `loadgen arena`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Players in the Arena.
    pub players: usize,
    /// Pages watching its standings.
    pub watchers: usize,
    /// The Arena's length, minutes.
    pub minutes: u32,
    /// Mean think time, ms.
    pub think_ms: u64,
    /// Fewest plies before one side resigns.
    pub min_plies: usize,
    /// Most plies before one side resigns.
    pub max_plies: usize,
    /// Seed of the think times, move choices and resignations.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Players in the Arena.
    pub players: usize,
    /// Watchers connected.
    pub watchers: usize,
    /// Games played (ended).
    pub games: usize,
    /// Re-pairings measured.
    pub repairs: usize,
    /// Median game end → next `gameStart`, s.
    pub repair_p50_s: f64,
    /// 99th percentile of the same, s.
    pub repair_p99_s: f64,
    /// The slowest, s.
    pub repair_max_s: f64,
    /// Standings messages that added games, over all watchers.
    pub pushes: usize,
    /// Median game end → watcher's message, ms.
    pub standings_p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub standings_p99_ms: f64,
    /// The server's resident memory at the end, MiB.
    pub rss_mb: f64,
    /// Refused requests and failed streams.
    pub errors: u64,
}

/// A player: its name and token.
#[derive(Debug, Clone)]
struct Player {
    name: String,
    token: String,
}

/// What every task shares: the ends seen so far, in order.
#[derive(Debug, Default)]
struct Ends {
    /// Games whose end was seen.
    seen: HashSet<String>,
    /// When each end was seen, ascending.
    at: Vec<Instant>,
}

impl Ends {
    /// Notes game `id`'s end (once per game).
    fn note(&mut self, id: &str, at: Instant) {
        if self.seen.insert(id.to_owned()) {
            let i = self.at.partition_point(|&t| t <= at);
            self.at.insert(i, at);
        }
    }
}

/// What one player counted.
#[derive(Debug, Default)]
struct Tally {
    repairs_s: Vec<f64>,
    errors: u64,
    first_error: Option<String>,
}

impl Tally {
    fn error(&mut self, e: String) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e);
        }
    }
}

/// Runs `loadgen arena`.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    raise_open_files(3 * o.players as u64 + o.watchers as u64 + SPARE_FDS)?;
    let t0 = std::time::Instant::now();
    let players = players(addr, o.players.max(2)).await?;
    println!(
        "players ready: {} in {:.1} s",
        players.len(),
        t0.elapsed().as_secs_f64()
    );
    let http = reqwest::Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(4 * JOIN_CONCURRENCY)
        .build()?;
    let api = Api { addr, http };

    // Joining takes about a millisecond or two a player; leave ample room.
    let lead = Duration::from_secs(30 + players.len() as u64 / 50);
    let starts = now_ms() + lead.as_millis() as u64;
    let id = create(&api, &players[0], o.minutes, starts).await?;
    println!(
        "arena {id}: {} min, starts in {} s",
        o.minutes,
        lead.as_secs()
    );
    let finishes = starts + u64::from(o.minutes) * 60_000;
    let margin = (CLOCK.0 * 60 / 2).clamp(30, 120);
    let closes = finishes - u64::from(margin) * 1000;
    let deadline = Instant::now() + Duration::from_millis(finishes - now_ms());
    let closing = Instant::now() + Duration::from_millis(closes - now_ms());

    let t1 = std::time::Instant::now();
    let streams = join_all(&api, &players, &id).await?;
    println!(
        "joined: {} with event streams open in {:.1} s",
        streams.len(),
        t1.elapsed().as_secs_f64()
    );
    let ends: Arc<Mutex<Ends>> = Arc::default();
    let t2 = std::time::Instant::now();
    let mut watchers = tokio::task::JoinSet::new();
    for w in connect_watchers(addr, &id, o.watchers).await? {
        watchers.spawn(watch(w, Arc::clone(&ends), deadline));
    }
    println!(
        "watchers connected: {} in {:.1} s",
        watchers.len(),
        t2.elapsed().as_secs_f64()
    );

    let mut tasks = tokio::task::JoinSet::new();
    for (i, (player, events)) in players.into_iter().zip(streams).enumerate() {
        let rng = StdRng::seed_from_u64(o.seed.wrapping_add(0x9e37 * (i as u64 + 1)));
        let p = Play {
            api: api.clone(),
            player,
            events,
            ends: Arc::clone(&ends),
            deadline,
            closing,
            o: o.clone(),
        };
        tasks.spawn(p.run(rng));
    }
    let mut all = Tally::default();
    while let Some(done) = tasks.join_next().await {
        let t = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?;
        all.repairs_s.extend(t.repairs_s);
        all.errors += t.errors;
        if all.first_error.is_none() {
            all.first_error = t.first_error;
        }
    }
    let mut lat_ms = Vec::new();
    while let Some(done) = watchers.join_next().await {
        lat_ms.extend(done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?);
    }
    let rss = metric(addr, "process_resident_memory_bytes").await?;
    all.repairs_s.sort_by(f64::total_cmp);
    lat_ms.sort_by(f64::total_cmp);
    let games = ends.lock().map_or(0, |e| e.at.len());
    println!(
        "games ended: {games}; re-pairings measured: {}; errors: {}",
        all.repairs_s.len(),
        all.errors
    );
    if let Some(e) = &all.first_error {
        println!("first error: {e}");
    }
    println!(
        "game end → next gameStart s: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        percentile(&all.repairs_s, 50.0),
        percentile(&all.repairs_s, 90.0),
        percentile(&all.repairs_s, 99.0),
        all.repairs_s.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "game end → watcher's standings ms: p50 {:.0}, p90 {:.0}, p99 {:.0}, max {:.0} ({} messages)",
        percentile(&lat_ms, 50.0),
        percentile(&lat_ms, 90.0),
        percentile(&lat_ms, 99.0),
        lat_ms.last().copied().unwrap_or(f64::NAN),
        lat_ms.len()
    );
    let report = Report {
        players: o.players,
        watchers: o.watchers,
        games,
        repairs: all.repairs_s.len(),
        repair_p50_s: round(percentile(&all.repairs_s, 50.0), 2),
        repair_p99_s: round(percentile(&all.repairs_s, 99.0), 2),
        repair_max_s: round(all.repairs_s.last().copied().unwrap_or(f64::NAN), 2),
        pushes: lat_ms.len(),
        standings_p50_ms: round(percentile(&lat_ms, 50.0), 0),
        standings_p99_ms: round(percentile(&lat_ms, 99.0), 0),
        rss_mb: round(rss / (1024.0 * 1024.0), 1),
        errors: all.errors,
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Players `arena0` … `arena{n-1}`, [`ACCOUNT_CONCURRENCY`] made ready at a time.
async fn players(addr: SocketAddr, n: usize) -> Result<Vec<Player>> {
    ready_all(n, ACCOUNT_CONCURRENCY, move |i| async move {
        let name = format!("arena{i}");
        let scopes = ["board:play", "tournament:write"];
        let token = account_token(&Client::new(addr), &name, "loadgen arena", &scopes).await?;
        Ok(Player { name, token })
    })
    .await
}

/// Creates the Arena; its id.
async fn create(api: &Api, by: &Player, minutes: u32, starts_ms: u64) -> Result<String> {
    let form = format!(
        "name=Loadgen&clockTime={}&clockIncrement={}&minutes={minutes}&startDate={starts_ms}\
         &rated=true&berserkable=true",
        CLOCK.0, CLOCK.1
    );
    let (status, v) = api.post(&by.token, "/api/tournament", Some(&form)).await?;
    if status != 200 {
        return Err(ClientError::Unexpected(format!(
            "create the arena: {status} {v}"
        )));
    }
    v["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| ClientError::Unexpected(format!("no arena id: {v}")))
}

/// Every player opens its event stream and joins, [`JOIN_CONCURRENCY`] at
/// a time; their streams, in the players' order.
async fn join_all(api: &Api, players: &[Player], id: &str) -> Result<Vec<Stream>> {
    let mut out: Vec<Option<Stream>> = (0..players.len()).map(|_| None).collect();
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < players.len() || !running.is_empty() {
        while next < players.len() && running.len() < JOIN_CONCURRENCY {
            let (api, p, id, i) = (api.clone(), players[next].clone(), id.to_owned(), next);
            running.spawn(async move {
                let events = api.stream_at(&p.token, "/api/stream/event").await?;
                let (status, v) = api
                    .post(&p.token, &format!("/api/tournament/{id}/join"), None)
                    .await?;
                if status != 200 {
                    return Err(ClientError::Unexpected(format!(
                        "{} joins: {status} {v}",
                        p.name
                    )));
                }
                Ok::<_, ClientError>((i, events))
            });
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            let (i, s) = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            out[i] = Some(s);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// `n` watchers of Arena `id`'s socket, each with the first message read.
async fn connect_watchers(
    addr: SocketAddr,
    id: &str,
    n: usize,
) -> Result<Vec<plyyard_testkit::Socket>> {
    let mut out = Vec::with_capacity(n);
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < n || !running.is_empty() {
        while next < n && running.len() < JOIN_CONCURRENCY {
            let path = format!("/api/tournament/{id}/socket");
            running.spawn(async move { Client::new(addr).socket(&path).await });
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            out.push(done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??);
        }
    }
    Ok(out)
}

/// One watcher until `deadline`: for every message that adds scored
/// games, the time since the earliest added game's end was seen, ms.
async fn watch(
    mut ws: plyyard_testkit::Socket,
    ends: Arc<Mutex<Ends>>,
    deadline: Instant,
) -> Vec<f64> {
    let mut out = Vec::new();
    let mut known: Option<usize> = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let msg = match recv_json(&mut ws, left).await {
            Ok(Some(m)) => m,
            Ok(None) | Err(_) => break,
        };
        let arrived = Instant::now();
        let Some(finished) = msg["finished"].as_u64().map(|n| n as usize) else {
            continue;
        };
        let Some(before) = known.replace(finished) else {
            continue;
        };
        if finished <= before {
            continue;
        }
        let earliest = ends.lock().ok().and_then(|e| e.at.get(before).copied());
        if let Some(at) = earliest {
            out.push(arrived.saturating_duration_since(at).as_secs_f64() * 1000.0);
        }
    }
    out
}

/// One player through the Arena.
struct Play {
    api: Api,
    player: Player,
    events: Stream,
    ends: Arc<Mutex<Ends>>,
    deadline: Instant,
    /// When pairing closes.
    closing: Instant,
    o: Options,
}

impl Play {
    async fn run(mut self, mut rng: StdRng) -> Tally {
        let mut t = Tally::default();
        // When the last game ended, if it counts for re-pairing.
        let mut ended: Option<Instant> = None;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = match tokio::time::timeout(left, self.events.next()).await {
                Err(_) => break,
                Ok(Ok(Some(line))) => line,
                Ok(Ok(None)) => {
                    t.error(format!("{}: the event stream closed", self.player.name));
                    break;
                }
                Ok(Err(e)) => {
                    t.error(format!("{}: {e}", self.player.name));
                    break;
                }
            };
            if line["type"] != "gameStart" {
                continue;
            }
            if let Some(at) = ended.take() {
                t.repairs_s.push(at.elapsed().as_secs_f64());
            }
            let game = line["game"]["gameId"]
                .as_str()
                .or_else(|| line["game"]["id"].as_str())
                .unwrap_or_default()
                .to_owned();
            match self.play_game(&game, &mut rng).await {
                Ok(at) => {
                    if let Ok(mut e) = self.ends.lock() {
                        e.note(&game, at);
                    }
                    if at + CLOSING_SLACK < self.closing {
                        ended = Some(at);
                    }
                }
                Err(e) => t.error(format!("{} in {game}: {e}", self.player.name)),
            }
        }
        // Never paired again although pairing was open: counted to its close.
        if let Some(at) = ended {
            t.repairs_s
                .push(self.closing.saturating_duration_since(at).as_secs_f64());
        }
        t
    }

    /// Plays game `id` to its end; when the end was seen.
    async fn play_game(&self, id: &str, rng: &mut StdRng) -> Result<Instant> {
        let token = &self.player.token;
        let mut stream = self
            .api
            .stream_at(token, &format!("/api/board/game/stream/{id}"))
            .await?;
        let full = tokio::time::timeout(STEP, stream.next())
            .await
            .map_err(|_| ClientError::Timeout)??
            .ok_or(ClientError::Closed)?;
        let me = self.player.name.to_lowercase();
        let white = full["white"]["id"].as_str() == Some(me.as_str())
            || full["white"]["name"].as_str().map(str::to_lowercase) == Some(me.clone());
        let mut board = Board::new(white);
        board.take(&full).map_err(ClientError::Unexpected)?;
        let resign_at = rng.random_range(self.o.min_plies..=self.o.max_plies.max(self.o.min_plies));
        let mut acted: Option<usize> = None;
        loop {
            if !board.ongoing() {
                return Ok(Instant::now());
            }
            if board.to_move() && acted != Some(board.applied()) {
                acted = Some(board.applied());
                let think = Duration::from_millis(rng.random_range(0..=2 * self.o.think_ms));
                tokio::time::sleep(think).await;
                let path = match board.choose(rng) {
                    Some(uci) if board.applied() < resign_at => {
                        format!("/api/board/game/{id}/move/{uci}")
                    }
                    _ => format!("/api/board/game/{id}/resign"),
                };
                let (status, v) = self.api.post(token, &path, None).await?;
                if status != 200 {
                    return Err(ClientError::Unexpected(format!("{path}: {status} {v}")));
                }
            }
            let line = tokio::time::timeout(STEP, stream.next())
                .await
                .map_err(|_| ClientError::Timeout)??;
            match line {
                Some(line) => {
                    board.take(&line).map_err(ClientError::Unexpected)?;
                }
                None => return Ok(Instant::now()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_kept_in_order_once_per_game() {
        let t0 = Instant::now();
        let mut e = Ends::default();
        e.note("b", t0 + Duration::from_millis(20));
        e.note("a", t0 + Duration::from_millis(10));
        e.note("b", t0 + Duration::from_millis(30));
        e.note("c", t0 + Duration::from_millis(15));
        let ms: Vec<u128> =
            e.at.iter()
                .map(|t| t.duration_since(t0).as_millis())
                .collect();
        assert_eq!(ms, [10, 15, 20]);
    }

    #[test]
    fn the_report_has_the_contracted_keys_in_order() {
        let r = Report {
            players: 4,
            watchers: 2,
            games: 3,
            repairs: 2,
            repair_p50_s: 1.5,
            repair_p99_s: 2.0,
            repair_max_s: 2.0,
            pushes: 5,
            standings_p50_ms: 300.0,
            standings_p99_ms: 600.0,
            rss_mb: 50.0,
            errors: 0,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"players":4,"watchers":2,"games":3,"repairs":2,"repair_p50_s":1.5,"repair_p99_s":2.0,"repair_max_s":2.0,"pushes":5,"standings_p50_ms":300.0,"standings_p99_ms":600.0,"rss_mb":50.0,"errors":0}"#
        );
    }
}
