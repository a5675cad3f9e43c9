//! Games against the computer: creating them, and the computer's turn — a
//! search on the engine pool whose answer comes back to the actor as
//! [`Cmd::EngineDone`] and is committed like any move.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use game::shakmaty::{Color, Move};
use game::{Game, Variant};
use rand::Rng;

use super::actor::{self, Actor, Change, Cmd};
use super::hub::request;
use super::replay::{new_game_id, summary_of};
use super::seat::seat_names;
use super::view::color_name;
use crate::Shared;
use crate::engine_pool::ThinkRequest;
use crate::error::ApiError;
use crate::fair::{Busy, Requester};
use crate::identity::PlayerId;
use crate::protocol::{ColorChoice, GameState, NewComputerGame};
use crate::store::{GameKind, GameRow, now_ms};

/// Pause before the computer retries after a failed commit of its move.
const RETRY_DELAY: Duration = Duration::from_secs(1);
/// Pause before the computer asks the engine pool again after its client's
/// queue was full.
const BUSY_RETRY: Duration = Duration::from_millis(250);

/// Creates a game against the computer for `player`, whose requests come
/// from the client of `client` (its keys in the engine pool, see
/// [`Requester::keys`]), and returns its state.
///
/// # Errors
/// `bad_request` for an impossible set-up; `internal` for storage failures.
pub async fn create_computer_game(
    shared: &Arc<Shared>,
    player: &PlayerId,
    client: Vec<Requester>,
    req: NewComputerGame,
) -> Result<GameState, ApiError> {
    let game = starting_game(&req)?;
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
        table: None,
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
    let handle = actor::spawn(shared, row, game, seats, None, Some(client));
    // A fresh id cannot be in the hub yet; set it before anyone asks.
    let _ = shared.hub.slot(&id).set(handle);
    let viewer = Some(player.clone());
    request(shared, &id, |reply| Cmd::State {
        viewer: viewer.clone(),
        reply,
    })
    .await
}

/// The game a request starts from: standard chess, a Chess960 position
/// (numbered or random), or a FEN.
fn starting_game(req: &NewComputerGame) -> Result<Game, ApiError> {
    Ok(match (req.variant, req.position, req.fen.as_deref()) {
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
    })
}

/// A search in flight.
pub(super) struct Thinking {
    /// Which search (answers of cancelled ones are ignored).
    token: u64,
    /// Set to stop the search.
    stop: Arc<AtomicBool>,
}

impl Actor {
    /// The colour the computer plays, for computer games.
    pub(super) fn computer(&self) -> Option<Color> {
        if self.row.kind != GameKind::Computer {
            return None;
        }
        self.seats().computer().map(|(color, _)| color)
    }

    /// Starts the computer's search if it is the computer's turn.
    pub(super) fn think_if_needed(&mut self) {
        if self.row.kind != GameKind::Computer {
            return;
        }
        let Some((computer, level)) = self.seats().computer() else {
            return;
        };
        if self.thinking.is_some() || self.game.is_over() || self.game.turn() != computer {
            return;
        }
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
        let client = self.client.clone();
        tokio::spawn(async move {
            let done = match pool.think(&client, req, flag).await {
                Ok(best) => Cmd::EngineDone { token, best },
                Err(Busy) => Cmd::EngineBusy { token },
            };
            let _ = mailbox.send(done).await;
        });
        self.thinking = Some(Thinking { token, stop });
    }

    /// The engine pool refused search `token`: the computer keeps its turn
    /// and asks again after [`BUSY_RETRY`] (unless the search was cancelled
    /// meanwhile), so the move comes late but never goes missing.
    pub(super) fn engine_busy(&mut self, token: u64) {
        if self.thinking.as_ref().is_none_or(|t| t.token != token) {
            return;
        }
        self.thinking = None;
        self.shared
            .metrics
            .engine_refused
            .fetch_add(1, Ordering::Relaxed);
        let mailbox = self.mailbox.clone();
        tokio::spawn(async move {
            tokio::time::sleep(BUSY_RETRY).await;
            let _ = mailbox.send(Cmd::Retry).await;
        });
    }

    /// Stops the search in flight, if any.
    pub(super) fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Plays the move of search `token` (or, if the search failed, a legal
    /// move), unless the search was cancelled meanwhile.
    pub(super) async fn engine_done(&mut self, token: u64, best: Option<Move>) {
        if self.thinking.as_ref().is_none_or(|t| t.token != token) {
            return;
        }
        self.thinking = None;
        if self.game.is_over() || Some(self.game.turn()) != self.computer() {
            return;
        }
        let Some(mv) = self.computer_move(best) else {
            return;
        };
        let mut next = self.game.clone();
        if let Err(e) = next.play(mv) {
            tracing::error!(game = %self.row.id, "computer move refused: {e}");
            return;
        }
        if let Err(e) = self.commit(next, Change::Move).await {
            tracing::error!(game = %self.row.id, "cannot store the computer's move: {e}");
            self.retry_later();
        }
    }

    /// The search's move if legal, else the first legal move.
    fn computer_move(&self, best: Option<Move>) -> Option<Move> {
        let legal = self.game.legal_moves();
        match best {
            Some(m) if legal.contains(&m) => Some(m),
            other => {
                // The game must go on even if a search fails: play a legal
                // move rather than leave the player waiting forever.
                tracing::error!(game = %self.row.id, "engine gave {other:?}; playing a legal move");
                legal.first().copied()
            }
        }
    }

    /// Asks the actor to search again after [`RETRY_DELAY`].
    fn retry_later(&self) {
        let mailbox = self.mailbox.clone();
        tokio::spawn(async move {
            tokio::time::sleep(RETRY_DELAY).await;
            let _ = mailbox.send(Cmd::Retry).await;
        });
    }
}
