//! Owns the director: the task that runs every Arena, ticking every
//! [`TICK`] and hearing games end.
//!
//! Each tick, from what is stored: scores every tournament game whose
//! game has ended (a player who never moved loses it and is paused, as on
//! lichess); starts the Arenas whose time has come; finishes those whose
//! end has come (their games still being played finish normally and are
//! scored when they end); and, while pairing is open, makes a wave of
//! games when one is due (`plyyard_arena::schedule::round_due`) over the
//! waiting players: joined, not paused, online, not playing a game of the
//! Arena. Each pair's game is an ordinary live game with the Arena's clock
//! and rating, started through `plyyard-live`. A game's end heard from the
//! live games' life feed is scored at once; the feed is best effort, so
//! every tick also scores from the database.
//!
//! In a cluster one node directs at a time: the one holding the store's
//! task lease [`DIRECTOR_LEASE`], taken or renewed at every tick and lost
//! [`LEASE_TTL`] after its holder stops renewing (it died, or it drains),
//! so another node's next tick takes over. A stale director that still
//! pairs cannot put a player in two games: the store refuses a pairing of
//! anyone still playing a game of the tournament.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use plyyard_arena::{ColourHistory, Timestamp, WaitingPlayer, WaveContext, pair_wave, schedule};
use plyyard_game::{GameResult, RuleSet};
use plyyard_live::lifecycle::LifeKind;
use plyyard_store::{PairingRow, PairingStatus, TableRow, TableStatus, TournamentStatus, now_ms};
use plyyard_wire::error::ErrorCode;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::arena::Arena;
use crate::error::TournamentError;
use crate::scoring::PlayerStanding;
use crate::service::Tournaments;

/// How often the director looks at every Arena.
pub const TICK: Duration = Duration::from_secs(1);
/// The name of the director's lease in a cluster.
pub const DIRECTOR_LEASE: &str = "tournament-director";
/// How long the director's lease lasts unless renewed (as a game's).
pub const LEASE_TTL: Duration = plyyard_live::cluster::LEASE_TTL;
/// Ended games scored per pass.
const SETTLE_BATCH: u32 = 500;
/// Arenas of one status looked at per tick.
const ARENAS_PER_TICK: u32 = 1000;
/// Table codes tried for one game.
const CODE_TRIES: u32 = 5;

/// What one tick did, for logs and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Arenas started.
    pub started: usize,
    /// Games started.
    pub paired: usize,
    /// Games scored.
    pub scored: usize,
    /// Arenas finished.
    pub finished: usize,
    /// Swiss rounds paired.
    pub rounds: usize,
}

impl Tournaments {
    /// Runs the director until the runtime stops: a tick every [`TICK`],
    /// and beside it a scoring pass whenever games end. The two run side by
    /// side in one task, so a tick that starts a wave of hundreds of games
    /// never holds back the scoring of the games ending meanwhile (the
    /// standings' watchers wait for it).
    pub fn spawn_director(&self) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        tokio::spawn(async move {
            let directing = AtomicBool::new(false);
            tokio::join!(me.tick_loop(&directing), me.score_loop(&directing));
        })
    }

    /// Ticks every [`TICK`] while this node directs (`directing` says so
    /// to the scoring loop).
    async fn tick_loop(&self, directing: &AtomicBool) {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            let now_directing = self.directing().await;
            if directing.swap(now_directing, Ordering::Relaxed) != now_directing {
                tracing::info!(directing = now_directing, "tournament director");
            }
            if !now_directing {
                continue;
            }
            if let Err(e) = self.tick(Timestamp::from_millis(now_ms())).await {
                tracing::warn!("arena director: {e}");
            }
        }
    }

    /// Scores ended games as soon as the live games' life feed says some
    /// ended: one pass for all the ends heard at once, and one after the
    /// feed lagged (ends may have been missed; the tick scores them too).
    async fn score_loop(&self, directing: &AtomicBool) {
        let mut life = self.deps.live.deps().life.listen();
        loop {
            match life.recv().await {
                Ok(ev) if ev.kind == LifeKind::Ended => {}
                Err(RecvError::Lagged(_)) => {}
                Ok(_) => continue,
                Err(RecvError::Closed) => {
                    life = self.deps.live.deps().life.listen();
                    continue;
                }
            }
            while matches!(life.try_recv(), Ok(_) | Err(TryRecvError::Lagged(_))) {}
            if !directing.load(Ordering::Relaxed) {
                continue;
            }
            match self.settle(Timestamp::from_millis(now_ms())).await {
                Ok(0) => {}
                Ok(_) => self.deps.feeds.nudge(),
                Err(e) => tracing::warn!("arena director: {e}"),
            }
        }
    }

    /// Whether this node directs now: always when it runs alone; in a
    /// cluster while it holds [`DIRECTOR_LEASE`] (taken or renewed here),
    /// never while it drains (it gives the lease up).
    pub async fn directing(&self) -> bool {
        let Some(cluster) = &self.deps.live.deps().cluster else {
            return true;
        };
        let store = &self.deps.store;
        if cluster.draining() {
            self.stop_directing().await;
            return false;
        }
        match store
            .hold_task_lease(DIRECTOR_LEASE, cluster.node(), LEASE_TTL)
            .await
        {
            Ok(held) => held.is_some(),
            Err(e) => {
                tracing::warn!("tournament director: {e}");
                false
            }
        }
    }

    /// Gives the director's lease up, if this node of a cluster holds it,
    /// so that another node directs from its next tick (the node stops).
    pub async fn stop_directing(&self) {
        let Some(cluster) = &self.deps.live.deps().cluster else {
            return;
        };
        if let Err(e) = self
            .deps
            .store
            .release_task_lease(DIRECTOR_LEASE, cluster.node())
            .await
        {
            tracing::warn!("tournament director: {e}");
        }
    }

    /// One tick at `now`: score, start, finish, pair.
    ///
    /// # Errors
    /// A store failure (the next tick tries again).
    pub async fn tick(&self, now: Timestamp) -> Result<TickReport, TournamentError> {
        let mut report = TickReport {
            scored: self.settle(now).await?,
            ..TickReport::default()
        };
        if let Err(e) = self.notify_soon(now.millis()).await {
            tracing::warn!("tournaments starting soon: {e}");
        }
        let store = &self.deps.store;
        for row in store
            .tournaments_with_status("arena", TournamentStatus::Created, false, ARENAS_PER_TICK)
            .await?
        {
            if row.starts_at > now.millis() {
                break;
            }
            if store
                .set_tournament_status(
                    &row.id,
                    TournamentStatus::Created,
                    TournamentStatus::Started,
                    None,
                )
                .await?
            {
                tracing::info!(tournament = %row.id, "arena started");
                report.started += 1;
            }
        }
        for row in store
            .tournaments_with_status("arena", TournamentStatus::Started, false, ARENAS_PER_TICK)
            .await?
        {
            let arena = match Arena::from_row(row) {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!("arena director: {e}");
                    continue;
                }
            };
            if now >= arena.finishes_at() {
                if store
                    .set_tournament_status(
                        arena.id(),
                        TournamentStatus::Started,
                        TournamentStatus::Finished,
                        None,
                    )
                    .await?
                {
                    tracing::info!(tournament = %arena.id(), "arena finished");
                    report.finished += 1;
                    let standings = self.standings(&arena).await?;
                    if let Some(first) = standings.first().filter(|s| s.score > 0) {
                        self.notify_win(&arena.row, (&first.player_id, &first.username))
                            .await;
                    }
                }
                continue;
            }
            if !schedule::pairing_closed(&arena.settings, now) {
                report.paired += self.pair(&arena, now).await?;
            }
        }
        self.swiss_tick(now.millis(), &mut report).await?;
        if report != TickReport::default() {
            self.deps.feeds.nudge();
        }
        Ok(report)
    }

    /// Scores every tournament game whose game has ended; how many.
    ///
    /// # Errors
    /// A store failure.
    pub async fn settle(&self, now: Timestamp) -> Result<usize, TournamentError> {
        let store = &self.deps.store;
        let mut scored = 0;
        for ended in store.tournament_games_ended(SETTLE_BATCH).await? {
            let p = &ended.pairing;
            // Its players wait from the game's end, not from when it is
            // scored (later when the director moved to another node).
            let finished = ended.ended_at.min(now.millis());
            if !store
                .finish_tournament_pairing(&p.game_id, ended.result, ended.plies, finished)
                .await?
            {
                continue;
            }
            scored += 1;
            tracing::info!(
                tournament = %p.tournament_id,
                game = %p.game_id,
                result = ended.result.as_str(),
                "arena game scored"
            );
            if ended.result == GameResult::Aborted {
                let idle = if ended.plies == 0 { &p.white } else { &p.black };
                if store
                    .withdraw_from_tournament(&p.tournament_id, idle, now.millis())
                    .await?
                {
                    tracing::info!(
                        tournament = %p.tournament_id,
                        player = %idle,
                        "paused: never moved"
                    );
                }
            }
        }
        Ok(scored)
    }

    /// Makes a wave of games in `arena` if one is due; how many started.
    async fn pair(&self, arena: &Arena, now: Timestamp) -> Result<usize, TournamentError> {
        let standings = self.standings(arena).await?;
        let active = standings.iter().filter(|s| !s.withdrawn).count();
        if active < 2 {
            return Ok(0);
        }
        let players = self.deps.store.tournament_players(arena.id()).await?;
        let first_round = standings.iter().all(|s| s.games.is_empty() && !s.playing);
        let mut waiting = Vec::new();
        for s in standings.iter().filter(|s| !s.withdrawn && !s.playing) {
            if !self
                .deps
                .presence
                .is_online(&s.username.to_lowercase())
                .await
            {
                continue;
            }
            let Some(rank) = NonZeroU32::new(s.rank) else {
                continue;
            };
            let me = players.iter().find(|p| p.player_id == s.player_id);
            let since = [
                me.map(|p| p.joined_at),
                me.and_then(|p| p.pauses.last().copied()),
                s.last_finished_at,
            ]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(now.millis());
            waiting.push(WaitingPlayer {
                id: s.player_id.clone(),
                rank,
                rating: s.rating,
                colours: ColourHistory::from_colours(s.games.iter().map(|g| g.colour)),
                last_opponent: s.last_opponent.clone(),
                waiting_since: Timestamp::from_millis(since),
            });
        }
        let since: Vec<Timestamp> = waiting.iter().map(|w| w.waiting_since).collect();
        if !schedule::round_due(&since, now, arena.settings.clock(), first_round) {
            return Ok(0);
        }
        let context = WaveContext {
            recently_started: schedule::recently_started(&arena.settings, now),
            active_players: active,
        };
        let pairs = pair_wave(&waiting, context, &mut rand::rng());
        let mut started = 0;
        for pair in pairs {
            let rating = |id: &str| {
                standings
                    .iter()
                    .find(|s| s.player_id == id)
                    .map_or(0, |s: &PlayerStanding| i64::from(s.rating))
            };
            let pairing = PairingRow {
                game_id: String::new(),
                tournament_id: arena.id().to_owned(),
                white: pair.white.clone(),
                black: pair.black.clone(),
                white_rating: rating(&pair.white),
                black_rating: rating(&pair.black),
                status: PairingStatus::Playing,
                result: None,
                plies: 0,
                white_berserk: false,
                black_berserk: false,
                created_at: now.millis(),
                finished_at: None,
                round: 0,
            };
            let control = arena.control();
            let how = (control, arena.variant(), arena.settings.rated());
            match self.start_game(how, &pairing, now).await {
                Ok(Some(game)) => {
                    started += 1;
                    tracing::info!(
                        tournament = %arena.id(), %game,
                        white = %pair.white, black = %pair.black,
                        "arena game started"
                    );
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(tournament = %arena.id(), "cannot start a game: {}", e.message)
                }
            }
        }
        Ok(started)
    }

    /// Starts the live game of `pairing` at a fresh private table with
    /// `(clock, variant, rated)`; `None` when the tournament is no longer
    /// started.
    pub(crate) async fn start_game(
        &self,
        (control, variant, rated): (plyyard_game::TimeControl, plyyard_game::Variant, bool),
        pairing: &PairingRow,
        now: Timestamp,
    ) -> Result<Option<String>, plyyard_wire::error::ApiError> {
        for attempt in 1..=CODE_TRIES {
            let table = TableRow {
                code: plyyard_pairing::tables::new_code(),
                host: pairing.white.clone(),
                guest: Some(pairing.black.clone()),
                variant,
                base_s: control.base_secs(),
                increment_s: control.increment_secs(),
                rules: RuleSet::default(),
                rated,
                public: false,
                status: TableStatus::Playing,
                game_id: None,
                created_at: now.millis(),
                expires_at: now.millis(),
            };
            match self.deps.live.start_tournament_game(&table, pairing).await {
                Err(e) if e.code == ErrorCode::Conflict && attempt < CODE_TRIES => {}
                done => return done,
            }
        }
        Err(plyyard_wire::error::ApiError::internal(
            "no free table code",
        ))
    }
}
