//! Live games: one tokio task (actor) per game in memory, owning its
//! [`game::Game`], and the [`Hub`] that finds, loads and unloads them.
//!
//! Every change goes through the actor's mailbox, so a game sees one command
//! at a time. A change is tried on a copy of the game, committed to the
//! database, and only then made current, numbered (`v`), kept in a short
//! replay buffer and broadcast to the game's sockets; the caller's reply
//! (the socket's `ack`) comes last. A failed commit leaves the game as it was.
//!
//! Actors are loaded on demand from the database and stop after a spell with
//! no sockets, no commands and no search running.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use game::shakmaty::{Color, File, Move, Square};
use game::{Game, GameResult, MoveError, PlayedMove, Reason, RuleSet, Variant};
use rand::Rng;
use tokio::sync::{OnceCell, broadcast, mpsc, oneshot};

use crate::Shared;
use crate::engine_pool::ThinkRequest;
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::protocol::{
    ColorChoice, EventKind, GameState, MoveJson, NewComputerGame, SeatJson, SeatKind,
};
use crate::store::{GameKind, GameRow, GameStatus, GameSummary, MoveRow, StoreError, now_ms};

/// Events kept per game for clients that reconnect with a recent version.
const REPLAY_EVENTS: usize = 64;
/// Commands waiting in a game's mailbox before senders wait.
const MAILBOX: usize = 64;
/// Capacity of a game's broadcast channel (a slower socket gets a `full`).
const BROADCAST: usize = 64;
/// Length of generated game ids.
const GAME_ID_LEN: usize = 8;
/// Pause before the computer retries after a failed commit of its move.
const RETRY_DELAY: Duration = Duration::from_secs(1);

/// One change of a game, as broadcast to its sockets.
#[derive(Debug)]
pub struct Event {
    /// Version after the change.
    pub v: u64,
    /// What changed.
    pub kind: EventKind,
    /// The move, for move events.
    pub mv: Option<MoveJson>,
    /// The state after the change (with `you` unset).
    pub game: Arc<GameState>,
}

/// The players of a game, by colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    /// White's player id (`None`: the computer).
    pub white: Option<String>,
    /// Black's player id (`None`: the computer).
    pub black: Option<String>,
}

impl Seats {
    /// The colour `player` plays, if any.
    pub fn color_of(&self, player: &PlayerId) -> Option<Color> {
        if self.white.as_deref() == Some(player.0.as_str()) {
            Some(Color::White)
        } else if self.black.as_deref() == Some(player.0.as_str()) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// What a socket needs to catch up when it (re)subscribes.
#[derive(Debug)]
pub enum CatchUp {
    /// The client already has the latest version.
    UpToDate,
    /// The events after the client's version, in order.
    Events(Vec<Arc<Event>>),
    /// The whole state (the client's version is unknown, too old or ahead).
    Full(Arc<GameState>),
}

/// A socket's subscription to a game.
#[derive(Debug)]
pub struct Subscription {
    /// What the client missed.
    pub catch_up: CatchUp,
    /// Events from now on.
    pub events: broadcast::Receiver<Arc<Event>>,
    /// Who plays the game.
    pub seats: Seats,
}

/// A command to a game actor.
#[derive(Debug)]
pub enum Cmd {
    /// The state as `viewer` sees it.
    State {
        /// The viewer.
        viewer: Option<PlayerId>,
        /// Answer.
        reply: oneshot::Sender<GameState>,
    },
    /// Subscribe to events, catching up from version `since`.
    Subscribe {
        /// The client's version, if it has one.
        since: Option<u64>,
        /// Answer.
        reply: oneshot::Sender<Subscription>,
    },
    /// `player` plays `uci`.
    Move {
        /// Who asks.
        player: PlayerId,
        /// The move.
        uci: String,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` takes back their last move and the computer's reply.
    Undo {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` resigns.
    Resign {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` claims a draw, optionally announcing a move.
    Claim {
        /// Who asks.
        player: PlayerId,
        /// What is claimed.
        reason: Reason,
        /// The move announced with the claim.
        uci: Option<String>,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// The game as PGN.
    Pgn {
        /// Answer.
        reply: oneshot::Sender<String>,
    },
    /// The seats of player `from` now belong to player `to` (an anonymous
    /// player logged in: their games moved to the account).
    Reseat {
        /// The former player id.
        from: PlayerId,
        /// The new player id.
        to: PlayerId,
        /// Done.
        reply: oneshot::Sender<()>,
    },
    /// A search finished (internal).
    EngineDone {
        /// Which search.
        token: u64,
        /// Its move, `None` if cancelled or failed.
        best: Option<Move>,
    },
    /// Start the computer's search again (internal, after a failed commit).
    Retry,
}

/// The address of a live game actor.
#[derive(Debug, Clone)]
pub struct Handle {
    tx: mpsc::Sender<Cmd>,
    generation: u64,
}

/// The registry of live games.
#[derive(Debug, Default)]
pub struct Hub {
    live: Mutex<HashMap<String, Arc<OnceCell<Handle>>>>,
    generation: AtomicU64,
}

impl Hub {
    fn slot(&self, id: &str) -> Arc<OnceCell<Handle>> {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(live.entry(id.to_owned()).or_default())
    }

    fn forget(&self, id: &str, generation: Option<u64>) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = live.get(id) {
            let ours = match (slot.get(), generation) {
                (Some(h), Some(g)) => h.generation == g,
                (None, None) => true,
                _ => false,
            };
            if ours {
                live.remove(id);
            }
        }
    }

    /// The handles of the games loaded now.
    fn handles(&self) -> Vec<Handle> {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.values()
            .filter_map(|slot| slot.get().cloned())
            .collect()
    }

    /// Number of games loaded.
    pub fn len(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no game is loaded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The handle of game `id`, loading it from the database if needed.
///
/// # Errors
/// `not_found` if there is no such game; `internal` if it cannot be loaded.
pub async fn handle(shared: &Arc<Shared>, id: &str) -> Result<Handle, ApiError> {
    if !valid_game_id(id) {
        return Err(ApiError::no_game(id));
    }
    let slot = shared.hub.slot(id);
    let result = slot
        .get_or_try_init(|| async {
            let Some((row, moves)) = shared.store.load_game(id).await? else {
                return Err(ApiError::no_game(id));
            };
            shared.metrics.games_loaded.fetch_add(1, Ordering::Relaxed);
            let game =
                rebuild(&row, &moves).map_err(|e| ApiError::internal(format!("game {id}: {e}")))?;
            let seats = seat_names(shared, &row).await?;
            Ok(spawn_actor(shared, row, game, seats))
        })
        .await
        .cloned();
    if result.is_err() {
        shared.hub.forget(id, None);
    }
    result
}

/// Sends a command built by `make` to game `id` and waits for the answer,
/// reloading the game if its actor stopped in between.
///
/// # Errors
/// `not_found`, or `internal` if the actor failed.
pub async fn request<T>(
    shared: &Arc<Shared>,
    id: &str,
    make: impl Fn(oneshot::Sender<T>) -> Cmd,
) -> Result<T, ApiError> {
    for _ in 0..3 {
        let h = handle(shared, id).await?;
        let (tx, rx) = oneshot::channel();
        if h.tx.send(make(tx)).await.is_ok()
            && let Ok(answer) = rx.await
        {
            return Ok(answer);
        }
        // The actor stopped (unloaded while the command was on its way):
        // the command was not applied; the game reloads from the database.
        shared.hub.forget(id, Some(h.generation));
    }
    Err(ApiError::internal(format!(
        "game {id}: actor keeps stopping"
    )))
}

/// Creates a game against the computer for `player` and returns its state.
///
/// # Errors
/// `bad_request` for an impossible set-up; `internal` for storage failures.
pub async fn create_computer_game(
    shared: &Arc<Shared>,
    player: &PlayerId,
    req: NewComputerGame,
) -> Result<GameState, ApiError> {
    let game = match (req.variant, req.position, req.fen.as_deref()) {
        (_, Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give either a position number or a FEN, not both",
            ));
        }
        (Variant::Standard, Some(_), None) => {
            return Err(ApiError::bad_request(
                "a position number is only for chess960",
            ));
        }
        (variant, None, Some(fen)) => {
            let g = Game::from_fen_with(fen, req.rules, variant == Variant::Chess960)
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            if let Some(o) = g.outcome() {
                return Err(ApiError::bad_request(format!(
                    "the game would be over from the start ({})",
                    o.reason
                )));
            }
            g
        }
        (Variant::Standard, None, None) => Game::new(req.rules),
        (Variant::Chess960, Some(n), None) => {
            Game::chess960(n, req.rules).map_err(|e| ApiError::bad_request(e.to_string()))?
        }
        (Variant::Chess960, None, None) => Game::random_chess960(req.rules, &mut rand::rng()).1,
    };
    let human = match req.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(rand::rng().random_bool(0.5)),
    };
    let now = now_ms();
    let seat = Some(player.0.clone());
    let row = GameRow {
        id: new_game_id(),
        kind: GameKind::Computer,
        white_player: if human == Color::White {
            seat.clone()
        } else {
            None
        },
        black_player: if human == Color::Black { seat } else { None },
        level: Some(req.level),
        rules: game.rules(),
        variant: game.variant(),
        position: game.chess960_number(),
        initial_fen: game.initial_fen(),
        summary: summary_of(&game, 0, now),
        created_at: now,
    };
    shared.store.touch_player(&player.0, now).await?;
    shared.store.insert_game(&row).await?;
    shared.metrics.games_created.fetch_add(1, Ordering::Relaxed);
    tracing::info!(
        game = %row.id,
        level = row.level.map_or("-", engine::Level::as_str),
        variant = %row.variant,
        human = color_name(human),
        "game created"
    );
    let id = row.id.clone();
    let seats = seat_names(shared, &row).await?;
    let handle = spawn_actor(shared, row, game, seats);
    // A fresh id cannot be in the hub yet; set it before anyone asks.
    let _ = shared.hub.slot(&id).set(handle);
    let viewer = Some(player.clone());
    request(shared, &id, |reply| Cmd::State {
        viewer: viewer.clone(),
        reply,
    })
    .await
}

/// Tells every loaded game that `player`'s seats now show who `player` is
/// (after an account was deleted, say); games not loaded read it when they
/// load.
pub async fn refresh_seats(shared: &Shared, player: &PlayerId) {
    for h in shared.hub.handles() {
        let (reply, done) = oneshot::channel();
        let cmd = Cmd::Reseat {
            from: player.clone(),
            to: player.clone(),
            reply,
        };
        if h.tx.send(cmd).await.is_ok() {
            let _ = done.await;
        }
    }
}

/// How a seat is shown: the account's name, the computer's level, or an
/// anonymous or deleted player.
///
/// # Errors
/// A database failure.
pub async fn seat_name(
    shared: &Shared,
    player: Option<&str>,
    level: Option<engine::Level>,
) -> Result<SeatJson, StoreError> {
    let Some(player) = player else {
        return Ok(SeatJson::computer(level));
    };
    Ok(SeatJson::from(shared.store.seat_info(player).await?))
}

async fn seat_names(shared: &Shared, row: &GameRow) -> Result<[SeatJson; 2], StoreError> {
    Ok([
        seat_name(shared, row.white_player.as_deref(), row.level).await?,
        seat_name(shared, row.black_player.as_deref(), row.level).await?,
    ])
}

/// A new random game id (base62).
fn new_game_id() -> String {
    rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(GAME_ID_LEN)
        .map(char::from)
        .collect()
}

fn valid_game_id(id: &str) -> bool {
    id.len() == GAME_ID_LEN && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Replays a stored game.
fn rebuild(row: &GameRow, moves: &[MoveRow]) -> Result<Game, String> {
    let rules: RuleSet = row.rules;
    let mut game = match (row.variant, row.position) {
        (Variant::Chess960, Some(n)) => Game::chess960(n, rules).map_err(|e| e.to_string())?,
        (Variant::Chess960, None) => {
            Game::from_fen_with(&row.initial_fen, rules, true).map_err(|e| e.to_string())?
        }
        (Variant::Standard, _) => {
            let g = Game::new(rules);
            if g.initial_fen() == row.initial_fen {
                g
            } else {
                Game::from_fen(&row.initial_fen, rules).map_err(|e| e.to_string())?
            }
        }
    };
    for (i, m) in moves.iter().enumerate() {
        if m.ply as usize != i + 1 {
            return Err(format!("moves are not contiguous at ply {}", m.ply));
        }
        game.play_uci(&m.uci)
            .map_err(|e| format!("stored move {}: {e}", m.ply))?;
    }
    if row.summary.status == GameStatus::Ended && game.outcome().is_none() {
        let reason = row
            .summary
            .reason
            .ok_or_else(|| "an ended game without a reason".to_owned())?;
        let loser = match row.summary.result.winner() {
            Some(winner) => !winner,
            None => {
                return Err(format!(
                    "result {} does not fit {reason}",
                    row.summary.result
                ));
            }
        };
        match reason {
            Reason::Resignation => game.resign(loser),
            Reason::Timeout => game.flag(loser),
            Reason::Abandonment => game.abandon(loser),
            other => return Err(format!("cannot restore an ending by {other}")),
        }
        .map_err(|e| e.to_string())?;
    }
    if game.ply() != row.summary.plies as usize {
        return Err(format!(
            "{} moves stored for {} plies",
            game.ply(),
            row.summary.plies
        ));
    }
    Ok(game)
}

fn summary_of(game: &Game, version: u64, now: i64) -> GameSummary {
    let outcome = game.outcome();
    GameSummary {
        status: if outcome.is_some() {
            GameStatus::Ended
        } else {
            GameStatus::Ongoing
        },
        result: outcome.map_or(GameResult::Aborted, |o| o.result),
        reason: outcome.map(|o| o.reason),
        plies: u32::try_from(game.ply()).unwrap_or(u32::MAX),
        version,
        updated_at: now,
    }
}

fn move_row(ply: usize, p: &PlayedMove) -> MoveRow {
    MoveRow {
        ply: u32::try_from(ply).unwrap_or(u32::MAX),
        uci: p.uci.clone(),
        san: p.san.clone(),
        clock_ms: p.clock_ms.and_then(|c| i64::try_from(c).ok()),
        draw_offer: p.draw_offer,
    }
}

/// Name of a colour on the wire.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// RFC 3339 text of Unix milliseconds.
pub fn rfc3339(ms: i64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| {
            t.replace_nanosecond(0)
                .ok()?
                .format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into())
}

/// Legal moves as from-square → to-squares, with castling given both as
/// king-to-rook and (in standard games) king-to-target.
fn dests(game: &Game) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let standard = game.variant() == Variant::Standard;
    for m in game.legal_moves() {
        let mut add = |from: Square, to: Square| {
            map.entry(from.to_string())
                .or_default()
                .insert(to.to_string());
        };
        match m {
            Move::Castle { king, rook } => {
                add(king, rook);
                if standard {
                    let file = if rook.file() > king.file() {
                        File::G
                    } else {
                        File::C
                    };
                    add(king, Square::from_coords(file, king.rank()));
                }
            }
            other => {
                if let Some(from) = other.from() {
                    add(from, other.to());
                }
            }
        }
    }
    map.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

fn move_error(e: MoveError) -> ApiError {
    match e {
        MoveError::GameOver { .. } => ApiError::new(ErrorCode::GameOver, "the game is over"),
        other => ApiError::new(ErrorCode::IllegalMove, other.to_string()),
    }
}

struct Thinking {
    token: u64,
    stop: Arc<AtomicBool>,
}

struct Actor {
    shared: Arc<Shared>,
    row: GameRow,
    /// Who sits on each seat (White, Black), for display.
    names: [SeatJson; 2],
    /// The database holds a newer version than this actor (a write found
    /// another writer's change): the actor stops and the game reloads.
    stale: bool,
    game: Game,
    version: u64,
    recent: VecDeque<Arc<Event>>,
    events: broadcast::Sender<Arc<Event>>,
    mailbox: mpsc::Sender<Cmd>,
    thinking: Option<Thinking>,
    next_token: u64,
    generation: u64,
    last_active: Instant,
}

fn spawn_actor(shared: &Arc<Shared>, row: GameRow, game: Game, names: [SeatJson; 2]) -> Handle {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let generation = shared.hub.generation.fetch_add(1, Ordering::Relaxed);
    let (events, _) = broadcast::channel(BROADCAST);
    let actor = Actor {
        shared: Arc::clone(shared),
        version: row.summary.version,
        row,
        names,
        stale: false,
        game,
        recent: VecDeque::new(),
        events,
        mailbox: tx.clone(),
        thinking: None,
        next_token: 0,
        generation,
        last_active: Instant::now(),
    };
    tokio::spawn(actor.run(rx));
    Handle { tx, generation }
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let metrics = Arc::clone(&self.shared.metrics);
        metrics.games_live.fetch_add(1, Ordering::Relaxed);
        self.think_if_needed();
        let idle_after = self.shared.tuning.idle_unload;
        let check = (idle_after / 2).clamp(Duration::from_millis(50), Duration::from_secs(30));
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        self.last_active = Instant::now();
                        self.handle(cmd).await;
                        if self.stale {
                            self.shared.hub.forget(&self.row.id, Some(self.generation));
                            break;
                        }
                    }
                    None => break,
                },
                () = tokio::time::sleep(check) => {
                    if self.idle(idle_after) && self.unload(&rx) {
                        break;
                    }
                }
            }
        }
        metrics.games_live.fetch_sub(1, Ordering::Relaxed);
        tracing::debug!(game = %self.row.id, "game unloaded");
    }

    fn idle(&self, idle_after: Duration) -> bool {
        self.thinking.is_none()
            && self.events.receiver_count() == 0
            && self.last_active.elapsed() >= idle_after
    }

    /// Leaves the hub if no command is waiting; senders that still hold this
    /// actor's handle then find it closed and load the game anew.
    fn unload(&self, rx: &mpsc::Receiver<Cmd>) -> bool {
        let mut live = self
            .shared
            .hub
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !rx.is_empty() {
            return false;
        }
        if let Some(slot) = live.get(&self.row.id)
            && slot.get().is_some_and(|h| h.generation == self.generation)
        {
            live.remove(&self.row.id);
        }
        true
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::State { viewer, reply } => {
                let mut s = self.state();
                s.you = viewer
                    .and_then(|p| self.seats().color_of(&p))
                    .map(|c| color_name(c).to_owned());
                let _ = reply.send(s);
            }
            Cmd::Subscribe { since, reply } => {
                let _ = reply.send(self.subscribe(since));
            }
            Cmd::Move { player, uci, reply } => {
                let r = self.player_move(&player, &uci).await;
                let _ = reply.send(r);
            }
            Cmd::Undo { player, reply } => {
                let r = self.undo(&player).await;
                let _ = reply.send(r);
            }
            Cmd::Resign { player, reply } => {
                let r = self.resign(&player).await;
                let _ = reply.send(r);
            }
            Cmd::Claim {
                player,
                reason,
                uci,
                reply,
            } => {
                let r = self.claim(&player, reason, uci.as_deref()).await;
                let _ = reply.send(r);
            }
            Cmd::Pgn { reply } => {
                let _ = reply.send(self.pgn());
            }
            Cmd::Reseat { from, to, reply } => {
                self.reseat(&from, &to).await;
                let _ = reply.send(());
            }
            Cmd::EngineDone { token, best } => self.engine_done(token, best).await,
            Cmd::Retry => self.think_if_needed(),
        }
    }

    fn seats(&self) -> Seats {
        Seats {
            white: self.row.white_player.clone(),
            black: self.row.black_player.clone(),
        }
    }

    /// The colour the computer plays, for computer games.
    fn computer(&self) -> Option<Color> {
        if self.row.kind != GameKind::Computer {
            return None;
        }
        match (&self.row.white_player, &self.row.black_player) {
            (None, Some(_)) => Some(Color::White),
            (Some(_), None) => Some(Color::Black),
            _ => None,
        }
    }

    fn state(&self) -> GameState {
        let g = &self.game;
        let outcome = g.outcome();
        GameState {
            id: self.row.id.clone(),
            v: self.version,
            kind: self.row.kind.as_str().into(),
            level: self.row.level.map(|l| l.as_str().to_owned()),
            white: self.names[0].clone(),
            black: self.names[1].clone(),
            you: None,
            rules: g.rules().as_str().into(),
            variant: g.variant().as_str().into(),
            position: g.chess960_number().or(self.row.position),
            initial_fen: g.initial_fen(),
            fen: g.fen(),
            turn: color_name(g.turn()).into(),
            ply: u32::try_from(g.ply()).unwrap_or(u32::MAX),
            check: g.is_check(),
            moves: g
                .history()
                .iter()
                .map(|p| MoveJson {
                    uci: p.uci.clone(),
                    san: p.san.clone(),
                })
                .collect(),
            last_move: g
                .last_move_squares()
                .map(|(a, b)| [a.to_string(), b.to_string()]),
            dests: dests(g),
            status: if outcome.is_some() {
                "ended"
            } else {
                "ongoing"
            }
            .into(),
            result: outcome.map_or("*", |o| o.result.as_str()).into(),
            reason: outcome.map(|o| o.reason.as_str().to_owned()),
            thinking: self.thinking.is_some(),
            claimable: g
                .claimable()
                .into_iter()
                .map(|r| r.as_str().to_owned())
                .collect(),
            created_at: rfc3339(self.row.created_at),
        }
    }

    fn subscribe(&self, since: Option<u64>) -> Subscription {
        let events = self.events.subscribe();
        let catch_up = match since {
            Some(v) if v == self.version => CatchUp::UpToDate,
            Some(v)
                if v < self.version
                    && self.recent.front().is_some_and(|first| first.v <= v + 1) =>
            {
                CatchUp::Events(self.recent.iter().filter(|e| e.v > v).cloned().collect())
            }
            _ => CatchUp::Full(Arc::new(self.state())),
        };
        Subscription {
            catch_up,
            events,
            seats: self.seats(),
        }
    }

    fn publish(&mut self, kind: EventKind, mv: Option<MoveJson>) -> u64 {
        let event = Arc::new(Event {
            v: self.version,
            kind,
            mv,
            game: Arc::new(self.state()),
        });
        if self.recent.len() == REPLAY_EVENTS {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::clone(&event));
        let _ = self.events.send(event);
        self.version
    }

    fn player_color(&self, player: &PlayerId) -> Result<Color, ApiError> {
        self.seats()
            .color_of(player)
            .ok_or_else(|| ApiError::forbidden("you are not a player of this game"))
    }

    async fn player_move(&mut self, player: &PlayerId, uci: &str) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if self.game.turn() != color || self.thinking.is_some() {
            return Err(ApiError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        let mut next = self.game.clone();
        next.play_uci(uci).map_err(move_error)?;
        self.commit_move(next).await
    }

    /// Commits the last move of `next`, makes it current and publishes it.
    async fn commit_move(&mut self, next: Game) -> Result<u64, ApiError> {
        let played = next
            .history()
            .last()
            .cloned()
            .ok_or_else(|| ApiError::internal("no move"))?;
        let summary = summary_of(&next, self.version + 1, now_ms());
        self.shared
            .store
            .append_moves(
                &self.row.id,
                self.version,
                &[move_row(next.ply(), &played)],
                &summary,
            )
            .await
            .map_err(|e| self.store_failed(e))?;
        self.game = next;
        self.version += 1;
        self.row.summary = summary;
        self.shared.metrics.record_move();
        self.log_end();
        self.think_if_needed();
        Ok(self.publish(
            EventKind::Move,
            Some(MoveJson {
                uci: played.uci,
                san: played.san,
            }),
        ))
    }

    async fn undo(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        let mut next = self.game.clone();
        loop {
            if next.take_back().is_none() {
                return Err(
                    if next.outcome().is_some_and(|o| !o.reason.is_from_board()) {
                        ApiError::new(ErrorCode::GameOver, "the game is over")
                    } else {
                        ApiError::new(ErrorCode::NothingToUndo, "you have no move to take back")
                    },
                );
            }
            if next.turn() == color {
                break;
            }
        }
        let summary = summary_of(&next, self.version + 1, now_ms());
        let keep = summary.plies;
        self.shared
            .store
            .truncate_moves(&self.row.id, self.version, keep, &summary)
            .await
            .map_err(|e| self.store_failed(e))?;
        self.cancel_thinking();
        self.game = next;
        self.version += 1;
        self.row.summary = summary;
        Ok(self.publish(EventKind::Undo, None))
    }

    async fn resign(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        let mut next = self.game.clone();
        next.resign(color)
            .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        let summary = summary_of(&next, self.version + 1, now_ms());
        self.shared
            .store
            .update_game(&self.row.id, self.version, &summary)
            .await
            .map_err(|e| self.store_failed(e))?;
        self.cancel_thinking();
        self.game = next;
        self.version += 1;
        self.row.summary = summary;
        self.log_end();
        Ok(self.publish(EventKind::End, None))
    }

    async fn claim(
        &mut self,
        player: &PlayerId,
        reason: Reason,
        uci: Option<&str>,
    ) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if self.game.turn() != color || self.thinking.is_some() {
            return Err(ApiError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        let mut next = self.game.clone();
        let claimed = match uci {
            Some(u) => {
                let mv = next.parse_uci(u).map_err(move_error)?;
                next.claim_draw_with_move(mv, reason)
            }
            None => next.claim_draw(reason),
        };
        claimed.map_err(|e| match e {
            game::ActionError::GameOver { .. } => {
                ApiError::new(ErrorCode::GameOver, "the game is over")
            }
            game::ActionError::Move(m) => move_error(m),
            other => ApiError::new(ErrorCode::CannotClaim, other.to_string()),
        })?;
        if uci.is_some() {
            return self.commit_move(next).await;
        }
        let summary = summary_of(&next, self.version + 1, now_ms());
        self.shared
            .store
            .update_game(&self.row.id, self.version, &summary)
            .await
            .map_err(|e| self.store_failed(e))?;
        self.game = next;
        self.version += 1;
        self.row.summary = summary;
        self.log_end();
        Ok(self.publish(EventKind::End, None))
    }

    /// Maps a failed write to the client's error; a version conflict marks
    /// the actor stale so the game reloads from the database.
    fn store_failed(&mut self, e: StoreError) -> ApiError {
        if let StoreError::Conflict { .. } = e {
            tracing::warn!(game = %self.row.id, "{e}; reloading the game");
            self.cancel_thinking();
            self.stale = true;
            return ApiError::new(ErrorCode::Conflict, "the game changed meanwhile; reload it");
        }
        ApiError::from(e)
    }

    async fn reseat(&mut self, from: &PlayerId, to: &PlayerId) {
        for (i, seat) in [&mut self.row.white_player, &mut self.row.black_player]
            .into_iter()
            .enumerate()
        {
            if seat.as_deref() == Some(from.0.as_str()) {
                *seat = Some(to.0.clone());
                match seat_name(&self.shared, Some(&to.0), None).await {
                    Ok(name) => self.names[i] = name,
                    Err(e) => tracing::warn!(game = %self.row.id, "seat name: {e}"),
                }
            }
        }
    }

    fn log_end(&self) {
        if let Some(o) = self.game.outcome() {
            tracing::info!(game = %self.row.id, result = o.result.as_str(), reason = %o.reason, plies = self.game.ply(), "game over");
        }
    }

    fn pgn(&self) -> String {
        let name = |seat: &SeatJson| match (seat.kind, &seat.name, &seat.level) {
            (SeatKind::User, Some(n), _) => n.clone(),
            (SeatKind::Computer, _, Some(l)) => format!("Ply Yard computer ({l})"),
            (SeatKind::Computer, _, None) => "Ply Yard computer".to_owned(),
            (SeatKind::Deleted, _, _) => "Deleted player".to_owned(),
            _ => "Anonymous".to_owned(),
        };
        let date = rfc3339(self.row.created_at);
        let tags = game::PgnTags {
            event: "Ply Yard game against the computer".into(),
            site: format!("Ply Yard, game {}", self.row.id),
            date: date.get(..10).unwrap_or("????-??-??").replace('-', "."),
            round: "-".into(),
            white: name(&self.names[0]),
            black: name(&self.names[1]),
            time_control: None,
            extra: Vec::new(),
        };
        game::to_pgn(&self.game, &tags)
    }

    fn think_if_needed(&mut self) {
        let Some(computer) = self.computer() else {
            return;
        };
        if self.thinking.is_some() || self.game.is_over() || self.game.turn() != computer {
            return;
        }
        let Some(level) = self.row.level else {
            tracing::error!(game = %self.row.id, "unknown computer level {:?}", self.row.level);
            return;
        };
        let token = self.next_token;
        self.next_token += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let mut hasher = DefaultHasher::new();
        (&self.row.id, self.game.ply()).hash(&mut hasher);
        let req = ThinkRequest {
            start: self.game.initial_position().clone(),
            moves: self.game.moves(),
            level,
            seed: hasher.finish(),
        };
        let pool = Arc::clone(&self.shared.engines);
        let mailbox = self.mailbox.clone();
        let flag = Arc::clone(&stop);
        tokio::spawn(async move {
            let best = pool.think(req, flag).await;
            let _ = mailbox.send(Cmd::EngineDone { token, best }).await;
        });
        self.thinking = Some(Thinking { token, stop });
    }

    fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    async fn engine_done(&mut self, token: u64, best: Option<Move>) {
        if self.thinking.as_ref().is_none_or(|t| t.token != token) {
            return;
        }
        self.thinking = None;
        if self.game.is_over() || Some(self.game.turn()) != self.computer() {
            return;
        }
        let legal = self.game.legal_moves();
        let mv = match best {
            Some(m) if legal.contains(&m) => m,
            other => {
                // The game must go on even if a search fails: play a legal
                // move rather than leave the player waiting forever.
                tracing::error!(game = %self.row.id, "engine gave {other:?}; playing a legal move");
                match legal.first() {
                    Some(m) => *m,
                    None => return,
                }
            }
        };
        let mut next = self.game.clone();
        if let Err(e) = next.play(mv) {
            tracing::error!(game = %self.row.id, "computer move refused: {e}");
            return;
        }
        if let Err(e) = self.commit_move(next).await {
            tracing::error!(game = %self.row.id, "cannot store the computer's move: {e}");
            let mailbox = self.mailbox.clone();
            tokio::spawn(async move {
                tokio::time::sleep(RETRY_DELAY).await;
                let _ = mailbox.send(Cmd::Retry).await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dests_list_castling_both_ways_in_standard_chess() {
        let mut g = Game::new(RuleSet::PlyYard);
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] {
            g.play_uci(m).unwrap();
        }
        let d = dests(&g);
        assert_eq!(d["e1"], ["e2", "f1", "g1", "h1"]);
        assert_eq!(d["f3"].len(), 5, "{:?}", d["f3"]);
        assert_eq!(d.values().map(Vec::len).sum::<usize>(), {
            // Castling adds one extra destination (h1) beside the 33 moves.
            g.legal_moves().len() + 1
        });
    }

    #[test]
    fn promotions_give_one_destination() {
        let g = Game::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", RuleSet::PlyYard).unwrap();
        assert_eq!(dests(&g)["a7"], ["a8"]);
    }

    #[test]
    fn stored_games_replay_including_resignations() {
        let mut g = Game::new(RuleSet::Fide);
        g.play_uci("e2e4").unwrap();
        g.resign(Color::Black).unwrap();
        let row = GameRow {
            id: "abcdefgh".into(),
            kind: GameKind::Computer,
            white_player: Some("p".into()),
            black_player: None,
            level: Some(engine::Level::Easy),
            rules: RuleSet::Fide,
            variant: Variant::Standard,
            position: None,
            initial_fen: g.initial_fen(),
            summary: summary_of(&g, 2, 0),
            created_at: 0,
        };
        let moves = vec![move_row(1, &g.history()[0])];
        let back = rebuild(&row, &moves).unwrap();
        assert_eq!(back.outcome(), g.outcome());
        assert_eq!(back.fen(), g.fen());
        let mut wrong = row.clone();
        wrong.summary.plies = 3;
        assert!(rebuild(&wrong, &moves).is_err());
    }

    #[test]
    fn ids_and_times_are_well_formed() {
        let id = new_game_id();
        assert!(valid_game_id(&id));
        assert!(!valid_game_id("../etc"));
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_764_421_200_123), "2025-11-29T13:00:00Z");
    }
}
