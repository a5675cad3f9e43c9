//! Clusters of three real nodes (`plyyard serve --redis … --node-id …`,
//! the binary built by cargo) sharing one fresh PostgreSQL database and one
//! Redis, as behind HAProxy (docs/deploy.md): a table game played across
//! nodes, nodes killed (SIGKILL) or stopped (SIGTERM) mid-game, Redis
//! restarted mid-game, the lobby and a rate limit across nodes, and a game
//! whose every node died. PostgreSQL only: skipped without
//! `PLYYARD_TEST_PG`; skipped without `redis-server` too, unless
//! `PLYYARD_REQUIRE_REDIS` is set (as in CI).
//!
//! The [`Cluster`] fixture starts and stops nodes; a [`Watcher`] is one
//! game socket that applies what it receives as the protocol's client rule
//! says (docs/protocol.md) and keeps what it saw, to be checked at the end:
//! every version once, in order, and the same moves as the server.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::StreamExt as _;
use plyyard_testkit::{Backend, Client, ServerProcess, Socket, TestDb, TestRedis, send_json};
use serde_json::{Value, json};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use crate::support;

/// How long one answer may take.
const WAIT: Duration = Duration::from_secs(20);
/// How long play may stall after a node or Redis goes away (the issue's
/// bound).
const RESUME_WITHIN: Duration = Duration::from_secs(10);
/// How long a node may take to exit after SIGTERM.
const STOP_WITHIN: Duration = Duration::from_secs(10);
/// The websocket close code of a server going away.
const GOING_AWAY: u16 = 1001;
/// A legal game: the Ruy Lopez, closed variation, 16 plies.
const LINE: [&str; 16] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8",
];

// --- the fixture ---------------------------------------------------------

/// Nodes of the real binary on one database and one Redis. Node `k` (from
/// 1) runs with `--node-id node{k}`; a restarted node gets a new port.
struct Cluster {
    nodes: Vec<Option<ServerProcess>>,
    redis: Option<TestRedis>,
    redis_port: u16,
    bin: PathBuf,
    extra: Vec<String>,
    /// Dropped last: its `DROP DATABASE … WITH (FORCE)` ends what is left.
    db: TestDb,
}

impl Cluster {
    /// Nodes 1 to `n` on `db` and `redis`, each with the test tunables and
    /// `extra` flags.
    async fn start(db: TestDb, redis: TestRedis, n: usize, extra: &[&str]) -> Cluster {
        let mut cluster = Cluster {
            nodes: Vec::new(),
            redis_port: redis.port(),
            redis: Some(redis),
            bin: plyyard_testkit::plyyard_binary(),
            extra: extra.iter().map(|s| (*s).to_owned()).collect(),
            db,
        };
        // One at a time: the first applies the migrations.
        for k in 1..=n {
            cluster.start_node(k).await;
        }
        cluster
    }

    fn args(&self, k: usize) -> Vec<String> {
        let mut args = vec![
            "--redis".to_owned(),
            format!("redis://127.0.0.1:{}/0", self.redis_port),
            "--node-id".to_owned(),
            format!("node{k}"),
        ];
        let tunables = [
            "--engine-workers",
            "1",
            "--engine-hash-mb",
            "1",
            "--think-time-factor",
            "0.05",
            "--idle-unload-secs",
            "5",
        ];
        args.extend(tunables.iter().map(|s| (*s).to_owned()));
        args.extend(self.extra.iter().cloned());
        args
    }

    /// Starts node `k` (again).
    async fn start_node(&mut self, k: usize) {
        assert!(self.node(k).is_none(), "node{k} is running");
        let args = self.args(k);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let name = format!("node{k}");
        let node = ServerProcess::start_named(&self.bin, self.db.url(), &args, &name).await;
        if self.nodes.len() < k {
            self.nodes.resize_with(k, || None);
        }
        self.nodes[k - 1] = Some(node);
    }

    fn node(&self, k: usize) -> Option<&ServerProcess> {
        self.nodes.get(k - 1).and_then(Option::as_ref)
    }

    fn take(&mut self, k: usize) -> ServerProcess {
        self.nodes
            .get_mut(k - 1)
            .and_then(Option::take)
            .unwrap_or_else(|| panic!("node{k} is not running"))
    }

    /// Node `k`'s address.
    fn addr(&self, k: usize) -> SocketAddr {
        self.node(k)
            .unwrap_or_else(|| panic!("node{k} is not running"))
            .addr
    }

    /// A new visitor of node `k`.
    fn client(&self, k: usize) -> Client {
        Client::new(self.addr(k))
    }

    /// `c` (its cookies: the same visitor) pointed at node `k`.
    fn on(&self, c: &Client, k: usize) -> Client {
        let mut c = c.clone();
        c.set_addr(self.addr(k));
        c
    }

    /// The running nodes, in order.
    fn live(&self) -> Vec<usize> {
        (1..=self.nodes.len())
            .filter(|&k| self.node(k).is_some())
            .collect()
    }

    /// The first running node after `k` (cyclically).
    fn next_live(&self, k: usize) -> usize {
        let live = self.live();
        live.iter()
            .copied()
            .find(|&n| n > k)
            .or_else(|| live.first().copied())
            .expect("a running node")
    }

    /// SIGKILL to node `k`.
    async fn kill(&mut self, k: usize) {
        self.take(k).kill().await;
    }

    /// SIGTERM to node `k`; it must exit, successfully, within
    /// [`STOP_WITHIN`]. Returns how long it took.
    async fn terminate(&mut self, k: usize) -> Duration {
        let node = self.take(k);
        let t0 = Instant::now();
        let status = node.terminate(STOP_WITHIN).await;
        assert!(
            status.success(),
            "node{k} exited with {status} after SIGTERM"
        );
        t0.elapsed()
    }

    /// Stops Redis and starts it again on the same port (empty: nothing
    /// is saved).
    fn restart_redis(&mut self) {
        drop(self.redis.take());
        self.redis = Some(TestRedis::on(self.redis_port).expect("redis-server starts again"));
    }

    /// The node directing tournaments now (the holder of the director's
    /// lease, straight from PostgreSQL), waited for.
    async fn director(&self) -> usize {
        let t0 = Instant::now();
        loop {
            let holder: Option<String> = self
                .query_one(
                    "SELECT node_id FROM task_leases WHERE name = 'tournament-director' \
                     AND expires_at >= CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
                )
                .await;
            let held = holder.and_then(|n| n.strip_prefix("node")?.parse::<usize>().ok());
            if let Some(k) = held.filter(|&k| self.node(k).is_some()) {
                return k;
            }
            assert!(t0.elapsed() < WAIT, "no node directs tournaments");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The first column of the first row of `sql`, straight from PostgreSQL.
    async fn query_one(&self, sql: &str) -> Option<String> {
        use sqlx::Connection as _;
        let mut conn = sqlx::PgConnection::connect(self.db.url())
            .await
            .expect("the test database");
        let row: Option<(String,)> = sqlx::query_as(sql)
            .fetch_optional(&mut conn)
            .await
            .expect("the query");
        let _ = conn.close().await;
        row.map(|r| r.0)
    }

    /// Every pairing of tournament `id`: (white, black, created, finished).
    async fn pairings(&self, id: &str) -> Vec<(String, String, i64, Option<i64>)> {
        use sqlx::Connection as _;
        let mut conn = sqlx::PgConnection::connect(self.db.url())
            .await
            .expect("the test database");
        let rows = sqlx::query_as(
            "SELECT white_player, black_player, created_at, finished_at \
             FROM tournament_pairings WHERE tournament_id = $1",
        )
        .bind(id)
        .fetch_all(&mut conn)
        .await
        .expect("the pairings");
        let _ = conn.close().await;
        rows
    }

    /// The stored game, straight from PostgreSQL: (status, result, reason).
    async fn stored_outcome(&self, id: &str) -> (String, String, Option<String>) {
        use sqlx::Connection as _;
        let mut conn = sqlx::PgConnection::connect(self.db.url())
            .await
            .expect("the test database");
        let row: (String, String, Option<String>) =
            sqlx::query_as("SELECT status, result, reason FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&mut conn)
                .await
                .expect("the game's row");
        let _ = conn.close().await;
        row
    }
}

/// Runs `test` on a fresh cluster of three nodes started with `extra`
/// flags: PostgreSQL and Redis, or skipped (see the module's header).
fn on_cluster<F, Fut>(extra: &'static [&'static str], test: F)
where
    F: FnOnce(Cluster) -> Fut,
    Fut: Future<Output = ()>,
{
    plyyard_testkit::run_on(Backend::Postgres, |db| async move {
        let Some(redis) = TestRedis::start() else {
            return;
        };
        test(Cluster::start(db, redis, 3, extra).await).await;
    });
}

// --- players and games ---------------------------------------------------

fn suffix() -> String {
    format!("{:06}", rand::random::<u32>() % 1_000_000)
}

/// Signs `c` up as a new account named `prefix` and digits.
async fn sign_up(c: &Client, prefix: &str) {
    support::sign_up(c, &format!("{prefix}{}", suffix())).await;
}

fn table_body() -> Value {
    json!({"minutes": 3, "increment": 2, "rules": "plyyard", "rated": false, "public": true})
}

/// Opens a public table; returns its code.
async fn open_table(host: &Client) -> String {
    support::open_table(host, &table_body()).await
}

/// Two new accounts at a new table, the host on node `host_node` and the
/// guest on `guest_node`; returns (white, black, game id), each client on
/// the node it used.
async fn seated(cl: &Cluster, host_node: usize, guest_node: usize) -> (Client, Client, String) {
    let host = cl.client(host_node);
    let guest = cl.client(guest_node);
    sign_up(&host, "host").await;
    sign_up(&guest, "guest").await;
    let code = open_table(&host).await;
    let id = support::join_table(&guest, &code).await;
    let state = host.get_value(&format!("/api/games/{id}")).await;
    if state["you"] == "white" {
        (host, guest, id)
    } else {
        (guest, host, id)
    }
}

/// The game as node-independent GET sees it: (version, moves, status).
async fn fetch(c: &Client, id: &str) -> Option<(u64, Vec<String>, String)> {
    let r = c.get(&format!("/api/games/{id}")).await.ok()?;
    if r.status != 200 {
        return None;
    }
    let g: Value = r.json().ok()?;
    Some((
        g["v"].as_u64()?,
        ucis(&g["moves"]),
        g["status"].as_str()?.to_owned(),
    ))
}

fn ucis(moves: &Value) -> Vec<String> {
    moves
        .as_array()
        .map(|ms| {
            ms.iter()
                .filter_map(|m| m["uci"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

// --- a game socket that keeps what it saw --------------------------------

/// Why a [`Watcher`] stopped reading.
#[derive(Debug)]
enum Stop {
    /// The socket closed (the node went, or closed it).
    Closed,
    /// Nothing came in time.
    Timeout,
}

/// One game socket applying the protocol's client rule, and its record.
struct Watcher {
    who: &'static str,
    client: Client,
    /// The node it is connected to.
    node: usize,
    id: String,
    ws: Option<Socket>,
    /// The version of the last state applied (0 before any).
    v: u64,
    /// The moves as this socket knows them.
    moves: Vec<String>,
    status: String,
    /// The versions of the events applied since the last `full`, in order.
    seen: Vec<u64>,
    /// Events whose version was not new (`v <= mine`) on the first
    /// connection (after a reconnect the protocol allows them).
    duplicates: Vec<u64>,
    /// Events that skipped versions: (mine, theirs). The watcher then
    /// asks for the rest (`sync`), as a client does.
    gaps: Vec<(u64, u64)>,
    /// `full` states received (on connect, or a too old `?v=`).
    fulls: usize,
    /// `ack`/`error` answers by command id.
    replies: HashMap<u64, Value>,
    /// The close code of the last socket the server closed.
    close_code: Option<u16>,
    /// Connections made so far (1 after `open`).
    connection: u64,
    /// The connection each command was sent on, by id.
    sent_on: HashMap<u64, u64>,
}

impl Watcher {
    /// Opens a socket on game `id` at node `k` (without `v`: the server
    /// sends `full`), and waits for that state.
    async fn open(cl: &Cluster, who: &'static str, c: &Client, k: usize, id: &str) -> Watcher {
        let mut w = Watcher {
            who,
            client: cl.on(c, k),
            node: k,
            id: id.to_owned(),
            ws: None,
            v: 0,
            moves: Vec::new(),
            status: String::new(),
            seen: Vec::new(),
            duplicates: Vec::new(),
            gaps: Vec::new(),
            fulls: 0,
            replies: HashMap::new(),
            close_code: None,
            connection: 1,
            sent_on: HashMap::new(),
        };
        w.ws = Some(w.client.game_socket(id, None).await.expect("socket opens"));
        w.until(WAIT, |w| w.fulls > 0)
            .await
            .unwrap_or_else(|e| panic!("{who}: no full state: {e:?}"));
        w
    }

    /// Connects again, to node `k`, with `?v=` the version it has.
    async fn reconnect(&mut self, cl: &Cluster, k: usize) {
        self.ws = None;
        self.connection += 1;
        self.client = cl.on(&self.client, k);
        self.node = k;
        let ws = self
            .client
            .game_socket(&self.id, Some(self.v))
            .await
            .unwrap_or_else(|e| panic!("{}: cannot reconnect to node{k}: {e:?}", self.who));
        self.ws = Some(ws);
    }

    /// Reads and applies messages until `done` holds, for at most `within`.
    async fn until(
        &mut self,
        within: Duration,
        done: impl Fn(&Watcher) -> bool,
    ) -> Result<(), Stop> {
        let deadline = Instant::now() + within;
        while !done(self) {
            self.step(deadline).await?;
        }
        Ok(())
    }

    /// Reads one frame and applies it.
    async fn step(&mut self, deadline: Instant) -> Result<(), Stop> {
        let ws = self.ws.as_mut().ok_or(Stop::Closed)?;
        let frame = match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => return Err(Stop::Timeout),
            Ok(f) => f,
        };
        match frame {
            Some(Ok(Message::Text(t))) => {
                let m: Value = serde_json::from_str(t.as_str()).expect("JSON from the server");
                self.apply(m).await;
                Ok(())
            }
            Some(Ok(Message::Close(frame))) => {
                self.close_code = frame.map(|f| u16::from(f.code));
                self.ws = None;
                Err(Stop::Closed)
            }
            Some(Ok(_)) => Ok(()),
            None | Some(Err(_)) => {
                self.ws = None;
                Err(Stop::Closed)
            }
        }
    }

    async fn apply(&mut self, m: Value) {
        match m["t"].as_str() {
            Some("full") => {
                self.fulls += 1;
                self.seen.clear();
                self.v = m["v"].as_u64().expect("full.v");
                self.moves = ucis(&m["game"]["moves"]);
                self.status = m["game"]["status"].as_str().unwrap_or("").to_owned();
            }
            Some("event") => {
                let v = m["v"].as_u64().expect("event.v");
                if v <= self.v {
                    // Dropped, as the reconnect rule says; only across a
                    // reconnect may a catch-up and a live event meet.
                    if self.connection == 1 {
                        self.duplicates.push(v);
                    }
                } else if v > self.v + 1 {
                    self.gaps.push((self.v, v));
                    if let Some(ws) = self.ws.as_mut() {
                        let _ = send_json(ws, &json!({"t": "sync", "v": self.v})).await;
                    }
                } else {
                    self.v = v;
                    self.seen.push(v);
                    let game = &m["game"];
                    let ply = game["ply"].as_u64().expect("event.game.ply") as usize;
                    if let Some(uci) = m["move"]["uci"].as_str() {
                        self.moves.truncate(ply.saturating_sub(1));
                        self.moves.push(uci.to_owned());
                    } else {
                        self.moves.truncate(ply);
                    }
                    self.status = game["status"].as_str().unwrap_or("").to_owned();
                }
            }
            Some("ack" | "error") => {
                if let Some(id) = m["id"].as_u64() {
                    self.replies.insert(id, m);
                }
            }
            _ => {}
        }
    }

    /// Sends a move with command id `id` (without waiting).
    async fn send_move(&mut self, id: u64, uci: &str) -> Result<(), Stop> {
        self.sent_on.insert(id, self.connection);
        let ws = self.ws.as_mut().ok_or(Stop::Closed)?;
        send_json(ws, &json!({"t": "move", "id": id, "uci": uci}))
            .await
            .map_err(|_| Stop::Closed)
    }

    /// Waits for the answer to command `id`; [`Stop::Closed`] at once
    /// when it was sent on a connection since replaced.
    async fn reply(&mut self, id: u64, within: Duration) -> Result<Value, Stop> {
        if let Some(r) = self.replies.get(&id) {
            return Ok(r.clone());
        }
        if self.sent_on.get(&id) != Some(&self.connection) {
            return Err(Stop::Closed);
        }
        self.until(within, |w| w.replies.contains_key(&id)).await?;
        Ok(self.replies[&id].clone())
    }

    /// Reads until it has version `v`, for at most `within`.
    async fn catch_up(&mut self, v: u64, within: Duration) {
        let who = self.who;
        self.until(within, |w| w.v >= v)
            .await
            .unwrap_or_else(|e| panic!("{who}: stuck at v{} waiting for v{v}: {e:?}", self.v));
    }

    /// Every event once and in order since its last `full`, and no gap.
    fn assert_clean(&self) {
        assert!(
            self.duplicates.is_empty(),
            "{}: events seen twice: {:?}",
            self.who,
            self.duplicates
        );
        assert!(self.gaps.is_empty(), "{}: gaps: {:?}", self.who, self.gaps);
        assert!(
            self.seen.windows(2).all(|w| w[1] == w[0] + 1),
            "{}: versions out of order: {:?}",
            self.who,
            self.seen
        );
    }
}

// --- a game between two watchers, with a spectator -----------------------

/// A table game: White and Black each on a socket, a spectator on a third,
/// and what has been played.
struct Match {
    id: String,
    /// White, Black, the spectator.
    sockets: [Watcher; 3],
    /// Moves known applied (acknowledged, or found applied after a lost
    /// acknowledgement), in order.
    played: Vec<String>,
    /// How many of `played` were acknowledged.
    acked: usize,
    next_id: u64,
}

impl Match {
    /// A new table game, its host and guest on nodes `seats`; White's and
    /// Black's sockets on `nodes[0]` and `nodes[1]`, a spectator's on
    /// `nodes[2]`.
    async fn start(cl: &Cluster, seats: [usize; 2], nodes: [usize; 3]) -> Match {
        let (white, black, id) = seated(cl, seats[0], seats[1]).await;
        let spectator = cl.client(nodes[2]);
        let sockets = [
            Watcher::open(cl, "white", &white, nodes[0], &id).await,
            Watcher::open(cl, "black", &black, nodes[1], &id).await,
            Watcher::open(cl, "spectator", &spectator, nodes[2], &id).await,
        ];
        Match {
            id,
            sockets,
            played: Vec::new(),
            acked: 0,
            next_id: 1,
        }
    }

    /// The socket of the side to move.
    fn mover(&self) -> usize {
        self.played.len() % 2
    }

    /// Sends the next move of [`LINE`] without waiting; returns its id.
    async fn send_next(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let uci = LINE[self.played.len()];
        let m = self.mover();
        // A closed socket is settled (reconnected, resent) by `settle`.
        let _ = self.sockets[m].send_move(id, uci).await;
        id
    }

    /// Sees the move sent as command `id` through: its acknowledgement, or
    /// (when the socket closed or nothing came) a reconnection to a running
    /// node and the move found applied or sent again, within `within`.
    /// `disrupted`: a node or Redis just went, and an error answer is
    /// retried too until `within`; otherwise an error fails the test.
    async fn settle(&mut self, cl: &Cluster, mut id: u64, within: Duration, disrupted: bool) {
        let deadline = Instant::now() + within;
        let uci = LINE[self.played.len()];
        let m = self.mover();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let last = match self.sockets[m].reply(id, left.min(WAIT)).await {
                Ok(r) if r["t"] == "ack" => {
                    self.played.push(uci.to_owned());
                    self.acked += 1;
                    return;
                }
                Ok(r) => {
                    assert!(
                        disrupted,
                        "{uci} (ply {}) refused: {r}",
                        self.played.len() + 1
                    );
                    r
                }
                Err(e) => json!(format!("{e:?}")),
            };
            let w = &mut self.sockets[m];
            if w.ws.is_none() || cl.node(w.node).is_none() {
                let k = if cl.node(w.node).is_some() {
                    w.node
                } else {
                    cl.next_live(w.node)
                };
                w.reconnect(cl, k).await;
            }
            if let Some((_, moves, _)) = fetch(&w.client, &self.id).await
                && moves.len() > self.played.len()
            {
                assert_eq!(
                    moves[self.played.len()],
                    uci,
                    "an unexpected move was stored"
                );
                self.played.push(uci.to_owned());
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{uci} (ply {}) not played within {within:?}; last answer {last}",
                self.played.len() + 1
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            id = self.next_id;
            self.next_id += 1;
            let _ = self.sockets[m].send_move(id, uci).await;
        }
    }

    /// Plays the next move of [`LINE`] and waits for its acknowledgement:
    /// an error answer fails the test.
    async fn play(&mut self, cl: &Cluster, within: Duration) {
        let id = self.send_next().await;
        self.settle(cl, id, within, false).await;
    }

    /// Plays the next move of [`LINE`] right after a disruption: errors
    /// are retried until `within`.
    async fn play_through(&mut self, cl: &Cluster, within: Duration) {
        let id = self.send_next().await;
        self.settle(cl, id, within, true).await;
    }

    /// Moves every socket on node `k` (gone, or going) to the next running
    /// node, resuming from the version it has.
    async fn leave(&mut self, cl: &Cluster, k: usize) {
        for w in &mut self.sockets {
            if w.node == k {
                let to = cl.next_live(k);
                w.reconnect(cl, to).await;
            }
        }
    }

    /// Reads on every socket up to the stored version, then checks: the
    /// stored moves are exactly those played (every acknowledged move
    /// kept, none twice), the PGN has them, and every socket has the same
    /// moves. `strict`: no socket missed or repeated a version.
    async fn check(&mut self, cl: &Cluster, strict: bool) -> String {
        let k = cl.live()[0];
        let c = cl.on(&self.sockets[2].client, k);
        let (v, moves, status) = fetch(&c, &self.id).await.expect("the game");
        assert_eq!(moves, self.played, "stored moves vs the moves played");
        let pgn = c
            .get(&format!("/api/games/{}/pgn", self.id))
            .await
            .unwrap()
            .text();
        let sans = pgn_moves(&pgn);
        assert_eq!(sans.len(), moves.len(), "PGN moves vs stored: {pgn}");
        for w in &mut self.sockets {
            w.catch_up(v, WAIT).await;
            assert_eq!(w.moves, moves, "{}: moves", w.who);
            if strict {
                w.assert_clean();
            }
        }
        status
    }
}

/// The SAN moves of a one-game PGN's movetext (move numbers, comments and
/// the result left out).
fn pgn_moves(pgn: &str) -> Vec<String> {
    let text: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut word = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_whitespace() => {
                let w = std::mem::take(&mut word);
                let is_number = w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
                let is_result = matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
                if !w.is_empty() && !is_number && !is_result {
                    out.push(w);
                }
            }
            c => word.push(c),
        }
    }
    out
}

// --- the tests -----------------------------------------------------------

/// The harness on its own (no game moves between nodes): every node
/// serves, a game played on one node is seen whole by its three sockets,
/// and the fixture kills, stops and restarts nodes and Redis.
async fn the_harness_runs_three_nodes(mut cl: Cluster) {
    for k in 1..=3 {
        let r = cl.client(k).get("/healthz").await.unwrap();
        assert_eq!((r.status, r.text()), (200, "ok".to_owned()), "node{k}");
    }
    let mut game = Match::start(&cl, [1, 1], [1, 1, 1]).await;
    for _ in 0..6 {
        game.play(&cl, WAIT).await;
    }
    assert_eq!(game.check(&cl, true).await, "ongoing");
    cl.kill(2).await;
    cl.start_node(2).await;
    let took = cl.terminate(3).await;
    assert!(took < STOP_WITHIN, "node3 took {took:?} to stop");
    cl.start_node(3).await;
    cl.restart_redis();
    for k in 1..=3 {
        let r = cl.client(k).get("/healthz").await.unwrap();
        assert_eq!(r.status, 200, "node{k} after the restarts");
    }
    game.play(&cl, WAIT).await;
    game.check(&cl, true).await;
}

/// (a) White on node 1, Black on node 2, a spectator on node 3: each
/// socket sees every version once, in order, and every move.
async fn a_game_across_three_nodes(cl: Cluster) {
    let mut game = Match::start(&cl, [1, 2], [1, 2, 3]).await;
    for _ in 0..10 {
        game.play(&cl, WAIT).await;
    }
    assert_eq!(game.check(&cl, true).await, "ongoing");
    assert_eq!(game.acked, 10);
    for w in &game.sockets {
        assert_eq!(w.fulls, 1, "{}: a resync where none was needed", w.who);
        assert!(w.seen.len() >= 10, "{}: {:?}", w.who, w.seen);
    }
}

/// (b) Each node in turn killed with SIGKILL mid-game (a move in flight),
/// its sockets moving to a running node with `?v=`, the node started
/// again: play goes on, every acknowledged move is kept, none twice.
async fn sigkill_of_each_node_in_turn_keeps_every_move(mut cl: Cluster) {
    let mut game = Match::start(&cl, [1, 2], [1, 2, 3]).await;
    for k in 1..=3 {
        game.play(&cl, WAIT).await;
        let id = game.send_next().await;
        cl.kill(k).await;
        game.leave(&cl, k).await;
        game.settle(&cl, id, RESUME_WITHIN, true).await;
        cl.start_node(k).await;
        game.play(&cl, WAIT).await;
    }
    assert_eq!(game.check(&cl, true).await, "ongoing");
    assert_eq!(game.played.len(), 9);
}

/// (c) A rolling restart: each node in turn gets SIGTERM with a move in
/// flight; it exits within 10 s, closing its sockets with 1001; the
/// sockets resume on another node; no game ends.
async fn a_rolling_sigterm_restart_ends_no_game(mut cl: Cluster) {
    let mut game = Match::start(&cl, [1, 2], [1, 2, 3]).await;
    for k in 1..=3 {
        game.play(&cl, WAIT).await;
        let id = game.send_next().await;
        let took = cl.terminate(k).await;
        assert!(took < STOP_WITHIN, "node{k} took {took:?} to stop");
        for w in &mut game.sockets {
            if w.node == k {
                let who = w.who;
                // Reading on until the server's close frame.
                let closed = w.until(WAIT, |w| w.ws.is_none()).await;
                assert!(w.ws.is_none(), "{who}: not closed: {closed:?}");
                assert_eq!(w.close_code, Some(GOING_AWAY), "{who}: close code");
            }
        }
        game.leave(&cl, k).await;
        game.settle(&cl, id, RESUME_WITHIN, true).await;
        cl.start_node(k).await;
        game.play(&cl, WAIT).await;
    }
    assert_eq!(game.check(&cl, true).await, "ongoing");
    assert_eq!(game.played.len(), 9);
}

/// (d) Redis restarted mid-game: play resumes within 10 s and no
/// acknowledged move is lost (a socket that missed an event while Redis
/// was down may resync).
async fn a_redis_restart_loses_no_move(mut cl: Cluster) {
    let mut game = Match::start(&cl, [1, 2], [1, 2, 3]).await;
    for _ in 0..3 {
        game.play(&cl, WAIT).await;
    }
    cl.restart_redis();
    let t0 = Instant::now();
    game.play_through(&cl, RESUME_WITHIN).await;
    let resumed = t0.elapsed();
    assert!(resumed <= RESUME_WITHIN, "play resumed after {resumed:?}");
    for _ in 0..3 {
        game.play(&cl, WAIT).await;
    }
    assert_eq!(game.check(&cl, false).await, "ongoing");
    assert_eq!(game.played.len(), 7);
}

/// (e) A table opened on node 1 appears on a lobby socket of node 2.
async fn the_lobby_spans_nodes(cl: Cluster) {
    let mut lobby = cl
        .client(2)
        .socket("/api/lobby/socket")
        .await
        .expect("lobby socket");
    plyyard_testkit::recv_until(&mut lobby, WAIT, |m| m["t"] == "lobby")
        .await
        .unwrap();
    let host = cl.client(1);
    sign_up(&host, "lobby").await;
    let code = open_table(&host).await;
    let added = plyyard_testkit::recv_until(&mut lobby, WAIT, |m| {
        m["t"] == "add" && m["table"]["code"] == code.as_str()
    })
    .await;
    assert!(
        added.is_ok(),
        "node2's lobby never showed node1's table {code}: {added:?}"
    );
}

/// The nodes' flags in [`signups_are_counted_across_nodes`]: 3 sign-ups
/// per address and hour.
const SIGNUP_QUOTA: [&str; 2] = ["--limit-signups-per-hour", "3"];

/// (e) Sign-ups from one address are counted over the nodes together:
/// with a quota of 3 an hour, two on node 1 and one on node 2 use it up.
async fn signups_are_counted_across_nodes(cl: Cluster) {
    // An address of its own: other tests sign up from 127.0.0.1.
    let from: std::net::IpAddr = "127.0.0.23".parse().unwrap();
    let on = |k: usize| Client::connecting_from(cl.addr(k), Some(from));
    let plan = [1, 1, 2, 2, 1];
    let mut statuses = Vec::new();
    for k in plan {
        let name = format!("quota{}", suffix());
        let r = on(k)
            .post_json(
                "/api/account/signup",
                &json!({"username": name, "password": support::PASSWORD}),
            )
            .await
            .unwrap();
        statuses.push((k, r.status));
    }
    let quota: usize = SIGNUP_QUOTA[1].parse().unwrap();
    let expected: Vec<(usize, u16)> = plan
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, if i < quota { 201 } else { 429 }))
        .collect();
    assert_eq!(statuses, expected, "(node, status) of each sign-up");
}

/// (f) A table game whose every node died (SIGKILL, White has moved, Black
/// has not) is aborted by a fresh node nobody asks about it, once Black's
/// 30 s for a first move are over: the row in PostgreSQL says so.
async fn a_game_orphaned_by_every_node_is_ended(mut cl: Cluster) {
    let mut game = Match::start(&cl, [1, 2], [1, 2, 3]).await;
    game.play(&cl, WAIT).await;
    for k in 1..=3 {
        cl.kill(k).await;
    }
    let t0 = Instant::now();
    cl.start_node(4).await;
    // Black's first-move deadline (30 s), the sweeper's round, a margin.
    let limit = Duration::from_secs(90);
    let outcome = loop {
        let row = cl.stored_outcome(&game.id).await;
        if row.0 == "ended" || t0.elapsed() > limit {
            break row;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert_eq!(
        outcome,
        (
            "ended".to_owned(),
            "*".to_owned(),
            Some("aborted".to_owned())
        ),
        "the orphaned game after {:?}",
        t0.elapsed()
    );
    let (_, moves, status) = fetch(&cl.client(4), &game.id).await.expect("the game");
    assert_eq!((moves, status.as_str()), (game.played.clone(), "ended"));
}

// --- tournaments ---------------------------------------------------------

/// One player of an Arena: their client (on a node), token and events.
struct Entrant {
    name: String,
    token: String,
    client: Client,
    events: support::Stream,
}

impl Entrant {
    async fn new(cl: &Cluster, k: usize, prefix: &str) -> Entrant {
        let client = cl.client(k);
        let name = format!("{prefix}{}", suffix());
        support::sign_up(&client, &name).await;
        let token = support::token(&client, &["board:play", "tournament:write"]).await;
        let events = support::Stream::open_at(&client, &token, "/api/stream/event").await;
        Entrant {
            name: name.to_lowercase(),
            token,
            client,
            events,
        }
    }

    async fn post(&self, path: &str, form: Option<&str>) -> Value {
        let body = form.map(|f| ("application/x-www-form-urlencoded", f));
        let r = self
            .client
            .with_token(&self.token, reqwest::Method::POST, path, body)
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        r.json().unwrap()
    }

    /// The next game started for this player other than `not`: (id, colour).
    async fn next_game(&mut self, not: Option<&str>) -> (String, String) {
        loop {
            let ev = self.events.event().await;
            if ev["type"] == "gameStart" && ev["game"]["gameId"].as_str() != not {
                let id = ev["game"]["gameId"].as_str().unwrap().to_owned();
                return (id, ev["game"]["color"].as_str().unwrap().to_owned());
            }
        }
    }
}

/// Plays `moves` in game `id` through the Board API, each by the side to
/// move, retrying while the game moves to another node (its owner died).
async fn play_board(white: &Entrant, black: &Entrant, id: &str, moves: &[&str]) {
    for (i, uci) in moves.iter().enumerate() {
        let p = if i % 2 == 0 { white } else { black };
        let path = format!("/api/board/game/{id}/move/{uci}");
        let t0 = Instant::now();
        loop {
            let r = p
                .client
                .with_token(&p.token, reqwest::Method::POST, &path, None)
                .await
                .unwrap();
            if r.status == 200 {
                break;
            }
            assert!(t0.elapsed() < WAIT, "{path}: {} {}", r.status, r.text());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// An Arena over three nodes whose director dies twice: at the Arena's
/// start (another node makes the first games within [`RESUME_WITHIN`]) and
/// mid-Arena, with the games it started (the games ended afterwards are
/// scored and their players paired again by the last node, within
/// [`RESUME_WITHIN`] of when their wave is due); nobody is ever in two of
/// its games at once.
async fn an_arena_survives_its_directors_death(mut cl: Cluster) {
    let first = cl.director().await;
    let others: Vec<usize> = cl.live().into_iter().filter(|&k| k != first).collect();
    let mut players = Vec::new();
    for i in 0..4 {
        players.push(Entrant::new(&cl, others[i % 2], "arena").await);
    }
    // 3+2: the wave after a game is due 32 s after its end (lichess's
    // wait for an estimated 260 s game).
    let starts = plyyard_store::now_ms() + 3_000;
    let arena = players[0]
        .post(
            "/api/tournament",
            Some(&format!(
                "name=Failover&clockTime=3&clockIncrement=2&minutes=60&startDate={starts}&rated=false"
            )),
        )
        .await;
    let tid = arena["id"].as_str().unwrap().to_owned();
    for p in &players {
        p.post(&format!("/api/tournament/{tid}/join"), None).await;
    }

    // The director dies before the start: another node makes the games.
    cl.kill(first).await;
    let killed = Instant::now();
    let mut games: HashMap<String, Vec<(usize, String)>> = HashMap::new();
    for (i, p) in players.iter_mut().enumerate() {
        let (id, colour) = p.next_game(None).await;
        games.entry(id).or_default().push((i, colour));
    }
    // The start is less than 3 s after the kill: the games come within
    // the bound of it.
    let waited = killed.elapsed();
    assert!(
        waited <= RESUME_WITHIN,
        "first games {waited:?} after the kill"
    );
    assert_eq!(games.len(), 2, "{games:?}");
    let second = cl.director().await;
    assert_ne!(second, first);

    // Mid-Arena the new director dies with the games it runs; both are
    // played to mate through the last node.
    cl.kill(second).await;
    let last = cl.live()[0];
    // Streams on the dead node ended: everyone streams from the last one
    // (a new stream lists the games still being played).
    for p in &mut players {
        p.client.set_addr(cl.addr(last));
        p.events = support::Stream::open_at(&p.client, &p.token, "/api/stream/event").await;
    }
    let mut last_game = HashMap::new();
    for (gid, seats) in &games {
        let (w, b) = if seats[0].1 == "white" {
            (seats[0].0, seats[1].0)
        } else {
            (seats[1].0, seats[0].0)
        };
        play_board(
            &players[w],
            &players[b],
            gid,
            &["f2f3", "e7e5", "g2g4", "d8h4"],
        )
        .await;
        last_game.insert(w, gid.clone());
        last_game.insert(b, gid.clone());
    }
    let ended = Instant::now();
    // Everyone is paired again by the last node, never with the same
    // opponent: their wave is due 32 s after their games ended (a wait
    // counted from the game's end, though it is scored only once the
    // director's lease has moved).
    let mut again: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in players.iter_mut().enumerate() {
        let (id, _) = p.next_game(Some(&last_game[&i])).await;
        again.entry(id).or_default().push(i);
    }
    let due = Duration::from_secs(32);
    assert!(
        ended.elapsed() <= due + RESUME_WITHIN,
        "paired again after {:?}",
        ended.elapsed()
    );
    assert_eq!(again.len(), 2, "{again:?}");
    for seats in again.values() {
        assert_ne!(
            last_game[&seats[0]], last_game[&seats[1]],
            "a rematch: {again:?}"
        );
    }
    assert_eq!(cl.director().await, last);

    // Nobody was ever in two games of the Arena at once.
    let pairings = cl.pairings(&tid).await;
    assert_eq!(pairings.len(), 4, "{pairings:?}");
    for p in &players {
        let mut spans: Vec<(i64, i64)> = pairings
            .iter()
            .filter(|(w, b, ..)| *w == p.name || *b == p.name)
            .map(|(_, _, from, to)| (*from, to.unwrap_or(i64::MAX)))
            .collect();
        spans.sort_unstable();
        for pair in spans.windows(2) {
            assert!(
                pair[0].1 <= pair[1].0,
                "{} in two games at once: {spans:?}",
                p.name
            );
        }
    }
    for gid in games.keys() {
        let (status, result, _) = cl.stored_outcome(gid).await;
        assert_eq!(
            (status.as_str(), result.as_str()),
            ("ended", "0-1"),
            "the mate stored"
        );
    }
}

#[test]
fn the_harness_runs_three_nodes_on_postgres() {
    on_cluster(&[], the_harness_runs_three_nodes);
}

#[test]
fn a_game_across_three_nodes_on_postgres() {
    on_cluster(&[], a_game_across_three_nodes);
}

#[test]
fn sigkill_of_each_node_in_turn_keeps_every_move_on_postgres() {
    on_cluster(&[], sigkill_of_each_node_in_turn_keeps_every_move);
}

#[test]
fn a_rolling_sigterm_restart_ends_no_game_on_postgres() {
    on_cluster(&[], a_rolling_sigterm_restart_ends_no_game);
}

#[test]
fn a_redis_restart_loses_no_move_on_postgres() {
    on_cluster(&[], a_redis_restart_loses_no_move);
}

#[test]
fn the_lobby_spans_nodes_on_postgres() {
    on_cluster(&[], the_lobby_spans_nodes);
}

#[test]
fn signups_are_counted_across_nodes_on_postgres() {
    on_cluster(&SIGNUP_QUOTA, signups_are_counted_across_nodes);
}

#[test]
fn a_game_orphaned_by_every_node_is_ended_on_postgres() {
    on_cluster(&[], a_game_orphaned_by_every_node_is_ended);
}

#[test]
fn an_arena_survives_its_directors_death_on_postgres() {
    on_cluster(&[], an_arena_survives_its_directors_death);
}
