//! The tagger: lichess's theme keys for a puzzle line, by our own rules
//! on the board (shakmaty through `plyyard-game`). Each family of themes
//! has its file; this one walks the line once ([`Ctx`]) and collects.
//!
//! The input is the line (position before the opponent's move, that
//! move, the solution) and, optionally, the engine's evaluation of the
//! puzzle for the solver, which only the goals `advantage`, `crushing`
//! and `equality` need. Rules are written for precision: a theme is given
//! when the line clearly shows it (docs/puzzles.md lists each rule and
//! its measured precision against lichess's own tags).

mod board;
mod context;
mod lengths;
mod mates;
mod motifs;
mod phase;
mod plans;
mod special;
mod tactics;

pub use context::{Ctx, Rule};

use crate::generator::Score;
use crate::line::Line;
use crate::theme::Theme;

/// The themes of a line, each once, in vocabulary order. `eval` is the
/// solver's evaluation of the puzzle (after the opponent's move), used
/// for the goals only.
///
/// # Examples
/// ```
/// use plyyard_puzzle::{Line, Theme, tagger::tag};
/// // Back-rank mate in one: Ra1-a8#.
/// let line = Line::parse("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", ["g8h8", "a1a8"]).unwrap();
/// let themes = tag(&line, None);
/// for t in [Theme::Mate, Theme::MateIn1, Theme::OneMove, Theme::BackRankMate, Theme::Endgame] {
///     assert!(themes.contains(&t), "{t}");
/// }
/// ```
pub fn tag(line: &Line, eval: Option<Score>) -> Vec<Theme> {
    let ctx = Ctx::new(line);
    let mut themes = Vec::with_capacity(12);
    lengths::tag(&ctx, eval, &mut themes);
    phase::tag(&ctx, &mut themes);
    special::tag(&ctx, &mut themes);
    mates::tag(&ctx, &mut themes);
    tactics::tag(&ctx, &mut themes);
    motifs::tag(&ctx, &mut themes);
    plans::tag(&ctx, &mut themes);
    themes.sort_unstable();
    themes.dedup();
    themes
}
