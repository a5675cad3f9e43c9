//! The validated puzzle, as imported from lichess's CSV or made by the
//! generator: identity, position, line, rating, popularity, themes, source
//! and what the API needs (`initialPly`, the solution in UCI).

use serde::Serialize;

use crate::line::{Line, LineError};
use crate::theme::Theme;

/// Length of a puzzle id (lichess's: five letters or digits).
pub const ID_LEN: usize = 5;
/// Prefix of the ids of Ply Yard's own generated puzzles.
pub const OWN_PREFIX: &str = "py";
/// Length of an own puzzle's id: the prefix and six letters or digits, so
/// it can never be one of lichess's five-character ids.
pub const OWN_ID_LEN: usize = 8;

/// A puzzle as stored and served.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Puzzle {
    /// Five ASCII letters or digits (lichess's), or `py` and six
    /// (Ply Yard's own, [`is_valid_id`]).
    pub id: String,
    /// The position before the opponent's move (lichess's CSV FEN).
    pub fen: String,
    /// The opponent's move that sets the puzzle, UCI.
    pub opponent_move: String,
    /// The solution, UCI, solver's moves and replies, odd length.
    pub solution: Vec<String>,
    /// lichess's `initialPly`: the game ply of `fen` (see
    /// [`crate::line::initial_ply`]).
    pub initial_ply: u32,
    /// Glicko-2 rating.
    pub rating: i32,
    /// Glicko-2 deviation.
    pub rating_deviation: i32,
    /// Votes, −100 … 100.
    pub popularity: i32,
    /// Times played.
    pub plays: u32,
    /// Known themes, in the CSV's order, without duplicates.
    pub themes: Vec<Theme>,
    /// Theme keys of the row that are not in the vocabulary (dropped from
    /// `themes`, kept here for the importer's log).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown_themes: Vec<String>,
    /// The source game (`https://lichess.org/…#ply`), possibly empty.
    pub game_url: String,
    /// Opening keys (family first), possibly none.
    pub opening_tags: Vec<String>,
}

impl Puzzle {
    /// The puzzle's line on the board, checked again.
    pub fn line(&self) -> Result<Line, LineError> {
        let moves = std::iter::once(self.opponent_move.as_str())
            .chain(self.solution.iter().map(String::as_str));
        Line::parse(&self.fen, moves)
    }

    /// The number of moves the solver plays.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// Whether the puzzle carries `theme`.
    pub fn has(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }

    /// The `puzzle` object of lichess's `/api/puzzle/{id}`.
    pub fn api(&self) -> PuzzleApi<'_> {
        PuzzleApi {
            id: &self.id,
            rating: self.rating,
            plays: self.plays,
            initial_ply: self.initial_ply,
            solution: &self.solution,
            themes: &self.themes,
        }
    }
}

/// The `puzzle` object of lichess's API:
/// `{"id","rating","plays","initialPly","solution","themes"}` (the `game`
/// object beside it, with the PGN up to the opponent's move, is the
/// server's).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PuzzleApi<'a> {
    /// The id.
    pub id: &'a str,
    /// The rating.
    pub rating: i32,
    /// Times played.
    pub plays: u32,
    /// The ply of the game's position before the opponent's move.
    pub initial_ply: u32,
    /// The solution, UCI.
    pub solution: &'a [String],
    /// The themes' keys.
    pub themes: &'a [Theme],
}

/// Whether `id` is a puzzle id: exactly [`ID_LEN`] ASCII letters or
/// digits (so `6E+087` or a number whose leading zero a spreadsheet
/// dropped, `4990`, are refused), or one of Ply Yard's own: [`OWN_PREFIX`]
/// and six letters or digits.
pub fn is_valid_id(id: &str) -> bool {
    let alnum = id.bytes().all(|b| b.is_ascii_alphanumeric());
    alnum && (id.len() == ID_LEN || (id.len() == OWN_ID_LEN && id.starts_with(OWN_PREFIX)))
}

/// Whether `id` is one of Ply Yard's own generated puzzles.
pub fn is_own_id(id: &str) -> bool {
    is_valid_id(id) && id.len() == OWN_ID_LEN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_five_alphanumerics() {
        assert!(is_valid_id("000rZ"));
        assert!(is_valid_id("K69di"));
        assert!(is_valid_id("pyRWlfP0"));
        assert!(is_own_id("pyRWlfP0"));
        assert!(!is_own_id("K69di"));
        for bad in [
            "", "4990", "6E+087", "000rZZ", "00 rZ", "00érZ", "xyRWlfP0", "py-WlfP0",
        ] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }
}
