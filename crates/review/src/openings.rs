//! Opening names: the ECO code and English name of a position, from the
//! catalogue the `esca` crate bundles (lichess's chess-openings data set,
//! CC0). Looked up by position, so a transposition is named too; only the
//! position is read, never a rule: moves and legality stay shakmaty's.

use plyyard_game::shakmaty::fen::Fen;
use plyyard_game::shakmaty::{Chess, EnPassantMode};
use serde::Serialize;

/// A named opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Opening {
    /// The ECO classification: a volume letter A to E and two digits.
    pub eco: &'static str,
    /// The name in English, as `Family: Variation, Subvariation`.
    pub name: &'static str,
}

/// The opening `pos` is named after, if the catalogue names it (the start
/// position has no name).
///
/// # Examples
///
/// ```
/// use plyyard_game::shakmaty::{Chess, Position, uci::UciMove};
/// let mut pos = Chess::default();
/// for m in ["e2e4", "c7c5"] {
///     let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
///     pos.play_unchecked(m);
/// }
/// let o = plyyard_review::openings::opening_of(&pos).unwrap();
/// assert_eq!((o.eco, o.name), ("B20", "Sicilian Defense"));
/// assert_eq!(plyyard_review::openings::opening_of(&Chess::default()), None);
/// ```
pub fn opening_of(pos: &Chess) -> Option<Opening> {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let theirs = esca::Position::from_fen(&fen).ok()?;
    esca::openings::lookup(&theirs).map(|o| Opening {
        eco: o.eco,
        name: o.name,
    })
}

#[cfg(test)]
mod tests {
    use plyyard_game::shakmaty::fen::Fen;
    use plyyard_game::shakmaty::{CastlingMode, Chess};

    use super::opening_of;

    fn at(fen: &str) -> Option<(&'static str, &'static str)> {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        opening_of(&pos).map(|o| (o.eco, o.name))
    }

    #[test]
    fn named_positions_and_transpositions() {
        // 1. e4 e5 2. Nf3 Nc6 3. Bb5, whatever the move counters.
        let ruy = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
        assert_eq!(at(ruy), Some(("C60", "Ruy Lopez")));
        assert_eq!(
            at(&ruy.replace(" 3 3", " 0 40")),
            Some(("C60", "Ruy Lopez"))
        );
        // A middlegame position has no name.
        assert_eq!(at("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30"), None);
    }
}
