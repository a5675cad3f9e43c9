//! Owns [`ArenaGame`]: one finished Arena game seen from one player — what
//! the sheet, the performance and the colour history are built from.

use crate::colour::Colour;
use serde::{Deserialize, Serialize};

/// How a game ended for this player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player won (also when the opponent never moved).
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
    /// The player left the game unplayed (never moved, or was away when it
    /// started): it counts as lost.
    Forfeit,
}

impl Outcome {
    /// Whether this is a win.
    pub const fn is_win(self) -> bool {
        matches!(self, Outcome::Win)
    }
}

/// One finished game from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// How it ended for the player.
    pub outcome: Outcome,
    /// Plies played in the game (both sides).
    pub plies: u16,
    /// Whether the player went berserk.
    pub berserk: bool,
    /// The player's colour.
    pub colour: Colour,
    /// The opponent's rating when the game started.
    pub opponent_rating: u16,
}
