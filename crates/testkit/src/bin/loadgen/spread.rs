//! `loadgen spread`: table games like `tables`, with the players spread
//! over several addresses (the nodes of a cluster, or one or more
//! balancers in front of them), sockets that reconnect when they are lost,
//! and an exact account of every move.
//!
//! - **Spreading.** Socket `i` (and its player's HTTP requests) goes to
//!   `--targets[i mod n]`; a lost socket reconnects to the next target
//!   (with one balancer: the balancer again), with `?v=<last version>`,
//!   after a back-off of 50 ms doubling to 2 s, each drawn in ±50 %.
//! - **Resuming.** Right after reconnecting, the player asks for its last
//!   event again (`sync` from one version back): the first message after
//!   that proves the game answers through the new socket. *Time to
//!   resume* is from the loss to the first event, state or ack received.
//! - **Moves never blindly resent.** A move whose ack cannot come any more
//!   (its socket was lost, the server answered an error, or no ack came
//!   within [`ACK_WAIT`]) is resent only once the game (caught up by that
//!   `sync`) shows it is still the player's turn at that ply; when the game
//!   shows it applied it is counted as applied without an ack.
//! - **Accounting** ([`ledger`](super::ledger)): at the end every game's
//!   final move list (`GET /api/games/{id}`) is checked against every move
//!   each player sent: lost, vanished and duplicated moves.
//! - **Latency**: send → ack, and send → the opponent's socket receiving
//!   the move's event (the move crossing nodes when the players are on
//!   different ones).
//! - **Around the window** ([`probes`](super::probes)): the nodes'
//!   `/metrics` (moves, forwarded commands, RSS), their CPU, Redis's
//!   `INFO`, PostgreSQL's commits and WAL and its cluster's CPU; a node
//!   may be killed (SIGKILL) in the window (`--kill`).
//!
//! The last line printed is one JSON object ([`Report`]).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use plyyard_testkit::{Client, ClientError, Socket};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::http::header::{COOKIE, ORIGIN};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use super::ledger::{Attempt, Fate, Uci, Verdict, same_move, verify};
use super::tables::{Cpu, TABLE, accounts, choose, machine_ticks, own_cpu, raise_open_files};
use super::{Result, expect, percentile, probes};

/// How long one setup step may take.
const STEP: Duration = Duration::from_secs(60);
/// A move without its ack this long is checked against the game.
const ACK_WAIT: Duration = Duration::from_secs(20);
/// A `sync` without an answer this long is sent again.
const PROBE_WAIT: Duration = Duration::from_secs(15);
/// How long opening a socket may take.
const CONNECT_WAIT: Duration = Duration::from_secs(10);
/// How long after the window moves still open are resolved.
const DRAIN: Duration = Duration::from_secs(40);
/// Games set up at once.
const SETUP_CONCURRENCY: usize = 16;
/// Games checked at once at the end.
const CHECK_CONCURRENCY: usize = 16;
/// First and longest reconnection back-off, ms.
const BACKOFF_MS: (u64, u64) = (50, 2000);

/// The options of `loadgen spread`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where the players connect (nodes or balancers).
    pub targets: Vec<SocketAddr>,
    /// The nodes' own addresses, for `/metrics`.
    pub nodes: Vec<SocketAddr>,
    /// The nodes' process ids (same order as `nodes`).
    pub node_pids: Vec<u32>,
    pub games: usize,
    pub seconds: u64,
    pub accounts: usize,
    pub think_ms: u64,
    pub seed: u64,
    /// Redis, for `INFO`.
    pub redis: Option<SocketAddr>,
    /// The database, for `pg_stat_database`.
    pub pg: Option<String>,
    /// PostgreSQL's postmaster (its whole cluster's CPU is read).
    pub pg_pid: Option<u32>,
    /// Other processes whose CPU is read (balancers): `name=pid`.
    pub others: Vec<(String, u32)>,
    /// Kill (SIGKILL) node `index` this many seconds into the window.
    pub kill: Option<(usize, u64)>,
    /// A name for the run, echoed in the report.
    pub label: String,
}

/// What was read around the window: counters at its start and end.
#[derive(Debug, Default)]
struct Around {
    nodes: Vec<Option<std::collections::HashMap<String, f64>>>,
    node_cpu: Vec<Option<Cpu>>,
    redis: Option<std::collections::HashMap<String, f64>>,
    pg: Option<probes::PgCounters>,
    pg_cpu: Option<Cpu>,
    others: Vec<Option<Cpu>>,
    machine: Option<super::tables::MachineTicks>,
    own: Cpu,
}

async fn read_around(o: &Options) -> Around {
    let mut nodes = Vec::new();
    for &n in &o.nodes {
        nodes.push(probes::node_metrics(n).await);
    }
    let redis = match o.redis {
        Some(r) => probes::redis_info(r).await,
        None => None,
    };
    let pg = match &o.pg {
        Some(url) => probes::pg_counters(url).await,
        None => None,
    };
    Around {
        nodes,
        node_cpu: o
            .node_pids
            .iter()
            .map(|&p| probes::process_cpu(p))
            .collect(),
        redis,
        pg,
        pg_cpu: o.pg_pid.and_then(probes::tree_cpu),
        others: o
            .others
            .iter()
            .map(|(_, p)| probes::process_cpu(*p))
            .collect(),
        machine: machine_ticks(),
        own: own_cpu(),
    }
}

/// The shared clock of a run.
#[derive(Debug, Clone, Copy)]
struct Clock {
    epoch: Instant,
    start: Instant,
    end: Instant,
    drain_end: Instant,
    think_ms: u64,
}

impl Clock {
    fn us(&self, t: Instant) -> u64 {
        t.saturating_duration_since(self.epoch).as_micros() as u64
    }
}

/// What both players of a game share: the ply a move just sent will make
/// and when it was sent (µs since the epoch), packed as `ply << 40 | µs`,
/// for the move → opponent latency.
type Link = Arc<AtomicU64>;

const US_BITS: u32 = 40;

/// A server message: what the players look at.
#[derive(Debug, Deserialize)]
struct In<'a> {
    #[serde(borrow)]
    t: &'a str,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    v: Option<u64>,
    #[serde(default, borrow)]
    code: Option<&'a str>,
    #[serde(default, borrow, rename = "move")]
    mv: Option<MoveIn<'a>>,
    #[serde(default, borrow)]
    game: Option<GameIn<'a>>,
}

#[derive(Debug, Deserialize)]
struct MoveIn<'a> {
    #[serde(borrow)]
    uci: &'a str,
}

#[derive(Debug, Deserialize)]
struct GameIn<'a> {
    ply: u32,
    #[serde(borrow)]
    turn: &'a str,
    #[serde(borrow)]
    status: &'a str,
    #[serde(default, borrow)]
    you: Option<&'a str>,
    #[serde(default, borrow)]
    moves: Option<Vec<MoveIn<'a>>>,
}

/// A move sent whose fate is open.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The message id its ack or error will name.
    id: u64,
    /// Its entry in the player's attempts.
    attempt: usize,
    sent: Instant,
    /// Its ack can still come on the socket it was sent on.
    live: bool,
}

/// What one player saw.
#[derive(Debug, Default)]
struct Tally {
    /// Moves sent in the window and acknowledged.
    moves: u64,
    ack_us: Vec<u32>,
    opp_us: Vec<u32>,
    resume_us: Vec<u32>,
    reconnects: u64,
    connect_failures: u64,
    resends: u64,
    applied_without_ack: u64,
    gaps: u64,
    unresolved: u64,
    ended: u64,
    /// Errors other than reconnects, by kind (server codes, or ours).
    errors: BTreeMap<String, u64>,
    first_error: Option<String>,
}

impl Tally {
    fn error(&mut self, kind: &str, detail: String) {
        *self.errors.entry(kind.to_owned()).or_default() += 1;
        if self.first_error.is_none() {
            self.first_error = Some(detail);
        }
    }

    fn add(&mut self, o: Tally) {
        self.moves += o.moves;
        self.ack_us.extend(o.ack_us);
        self.opp_us.extend(o.opp_us);
        self.resume_us.extend(o.resume_us);
        self.reconnects += o.reconnects;
        self.connect_failures += o.connect_failures;
        self.resends += o.resends;
        self.applied_without_ack += o.applied_without_ack;
        self.gaps += o.gaps;
        self.unresolved += o.unresolved;
        self.ended += o.ended;
        for (k, n) in o.errors {
            *self.errors.entry(k).or_default() += n;
        }
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
    }
}

fn us32(d: Duration) -> u32 {
    u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
}

/// One player of one game.
struct Side {
    game: usize,
    id: Arc<str>,
    client: Client,
    targets: Arc<Vec<SocketAddr>>,
    target: usize,
    ws: Option<Socket>,
    white: bool,
    /// The last version applied.
    v: u64,
    /// The last message carrying a state (to choose a move from).
    last: Utf8Bytes,
    ply: u32,
    turn_white: bool,
    ongoing: bool,
    /// The game's moves as this player knows them.
    moves: Vec<Uci>,
    next_id: u64,
    pending: Vec<Pending>,
    attempts: Vec<Attempt>,
    link: Link,
    /// The epoch of the link's stamps.
    epoch: Instant,
    /// A `sync` awaiting its answer: its id, when to send it again, and
    /// whether it was answered by an error (the retry is then no timeout).
    probe: Option<(u64, Instant, bool)>,
    /// The version that `sync` asked from: its answer starts with the
    /// event after it (or a `full`).
    probe_since: u64,
    /// When the socket was lost, until the new one delivers.
    lost_at: Option<Instant>,
    rng: StdRng,
    tally: Tally,
}

impl Side {
    fn to_move(&self) -> bool {
        self.ongoing && self.turn_white == self.white
    }

    /// Takes in the server's message `text`; the messages to send back.
    fn take(&mut self, text: &Utf8Bytes, clock: &Clock) -> Vec<String> {
        let mut out = Vec::new();
        let m: In<'_> = match serde_json::from_str(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                self.tally
                    .error("unreadable", format!("unreadable message: {e}"));
                return out;
            }
        };
        let now = Instant::now();
        if matches!(m.t, "event" | "full" | "ack")
            && let Some(lost) = self.lost_at.take()
        {
            self.tally.resume_us.push(us32(now - lost));
        }
        match m.t {
            "full" => self.take_full(&m, text),
            "event" => {
                let v = m.v.unwrap_or(0);
                if v <= self.probe_since + 1 {
                    // The start of a probe's answer.
                    self.probe = None;
                }
                if v == self.v + 1 {
                    self.take_event(&m, text, clock, now);
                } else if v > self.v + 1 && self.probe.is_none() {
                    self.tally.gaps += 1;
                    eprintln!(
                        "loadgen: game {}: event v{v} after v{} (a gap): sync",
                        self.id, self.v
                    );
                    out.push(self.sync());
                }
            }
            "ack" => self.take_ack(m.id, clock, now),
            // The guard records the error whatever it answers.
            "error" if self.take_error(&m, text) && self.probe.is_none() => {
                out.push(self.sync());
            }
            _ => {}
        }
        if self.probe.is_none() {
            out.extend(self.resolve());
        }
        out
    }

    fn set_state(&mut self, g: &GameIn<'_>, text: &Utf8Bytes) {
        let was = self.ongoing;
        if let Some(you) = g.you {
            self.white = you == "white";
        }
        self.ply = g.ply;
        self.turn_white = g.turn == "white";
        self.ongoing = g.status == "ongoing";
        if was && !self.ongoing {
            self.tally.ended += 1;
        }
        self.last = text.clone();
    }

    fn take_full(&mut self, m: &In<'_>, text: &Utf8Bytes) {
        let Some(g) = &m.game else { return };
        self.v = m.v.unwrap_or(self.v);
        self.moves = g
            .moves
            .iter()
            .flatten()
            .filter_map(|mv| Uci::parse(mv.uci))
            .collect();
        self.set_state(g, text);
        self.probe = None;
    }

    fn take_event(&mut self, m: &In<'_>, text: &Utf8Bytes, clock: &Clock, now: Instant) {
        let Some(g) = &m.game else { return };
        self.v += 1;
        self.moves
            .truncate(g.ply.saturating_sub(u32::from(m.mv.is_some())) as usize);
        if let Some(mv) = &m.mv {
            if let Some(u) = Uci::parse(mv.uci) {
                self.moves.push(u);
            }
            let mover_white = g.ply % 2 == 1;
            if mover_white != self.white {
                let l = self.link.load(Ordering::Relaxed);
                let (ply, sent) = (l >> US_BITS, l & ((1 << US_BITS) - 1));
                if ply == u64::from(g.ply) && sent >= clock.us(clock.start) {
                    let d = clock.us(now).saturating_sub(sent);
                    self.tally.opp_us.push(u32::try_from(d).unwrap_or(u32::MAX));
                }
            }
        }
        self.set_state(g, text);
    }

    fn take_ack(&mut self, id: Option<u64>, clock: &Clock, now: Instant) {
        let Some(i) = self.pending.iter().position(|p| Some(p.id) == id) else {
            return;
        };
        let p = self.pending.remove(i);
        self.attempts[p.attempt].fate = Fate::Acked;
        if p.sent >= clock.start && p.sent < clock.end {
            self.tally.moves += 1;
            self.tally.ack_us.push(us32(now - p.sent));
        }
    }

    /// Takes in an error; whether the game must be asked for (a move's
    /// fate is then open).
    fn take_error(&mut self, m: &In<'_>, text: &Utf8Bytes) -> bool {
        let code = m.code.unwrap_or("?");
        if let Some((probe, _, _)) = self.probe
            && m.id == Some(probe)
        {
            // The game could not be reached: ask again in a second.
            self.probe = Some((probe, Instant::now() + Duration::from_secs(1), true));
            self.tally.error(code, format!("sync: {}", text.as_str()));
            return false;
        }
        self.tally.error(code, text.as_str().to_owned());
        match self.pending.iter_mut().find(|p| Some(p.id) == m.id) {
            Some(p) => {
                // Whether it was applied is told by the game, not the
                // error (a forward without an answer may have been).
                p.live = false;
                true
            }
            None => false,
        }
    }

    /// Settles the moves whose ack cannot come, against the game as now
    /// known (caught up); a move to send again, if any.
    fn resolve(&mut self) -> Vec<String> {
        let mut resend = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            let p = self.pending[i];
            let a = self.attempts[p.attempt];
            match self.moves.get(a.ply as usize) {
                Some(m) if same_move(a.uci, *m) => {
                    if p.live {
                        i += 1;
                        continue;
                    }
                    self.attempts[p.attempt].fate = Fate::Applied;
                    self.tally.applied_without_ack += 1;
                }
                Some(other) => {
                    let detail = format!(
                        "game {}: {} sent at ply {}, the game has {} there",
                        self.id,
                        a.uci.as_str(),
                        a.ply,
                        other.as_str()
                    );
                    self.tally.error("superseded", detail);
                }
                None if p.live => {
                    i += 1;
                    continue;
                }
                None if self.to_move() && self.ply == a.ply => {
                    resend.push(p.attempt);
                }
                None => {
                    // The game moved on without it (ended, or undone).
                    self.tally.unresolved += 1;
                }
            }
            self.pending.remove(i);
        }
        resend
            .into_iter()
            .map(|attempt| {
                self.tally.resends += 1;
                self.send_attempt(attempt, Instant::now())
            })
            .collect()
    }

    /// A `sync` from one version back, whose answer proves the game
    /// answers and brings this player up to date.
    fn sync(&mut self) -> String {
        self.next_id += 1;
        self.probe = Some((self.next_id, Instant::now() + PROBE_WAIT, false));
        self.probe_since = self.v.saturating_sub(1);
        format!(
            r#"{{"t":"sync","id":{},"v":{}}}"#,
            self.next_id, self.probe_since
        )
    }

    /// Records a new move at the current ply; the message sending it.
    fn new_move(&mut self, now: Instant) -> Option<String> {
        let (bytes, len) = choose(self.last.as_str(), &mut self.rng)?;
        let uci = Uci::parse(std::str::from_utf8(&bytes[..len]).ok()?)?;
        self.attempts.push(Attempt {
            ply: self.ply,
            uci,
            fate: Fate::Unknown,
        });
        Some(self.send_attempt(self.attempts.len() - 1, now))
    }

    fn send_attempt(&mut self, attempt: usize, now: Instant) -> String {
        self.next_id += 1;
        let a = self.attempts[attempt];
        self.pending.push(Pending {
            id: self.next_id,
            attempt,
            sent: now,
            live: true,
        });
        let packed = (u64::from(a.ply + 1) << US_BITS) | self.link_us(now);
        self.link.store(packed, Ordering::Relaxed);
        format!(
            r#"{{"t":"move","id":{},"uci":"{}"}}"#,
            self.next_id,
            a.uci.as_str()
        )
    }

    fn link_us(&self, now: Instant) -> u64 {
        now.saturating_duration_since(self.epoch).as_micros() as u64 & ((1 << US_BITS) - 1)
    }

    async fn send(&mut self, text: String) -> Result<()> {
        let ws = self.ws.as_mut().ok_or(ClientError::Closed)?;
        ws.send(Message::Text(text.into()))
            .await
            .map_err(|e| ClientError::Ws(Box::new(e)))
    }

    async fn send_all(&mut self, msgs: Vec<String>) {
        for m in msgs {
            if self.send(m).await.is_err() {
                self.lose(Instant::now());
                return;
            }
        }
    }

    /// The socket is gone: its acks cannot come any more.
    fn lose(&mut self, now: Instant) {
        self.ws = None;
        self.lost_at.get_or_insert(now);
        self.probe = None;
        for p in &mut self.pending {
            p.live = false;
        }
    }

    fn path(&self) -> String {
        format!("/api/games/{}/socket?v={}", self.id, self.v)
    }

    /// Reconnects (next target, back-off with jitter) until connected or
    /// the drain ends; then asks for the last event again.
    async fn reconnect(&mut self, clock: &Clock) {
        self.tally.reconnects += 1;
        let mut attempt = 0u32;
        while Instant::now() < clock.drain_end {
            let base = (BACKOFF_MS.0 << attempt.min(6)).min(BACKOFF_MS.1);
            let wait = self.rng.random_range(base / 2..=base * 3 / 2);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            self.target = (self.target + 1) % self.targets.len();
            let addr = self.targets[self.target];
            let path = self.path();
            match tokio::time::timeout(CONNECT_WAIT, open_socket(&self.client, addr, &path)).await {
                Ok(Ok(ws)) => {
                    self.ws = Some(ws);
                    let probe = self.sync();
                    self.send_all(vec![probe]).await;
                    if self.ws.is_some() {
                        return;
                    }
                }
                _ => self.tally.connect_failures += 1,
            }
            attempt += 1;
        }
    }

    /// Reads messages until `pred` holds (setup only).
    async fn wait(&mut self, clock: &Clock, pred: impl Fn(&Side) -> bool) -> Result<()> {
        while !pred(self) {
            let ws = self.ws.as_mut().ok_or(ClientError::Closed)?;
            let frame = tokio::time::timeout(STEP, ws.next())
                .await
                .map_err(|_| ClientError::Timeout)?;
            let text = match frame {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(_))) | None => return Err(ClientError::Closed),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(ClientError::Ws(Box::new(e))),
            };
            let errors = self.tally.errors.values().sum::<u64>();
            let out = self.take(&text, clock);
            if self.tally.errors.values().sum::<u64>() > errors {
                return Err(ClientError::Unexpected(format!(
                    "during setup: {}",
                    text.as_str()
                )));
            }
            self.send_all(out).await;
        }
        Ok(())
    }
}

/// Opens the game socket at `path` on `addr` with `client`'s cookies and
/// `addr`'s origin (small buffers: a run keeps thousands open).
async fn open_socket(client: &Client, addr: SocketAddr, path: &str) -> Result<Socket> {
    let mut req = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| ClientError::Ws(Box::new(e)))?;
    let h = req.headers_mut();
    if let Some(c) = client
        .cookie_header()
        .and_then(|c| HeaderValue::from_str(&c).ok())
    {
        h.insert(COOKIE, c);
    }
    if let Ok(o) = HeaderValue::from_str(&format!("http://{addr}")) {
        h.insert(ORIGIN, o);
    }
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::client_async_with_config(req, stream, Some(config))
        .await
        .map_err(|e| ClientError::Ws(Box::new(e)))?;
    Ok(ws)
}

/// Plays one side through the window, reconnecting as needed, then
/// settles its open moves until the drain ends.
async fn play(mut s: Side, clock: Clock) -> Side {
    let think = |rng: &mut StdRng| Duration::from_millis(rng.random_range(0..=2 * clock.think_ms));
    let mut due: Option<Instant> = None;
    let mut scheduled_ply = None;
    let sleep = tokio::time::sleep_until(clock.start);
    let mut sleep = pin!(sleep);
    loop {
        let now = Instant::now();
        if now >= clock.drain_end {
            break;
        }
        if s.ws.is_none() {
            if now >= clock.end && s.pending.is_empty() {
                break;
            }
            s.reconnect(&clock).await;
            continue;
        }
        if s.to_move()
            && s.pending.is_empty()
            && s.probe.is_none()
            && scheduled_ply != Some(s.ply)
            && due.is_none()
            && now < clock.end
        {
            due = Some(now.max(clock.start) + think(&mut s.rng));
            scheduled_ply = Some(s.ply);
        }
        if now >= clock.end && s.pending.is_empty() && s.probe.is_none() {
            break;
        }
        let mut wake = match due {
            Some(d) if d < clock.end => d,
            _ if now < clock.end => clock.end,
            _ => clock.drain_end,
        };
        if let Some((_, again, _)) = s.probe {
            wake = wake.min(again);
        }
        if let Some(first) = s.pending.iter().filter(|p| p.live).map(|p| p.sent).min() {
            wake = wake.min(first + ACK_WAIT);
        }
        if sleep.deadline() != wake {
            sleep.as_mut().reset(wake);
        }
        let Some(ws) = s.ws.as_mut() else { continue };
        tokio::select! {
            frame = ws.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    let out = s.take(&text, &clock);
                    s.send_all(out).await;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => s.lose(Instant::now()),
            },
            () = &mut sleep => {
                let now = Instant::now();
                let mut out = Vec::new();
                if due.is_some_and(|d| d <= now) {
                    due = None;
                    if now < clock.end && s.to_move() && s.pending.is_empty() && s.probe.is_none() {
                        out.extend(s.new_move(now));
                    }
                }
                if let Some((_, again, after_error)) = s.probe
                    && now >= again
                {
                    if !after_error {
                        eprintln!("loadgen: game {}: no answer to a sync at v{}", s.id, s.v);
                        s.tally.error("sync_timeout", format!("game {}: no answer to sync", s.id));
                    }
                    out.push(s.sync());
                }
                let overdue = s.pending.iter().any(|p| p.live && now >= p.sent + ACK_WAIT);
                if overdue {
                    for p in &mut s.pending {
                        if p.live && now >= p.sent + ACK_WAIT {
                            p.live = false;
                        }
                    }
                    s.tally.error("no_ack", format!("game {}: no ack within {ACK_WAIT:?}", s.id));
                    if s.probe.is_none() {
                        out.push(s.sync());
                    }
                }
                s.send_all(out).await;
            }
        }
    }
    s.tally.unresolved += s.pending.len() as u64;
    s.pending.clear();
    s
}

/// Opens and joins `games` tables over the targets; both sides of every
/// game connected, two plies played.
async fn seat_all(
    accounts: &[Client],
    targets: &Arc<Vec<SocketAddr>>,
    games: usize,
    seed: u64,
    epoch: Instant,
    unseated: &mut u64,
) -> Result<Vec<Side>> {
    let n = accounts.len();
    let mut sides = Vec::with_capacity(2 * games);
    let mut running = tokio::task::JoinSet::new();
    let mut next = 0;
    while next < games || !running.is_empty() {
        while next < games && running.len() < SETUP_CONCURRENCY.min(n) {
            let (mut host, mut guest) = (
                accounts[next % n].clone(),
                accounts[(next + n / 2) % n].clone(),
            );
            let (ht, gt) = ((2 * next) % targets.len(), (2 * next + 1) % targets.len());
            host.set_addr(targets[ht]);
            guest.set_addr(targets[gt]);
            let seats = Seats {
                game: next,
                host: (host, ht),
                guest: (guest, gt),
                targets: Arc::clone(targets),
                seed: seed ^ (next as u64).wrapping_mul(0x2545_f491),
            };
            running.spawn(seats.seat(epoch));
            next += 1;
        }
        if let Some(done) = running.join_next().await {
            // A game that cannot be seated is counted and left out (its
            // error shown), so that one does not spoil a whole run.
            let [w, b] = match done.map_err(|e| ClientError::Unexpected(format!("task: {e}")))? {
                Ok(pair) => pair,
                Err(e) => {
                    eprintln!("loadgen: a game could not be seated: {e}");
                    *unseated += 1;
                    continue;
                }
            };
            sides.push(w);
            sides.push(b);
            if sides.len() % 2000 == 0 {
                eprintln!("loadgen: {} games seated", sides.len() / 2);
            }
        }
    }
    Ok(sides)
}

/// The two players of one game to seat.
struct Seats {
    game: usize,
    host: (Client, usize),
    guest: (Client, usize),
    targets: Arc<Vec<SocketAddr>>,
    seed: u64,
}

impl Seats {
    async fn seat(self, epoch: Instant) -> Result<[Side; 2]> {
        let (host, guest) = (&self.host.0, &self.guest.0);
        let table: Value =
            expect("open a table", host.post("/api/tables", TABLE).await?, 201)?.json()?;
        let code = table["code"].as_str().unwrap_or_default();
        let joined: Value = expect(
            "join a table",
            guest
                .post_empty(&format!("/api/tables/{code}/join"))
                .await?,
            200,
        )?
        .json()?;
        let id: Arc<str> = joined["game_id"]
            .as_str()
            .ok_or_else(|| ClientError::Unexpected(format!("no game id: {joined}")))?
            .into();
        self.seat_game(&id, epoch)
            .await
            .map_err(|e| ClientError::Unexpected(format!("game {id}: {e}")))
    }

    async fn seat_game(&self, id: &Arc<str>, epoch: Instant) -> Result<[Side; 2]> {
        let (id, clock) = (id.clone(), dummy_clock());
        let link: Link = Arc::default();
        let a = self.side(&id, &self.host, (&link, epoch), 1).await?;
        let b = self.side(&id, &self.guest, (&link, epoch), 2).await?;
        let (mut w, mut b) = if a.white { (a, b) } else { (b, a) };
        if !w.white || b.white {
            return Err(ClientError::Unexpected(
                "both players got one colour".into(),
            ));
        }
        let first = w.new_move(Instant::now()).ok_or(ClientError::Closed)?;
        w.send_all(vec![first]).await;
        w.wait(&clock, |s| s.pending.is_empty()).await?;
        b.wait(&clock, |s| s.ply >= 1).await?;
        let second = b.new_move(Instant::now()).ok_or(ClientError::Closed)?;
        b.send_all(vec![second]).await;
        b.wait(&clock, |s| s.pending.is_empty() && s.ply >= 2)
            .await?;
        w.wait(&clock, |s| s.ply >= 2).await?;
        Ok([w, b])
    }

    async fn side(
        &self,
        id: &Arc<str>,
        (client, target): &(Client, usize),
        (link, epoch): (&Link, Instant),
        salt: u64,
    ) -> Result<Side> {
        let ws = open_socket(client, client.addr(), &format!("/api/games/{id}/socket")).await?;
        let mut s = Side {
            game: self.game,
            id: Arc::clone(id),
            client: client.clone(),
            targets: Arc::clone(&self.targets),
            target: *target,
            ws: Some(ws),
            white: false,
            v: 0,
            last: Utf8Bytes::default(),
            ply: 0,
            turn_white: true,
            ongoing: false,
            moves: Vec::new(),
            next_id: 0,
            pending: Vec::new(),
            attempts: Vec::new(),
            link: Arc::clone(link),
            epoch,
            probe: None,
            probe_since: 0,
            lost_at: None,
            rng: StdRng::seed_from_u64(self.seed.wrapping_add(salt)),
            tally: Tally::default(),
        };
        // The first state (`full`) tells the colour.
        let clock = dummy_clock();
        s.wait(&clock, |s| !s.last.as_str().is_empty()).await?;
        Ok(s)
    }
}

fn dummy_clock() -> Clock {
    let now = Instant::now();
    Clock {
        epoch: now,
        start: now + Duration::from_secs(1 << 30),
        end: now + Duration::from_secs(1 << 30),
        drain_end: now + Duration::from_secs(1 << 30),
        think_ms: 0,
    }
}

/// Checks every game's final move list against what its players sent.
async fn check_games(sides: &[Side]) -> (Verdict, u64) {
    let mut by_game: BTreeMap<usize, (Arc<str>, Client, Vec<Attempt>)> = BTreeMap::new();
    for s in sides {
        let e = by_game.entry(s.game).or_insert_with(|| {
            let mut c = s.client.clone();
            c.set_addr(s.targets[s.target]);
            (Arc::clone(&s.id), c, Vec::new())
        });
        e.2.extend_from_slice(&s.attempts);
    }
    let mut total = Verdict::default();
    let mut unchecked = 0;
    let mut running = tokio::task::JoinSet::new();
    let mut games = by_game.into_values();
    loop {
        while running.len() < CHECK_CONCURRENCY {
            let Some((id, client, attempts)) = games.next() else {
                break;
            };
            running.spawn(async move {
                let fin = final_moves(&client, &id).await?;
                Some(verify(&fin, &attempts))
            });
        }
        let Some(done) = running.join_next().await else {
            break;
        };
        match done.ok().flatten() {
            Some(v) => total.add(v),
            None => unchecked += 1,
        }
    }
    (total, unchecked)
}

/// The game's final move list (`GET /api/games/{id}`), tried a few times.
async fn final_moves(client: &Client, id: &str) -> Option<Vec<Uci>> {
    for _ in 0..5 {
        if let Ok(r) = client.get(&format!("/api/games/{id}")).await
            && r.status == 200
            && let Ok(v) = r.json::<Value>()
            && let Some(list) = v["moves"].as_array()
        {
            return list
                .iter()
                .map(|m| m["uci"].as_str().and_then(Uci::parse))
                .collect();
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    None
}

/// The last line of a run, one JSON object (figures the script reads).
#[derive(Debug, Serialize)]
pub struct Report {
    pub label: String,
    pub games: usize,
    pub sockets: usize,
    pub targets: usize,
    pub think_ms: u64,
    pub window_s: u64,
    /// Moves sent in the window and acknowledged.
    pub moves: u64,
    pub moves_per_s: f64,
    pub ack_p50_ms: f64,
    pub ack_p99_ms: f64,
    /// Send → the opponent's socket receiving the move.
    pub opp_p50_ms: f64,
    pub opp_p99_ms: f64,
    pub lost: u64,
    pub vanished: u64,
    pub duplicated: u64,
    pub games_unchecked: u64,
    pub applied_without_ack: u64,
    pub resends: u64,
    pub reconnects: u64,
    pub connect_failures: u64,
    pub resume_p50_ms: f64,
    pub resume_p99_ms: f64,
    pub resume_max_ms: f64,
    /// Errors other than reconnects (server error codes and ours).
    pub errors: u64,
    pub errors_by_kind: BTreeMap<String, u64>,
    pub unresolved: u64,
    /// Extra figures read around the window (nodes, Redis, PostgreSQL).
    pub around: Map<String, Value>,
}

/// Runs `loadgen spread`.
pub async fn run(o: Options) -> Result<()> {
    let sockets = 2 * o.games;
    raise_open_files(sockets as u64 + 2 * o.accounts as u64 + 512)?;
    let targets = Arc::new(o.targets.clone());
    let t0 = std::time::Instant::now();
    let accounts = accounts(targets[0], o.accounts.max(2)).await?;
    println!(
        "accounts ready: {} in {:.1} s",
        accounts.len(),
        t0.elapsed().as_secs_f64()
    );
    let t1 = std::time::Instant::now();
    let epoch = Instant::now();
    let mut unseated = 0;
    let sides = seat_all(&accounts, &targets, o.games, o.seed, epoch, &mut unseated).await?;
    println!(
        "games seated: {} ({} sockets over {} targets) in {:.1} s",
        o.games,
        sides.len(),
        targets.len(),
        t1.elapsed().as_secs_f64()
    );
    let start = Instant::now() + Duration::from_millis(500);
    let end = start + Duration::from_secs(o.seconds);
    let clock = Clock {
        epoch,
        start,
        end,
        drain_end: end + DRAIN,
        think_ms: o.think_ms,
    };
    let mut tasks = tokio::task::JoinSet::new();
    for s in sides {
        tasks.spawn(play(s, clock));
    }
    tokio::time::sleep_until(start).await;
    let before = read_around(&o).await;
    let loadavg0 = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut killed = None;
    if let Some((i, after)) = o.kill {
        tokio::time::sleep_until(start + Duration::from_secs(after)).await;
        if let Some(&pid) = o.node_pids.get(i) {
            // SAFETY: `kill` only sends a signal to the given process id.
            let rc = unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            println!(
                "killed node {i} (pid {pid}) {after} s into the window: {}",
                if rc == 0 { "ok" } else { "failed" }
            );
            killed = Some(i);
        }
    }
    tokio::time::sleep_until(end).await;
    let after = read_around(&o).await;
    let loadavg1 = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let rss: Vec<Option<f64>> = o
        .node_pids
        .iter()
        .map(|&p| probes::process_rss_mib(p))
        .collect();

    let mut all = Tally::default();
    let mut done = Vec::with_capacity(sockets);
    while let Some(s) = tasks.join_next().await {
        let mut s = s.map_err(|e| ClientError::Unexpected(format!("task: {e}")))?;
        all.add(std::mem::take(&mut s.tally));
        done.push(s);
    }
    println!("window and drain over; checking every game's moves");
    let (verdict, unchecked) = check_games(&done).await;
    // PostgreSQL flushes its statistics about once a second.
    let pg_late = match &o.pg {
        Some(url) => probes::pg_counters(url).await,
        None => None,
    };
    drop(done);

    let around = describe(&o, &before, &after, pg_late, &rss, killed, &all);
    let mut around = around;
    around.insert("games_not_seated".into(), json!(unseated));
    let report = report(&o, &all, verdict, unchecked, around);
    print_summary(&report, &all, &loadavg0, &loadavg1);
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

fn ms_sorted(us: &[u32]) -> Vec<f64> {
    let mut v: Vec<f64> = us.iter().map(|&u| f64::from(u) / 1000.0).collect();
    v.sort_by(f64::total_cmp);
    v
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

fn report(
    o: &Options,
    all: &Tally,
    verdict: Verdict,
    unchecked: u64,
    around: Map<String, Value>,
) -> Report {
    let (ack, opp, resume) = (
        ms_sorted(&all.ack_us),
        ms_sorted(&all.opp_us),
        ms_sorted(&all.resume_us),
    );
    let secs = o.seconds.max(1) as f64;
    Report {
        label: o.label.clone(),
        games: o.games,
        sockets: 2 * o.games,
        targets: o.targets.len(),
        think_ms: o.think_ms,
        window_s: o.seconds,
        moves: all.moves,
        moves_per_s: round(all.moves as f64 / secs, 1),
        ack_p50_ms: round(percentile(&ack, 50.0), 2),
        ack_p99_ms: round(percentile(&ack, 99.0), 2),
        opp_p50_ms: round(percentile(&opp, 50.0), 2),
        opp_p99_ms: round(percentile(&opp, 99.0), 2),
        lost: verdict.lost,
        vanished: verdict.vanished,
        duplicated: verdict.duplicated,
        games_unchecked: unchecked,
        applied_without_ack: all.applied_without_ack,
        resends: all.resends,
        reconnects: all.reconnects,
        connect_failures: all.connect_failures,
        resume_p50_ms: round(percentile(&resume, 50.0), 1),
        resume_p99_ms: round(percentile(&resume, 99.0), 1),
        resume_max_ms: round(resume.last().copied().unwrap_or(f64::NAN), 1),
        errors: all.errors.values().sum(),
        errors_by_kind: all.errors.clone(),
        unresolved: all.unresolved,
        around,
    }
}

/// The figures read around the window, with the costs per move.
fn describe(
    o: &Options,
    before: &Around,
    after: &Around,
    pg_late: Option<probes::PgCounters>,
    rss: &[Option<f64>],
    killed: Option<usize>,
    all: &Tally,
) -> Map<String, Value> {
    let secs = o.seconds.max(1) as f64;
    let moves = all.moves.max(1) as f64;
    let mut m = Map::new();
    let delta = |name: &str| -> f64 {
        before
            .nodes
            .iter()
            .zip(&after.nodes)
            .filter_map(|(b, a)| Some(a.as_ref()?.get(name)? - b.as_ref()?.get(name)?))
            .sum()
    };
    let node_moves = delta("plyyard_moves_total");
    let forwarded = delta("plyyard_forwarded_total");
    m.insert("node_moves".into(), json!(node_moves));
    m.insert("forwarded".into(), json!(forwarded));
    m.insert(
        "served_forwarded".into(),
        json!(delta("plyyard_served_forwarded_total")),
    );
    m.insert(
        "leases_taken".into(),
        json!(delta("plyyard_leases_taken_total")),
    );
    if node_moves > 0.0 {
        m.insert(
            "forwarded_share".into(),
            json!(round(forwarded / node_moves, 3)),
        );
    }
    m.insert("killed_node".into(), json!(killed));
    let mut node_cpu_total = 0.0;
    let nodes: Vec<Value> = o
        .nodes
        .iter()
        .enumerate()
        .map(|(i, addr)| {
            let cpu = match (
                before.node_cpu.get(i).copied().flatten(),
                after.node_cpu.get(i).copied().flatten(),
            ) {
                (Some(b), Some(a)) => Some(a.total() - b.total()),
                _ => None,
            };
            node_cpu_total += cpu.unwrap_or(0.0);
            let moves = match (&before.nodes.get(i), &after.nodes.get(i)) {
                (Some(Some(b)), Some(Some(a))) => Some(
                    a.get("plyyard_moves_total").unwrap_or(&0.0)
                        - b.get("plyyard_moves_total").unwrap_or(&0.0),
                ),
                _ => None,
            };
            json!({
                "addr": addr.to_string(),
                "cpu_pct": cpu.map(|c| round(100.0 * c / secs, 1)),
                "rss_mib": rss.get(i).copied().flatten().map(|r| round(r, 1)),
                "moves": moves,
            })
        })
        .collect();
    m.insert("nodes".into(), Value::Array(nodes));
    m.insert(
        "node_cpu_pct".into(),
        json!(round(100.0 * node_cpu_total / secs, 1)),
    );
    m.insert(
        "node_cpu_ms_per_move".into(),
        json!(round(1000.0 * node_cpu_total / moves, 3)),
    );
    if let (Some(b), Some(a)) = (&before.redis, &after.redis) {
        let d = |k: &str| a.get(k).unwrap_or(&0.0) - b.get(k).unwrap_or(&0.0);
        let cpu = d("used_cpu_sys") + d("used_cpu_user");
        m.insert("redis_cpu_pct".into(), json!(round(100.0 * cpu / secs, 1)));
        m.insert(
            "redis_cpu_ms_per_move".into(),
            json!(round(1000.0 * cpu / moves, 4)),
        );
        let cmds = d("total_commands_processed");
        m.insert("redis_commands".into(), json!(cmds));
        m.insert(
            "redis_commands_per_move".into(),
            json!(round(cmds / moves, 3)),
        );
        m.insert(
            "redis_publish_per_move".into(),
            json!(round(d("cmdstat_publish") / moves, 3)),
        );
        m.insert(
            "redis_net_out_bytes_per_move".into(),
            json!(round(d("total_net_output_bytes") / moves, 1)),
        );
    }
    if let (Some(b), Some(a)) = (before.pg, pg_late.or(after.pg)) {
        let d = a - b;
        m.insert(
            "pg_commits_per_move".into(),
            json!(round(d.commits / moves, 3)),
        );
        m.insert(
            "pg_rows_written_per_move".into(),
            json!(round(d.rows_written / moves, 3)),
        );
        m.insert(
            "pg_wal_bytes_per_move".into(),
            json!(round(d.wal_bytes / moves, 1)),
        );
        m.insert("pg_rollbacks".into(), json!(d.rollbacks));
        m.insert(
            "pg_counters_note".into(),
            json!("read after the drain and the final check: include them"),
        );
    }
    if let (Some(b), Some(a)) = (before.pg_cpu, after.pg_cpu) {
        let c = a.total() - b.total();
        m.insert("pg_cpu_pct".into(), json!(round(100.0 * c / secs, 1)));
        m.insert(
            "pg_cpu_ms_per_move".into(),
            json!(round(1000.0 * c / moves, 3)),
        );
    }
    for (i, (name, _)) in o.others.iter().enumerate() {
        if let (Some(Some(b)), Some(Some(a))) = (before.others.get(i), after.others.get(i)) {
            m.insert(
                format!("{name}_cpu_pct"),
                json!(round(100.0 * (a.total() - b.total()) / secs, 1)),
            );
        }
    }
    if let (Some(b), Some(a)) = (before.machine, after.machine)
        && a.total > b.total
    {
        let busy = 100.0 * (a.busy - b.busy) as f64 / (a.total - b.total) as f64;
        m.insert("machine_busy_pct".into(), json!(round(busy, 1)));
    }
    let own = after.own - before.own;
    m.insert(
        "loadgen_cpu_pct".into(),
        json!(round(100.0 * own.total() / secs, 1)),
    );
    m
}

fn print_summary(r: &Report, all: &Tally, load0: &str, load1: &str) {
    println!(
        "{}: {} games, {} sockets over {} targets, think {} ms, window {} s",
        r.label, r.games, r.sockets, r.targets, r.think_ms, r.window_s
    );
    println!(
        "moves acknowledged: {} ({}/s); ack p50 {} ms p99 {} ms; to the opponent p50 {} ms p99 {} ms",
        r.moves, r.moves_per_s, r.ack_p50_ms, r.ack_p99_ms, r.opp_p50_ms, r.opp_p99_ms
    );
    println!(
        "lost {}, vanished {}, duplicated {} (games unchecked {}); applied without ack {}, resent {}",
        r.lost, r.vanished, r.duplicated, r.games_unchecked, r.applied_without_ack, r.resends
    );
    println!(
        "reconnects {} (failed attempts {}); time to resume p50 {} ms p99 {} ms max {} ms; gaps {}",
        r.reconnects,
        r.connect_failures,
        r.resume_p50_ms,
        r.resume_p99_ms,
        r.resume_max_ms,
        all.gaps
    );
    println!(
        "errors other than reconnects: {} {:?}; unresolved {}",
        r.errors, r.errors_by_kind, r.unresolved
    );
    if let Some(e) = &all.first_error {
        println!("first error: {e}");
    }
    println!("load average at the window's start: {}", load0.trim());
    println!("load average at the window's end: {}", load1.trim());
    println!("around: {}", Value::Object(r.around.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESTS: &str = r#"{"e2":["e4"]}"#;

    fn side(white: bool) -> Side {
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        Side {
            game: 0,
            id: "g1".into(),
            client: Client::new(addr),
            targets: Arc::new(vec![addr]),
            target: 0,
            ws: None,
            white,
            v: 0,
            last: Utf8Bytes::default(),
            ply: 0,
            turn_white: true,
            ongoing: false,
            moves: Vec::new(),
            next_id: 0,
            pending: Vec::new(),
            attempts: Vec::new(),
            link: Arc::default(),
            epoch: Instant::now(),
            probe: None,
            probe_since: 0,
            lost_at: None,
            rng: StdRng::seed_from_u64(1),
            tally: Tally::default(),
        }
    }

    fn full(v: u64, moves: &[&str], you: &str) -> Utf8Bytes {
        let list: Vec<String> = moves
            .iter()
            .map(|m| format!(r#"{{"uci":"{m}","san":"x"}}"#))
            .collect();
        let turn = if moves.len().is_multiple_of(2) {
            "white"
        } else {
            "black"
        };
        format!(
            r#"{{"t":"full","v":{v},"game":{{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","ply":{},"turn":"{turn}","status":"ongoing","you":"{you}","moves":[{}],"dests":{DESTS}}}}}"#,
            moves.len(),
            list.join(",")
        )
        .into()
    }

    fn event(v: u64, ply: u32, uci: &str) -> Utf8Bytes {
        let turn = if ply.is_multiple_of(2) {
            "white"
        } else {
            "black"
        };
        format!(
            r#"{{"t":"event","v":{v},"kind":"move","move":{{"uci":"{uci}","san":"x"}},"game":{{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","ply":{ply},"turn":"{turn}","status":"ongoing","you":null,"dests":{DESTS}}}}}"#
        )
        .into()
    }

    fn clock() -> Clock {
        dummy_clock()
    }

    /// A white side at ply 2 that has sent e2e4 and lost its socket.
    fn lost_with_a_move() -> Side {
        let mut s = side(true);
        let c = clock();
        assert!(s.take(&full(2, &["a2a3", "a7a6"], "white"), &c).is_empty());
        let sent = s.new_move(Instant::now()).unwrap();
        assert!(sent.contains(r#""uci":"e2e4""#), "{sent}");
        s.lose(Instant::now());
        assert!(s.lost_at.is_some());
        let probe = s.sync();
        assert!(probe.contains(r#""v":1"#), "{probe}");
        s
    }

    #[test]
    fn a_move_seen_applied_after_a_reconnect_is_not_resent() {
        let mut s = lost_with_a_move();
        let c = clock();
        // The replay of what was missed, then the probe's answer.
        assert!(s.take(&event(3, 3, "e2e4"), &c).is_empty());
        assert!(
            s.lost_at.is_none(),
            "the first event after the loss resumes"
        );
        assert_eq!(s.tally.resume_us.len(), 1);
        assert!(s.take(&event(2, 2, "a7a6"), &c).is_empty());
        assert!(s.pending.is_empty());
        assert_eq!(s.attempts[0].fate, Fate::Applied);
        assert_eq!((s.tally.applied_without_ack, s.tally.resends), (1, 0));
    }

    #[test]
    fn a_move_missing_after_a_reconnect_is_resent_once_caught_up() {
        let mut s = lost_with_a_move();
        let c = clock();
        // The probe's answer shows the game still at ply 2, our turn.
        let out = s.take(&event(2, 2, "a7a6"), &c);
        assert_eq!(out.len(), 1);
        assert!(out[0].contains(r#""uci":"e2e4""#), "{}", out[0]);
        assert_eq!(s.tally.resends, 1);
        assert_eq!(s.pending.len(), 1);
        assert!(s.pending[0].live);
        // Its ack settles it.
        let id = s.pending[0].id;
        let ack: Utf8Bytes = format!(r#"{{"t":"ack","id":{id},"v":3}}"#).into();
        s.take(&ack, &c);
        assert!(s.pending.is_empty());
        assert_eq!(s.attempts[0].fate, Fate::Acked);
    }

    #[test]
    fn nothing_is_resent_before_the_game_answers() {
        let mut s = lost_with_a_move();
        let c = clock();
        // A gap (a newer event than the next one) is not a state to act on.
        assert!(s.take(&event(5, 5, "b1c3"), &c).is_empty());
        assert_eq!(s.tally.resends, 0);
        assert_eq!(s.pending.len(), 1);
    }

    #[test]
    fn an_error_for_a_move_asks_for_the_game_before_anything_else() {
        let mut s = side(true);
        let c = clock();
        s.take(&full(2, &["a2a3", "a7a6"], "white"), &c);
        s.new_move(Instant::now()).unwrap();
        let id = s.pending[0].id;
        let err: Utf8Bytes =
            format!(r#"{{"t":"error","id":{id},"code":"conflict","message":"try \"again\""}}"#)
                .into();
        let out = s.take(&err, &c);
        assert_eq!(out.len(), 1);
        assert!(out[0].contains(r#""t":"sync""#), "{}", out[0]);
        assert_eq!(s.tally.errors.get("conflict"), Some(&1));
        assert!(!s.pending[0].live);
    }

    #[test]
    fn the_opponent_latency_is_taken_from_the_shared_link() {
        let mut w = side(true);
        let mut b = side(false);
        b.link = Arc::clone(&w.link);
        b.epoch = w.epoch;
        let mut c = clock();
        c.epoch = w.epoch;
        c.start = w.epoch;
        w.take(&full(2, &["a2a3", "a7a6"], "white"), &c);
        b.take(&full(2, &["a2a3", "a7a6"], "black"), &c);
        w.new_move(Instant::now()).unwrap();
        b.take(&event(3, 3, "e2e4"), &c);
        assert_eq!(b.tally.opp_us.len(), 1);
        assert_eq!(b.moves.len(), 3);
        assert!(b.to_move());
    }
}
