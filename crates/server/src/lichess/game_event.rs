//! The event stream's `gameStart` and `gameFinish`: a game as one of its
//! players sees it ([`game_json::player_game`]), from the live game's
//! state.

use serde_json::{Value, json};

use super::game_json;
use crate::state::Shared;
use plyyard_game::shakmaty::Color;
use plyyard_store::PlayerId;

/// The event `kind` (`gameStart`, `gameFinish`) of game `id` for
/// `player`, or `None` when the game is gone or `player` does not play it.
pub async fn game_event(state: &Shared, kind: &str, id: &str, player: &PlayerId) -> Option<Value> {
    let viewer = Some(player.clone());
    let g = state.live.state(id, viewer.clone()).await.ok()?;
    let me = match g.you.as_deref()? {
        "white" => Color::White,
        _ => Color::Black,
    };
    let players = game_json::players(&state.store, &g).await.ok()?;
    let game = game_json::player_game(&g, me, &player.0, &players);
    Some(json!({"type": kind, "game": game}))
}
