//! The computer's turn in a game against it: [`Thinker`] keeps the search
//! in flight, decides when one starts ([`Thinker::request`]) and which
//! answer still counts; the actor runs the search on the engine pool and
//! commits its move like any other. The client whose share of the pool
//! the search takes is kept with the game ([`keep_client`]), for when it
//! is loaded again.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use plyyard_game::shakmaty::Move;

use super::game::LiveGame;
use plyyard_engine_time::fair::Requester;
use plyyard_engine_time::pool::ThinkRequest;
use plyyard_store::Store;

/// Pause before the computer retries after a failed commit of its move.
pub(super) const RETRY_DELAY: Duration = Duration::from_secs(1);
/// Pause before the computer asks the engine pool again after its client's
/// queue was full.
pub(super) const BUSY_RETRY: Duration = Duration::from_millis(250);

/// A search in flight.
#[derive(Debug)]
struct Thinking {
    /// Which search (answers of cancelled ones are ignored).
    token: u64,
    /// Set to stop the search.
    stop: Arc<AtomicBool>,
}

/// A search to run on the engine pool, as [`Thinker::request`] started it.
#[derive(Debug)]
pub(super) struct Search {
    /// Which search; its answer comes back with it.
    pub(super) token: u64,
    /// What to search.
    pub(super) request: ThinkRequest,
    /// Set when the search is cancelled.
    pub(super) stop: Arc<AtomicBool>,
}

/// The computer's searches in one game: at most one in flight.
#[derive(Debug, Default)]
pub(super) struct Thinker {
    thinking: Option<Thinking>,
    next_token: u64,
}

impl Thinker {
    /// Whether a search is in flight.
    pub(super) fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The search to start if it is the computer's turn in `live` and none
    /// runs; it counts as in flight from now.
    pub(super) fn request(&mut self, live: &LiveGame) -> Option<Search> {
        let (computer, level) = live.computer()?;
        let game = &live.game;
        if self.thinking.is_some() || game.is_over() || game.turn() != computer {
            return None;
        }
        let token = self.next_token;
        self.next_token += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let mut hasher = DefaultHasher::new();
        (&live.row.id, game.ply()).hash(&mut hasher);
        let request = ThinkRequest {
            start: game.initial_position().clone(),
            moves: game.moves(),
            level,
            seed: hasher.finish(),
            clock: live
                .table
                .as_ref()
                .filter(|_| game.ply() >= 2)
                .map(|t| t.engine_clock(computer)),
        };
        self.thinking = Some(Thinking {
            token,
            stop: Arc::clone(&stop),
        });
        Some(Search {
            token,
            request,
            stop,
        })
    }

    /// Search `token` answered (or was refused): whether it is the one in
    /// flight, which then stops being in flight. Answers of cancelled
    /// searches do not count.
    pub(super) fn answered(&mut self, token: u64) -> bool {
        if self.thinking.as_ref().is_none_or(|t| t.token != token) {
            return false;
        }
        self.thinking = None;
        true
    }

    /// Stops the search in flight, if any.
    pub(super) fn cancel(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The move the computer plays in `live` for a search that gave `best`:
/// that move if legal, else the first legal move (the game must go on even
/// if a search fails, rather than leave the player waiting forever).
pub(super) fn computer_move(live: &LiveGame, best: Option<Move>) -> Option<Move> {
    let legal = live.game.legal_moves();
    match best {
        Some(m) if legal.contains(&m) => Some(m),
        other => {
            tracing::error!(game = %live.row.id, "engine gave {other:?}; playing a legal move");
            legal.first().copied()
        }
    }
}

/// Keeps with computer game `id` the keys of the client whose moves its
/// computer answers, so that the game loaded again (after an idle unload
/// or a restart) searches in the same share of the engine pool; a failure
/// is logged (the game plays on, keyed by its player once reloaded).
pub(super) async fn keep_client(store: &Store, id: &str, client: &[Requester]) {
    if let Err(e) = store.set_engine_client(id, &client_keys(client)).await {
        tracing::warn!(game = %id, "cannot keep the computer's client: {e}");
    }
}

/// The stored form of `client`'s keys (JSON).
pub(super) fn client_keys(client: &[Requester]) -> String {
    serde_json::to_string(client).unwrap_or_default()
}

/// The keys [`keep_client`] kept for game `id`; `None` when none were (the
/// actor then keys the game by its human player).
pub(super) async fn kept_client(store: &Store, id: &str) -> Option<Vec<Requester>> {
    let text = match store.engine_client(id).await {
        Ok(t) => t?,
        Err(e) => {
            tracing::warn!(game = %id, "cannot read the computer's client: {e}");
            return None;
        }
    };
    serde_json::from_str::<Vec<Requester>>(&text)
        .ok()
        .filter(|keys| !keys.is_empty())
}
