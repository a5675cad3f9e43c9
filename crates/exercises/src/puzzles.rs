//! Mate-in-one and mate-in-two puzzles: the shipped set
//! (`content/puzzles.json`, made by `plyyard puzzles learn`), the exhaustive
//! checks that each has exactly one solution, and judging a player's line.
//!
//! Judging asks the rules, not a list of answers: a first move of a mate in
//! two is right when every defence allows a mate in one, a last move when
//! it mates. The stored line only supplies the defence the page is shown.

use std::sync::LazyLock;
use std::sync::atomic::AtomicBool;

use plyyard_game::notation;
use plyyard_game::shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen};
use plyyard_game::{Game, RuleSet};
use serde::{Deserialize, Serialize};

/// The shipped puzzles, as `plyyard puzzles learn` wrote them.
const SHIPPED: &str = include_str!("../../../content/puzzles.json");

/// Depth of the engine search that must agree with a puzzle.
pub const ENGINE_DEPTH: u32 = 6;

/// One puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Stable id: `m1-01`, `m2-07` …
    pub id: String,
    /// The position, the solver to move.
    pub fen: String,
    /// The key, then (mate in two) the engine's best defence and a mate.
    pub solution: Vec<String>,
    /// 1 or 2.
    pub mate_in: u8,
    /// Where the position comes from (`seed S game G ply P`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

static PUZZLES: LazyLock<Vec<Puzzle>> = LazyLock::new(|| {
    serde_json::from_str(SHIPPED).expect("content/puzzles.json is a list of puzzles")
});

/// The shipped puzzles, mates in one first.
pub fn shipped() -> &'static [Puzzle] {
    &PUZZLES
}

/// The shipped puzzle `id`.
pub fn find(id: &str) -> Option<&'static Puzzle> {
    PUZZLES.iter().find(|p| p.id == id)
}

fn after(pos: &Chess, m: Move) -> Chess {
    let mut c = pos.clone();
    c.play_unchecked(m);
    c
}

fn uci(m: Move) -> String {
    notation::uci(m, CastlingMode::Standard)
}

/// Every legal move of `pos` that checkmates, in UCI order.
pub fn mating_moves(pos: &Chess) -> Vec<Move> {
    let mut v: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| after(pos, m).is_checkmate())
        .collect();
    v.sort_by_key(|&m| uci(m));
    v
}

fn has_mate_in_one(pos: &Chess) -> bool {
    pos.legal_moves()
        .into_iter()
        .any(|m| after(pos, m).is_checkmate())
}

/// Whether `pos` (the defender to move) is lost to a mate in one after
/// every legal move: there is at least one move, and each allows a mate.
pub fn every_defence_allows_mate(pos: &Chess) -> bool {
    let defences = pos.legal_moves();
    !defences.is_empty()
        && defences
            .into_iter()
            .all(|d| has_mate_in_one(&after(pos, d)))
}

/// The first moves of `pos` that force mate on the next move (mate in two
/// exactly: none of them mates at once), in UCI order, stopping after
/// `limit`.
pub fn mate_in_two_keys(pos: &Chess, limit: usize) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    moves.sort_by_key(|&m| uci(m));
    moves
        .into_iter()
        .filter(|&m| {
            let child = after(pos, m);
            !child.is_checkmate() && every_defence_allows_mate(&child)
        })
        .take(limit)
        .collect()
}

/// The position of a FEN, by the rules core.
///
/// # Errors
/// The rules core's message for an unreadable or illegal FEN.
pub fn position(fen: &str) -> Result<Chess, String> {
    Game::from_fen(fen, RuleSet::PlyYard)
        .map(|g| g.position().clone())
        .map_err(|e| e.to_string())
}

/// Checks with the rules core alone that `pos` is a mate in `mate_in`
/// with exactly one first move, `key`.
///
/// # Errors
/// What is wrong, for people.
pub fn check_unique(pos: &Chess, mate_in: u8, key: Move) -> Result<(), String> {
    match mate_in {
        1 => match mating_moves(pos).as_slice() {
            [only] if *only == key => Ok(()),
            [only] => Err(format!("the only mate is {}, not {}", uci(*only), uci(key))),
            many => Err(format!("{} mating moves", many.len())),
        },
        2 => {
            if has_mate_in_one(pos) {
                return Err("there is a mate in one".into());
            }
            match mate_in_two_keys(pos, 2).as_slice() {
                [only] if *only == key => Ok(()),
                [only] => Err(format!("the only key is {}, not {}", uci(*only), uci(key))),
                [] => Err("no mate in two".into()),
                _ => Err("more than one key".into()),
            }
        }
        n => Err(format!("mate in {n} is not a puzzle kind")),
    }
}

/// The engine's opinion of `pos`: its best move and score at
/// [`ENGINE_DEPTH`] (deterministic: one thread, fresh tables).
pub fn engine_view(
    engine: &mut plyyard_engine::Engine,
    pos: &Chess,
) -> Option<plyyard_engine::SearchResult> {
    engine.clear();
    let limits = plyyard_engine::Limits {
        depth: Some(ENGINE_DEPTH),
        ..plyyard_engine::Limits::default()
    };
    engine.search_with_info(pos, &[], &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Verifies a puzzle completely: the FEN is legal, the rules core finds
/// exactly one solution and it is the stored key, the engine agrees
/// (`mate` in `mate_in`, same key), and the stored line is legal and ends
/// in mate.
///
/// # Errors
/// What is wrong, for people.
pub fn verify(p: &Puzzle, engine: &mut plyyard_engine::Engine) -> Result<(), String> {
    let pos = position(&p.fen)?;
    if p.solution.len() != 2 * usize::from(p.mate_in) - 1 {
        return Err(format!("{}: the line has {} moves", p.id, p.solution.len()));
    }
    let mut line = Game::from_fen(&p.fen, RuleSet::PlyYard).map_err(|e| e.to_string())?;
    for m in &p.solution {
        line.play_uci(m).map_err(|e| format!("{}: {e}", p.id))?;
    }
    if !line.position().is_checkmate() {
        return Err(format!("{}: the stored line does not mate", p.id));
    }
    let key = line.moves()[0];
    check_unique(&pos, p.mate_in, key).map_err(|e| format!("{}: {e}", p.id))?;
    let seen = engine_view(engine, &pos).ok_or_else(|| format!("{}: no engine move", p.id))?;
    if seen.score != plyyard_engine::Score::Mate(i32::from(p.mate_in)) || seen.best_move != key {
        return Err(format!(
            "{}: the engine plays {} with {}",
            p.id,
            uci(seen.best_move),
            seen.score
        ));
    }
    Ok(())
}

/// What the page learns about a player's move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the move is right.
    pub correct: bool,
    /// Whether the puzzle is solved (the right move mated). A wrong move
    /// ends nothing: the solver takes it back and tries again.
    pub done: bool,
    /// The player's move in SAN.
    pub san: String,
    /// The defender's answer when the puzzle goes on.
    pub reply: Option<String>,
    /// Its SAN.
    pub reply_san: Option<String>,
    /// The position after the move and the answer.
    pub fen: String,
    /// Whether the solve counts in the player's progress: solved with no
    /// wrong move and no hint on the way. [`check`] leaves it `false`; the
    /// server, which knows the player's history, sets it.
    pub counted: bool,
}

/// Why a line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Too many or too few moves, or a line that went on after a wrong move.
    #[error("{0}")]
    Shape(String),
    /// A move is malformed or illegal where it is played.
    #[error("{0}")]
    Illegal(String),
}

/// Replays `moves` from the puzzle's position: the line so far must be
/// right (player moves at even indices), and must end before the mate.
fn replay(p: &Puzzle, moves: &[String], max: usize) -> Result<Game, LineError> {
    if moves.len() > max {
        return Err(LineError::Shape(format!(
            "at most {max} moves in a mate in {}",
            p.mate_in
        )));
    }
    let mut game =
        Game::from_fen(&p.fen, RuleSet::PlyYard).map_err(|e| LineError::Shape(e.to_string()))?;
    for (i, m) in moves.iter().enumerate() {
        game.play_uci(m)
            .map_err(|e| LineError::Illegal(e.to_string()))?;
        if i.is_multiple_of(2) && !is_right(p, i, game.position()) {
            return Err(LineError::Shape(format!(
                "move {} is not the solution",
                i + 1
            )));
        }
        if game.is_over() {
            return Err(LineError::Shape("the line is already over".into()));
        }
    }
    Ok(game)
}

/// Whether the player's move at index `i`, leading to `now`, is right:
/// the last one mates, an earlier one forces mate on the next move.
fn is_right(p: &Puzzle, i: usize, now: &Chess) -> bool {
    if i == 2 * usize::from(p.mate_in) - 2 {
        now.is_checkmate()
    } else {
        !now.is_checkmate() && every_defence_allows_mate(now)
    }
}

/// Judges the player's latest move: `moves` is the whole line from the
/// puzzle's position, ending with it (`2 · mate_in − 1` at most).
///
/// # Errors
/// [`LineError`] for an empty, too long, illegal or already-decided line.
pub fn check(p: &Puzzle, moves: &[String]) -> Result<Verdict, LineError> {
    let max = 2 * usize::from(p.mate_in) - 1;
    let Some((last, earlier)) = moves.split_last() else {
        return Err(LineError::Shape("no move".into()));
    };
    if moves.len().is_multiple_of(2) || moves.len() > max {
        return Err(LineError::Shape(format!(
            "a line of 1 to {max} moves, ending with the solver's move"
        )));
    }
    let mut game = replay(p, earlier, max)?;
    let played = game
        .play_uci(last)
        .map_err(|e| LineError::Illegal(e.to_string()))?;
    let san = played.san.clone();
    let i = moves.len() - 1;
    let correct = is_right(p, i, game.position());
    let done = correct && game.is_over();
    if !correct {
        // Nothing of the solution is given away: the solver tries again.
        return Ok(Verdict {
            correct,
            done,
            san,
            reply: None,
            reply_san: None,
            fen: Fen::from_position(game.position(), EnPassantMode::Legal).to_string(),
            counted: false,
        });
    }
    let (reply, reply_san) = if done {
        (None, None)
    } else {
        let m = defence(p, moves, game.position());
        let played = game.play(m).expect("the defence is legal");
        (Some(played.uci.clone()), Some(played.san.clone()))
    };
    Ok(Verdict {
        correct,
        done,
        san,
        reply,
        reply_san,
        fen: Fen::from_position(game.position(), EnPassantMode::Legal).to_string(),
        counted: false,
    })
}

/// The defence to show: the stored one when the player followed the stored
/// line, else the first legal move in UCI order (every defence loses).
fn defence(p: &Puzzle, moves: &[String], pos: &Chess) -> Move {
    let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    legal.sort_by_key(|&m| uci(m));
    let stored = p
        .solution
        .get(moves.len())
        .filter(|_| p.solution.starts_with(moves));
    stored
        .and_then(|s| legal.iter().copied().find(|&m| uci(m) == *s))
        .unwrap_or(legal[0])
}

/// A hint for the player's next move after `moves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// 1: the piece; 2: the piece and its square.
    pub level: u8,
    /// The piece to move (`queen`, `knight` …).
    pub role: &'static str,
    /// Its square, at level 2.
    pub square: Option<String>,
}

/// The hint at `level` (1 or 2) for the next move after `moves` (a right
/// line so far, ending with the defender's move or empty).
///
/// # Errors
/// [`LineError`] as for [`check`], or a level other than 1 and 2.
pub fn hint(p: &Puzzle, moves: &[String], level: u8) -> Result<Hint, LineError> {
    if !(1..=2).contains(&level) {
        return Err(LineError::Shape("the hint level is 1 or 2".into()));
    }
    if !moves.len().is_multiple_of(2) {
        return Err(LineError::Shape(
            "the line must end with the defender's move".into(),
        ));
    }
    let game = replay(p, moves, 2 * usize::from(p.mate_in) - 2)?;
    let pos = game.position();
    let stored = p
        .solution
        .get(moves.len())
        .filter(|_| p.solution.starts_with(moves));
    let next = match stored {
        Some(s) => game.parse_uci(s).ok(),
        None => None,
    }
    .or_else(|| mating_moves(pos).first().copied())
    .or_else(|| mate_in_two_keys(pos, 1).first().copied())
    .ok_or_else(|| LineError::Shape("no solution from here".into()))?;
    Ok(Hint {
        level,
        role: notation::role_name(next.role()),
        square: (level == 2)
            .then(|| next.from().map(|s| s.to_string()))
            .flatten(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test the issue asks for: every shipped puzzle is re-verified
    /// exhaustively by the rules core and by the engine.
    #[test]
    fn every_shipped_puzzle_has_exactly_one_solution() {
        let mut engine = plyyard_engine::Engine::new(16);
        let all = shipped();
        let ones = all.iter().filter(|p| p.mate_in == 1).count();
        assert!(
            ones >= 25 && all.len() - ones >= 25,
            "{ones} / {}",
            all.len()
        );
        let mut ids = std::collections::HashSet::new();
        for p in all {
            assert!(ids.insert(&p.id), "duplicate id {}", p.id);
            verify(p, &mut engine).unwrap();
        }
    }

    fn puzzle(fen: &str, solution: &[&str], mate_in: u8) -> Puzzle {
        Puzzle {
            id: "t".into(),
            fen: fen.into(),
            solution: solution.iter().map(|s| (*s).to_owned()).collect(),
            mate_in,
            source: None,
        }
    }

    const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

    #[test]
    fn verification_refuses_wrong_and_ambiguous_puzzles() {
        let mut engine = plyyard_engine::Engine::new(16);
        verify(&puzzle(BACK_RANK, &["d1d8"], 1), &mut engine).unwrap();
        assert!(verify(&puzzle(BACK_RANK, &["d1d7"], 1), &mut engine).is_err());
        assert!(verify(&puzzle(BACK_RANK, &["d1d8"], 2), &mut engine).is_err());
        // Two rooks: two mates on the back rank.
        let two = "6k1/5ppp/8/8/8/8/5PPP/2RR2K1 w - - 0 1";
        let e = verify(&puzzle(two, &["d1d8"], 1), &mut engine).unwrap_err();
        assert!(e.contains("2 mating moves"), "{e}");
    }

    #[test]
    fn a_line_is_judged_by_the_rules() {
        let p = puzzle(BACK_RANK, &["d1d8"], 1);
        let v = check(&p, &["d1d8".into()]).unwrap();
        assert!(v.correct && v.done && v.reply.is_none() && !v.counted);
        assert_eq!(v.san, "Rd8#");
        // A wrong move ends nothing and gives nothing of the solution away.
        let v = check(&p, &["d1e1".into()]).unwrap();
        assert!(!v.correct && !v.done && v.reply.is_none());
        assert!(!serde_json::to_string(&v).unwrap().contains("d1d8"));
        assert!(matches!(
            check(&p, &["d1d9".into()]),
            Err(LineError::Illegal(_))
        ));
        assert!(matches!(check(&p, &[]), Err(LineError::Shape(_))));
        assert!(matches!(
            check(&p, &["d1d8".into(), "g8h8".into(), "d8e8".into()]),
            Err(LineError::Shape(_))
        ));
        let h = hint(&p, &[], 2).unwrap();
        assert_eq!((h.role, h.square.as_deref()), ("rook", Some("d1")));
        assert_eq!(hint(&p, &[], 1).unwrap().square, None);
        assert!(hint(&p, &[], 3).is_err());
    }

    #[test]
    fn a_mate_in_two_accepts_any_mate_after_any_defence() {
        let Some(p) = shipped().iter().find(|p| p.mate_in == 2) else {
            panic!("no mate in two shipped");
        };
        let v = check(p, &p.solution[..1]).unwrap();
        assert!(v.correct && !v.done);
        assert_eq!(v.reply.as_deref(), Some(p.solution[1].as_str()));
        let pos = position(&p.fen).unwrap();
        let key = plyyard_game::Game::from_fen(&p.fen, RuleSet::PlyYard)
            .unwrap()
            .parse_uci(&p.solution[0])
            .unwrap();
        let after_key = after(&pos, key);
        for d in after_key.legal_moves() {
            let line = vec![p.solution[0].clone(), uci(d)];
            let h = hint(p, &line, 2).unwrap();
            for m in mating_moves(&after(&after_key, d)) {
                let mut full = line.clone();
                full.push(uci(m));
                let v = check(p, &full).unwrap();
                assert!(v.correct && v.done, "{full:?}");
                assert!(h.square.is_some());
            }
        }
        let wrong = pos.legal_moves().into_iter().find(|&m| m != key).unwrap();
        let v = check(p, &[uci(wrong)]).unwrap();
        assert!(!v.correct && !v.done && v.reply.is_none());
    }
}
