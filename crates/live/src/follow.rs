//! Following one game's events ([`Follow`]), the loop every socket and
//! stream of a game runs: subscribe, catch up from the version the client
//! has, then hand on each new event once and in order; after a gap (a
//! slow follower lost events) or a new actor (the game was reloaded, here
//! or on another node), subscribe again from the version reached, and
//! tell a new actor that the follower's player is here.
//!
//! [`Follow::next`] is cancel-safe: it can stand in a `select!` beside the
//! client's own messages and a shutdown signal.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::broadcast;

use crate::cmd::Subscription;
use crate::feed::{CatchUp, Event};
use crate::games::Games;
use crate::seat::Seats;
use plyyard_store::PlayerId;
use plyyard_wire::error::ApiError;
use plyyard_wire::protocol::GameState;

/// What a follower gets next.
#[derive(Debug, Clone)]
pub enum Update {
    /// The event right after the follower's version.
    Event(Arc<Event>),
    /// The whole state: the follower's version was unknown, too old or
    /// ahead of the game's.
    Full(Arc<GameState>),
}

/// Why the subscription has to be made again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lost {
    /// Events were missed (a slow follower, or a version skipped).
    Gap,
    /// The game's actor stopped: a new one has to learn who is here.
    Actor,
}

/// One follower of a game's events.
#[derive(Debug)]
pub struct Follow {
    games: Games,
    id: String,
    events: broadcast::Receiver<Arc<Event>>,
    seats: Seats,
    /// The version the follower has.
    v: u64,
    /// The player announced as here (told again to a new actor, and told
    /// gone when the follower ends).
    here: Option<PlayerId>,
    lost: Option<Lost>,
    queue: VecDeque<Update>,
}

impl Follow {
    /// Follows game `id` from version `since` (`None`: the whole state
    /// first).
    ///
    /// # Errors
    /// The game cannot be followed (`not_found`, or its server cannot be
    /// reached).
    pub async fn start(games: &Games, id: &str, since: Option<u64>) -> Result<Follow, ApiError> {
        let Subscription {
            catch_up,
            events,
            seats,
        } = games.subscribe(id, since).await?;
        let mut follow = Follow {
            games: games.clone(),
            id: id.to_owned(),
            events,
            seats,
            v: since.unwrap_or(0),
            here: None,
            lost: None,
            queue: VecDeque::new(),
        };
        follow.catch_up(catch_up);
        Ok(follow)
    }

    /// Who plays the game.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The version the follower has reached.
    pub fn v(&self) -> u64 {
        self.v
    }

    /// Tells the game that `player` is here (a seated player's socket or
    /// stream): now, again to a new actor, and gone when this follower
    /// ends.
    pub fn here(&mut self, player: PlayerId) {
        self.games.presence(&self.id, player.clone(), true);
        self.here = Some(player);
    }

    /// The client says it has version `v`: follows again from there.
    ///
    /// # Errors
    /// The game cannot be followed any more.
    pub async fn sync(&mut self, v: u64) -> Result<(), ApiError> {
        self.v = v;
        self.queue.clear();
        self.lost = Some(Lost::Gap);
        let sub = self.subscribe().await?;
        self.lost = None;
        self.take(sub);
        Ok(())
    }

    /// The next update already here (what the follower missed), without
    /// waiting for the game.
    pub fn ready(&mut self) -> Option<Update> {
        self.queue.pop_front()
    }

    /// The next update, in order and once; waits for the game's next
    /// change.
    ///
    /// # Errors
    /// The game cannot be followed any more (it could not be subscribed
    /// to again).
    pub async fn next(&mut self) -> Result<Update, ApiError> {
        loop {
            if let Some(u) = self.queue.pop_front() {
                return Ok(u);
            }
            if let Some(lost) = self.lost {
                // `lost` is cleared only once subscribed: cancelled here,
                // the next call subscribes again.
                let sub = self.subscribe().await?;
                self.lost = None;
                self.take(sub);
                if lost == Lost::Actor
                    && let Some(p) = &self.here
                {
                    self.games.presence(&self.id, p.clone(), true);
                }
                continue;
            }
            match self.events.recv().await {
                Ok(e) if e.v <= self.v => {}
                Ok(e) if e.v == self.v + 1 => {
                    self.v = e.v;
                    return Ok(Update::Event(e));
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => self.lost = Some(Lost::Gap),
                Err(broadcast::error::RecvError::Closed) => self.lost = Some(Lost::Actor),
            }
        }
    }

    /// Subscribes again from the follower's version. Boxed: the ask may
    /// cross nodes and its future is large, while [`Follow::next`] waits
    /// in every socket's `select!` and mostly for an event.
    async fn subscribe(&self) -> Result<Subscription, ApiError> {
        Box::pin(self.games.subscribe(&self.id, Some(self.v))).await
    }

    /// Takes a (new) subscription: its events from now on, and what the
    /// follower missed, queued.
    fn take(&mut self, sub: Subscription) {
        self.events = sub.events;
        self.seats = sub.seats;
        self.catch_up(sub.catch_up);
    }

    /// Queues what the follower missed.
    fn catch_up(&mut self, catch_up: CatchUp) {
        match catch_up {
            CatchUp::UpToDate => {}
            CatchUp::Events(events) => {
                for e in events {
                    if e.v == self.v + 1 {
                        self.v = e.v;
                        self.queue.push_back(Update::Event(e));
                    }
                }
            }
            CatchUp::Full(game) => {
                self.v = game.v;
                self.queue.push_back(Update::Full(game));
            }
        }
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        if let Some(p) = self.here.take() {
            self.games.presence(&self.id, p, false);
        }
    }
}
