//! Running reviews and analyses on engines of their own, so that they never
//! hold up live games: [`Lane`] (a few engines shared fairly between
//! clients, see [`crate::fair`]), [`Reviews`] (the game reviews: one per
//! client at a time, at most [`REVIEW_JOBS`] under way, their positions
//! searched one by one in their clients' turns, so that every review under
//! way advances and a new client's review starts within one position per
//! client; progress watched by any number of viewers, the result stored
//! when done) and [`Analyses`] (the analysis board: the engine's best lines
//! of one position, deepening, within a time cap, one at a time per player,
//! served in turn by client, and cut short after [`ANALYSIS_SLICE`] when
//! another client waits; their rate limit is
//! the server's).
//!
//! The analysis itself is the review library's ([`Reviewer`]); the service
//! only runs it and keeps what it returns.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use plyyard_game::Game;
use plyyard_game::shakmaty::{Chess, Move};
use plyyard_review::PositionEval;
use serde::Serialize;
use tokio::sync::{mpsc, watch};

use crate::background;
pub use crate::fair::{Busy, Requester};
use crate::fair::{Fair, Shares};
use plyyard_store::reviews::{self as review_store, StoredReview};
use plyyard_store::{Store, now_ms};
use plyyard_wire::error::ApiError;

/// Reviews under way (running or waiting for their next position's turn)
/// at once; more are refused.
pub const REVIEW_JOBS: usize = 32;
/// Analysis-board searches running at once.
pub const ANALYSIS_WORKERS: usize = 1;
/// Analysis-board searches waiting for a worker in all (one per client);
/// more are refused.
pub const ANALYSIS_QUEUE: usize = 32;
/// The longest an analysis-board search may run.
pub const ANALYSIS_MAX_TIME: Duration = Duration::from_secs(10);
/// Analysis-board searches one client (each of its keys) may have waiting;
/// more are refused.
pub const ANALYSIS_CLIENT_QUEUE: usize = 4;
/// An analysis-board search that has run this long is cut short (it
/// answers with the lines found so far) when another client's search
/// waits for the engine.
pub const ANALYSIS_SLICE: Duration = Duration::from_secs(2);
/// Lines shown on the analysis board.
pub const ANALYSIS_LINES: usize = 3;
/// Hash table of each review or analysis engine, MiB.
const LANE_HASH_MB: usize = 16;

/// What the service needs of the review library.
pub trait Reviewer: Send + Sync + 'static {
    /// The format number of what [`Reviewer::assemble`] returns; stored
    /// with it.
    fn format(&self) -> u32;

    /// The engine's verdict on the position of `game` after `ply` moves
    /// (`0..=game.ply()`), searched on `engine`; `None` when `stop` was set.
    fn analyse_position(
        &self,
        engine: &mut plyyard_engine::Engine,
        game: &Game,
        ply: usize,
        stop: &AtomicBool,
    ) -> Option<PositionEval>;

    /// The language-neutral analysis of `game` from the verdicts on all its
    /// positions (`evals[i]` after `i` moves).
    ///
    /// # Errors
    /// A game or verdicts the library cannot assemble.
    fn assemble(&self, game: &Game, evals: &[PositionEval]) -> Result<serde_json::Value, String>;

    /// The stored `analysis` of `game` as the page shows it to a viewer
    /// reading `lang`: labels, lines and explanations in words.
    ///
    /// # Errors
    /// An analysis the library cannot read.
    fn render(
        &self,
        analysis: &serde_json::Value,
        game: &Game,
        lang: &str,
    ) -> Result<serde_json::Value, String>;
}

/// A few engines shared fairly between clients ([`Fair`]): at most
/// `workers` searches at once, the waiting ones served round-robin by
/// client, and a bounded wait.
pub struct Lane {
    fair: Arc<Fair<Requester>>,
    idle: Mutex<Vec<plyyard_engine::Engine>>,
}

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane")
            .field("fair", &self.fair)
            .finish_non_exhaustive()
    }
}

impl Lane {
    /// A lane sharing its engines by `shares`.
    pub fn new(shares: Shares) -> Lane {
        Lane {
            fair: Arc::new(Fair::new(shares)),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Runs `work` for the client of `who` (see [`Fair::acquire`]) on an
    /// engine of the lane, on a blocking thread, once a worker is free and
    /// the client's turn has come.
    ///
    /// # Errors
    /// [`Busy`] when the client (or the lane) has as much waiting as it
    /// may.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        who: &[Requester],
        work: impl FnOnce(&mut plyyard_engine::Engine) -> T + Send + 'static,
    ) -> Result<T, Busy> {
        self.run_at(who, false, work).await
    }

    /// [`Lane::run`], at low priority when `low` ([`Fair::acquire_low`]).
    async fn run_at<T: Send + 'static>(
        self: &Arc<Self>,
        who: &[Requester],
        low: bool,
        work: impl FnOnce(&mut plyyard_engine::Engine) -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let _permit = if low {
            self.fair.acquire_low(who).await?
        } else {
            self.fair.acquire(who).await?
        };
        let lane = Arc::clone(self);
        let job = move || {
            let mut engine = lane
                .lock_idle()
                .pop()
                .unwrap_or_else(|| plyyard_engine::Engine::new(LANE_HASH_MB));
            let out = work(&mut engine);
            lane.lock_idle().push(engine);
            out
        };
        if low {
            return background::run(job).await.ok_or_else(|| {
                tracing::error!("background engine work failed");
                Busy
            });
        }
        tokio::task::spawn_blocking(job).await.map_err(|e| {
            tracing::error!("engine work failed: {e}");
            Busy
        })
    }

    /// Requests waiting for a worker now.
    pub fn waiting(&self) -> usize {
        self.fair.waiting()
    }

    fn lock_idle(&self) -> MutexGuard<'_, Vec<plyyard_engine::Engine>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Where a review stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Progress {
    /// Waiting for a worker.
    Queued,
    /// Analysing: `done` of `total` positions.
    Running {
        /// Positions analysed.
        done: u32,
        /// Positions in all.
        total: u32,
    },
    /// Stored; read it with `GET /api/games/{id}/review`.
    Done,
    /// The analysis failed (the message is safe to show).
    Failed {
        /// What went wrong.
        message: String,
    },
}

impl Progress {
    /// Whether nothing more will happen.
    pub fn is_final(&self) -> bool {
        matches!(self, Progress::Done | Progress::Failed { .. })
    }
}

/// How a review asks for its searches: how many at once, and at low
/// priority or not.
#[derive(Debug, Clone, Copy)]
struct Pace {
    runners: usize,
    low: bool,
}

struct Job {
    progress: watch::Sender<Progress>,
    owners: Vec<Requester>,
}

#[derive(Default)]
struct Jobs {
    by_game: HashMap<String, Job>,
    by_owner: HashMap<Requester, String>,
}

/// The reviews under way.
pub struct Reviews {
    reviewer: Arc<dyn Reviewer>,
    lane: Arc<Lane>,
    workers: usize,
    jobs: Mutex<Jobs>,
    max_jobs: usize,
    rendered: crate::render_cache::RenderCache,
}

impl std::fmt::Debug for Reviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reviews")
            .field("jobs", &self.lock().by_game.len())
            .finish_non_exhaustive()
    }
}

impl Reviews {
    /// Reviews running `reviewer` on `workers` engines (at least one), at
    /// most [`REVIEW_JOBS`] under way. One review searches up to `workers`
    /// of its positions at once; each search waits for its client's turn,
    /// so reviews of different clients take turns position by position.
    pub fn new(reviewer: Arc<dyn Reviewer>, workers: usize) -> Reviews {
        let workers = workers.max(1);
        Reviews {
            reviewer,
            lane: Arc::new(Lane::new(Shares {
                workers,
                per_client_running: workers,
                per_client_waiting: workers,
                max_waiting: workers * REVIEW_JOBS,
            })),
            workers,
            jobs: Mutex::new(Jobs::default()),
            max_jobs: REVIEW_JOBS,
            rendered: crate::render_cache::RenderCache::default(),
        }
    }

    /// The stored reviews recently rendered, by game and language.
    pub fn rendered(&self) -> &crate::render_cache::RenderCache {
        &self.rendered
    }

    /// The review library.
    pub fn reviewer(&self) -> &Arc<dyn Reviewer> {
        &self.reviewer
    }

    fn lock(&self) -> MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The progress of game `id`'s review under way, if one is.
    pub fn watch(&self, id: &str) -> Option<watch::Receiver<Progress>> {
        self.lock().by_game.get(id).map(|j| j.progress.subscribe())
    }

    /// Starts reviewing `game` (stored as `id`) for `owners`, or joins the
    /// review of it under way.
    ///
    /// # Errors
    /// `rate_limited` when one of `owners` has another review under way or
    /// the queue is full.
    pub fn start(
        self: &Arc<Self>,
        store: &Store,
        id: &str,
        game: Game,
        owners: Vec<Requester>,
    ) -> Result<watch::Receiver<Progress>, ApiError> {
        let mut jobs = self.lock();
        if let Some(job) = jobs.by_game.get(id) {
            return Ok(job.progress.subscribe());
        }
        if let Some(other) = owners.iter().find_map(|o| jobs.by_owner.get(o)) {
            return Err(ApiError::rate_limited(
                format!("you already have a review under way (game {other}); one at a time"),
                10,
            ));
        }
        if jobs.by_game.len() >= self.max_jobs {
            return Err(ApiError::rate_limited(
                "too many reviews are under way; try again in a minute",
                60,
            ));
        }
        let (tx, rx) = watch::channel(Progress::Queued);
        let keys = owners.clone();
        for o in &owners {
            jobs.by_owner.insert(o.clone(), id.to_owned());
        }
        jobs.by_game.insert(
            id.to_owned(),
            Job {
                progress: tx.clone(),
                owners,
            },
        );
        drop(jobs);
        let job = (store.clone(), id.to_owned(), game, keys);
        let pace = Pace {
            runners: self.workers,
            low: false,
        };
        tokio::spawn(Arc::clone(self).run(job, tx, pace));
        Ok(rx)
    }

    /// Reviews `game` (stored as `id`) for the site itself, one position
    /// at a time at low priority (a search runs only when no client's
    /// search waits), and stores the review; or waits for the review of
    /// it under way. Returns how it ended.
    pub async fn review_in_background(
        self: &Arc<Self>,
        store: &Store,
        id: &str,
        game: Game,
    ) -> Progress {
        let mut rx = {
            let mut jobs = self.lock();
            match jobs.by_game.get(id) {
                Some(job) => job.progress.subscribe(),
                None => {
                    let (tx, rx) = watch::channel(Progress::Queued);
                    jobs.by_game.insert(
                        id.to_owned(),
                        Job {
                            progress: tx.clone(),
                            owners: Vec::new(),
                        },
                    );
                    let job = (
                        store.clone(),
                        id.to_owned(),
                        game,
                        vec![Requester::Background],
                    );
                    let pace = Pace {
                        runners: 1,
                        low: true,
                    };
                    tokio::spawn(Arc::clone(self).run(job, tx, pace));
                    rx
                }
            }
        };
        match rx.wait_for(Progress::is_final).await {
            Ok(last) => last.clone(),
            Err(_) => Progress::Failed {
                message: "the review was dropped".into(),
            },
        }
    }

    async fn run(
        self: Arc<Self>,
        (store, id, game, keys): (Store, String, Game, Vec<Requester>),
        tx: watch::Sender<Progress>,
        pace: Pace,
    ) {
        let outcome = self.analyse(game, &keys, &tx, pace).await;
        let last = match outcome {
            Ok(analysis) => {
                let stored = StoredReview {
                    format: self.reviewer.format(),
                    analysis,
                    created_at: now_ms(),
                };
                match review_store::save_review(&store, &id, &stored).await {
                    Ok(()) => Progress::Done,
                    Err(e) => {
                        tracing::error!(game = %id, "cannot store review: {e}");
                        Progress::Failed {
                            message: "the review could not be stored".into(),
                        }
                    }
                }
            }
            Err(message) => Progress::Failed { message },
        };
        let mut jobs = self.lock();
        if let Some(job) = jobs.by_game.remove(&id) {
            for o in job.owners {
                jobs.by_owner.remove(&o);
            }
        }
        drop(jobs);
        tx.send_replace(last);
    }

    /// Searches every position of `game` in the turns of the client of
    /// `keys`, up to `pace.runners` at once, reporting
    /// progress on `tx` (`running` with 0 done as soon as the first search
    /// starts), then assembles the analysis.
    async fn analyse(
        &self,
        game: Game,
        keys: &[Requester],
        tx: &watch::Sender<Progress>,
        pace: Pace,
    ) -> Result<String, String> {
        let game = Arc::new(game);
        let total = game.ply() + 1;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let stop = Arc::new(AtomicBool::new(false));
        let evals: Mutex<Vec<Option<PositionEval>>> = Mutex::new(vec![None; total]);
        let (next, done, stop, evals, game) = (&next, &done, &stop, &evals, &game);
        let runner = || async move {
            loop {
                let ply = next.fetch_add(1, Ordering::Relaxed);
                if ply >= total || stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let (reviewer, game, flag, sender) = (
                    Arc::clone(&self.reviewer),
                    Arc::clone(game),
                    Arc::clone(stop),
                    tx.clone(),
                );
                let found = self
                    .lane
                    .run_at(keys, pace.low, move |engine| {
                        sender.send_if_modified(|p| {
                            let first = *p == Progress::Queued;
                            if first {
                                *p = Progress::Running {
                                    done: 0,
                                    total: count(total),
                                };
                            }
                            first
                        });
                        reviewer.analyse_position(engine, &game, ply, &flag)
                    })
                    .await;
                let Ok(Some(eval)) = found else {
                    stop.store(true, Ordering::Relaxed);
                    return Err("the review could not run".to_owned());
                };
                evals.lock().unwrap_or_else(|e| e.into_inner())[ply] = Some(eval);
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                tx.send_replace(Progress::Running {
                    done: count(d),
                    total: count(total),
                });
            }
        };
        let runners = (0..pace.runners.min(total)).map(|_| runner());
        for outcome in futures_util::future::join_all(runners).await {
            outcome?;
        }
        let evals: Option<Vec<PositionEval>> =
            std::mem::take(&mut *evals.lock().unwrap_or_else(|e| e.into_inner()))
                .into_iter()
                .collect();
        let evals = evals.ok_or_else(|| "the review could not run".to_owned())?;
        let (reviewer, game) = (Arc::clone(&self.reviewer), Arc::clone(game));
        let value = tokio::task::spawn_blocking(move || reviewer.assemble(&game, &evals))
            .await
            .map_err(|e| e.to_string())??;
        serde_json::to_string(&value).map_err(|e| e.to_string())
    }
}

/// One line of the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// 1 for the best line, 2, 3.
    pub rank: usize,
    /// Depth reached.
    pub depth: u32,
    /// The score from White's side: `{"cp": n}` or `{"mate": n}`.
    pub score: ScoreJson,
    /// The moves in UCI.
    pub uci: Vec<String>,
    /// The moves in SAN (English letters).
    pub san: Vec<String>,
}

/// A score from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreJson {
    /// Centipawns.
    Cp(i32),
    /// Mate in that many moves (negative: Black mates).
    Mate(i32),
}

impl ScoreJson {
    /// `score`, given from the side to move's view, from White's.
    pub fn white_view(score: plyyard_engine::Score, white_to_move: bool) -> ScoreJson {
        let sign = if white_to_move { 1 } else { -1 };
        match score {
            plyyard_engine::Score::Cp(c) => ScoreJson::Cp(c * sign),
            plyyard_engine::Score::Mate(m) => ScoreJson::Mate(m * sign),
        }
    }
}

/// The lines of `pos` for a principal variation each, in UCI and SAN;
/// stops at the first move that is not legal.
fn line_moves(pos: &Chess, pv: &[Move]) -> (Vec<String>, Vec<String>) {
    use plyyard_game::shakmaty::Position as _;
    use plyyard_game::shakmaty::san::SanPlus;
    use plyyard_game::shakmaty::uci::UciMove;
    let mut pos = pos.clone();
    let (mut uci, mut san) = (Vec::new(), Vec::new());
    for m in pv {
        if !pos.is_legal(*m) {
            break;
        }
        uci.push(
            UciMove::from_move(*m, plyyard_game::shakmaty::CastlingMode::Standard).to_string(),
        );
        san.push(SanPlus::from_move_and_play_unchecked(&mut pos, *m).to_string());
    }
    (uci, san)
}

/// The analysis board's searches.
pub struct Analyses {
    lane: Arc<Lane>,
    current: Mutex<HashMap<Requester, Arc<AtomicBool>>>,
}

impl std::fmt::Debug for Analyses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyses").finish_non_exhaustive()
    }
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses::new()
    }
}

/// One snapshot of a deepening analysis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// The position analysed.
    pub fen: String,
    /// Its legal moves: from-square → to-squares (castling as the king's
    /// two-square move).
    pub dests: BTreeMap<String, Vec<String>>,
    /// The lines, best first.
    pub lines: Vec<Line>,
    /// Whether the search is over.
    pub done: bool,
}

impl Analyses {
    /// The analysis board's engine, idle.
    pub fn new() -> Analyses {
        Analyses {
            lane: Arc::new(Lane::new(Shares {
                workers: ANALYSIS_WORKERS,
                per_client_running: 1,
                per_client_waiting: ANALYSIS_CLIENT_QUEUE,
                max_waiting: ANALYSIS_QUEUE,
            })),
            current: Mutex::new(HashMap::new()),
        }
    }

    /// Starts analysing `pos` for `who` (keys as [`Requester::keys`]: the
    /// last one is the player or account) for at most `time` (capped at
    /// [`ANALYSIS_MAX_TIME`]), stopping that player's previous analysis;
    /// the snapshots come on the receiver, the last with `done`. Dropping
    /// the receiver stops the search. The search waits for its client's
    /// turn on the engine, and once it has run [`ANALYSIS_SLICE`] it stops
    /// (with the lines found so far) as soon as another search waits.
    /// The caller counts it against the player's rate limit first.
    pub fn start(
        self: &Arc<Self>,
        who: &[Requester],
        pos: Chess,
        time: Duration,
    ) -> mpsc::Receiver<Result<Snapshot, Busy>> {
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
            if current.len() > 10_000 {
                current.retain(|_, s| !s.load(Ordering::Relaxed));
            }
            // Others at the same address keep theirs: the address's
            // share of the engine is what bounds them.
            if let Some(k) = who.last()
                && let Some(old) = current.insert(k.clone(), Arc::clone(&stop))
            {
                old.store(true, Ordering::Relaxed);
            }
        }
        let (tx, rx) = mpsc::channel(16);
        let lane = Arc::clone(&self.lane);
        let time = time.min(ANALYSIS_MAX_TIME);
        let who = who.to_vec();
        tokio::spawn(async move {
            let sender = tx.clone();
            let flag = Arc::clone(&stop);
            let started = Arc::new(std::sync::OnceLock::<Instant>::new());
            let mark = Arc::clone(&started);
            tokio::spawn(yield_after_slice(
                Arc::clone(&lane),
                Arc::clone(&stop),
                started,
            ));
            let done = lane
                .run(&who, move |engine| {
                    let _ = mark.set(Instant::now());
                    search_lines(engine, &pos, time, &flag, &sender);
                })
                .await;
            stop.store(true, Ordering::Relaxed);
            if let Err(Busy) = done {
                let _ = tx.send(Err(Busy)).await;
            }
        });
        rx
    }
}

/// Sets `stop` once the search has run [`ANALYSIS_SLICE`] (since
/// `started` was set) while another search waits on `lane`; ends when
/// `stop` is set by anyone.
async fn yield_after_slice(
    lane: Arc<Lane>,
    stop: Arc<AtomicBool>,
    started: Arc<std::sync::OnceLock<Instant>>,
) {
    const CHECK: Duration = Duration::from_millis(100);
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(CHECK).await;
        let ran = started.get().map_or(Duration::ZERO, Instant::elapsed);
        if ran >= ANALYSIS_SLICE && lane.waiting() > 0 {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The legal moves of `pos` by from-square, in UCI squares.
fn dests_of(pos: &Chess) -> BTreeMap<String, Vec<String>> {
    plyyard_game::notation::dests(pos, plyyard_game::shakmaty::CastlingMode::Standard)
}

/// Searches `pos` for [`ANALYSIS_LINES`] lines, sending a snapshot after
/// each finished depth and the last one when done; stops when `stop` is
/// set or the receiver is gone.
fn search_lines(
    engine: &mut plyyard_engine::Engine,
    pos: &Chess,
    time: Duration,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Result<Snapshot, Busy>>,
) {
    use plyyard_game::shakmaty::Position as _;
    let white = pos.turn().is_white();
    let count = pos.legal_moves().len().min(ANALYSIS_LINES);
    if stop.load(Ordering::Relaxed) {
        return;
    }
    let limits = plyyard_engine::Limits {
        movetime: Some(time),
        ..plyyard_engine::Limits::default()
    };
    let fen = plyyard_game::shakmaty::fen::Fen::from_position(
        pos,
        plyyard_game::shakmaty::EnPassantMode::Legal,
    )
    .to_string();
    let dests = dests_of(pos);
    let mut lines: Vec<Option<Line>> = vec![None; count];
    let line_of = |rank, depth, score, pv: &[Move]| {
        let (uci, san) = line_moves(pos, pv);
        Line {
            rank,
            depth,
            score: ScoreJson::white_view(score, white),
            uci,
            san,
        }
    };
    let mut on_info = |info: &plyyard_engine::SearchInfo| {
        let Some(slot) = lines.get_mut(info.multipv.wrapping_sub(1)) else {
            return;
        };
        *slot = Some(line_of(info.multipv, info.depth, info.score, &info.pv));
        if info.multipv == count && lines.iter().all(Option::is_some) {
            let snap = Snapshot {
                fen: fen.clone(),
                dests: dests.clone(),
                lines: lines.iter().flatten().cloned().collect(),
                done: false,
            };
            if tx.blocking_send(Ok(snap)).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    };
    let results = engine.analyse_with_info(pos, &[], &limits, count.max(1), stop, &mut on_info);
    let last = Snapshot {
        fen,
        dests,
        lines: results
            .iter()
            .enumerate()
            .map(|(i, r)| line_of(i + 1, r.depth, r.score, &r.pv))
            .collect(),
        done: true,
    };
    let _ = tx.blocking_send(Ok(last));
}

/// The review library (`plyyard_review`'s `analyse` and `text`) searching
/// each position for `nodes` nodes.
pub fn library(nodes: u64) -> Arc<dyn Reviewer> {
    Arc::new(Library {
        budget: plyyard_review::Budget::Nodes(nodes),
    })
}

struct Library {
    budget: plyyard_review::Budget,
}

impl Reviewer for Library {
    fn format(&self) -> u32 {
        plyyard_review::analyse::FORMAT
    }

    fn analyse_position(
        &self,
        engine: &mut plyyard_engine::Engine,
        game: &Game,
        ply: usize,
        stop: &AtomicBool,
    ) -> Option<PositionEval> {
        let moves = game.moves();
        let moves = moves.get(..ply)?;
        plyyard_review::analyse_position(engine, game.initial_position(), moves, self.budget, stop)
    }

    fn assemble(&self, game: &Game, evals: &[PositionEval]) -> Result<serde_json::Value, String> {
        let moves = game.moves();
        if evals.len() != moves.len() + 1 {
            return Err("one verdict per position is needed".to_owned());
        }
        let review = plyyard_review::analyse::assemble(
            game.initial_position(),
            &moves,
            game.castling_mode(),
            evals,
            self.budget,
        );
        serde_json::to_value(review).map_err(|e| e.to_string())
    }

    fn render(
        &self,
        analysis: &serde_json::Value,
        game: &Game,
        lang: &str,
    ) -> Result<serde_json::Value, String> {
        let review: plyyard_review::Review =
            serde_json::from_value(analysis.clone()).map_err(|e| e.to_string())?;
        let mut out = serde_json::to_value(&review).map_err(|e| e.to_string())?;
        let moves = out["moves"]
            .as_array_mut()
            .ok_or("a review without moves")?;
        for (m, json) in review.moves.iter().zip(moves.iter_mut()) {
            let texts: Vec<String> = m
                .explanations
                .iter()
                .map(|e| plyyard_review::text::explanation(e, lang, m.side))
                .collect();
            json["texts"] = texts.into();
            json["symbol"] = m.label.map(|l| l.symbol()).into();
            json["label_name"] = m
                .label
                .map(|l| plyyard_review::text::label_name(l, lang))
                .into();
            json["best"]["fens"] = line_fens(game, m.ply, &m.best.uci).into();
        }
        Ok(out)
    }
}

/// The positions along `line` (UCI) played from the position before ply
/// `ply` of `game`.
fn line_fens(game: &Game, ply: u32, line: &[String]) -> Vec<String> {
    use plyyard_game::shakmaty::fen::Fen;
    use plyyard_game::shakmaty::uci::UciMove;
    use plyyard_game::shakmaty::{EnPassantMode, Position as _};
    let Some(mut pos) = game.position_at(ply as usize - 1) else {
        return Vec::new();
    };
    let mut fens = Vec::with_capacity(line.len());
    for uci in line {
        let Some(m) = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        else {
            break;
        };
        pos.play_unchecked(m);
        fens.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
    }
    fens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Requester {
        Requester::Ip(std::net::IpAddr::from([192, 0, 2, n]))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lane_runs_its_workers_queues_a_few_per_client_and_refuses_the_rest() {
        let lane = Arc::new(Lane::new(Shares {
            workers: 1,
            per_client_running: 1,
            per_client_waiting: 1,
            max_waiting: 8,
        }));
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let running = tokio::spawn({
            let lane = Arc::clone(&lane);
            async move { lane.run(&[ip(1)], move |_| wait.recv().is_ok()).await }
        });
        while lane.fair.running() == 0 {
            tokio::task::yield_now().await;
        }
        let queued = tokio::spawn({
            let lane = Arc::clone(&lane);
            async move { lane.run(&[ip(1)], |_| 7).await }
        });
        while lane.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            lane.run(&[ip(1)], |_| 8).await,
            Err(Busy),
            "the client's queue is full"
        );
        let other = tokio::spawn({
            let lane = Arc::clone(&lane);
            async move { lane.run(&[ip(2)], |_| 10).await }
        });
        while lane.waiting() < 2 {
            tokio::task::yield_now().await;
        }
        release.send(()).unwrap();
        assert_eq!(running.await.unwrap(), Ok(true));
        assert_eq!(queued.await.unwrap(), Ok(7));
        assert_eq!(other.await.unwrap(), Ok(10));
        assert_eq!(lane.run(&[ip(1)], |_| 9).await, Ok(9), "free again");
    }

    #[test]
    fn requests_count_by_address_and_player_or_account() {
        let ip: std::net::IpAddr = "192.0.2.7".parse().unwrap();
        assert_eq!(
            Requester::keys(None, "p1", ip, true),
            vec![Requester::Ip(ip), Requester::Player("p1".into())]
        );
        assert_eq!(
            Requester::keys(None, "p1", ip, false),
            vec![Requester::Player("p1".into())]
        );
        assert_eq!(
            Requester::keys(Some("acc"), "p1", ip, true),
            vec![Requester::Ip(ip), Requester::Account("acc".into())]
        );
    }

    #[test]
    fn scores_are_turned_to_whites_side() {
        use plyyard_engine::Score;
        assert_eq!(
            ScoreJson::white_view(Score::Cp(40), true),
            ScoreJson::Cp(40)
        );
        assert_eq!(
            ScoreJson::white_view(Score::Cp(40), false),
            ScoreJson::Cp(-40)
        );
        assert_eq!(
            ScoreJson::white_view(Score::Mate(2), false),
            ScoreJson::Mate(-2)
        );
    }
}
