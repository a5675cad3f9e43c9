//! Loose pieces: who attacks and defends a square, which pieces have no
//! defender, and which are hanging.

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square};

use super::board::{Placed, value};

/// The pieces of `by` that attack `square` (whatever stands there), as a
/// player counts them: every piece whose move or capture reaches the
/// square, pinned or not.
pub fn attackers(pos: &Chess, square: Square, by: Color) -> Bitboard {
    let board = pos.board();
    board.attacks_to(square, by, board.occupied())
}

/// The pieces defending the piece on `square`: its own side's pieces that
/// attack the square. Empty for an empty square.
pub fn defenders(pos: &Chess, square: Square) -> Bitboard {
    pos.board()
        .color_at(square)
        .map_or(Bitboard::EMPTY, |c| attackers(pos, square, c))
}

/// The pieces of `color`, kings aside, that no piece of their own defends.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::undefended;
/// use shakmaty::{Bitboard, Chess, Color, Square};
/// // In the initial position only the rooks in the corners have no defender.
/// let loose = undefended(&Chess::default(), Color::White);
/// assert_eq!(loose, Bitboard::from(Square::A1) | Bitboard::from(Square::H1));
/// ```
pub fn undefended(pos: &Chess, color: Color) -> Bitboard {
    let board = pos.board();
    (board.by_color(color) & !board.kings())
        .into_iter()
        .filter(|&sq| defenders(pos, sq).is_empty())
        .collect()
}

/// Why a piece is hanging.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exposure {
    /// It is attacked and nothing defends it.
    Undefended,
    /// It is defended, but a cheaper enemy piece attacks it (the cheapest
    /// such attacker).
    AttackedByCheaper(Placed),
}

/// A piece the opponent attacks and could take with profit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hanging {
    /// The piece.
    pub piece: Placed,
    /// The enemy pieces attacking it.
    pub attackers: Bitboard,
    /// Its own pieces defending it.
    pub defenders: Bitboard,
    /// Why it is hanging.
    pub exposure: Exposure,
}

/// The hanging pieces of `color` (kings aside), by square: attacked and
/// undefended, or attacked by a cheaper piece.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::{Exposure, hanging};
/// use shakmaty::{CastlingMode, Chess, Color, Square, fen::Fen};
/// // The black knight on f6 has no defender and the white queen attacks it.
/// let pos: Chess = "4k3/8/5n2/8/8/8/5Q2/4K3 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let h = hanging(&pos, Color::Black);
/// assert_eq!(h.len(), 1);
/// assert_eq!(h[0].piece.square, Square::F6);
/// assert_eq!(h[0].exposure, Exposure::Undefended);
/// ```
pub fn hanging(pos: &Chess, color: Color) -> Vec<Hanging> {
    let board = pos.board();
    (board.by_color(color) & !board.kings())
        .into_iter()
        .filter_map(|square| {
            let role = board.role_at(square)?;
            let attackers = attackers(pos, square, !color);
            let defenders = defenders(pos, square);
            let exposure = if attackers.is_empty() {
                return None;
            } else if defenders.is_empty() {
                Exposure::Undefended
            } else {
                let cheapest = cheapest(pos, attackers)?;
                if value(cheapest.role) >= value(role) {
                    return None;
                }
                Exposure::AttackedByCheaper(cheapest)
            };
            Some(Hanging {
                piece: Placed { square, role },
                attackers,
                defenders,
                exposure,
            })
        })
        .collect()
}

/// The least valuable piece on `squares`.
pub(super) fn cheapest(pos: &Chess, squares: Bitboard) -> Option<Placed> {
    squares
        .into_iter()
        .filter_map(|square| {
            pos.board()
                .role_at(square)
                .map(|role| Placed { square, role })
        })
        .min_by_key(|p| (value(p.role), p.square))
}

/// Whether `target` is worth attacking for an `attacker`: a king, a more
/// valuable piece, or one that no piece defends (not counting the pieces on
/// `ignoring`, whose defence does not hold: the piece in front on a line
/// defends the one behind only until it moves away).
pub(super) fn is_target(pos: &Chess, target: Placed, attacker: Role, ignoring: Bitboard) -> bool {
    target.role == Role::King
        || value(target.role) > value(attacker)
        || (defenders(pos, target.square) & !ignoring).is_empty()
}
