//! Static exchange evaluation: does a capture sequence on one square win at
//! least a given amount of material, with both sides always recapturing with
//! their least valuable piece? A piece pinned to its king takes part only
//! along its pin line, or once its pinner has left the board.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

/// Exchange value of each role (index `role as usize - 1`).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Exchange value of a role.
#[inline]
pub fn value(role: Role) -> i32 {
    VALUES[role as usize - 1]
}

/// Whether playing `m` in `pos` wins at least `threshold` centipawns after
/// the best sequence of recaptures on the target square.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to, moved, captured) = match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let gain =
                capture.map_or(0, value) + promotion.map_or(0, |p| value(p) - value(Role::Pawn));
            (from, to, promotion.unwrap_or(role), gain)
        }
        Move::EnPassant { from, to } => (from, to, Role::Pawn, value(Role::Pawn)),
        Move::Castle { .. } | Move::Put { .. } => return threshold <= 0,
    };
    let board = pos.board();
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(moved) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) | Bitboard::from_square(to);
    if let Move::EnPassant { from, to } = m {
        let captured_sq = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(captured_sq);
    }
    let bishops = board.bishops_and_queens();
    let rooks = board.rooks_and_queens();
    let mut attackers =
        board.attacks_to(to, Color::White, occupied) | board.attacks_to(to, Color::Black, occupied);
    let pins = (
        Pins::of(board, Color::White, to),
        Pins::of(board, Color::Black, to),
    );
    let mut stm = pos.turn();
    let mut res = 1;
    loop {
        stm = !stm;
        attackers &= occupied;
        let mut ours = attackers & board.by_color(stm);
        let pin = if stm == Color::White {
            &pins.0
        } else {
            &pins.1
        };
        if (pin.pinners & occupied).any() {
            ours &= !pin.stuck;
        }
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let mut next = None;
        for role in Role::ALL {
            let bb = ours & board.by_role(role);
            if let Some(sq) = bb.first() {
                next = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = next else { break };
        if role == Role::King {
            return if (attackers & !board.by_color(stm)).any() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & rooks;
        }
    }
    res != 0
}

/// The pieces of one colour pinned to their king that cannot capture on
/// the exchange square, and the enemy sliders that pin them.
struct Pins {
    /// Pinned pieces off the line from their king through the square.
    stuck: Bitboard,
    /// Every pinning slider (the exchange square's piece excluded: it is
    /// the first to be taken).
    pinners: Bitboard,
}

impl Pins {
    /// The pins of `color`'s pieces, for an exchange on `to`.
    fn of(board: &Board, color: Color, to: Square) -> Pins {
        let mut pins = Pins {
            stuck: Bitboard::EMPTY,
            pinners: Bitboard::EMPTY,
        };
        let Some(king) = board.king_of(color) else {
            return pins;
        };
        let them = board.by_color(!color);
        let snipers = ((attacks::bishop_attacks(king, Bitboard::EMPTY)
            & board.bishops_and_queens())
            | (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()))
            & them
            & !Bitboard::from_square(to);
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & board.occupied();
            if blockers.more_than_one() || !(blockers & board.by_color(color)).any() {
                continue;
            }
            pins.pinners |= Bitboard::from_square(sniper);
            if let Some(pinned) = blockers.first()
                && !attacks::aligned(king, pinned, to)
            {
                pins.stuck |= blockers;
            }
        }
        pins
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    fn check(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("pos");
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn free_pawn_is_won() {
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(check(fen, "e1e5", 100));
        assert!(!check(fen, "e1e5", 101));
    }

    #[test]
    fn defended_pawn_costs_the_knight() {
        let fen = "4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1";
        assert!(!check(fen, "f3e5", 0));
        assert!(check(fen, "f3e5", -220));
        assert!(!check(fen, "f3e5", -219));
    }

    #[test]
    fn pinned_defender_does_not_recapture() {
        // The knight on e7 defends d5, but the rook on e1 pins it.
        assert!(!check("4k3/4n3/8/3p4/8/8/8/3R2K1 w - - 0 1", "d1d5", 0));
        assert!(check("4k3/4n3/8/3p4/8/8/8/3RR1K1 w - - 0 1", "d1d5", 100));
        // Issue 44: after 2.Qe2?? the queen is pinned by the bishop on b5,
        // so 2...Qd1+ loses nothing (and mates).
        let fen = "r2qkb1r/1pp2ppp/p7/1b2p3/P3P3/2P5/4QPPP/R1B2KNR b kq - 2 2";
        assert!(check(fen, "d8d1", 0));
    }

    #[test]
    fn pinned_piece_still_captures_along_its_line() {
        // The rook on e6 is pinned by the rook on e1 but may take on e5.
        let fen = "4k3/8/4r3/8/8/2Q5/8/K3R3 w - - 0 1";
        assert!(!check(fen, "c3e5", 0));
        assert!(check(fen, "c3e5", -450));
    }

    #[test]
    fn xray_recapture_is_seen() {
        // Rxe5 Rxe5 Rxe5: the doubled rook wins the pawn behind the first.
        let fen = "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1";
        assert!(check(fen, "e2e5", 0));
    }
}
