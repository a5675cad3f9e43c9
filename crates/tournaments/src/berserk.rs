//! Owns berserk at run time: a player of an Arena game halves their own
//! clock and gives up their increment before their first move (the rules
//! are `plyyard_arena::go_berserk`'s), the live game's clock is changed
//! through `plyyard-live`, and the pairing records it so that their sheet
//! adds the berserk point on a long enough win.

use std::time::Duration;

use plyyard_arena::{Colour, go_berserk};
use plyyard_live::Action;
use plyyard_store::{PairingStatus, PlayerId};

use crate::error::TournamentError;
use crate::service::Tournaments;

impl Tournaments {
    /// `player` goes berserk in Arena game `game_id`.
    ///
    /// # Errors
    /// [`TournamentError::NotFound`] for a game of no Arena;
    /// [`TournamentError::Forbidden`] for someone not playing it;
    /// [`TournamentError::Invalid`] when the Arena does not allow it, the
    /// clock has no base time, the player has moved, is berserk already,
    /// or the game is over; a store failure. The clock is unchanged then.
    pub async fn berserk(&self, game_id: &str, player: &str) -> Result<(), TournamentError> {
        let Some((arena, pairing)) = self.of_game(game_id).await? else {
            return Err(TournamentError::NotFound(
                game_id.chars().take(16).collect(),
            ));
        };
        let (colour, already) = if pairing.white == player {
            (Colour::White, pairing.white_berserk)
        } else if pairing.black == player {
            (Colour::Black, pairing.black_berserk)
        } else {
            return Err(TournamentError::Forbidden(
                "you are not a player of this game".into(),
            ));
        };
        if pairing.status != PairingStatus::Playing {
            return Err(TournamentError::Invalid("the game is over".into()));
        }
        let live = &self.deps.live;
        let state = live
            .state(game_id, None)
            .await
            .map_err(|e| TournamentError::Invalid(e.message))?;
        let plies = u16::try_from(state.ply).unwrap_or(u16::MAX);
        let clock = go_berserk(&arena.settings, colour, plies, already)
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        let time = Duration::from_millis(u64::from(clock.base_millis));
        live.act(
            game_id,
            PlayerId(player.to_owned()),
            Action::Berserk { time },
        )
        .await
        .map_err(|e| TournamentError::Invalid(e.message))?;
        // The clock changed: record it for the sheet (a failure here costs
        // the player the bonus point, never a clock left unpaid).
        if !self
            .deps
            .store
            .set_tournament_berserk(game_id, player)
            .await?
        {
            tracing::warn!(game = %game_id, %player, "berserk not recorded");
        }
        tracing::info!(game = %game_id, %player, "berserk");
        Ok(())
    }
}
