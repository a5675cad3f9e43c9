//! The tables a search thread learns into and keeps from one search to
//! the next ([`Heuristics`]); how the search reads and updates them is in
//! `history` and `correction`.

use super::tunables::CORRECTION_SIZE;

/// Continuation-history entries: (piece, destination) after (piece,
/// destination).
const CONT_SIZE: usize = 12 * 64 * 12 * 64;

/// What one search thread learns about move order (histories, counter
/// moves) and about its evaluation's errors, kept from one search to the
/// next until the game changes.
pub struct Heuristics {
    pub(super) history: Box<[[[i32; 64]; 64]; 2]>,
    pub(super) counter: Box<[[u16; 64]; 12]>,
    /// Continuation history: how good a quiet move (piece, destination)
    /// was after a given previous move (piece, destination), indexed by
    /// `cont_index` in `history`; used one, two and four plies back.
    pub(super) cont: Box<[i16]>,
    /// Capture history by (piece, destination, captured role).
    pub(super) capture_history: Box<[[[i16; 6]; 64]; 12]>,
    /// How far searches have found the static evaluation off, by side to
    /// move and pawn structure (see [`super::correction`]).
    pub(super) correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

impl Heuristics {
    /// Tables that know nothing yet.
    pub fn new() -> Heuristics {
        Heuristics {
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[0; 64]; 12]),
            cont: vec![0; CONT_SIZE].into_boxed_slice(),
            capture_history: Box::new([[[0; 6]; 64]; 12]),
            correction: vec![[0; CORRECTION_SIZE]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two tables"),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Heuristics::new();
    }
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics::new()
    }
}
