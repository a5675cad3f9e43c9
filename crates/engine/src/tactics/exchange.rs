//! The exact material result of an exchange on one square, on the lessons'
//! scale: both sides keep recapturing with their least valuable piece, and
//! either may stop when going on would lose more.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Rank, Role, Square, attacks};

use super::board::value;

/// What the side to move wins (positive) or loses (negative), in
/// centipawns, by playing `m` and letting the exchange on its target square
/// run its course: every later capture on that square is made with the
/// least valuable piece, and each side stops capturing when that is better
/// for it. A pawn that recaptures on the last rank becomes a queen.
///
/// Like a player counting attackers and defenders, the count looks only at
/// the target square: pins and checks elsewhere are not considered, and a
/// king never captures onto a square the other side still attacks.
/// Castling is an exchange of nothing (0). `m` must be legal in `pos`.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::exchange;
/// use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};
/// // Rxd5 takes a pawn defended by a knight: the rook is lost for it.
/// let pos: Chess = "4k3/8/5n2/3p4/8/8/8/3RK3 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let m = "d1d5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(exchange(&pos, m), 100 - 500);
/// ```
pub fn exchange(pos: &Chess, m: Move) -> i32 {
    let Some(first) = First::of(m) else {
        return 0;
    };
    let board = pos.board();
    let to = first.to;
    let mut occupied = board.occupied() ^ Bitboard::from_square(first.from);
    if let Some(sq) = first.removed {
        occupied ^= Bitboard::from_square(sq);
    }
    let mut attackers =
        board.attacks_to(to, Color::White, occupied) | board.attacks_to(to, Color::Black, occupied);
    let mut gains = [0i32; 34];
    gains[0] = first.gain;
    let mut on_square = value(first.lands_as);
    let mut side = !pos.turn();
    let mut depth = 0;
    loop {
        attackers &= occupied;
        let Some((sq, role)) = least_valuable(pos, attackers & board.by_color(side)) else {
            break;
        };
        let after = occupied ^ Bitboard::from_square(sq);
        let after_attackers = attackers | xrays(pos, to, after);
        if role == Role::King && (after_attackers & after & board.by_color(!side)).any() {
            break;
        }
        let promotes = role == Role::Pawn && to.rank() == side.relative_rank(Rank::Eighth);
        let bonus = if promotes {
            value(Role::Queen) - value(Role::Pawn)
        } else {
            0
        };
        depth += 1;
        gains[depth] = on_square + bonus - gains[depth - 1];
        on_square = if promotes {
            value(Role::Queen)
        } else {
            value(role)
        };
        occupied = after;
        attackers = after_attackers;
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The first move of an exchange.
struct First {
    from: Square,
    to: Square,
    /// A square emptied besides `from` (the pawn taken en passant).
    removed: Option<Square>,
    /// Material won by the move itself (capture and promotion).
    gain: i32,
    /// What stands on `to` afterwards.
    lands_as: Role,
}

impl First {
    fn of(m: Move) -> Option<First> {
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Some(First {
                from,
                to,
                removed: None,
                gain: capture.map_or(0, value)
                    + promotion.map_or(0, |p| value(p) - value(Role::Pawn)),
                lands_as: promotion.unwrap_or(role),
            }),
            Move::EnPassant { from, to } => Some(First {
                from,
                to,
                removed: Some(Square::from_coords(to.file(), from.rank())),
                gain: value(Role::Pawn),
                lands_as: Role::Pawn,
            }),
            Move::Castle { .. } | Move::Put { .. } => None,
        }
    }
}

/// The least valuable piece among `candidates`.
fn least_valuable(pos: &Chess, candidates: Bitboard) -> Option<(Square, Role)> {
    Role::ALL.into_iter().find_map(|role| {
        (candidates & pos.board().by_role(role))
            .first()
            .map(|sq| (sq, role))
    })
}

/// Sliders that see `to` through the squares emptied so far.
fn xrays(pos: &Chess, to: Square, occupied: Bitboard) -> Bitboard {
    let board = pos.board();
    (attacks::bishop_attacks(to, occupied) & board.bishops_and_queens())
        | (attacks::rook_attacks(to, occupied) & board.rooks_and_queens())
}
