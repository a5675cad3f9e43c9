//! Helpers for the unit tests of every module: positions from FEN and
//! positions along seeded random games.

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

use crate::rng::Rng;

/// Every position along `games` random games of at most `plies` plies
/// from the start (seeded), each given to `visit` before its move is drawn.
pub(crate) fn random_walk(games: usize, plies: usize, seed: u64, mut visit: impl FnMut(&Chess)) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut p = Chess::default();
        for _ in 0..plies {
            visit(&p);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            p.play_unchecked(m);
        }
    }
}

/// The position of `fen`, with standard castling rights.
pub(crate) fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal")
}
