//! The door to live games for everyone outside this crate: [`Games`], with
//! one typed method per thing a caller may ask of a game (its state, a
//! subscription to its events, a player's action, its PGN …) and the
//! entry points that create games. Behind it every question becomes an
//! [`Ask`] routed to the game's actor, here or on the node that owns it;
//! the mailbox itself is private to this crate.

use std::sync::Arc;

use plyyard_store::{PlayerId, TableRow};
use plyyard_wire::error::ApiError;
use plyyard_wire::protocol::{GameState, NewComputerGame};

use crate::ask::{Action, Ask, Reply};
use crate::cmd::Subscription;
use crate::hub::{self, LiveDeps};
use crate::start::{self, PairedGame};
use plyyard_engine_time::fair::Requester;

/// The live games of this node (and, in a cluster, the way to every other
/// node's): cheap to clone.
#[derive(Debug, Clone)]
pub struct Games {
    deps: Arc<LiveDeps>,
}

/// A reply of the wrong kind: a defect of the actor, never a client's.
fn mismatched(reply: &Reply) -> ApiError {
    ApiError::internal(format!("a game answered out of turn: {reply:?}"))
}

impl Games {
    /// The games over `deps`.
    pub fn new(deps: Arc<LiveDeps>) -> Games {
        Games { deps }
    }

    /// What the live games share (storage, engines, metrics, the life feed).
    pub fn deps(&self) -> &Arc<LiveDeps> {
        &self.deps
    }

    /// Checks that game `id` exists, loading it (in a cluster, where nobody
    /// owns it) so that its deadlines run.
    ///
    /// # Errors
    /// `not_found` if there is no such game; `internal` if it cannot be
    /// loaded.
    pub async fn exists(&self, id: &str) -> Result<(), ApiError> {
        hub::route(&self.deps, id).await.map(|_| ())
    }

    /// Game `id` as `viewer` sees it.
    ///
    /// # Errors
    /// See [`hub::request`].
    pub async fn state(&self, id: &str, viewer: Option<PlayerId>) -> Result<GameState, ApiError> {
        match hub::request(&self.deps, id, Ask::State { viewer }).await? {
            Reply::State { game } => Ok(*game),
            other => Err(mismatched(&other)),
        }
    }

    /// Subscribes to game `id`'s events, catching up from version `since`.
    ///
    /// # Errors
    /// See [`hub::request`].
    pub async fn subscribe(&self, id: &str, since: Option<u64>) -> Result<Subscription, ApiError> {
        match hub::request(&self.deps, id, Ask::Subscribe { since }).await? {
            Reply::Subscribed {
                catch_up,
                seats,
                events: Some(events),
            } => Ok(Subscription {
                catch_up,
                events,
                seats,
            }),
            other => Err(mismatched(&other)),
        }
    }

    /// `player` does `action` at game `id`: the new version once committed.
    ///
    /// # Errors
    /// The game's refusal (not your turn, an illegal move …); see also
    /// [`hub::request`].
    pub async fn act(&self, id: &str, player: PlayerId, action: Action) -> Result<u64, ApiError> {
        match hub::request(&self.deps, id, action.by(player)).await? {
            Reply::Version { result } => result,
            other => Err(mismatched(&other)),
        }
    }

    /// Game `id` as PGN.
    ///
    /// # Errors
    /// See [`hub::request`].
    pub async fn pgn(&self, id: &str) -> Result<String, ApiError> {
        match hub::request(&self.deps, id, Ask::Pgn).await? {
            Reply::Pgn { pgn } => Ok(pgn),
            other => Err(mismatched(&other)),
        }
    }

    /// The seats of `from` at game `id` now belong to `to`.
    ///
    /// # Errors
    /// See [`hub::request`].
    pub async fn reseat(&self, id: &str, from: PlayerId, to: PlayerId) -> Result<(), ApiError> {
        match hub::request(&self.deps, id, Ask::Reseat { from, to }).await? {
            Reply::Done => Ok(()),
            other => Err(mismatched(&other)),
        }
    }

    /// Tells game `id` that a socket of `player` opened (`here`) or closed,
    /// without waiting; a game in nobody's memory has nobody to tell.
    pub fn presence(&self, id: &str, player: PlayerId, here: bool) {
        hub::notify(&self.deps, id, Ask::Presence { player, here });
    }

    /// Tells every loaded game that `player`'s seats now show who `player`
    /// is (after an account was deleted, say).
    pub async fn refresh_seats(&self, player: &PlayerId) {
        hub::refresh_seats(&self.deps, player).await;
    }

    /// A new game against the computer; see [`start::create_computer_game`].
    ///
    /// # Errors
    /// See [`start::create_computer_game`].
    pub async fn create_computer_game(
        &self,
        player: &PlayerId,
        client: Vec<Requester>,
        req: NewComputerGame,
    ) -> Result<GameState, ApiError> {
        start::create_computer_game(&self.deps, player, client, req).await
    }

    /// The game of a table `guest` just joined; see
    /// [`start::start_table_game`].
    ///
    /// # Errors
    /// See [`start::start_table_game`].
    pub async fn start_table_game(
        &self,
        table: &TableRow,
        guest: &PlayerId,
    ) -> Result<Option<String>, ApiError> {
        start::start_table_game(&self.deps, table, guest).await
    }

    /// The game of two paired seekers; see [`start::start_paired_game`].
    ///
    /// # Errors
    /// See [`start::start_paired_game`].
    pub async fn start_paired_game(&self, table: &TableRow) -> Result<PairedGame, ApiError> {
        start::start_paired_game(&self.deps, table).await
    }

    /// The game of an accepted challenge; see [`start::start_challenge_game`].
    ///
    /// # Errors
    /// See [`start::start_challenge_game`].
    pub async fn start_challenge_game(
        &self,
        challenge_id: &str,
        table: &TableRow,
        white: String,
        black: String,
    ) -> Result<Option<String>, ApiError> {
        start::start_challenge_game(&self.deps, challenge_id, table, white, black).await
    }

    /// A game of a tournament; see [`start::start_tournament_game`].
    ///
    /// # Errors
    /// See [`start::start_tournament_game`].
    pub async fn start_tournament_game(
        &self,
        table: &TableRow,
        pairing: &plyyard_store::PairingRow,
    ) -> Result<Option<String>, ApiError> {
        start::start_tournament_game(&self.deps, table, pairing).await
    }
}
