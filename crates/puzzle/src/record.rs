//! Validation of one CSV row of lichess's puzzle database into a
//! [`Puzzle`]: field by field, with the reason when a field is wrong.
//!
//! Rules: the id is five ASCII letters or digits; the FEN is a legal
//! standard-chess position; every move is legal in sequence; after the
//! opponent's move the solution has an odd number of moves; the rating is
//! in 1..=3999 and its deviation in 1..=999 (lichess's sanity bounds for a
//! stored Glicko rating), the popularity in −100..=100 and the play count
//! a non-negative integer; unknown theme keys are dropped from `themes`
//! and listed in `unknown_themes` (lichess adds keys over time: refusing
//! the row would lose good puzzles); opening tags must be opening keys.

use crate::angle::is_opening_key;
use crate::line::{Line, LineError};
use crate::puzzle::{Puzzle, is_valid_id};
use crate::theme::Theme;

/// The fields of one row, as text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Row<'a> {
    /// `PuzzleId`
    pub id: &'a str,
    /// `FEN`
    pub fen: &'a str,
    /// `Moves`
    pub moves: &'a str,
    /// `Rating`
    pub rating: &'a str,
    /// `RatingDeviation`
    pub rating_deviation: &'a str,
    /// `Popularity`
    pub popularity: &'a str,
    /// `NbPlays`
    pub plays: &'a str,
    /// `Themes`
    pub themes: &'a str,
    /// `GameUrl`
    pub game_url: &'a str,
    /// `OpeningTags`
    pub opening_tags: &'a str,
}

/// Why a row is not a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// The id is not five letters or digits.
    #[error("bad puzzle id {0:?}")]
    Id(String),
    /// The FEN or a move is wrong, or the solution's length.
    #[error("{0}")]
    Line(#[from] LineError),
    /// A numeric field does not parse or is out of range.
    #[error("{field} {value:?} is not a number in {min}..={max}")]
    Number {
        /// Column name.
        field: &'static str,
        /// The text found.
        value: String,
        /// Lowest accepted.
        min: i64,
        /// Highest accepted.
        max: i64,
    },
    /// An opening tag is not an opening key.
    #[error("bad opening tag {0:?}")]
    Opening(String),
    /// A text field is longer than allowed.
    #[error("{0} is too long")]
    TooLong(&'static str),
    /// The row has fewer columns than the header names.
    #[error("missing column {0}")]
    Missing(&'static str),
}

/// Longest game URL kept.
pub const MAX_URL: usize = 200;

impl Row<'_> {
    /// Validates the row (see the module's rules).
    pub fn validate(&self) -> Result<Puzzle, Invalid> {
        if !is_valid_id(self.id) {
            return Err(Invalid::Id(self.id.to_owned()));
        }
        let line = Line::parse(self.fen, self.moves.split_ascii_whitespace())?;
        let (themes, unknown_themes) = parse_themes(self.themes);
        Ok(Puzzle {
            id: self.id.to_owned(),
            fen: self.fen.to_owned(),
            opponent_move: line.opponent_uci(),
            solution: line.solution_uci(),
            initial_ply: line.initial_ply(),
            rating: number("Rating", self.rating, 1, 3999)?,
            rating_deviation: number("RatingDeviation", self.rating_deviation, 1, 999)?,
            popularity: number("Popularity", self.popularity, -100, 100)?,
            plays: number("NbPlays", self.plays, 0, i64::from(u32::MAX))?,
            themes,
            unknown_themes,
            game_url: url(self.game_url)?,
            opening_tags: openings(self.opening_tags)?,
        })
    }
}

fn number<T: TryFrom<i64>>(
    field: &'static str,
    text: &str,
    min: i64,
    max: i64,
) -> Result<T, Invalid> {
    let err = || Invalid::Number {
        field,
        value: text.to_owned(),
        min,
        max,
    };
    let n: i64 = text.trim().parse().map_err(|_| err())?;
    if !(min..=max).contains(&n) {
        return Err(err());
    }
    T::try_from(n).map_err(|_| err())
}

/// Splits a `Themes` field into known themes (deduplicated, in order) and
/// unknown keys.
pub fn parse_themes(field: &str) -> (Vec<Theme>, Vec<String>) {
    let mut known = Vec::with_capacity(8);
    let mut unknown = Vec::new();
    for key in field.split_ascii_whitespace() {
        match Theme::from_key(key) {
            Some(t) if !known.contains(&t) => known.push(t),
            Some(_) => {}
            None => unknown.push(key.to_owned()),
        }
    }
    (known, unknown)
}

fn url(text: &str) -> Result<String, Invalid> {
    if text.len() > MAX_URL {
        return Err(Invalid::TooLong("GameUrl"));
    }
    Ok(text.to_owned())
}

fn openings(field: &str) -> Result<Vec<String>, Invalid> {
    field
        .split_ascii_whitespace()
        .map(|tag| {
            if is_opening_key(tag) {
                Ok(tag.to_owned())
            } else {
                Err(Invalid::Opening(tag.to_owned()))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_shape_is_lichess_s() {
        let row = Row {
            id: "K69di",
            fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 62",
            moves: "g8h8 a1a8",
            rating: "2022",
            rating_deviation: "75",
            popularity: "90",
            plays: "1970",
            themes: "mate mateIn1 backRankMate",
            game_url: "",
            opening_tags: "",
        };
        let p = row.validate().unwrap();
        let json = serde_json::to_value(p.api()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "id": "K69di", "rating": 2022, "plays": 1970, "initialPly": 123,
                "solution": ["a1a8"], "themes": ["mate", "mateIn1", "backRankMate"],
            })
        );
    }

    fn row() -> Row<'static> {
        Row {
            id: "000rZ",
            fen: "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13",
            moves: "d4e6 d6h2",
            rating: "633",
            rating_deviation: "93",
            popularity: "100",
            plays: "616",
            themes: "kingsideAttack mate mateIn1 oneMove opening cornerMate fooTheme mate",
            game_url: "https://lichess.org/seIMDWkD#25",
            opening_tags: "Scandinavian_Defense Scandinavian_Defense_Modern_Variation",
        }
    }

    #[test]
    fn a_good_row() {
        let p = row().validate().unwrap();
        assert_eq!(p.id, "000rZ");
        assert_eq!(p.opponent_move, "d4e6");
        assert_eq!(p.solution, ["d6h2"]);
        assert_eq!(p.initial_ply, 24);
        assert_eq!(
            (p.rating, p.rating_deviation, p.popularity, p.plays),
            (633, 93, 100, 616)
        );
        use Theme::*;
        assert_eq!(
            p.themes,
            [KingsideAttack, Mate, MateIn1, OneMove, Opening, CornerMate]
        );
        assert_eq!(p.unknown_themes, ["fooTheme"]);
        assert_eq!(p.opening_tags.len(), 2);
        assert_eq!(p.solver_moves(), 1);
    }

    #[test]
    fn each_bad_field_is_named() {
        let bad = |f: fn(&mut Row<'static>)| {
            let mut r = row();
            f(&mut r);
            r.validate().unwrap_err()
        };
        assert_eq!(bad(|r| r.id = "4990"), Invalid::Id("4990".into()));
        assert!(matches!(
            bad(|r| r.fen = "8/8/8/8/8/8/8/8 w - - 0 1"),
            Invalid::Line(LineError::Position)
        ));
        assert!(matches!(
            bad(|r| r.moves = "d4e6 d6h2 g1h2"),
            Invalid::Line(LineError::Move { index: 2, .. })
        ));
        assert!(matches!(
            bad(|r| r.moves = "d4e6"),
            Invalid::Line(LineError::Length(0))
        ));
        assert!(matches!(
            bad(|r| r.rating = "4000"),
            Invalid::Number {
                field: "Rating",
                ..
            }
        ));
        assert!(matches!(
            bad(|r| r.rating = "12a"),
            Invalid::Number {
                field: "Rating",
                ..
            }
        ));
        assert!(matches!(
            bad(|r| r.rating_deviation = "0"),
            Invalid::Number { .. }
        ));
        assert!(matches!(
            bad(|r| r.popularity = "-101"),
            Invalid::Number {
                field: "Popularity",
                ..
            }
        ));
        assert!(matches!(
            bad(|r| r.plays = "-1"),
            Invalid::Number {
                field: "NbPlays",
                ..
            }
        ));
        assert_eq!(
            bad(|r| r.opening_tags = "Ruy Lopez!"),
            Invalid::Opening("Lopez!".into())
        );
    }

    #[test]
    fn empty_optional_fields() {
        let mut r = row();
        r.themes = "";
        r.game_url = "";
        r.opening_tags = "";
        let p = r.validate().unwrap();
        assert!(p.themes.is_empty() && p.opening_tags.is_empty() && p.game_url.is_empty());
    }
}
