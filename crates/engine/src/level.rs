//! Human-like playing levels below Expert.
//!
//! A level searches shallowly (limited depth and nodes) for its best few
//! moves, then picks one at random, weighted by score with a level-dependent
//! temperature. Mistakes are therefore moves that looked best or nearly best
//! at the level's horizon: plausible ones, never random moves. From Easy up,
//! a mate in one is always played and a move leaving the queen to be won by
//! one capture is never chosen while another candidate exists.

use std::sync::atomic::AtomicBool;

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

/// Whether after `m` the opponent wins our queen with one capture.
pub fn hangs_queen(pos: &Chess, m: Move) -> bool {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
        .legal_moves()
        .iter()
        .any(|&r| r.capture() == Some(Role::Queen) && see_ge(&child, r, 400))
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
        return engine.search_with_info(start, moves, limits, stop, &mut |_| {});
    };
    let lim = Limits {
        depth: Some(limits.depth.map_or(style.depth, |d| d.min(style.depth))),
        nodes: Some(limits.nodes.map_or(style.nodes, |n| n.min(style.nodes))),
        movetime: limits.movetime,
        clock: limits.clock,
        infinite: false,
        searchmoves: limits.searchmoves.clone(),
    };
    let mut lines = engine.analyse(start, moves, &lim, style.candidates, stop);
    if lines.is_empty() {
        return None;
    }
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
    let best = as_cp(lines[0].score);
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
