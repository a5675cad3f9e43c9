//! `loadgen bots`: many games between bot accounts played over the
//! Lichess-compatible API only (HTTP requests and NDJSON game streams, as
//! `lichess-bot` plays); the throughput of moves and the latency from a
//! move's POST to the opponent's stream showing it.
//!
//! Setup (not measured): accounts `bot0`, `bot1`, … are signed up (or
//! logged in to), each makes a `bot:play` token (`POST /api/account/tokens`)
//! and becomes a bot (`POST /api/bot/account/upgrade`) unless it is one.
//! Game `i` is a challenge from bot `2i mod n` (White) to bot `2i + 1 mod
//! n`, accepted through the API (30+20, casual); both open
//! `GET /api/bot/game/stream/{id}` and keep it open, and the first two
//! plies are played at once (so that no game is aborted for a missed first
//! move while the others are being set up).
//!
//! Measured window (`--seconds`): each side keeps a shakmaty position from
//! its stream's `moves` and, when it is to move, plays a random legal move
//! after a think time drawn uniformly from `[0, 2 × --think-ms]` with
//! `POST /api/bot/game/{id}/move/{uci}`. The latency of a move is from
//! sending that POST to the opponent's stream's `gameState` that shows it.
//! A game that ends is left alone.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plyyard_testkit::{Client, ClientError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use tokio::time::Instant;

use super::tables::raise_open_files;
use super::{Result, account_token, expect, metric, percentile, ready_all};

/// The clock of every game: the longest tables play, so that no flag falls
/// during a run.
const CHALLENGE: &str = "clock.limit=1800&clock.increment=20&color=white&rated=false";

/// How long one setup step (a request, a stream line) may take.
const STEP: Duration = Duration::from_secs(60);

/// How long after the window the opponents' lines for moves sent in it
/// are awaited.
const DRAIN: Duration = Duration::from_secs(10);

/// Games set up at once.
const SETUP_CONCURRENCY: usize = 16;

/// Accounts made ready at once.
const ACCOUNT_CONCURRENCY: usize = 8;

/// File descriptors the tool keeps besides its connections.
const SPARE_FDS: u64 = 512;

/// The options of `loadgen bots`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Games played at once.
    pub games: usize,
    /// Length of the measured window, seconds.
    pub seconds: u64,
    /// Bot accounts (each plays `2 × games / accounts` games; the server
    /// lets an account hold 8 game streams).
    pub accounts: usize,
    /// Mean think time, ms (drawn uniformly from `[0, 2 × think_ms]`).
    pub think_ms: u64,
    /// Seed of the think times and move choices.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Games being played.
    pub games: usize,
    /// Game streams open (two per game).
    pub streams: usize,
    /// Moves posted in the window and accepted.
    pub moves: u64,
    /// `moves` per second of the window.
    pub moves_per_s: f64,
    /// Median POST → opponent's `gameState` latency, ms.
    pub p50_ms: f64,
    /// 99th percentile of the same, ms.
    pub p99_ms: f64,
    /// The server's resident memory at the end of the window, MiB.
    pub rss_mb: f64,
    /// Refused moves, moves the opponent never saw, and stream failures.
    pub errors: u64,
}

/// A bot account: its name and token.
#[derive(Debug, Clone)]
struct Bot {
    name: String,
    token: String,
}

/// Runs `loadgen bots`.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    let n = o.accounts.max(2);
    if 2 * o.games > 8 * n {
        return Err(ClientError::Unexpected(format!(
            "{} games need at least {} accounts (8 game streams each)",
            o.games,
            (2 * o.games).div_ceil(8)
        )));
    }
    raise_open_files(2 * o.games as u64 + 2 * SETUP_CONCURRENCY as u64 + SPARE_FDS)?;
    let t0 = std::time::Instant::now();
    let bots = bots(addr, n).await?;
    println!(
        "bots ready: {} in {:.1} s (signed up or logged in, token made, upgraded)",
        bots.len(),
        t0.elapsed().as_secs_f64()
    );
    let http = reqwest::Client::builder()
        .no_proxy()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(4 * SETUP_CONCURRENCY)
        .build()?;
    let api = Api { addr, http };

    let t1 = std::time::Instant::now();
    let sides = start_all(&api, &bots, o.games, o.seed).await?;
    println!(
        "games started: {} ({} game streams, first two plies played) in {:.1} s",
        o.games,
        sides.len(),
        t1.elapsed().as_secs_f64()
    );
    let rss_seated = metric(addr, "process_resident_memory_bytes").await?;

    let start = Instant::now() + Duration::from_millis(500);
    let end = start + Duration::from_secs(o.seconds);
    let mut tasks = tokio::task::JoinSet::new();
    for (i, side) in sides.into_iter().enumerate() {
        let rng = StdRng::seed_from_u64(o.seed.wrapping_add(0x9e37 * (i as u64 + 1)));
        tasks.spawn(play(api.clone(), side, start, end, o.think_ms, rng));
    }
    tokio::time::sleep_until(start).await;
    let moves0 = metric(addr, "plyyard_moves_total").await?;
    tokio::time::sleep_until(end).await;
    let moves1 = metric(addr, "plyyard_moves_total").await?;
    let rss = metric(addr, "process_resident_memory_bytes").await?;

    let mut all = Tally::default();
    let mut streams = 0;
    while let Some(done) = tasks.join_next().await {
        let (tally, held) = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?;
        all.add(tally);
        streams += usize::from(held);
    }
    let mut lat: Vec<f64> = all
        .latencies_us
        .iter()
        .map(|&u| u as f64 / 1000.0)
        .collect();
    lat.sort_by(f64::total_cmp);
    let secs = o.seconds.max(1) as f64;
    let errors = all.refused + all.unseen + all.failed;
    println!(
        "window: {} s, think time uniform in [0, {}] ms",
        o.seconds,
        2 * o.think_ms
    );
    println!(
        "moves accepted: {} ({:.1}/s); server's plyyard_moves_total rose by {:.0}",
        all.moves,
        all.moves as f64 / secs,
        moves1 - moves0
    );
    println!(
        "POST → opponent's gameState ms: p50 {:.1}, p90 {:.1}, p99 {:.1}, p99.9 {:.1}, max {:.1} ({} seen)",
        percentile(&lat, 50.0),
        percentile(&lat, 90.0),
        percentile(&lat, 99.0),
        percentile(&lat, 99.9),
        lat.last().copied().unwrap_or(f64::NAN),
        lat.len()
    );
    println!(
        "games ended during the window: {}; errors: {} refused, {} never seen by the opponent, {} stream failures",
        all.ended / 2,
        all.refused,
        all.unseen,
        all.failed
    );
    if let Some(e) = &all.first_error {
        println!("first error: {e}");
    }
    println!(
        "server RSS: {:.1} MiB with every game started, {:.1} MiB at the end of the window",
        rss_seated / MIB,
        rss / MIB
    );
    let report = Report {
        games: o.games,
        streams,
        moves: all.moves,
        moves_per_s: round(all.moves as f64 / secs, 1),
        p50_ms: round(percentile(&lat, 50.0), 2),
        p99_ms: round(percentile(&lat, 99.0), 2),
        rss_mb: round(rss / MIB, 1),
        errors,
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

const MIB: f64 = 1024.0 * 1024.0;

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// Bots `bot0` … `bot{n-1}`, [`ACCOUNT_CONCURRENCY`] made ready at a time.
async fn bots(addr: SocketAddr, n: usize) -> Result<Vec<Bot>> {
    ready_all(n, ACCOUNT_CONCURRENCY, move |i| bot(addr, i)).await
}

/// Bot `i`: signed up or logged in to, a new `bot:play` token, upgraded
/// unless it is a bot already.
async fn bot(addr: SocketAddr, i: usize) -> Result<Bot> {
    let c = Client::new(addr);
    let name = format!("bot{i}");
    let token = account_token(&c, &name, "loadgen bots", &["bot:play"]).await?;
    let account: Value = expect(
        "read the account",
        c.with_token(&token, reqwest::Method::GET, "/api/account", None)
            .await?,
        200,
    )?
    .json()?;
    if account["title"] != "BOT" {
        expect(
            "upgrade to a bot",
            c.with_token(
                &token,
                reqwest::Method::POST,
                "/api/bot/account/upgrade",
                None,
            )
            .await?,
            200,
        )?;
    }
    Ok(Bot { name, token })
}

/// The server and one HTTP client for every bot (the token goes with each
/// request).
#[derive(Clone)]
pub(super) struct Api {
    pub(super) addr: SocketAddr,
    pub(super) http: reqwest::Client,
}

impl Api {
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// POSTs `body` (a form, if any) with `token`: the status and the
    /// parsed answer.
    pub(super) async fn post(
        &self,
        token: &str,
        path: &str,
        body: Option<&str>,
    ) -> Result<(u16, Value)> {
        let mut b = self.http.post(self.url(path)).bearer_auth(token);
        if let Some(body) = body {
            b = b
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body.to_owned());
        }
        let r = tokio::time::timeout(STEP, b.send())
            .await
            .map_err(|_| ClientError::Timeout)??;
        let status = r.status().as_u16();
        let bytes = tokio::time::timeout(STEP, r.bytes())
            .await
            .map_err(|_| ClientError::Timeout)??;
        Ok((
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        ))
    }

    /// Opens a game stream.
    async fn stream(&self, token: &str, id: &str) -> Result<Stream> {
        self.stream_at(token, &format!("/api/bot/game/stream/{id}"))
            .await
    }

    /// Opens the NDJSON stream at `path`.
    pub(super) async fn stream_at(&self, token: &str, path: &str) -> Result<Stream> {
        let r = tokio::time::timeout(
            STEP,
            self.http.get(self.url(path)).bearer_auth(token).send(),
        )
        .await
        .map_err(|_| ClientError::Timeout)??;
        if r.status() != 200 {
            return Err(ClientError::Unexpected(format!(
                "stream {path}: status {}",
                r.status()
            )));
        }
        Ok(Stream {
            resp: r,
            buf: Vec::new(),
        })
    }
}

/// An NDJSON response read line by line.
pub(super) struct Stream {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Stream {
    /// The next non-empty line as JSON (keep-alive lines are passed over);
    /// `None` once the stream ended.
    pub(super) async fn next(&mut self) -> Result<Option<Value>> {
        loop {
            if let Some(at) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=at).collect();
                if line.len() > 1 {
                    return Ok(Some(serde_json::from_slice(&line[..line.len() - 1])?));
                }
                continue;
            }
            match self.resp.chunk().await? {
                Some(bytes) => self.buf.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
    }
}

/// The move in flight in one game: its ply (moves played once it is in)
/// and when its POST was sent.
type InFlight = Arc<Mutex<Option<(usize, Instant)>>>;

/// What one side knows of its game: a shakmaty position kept from the
/// stream's `moves`.
#[derive(Debug)]
pub(super) struct Board {
    white: bool,
    pos: Chess,
    /// Moves of the stream applied to `pos`.
    applied: usize,
    ongoing: bool,
}

impl Board {
    pub(super) fn new(white: bool) -> Board {
        Board {
            white,
            pos: Chess::default(),
            applied: 0,
            ongoing: false,
        }
    }

    /// Moves played.
    pub(super) fn applied(&self) -> usize {
        self.applied
    }

    /// Whether the game goes on.
    pub(super) fn ongoing(&self) -> bool {
        self.ongoing
    }

    pub(super) fn to_move(&self) -> bool {
        self.ongoing && self.applied.is_multiple_of(2) == self.white
    }

    /// Takes in a stream line: applies its new moves. Returns the number of
    /// moves it shows, or `None` for a line that is no game state.
    pub(super) fn take(&mut self, line: &Value) -> std::result::Result<Option<usize>, String> {
        let state = match line["type"].as_str() {
            Some("gameFull") => &line["state"],
            Some("gameState") => line,
            _ => return Ok(None),
        };
        let moves = state["moves"].as_str().unwrap_or_default();
        let all: Vec<&str> = moves.split_ascii_whitespace().collect();
        for uci in &all[self.applied.min(all.len())..] {
            let m = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&self.pos).ok())
                .ok_or_else(|| format!("an illegal move in the stream: {uci}"))?;
            self.pos.play_unchecked(m);
        }
        self.applied = all.len();
        self.ongoing = state["status"] == "started";
        Ok(Some(all.len()))
    }

    /// A random legal move, in UCI.
    pub(super) fn choose(&self, rng: &mut StdRng) -> Option<String> {
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.random_range(0..moves.len())];
        Some(UciMove::from_move(m, CastlingMode::Standard).to_string())
    }
}

/// One side of one game.
struct Side {
    id: String,
    token: String,
    stream: Stream,
    board: Board,
    in_flight: InFlight,
}

impl Side {
    /// Takes in a stream line ([`Board::take`]).
    fn take(&mut self, line: &Value) -> Result<Option<usize>> {
        self.board
            .take(line)
            .map_err(|e| ClientError::Unexpected(format!("{}: {e}", self.id)))
    }

    /// Posts a random legal move (noting it in flight); whether the server
    /// accepted it, and its answer when not.
    async fn send_move(
        &self,
        api: &Api,
        rng: &mut StdRng,
    ) -> Result<std::result::Result<(), String>> {
        let Some(uci) = self.board.choose(rng) else {
            return Ok(Ok(()));
        };
        *lock(&self.in_flight) = Some((self.board.applied + 1, Instant::now()));
        let (status, body) = api
            .post(
                &self.token,
                &format!("/api/bot/game/{}/move/{uci}", self.id),
                None,
            )
            .await?;
        if status == 200 && body["ok"] == true {
            Ok(Ok(()))
        } else {
            *lock(&self.in_flight) = None;
            Ok(Err(format!("{} {uci}: {status} {body}", self.id)))
        }
    }

    /// Reads lines until the game shows `ply` moves (setup only).
    async fn wait_ply(&mut self, ply: usize) -> Result<()> {
        while self.board.applied < ply {
            let line = tokio::time::timeout(STEP, self.stream.next())
                .await
                .map_err(|_| ClientError::Timeout)??
                .ok_or(ClientError::Closed)?;
            self.take(&line)?;
        }
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts `games` games, at most [`SETUP_CONCURRENCY`] at a time.
async fn start_all(api: &Api, bots: &[Bot], games: usize, seed: u64) -> Result<Vec<Side>> {
    let n = bots.len();
    let mut sides = Vec::with_capacity(2 * games);
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < games || !running.is_empty() {
        while next < games && running.len() < SETUP_CONCURRENCY {
            let white = bots[(2 * next) % n].clone();
            let black = bots[(2 * next + 1) % n].clone();
            let rng = StdRng::seed_from_u64(seed ^ (next as u64).wrapping_mul(0x2545_f491));
            running.spawn(start(api.clone(), white, black, rng));
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            let [w, b] = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            sides.push(w);
            sides.push(b);
            if sides.len() % 400 == 0 {
                eprintln!("loadgen: {} games started", sides.len() / 2);
            }
        }
    }
    Ok(sides)
}

/// One game: `white` challenges `black`, who accepts; both open their game
/// streams and play one move each.
async fn start(api: Api, white: Bot, black: Bot, mut rng: StdRng) -> Result<[Side; 2]> {
    let (status, c) = api
        .post(
            &white.token,
            &format!("/api/challenge/{}", black.name),
            Some(CHALLENGE),
        )
        .await?;
    if status != 200 {
        return Err(ClientError::Unexpected(format!(
            "challenge: {status} {c}{}",
            if status == 429 {
                " (start the server with --rate-limits off)"
            } else {
                ""
            }
        )));
    }
    let id = c["id"]
        .as_str()
        .ok_or_else(|| ClientError::Unexpected(format!("no challenge id: {c}")))?
        .to_owned();
    let (status, a) = api
        .post(&black.token, &format!("/api/challenge/{id}/accept"), None)
        .await?;
    if status != 200 {
        return Err(ClientError::Unexpected(format!("accept: {status} {a}")));
    }
    let in_flight: InFlight = Arc::default();
    let mut sides = Vec::with_capacity(2);
    for (bot, is_white) in [(&white, true), (&black, false)] {
        let mut stream = api.stream(&bot.token, &id).await?;
        let full = tokio::time::timeout(STEP, stream.next())
            .await
            .map_err(|_| ClientError::Timeout)??
            .ok_or(ClientError::Closed)?;
        if full["type"] != "gameFull" {
            return Err(ClientError::Unexpected(format!("first line: {full}")));
        }
        let mut side = Side {
            id: id.clone(),
            token: bot.token.clone(),
            stream,
            board: Board::new(is_white),
            in_flight: Arc::clone(&in_flight),
        };
        side.take(&full)?;
        sides.push(side);
    }
    let (Some(mut b), Some(mut w)) = (sides.pop(), sides.pop()) else {
        return Err(ClientError::Unexpected("two sides".into()));
    };
    for ply in 1..=2 {
        let mover = if ply == 1 { &w } else { &b };
        if let Err(e) = mover.send_move(&api, &mut rng).await? {
            return Err(ClientError::Unexpected(format!("during setup: {e}")));
        }
        w.wait_ply(ply).await?;
        b.wait_ply(ply).await?;
    }
    *lock(&in_flight) = None;
    Ok([w, b])
}

/// What one side counted.
#[derive(Debug, Default)]
struct Tally {
    moves: u64,
    latencies_us: Vec<u64>,
    refused: u64,
    unseen: u64,
    failed: u64,
    ended: u64,
    first_error: Option<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.moves += o.moves;
        self.latencies_us.extend(o.latencies_us);
        self.refused += o.refused;
        self.unseen += o.unseen;
        self.failed += o.failed;
        self.ended += o.ended;
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
    }

    fn error(&mut self, e: String) {
        if self.first_error.is_none() {
            self.first_error = Some(e);
        }
    }
}

/// Plays one side through the window; what it counted and whether its
/// stream was still open at the end.
async fn play(
    api: Api,
    mut side: Side,
    start: Instant,
    end: Instant,
    think_ms: u64,
    mut rng: StdRng,
) -> (Tally, bool) {
    let mut t = Tally::default();
    tokio::time::sleep_until(start).await;
    let drain = end + DRAIN;
    // The ply each move was chosen at: one move per position.
    let mut acted: Option<usize> = None;
    loop {
        if side.board.to_move() && acted != Some(side.board.applied) && Instant::now() < end {
            acted = Some(side.board.applied);
            let think = Duration::from_millis(rng.random_range(0..=2 * think_ms));
            if Instant::now() + think >= end {
                continue;
            }
            tokio::time::sleep(think).await;
            match side.send_move(&api, &mut rng).await {
                Ok(Ok(())) => t.moves += 1,
                Ok(Err(e)) => {
                    t.refused += 1;
                    t.error(e);
                }
                Err(e) => {
                    t.failed += 1;
                    t.error(format!("{}: {e}", side.id));
                }
            }
            continue;
        }
        // After the window, wait only for an opponent's move in flight.
        let waiting_for_opponent = lock(&side.in_flight)
            .as_ref()
            .is_some_and(|(ply, _)| (ply % 2 == 1) != side.board.white);
        if Instant::now() >= end && !waiting_for_opponent {
            break;
        }
        if !side.board.ongoing {
            break;
        }
        let line = match tokio::time::timeout_at(drain, side.stream.next()).await {
            Err(_) => break,
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => {
                t.failed += u64::from(side.board.ongoing);
                if side.board.ongoing {
                    t.error(format!("{}: the stream closed", side.id));
                }
                break;
            }
            Ok(Err(e)) => {
                t.failed += 1;
                t.error(format!("{}: {e}", side.id));
                break;
            }
        };
        let got = match side.take(&line) {
            Ok(got) => got,
            Err(e) => {
                t.failed += 1;
                t.error(e.to_string());
                break;
            }
        };
        let Some(ply) = got else { continue };
        // The opponent's move reached this side's stream: its latency.
        let opponent_moved = (ply % 2 == 1) != side.board.white;
        if opponent_moved {
            let mut slot = lock(&side.in_flight);
            if let Some((p, sent)) = *slot
                && p == ply
            {
                t.latencies_us.push(sent.elapsed().as_micros() as u64);
                *slot = None;
            }
        }
        if !side.board.ongoing {
            t.ended += 1;
        }
    }
    // A move of the opponent still in flight was never seen.
    if lock(&side.in_flight)
        .as_ref()
        .is_some_and(|(ply, _)| (ply % 2 == 1) != side.board.white)
        && side.board.ongoing
    {
        t.unseen += 1;
        t.error(format!(
            "{}: a move never reached the opponent's stream",
            side.id
        ));
    }
    let open = side.board.ongoing;
    drop(side);
    (t, open)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fen(b: &Board) -> String {
        shakmaty::fen::Fen::from_position(&b.pos, shakmaty::EnPassantMode::Legal).to_string()
    }

    #[test]
    fn stream_lines_keep_the_position_and_castling_is_read_both_ways() {
        let mut s = Board::new(true);
        let full =
            json!({"type":"gameFull","state":{"type":"gameState","moves":"","status":"started"}});
        assert_eq!(s.take(&full).unwrap(), Some(0));
        assert!(s.to_move());
        let moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1";
        let st = json!({"type":"gameState","moves":moves,"status":"started"});
        assert_eq!(s.take(&st).unwrap(), Some(7));
        assert!(!s.to_move());
        assert_eq!(
            fen(&s),
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
        );
        let mut again = Board::new(true);
        let st =
            json!({"type":"gameState","moves":moves.replace("e1h1", "e1g1"),"status":"started"});
        again.take(&st).unwrap();
        assert_eq!(fen(&again), fen(&s));
        assert_eq!(
            s.take(&json!({"type":"opponentGone","gone":true})).unwrap(),
            None
        );
        let bad = json!({"type":"gameState","moves":format!("{moves} e1e2"),"status":"started"});
        assert!(Board::new(true).take(&bad).is_err());
        let over = json!({"type":"gameState","moves":moves,"status":"resign"});
        s.take(&over).unwrap();
        assert!(!s.ongoing && !s.to_move());
    }

    #[test]
    fn chosen_moves_are_legal() {
        let mut s = Board::new(false);
        s.take(&json!({"type":"gameState","moves":"f2f3 e7e5 g2g4","status":"started"}))
            .unwrap();
        assert!(s.to_move());
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let uci = s.choose(&mut rng).unwrap();
            let m = uci.parse::<UciMove>().unwrap().to_move(&s.pos).unwrap();
            assert!(s.pos.is_legal(m));
            seen.insert(uci);
        }
        assert_eq!(seen.len(), s.pos.legal_moves().len());
        assert!(seen.contains("d8h4"));
        let mut mated = Board::new(true);
        mated
            .take(&json!({"type":"gameState","moves":"f2f3 e7e5 g2g4 d8h4","status":"mate"}))
            .unwrap();
        assert_eq!(mated.choose(&mut rng), None);
    }

    #[test]
    fn the_report_has_the_contracted_keys_in_order() {
        let r = Report {
            games: 2,
            streams: 4,
            moves: 10,
            moves_per_s: 1.0,
            p50_ms: 1.5,
            p99_ms: 3.0,
            rss_mb: 40.0,
            errors: 0,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"games":2,"streams":4,"moves":10,"moves_per_s":1.0,"p50_ms":1.5,"p99_ms":3.0,"rss_mb":40.0,"errors":0}"#
        );
    }
}
