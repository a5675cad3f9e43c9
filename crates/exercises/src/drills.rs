//! Mate drills: the player mates a lone king with king and queen or king
//! and rook; the lone king defends as well as the [`tablebase`] allows.
//!
//! The server keeps no drill state: the page sends the position and its
//! move, the rules core checks the move, and the answer carries the new
//! position, the defence, and the distance to mate before and after.

use plyyard_game::shakmaty::{Chess, EnPassantMode, Move, Position, fen::Fen};
use plyyard_game::{Game, Reason, RuleSet};
use serde::Serialize;

use super::tablebase::{Ending, Placement, Table, Value};

/// Longest FEN accepted.
pub const MAX_FEN: usize = 128;

/// A drill's starting position.
#[derive(Debug, Clone, Serialize)]
pub struct Drill {
    /// Stable id (`kqk-1`).
    pub id: String,
    /// `kqk` or `krk`.
    pub kind: &'static str,
    /// The start, White (the player) to move.
    pub fen: String,
    /// Moves to mate against best defence.
    pub fewest: u32,
}

/// The starting positions, White to move: kings apart, the lone king in
/// the open (the solver gives each its `fewest`).
const STARTS: &[(Ending, &str)] = &[
    (Ending::Kqk, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
    (Ending::Kqk, "8/8/3k4/8/8/8/8/Q5K1 w - - 0 1"),
    (Ending::Kqk, "8/2k5/8/8/8/8/6Q1/6K1 w - - 0 1"),
    (Ending::Kqk, "8/8/8/8/3k4/8/8/K6Q w - - 0 1"),
    (Ending::Krk, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
    (Ending::Krk, "8/8/3k4/8/8/8/8/6KR w - - 0 1"),
    (Ending::Krk, "8/5k2/8/8/8/8/1R6/1K6 w - - 0 1"),
    (Ending::Krk, "8/8/8/8/4k3/8/8/R6K w - - 0 1"),
];

fn start_position(fen: &str) -> Chess {
    Game::from_fen(fen, RuleSet::PlyYard)
        .expect("drill starts are legal")
        .position()
        .clone()
}

/// Every drill with its `fewest` (solves the tables on first use).
pub fn drills() -> Vec<Drill> {
    let mut n = [0, 0];
    STARTS
        .iter()
        .map(|&(ending, fen)| {
            let k = &mut n[usize::from(ending == Ending::Krk)];
            *k += 1;
            let fewest = Table::get(ending)
                .probe(&start_position(fen))
                .and_then(Value::moves)
                .expect("drill starts are won");
            Drill {
                id: format!("{}-{k}", ending.as_str()),
                kind: ending.as_str(),
                fen: fen.to_owned(),
                fewest,
            }
        })
        .collect()
}

/// A move played by either side, as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Played {
    /// UCI.
    pub uci: String,
    /// English SAN with `+`/`#`.
    pub san: String,
}

/// The answer to a drill move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DrillMove {
    /// The position after the player's move and the defence.
    pub fen: String,
    /// The player's move in SAN.
    pub san: String,
    /// `ongoing`, or why the drill ended (`checkmate`, `stalemate`,
    /// `insufficient_material`, `fifty_moves`).
    pub status: &'static str,
    /// Whether the drill ended without mate.
    pub failed: bool,
    /// The lone king's move, if the drill goes on.
    pub reply: Option<Played>,
    /// Moves to mate from `fen` with best play (`None` once over).
    pub mate_in: Option<u32>,
    /// Moves to mate from the position the player moved in.
    pub mate_in_before: u32,
}

/// Why a drill move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrillError {
    /// The FEN is unreadable, illegal, or not a drill position.
    #[error("{0}")]
    NotADrill(String),
    /// The move is malformed or illegal in the position.
    #[error("{0}")]
    Illegal(String),
}

/// The ending of `pos` if it is a drill position: K+Q or K+R against a
/// lone king, the strong side to move, not yet over.
fn drill_ending(pos: &Chess) -> Option<Ending> {
    [Ending::Kqk, Ending::Krk]
        .into_iter()
        .find(|&e| Placement::of(pos, e).is_some_and(|p| p.strong_to_move))
}

/// Plays the player's `uci` in `fen`, then the lone king's best defence.
///
/// # Errors
/// [`DrillError::NotADrill`] for a FEN that is too long, unreadable,
/// illegal or not a K+Q/K+R vs K position with the strong side to move
/// (and not already over); [`DrillError::Illegal`] for a move the rules
/// refuse.
pub fn play(fen: &str, uci: &str) -> Result<DrillMove, DrillError> {
    if fen.len() > MAX_FEN {
        return Err(DrillError::NotADrill(format!(
            "FEN longer than {MAX_FEN} characters"
        )));
    }
    let mut game =
        Game::from_fen(fen, RuleSet::PlyYard).map_err(|e| DrillError::NotADrill(e.to_string()))?;
    let ending = drill_ending(game.position())
        .filter(|_| !game.is_over())
        .ok_or_else(|| {
            DrillError::NotADrill(
                "not a drill position: king and queen or king and rook against a lone king, \
                 the stronger side to move"
                    .into(),
            )
        })?;
    let table = Table::get(ending);
    let mate_in_before = table
        .probe(game.position())
        .and_then(Value::moves)
        .unwrap_or(0);
    let san = game
        .play_uci(uci)
        .map_err(|e| DrillError::Illegal(e.to_string()))?
        .san
        .clone();
    let reply = if game.is_over() {
        None
    } else {
        let m = best_defence(table, game.position());
        let played = game.play(m).expect("the defence is legal");
        Some(Played {
            uci: played.uci.clone(),
            san: played.san.clone(),
        })
    };
    let outcome = game.outcome();
    let mate_in = match outcome {
        Some(_) => None,
        None => table.probe(game.position()).and_then(Value::moves),
    };
    Ok(DrillMove {
        fen: Fen::from_position(game.position(), EnPassantMode::Legal).to_string(),
        san,
        status: outcome.map_or("ongoing", |o| o.reason.as_str()),
        failed: outcome.is_some_and(|o| o.reason != Reason::Checkmate),
        reply,
        mate_in,
        mate_in_before,
    })
}

/// The lone king's best move: one that draws (takes the piece) if any,
/// else the one mated last; ties go to the first in UCI order.
pub fn best_defence(table: &Table, pos: &Chess) -> Move {
    let rank = |m: &Move| {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        match table.probe(&child) {
            Some(Value::Mate(p)) => i32::from(p),
            _ => i32::MAX,
        }
    };
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.sort_by_key(|m| {
        m.to_uci(plyyard_game::shakmaty::CastlingMode::Standard)
            .to_string()
    });
    let best = moves.iter().map(rank).max().unwrap_or(0);
    *moves
        .iter()
        .find(|m| rank(m) == best)
        .expect("the lone king has a move in an ongoing position")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_game::shakmaty::Color;

    #[test]
    fn every_start_is_a_won_drill_with_its_fewest() {
        let all = drills();
        assert_eq!(all.len(), STARTS.len());
        for d in &all {
            assert!(d.fewest >= 5, "{d:?} is too short to be a drill");
            let pos = start_position(&d.fen);
            assert!(drill_ending(&pos).is_some(), "{d:?}");
            assert_eq!(pos.turn(), Color::White, "{d:?}");
        }
        assert_eq!(all[0].id, "kqk-1");
        assert_eq!(all[4].id, "krk-1");
    }

    #[test]
    fn best_play_on_both_sides_mates_in_exactly_fewest() {
        for d in drills() {
            let mut fen = d.fen.clone();
            let mut moves = 0;
            loop {
                let pos = start_position(&fen);
                let table = Table::get(drill_ending(&pos).unwrap());
                let best = pos
                    .legal_moves()
                    .into_iter()
                    .min_by_key(|m| {
                        let mut c = pos.clone();
                        c.play_unchecked(*m);
                        match table.probe(&c) {
                            Some(Value::Mate(p)) => p,
                            _ => u8::MAX,
                        }
                    })
                    .unwrap();
                let uci = best
                    .to_uci(plyyard_game::shakmaty::CastlingMode::Standard)
                    .to_string();
                let r = play(&fen, &uci).unwrap();
                moves += 1;
                assert!(!r.failed, "{d:?}: {r:?}");
                if r.status == "checkmate" {
                    break;
                }
                assert_eq!(r.mate_in, Some(d.fewest - moves), "{d:?} after {moves}");
                fen = r.fen;
            }
            assert_eq!(moves, d.fewest, "{d:?}");
        }
    }

    #[test]
    fn a_hung_queen_is_taken_and_stalemate_fails_the_drill() {
        let r = play("8/8/8/8/8/2k5/8/K2Q4 w - - 0 1", "d1d3").unwrap();
        assert_eq!(r.reply.as_ref().map(|p| p.uci.as_str()), Some("c3d3"));
        assert_eq!(
            (r.status, r.failed, r.mate_in),
            ("insufficient_material", true, None)
        );
        let r = play("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "c1c7").unwrap();
        assert_eq!((r.status, r.failed, r.reply), ("stalemate", true, None));
        let r = play("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "c1c8").unwrap();
        assert_eq!(
            (r.status, r.failed, r.san.as_str()),
            ("checkmate", false, "Qc8#")
        );
    }

    #[test]
    fn bad_positions_and_moves_are_refused() {
        for fen in [
            "not a fen",
            "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",
            &"8/".repeat(100),
        ] {
            assert!(
                matches!(play(fen, "d1d2"), Err(DrillError::NotADrill(_))),
                "{fen}"
            );
        }
        for uci in ["d1e5", "zz", "", "e1e2e3"] {
            assert!(
                matches!(play(STARTS[0].1, uci), Err(DrillError::Illegal(_))),
                "{uci}"
            );
        }
    }
}
