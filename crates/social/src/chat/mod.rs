//! Game chat: two rooms at every table game, `player` (its two players)
//! and `spectator` (anyone with an account may speak; everyone who is not
//! a player reads it). Players do not see the spectator room, as on
//! lichess. Lines are plain text of 1 to [`MAX_CHARS`] characters, stored
//! durably (`plyyard_store::ChatLineRow`) and counted against a quota that
//! the caller brings (the server's per-account and per-address limit).
//! Computer games have no chat.
//!
//! [`Chat::say`] checks and stores a line and hands it to the [`ChatHub`],
//! which delivers it to the game's open sockets and streams. [`LocalHub`]
//! is the in-process hub (one broadcast channel per game, created when
//! someone listens, dropped when nobody does); [`ClusterHub`] shares it
//! between the nodes of a cluster over the bus.

use std::future::Future;
use std::sync::Arc;

use plyyard_live::Games;
use plyyard_store::{ChatLineRow, PlayerId, Store, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{ChatLine, ChatRoom};

pub mod delivery;

pub use delivery::{ChatHub, ClusterHub, LocalHub};

/// The longest line, in characters.
pub const MAX_CHARS: usize = 140;
/// How many of a room's last lines are served.
pub const HISTORY: u32 = 200;

/// Who says a line: the player and their account id (`None`: anonymous,
/// who may only read).
#[derive(Debug, Clone)]
pub struct Speaker {
    /// The player.
    pub player: PlayerId,
    /// Their account's id, if logged in.
    pub account: Option<String>,
}

/// A line said: as the room reads it, and whether it is a shadow line
/// (its author is muted: stored and shown to them, delivered to nobody).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The line.
    pub line: ChatLine,
    /// Said while muted: only its author reads it.
    pub shadow: bool,
}

/// Game chat: its rules over the store, the live games (who sits where)
/// and the delivery to open sockets and streams.
#[derive(Debug, Clone)]
pub struct Chat {
    store: Store,
    live: Games,
    hub: Arc<dyn ChatHub>,
}

/// The text of a line, trimmed and checked.
///
/// # Errors
/// `bad_request` for an empty text, one over [`MAX_CHARS`] characters or
/// one with control characters.
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request("a chat line needs some text"));
    }
    let chars = text.chars().count();
    if chars > MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "a chat line has at most {MAX_CHARS} characters (this one has {chars})"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a chat line cannot hold control characters (line breaks, tabs …)",
        ));
    }
    if let Some(why) = crate::text::spoofing(text) {
        return Err(ApiError::bad_request(format!("a chat line: {why}")));
    }
    Ok(text.to_owned())
}

impl Chat {
    /// Chat over `store` and `live`, delivered by `hub`.
    pub fn new(store: Store, live: Games, hub: Arc<dyn ChatHub>) -> Chat {
        Chat { store, live, hub }
    }

    /// The delivery of lines to open sockets and streams.
    pub fn hub(&self) -> &Arc<dyn ChatHub> {
        &self.hub
    }

    /// The room `player` reads at game `id`: `player` for its two players,
    /// `spectator` for everyone else; `None` when the game has no chat (a
    /// computer game).
    ///
    /// # Errors
    /// `not_found` for an unknown game; the game actor's failures.
    pub async fn room_of(
        &self,
        game_id: &str,
        player: &PlayerId,
    ) -> Result<Option<ChatRoom>, ApiError> {
        let game = self.live.state(game_id, Some(player.clone())).await?;
        if game.kind == "computer" {
            return Ok(None);
        }
        Ok(Some(if game.you.is_some() {
            ChatRoom::Player
        } else {
            ChatRoom::Spectator
        }))
    }

    /// Says `text` in `room` of game `game_id`: checked, counted against the
    /// speaker's `quota` (awaited only once the line passed every other
    /// check), stored, then delivered — unless the speaker is muted: the
    /// line is then a shadow line, delivered to nobody (the caller shows
    /// it to its author). Nothing is stored when anything is refused.
    ///
    /// # Errors
    /// `not_logged_in` for an anonymous speaker; `bad_request` for a bad text
    /// or a game without chat; `forbidden` for the player room of someone
    /// else's game; `rate_limited` over the quota; `not_found` for an unknown
    /// game; a database failure.
    pub async fn say(
        &self,
        game_id: &str,
        speaker: &Speaker,
        room: ChatRoom,
        text: &str,
        quota: impl Future<Output = Result<(), ApiError>>,
    ) -> Result<Said, ApiError> {
        let Some(account) = &speaker.account else {
            return Err(ApiError::new(
                ErrorCode::NotLoggedIn,
                "log in to chat: anonymous players read the spectator room only",
            ));
        };
        let text = check_text(text)?;
        let Some(mine) = self.room_of(game_id, &speaker.player).await? else {
            return Err(ApiError::bad_request(
                "this game has no chat: chat is for games at a table",
            ));
        };
        if room == ChatRoom::Player && mine != ChatRoom::Player {
            return Err(ApiError::forbidden(
                "only the game's two players speak in the player room",
            ));
        }
        quota.await?;
        let author = self
            .store
            .account_row(account)
            .await?
            .ok_or_else(|| ApiError::new(ErrorCode::NotLoggedIn, "log in to chat"))?
            .account;
        let row = ChatLineRow {
            game_id: game_id.to_owned(),
            room: room.as_str().to_owned(),
            author: author.player_id,
            author_name: author.username,
            text,
            created_at: now_ms(),
        };
        let shadow = self.store.add_chat_line(&row).await?;
        let line = ChatLine {
            room,
            user: row.author_name,
            text: row.text,
        };
        if !shadow {
            self.hub.publish(game_id, line.clone());
        }
        Ok(Said { line, shadow })
    }

    /// The last [`HISTORY`] lines of `room` at game `game_id`, oldest
    /// first, as account `viewer` reads them (their own shadow lines
    /// included; nobody else's).
    ///
    /// # Errors
    /// A database failure.
    pub async fn history(
        &self,
        game_id: &str,
        room: ChatRoom,
        viewer: Option<&str>,
    ) -> Result<Vec<ChatLine>, ApiError> {
        let rows = self
            .store
            .chat_lines_for(game_id, room.as_str(), HISTORY, viewer)
            .await?;
        Ok(rows
            .into_iter()
            .map(|r| ChatLine {
                room,
                user: r.author_name,
                text: r.text,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_checked() {
        assert_eq!(check_text("  hi <b>there</b> ").unwrap(), "hi <b>there</b>");
        assert!(check_text("   ").is_err());
        assert!(check_text("a\nb").is_err());
        assert!(check_text("a\u{7}b").is_err());
        // Spoofing: zero-width, direction overrides, stacked marks.
        assert!(check_text("g\u{200B}g").is_err());
        assert!(check_text("\u{202E}gg").is_err());
        assert!(check_text("g\u{0301}\u{0301}\u{0301}g").is_err());
        let long: String = "é".repeat(MAX_CHARS);
        assert_eq!(check_text(&long).unwrap(), long);
        assert!(check_text(&format!("{long}x")).is_err());
    }
}
