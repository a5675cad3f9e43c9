//! Human-like playing levels below Expert.
//!
//! A level searches shallowly (limited depth and nodes) for its best few
//! moves, then picks one at random, weighted by score with a level-dependent
//! temperature. Mistakes are therefore moves that looked best or nearly best
//! at the level's horizon: plausible ones, never random moves. From Easy up,
//! a mate in one is always played and a move leaving the queen to be won by
//! one capture is never chosen while another candidate exists.
//!
//! At every level, Expert included, a pawn promotes to less than a queen
//! only when the search scores that under-promotion strictly above the
//! queen promotion of the same pawn move (a stalemate trap, a knight fork):
//! when the promoted piece is simply recaptured every promotion scores the
//! same, and such a tie always goes to the queen.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position, Role};

use crate::see::see_ge;
use crate::{Engine, Level, Limits, Score, SearchResult};

pub use crate::rng::Rng;

/// How a level searches and chooses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Iteration depth.
    pub depth: u32,
    /// Node budget for the whole choice.
    pub nodes: u64,
    /// Number of candidate moves.
    pub candidates: usize,
    /// Softmax temperature in centipawns (higher: more varied, weaker).
    pub temperature: f64,
    /// Play mates in one and refuse to hang the queen.
    pub guard: bool,
}

/// The style of each level below Expert (`None` for Expert).
pub fn style(level: Level) -> Option<Style> {
    Some(match level {
        Level::Beginner => Style {
            depth: 2,
            nodes: 4_000,
            candidates: 6,
            temperature: 170.0,
            guard: false,
        },
        Level::Easy => Style {
            depth: 2,
            nodes: 10_000,
            candidates: 6,
            temperature: 60.0,
            guard: true,
        },
        Level::Normal => Style {
            depth: 3,
            nodes: 40_000,
            candidates: 5,
            temperature: 45.0,
            guard: true,
        },
        Level::Hard => Style {
            depth: 7,
            nodes: 400_000,
            candidates: 4,
            temperature: 12.0,
            guard: true,
        },
        Level::Expert => return None,
    })
}

fn as_cp(s: Score) -> f64 {
    match s {
        Score::Cp(c) => f64::from(c),
        Score::Mate(n) if n > 0 => 20_000.0 - f64::from(n),
        Score::Mate(n) => -20_000.0 - f64::from(n),
    }
}

/// Whether after `m` the opponent wins a queen we had before `m` with one
/// capture. A queen that `m` itself promotes is not counted: taking it back
/// wins only the pawn it was, which the search has already weighed.
pub fn hangs_queen(pos: &Chess, m: Move) -> bool {
    let promoted = (m.promotion() == Some(Role::Queen)).then(|| m.to());
    let mut child = pos.clone();
    child.play_unchecked(m);
    child.legal_moves().iter().any(|&r| {
        r.capture() == Some(Role::Queen) && Some(r.to()) != promoted && see_ge(&child, r, 400)
    })
}

/// The queen promotion of the same pawn move, if `m` promotes to anything
/// less than a queen.
pub fn queen_instead(m: Move) -> Option<Move> {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: Some(p),
        } if p != Role::Queen => Some(Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: Some(Role::Queen),
        }),
        _ => None,
    }
}

/// The search's line for the queen promotion `queen`, as deep as `under`
/// (the under-promotion's line) and within the level's other `limits`;
/// `None` when the search was stopped before it finished.
fn queen_line(
    engine: &mut Engine,
    start: &Chess,
    moves: &[Move],
    limits: &Limits,
    under: &SearchResult,
    queen: Move,
    stop: &AtomicBool,
) -> Option<SearchResult> {
    let lim = Limits {
        depth: Some(under.depth.max(1)),
        nodes: limits.nodes,
        movetime: limits.movetime,
        clock: limits.clock,
        infinite: false,
        searchmoves: vec![queen],
    };
    let line = engine
        .analyse(start, moves, &lim, 1, stop)
        .into_iter()
        .next()?;
    (line.best_move == queen && !stop.load(Ordering::Relaxed)).then_some(line)
}

/// Centipawns an under-promotion must score above the queen promotion to
/// be played: equal promotions (the new piece taken back at once) differ
/// by a few centipawns of search noise, a truly better one (stalemate
/// avoided, a knight's check) by far more.
const UNDERPROMOTION_MARGIN_CP: f64 = 50.0;

/// Whether an under-promotion scored `under` is strictly better than the
/// queen promotion scored `queen`: any mate score compares exactly, other
/// scores must differ by more than [`UNDERPROMOTION_MARGIN_CP`].
fn strictly_better(under: Score, queen: Score) -> bool {
    match (under, queen) {
        (Score::Mate(_), _) | (_, Score::Mate(_)) => as_cp(under) > as_cp(queen),
        _ => as_cp(under) > as_cp(queen) + UNDERPROMOTION_MARGIN_CP,
    }
}

/// Replaces every under-promotion among the candidate `lines` that the
/// search scores no strictly better than the queen promotion of the same pawn move
/// by that queen promotion (dropped instead when the queen promotion is a
/// candidate already). Under-promotions stay when `searchmoves` leaves the
/// queen promotion out.
fn queen_over_equal_underpromotions(
    engine: &mut Engine,
    start: &Chess,
    moves: &[Move],
    limits: &Limits,
    lines: Vec<SearchResult>,
    stop: &AtomicBool,
) -> Vec<SearchResult> {
    let (pos, _) = crate::replay(start, moves);
    let allowed = crate::search::allowed_root_moves(&pos, &limits.searchmoves);
    let mut kept: Vec<SearchResult> = Vec::with_capacity(lines.len());
    for line in &lines {
        let Some(queen) =
            queen_instead(line.best_move).filter(|q| allowed.is_empty() || allowed.contains(q))
        else {
            kept.push(line.clone());
            continue;
        };
        let queen_line = match lines.iter().find(|l| l.best_move == queen) {
            Some(l) => Some(l.clone()),
            None => queen_line(engine, start, moves, limits, line, queen, stop),
        };
        match queen_line {
            Some(q) if !strictly_better(line.score, q.score) => {
                if !lines.iter().chain(&kept).any(|l| l.best_move == queen) {
                    kept.push(q);
                }
            }
            _ => kept.push(line.clone()),
        }
    }
    kept
}

fn mate_in_one(pos: &Chess) -> Option<Move> {
    pos.legal_moves().into_iter().find(|&m| {
        let mut c = pos.clone();
        c.play_unchecked(m);
        c.is_checkmate()
    })
}

/// Picks a move for a level below Expert.
pub fn choose(
    engine: &mut Engine,
    start: &Chess,
    moves: &[Move],
    limits: &Limits,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Option<SearchResult> {
    let Some(style) = style(level) else {
        let found = engine.search_with_info(start, moves, limits, stop, &mut |_| {})?;
        if queen_instead(found.best_move).is_none() {
            return Some(found);
        }
        return queen_over_equal_underpromotions(engine, start, moves, limits, vec![found], stop)
            .into_iter()
            .next();
    };
    let lim = Limits {
        depth: Some(limits.depth.map_or(style.depth, |d| d.min(style.depth))),
        nodes: Some(limits.nodes.map_or(style.nodes, |n| n.min(style.nodes))),
        movetime: limits.movetime,
        clock: limits.clock,
        infinite: false,
        searchmoves: limits.searchmoves.clone(),
    };
    let lines = engine.analyse(start, moves, &lim, style.candidates, stop);
    if lines.is_empty() {
        return None;
    }
    let mut lines = queen_over_equal_underpromotions(engine, start, moves, &lim, lines, stop);
    let (pos, keys) = crate::replay(start, moves);
    if style.guard {
        let allowed = crate::search::allowed_root_moves(&pos, &limits.searchmoves);
        if let Some(m) = mate_in_one(&pos).filter(|m| allowed.is_empty() || allowed.contains(m)) {
            let mut r = lines[0].clone();
            r.best_move = m;
            r.pv = vec![m];
            r.score = Score::Mate(1);
            return Some(r);
        }
        let safe: Vec<SearchResult> = lines
            .iter()
            .filter(|l| !hangs_queen(&pos, l.best_move))
            .cloned()
            .collect();
        if !safe.is_empty() {
            lines = safe;
        }
    }
    let best = lines
        .iter()
        .map(|l| as_cp(l.score))
        .fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = lines
        .iter()
        .map(|l| ((as_cp(l.score) - best) / style.temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut rng = Rng::new(seed ^ keys.last().copied().unwrap_or(0));
    let mut x = rng.next_f64() * total;
    let mut pick = 0;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            pick = i;
            break;
        }
        x -= w;
        pick = i;
    }
    Some(lines.swap_remove(pick))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::pos;
    use shakmaty::uci::UciMove;

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>()
            .expect("uci")
            .to_move(p)
            .expect("legal")
    }

    #[test]
    fn a_promoted_queen_taken_back_is_not_a_hung_queen() {
        // bxa8=Q Qxa8 trades a pawn for a rook; Qc4 puts the queen we had
        // where the b5 pawn takes it.
        let p = pos("r2qk2r/1P3ppp/8/1p6/8/8/5PPP/2Q3K1 w k - 0 1");
        assert!(!hangs_queen(&p, mv(&p, "b7a8q")));
        assert!(hangs_queen(&p, mv(&p, "c1c4")));
        assert!(!hangs_queen(&p, mv(&p, "c1c2")));
    }

    #[test]
    fn queen_instead_of_every_underpromotion_only() {
        let p = pos("r2qk2r/1P3ppp/8/8/8/8/5PPP/6K1 w k - 0 1");
        for piece in ["r", "b", "n"] {
            let m = mv(&p, &format!("b7a8{piece}"));
            assert_eq!(queen_instead(m), Some(mv(&p, "b7a8q")));
        }
        assert_eq!(queen_instead(mv(&p, "b7a8q")), None);
        assert_eq!(queen_instead(mv(&p, "g2g3")), None);
    }

    #[test]
    fn an_equal_underpromotion_gives_way_to_the_queen_even_when_not_a_candidate() {
        // Every promotion on d8 is taken back by the king.
        let p = pos("3rk3/2P2ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(2);
        let depth3 = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let rook = mv(&p, "c7d8r");
        let only_rook = Limits {
            searchmoves: vec![rook],
            ..depth3.clone()
        };
        let lines = e.analyse(&p, &[], &only_rook, 1, &stop);
        assert_eq!(lines[0].best_move, rook);
        // With the rook promotion alone allowed it stays.
        let kept =
            queen_over_equal_underpromotions(&mut e, &p, &[], &only_rook, lines.clone(), &stop);
        assert_eq!(kept[0].best_move, rook);
        // Otherwise the queen promotion, searched as deep, takes its place.
        let kept = queen_over_equal_underpromotions(&mut e, &p, &[], &depth3, lines, &stop);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].best_move, mv(&p, "c7d8q"));
        assert_eq!(kept[0].depth, 3);
    }

    #[test]
    fn an_underpromotion_ahead_by_search_noise_gives_way_to_the_queen() {
        // Issue 58: bxc8=R+ and bxc8=Q+ are both taken back by the a8 rook;
        // the search once scored the rook a little higher and Hard played it.
        let p = pos("r1r4k/1P6/8/8/8/8/6PP/6K1 w - - 0 1");
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(2);
        let only = |m: Move| Limits {
            depth: Some(3),
            searchmoves: vec![m],
            ..Limits::default()
        };
        let (rook, queen) = (mv(&p, "b7c8r"), mv(&p, "b7c8q"));
        let mut r = e.analyse(&p, &[], &only(rook), 1, &stop).remove(0);
        let q = e.analyse(&p, &[], &only(queen), 1, &stop).remove(0);
        let Score::Cp(qcp) = q.score else {
            panic!("a mate score: {}", q.score)
        };
        for noise in [1, 10, 40] {
            r.score = Score::Cp(qcp + noise);
            let lines = vec![r.clone(), q.clone()];
            let depth3 = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let kept = queen_over_equal_underpromotions(&mut e, &p, &[], &depth3, lines, &stop);
            assert!(kept.iter().all(|l| l.best_move != rook), "noise {noise}");
            assert!(kept.iter().any(|l| l.best_move == queen), "noise {noise}");
        }
    }

    #[test]
    fn a_strictly_better_underpromotion_stays() {
        // Saavedra: c8=Q allows Rc4+ and Qxc4 stalemate, c8=R wins.
        let p = pos("8/2P5/8/8/3r4/8/2K5/k7 w - - 0 6");
        let stop = AtomicBool::new(false);
        let mut e = Engine::new(2);
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let lines = e.analyse(&p, &[], &limits, 3, &stop);
        assert_eq!(lines[0].best_move, mv(&p, "c7c8r"));
        let kept = queen_over_equal_underpromotions(&mut e, &p, &[], &limits, lines, &stop);
        assert_eq!(kept[0].best_move, mv(&p, "c7c8r"));
    }
}
