//! Board facts the theme rules share: piece values, attackers and
//! defenders, hanging pieces, pins, material balance.

use plyyard_game::shakmaty::attacks;
use plyyard_game::shakmaty::{Bitboard, Board, Chess, Color, Move, Role, Square};

/// Piece values in pawns; the king counts as priceless (100).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// Pieces of `by` attacking `sq`.
pub fn attackers(board: &Board, sq: Square, by: Color) -> Bitboard {
    board.attacks_to(sq, by, board.occupied())
}

/// Whether the piece on `sq` is attacked and not defended.
pub fn is_hanging(board: &Board, sq: Square) -> bool {
    let Some(color) = board.color_at(sq) else {
        return false;
    };
    attackers(board, sq, !color).any() && attackers(board, sq, color).is_empty()
}

/// Whether the piece on `sq` would be lost: attacked and either not
/// defended or attacked by something cheaper.
pub fn in_bad_spot(board: &Board, sq: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    let enemies = attackers(board, sq, !piece.color);
    if enemies.is_empty() {
        return false;
    }
    attackers(board, sq, piece.color).is_empty()
        || enemies.into_iter().any(|a| {
            board
                .role_at(a)
                .is_some_and(|r| value(r) < value(piece.role))
        })
}

/// Material of `side` minus the other side's, in pawns.
pub fn material_diff(pos: &Chess, side: Color) -> i32 {
    crate::generator::material(pos, side) - crate::generator::material(pos, !side)
}

/// Where the moved piece stands after `m` (the king's square for
/// castling).
pub fn landing(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() { 6 } else { 2 };
            Square::from_coords(file.try_into().expect("a file"), king.rank())
        }
        _ => m.to(),
    }
}

/// The piece of `by` pinning the piece on `sq` to its own king, if any.
pub fn pinner(board: &Board, sq: Square) -> Option<Square> {
    let color = board.color_at(sq)?;
    let king = board.king_of(color)?;
    let enemy = board.by_color(!color);
    let straight = (board.rooks() | board.queens()) & enemy;
    let diagonal = (board.bishops() | board.queens()) & enemy;
    let line_pieces = |s: Square| {
        let orthogonal = s.file() == king.file() || s.rank() == king.rank();
        if orthogonal {
            straight.contains(s)
        } else {
            diagonal.contains(s)
        }
    };
    (straight | diagonal).into_iter().find(|&s| {
        line_pieces(s)
            && attacks::aligned(s, sq, king)
            && (attacks::between(s, king) & board.occupied()) == Bitboard::from_square(sq)
    })
}

/// Whether `sq` lies strictly between `a` and `b` on a line.
pub fn between(a: Square, b: Square, sq: Square) -> bool {
    attacks::between(a, b).contains(sq)
}

/// The squares next to `sq`.
pub fn around(sq: Square) -> Bitboard {
    attacks::king_attacks(sq)
}

/// Rank of `sq` seen from `color`'s side (0 = its back rank).
pub fn relative_rank(sq: Square, color: Color) -> u32 {
    let r = sq.rank().to_u32();
    if color == Color::White { r } else { 7 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::parse_fen;
    use plyyard_game::shakmaty::Position;

    #[test]
    fn hanging_bad_spot_and_pins() {
        // White: Ke1, Re2 pinned by the black rook on e8; Nd4 attacked by
        // the c5 pawn and defended by nothing.
        let pos = parse_fen("4r1k1/8/8/2p5/3N4/8/4R3/4K3 w - - 0 1").unwrap();
        let b = pos.board();
        assert!(is_hanging(b, Square::D4));
        assert!(in_bad_spot(b, Square::D4));
        assert_eq!(pinner(b, Square::E2), Some(Square::E8));
        assert_eq!(pinner(b, Square::D4), None);
        assert_eq!(material_diff(&pos, Color::White), 2);
        assert_eq!(relative_rank(Square::E8, Color::Black), 0);
    }
}
