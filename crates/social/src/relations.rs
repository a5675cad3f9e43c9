//! Follows and blocks between accounts, as on lichess: one follows a
//! player to see them online and find them again, and blocks a player to
//! hear nothing more from them (no challenges, messages or chat lines). A
//! block replaces one's follow of the player and ends theirs of oneself.
//!
//! [`Relations`] checks what may be done (nobody follows or blocks
//! themselves; nobody follows a player who blocks them) and keeps it in
//! the store, one transaction per change.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use plyyard_store::{Account, RelationKind, Store, now_ms};
use plyyard_wire::error::ApiError;

use crate::presence::Presence;

/// The most accounts one list (following, followers, blocked) shows.
pub const MAX_LISTED: u32 = 1000;
/// How long a [`Hidden`] trusts the blocks it looked up.
pub const HIDDEN_TTL: Duration = Duration::from_secs(3);

/// What an account holds about another, and the other about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Between {
    /// What the first holds about the second.
    pub out: Option<RelationKind>,
    /// What the second holds about the first.
    pub back: Option<RelationKind>,
}

/// Follows and blocks over the store.
#[derive(Debug, Clone)]
pub struct Relations {
    store: Store,
}

fn not_oneself(me: &Account, them: &Account, what: &str) -> Result<(), ApiError> {
    if me.player_id == them.player_id {
        return Err(ApiError::bad_request(format!("You cannot {what} yourself")));
    }
    Ok(())
}

impl Relations {
    /// Relations kept in `store`.
    pub fn new(store: Store) -> Relations {
        Relations { store }
    }

    /// What `me` and `them` hold about each other.
    ///
    /// # Errors
    /// A database failure.
    pub async fn between(&self, me: &str, them: &str) -> Result<Between, ApiError> {
        Ok(Between {
            out: self.store.relation(me, them).await?,
            back: self.store.relation(them, me).await?,
        })
    }

    /// Whether `owner` blocks `other`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn blocks(&self, owner: &str, other: &str) -> Result<bool, ApiError> {
        Ok(self.store.relation(owner, other).await? == Some(RelationKind::Block))
    }

    /// `me` follows `them` (again: nothing changes).
    ///
    /// # Errors
    /// `bad_request` for oneself; `forbidden` when `them` blocks `me`; a
    /// database failure.
    pub async fn follow(&self, me: &Account, them: &Account) -> Result<(), ApiError> {
        not_oneself(me, them, "follow")?;
        if self.blocks(&them.player_id, &me.player_id).await? {
            return Err(ApiError::forbidden(
                "This player does not accept followers from you",
            ));
        }
        self.store
            .set_relation(
                &me.player_id,
                &them.player_id,
                RelationKind::Follow,
                now_ms(),
            )
            .await?;
        Ok(())
    }

    /// `me` no longer follows `them` (nothing changes if it did not).
    ///
    /// # Errors
    /// `bad_request` for oneself; a database failure.
    pub async fn unfollow(&self, me: &Account, them: &Account) -> Result<(), ApiError> {
        not_oneself(me, them, "unfollow")?;
        self.store
            .end_relation(&me.player_id, &them.player_id, RelationKind::Follow)
            .await?;
        Ok(())
    }

    /// `me` blocks `them`: `me`'s follow of them becomes the block, and
    /// theirs of `me` ends.
    ///
    /// # Errors
    /// `bad_request` for oneself; a database failure.
    pub async fn block(&self, me: &Account, them: &Account) -> Result<(), ApiError> {
        not_oneself(me, them, "block")?;
        self.store
            .set_relation(
                &me.player_id,
                &them.player_id,
                RelationKind::Block,
                now_ms(),
            )
            .await?;
        Ok(())
    }

    /// `me` no longer blocks `them` (nothing changes if it did not).
    ///
    /// # Errors
    /// `bad_request` for oneself; a database failure.
    pub async fn unblock(&self, me: &Account, them: &Account) -> Result<(), ApiError> {
        not_oneself(me, them, "unblock")?;
        self.store
            .end_relation(&me.player_id, &them.player_id, RelationKind::Block)
            .await?;
        Ok(())
    }

    /// The accounts `player` follows, the latest followed first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn following(&self, player: &str) -> Result<Vec<Account>, ApiError> {
        Ok(self
            .store
            .related_by(player, RelationKind::Follow, MAX_LISTED)
            .await?)
    }

    /// The accounts that follow `player`, the latest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn followers(&self, player: &str) -> Result<Vec<Account>, ApiError> {
        Ok(self
            .store
            .related_to(player, RelationKind::Follow, MAX_LISTED)
            .await?)
    }

    /// The accounts `player` blocks, the latest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn blocked(&self, player: &str) -> Result<Vec<Account>, ApiError> {
        Ok(self
            .store
            .related_by(player, RelationKind::Block, MAX_LISTED)
            .await?)
    }

    /// How many accounts `player` follows, and how many follow it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn counts(&self, player: &str) -> Result<(u64, u64), ApiError> {
        Ok(self.store.follow_counts(player).await?)
    }

    /// The accounts `player` follows that are online now.
    ///
    /// # Errors
    /// A database failure.
    pub async fn online_followed(
        &self,
        player: &str,
        presence: &Presence,
    ) -> Result<Vec<Account>, ApiError> {
        let mut online = Vec::new();
        for a in self.following(player).await? {
            if presence.is_online(&a.username.to_lowercase()).await {
                online.push(a);
            }
        }
        online.sort_by_key(|a| a.username.to_lowercase());
        Ok(online)
    }
}

/// The authors whose chat lines a viewer does not see: the players the
/// viewer blocks, by name in lower case, looked up again when older than
/// [`HIDDEN_TTL`] (so that a block made during a game soon counts).
#[derive(Debug)]
pub struct Hidden {
    viewer: Option<String>,
    names: HashSet<String>,
    at: Option<Instant>,
}

impl Hidden {
    /// What `viewer` (an account's player id; `None`: anonymous, who
    /// blocks nobody) does not see.
    pub fn new(viewer: Option<String>) -> Hidden {
        Hidden {
            viewer,
            names: HashSet::new(),
            at: None,
        }
    }

    /// Whether a line by `author` (a username) is hidden from the viewer.
    /// A failed look-up hides nothing.
    pub async fn hides(&mut self, relations: &Relations, author: &str) -> bool {
        let Some(viewer) = &self.viewer else {
            return false;
        };
        if self.at.is_none_or(|at| at.elapsed() >= HIDDEN_TTL) {
            match relations.blocked(viewer).await {
                Ok(list) => {
                    self.names = list.iter().map(|a| a.username.to_lowercase()).collect();
                }
                Err(e) => tracing::warn!("chat: the blocks of a viewer cannot be read: {e:?}"),
            }
            self.at = Some(Instant::now());
        }
        self.names.contains(&author.to_lowercase())
    }
}
