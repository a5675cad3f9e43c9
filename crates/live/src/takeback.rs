//! Takebacks: a player asks to take back their last move, the opponent
//! accepts or declines. Only at casual table games outside tournaments
//! (against the computer, asking is taking back: [`LiveGame::undo`]).
//! The first two plies are never taken back (the clocks start with them).
//! An asking lives in memory like a draw held for a move, and any move
//! drops it. This module decides; the actor commits.

use plyyard_game::Game;
use plyyard_game::shakmaty::Color;

use super::game::LiveGame;
use plyyard_store::PlayerId;
use plyyard_wire::error::{ApiError, ErrorCode};

/// What a player's `takeback/yes` or `takeback/no` does.
#[derive(Debug)]
pub(super) enum TakebackStep {
    /// The asking is accepted: the game with the asker's last move (and
    /// any reply) taken back, and the side to move now (the asker).
    Accepted(Box<Game>, Color),
    /// The asking changes (asked, declined or withdrawn): who asks now.
    Asking(Option<Color>),
}

/// Plies always kept: the clocks start with the first two moves.
const KEPT_PLIES: usize = 2;

impl LiveGame {
    /// `player` asks for or accepts a takeback (`yes`), or declines or
    /// withdraws one; `in_tournament` tells whether the game belongs to a
    /// tournament (where takebacks are never allowed).
    pub(super) fn takeback(
        &self,
        player: &PlayerId,
        yes: bool,
        in_tournament: bool,
    ) -> Result<TakebackStep, ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        let Some(table) = self.people_table() else {
            return Err(ApiError::new(
                ErrorCode::NothingToUndo,
                "against the computer, take a move back with undo",
            ));
        };
        if table.is_rated() || in_tournament {
            return Err(ApiError::bad_request(
                "takebacks are only for casual games outside tournaments",
            ));
        }
        let asking = table.takeback();
        match (yes, asking) {
            (true, Some(by)) if by == color => Err(ApiError::bad_request(
                "you have asked for a takeback already: wait for the answer",
            )),
            (true, Some(by)) => {
                let next = taken_back(&self.game, by)?;
                Ok(TakebackStep::Accepted(Box::new(next), by))
            }
            (true, None) => {
                taken_back(&self.game, color)?;
                Ok(TakebackStep::Asking(Some(color)))
            }
            (false, Some(_)) => Ok(TakebackStep::Asking(None)),
            (false, None) => Err(ApiError::new(
                ErrorCode::NothingToUndo,
                "no takeback to decline",
            )),
        }
    }
}

/// `game` with `by`'s last move taken back, and the opponent's reply if
/// they made one: `by` is to move again.
fn taken_back(game: &Game, by: Color) -> Result<Game, ApiError> {
    let nothing = || {
        ApiError::new(
            ErrorCode::NothingToUndo,
            "you have no move to take back (the first moves stay)",
        )
    };
    let plies = if game.turn() == by { 2 } else { 1 };
    if game.ply() < KEPT_PLIES + plies {
        return Err(nothing());
    }
    let mut next = game.clone();
    for _ in 0..plies {
        next.take_back().ok_or_else(nothing)?;
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(moves: &[&str]) -> Game {
        let mut g = Game::new(plyyard_game::RuleSet::PlyYard);
        for m in moves {
            let mv = g.parse_uci(m).unwrap();
            g.play(mv).unwrap();
        }
        g
    }

    #[test]
    fn the_asker_is_to_move_again_and_the_first_moves_stay() {
        let g = played(&["e2e4", "e7e5", "g1f3"]);
        // White just moved: one ply back.
        let back = taken_back(&g, Color::White).unwrap();
        assert_eq!((back.ply(), back.turn()), (2, Color::White));
        // Black is to move: its last move and White's reply go.
        assert!(taken_back(&g, Color::Black).is_err());
        let g = played(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]);
        let back = taken_back(&g, Color::Black).unwrap();
        assert_eq!((back.ply(), back.turn()), (3, Color::Black));
        // Only the first two plies: nothing to take back.
        assert!(taken_back(&played(&["e2e4", "e7e5"]), Color::Black).is_err());
        assert!(taken_back(&played(&["e2e4", "e7e5"]), Color::White).is_err());
    }
}
