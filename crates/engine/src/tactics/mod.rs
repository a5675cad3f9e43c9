//! Facts about a position that a person can check on the board: the checks
//! and captures of the side to move, the opponent's threats, loose pieces,
//! and the tactical patterns that the lessons teach and the game review
//! names (fork, pin, skewer, double check, discovered attack, back-rank
//! mate). Everything here is a pure function of a shakmaty [`Chess`]
//! position; nothing searches.
//!
//! # Values
//! Material is counted on the scale the lessons teach — pawn 1, knight 3,
//! bishop 3, rook 5, queen 9 — in centipawns: 100, 300, 300, 500, 900 (see
//! [`value`]). The engine's own exchange code ([`crate::see`]) uses its
//! tuned values and answers only "at least this much?"; the facts shown to
//! people need the exact amount on the scale they learnt, so this module
//! has its own exchange count ([`exchange`]).
//!
//! # Threats
//! The threats of a position are what the side *not* to move could do if
//! it were its turn: the turn is handed over and any en passant right is
//! dropped (it belonged to the side to move). When the side to move is in
//! check, handing over the turn would leave a king in check on the
//! opponent's move — not a position of chess — and there are no threats:
//! the check itself is the threat, and it must be answered first.

mod board;
mod exchange;
mod moves;
mod patterns;
mod pieces;

#[cfg(test)]
mod tests;

pub use board::{KING_VALUE, Placed, value};
pub use exchange::exchange;
pub use moves::{
    Threat, ThreatKind, captures, checks, mates_in_one, opponent_to_move, opportunities, threats,
};
pub use patterns::{
    BackRankMate, Discovery, DiscoveryKind, DoubleCheck, Fork, Pin, PinKind, Skewer,
    back_rank_mate_after, discoveries_after, double_check_after, fork_after, forks, pins, skewers,
};
pub use pieces::{Exposure, Hanging, attackers, defenders, hanging, undefended};
