//! Stored games: their ids, the rows a change writes ([`summary_of`],
//! [`move_row`]), and rebuilding a [`Game`] from its rows ([`rebuild`]).

use plyyard_game::{Game, GameResult, PlayedMove, Reason, RuleSet, Variant};
use rand::Rng;

use crate::rows::{GameRow, GameStatus, GameSummary, MoveRow};

/// Length of generated game ids.
const GAME_ID_LEN: usize = 8;

/// A new random game id (base62).
pub fn new_game_id() -> String {
    rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(GAME_ID_LEN)
        .map(char::from)
        .collect()
}

/// Whether `id` can be a game id (checked before asking the database).
pub fn valid_game_id(id: &str) -> bool {
    id.len() == GAME_ID_LEN && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Replays a stored game.
pub fn rebuild(row: &GameRow, moves: &[MoveRow]) -> Result<Game, String> {
    let mut game = start_of(row)?;
    for (i, m) in moves.iter().enumerate() {
        if m.ply as usize != i + 1 {
            return Err(format!("moves are not contiguous at ply {}", m.ply));
        }
        let mv = game
            .parse_uci(&m.uci)
            .map_err(|e| format!("stored move {}: {e}", m.ply))?;
        let clock = m.clock_ms.and_then(|c| u64::try_from(c).ok());
        game.play_with(mv, clock, m.draw_offer)
            .map_err(|e| format!("stored move {}: {e}", m.ply))?;
        if m.blur {
            game.mark_blur();
        }
    }
    if row.summary.status == GameStatus::Ended && game.outcome().is_none() {
        restore_ending(row, &mut game)?;
    }
    if game.ply() != row.summary.plies as usize {
        return Err(format!(
            "{} moves stored for {} plies",
            game.ply(),
            row.summary.plies
        ));
    }
    Ok(game)
}

/// The starting position of a stored game.
pub(crate) fn start_of(row: &GameRow) -> Result<Game, String> {
    let rules: RuleSet = row.rules;
    match (row.variant, row.position) {
        (Variant::Chess960, Some(n)) => Game::chess960(n, rules).map_err(|e| e.to_string()),
        (Variant::Chess960, None) => {
            Game::from_fen_with(&row.initial_fen, rules, true).map_err(|e| e.to_string())
        }
        (Variant::Standard, _) => {
            let g = Game::new(rules);
            if g.initial_fen() == row.initial_fen {
                Ok(g)
            } else {
                Game::from_fen(&row.initial_fen, rules).map_err(|e| e.to_string())
            }
        }
    }
}

/// Ends `game` as the stored summary says, for endings the board does not
/// show (resignation, time, abandonment, agreement, abort).
fn restore_ending(row: &GameRow, game: &mut Game) -> Result<(), String> {
    let reason = row
        .summary
        .reason
        .ok_or_else(|| "an ended game without a reason".to_owned())?;
    let drawn = row.summary.result == GameResult::Draw;
    let done = match reason {
        // The flag falls for the side to move.
        Reason::TimeoutVsInsufficientMaterial => Some(game.flag(game.turn())),
        Reason::Agreement => Some(game.accept_draw()),
        Reason::Aborted => Some(game.abort()),
        Reason::Abandonment if drawn => Some(game.abandon_drawn()),
        _ => None,
    };
    if let Some(done) = done {
        return done.map(drop).map_err(|e| e.to_string());
    }
    let loser = match row.summary.result.winner() {
        Some(winner) => !winner,
        None => {
            return Err(format!(
                "result {} does not fit {reason}",
                row.summary.result
            ));
        }
    };
    match reason {
        Reason::Resignation => game.resign(loser),
        Reason::Timeout => game.flag(loser),
        Reason::Abandonment => game.abandon(loser),
        other => return Err(format!("cannot restore an ending by {other}")),
    }
    .map(drop)
    .map_err(|e| e.to_string())
}

/// The stored summary of `game` at `version`, written at `now` (Unix ms).
pub fn summary_of(game: &Game, version: u64, now: i64) -> GameSummary {
    let outcome = game.outcome();
    GameSummary {
        status: if outcome.is_some() {
            GameStatus::Ended
        } else {
            GameStatus::Ongoing
        },
        result: outcome.map_or(GameResult::Aborted, |o| o.result),
        reason: outcome.map(|o| o.reason),
        plies: u32::try_from(game.ply()).unwrap_or(u32::MAX),
        version,
        updated_at: now,
    }
}

/// The stored row of move `p`, played at `ply`.
pub fn move_row(ply: usize, p: &PlayedMove) -> MoveRow {
    MoveRow {
        ply: u32::try_from(ply).unwrap_or(u32::MAX),
        uci: p.uci.clone(),
        san: p.san.clone(),
        clock_ms: p.clock_ms.and_then(|c| i64::try_from(c).ok()),
        draw_offer: p.draw_offer,
        blur: p.blur,
    }
}

#[cfg(test)]
mod tests {
    use plyyard_game::shakmaty::Color;

    use super::*;
    use crate::rows::GameKind;

    #[test]
    fn stored_games_replay_including_resignations() {
        let mut g = Game::new(RuleSet::Fide);
        g.play_uci("e2e4").unwrap();
        g.resign(Color::Black).unwrap();
        let row = GameRow {
            id: "abcdefgh".into(),
            kind: GameKind::Computer,
            white_player: Some("p".into()),
            black_player: None,
            level: Some(plyyard_engine::Level::Easy),
            rules: RuleSet::Fide,
            variant: Variant::Standard,
            position: None,
            initial_fen: g.initial_fen(),
            summary: summary_of(&g, 2, 0),
            created_at: 0,
            table: None,
            clock: None,
        };
        let moves = vec![move_row(1, &g.history()[0])];
        let back = rebuild(&row, &moves).unwrap();
        assert_eq!(back.outcome(), g.outcome());
        assert_eq!(back.fen(), g.fen());
        let mut wrong = row.clone();
        wrong.summary.plies = 3;
        assert!(rebuild(&wrong, &moves).is_err());
    }

    #[test]
    fn ids_are_well_formed() {
        let id = new_game_id();
        assert!(valid_game_id(&id));
        assert!(!valid_game_id("../etc"));
    }
}
