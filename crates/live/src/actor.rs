//! The actor of one live game: its loop over the mailbox and the table's
//! deadlines, and what each command does. The rules decide (the pure steps
//! of [`LiveGame`], the table's, the computer's [`Thinker`]); the actor
//! applies their decisions, does the waiting (storage, the engine pool, a
//! rematch's start) and commits through [`Actor::commit`], the one
//! function through which every change is written, made current and
//! published.
//!
//! The actor names no registry: it returns how its run ended and the
//! registry acts on it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use plyyard_game::Game;
use plyyard_game::shakmaty::{ByColor, Move};
use tokio::sync::mpsc;

use super::ask::{Ask, Reply};
use super::cmd::{Cmd, Exit, Life, MAILBOX, Mailbox, Subscription};
use super::computer::{BUSY_RETRY, RETRY_DELAY, Search, Thinker, computer_move};
use super::feed::{Event, Feed};
use super::game::{Change, DrawStep, LiveGame, TableMove};
use super::seat::{Seat, seat_name};
use super::start::start_rematch;
use super::table::{RETRY_AFTER, Rematch};
use super::takeback::TakebackStep;
use crate::hub::LiveDeps;
use crate::lifecycle::{LifeEvent, LifeKind};
use plyyard_engine_time::fair::{Busy, Requester};
use plyyard_rating::Speed;
use plyyard_store::replay::{move_row, summary_of};
use plyyard_store::{GameKind, PlayerId};
use plyyard_store::{GameSummary, MoveRow, StoreError, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{EventKind, GameState, MoveJson, RatingJson};

/// A live game's actor: the game, its feed, and the computer's search in
/// flight.
pub(super) struct Actor {
    shared: Arc<LiveDeps>,
    live: LiveGame,
    thinker: Thinker,
    /// The keys of the client whose move the computer answers (see
    /// [`Ask::Move`]), kept with the game when they change; for a game
    /// loaded from storage, those kept (or its human player's id).
    client: Vec<Requester>,
    feed: Feed,
    /// The actor's own mailbox, for answers of searches and retries.
    mailbox: mpsc::Sender<Cmd>,
    /// The database holds a newer version than this actor (a write found
    /// another writer's change): the actor stops and the game reloads.
    stale: bool,
    /// Whether the first run started the search and loaded the ratings.
    opened: bool,
    last_active: Instant,
}

/// Why [`Actor::serve`] returned.
enum Stop {
    Idle,
    Stale,
    Closed,
}

/// An actor with its mailbox, as the registry runs it.
struct Running {
    actor: Actor,
    rx: mpsc::Receiver<Cmd>,
    notices: mpsc::UnboundedReceiver<Ask>,
}

/// Makes the actor of `live`, whose computer answers the client of
/// `client` (by default, the game's human player): its mailbox and its
/// life for the registry to run.
pub(super) fn spawn(
    shared: &Arc<LiveDeps>,
    live: LiveGame,
    client: Option<Vec<Requester>>,
) -> (Mailbox, Box<dyn Life>) {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let (notices, notices_rx) = mpsc::unbounded_channel();
    let client = client.unwrap_or_else(|| {
        let row = &live.row;
        let human = row.white_player.as_ref().or(row.black_player.as_ref());
        vec![Requester::Player(human.cloned().unwrap_or_default())]
    });
    shared.metrics.games_live.fetch_add(1, Ordering::Relaxed);
    let actor = Actor {
        shared: Arc::clone(shared),
        live,
        thinker: Thinker::default(),
        client,
        feed: Feed::new(),
        mailbox: tx.clone(),
        stale: false,
        opened: false,
        last_active: Instant::now(),
    };
    let running = Running {
        actor,
        rx,
        notices: notices_rx,
    };
    (Mailbox { tx, notices }, Box::new(running))
}

impl Life for Running {
    fn run(self: Box<Self>) -> Pin<Box<dyn Future<Output = Exit> + Send>> {
        Box::pin(self.serve())
    }

    fn has_mail(&self) -> bool {
        !self.rx.is_empty() || !self.notices.is_empty()
    }
}

impl Running {
    async fn serve(mut self: Box<Self>) -> Exit {
        let Running { actor, rx, notices } = &mut *self;
        match actor.serve(rx, notices).await {
            Stop::Idle => Exit::Idle(self),
            Stop::Stale => Exit::Stale,
            Stop::Closed => Exit::Closed,
        }
    }
}

impl Drop for Actor {
    fn drop(&mut self) {
        self.shared
            .metrics
            .games_live
            .fetch_sub(1, Ordering::Relaxed);
    }
}

impl Actor {
    /// Serves commands and deadlines until the actor is stale, its senders
    /// are gone, or it is idle.
    async fn serve(
        &mut self,
        rx: &mut mpsc::Receiver<Cmd>,
        notices: &mut mpsc::UnboundedReceiver<Ask>,
    ) -> Stop {
        if !self.opened {
            self.opened = true;
            self.think_if_needed();
            self.load_ratings().await;
        }
        let idle_after = self.shared.tuning.idle_unload;
        let check = (idle_after / 2).clamp(Duration::from_millis(50), Duration::from_secs(30));
        loop {
            let deadline = self
                .live
                .table
                .as_ref()
                .and_then(|t| t.deadline(&self.live.game));
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { return Stop::Closed };
                    self.last_active = Instant::now();
                    self.handle(cmd).await;
                }
                Some(notice) = notices.recv() => {
                    self.last_active = Instant::now();
                    self.answer(notice).await;
                }
                () = sleep_until(deadline) => self.on_deadline().await,
                () = tokio::time::sleep(check) => {
                    if self.idle(idle_after) {
                        return Stop::Idle;
                    }
                }
            }
            if self.stale {
                return Stop::Stale;
            }
        }
    }

    /// Whether nobody watches, nothing runs (no search, no clock) and
    /// nothing came for a while.
    fn idle(&self, idle_after: Duration) -> bool {
        !self.thinker.is_thinking()
            && (self.live.table.is_none() || self.live.game.is_over())
            && self.feed.subscribers() == 0
            && self.last_active.elapsed() >= idle_after
    }

    /// Does what `cmd` asks and answers it.
    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Ask { ask, reply } => {
                let answer = self.answer(ask).await;
                let _ = reply.send(answer);
            }
            Cmd::EngineDone { token, best } => self.engine_done(token, best).await,
            Cmd::EngineBusy { token } => self.engine_busy(token),
            Cmd::Retry => self.think_if_needed(),
            Cmd::Release => {
                self.thinker.cancel();
                self.stale = true;
            }
        }
    }

    /// The answer to what a caller asks.
    async fn answer(&mut self, ask: Ask) -> Reply {
        match ask {
            Ask::State { viewer } => Reply::State {
                game: Box::new(self.live.state_for(viewer, self.thinker.is_thinking())),
            },
            Ask::Subscribe { since } => {
                let sub = self.subscribe(since);
                Reply::Subscribed {
                    catch_up: sub.catch_up,
                    seats: sub.seats,
                    events: Some(sub.events),
                }
            }
            Ask::Pgn => Reply::Pgn {
                pgn: self.live.pgn(),
            },
            Ask::Reseat { from, to } => {
                self.reseat(&from, &to).await;
                Reply::Done
            }
            Ask::Presence { player, here } => {
                self.presence(&player, here).await;
                Reply::Done
            }
            action => Reply::Version {
                result: self.act(action).await,
            },
        }
    }

    /// A player's action: the rules decide, the actor commits, and the
    /// answer is the new version or why not.
    async fn act(&mut self, action: Ask) -> Result<u64, ApiError> {
        let thinking = self.thinker.is_thinking();
        match action {
            Ask::Move {
                player,
                uci,
                draw_offer,
                blur,
                lag_ms,
                client,
            } => {
                if self.live.row.kind == GameKind::Computer
                    && !client.is_empty()
                    && client != self.client
                {
                    super::computer::keep_client(&self.shared.store, &self.live.row.id, &client)
                        .await;
                    self.client = client;
                }
                if self.live.table.is_some() {
                    let lag = Duration::from_millis(lag_ms);
                    self.table_move(&player, &uci, draw_offer, blur, lag).await
                } else {
                    let next = self.live.play(&player, &uci, thinking);
                    self.apply(next, Change::Move).await
                }
            }
            Ask::Claim {
                player,
                reason,
                uci,
            } => {
                let (next, change) = self.live.claim(&player, reason, uci.as_deref(), thinking)?;
                self.commit(next, change).await
            }
            Ask::AcceptDraw { player } => {
                let next = self.live.accept_draw(&player, thinking);
                self.apply(next, Change::End).await
            }
            Ask::OfferDraw { player } => match self.live.offer_draw(&player)? {
                DrawStep::Commit(next, change) => self.commit(*next, change).await,
                DrawStep::Held | DrawStep::Unchanged => Ok(self.live.version),
            },
            Ask::DeclineDraw { player } => match self.live.decline_draw(&player)? {
                Some(next) => self.commit(next, Change::DrawOffer(false)).await,
                None => Ok(self.live.version),
            },
            Ask::Abort { player } => {
                let next = self.live.abort(&player);
                self.apply(next, Change::End).await
            }
            Ask::ClaimAway { player, win } => {
                let next = self.live.claim_away(&player, win);
                self.apply(next, Change::End).await
            }
            Ask::Undo { player } => self.undo(&player).await,
            Ask::Takeback { player, yes } => self.takeback(&player, yes).await,
            Ask::Resign { player } => {
                let next = self.live.resign(&player);
                self.apply(next, Change::End).await
            }
            Ask::Berserk { player, time_ms } => {
                let before = self.live.berserk(&player, time_ms)?;
                let done = self
                    .commit(self.live.game.clone(), Change::Notice(EventKind::Berserk))
                    .await;
                if done.is_err()
                    && let Some(t) = self.live.table.as_mut()
                {
                    t.unpress(before);
                }
                done
            }
            Ask::Rematch { player } => self.rematch(&player).await,
            other => Err(ApiError::internal(format!("not an action: {other:?}"))),
        }
    }

    fn subscribe(&self, since: Option<u64>) -> Subscription {
        let thinking = self.thinker.is_thinking();
        let (catch_up, events) = self
            .feed
            .subscribe(since, self.live.version, || self.live.state(thinking));
        Subscription {
            catch_up,
            events,
            seats: self.live.seats(),
        }
    }

    /// Commits the next game a step gave, or returns its refusal.
    async fn apply(
        &mut self,
        next: Result<Game, ApiError>,
        change: Change,
    ) -> Result<u64, ApiError> {
        self.commit(next?, change).await
    }

    /// A move at a table: the clock pressed, then committed (the clock is
    /// put back if the commit fails); a fallen flag ends the game instead.
    async fn table_move(
        &mut self,
        player: &PlayerId,
        uci: &str,
        draw_offer: bool,
        blur: bool,
        lag: Duration,
    ) -> Result<u64, ApiError> {
        match self.live.table_move(player, uci, draw_offer, blur, lag)? {
            TableMove::Flagged(color) => {
                let next = self.live.flag_fall(color)?;
                self.commit(next, Change::End).await?;
                Err(ApiError::new(ErrorCode::GameOver, "your time ran out"))
            }
            TableMove::Play(played) => {
                let mover = self.live.game.turn();
                let done = self.commit(played.next, Change::Move).await;
                if done.is_ok() {
                    self.live.moved(mover);
                } else if let (Some(t), Some(before)) = (self.live.table.as_mut(), played.before) {
                    t.unpress(before);
                }
                done
            }
        }
    }

    /// Moves taken back against the computer until it is `player`'s turn
    /// again; with a clock, theirs runs (put back if the commit fails).
    async fn undo(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let next = self.live.undo(player)?;
        let before = match self.live.table.as_mut() {
            Some(t) => Some(t.take_back_to(next.turn())?),
            None => None,
        };
        let done = self.commit(next, Change::TakeBack).await;
        if done.is_err()
            && let (Some(t), Some(before)) = (self.live.table.as_mut(), before)
        {
            t.unpress(before);
        }
        done
    }

    /// A takeback asked for, accepted, declined or withdrawn (casual
    /// table games): an accepted one takes the moves back and turns the
    /// clock to the asker (put back if the commit fails); the others
    /// publish the asking as it now stands.
    async fn takeback(&mut self, player: &PlayerId, yes: bool) -> Result<u64, ApiError> {
        let casual_table = self.live.table.as_ref().is_some_and(|t| !t.is_rated());
        let in_tournament = casual_table
            && self
                .shared
                .store
                .tournament_pairing(&self.live.row.id)
                .await
                .map_err(|e| self.store_failed(e))?
                .is_some();
        match self.live.takeback(player, yes, in_tournament)? {
            TakebackStep::Asking(by) => {
                let table = self.live.table_mut()?;
                let before = table.takeback();
                table.set_takeback(by);
                let done = self
                    .commit(self.live.game.clone(), Change::Notice(EventKind::Takeback))
                    .await;
                if done.is_err() {
                    self.live.table_mut()?.set_takeback(before);
                }
                done
            }
            TakebackStep::Accepted(next, asker) => {
                let table = self.live.table_mut()?;
                let before = table.take_back_to(asker)?;
                table.set_takeback(None);
                let done = self.commit(*next, Change::TakeBack).await;
                if done.is_err() {
                    let table = self.live.table_mut()?;
                    table.unpress(before);
                    table.set_takeback(Some(asker));
                }
                done
            }
        }
    }

    /// Wakes at a deadline: a flag fall, a missed first move (the game is
    /// aborted), or the claim against an away opponent opening. A write
    /// that fails holds the deadlines back for a second.
    async fn on_deadline(&mut self) {
        let Some(t) = &self.live.table else { return };
        let Some(due) = t.due(&self.live.game, t.now()) else {
            tracing::error!(game = %self.live.row.id, "woken with nothing due");
            self.hold_deadlines();
            return;
        };
        let result = match self.live.on_due(due) {
            Ok((next, change)) => self.commit(next, change).await,
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            tracing::warn!(game = %self.live.row.id, "deadline: {}", e.message);
            self.hold_deadlines();
        }
    }

    /// Holds the table's deadlines back after a failed write.
    fn hold_deadlines(&mut self) {
        if let Some(t) = self.live.table.as_mut() {
            t.hold(RETRY_AFTER);
        }
    }

    /// A player's socket opened (`here`) or closed: the others are told if
    /// that player came or went.
    async fn presence(&mut self, player: &PlayerId, here: bool) {
        let Some(change) = self.live.presence(player, here) else {
            return;
        };
        if let Err(e) = self.commit(self.live.game.clone(), change).await {
            tracing::warn!(game = %self.live.row.id, "presence: {}", e.message);
        }
    }

    /// Offers a rematch, or accepts the opponent's: the next game at the
    /// same table starts with the colours swapped.
    async fn rematch(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        match self.live.rematch(player)? {
            Rematch::Unchanged => return Ok(self.live.version),
            Rematch::Accepted => {
                let next = start_rematch(&self.shared, &self.live.row).await?;
                if let Some(t) = self.live.table.as_mut() {
                    t.rematch_started(next);
                }
            }
            Rematch::Offered => {}
        }
        let notice = Change::Notice(EventKind::Rematch);
        self.commit(self.live.game.clone(), notice).await
    }

    /// Gives `from`'s seats to `to`, showing `to`'s name on them.
    async fn reseat(&mut self, from: &PlayerId, to: &PlayerId) {
        for color in self.live.reseat(from, to) {
            match seat_name(&self.shared.store, &Seat::Person(to.clone())).await {
                Ok(name) => self.live.names[color] = name,
                Err(e) => tracing::warn!(game = %self.live.row.id, "seat name: {e}"),
            }
        }
    }

    /// Commits `next` as the game's next version: writes `change` to the
    /// database (expecting the current version there), then makes `next`
    /// current and publishes the event; returns the new version. A failed
    /// write leaves the game as it was.
    pub(super) async fn commit(&mut self, next: Game, change: Change) -> Result<u64, ApiError> {
        let summary = summary_of(&next, self.live.version + 1, now_ms());
        let played = match change {
            Change::Move => Some(last_move(&next)?),
            _ => None,
        };
        let row = played.as_ref().map(|(row, _)| row);
        let written = self.write(change, row, &summary).await;
        written.map_err(|e| self.store_failed(e))?;
        self.make_current(next, change, summary).await;
        Ok(self.publish(change, played.map(|(_, mv)| mv)))
    }

    /// Writes `change` (with the move `played`, for a move) and `summary`,
    /// expecting the current version in the database.
    async fn write(
        &self,
        change: Change,
        played: Option<&MoveRow>,
        summary: &GameSummary,
    ) -> Result<(), StoreError> {
        let id = &self.live.row.id;
        let v = plyyard_store::Fence {
            version: self.live.version,
            epoch: self.live.epoch,
        };
        let store = &self.shared.store;
        match change {
            Change::Move => {
                let rows = played.map_or(&[][..], std::slice::from_ref);
                store.append_moves(id, v, rows, summary).await
            }
            Change::TakeBack => store.truncate_moves(id, v, summary.plies, summary).await,
            Change::DrawOffer(offer) => {
                let ply = summary.plies;
                store.mark_draw_offer(id, v, ply, offer, summary).await
            }
            Change::End | Change::Notice(_) => store.update_game(id, v, summary).await,
        }
    }

    /// Makes the written `next` current, then does what follows a change:
    /// a search cancelled or started, an ended table game rated.
    async fn make_current(&mut self, next: Game, change: Change, summary: GameSummary) {
        if change != Change::Move {
            self.thinker.cancel();
        }
        let ended = !self.live.game.is_over() && next.is_over();
        self.live.game = next;
        self.live.version += 1;
        self.live.row.summary = summary;
        if ended {
            self.table_game_ended().await;
            self.shared.announce(LifeEvent {
                game: self.live.row.id.clone(),
                kind: LifeKind::Ended,
                players: ByColor {
                    white: self.live.row.white_player.clone(),
                    black: self.live.row.black_player.clone(),
                },
            });
        }
        match change {
            Change::Move => {
                self.shared.metrics.record_move();
                self.log_end();
                self.think_if_needed();
            }
            Change::End => self.log_end(),
            Change::TakeBack | Change::DrawOffer(_) | Change::Notice(_) => {}
        }
    }

    /// Publishes the current state as the event of `change`.
    fn publish(&mut self, change: Change, mv: Option<MoveJson>) -> u64 {
        let kind = match change {
            Change::Move => EventKind::Move,
            Change::TakeBack => EventKind::Undo,
            Change::End => EventKind::End,
            Change::DrawOffer(_) => EventKind::Draw,
            Change::Notice(kind) => kind,
        };
        let game: GameState = self.live.state(self.thinker.is_thinking());
        if let (Some(t), Some(shown)) = (self.live.table.as_mut(), &game.table) {
            t.shown(shown);
        }
        let event = Event::new(self.live.version, kind, mv, game);
        if let Some(c) = &self.shared.cluster {
            c.publish_event(&self.live.row.id, event.v, &event.text);
        }
        self.feed.publish(event);
        self.live.version
    }

    /// Maps a failed write to the client's error; a version conflict marks
    /// the actor stale so the game reloads from the database.
    fn store_failed(&mut self, e: StoreError) -> ApiError {
        if let StoreError::Conflict { .. } = e {
            tracing::warn!(game = %self.live.row.id, "{e}; reloading the game");
            self.thinker.cancel();
            self.stale = true;
            return ApiError::new(ErrorCode::Conflict, "the game changed meanwhile; reload it");
        }
        ApiError::from(e)
    }

    fn log_end(&self) {
        let game = &self.live.game;
        if let Some(o) = game.outcome() {
            tracing::info!(game = %self.live.row.id, result = o.result.as_str(), reason = %o.reason, plies = game.ply(), "game over");
        }
    }

    /// Loads the players' ratings at a table game's speed, for display.
    async fn load_ratings(&mut self) {
        let Some(t) = &self.live.table else { return };
        let speed = t.speed();
        let row = &self.live.row;
        let (Some(white), Some(black)) = (&row.white_player, &row.black_player) else {
            return;
        };
        let Some(white) = self.rating(white, speed).await else {
            return;
        };
        let Some(black) = self.rating(black, speed).await else {
            return;
        };
        if let Some(t) = self.live.table.as_mut() {
            t.set_ratings(ByColor { white, black });
        }
    }

    /// The rating of `player` at `speed` as shown, or `None` if it cannot
    /// be read.
    async fn rating(&self, player: &str, speed: Speed) -> Option<RatingJson> {
        match self.shared.store.rating(player, speed).await {
            Ok(r) => Some(RatingJson {
                rating: plyyard_rating::display(r.at(now_ms()).rating),
                provisional: r.provisional(),
            }),
            Err(e) => {
                tracing::warn!(game = %self.live.row.id, "ratings: {e}");
                None
            }
        }
    }

    /// After a table game ended: the clock stops and a rated game is rated.
    async fn table_game_ended(&mut self) {
        let Some(t) = self.live.table.as_mut() else {
            return;
        };
        let now = t.now();
        let Some(speed) = t.ended(now) else { return };
        let row = &self.live.row;
        let (Some(white), Some(black), Some(outcome)) = (
            row.white_player.as_deref(),
            row.black_player.as_deref(),
            self.live.game.outcome(),
        ) else {
            return;
        };
        let rated = self
            .shared
            .store
            .apply_rated_result(&row.id, white, black, speed, outcome.result, now_ms())
            .await;
        match rated {
            Ok(Some(r)) => {
                if let Some(t) = self.live.table.as_mut() {
                    t.rated(ByColor {
                        white: r.white.shown_change(),
                        black: r.black.shown_change(),
                    });
                    // The ratings beside the names follow the change shown below.
                    let shown = |c: &plyyard_store::RatingChange| RatingJson {
                        rating: plyyard_rating::display(c.after.rating),
                        provisional: c.provisional(),
                    };
                    t.set_ratings(ByColor {
                        white: shown(&r.white),
                        black: shown(&r.black),
                    });
                }
            }
            Ok(None) => {}
            Err(e) => tracing::error!(game = %self.live.row.id, "cannot rate the game: {e}"),
        }
    }

    /// Starts the computer's search on the engine pool if it is the
    /// computer's turn; its answer comes back to the mailbox.
    fn think_if_needed(&mut self) {
        let Some(search) = self.thinker.request(&self.live) else {
            return;
        };
        let pool = Arc::clone(&self.shared.engines);
        let mailbox = self.mailbox.clone();
        let client = self.client.clone();
        tokio::spawn(async move {
            let Search {
                token,
                request,
                stop,
            } = search;
            let done = match pool.think(&client, request, stop).await {
                Ok(best) => Cmd::EngineDone { token, best },
                Err(Busy) => Cmd::EngineBusy { token },
            };
            let _ = mailbox.send(done).await;
        });
    }

    /// The engine pool refused search `token`: the computer keeps its turn
    /// and asks again after [`BUSY_RETRY`] (unless the search was cancelled
    /// meanwhile), so the move comes late but never goes missing.
    fn engine_busy(&mut self, token: u64) {
        if !self.thinker.answered(token) {
            return;
        }
        self.shared
            .metrics
            .engine_refused
            .fetch_add(1, Ordering::Relaxed);
        self.retry_after(BUSY_RETRY);
    }

    /// Plays the move of search `token` (or, if the search failed, a legal
    /// move), unless the search was cancelled meanwhile.
    async fn engine_done(&mut self, token: u64, best: Option<Move>) {
        if !self.thinker.answered(token) {
            return;
        }
        let game = &self.live.game;
        if game.is_over() || Some(game.turn()) != self.live.computer().map(|(c, _)| c) {
            return;
        }
        let Some(mv) = computer_move(&self.live, best) else {
            return;
        };
        let result = match self.live.computer_play(mv) {
            Ok(TableMove::Flagged(color)) => match self.live.flag_fall(color) {
                Ok(next) => self.commit(next, Change::End).await,
                Err(e) => Err(e),
            },
            Ok(TableMove::Play(played)) => {
                let done = self.commit(played.next, Change::Move).await;
                if done.is_err()
                    && let (Some(t), Some(before)) = (self.live.table.as_mut(), played.before)
                {
                    t.unpress(before);
                }
                done
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            tracing::error!(game = %self.live.row.id, "cannot store the computer's move: {}", e.message);
            self.retry_after(RETRY_DELAY);
        }
    }

    /// Asks the actor to search again after `pause`.
    fn retry_after(&self, pause: Duration) {
        let mailbox = self.mailbox.clone();
        tokio::spawn(async move {
            tokio::time::sleep(pause).await;
            let _ = mailbox.send(Cmd::Retry).await;
        });
    }
}

/// The row and the wire form of the last move of `next`.
fn last_move(next: &Game) -> Result<(MoveRow, MoveJson), ApiError> {
    let played = next
        .history()
        .last()
        .ok_or_else(|| ApiError::internal("no move"))?;
    let row = move_row(next.ply(), played);
    let mv = MoveJson {
        uci: played.uci.clone(),
        san: played.san.clone(),
    };
    Ok((row, mv))
}

/// Sleeps until `at`, or for ever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
