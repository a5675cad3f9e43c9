//! `loadgen tables`: many table games between accounts, both players on
//! their own websocket, moving after a think time; the throughput of
//! persisted moves and the move → acknowledge latency.
//!
//! Setup (not measured): accounts `load0`, `load1`, … are signed up, or
//! logged in to when they exist; `--games` tables are opened (hosts going
//! round the accounts) and joined by another account; both players connect
//! and play the first two plies at once (so that no game is aborted for a
//! missed first move while the others are being set up).
//!
//! Measured window (`--seconds`): in every game the side to move plays a
//! random legal move (from the `dests` of the last state it received)
//! after a think time drawn uniformly from `[0, 2 × --think-ms]`. Two
//! latencies of a move: from sending it to its `ack`, which the server
//! sends once the move is committed to the database, and from sending it
//! to the opponent's socket receiving the event that shows it. A game that
//! ends is left alone (its sockets stay open and idle); no new table is
//! opened.
//!
//! The last line printed is one JSON object (see [`Report`]).

use std::net::SocketAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use plyyard_testkit::{Client, ClientError, Socket};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::http::header::{COOKIE, ORIGIN};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use super::{PASSWORD, Result, expect, is_pawn, metric, percentile};

/// The table every game is played at: the longest time control, so that
/// no flag falls during a run; casual (no rating work at the end of a
/// game) and private (not in the lobby).
pub(crate) const TABLE: &str = r#"{"variant":"standard","minutes":30,"increment":20,"rules":"plyyard","rated":false,"public":false}"#;

/// How long one setup step (a request, a socket message) may take.
const STEP: Duration = Duration::from_secs(60);

/// How long after the window the acks of moves sent in it are awaited.
const DRAIN: Duration = Duration::from_secs(10);

/// Games set up at once.
const SETUP_CONCURRENCY: usize = 16;

/// Accounts signed up (or logged in to) at once.
const ACCOUNT_CONCURRENCY: usize = 8;

/// File descriptors the tool keeps besides its sockets.
const SPARE_FDS: u64 = 256;

/// The options of `loadgen tables`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Table games played at once.
    pub games: usize,
    /// Length of the measured window, seconds.
    pub seconds: u64,
    /// Accounts used (hosts and guests go round them).
    pub accounts: usize,
    /// Mean think time, ms (drawn uniformly from `[0, 2 × think_ms]`).
    pub think_ms: u64,
    /// Only make (or log in to) the accounts.
    pub setup_only: bool,
    /// The server's process id, to read its CPU time (`/proc/PID/stat`).
    pub server_pid: Option<u32>,
    /// Seed of the think times and move choices.
    pub seed: u64,
}

/// The last line of a run, one JSON object.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Games being played.
    pub games: usize,
    /// Sockets open (two per game).
    pub sockets: usize,
    /// Moves sent in the window and acknowledged.
    pub moves: u64,
    /// `moves` per second of the window.
    pub moves_per_s: f64,
    /// Median send → ack latency, ms.
    pub p50_ms: f64,
    /// 99th percentile send → ack latency, ms.
    pub p99_ms: f64,
    /// Median send → opponent's event latency, ms.
    pub opp_p50_ms: f64,
    /// 99th percentile send → opponent's event latency, ms.
    pub opp_p99_ms: f64,
    /// The server's resident memory at the end of the window, MiB.
    pub rss_mb: f64,
    /// Refused moves, moves never acknowledged, and socket failures.
    pub errors: u64,
}

/// Runs `loadgen tables`.
pub async fn run(addr: SocketAddr, o: Options) -> Result<()> {
    let sockets = 2 * o.games;
    raise_open_files(sockets as u64 + 2 * o.accounts as u64 + SPARE_FDS)?;
    let rss_before = metric(addr, "process_resident_memory_bytes").await?;
    let cpu0 = own_cpu();
    let t0 = std::time::Instant::now();
    let accounts = accounts(addr, o.accounts.max(2)).await?;
    let took = t0.elapsed().as_secs_f64();
    println!(
        "accounts ready: {} in {took:.1} s (signed up or logged in)",
        accounts.len()
    );
    if o.setup_only {
        return Ok(());
    }

    let t1 = std::time::Instant::now();
    let players = seat_all(&accounts, o.games, o.seed).await?;
    println!(
        "games seated: {} ({} sockets, first two plies played) in {:.1} s",
        o.games,
        sockets,
        t1.elapsed().as_secs_f64()
    );
    let setup_cpu = own_cpu() - cpu0;
    let rss_seated = metric(addr, "process_resident_memory_bytes").await?;

    // The window starts a moment after every player task is waiting.
    let start = Instant::now() + Duration::from_millis(500);
    let end = start + Duration::from_secs(o.seconds);
    let expected = (o.seconds * 1000 / (2 * o.think_ms.max(1))) as usize + 8;
    let mut tasks = tokio::task::JoinSet::new();
    for (i, p) in players.into_iter().enumerate() {
        let rng = StdRng::seed_from_u64(o.seed.wrapping_add(0x9e37 * (i as u64 + 1)));
        let window = Window {
            start,
            end,
            think_ms: o.think_ms,
        };
        tasks.spawn(play(p, window, rng, expected.min(1 << 16)));
    }

    tokio::time::sleep_until(start).await;
    let moves0 = metric(addr, "plyyard_moves_total").await?;
    let cpu1 = own_cpu();
    let server0 = o.server_pid.and_then(server_cpu);
    let machine0 = machine_ticks();
    tokio::time::sleep_until(end).await;
    let machine1 = machine_ticks();
    let server1 = o.server_pid.and_then(server_cpu);
    let cpu2 = own_cpu();
    let rss = metric(addr, "process_resident_memory_bytes").await?;
    let moves1 = metric(addr, "plyyard_moves_total").await?;

    let mut all = Tally::default();
    let mut kept = Vec::with_capacity(sockets);
    while let Some(done) = tasks.join_next().await {
        let (tally, ws) = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?;
        all.add(tally);
        kept.extend(ws);
    }
    let lat = sorted_ms(&all.latencies_us);
    let opp = sorted_ms(&all.seen_us);
    let secs = o.seconds.max(1) as f64;
    let errors = all.refused + all.unacked + all.failed;
    let window_cpu = cpu2 - cpu1;

    println!(
        "window: {} s, think time uniform in [0, {}] ms",
        o.seconds,
        2 * o.think_ms
    );
    println!(
        "moves acknowledged: {} ({:.1}/s); server's plyyard_moves_total rose by {:.0}",
        all.moves,
        all.moves as f64 / secs,
        moves1 - moves0
    );
    println!(
        "ack latency ms: p50 {:.1}, p90 {:.1}, p99 {:.1}, p99.9 {:.1}, max {:.1}",
        percentile(&lat, 50.0),
        percentile(&lat, 90.0),
        percentile(&lat, 99.0),
        percentile(&lat, 99.9),
        lat.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "move → opponent's event ms: p50 {:.1}, p90 {:.1}, p99 {:.1}, p99.9 {:.1}, max {:.1} ({} seen)",
        percentile(&opp, 50.0),
        percentile(&opp, 90.0),
        percentile(&opp, 99.0),
        percentile(&opp, 99.9),
        opp.last().copied().unwrap_or(f64::NAN),
        opp.len()
    );
    println!(
        "games ended during the window: {}; errors: {} refused, {} unacknowledged, {} socket failures",
        all.ended / 2,
        all.refused,
        all.unacked,
        all.failed
    );
    if let Some(e) = &all.first_error {
        println!("first error: {e}");
    }
    println!(
        "server RSS: {:.1} MiB before the setup, {:.1} MiB with every game seated, \
         {:.1} MiB at the end of the window",
        rss_before / MIB,
        rss_seated / MIB,
        rss / MIB
    );
    if let (Some(a), Some(b)) = (server0, server1) {
        println!(
            "server CPU in the window: {:.1} s user + {:.1} s system = {:.0}% of one core",
            b.user - a.user,
            b.system - a.system,
            100.0 * (b.total() - a.total()) / secs
        );
    }
    if let (Some(a), Some(b)) = (machine0, machine1) {
        let (busy, total) = (b.busy - a.busy, b.total - a.total);
        if total > 0 {
            println!(
                "machine CPU busy in the window: {:.0}% of all cores",
                100.0 * busy as f64 / total as f64
            );
        }
    }
    println!(
        "loadgen CPU: window {:.1} s user + {:.1} s system = {:.0}% of one core; setup {:.1} s",
        window_cpu.user,
        window_cpu.system,
        100.0 * window_cpu.total() / secs,
        setup_cpu.total()
    );
    let report = Report {
        games: o.games,
        sockets: kept.len(),
        moves: all.moves,
        moves_per_s: round(all.moves as f64 / secs, 1),
        p50_ms: round(percentile(&lat, 50.0), 2),
        p99_ms: round(percentile(&lat, 99.0), 2),
        opp_p50_ms: round(percentile(&opp, 50.0), 2),
        opp_p99_ms: round(percentile(&opp, 99.0), 2),
        rss_mb: round(rss / MIB, 1),
        errors,
    };
    drop(kept);
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

const MIB: f64 = 1024.0 * 1024.0;

/// Latencies in µs as sorted milliseconds.
fn sorted_ms(us: &[u32]) -> Vec<f64> {
    let mut ms: Vec<f64> = us.iter().map(|&u| f64::from(u) / 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

/// Accounts `load0` … `load{n-1}`, each with its own cookie jar: signed up,
/// or logged in to when the name is taken.
pub(crate) async fn accounts(addr: SocketAddr, n: usize) -> Result<Vec<Client>> {
    let mut out: Vec<Option<Client>> = vec![None; n];
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < n || !running.is_empty() {
        while next < n && running.len() < ACCOUNT_CONCURRENCY {
            let i = next;
            running.spawn(async move {
                let c = Client::new(addr);
                let body =
                    serde_json::json!({"username": format!("load{i}"), "password": PASSWORD});
                let r = c.post_json("/api/account/signup", &body).await?;
                if r.status == 409 {
                    expect(
                        "log in",
                        c.post_json("/api/account/login", &body).await?,
                        200,
                    )?;
                } else {
                    expect("sign up", r, 201)?;
                }
                Ok::<_, ClientError>((i, c))
            });
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            let (i, c) = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            out[i] = Some(c);
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// Opens and joins `games` tables, at most [`SETUP_CONCURRENCY`] at a time;
/// both players of every game, their sockets open, two plies played.
async fn seat_all(accounts: &[Client], games: usize, seed: u64) -> Result<Vec<Player>> {
    let n = accounts.len();
    // A host has at most one table open at a time as long as fewer games
    // than accounts are set up at once (the server allows three).
    let concurrency = SETUP_CONCURRENCY.min(n);
    let mut players = Vec::with_capacity(2 * games);
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < games || !running.is_empty() {
        while next < games && running.len() < concurrency {
            let host = accounts[next % n].clone();
            let guest = accounts[(next + n / 2) % n].clone();
            let rng = StdRng::seed_from_u64(seed ^ (next as u64).wrapping_mul(0x2545_f491));
            running.spawn(seat(host, guest, rng));
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            let [w, b] = done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))??;
            players.push(w);
            players.push(b);
            if players.len() % 1000 == 0 {
                eprintln!("loadgen: {} games seated", players.len() / 2);
            }
        }
    }
    Ok(players)
}

/// One game: `host` opens a table, `guest` joins it, both connect, White
/// and Black play one move each. Returns White's and Black's players.
async fn seat(host: Client, guest: Client, mut rng: StdRng) -> Result<[Player; 2]> {
    let table: serde_json::Value =
        expect("open a table", host.post("/api/tables", TABLE).await?, 201)?.json()?;
    let code = table["code"].as_str().unwrap_or_default();
    let joined: serde_json::Value = expect(
        "join a table",
        guest
            .post_empty(&format!("/api/tables/{code}/join"))
            .await?,
        200,
    )?
    .json()?;
    let id = joined["game_id"]
        .as_str()
        .ok_or_else(|| ClientError::Unexpected(format!("no game id: {joined}")))?;
    let path = format!("/api/games/{id}/socket");
    let relay = Relay::default();
    let mut a = Player::connect(&host, &path, &relay).await?;
    let mut b = Player::connect(&guest, &path, &relay).await?;
    let full = |m: &Msg<'_>| m.t == "full";
    a.wait(full).await?;
    b.wait(full).await?;
    let (mut w, mut b) = if a.white { (a, b) } else { (b, a) };
    if !w.white || b.white {
        return Err(ClientError::Unexpected(
            "both players got one colour".into(),
        ));
    }
    w.setup_move(&mut rng).await?;
    b.wait(|m| m.game.as_ref().is_some_and(|g| g.ply == 1))
        .await?;
    b.setup_move(&mut rng).await?;
    let two = |m: &Msg<'_>| m.game.as_ref().is_some_and(|g| g.ply >= 2);
    w.wait(two).await?;
    b.wait(two).await?;
    Ok([w, b])
}

/// A message from the server: only what the players look at; the rest is
/// skipped without allocating.
#[derive(Debug, Deserialize)]
struct Msg<'a> {
    #[serde(borrow)]
    t: &'a str,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default, borrow)]
    code: Option<&'a str>,
    #[serde(default, borrow)]
    game: Option<Brief<'a>>,
}

/// The parts of a game state that decide whether a player moves.
#[derive(Debug, Deserialize)]
struct Brief<'a> {
    ply: u32,
    #[serde(borrow)]
    turn: &'a str,
    #[serde(borrow)]
    status: &'a str,
    #[serde(default, borrow)]
    you: Option<&'a str>,
}

/// A state message read again when a move is chosen.
#[derive(Debug, Deserialize)]
struct ForMove<'a> {
    #[serde(borrow)]
    game: Position<'a>,
}

#[derive(Debug, Deserialize)]
struct Position<'a> {
    #[serde(borrow)]
    fen: &'a str,
    dests: Dests,
}

/// Legal moves as (from, to) square indexes (`a1` = 0, `h8` = 63), read
/// from the `dests` object without allocating (no position has more than
/// 218 legal moves).
struct Dests {
    len: usize,
    moves: [[u8; 2]; 256],
}

impl std::fmt::Debug for Dests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dests({} moves)", self.len)
    }
}

/// The index of a square name (`e4`).
fn square(name: &str) -> Option<u8> {
    match name.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// The name of square `i`, as two bytes.
fn square_name(i: u8) -> [u8; 2] {
    [b'a' + i % 8, b'1' + i / 8]
}

impl<'de> Deserialize<'de> for Dests {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Dests, D::Error> {
        struct Map;
        impl<'de> Visitor<'de> for Map {
            type Value = Dests;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("squares to lists of squares")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Dests, A::Error> {
                let mut out = Dests {
                    len: 0,
                    moves: [[0; 2]; 256],
                };
                while let Some(from) = map.next_key::<&str>()? {
                    let from = square(from)
                        .ok_or_else(|| serde::de::Error::custom(format!("bad square {from}")))?;
                    map.next_value_seed(Tos {
                        from,
                        out: &mut out,
                    })?;
                }
                Ok(out)
            }
        }
        d.deserialize_map(Map)
    }
}

/// The destinations of one square, appended to [`Dests`].
struct Tos<'o> {
    from: u8,
    out: &'o mut Dests,
}

impl<'de> DeserializeSeed<'de> for Tos<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Tos<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of squares")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        while let Some(to) = seq.next_element::<&str>()? {
            let to =
                square(to).ok_or_else(|| serde::de::Error::custom(format!("bad square {to}")))?;
            if self.out.len < self.out.moves.len() {
                self.out.moves[self.out.len] = [self.from, to];
                self.out.len += 1;
            }
        }
        Ok(())
    }
}

/// A random legal move of the state message `text`, in UCI (a pawn
/// reaching the last rank becomes a queen); `None` if there is none.
pub(crate) fn choose(text: &str, rng: &mut StdRng) -> Option<([u8; 5], usize)> {
    let m: ForMove<'_> = serde_json::from_str(text).ok()?;
    let d = &m.game.dests;
    if d.len == 0 {
        return None;
    }
    let [from, to] = d.moves[rng.random_range(0..d.len)];
    let (f, t) = (square_name(from), square_name(to));
    let from_name = std::str::from_utf8(&f).unwrap_or_default();
    let promotes = (t[1] == b'1' || t[1] == b'8') && is_pawn(m.game.fen, from_name);
    Some(([f[0], f[1], t[0], t[1], b'q'], if promotes { 5 } else { 4 }))
}

/// The move of a game in flight, shared by its two players: the ply it
/// makes and when it was sent, so that the opponent's socket can time it.
#[derive(Debug, Default, Clone)]
struct Relay(Arc<Mutex<Option<(u32, Instant)>>>);

impl Relay {
    /// The move making ply `ply` was sent `at`.
    fn sent(&self, ply: u32, at: Instant) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some((ply, at));
    }

    /// When the move making ply `ply` was sent, if it is the one in flight
    /// (each move is timed once).
    fn seen(&self, ply: u32) -> Option<Instant> {
        let mut m = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match *m {
            Some((p, at)) if p == ply => {
                *m = None;
                Some(at)
            }
            _ => None,
        }
    }
}

/// One player of one game: its socket and the last state it saw.
struct Player {
    ws: Socket,
    relay: Relay,
    white: bool,
    /// The text of the last message carrying the game state.
    last: Utf8Bytes,
    ply: u32,
    to_move: bool,
    ongoing: bool,
    next_id: u64,
}

impl Player {
    /// Connects `client` to the game socket at `path` (small buffers: a
    /// run keeps thousands of sockets open).
    async fn connect(client: &Client, path: &str, relay: &Relay) -> Result<Player> {
        let mut req = format!("ws://{}{path}", client.addr())
            .into_client_request()
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        let h = req.headers_mut();
        if let Some(c) = client
            .cookie_header()
            .and_then(|c| HeaderValue::from_str(&c).ok())
        {
            h.insert(COOKIE, c);
        }
        if let Ok(o) = HeaderValue::from_str(&client.origin()) {
            h.insert(ORIGIN, o);
        }
        let stream = TcpStream::connect(client.addr()).await?;
        stream.set_nodelay(true)?;
        let config = WebSocketConfig::default()
            .read_buffer_size(16 * 1024)
            .write_buffer_size(0);
        let (ws, _) = tokio_tungstenite::client_async_with_config(req, stream, Some(config))
            .await
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        Ok(Player {
            ws,
            relay: relay.clone(),
            white: false,
            last: Utf8Bytes::default(),
            ply: 0,
            to_move: false,
            ongoing: false,
            next_id: 0,
        })
    }

    /// Takes in a message: keeps the game state it carries. Returns the
    /// parsed message (borrowing `text`).
    fn take<'t>(&mut self, text: &'t Utf8Bytes) -> Result<Msg<'t>> {
        let m: Msg<'t> = serde_json::from_str(text.as_str())?;
        if let Some(g) = &m.game {
            if let Some(you) = g.you {
                self.white = you == "white";
            }
            self.ply = g.ply;
            self.ongoing = g.status == "ongoing";
            self.to_move = self.ongoing && (g.turn == "white") == self.white;
            self.last = text.clone();
        }
        Ok(m)
    }

    /// The next text frame, within [`STEP`].
    async fn next_text(&mut self) -> Result<Utf8Bytes> {
        loop {
            let frame = tokio::time::timeout(STEP, self.ws.next())
                .await
                .map_err(|_| ClientError::Timeout)?;
            match frame {
                Some(Ok(Message::Text(t))) => return Ok(t),
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(ClientError::Ws(Box::new(e))),
            }
        }
    }

    /// Reads messages until one passes `pred` (setup only).
    async fn wait(&mut self, pred: impl Fn(&Msg<'_>) -> bool) -> Result<()> {
        loop {
            let text = self.next_text().await?;
            let m = self.take(&text)?;
            if m.t == "error" {
                return Err(ClientError::Unexpected(format!(
                    "during setup: {}",
                    text.as_str()
                )));
            }
            if pred(&m) {
                return Ok(());
            }
        }
    }

    /// Sends a random legal move; its id.
    async fn send_move(&mut self, rng: &mut StdRng) -> Result<Option<u64>> {
        let Some((uci, len)) = choose(self.last.as_str(), rng) else {
            return Ok(None);
        };
        let uci = std::str::from_utf8(&uci[..len]).unwrap_or_default();
        self.next_id += 1;
        let id = self.next_id;
        let text = format!(r#"{{"t":"move","id":{id},"uci":"{uci}"}}"#);
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| ClientError::Ws(Box::new(e)))?;
        Ok(Some(id))
    }

    /// Plays one move now and waits for its ack (setup only).
    async fn setup_move(&mut self, rng: &mut StdRng) -> Result<()> {
        let id = self
            .send_move(rng)
            .await?
            .ok_or_else(|| ClientError::Unexpected("no legal move at the start".into()))?;
        self.wait(|m| m.t == "ack" && m.id == Some(id)).await
    }
}

/// The measured window, as every player sees it.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: Instant,
    end: Instant,
    think_ms: u64,
}

/// What one player saw in the window.
#[derive(Debug, Default)]
struct Tally {
    /// Moves sent in the window and acknowledged.
    moves: u64,
    /// Their latencies, µs.
    latencies_us: Vec<u32>,
    /// Latencies from the opponent's sending a move to this player's
    /// socket receiving it, µs.
    seen_us: Vec<u32>,
    /// Moves refused by the server.
    refused: u64,
    /// Moves sent in the window whose ack never came.
    unacked: u64,
    /// Sockets that failed or closed.
    failed: u64,
    /// Players whose game ended.
    ended: u64,
    /// The first error seen, for the summary.
    first_error: Option<String>,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.moves += o.moves;
        self.latencies_us.extend_from_slice(&o.latencies_us);
        self.seen_us.extend_from_slice(&o.seen_us);
        self.refused += o.refused;
        self.unacked += o.unacked;
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

/// Plays `p`'s side through the window `w`, then waits up to [`DRAIN`] for
/// the acks still due. Returns the tally and the socket (kept open until
/// every player is done, so that the server's memory is read with all of
/// them open).
async fn play(
    mut p: Player,
    w: Window,
    mut rng: StdRng,
    expected: usize,
) -> (Tally, Option<Socket>) {
    let mut tally = Tally {
        latencies_us: Vec::with_capacity(expected),
        seen_us: Vec::with_capacity(expected),
        ..Tally::default()
    };
    // Moves sent and not yet acknowledged: (id, sent at). A player has at
    // most one in flight, but the ack may come after the opponent's reply.
    let mut pending: [Option<(u64, Instant)>; 2] = [None, None];
    let mut due: Option<Instant> = None;
    let mut scheduled_ply = None;
    let think = |rng: &mut StdRng| Duration::from_millis(rng.random_range(0..=2 * w.think_ms));
    let drain_end = w.end + DRAIN;
    let sleep = tokio::time::sleep_until(w.start);
    let mut sleep = pin!(sleep);
    loop {
        let now = Instant::now();
        if p.to_move && scheduled_ply != Some(p.ply) && due.is_none() && now < w.end {
            due = Some(now.max(w.start) + think(&mut rng));
            scheduled_ply = Some(p.ply);
        }
        let in_flight = pending.iter().any(Option::is_some);
        if now >= w.end && !in_flight {
            break;
        }
        let wake = match due {
            Some(d) if d < w.end => d,
            _ if now < w.end => w.end,
            _ => drain_end,
        };
        if sleep.deadline() != wake {
            sleep.as_mut().reset(wake);
        }
        tokio::select! {
            frame = p.ws.next() => {
                let text = match frame {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None => {
                        tally.failed += 1;
                        tally.error("the server closed a socket".into());
                        return (tally, None);
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        tally.failed += 1;
                        tally.error(format!("socket: {e}"));
                        return (tally, None);
                    }
                };
                let was_ongoing = p.ongoing;
                let m = match p.take(&text) {
                    Ok(m) => m,
                    Err(e) => {
                        tally.failed += 1;
                        tally.error(format!("unreadable message: {e}"));
                        return (tally, None);
                    }
                };
                if was_ongoing && !p.ongoing {
                    tally.ended += 1;
                }
                let at = Instant::now();
                // The opponent's move (White makes the odd plies) reached
                // this player's socket: its latency.
                if m.t == "event"
                    && let Some(g) = &m.game
                    && (g.ply % 2 == 1) != p.white
                    && let Some(sent) = p.relay.seen(g.ply)
                {
                    let us = at.saturating_duration_since(sent).as_micros();
                    tally.seen_us.push(u32::try_from(us).unwrap_or(u32::MAX));
                }
                let slot = pending.iter_mut().find(|s| s.is_some_and(|(id, _)| Some(id) == m.id));
                match (m.t, slot) {
                    ("ack", Some(slot)) => {
                        if let Some((_, sent)) = slot.take() {
                            let us = at.saturating_duration_since(sent).as_micros();
                            tally.latencies_us.push(u32::try_from(us).unwrap_or(u32::MAX));
                            tally.moves += 1;
                        }
                    }
                    ("error", Some(slot)) => {
                        *slot = None;
                        tally.refused += 1;
                        tally.error(format!("move refused: {}", m.code.unwrap_or("?")));
                        // Try again after another think time.
                        scheduled_ply = None;
                    }
                    _ => {}
                }
            }
            () = &mut sleep => {
                let now = Instant::now();
                if due.is_some_and(|d| d <= now) {
                    due = None;
                    if now < w.end && p.to_move {
                        p.relay.sent(p.ply + 1, now);
                        match p.send_move(&mut rng).await {
                            Ok(Some(id)) => {
                                if let Some(s) = pending.iter_mut().find(|s| s.is_none()) {
                                    *s = Some((id, now));
                                }
                            }
                            Ok(None) => {}
                            Err(e) => {
                                tally.failed += 1;
                                tally.error(format!("send: {e}"));
                                return (tally, None);
                            }
                        }
                    }
                } else if now >= drain_end {
                    let left = pending.iter().filter(|s| s.is_some()).count() as u64;
                    tally.unacked += left;
                    tally.error(format!("{left} moves without an ack {DRAIN:?} after the window"));
                    break;
                }
            }
        }
    }
    (tally, Some(p.ws))
}

/// CPU time of a process, seconds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cpu {
    pub(crate) user: f64,
    pub(crate) system: f64,
}

impl Cpu {
    pub(crate) fn total(self) -> f64 {
        self.user + self.system
    }
}

impl std::ops::Sub for Cpu {
    type Output = Cpu;
    fn sub(self, o: Cpu) -> Cpu {
        Cpu {
            user: self.user - o.user,
            system: self.system - o.system,
        }
    }
}

/// This process's CPU time so far (`getrusage`).
pub(crate) fn own_cpu() -> Cpu {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `getrusage` fills the `rusage` it is pointed to; the memory
    // is valid and zeroed, and `RUSAGE_SELF` is a valid target.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if rc != 0 {
        return Cpu::default();
    }
    // SAFETY: `getrusage` succeeded, so the value is initialised (and a
    // zeroed `rusage` is a valid one anyway).
    let u = unsafe { usage.assume_init() };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Cpu {
        user: secs(u.ru_utime),
        system: secs(u.ru_stime),
    }
}

/// The CPU time of process `pid` (fields 14 and 15 of `/proc/PID/stat`).
fn server_cpu(pid: u32) -> Option<Cpu> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces: count from after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ').skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    let tick = clock_ticks()?;
    Some(Cpu {
        user: utime / tick,
        system: stime / tick,
    })
}

fn clock_ticks() -> Option<f64> {
    // SAFETY: `sysconf` only reads a configuration value.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (t > 0).then_some(t as f64)
}

/// Busy and total CPU ticks of the whole machine (`/proc/stat`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MachineTicks {
    pub(crate) busy: u64,
    pub(crate) total: u64,
}

pub(crate) fn machine_ticks() -> Option<MachineTicks> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let v: Vec<u64> = line
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3)? + v.get(4).copied().unwrap_or(0);
    Some(MachineTicks {
        busy: total - idle,
        total,
    })
}

/// Raises this process's soft limit of open files to at least `need`
/// (up to the hard limit).
pub(crate) fn raise_open_files(need: u64) -> Result<()> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` fills the `rlimit` it is pointed to.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    if lim.rlim_cur >= need {
        return Ok(());
    }
    if lim.rlim_max < need {
        return Err(ClientError::Unexpected(format!(
            "{need} open files are needed but the hard limit is {}: raise it (ulimit -Hn) \
             or run fewer games",
            lim.rlim_max
        )));
    }
    lim.rlim_cur = need;
    // SAFETY: `setrlimit` reads the `rlimit` it is pointed to.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(fen: &str, dests: &str) -> String {
        format!(
            r#"{{"t":"event","v":3,"game":{{"fen":"{fen}","ply":2,"turn":"white","status":"ongoing","you":"white","moves":[{{"uci":"e2e4","san":"e4 \"x\""}}],"dests":{dests}}}}}"#
        )
    }

    #[test]
    fn squares_round_trip() {
        assert_eq!(square("a1"), Some(0));
        assert_eq!(square("h8"), Some(63));
        assert_eq!(square("e4"), Some(28));
        assert_eq!(square("i1"), None);
        assert_eq!(square("a9"), None);
        for i in 0..64 {
            assert_eq!(
                square(std::str::from_utf8(&square_name(i)).unwrap()),
                Some(i)
            );
        }
    }

    #[test]
    fn a_move_is_chosen_among_the_dests() {
        let text = state(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            r#"{"b1":["a3","c3"],"e2":["e3","e4"]}"#,
        );
        let mut rng = StdRng::seed_from_u64(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let (uci, len) = choose(&text, &mut rng).unwrap();
            assert_eq!(len, 4);
            seen.insert(String::from_utf8(uci[..len].to_vec()).unwrap());
        }
        let want: std::collections::BTreeSet<String> = ["b1a3", "b1c3", "e2e3", "e2e4"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(seen, want);
    }

    #[test]
    fn a_pawn_on_the_last_rank_becomes_a_queen_and_no_dests_no_move() {
        let text = state("8/P6k/8/8/8/8/8/K7 w - - 0 1", r#"{"a7":["a8"]}"#);
        let mut rng = StdRng::seed_from_u64(1);
        let (uci, len) = choose(&text, &mut rng).unwrap();
        assert_eq!(&uci[..len], b"a7a8q");
        let king = state("8/P6k/8/8/8/8/8/K7 w - - 0 1", r#"{"a1":["b1"]}"#);
        let (uci, len) = choose(&king, &mut rng).unwrap();
        assert_eq!(&uci[..len], b"a1b1");
        assert!(choose(&state("8/8/8/8/8/8/8/K6k w - - 0 1", "{}"), &mut rng).is_none());
    }

    #[test]
    fn messages_are_read_for_what_decides_a_move() {
        let text = state("8/8/8/8/8/8/8/K6k w - - 0 1", r#"{"a1":["a2"]}"#);
        let m: Msg<'_> = serde_json::from_str(&text).unwrap();
        assert_eq!(m.t, "event");
        let g = m.game.unwrap();
        assert_eq!(
            (g.ply, g.turn, g.status, g.you),
            (2, "white", "ongoing", Some("white"))
        );
        let ack: Msg<'_> = serde_json::from_str(r#"{"t":"ack","id":4,"v":9}"#).unwrap();
        assert_eq!((ack.t, ack.id), ("ack", Some(4)));
        let err: Msg<'_> = serde_json::from_str(
            r#"{"t":"error","id":5,"code":"illegal_move","message":"no \"x\""}"#,
        )
        .unwrap();
        assert_eq!(err.code, Some("illegal_move"));
    }

    #[test]
    fn the_report_has_the_contracted_keys_in_order() {
        let r = Report {
            games: 2,
            sockets: 4,
            moves: 10,
            moves_per_s: 1.0,
            p50_ms: 1.5,
            p99_ms: 3.0,
            opp_p50_ms: 1.6,
            opp_p99_ms: 3.1,
            rss_mb: 40.0,
            errors: 0,
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"games":2,"sockets":4,"moves":10,"moves_per_s":1.0,"p50_ms":1.5,"p99_ms":3.0,"opp_p50_ms":1.6,"opp_p99_ms":3.1,"rss_mb":40.0,"errors":0}"#
        );
    }
}
