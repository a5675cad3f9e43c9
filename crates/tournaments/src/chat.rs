//! Owns an Arena's chat: any logged-in account may read and say lines
//! while the Arena has its chat on (the creator's `hasChat`). Lines are
//! stored with the other chats (`plyyard_store::chat`), under the Arena's
//! id in room [`CHAT_ROOM`], and checked as every chat line is
//! (`plyyard_social::chat::check_text`).

use plyyard_arena::Timestamp;
use plyyard_store::ChatLineRow;

use crate::error::TournamentError;
use crate::service::Tournaments;

/// Lines of an Arena's chat kept and shown.
pub const CHAT_HISTORY: u32 = 100;
/// The chat room an Arena's lines are stored under.
const CHAT_ROOM: &str = "tournament";

impl Tournaments {
    /// `player` (named `name`) says `text` in Arena `id`'s chat at `now`.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for a bad line or an Arena without a
    /// chat; [`TournamentError::NotFound`]; a store failure.
    pub async fn say(
        &self,
        id: &str,
        player: &str,
        name: &str,
        text: &str,
        now: Timestamp,
    ) -> Result<ChatLineRow, TournamentError> {
        self.chat_room(id).await?;
        let text = plyyard_social::chat::check_text(text)
            .map_err(|e| TournamentError::Invalid(e.message))?;
        let line = ChatLineRow {
            game_id: id.to_owned(),
            room: CHAT_ROOM.to_owned(),
            author: player.to_owned(),
            author_name: name.to_owned(),
            text,
            created_at: now.millis(),
        };
        self.deps.store.add_chat_line(&line).await?;
        Ok(line)
    }

    /// The last [`CHAT_HISTORY`] lines of Arena `id`'s chat, oldest first.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for an Arena without a chat;
    /// [`TournamentError::NotFound`]; a store failure.
    pub async fn chat(&self, id: &str) -> Result<Vec<ChatLineRow>, TournamentError> {
        self.chat_for(id, None).await
    }

    /// [`Tournaments::chat`] as account `viewer` reads it: with the lines
    /// they said while muted, which nobody else reads.
    ///
    /// # Errors
    /// As [`Tournaments::chat`].
    pub async fn chat_for(
        &self,
        id: &str,
        viewer: Option<&str>,
    ) -> Result<Vec<ChatLineRow>, TournamentError> {
        self.chat_room(id).await?;
        Ok(self
            .deps
            .store
            .chat_lines_for(id, CHAT_ROOM, CHAT_HISTORY, viewer)
            .await?)
    }

    async fn chat_room(&self, id: &str) -> Result<(), TournamentError> {
        if self.get(id).await?.settings.has_chat() {
            Ok(())
        } else {
            Err(TournamentError::Invalid(
                "this tournament has no chat".into(),
            ))
        }
    }
}
