//! The actor of one live game: its mailbox ([`Cmd`]), its loop, the
//! changes players ask for (move, take-back, resignation, draw claim), and
//! [`Actor::commit`], the one function through which every change is
//! written, made current and published.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use game::shakmaty::Move;
use game::{Game, MoveError, Reason};
use tokio::sync::{mpsc, oneshot};

use super::computer::Thinking;
use super::feed::{Event, Feed, Subscription};
use super::hub::Handle;
use super::replay::{move_row, summary_of};
use super::table::TableLive;
use crate::Shared;
use crate::error::{ApiError, ErrorCode};
use crate::fair::Requester;
use crate::identity::PlayerId;
use crate::protocol::{EventKind, GameState, MoveJson, SeatJson};
use crate::store::{GameRow, StoreError, now_ms};

/// Commands waiting in a game's mailbox before senders wait.
const MAILBOX: usize = 64;

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
        /// A draw offered with the move (table games).
        draw_offer: bool,
        /// The client's measured lag (table games).
        lag: Duration,
        /// The keys of the client that sent it (its address and account):
        /// the computer's reply is searched in that client's share of the
        /// engine pool.
        client: Vec<Requester>,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` accepts the opponent's draw offer (table games).
    AcceptDraw {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` calls the game off before both sides moved (table games).
    Abort {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` claims the win (or a draw) against an away opponent.
    ClaimAway {
        /// Who asks.
        player: PlayerId,
        /// The win, or a draw.
        win: bool,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// `player` offers or accepts a rematch (table games).
    Rematch {
        /// Who asks.
        player: PlayerId,
        /// The new version, once committed.
        reply: oneshot::Sender<Result<u64, ApiError>>,
    },
    /// A socket of `player` opened (`here`) or closed.
    Presence {
        /// Whose socket.
        player: PlayerId,
        /// Opened or closed.
        here: bool,
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
    /// The engine pool refused search `token` (its client had as many
    /// searches waiting as it may): the game keeps its turn and asks again
    /// after a while (internal).
    EngineBusy {
        /// Which search.
        token: u64,
    },
    /// Start the computer's search again (internal, after a failed commit
    /// or a refused search).
    Retry,
}

/// A live game: the game, its stored row and version, its feed, and the
/// computer's search in flight.
pub(super) struct Actor {
    pub(super) shared: Arc<Shared>,
    pub(super) row: GameRow,
    /// Who sits on each seat (White, Black), for display.
    pub(super) names: [SeatJson; 2],
    /// An imported game's tags, for its PGN.
    pub(super) imported_tags: Option<game::PgnTags>,
    /// The database holds a newer version than this actor (a write found
    /// another writer's change): the actor stops and the game reloads.
    stale: bool,
    pub(super) game: Game,
    pub(super) version: u64,
    feed: Feed,
    pub(super) mailbox: mpsc::Sender<Cmd>,
    pub(super) thinking: Option<Thinking>,
    pub(super) next_token: u64,
    /// The keys of the client whose move the computer answers (see
    /// [`Cmd::Move`]); for a game loaded from storage, its human player's
    /// id until a move comes.
    pub(super) client: Vec<Requester>,
    /// Clocks, deadlines and seats of a table game.
    pub(super) table: Option<TableLive>,
    generation: u64,
    last_active: Instant,
}

/// What a commit writes, and the event it publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    /// The last move of the next game is appended (a `move` event); the
    /// computer then thinks if it is its turn.
    Move,
    /// Moves are taken back to the next game's ply (an `undo` event); a
    /// search in flight is cancelled.
    TakeBack,
    /// The game ends without a move (an `end` event); a search in flight is
    /// cancelled.
    End,
    /// Nothing changes on the board, but what players see does (someone
    /// left or came back, a rematch offer): a new version with the event
    /// of that kind.
    Notice(EventKind),
}

/// Starts the actor of a loaded or new game and returns its address.
pub(super) fn spawn(
    shared: &Arc<Shared>,
    row: GameRow,
    game: Game,
    names: [SeatJson; 2],
    imported_tags: Option<game::PgnTags>,
    client: Option<Vec<Requester>>,
) -> Handle {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let generation = shared.hub.next_generation();
    let table = row
        .table
        .as_ref()
        .map(|t| TableLive::load(t, &game, &shared.tuning));
    let client = client.unwrap_or_else(|| {
        let human = row.white_player.as_ref().or(row.black_player.as_ref());
        vec![Requester::Player(human.cloned().unwrap_or_default())]
    });
    let actor = Actor {
        shared: Arc::clone(shared),
        version: row.summary.version,
        row,
        names,
        imported_tags,
        stale: false,
        game,
        feed: Feed::new(),
        mailbox: tx.clone(),
        thinking: None,
        next_token: 0,
        client,
        table,
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
        self.load_ratings().await;
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
                () = sleep_until(self.table.as_ref().and_then(|t| t.deadline(&self.game))) => {
                    self.on_deadline().await;
                    if self.stale {
                        self.shared.hub.forget(&self.row.id, Some(self.generation));
                        break;
                    }
                }
                () = tokio::time::sleep(check) => {
                    if self.idle(idle_after)
                        && self.shared.hub.unload(&self.row.id, self.generation, || !rx.is_empty())
                    {
                        break;
                    }
                }
            }
        }
        metrics.games_live.fetch_sub(1, Ordering::Relaxed);
        tracing::debug!(game = %self.row.id, "game unloaded");
    }

    /// Whether nobody watches, nothing runs (no search, no clock) and
    /// nothing came for a while.
    fn idle(&self, idle_after: Duration) -> bool {
        self.thinking.is_none()
            && (self.table.is_none() || self.game.is_over())
            && self.feed.subscribers() == 0
            && self.last_active.elapsed() >= idle_after
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::State { viewer, reply } => {
                let _ = reply.send(self.state_for(viewer));
            }
            Cmd::Subscribe { since, reply } => {
                let _ = reply.send(self.subscribe(since));
            }
            Cmd::Move {
                player,
                uci,
                draw_offer,
                lag,
                client,
                reply,
            } => {
                let done = if self.table.is_some() {
                    self.table_move(&player, &uci, draw_offer, lag).await
                } else {
                    if !client.is_empty() {
                        self.client = client;
                    }
                    self.player_move(&player, &uci).await
                };
                let _ = reply.send(done);
            }
            Cmd::AcceptDraw { player, reply } => {
                let _ = reply.send(self.accept_draw(&player).await);
            }
            Cmd::Abort { player, reply } => {
                let _ = reply.send(self.abort(&player).await);
            }
            Cmd::ClaimAway { player, win, reply } => {
                let _ = reply.send(self.claim_away(&player, win).await);
            }
            Cmd::Rematch { player, reply } => {
                let _ = reply.send(self.rematch(&player).await);
            }
            Cmd::Presence { player, here } => self.presence(&player, here).await,
            Cmd::Undo { player, reply } => {
                let _ = reply.send(self.undo(&player).await);
            }
            Cmd::Resign { player, reply } => {
                let _ = reply.send(self.resign(&player).await);
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
            Cmd::EngineBusy { token } => self.engine_busy(token),
            Cmd::Retry => self.think_if_needed(),
        }
    }

    fn subscribe(&self, since: Option<u64>) -> Subscription {
        self.feed
            .subscribe(since, self.version, self.seats(), || self.state())
    }

    /// Checks that `player` may act now: they play this game, it is not
    /// over, and it is their turn with no search running.
    pub(super) fn check_turn(&self, player: &PlayerId) -> Result<(), ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if self.game.turn() != color || self.thinking.is_some() {
            return Err(ApiError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        Ok(())
    }

    async fn player_move(&mut self, player: &PlayerId, uci: &str) -> Result<u64, ApiError> {
        self.check_turn(player)?;
        let mut next = self.game.clone();
        next.play_uci(uci).map_err(move_error)?;
        self.commit(next, Change::Move).await
    }

    /// Takes back moves until it is `player`'s turn again.
    async fn undo(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        if self.table.is_some() {
            return Err(ApiError::new(
                ErrorCode::NothingToUndo,
                "moves are not taken back at a table",
            ));
        }
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
        self.commit(next, Change::TakeBack).await
    }

    async fn resign(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        let mut next = self.game.clone();
        next.resign(color)
            .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        self.commit(next, Change::End).await
    }

    /// Claims a draw, with the move announced with the claim if any.
    async fn claim(
        &mut self,
        player: &PlayerId,
        reason: Reason,
        uci: Option<&str>,
    ) -> Result<u64, ApiError> {
        self.check_turn(player)?;
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
        let change = if uci.is_some() {
            Change::Move
        } else {
            Change::End
        };
        self.commit(next, change).await
    }

    /// Commits `next` as the game's next version: writes `change` to the
    /// database (expecting the current version there), then makes `next`
    /// current and publishes the event; returns the new version. A failed
    /// write leaves the game as it was.
    pub(super) async fn commit(&mut self, next: Game, change: Change) -> Result<u64, ApiError> {
        let summary = summary_of(&next, self.version + 1, now_ms());
        let (id, v) = (&self.row.id, self.version);
        let store = &self.shared.store;
        let mut mv = None;
        let written = match change {
            Change::Move => {
                let played = next
                    .history()
                    .last()
                    .cloned()
                    .ok_or_else(|| ApiError::internal("no move"))?;
                let row = move_row(next.ply(), &played);
                mv = Some(MoveJson {
                    uci: played.uci,
                    san: played.san,
                });
                store.append_moves(id, v, &[row], &summary).await
            }
            Change::TakeBack => store.truncate_moves(id, v, summary.plies, &summary).await,
            Change::End | Change::Notice(_) => store.update_game(id, v, &summary).await,
        };
        written.map_err(|e| self.store_failed(e))?;
        if change != Change::Move {
            self.cancel_thinking();
        }
        let ended = !self.game.is_over() && next.is_over();
        self.game = next;
        self.version += 1;
        self.row.summary = summary;
        if ended {
            self.table_game_ended().await;
        }
        match change {
            Change::Move => {
                self.shared.metrics.record_move();
                self.log_end();
                self.think_if_needed();
            }
            Change::End => self.log_end(),
            Change::TakeBack | Change::Notice(_) => {}
        }
        Ok(self.publish(change, mv))
    }

    /// Publishes the current state as the event of `change`.
    fn publish(&mut self, change: Change, mv: Option<MoveJson>) -> u64 {
        let kind = match change {
            Change::Move => EventKind::Move,
            Change::TakeBack => EventKind::Undo,
            Change::End => EventKind::End,
            Change::Notice(kind) => kind,
        };
        let game: GameState = self.state();
        if let (Some(t), Some(shown)) = (self.table.as_mut(), &game.table) {
            t.shown(shown);
        }
        self.feed.publish(Event::new(self.version, kind, mv, game));
        self.version
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

    fn log_end(&self) {
        if let Some(o) = self.game.outcome() {
            tracing::info!(game = %self.row.id, result = o.result.as_str(), reason = %o.reason, plies = self.game.ply(), "game over");
        }
    }
}

/// Sleeps until `at`, or for ever.
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

pub(super) fn move_error(e: MoveError) -> ApiError {
    match e {
        MoveError::GameOver { .. } => ApiError::new(ErrorCode::GameOver, "the game is over"),
        other => ApiError::new(ErrorCode::IllegalMove, other.to_string()),
    }
}
