//! The alpha-beta search: one search thread ([`Worker`]) and what all
//! threads of a search share, split by what each part owns:
//!
//! - `worker`: a search thread, its state along the current line, when it
//!   must stop, and what the threads share;
//! - `root`: iterative deepening with aspiration windows, multi-PV,
//!   `searchmoves`, reporting, and which thread's result is played;
//! - `negamax`: principal variation search with its pruning, reductions
//!   and extensions;
//! - `qsearch`: the quiescence search;
//! - `ordering`: move ordering;
//! - `heuristics`: the tables a thread learns into, kept between searches;
//! - `history`: what a thread learns about move order between nodes;
//! - `correction`: what it learns about the static evaluation's errors;
//! - `make`: making moves (keys, network accumulators) and evaluating;
//! - `score`: the depth limit, mate scores and their table form;
//! - `tunables`: the search's tuning constants, all in one place.
//!
//! Positions are copied and made (`Chess::play_unchecked` on a clone); the
//! Zobrist key is updated incrementally alongside when shakmaty can.

mod correction;
mod heuristics;
mod history;
mod make;
mod negamax;
mod ordering;
mod qsearch;
mod root;
mod score;
mod tunables;
mod worker;

pub use heuristics::Heuristics;
pub use make::encode_move;
pub use root::{Info, Line, allowed_root_moves, pick_thread};
pub use score::{INF, MATE, MATE_BOUND, MAX_PLY, to_score};
pub use worker::{Budget, Shared, Worker, key_of};
