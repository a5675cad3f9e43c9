//! Owns a tournament's chat. An Arena's: any logged-in account may read
//! and say lines while the Arena has its chat on (the creator's
//! `hasChat`). A Swiss's: who its `chatFor` lets in (lichess's: 0 nobody,
//! 10 the club's leaders, 20 its members, 30 any logged-in account). Lines
//! are stored with the other chats (`plyyard_store::chat`), under the
//! tournament's id in room [`CHAT_ROOM`], and checked as every chat line is
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
    /// `player` (named `name`) says `text` in tournament `id`'s chat at
    /// `now`.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for a bad line or a tournament without
    /// a chat; [`TournamentError::Forbidden`] for a Swiss's chat `player`
    /// may not use; [`TournamentError::NotFound`]; a store failure.
    pub async fn say(
        &self,
        id: &str,
        player: &str,
        name: &str,
        text: &str,
        now: Timestamp,
    ) -> Result<ChatLineRow, TournamentError> {
        self.chat_room(id, player).await?;
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

    /// The last [`CHAT_HISTORY`] lines of tournament `id`'s chat, oldest
    /// first, as `player` may read them.
    ///
    /// # Errors
    /// As [`Tournaments::say`], but for the line.
    pub async fn chat(&self, id: &str, player: &str) -> Result<Vec<ChatLineRow>, TournamentError> {
        self.chat_room(id, player).await?;
        // The viewer reads the lines they said while muted; nobody else does.
        let viewer = Some(player);
        Ok(self
            .deps
            .store
            .chat_lines_for(id, CHAT_ROOM, CHAT_HISTORY, viewer)
            .await?)
    }

    /// Whether `player` may use tournament `id`'s chat.
    async fn chat_room(&self, id: &str, player: &str) -> Result<(), TournamentError> {
        let no_chat = || TournamentError::Invalid("this tournament has no chat".into());
        match self.get(id).await {
            Ok(arena) => return arena.settings.has_chat().then_some(()).ok_or_else(no_chat),
            Err(TournamentError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
        let swiss = self.swiss(id).await?;
        let clubs = &self.deps.clubs;
        let club = swiss.club();
        let club_error = |e: plyyard_clubs::ClubError| TournamentError::Invalid(e.to_string());
        let allowed = match swiss.settings.chat_for {
            0 => return Err(no_chat()),
            10 => clubs.is_leader(club, player).await.map_err(club_error)?,
            20 => clubs.is_member(club, player).await.map_err(club_error)?,
            _ => true,
        };
        if allowed {
            Ok(())
        } else if swiss.settings.chat_for == 10 {
            Err(TournamentError::Forbidden(format!(
                "this chat is for the leaders of {club}"
            )))
        } else {
            Err(TournamentError::Forbidden(format!(
                "this chat is for the members of {club}"
            )))
        }
    }
}
