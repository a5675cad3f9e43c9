//! The tactical patterns the lessons teach and the review names: fork, pin
//! (absolute and relative), skewer, double check, discovered attack or
//! check, and back-rank mate. Each detector returns the squares and pieces
//! that make the pattern, so that an explanation can name them.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Rank, Role, Square, attacks};

use super::board::{Placed, value};
use super::pieces::is_target;

/// One piece attacking two or more worthwhile enemy targets at once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fork {
    forker: Placed,
    targets: Vec<Placed>,
}

impl Fork {
    /// The forking piece, where it stands after the move.
    pub fn forker(&self) -> Placed {
        self.forker
    }

    /// What it attacks — the king, pieces worth more than it, or pieces
    /// without defender — most valuable first; always two or more.
    pub fn targets(&self) -> &[Placed] {
        &self.targets
    }
}

/// The fork that legal move `m` makes, if any: after it, the moved piece
/// attacks at least two enemy targets, each being the king, a piece worth
/// more than the forking piece, or a piece no enemy piece defends. Castling
/// makes no fork.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::fork_after;
/// use shakmaty::{CastlingMode, Chess, Role, Square, fen::Fen, uci::UciMove};
/// // Nc7+ forks the king on e8 and the rook on a8.
/// let pos: Chess = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let m = "d5c7".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// let fork = fork_after(&pos, m).unwrap();
/// assert_eq!(fork.forker().role, Role::Knight);
/// assert_eq!(fork.targets()[0].square, Square::E8);
/// assert_eq!(fork.targets()[1].square, Square::A8);
/// ```
pub fn fork_after(pos: &Chess, m: Move) -> Option<Fork> {
    if m.is_castle() {
        return None;
    }
    let after = played(pos, m);
    let board = after.board();
    let to = m.to();
    let role = board.role_at(to)?;
    let mut targets: Vec<Placed> = (board.attacks_from(to) & board.by_color(after.turn()))
        .into_iter()
        .filter_map(|square| {
            let target = placed(&after, square)?;
            is_target(&after, target, role, Bitboard::EMPTY).then_some(target)
        })
        .collect();
    if targets.len() < 2 {
        return None;
    }
    targets.sort_by_key(|p| (std::cmp::Reverse(value(p.role)), p.square));
    Some(Fork {
        forker: Placed { square: to, role },
        targets,
    })
}

/// Every legal move of the side to move that makes a fork, with the fork.
pub fn forks(pos: &Chess) -> Vec<(Move, Fork)> {
    pos.legal_moves()
        .into_iter()
        .filter_map(|m| fork_after(pos, m).map(|f| (m, f)))
        .collect()
}

/// What a pinned piece would expose by moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PinKind {
    /// The king: the pinned piece may not leave the line at all.
    Absolute,
    /// A more valuable piece: leaving the line is legal but loses it.
    Relative,
}

/// A piece that cannot leave a line without exposing a more valuable piece
/// behind it to an enemy rook, bishop or queen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pin {
    /// The enemy piece along the line.
    pub pinner: Placed,
    /// The pinned piece.
    pub pinned: Placed,
    /// What stands behind it: the king, or a more valuable piece that the
    /// pinner could then take with profit (worth more than the pinner, or
    /// defended by nothing but the pinned piece).
    pub behind: Placed,
    /// Whether the piece behind is the king.
    pub kind: PinKind,
}

/// A more valuable piece attacked along a line with a lesser one behind:
/// when the front piece moves away, the one behind is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Skewer {
    /// The rook, bishop or queen along the line.
    pub attacker: Placed,
    /// The attacked piece in front (the king, or worth more than `behind`).
    pub front: Placed,
    /// The piece behind, worth taking for the attacker (worth more than
    /// it, or defended by nothing but the front piece).
    pub behind: Placed,
}

/// Two enemy pieces on one line from a slider, the first attacked, the
/// second directly behind it.
struct Line {
    attacker: Placed,
    front: Placed,
    behind: Placed,
}

/// The pins against the pieces of `color`.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::{PinKind, pins};
/// use shakmaty::{CastlingMode, Chess, Color, Square, fen::Fen};
/// // The bishop on b5 pins the knight on c6 to the king on e8.
/// let pos: Chess = "4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let p = pins(&pos, Color::Black);
/// assert_eq!(p.len(), 1);
/// assert_eq!(p[0].pinned.square, Square::C6);
/// assert_eq!(p[0].kind, PinKind::Absolute);
/// ```
pub fn pins(pos: &Chess, color: Color) -> Vec<Pin> {
    lines(pos, color)
        .filter_map(|l| {
            let kind = if l.behind.role == Role::King {
                PinKind::Absolute
            } else if value(l.behind.role) > value(l.front.role) && l.exposes_target(pos) {
                PinKind::Relative
            } else {
                return None;
            };
            Some(Pin {
                pinner: l.attacker,
                pinned: l.front,
                behind: l.behind,
                kind,
            })
        })
        .collect()
}

/// The skewers against the pieces of `color`.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::skewers;
/// use shakmaty::{CastlingMode, Chess, Color, Role, fen::Fen};
/// // The bishop on b5 attacks the king on c6 with the rook on d7 behind.
/// let pos: Chess = "8/3r4/2k5/1B6/8/8/8/4K3 b - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let s = skewers(&pos, Color::Black);
/// assert_eq!(s.len(), 1);
/// assert_eq!((s[0].front.role, s[0].behind.role), (Role::King, Role::Rook));
/// ```
pub fn skewers(pos: &Chess, color: Color) -> Vec<Skewer> {
    lines(pos, color)
        .filter(|l| value(l.front.role) > value(l.behind.role) && l.exposes_target(pos))
        .map(|l| Skewer {
            attacker: l.attacker,
            front: l.front,
            behind: l.behind,
        })
        .collect()
}

impl Line {
    /// Whether the piece behind would be worth taking once the front one
    /// has gone.
    fn exposes_target(&self, pos: &Chess) -> bool {
        is_target(
            pos,
            self.behind,
            self.attacker.role,
            Bitboard::from_square(self.front.square),
        )
    }
}

/// Every slider of `!color` attacking a piece of `color` with another
/// piece of `color` right behind it on the same line.
fn lines(pos: &Chess, color: Color) -> impl Iterator<Item = Line> + '_ {
    let board = pos.board();
    let occupied = board.occupied();
    let sliders = board.by_color(!color) & board.sliders();
    sliders.into_iter().flat_map(move |from| {
        let role = board.role_at(from).expect("a slider stands there");
        let seen = slider_attacks(role, from, occupied);
        (seen & board.by_color(color))
            .into_iter()
            .filter_map(move |front| {
                let through = occupied ^ Bitboard::from_square(front);
                let beyond = slider_attacks(role, from, through)
                    & !seen
                    & attacks::ray(from, front)
                    & board.by_color(color);
                let behind = beyond.first()?;
                Some(Line {
                    attacker: Placed { square: from, role },
                    front: placed(pos, front)?,
                    behind: placed(pos, behind)?,
                })
            })
    })
}

/// Two pieces giving check at once: only a king move answers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DoubleCheck {
    /// The two checking pieces.
    pub checkers: [Placed; 2],
}

/// The double check that legal move `m` gives, if it does.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::double_check_after;
/// use shakmaty::{CastlingMode, Chess, Square, fen::Fen, uci::UciMove};
/// // Nf6+ checks with the knight and uncovers the rook on e1.
/// let pos: Chess = "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let m = "e4f6".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// let d = double_check_after(&pos, m).unwrap();
/// assert!(d.checkers.iter().any(|c| c.square == Square::E1));
/// ```
pub fn double_check_after(pos: &Chess, m: Move) -> Option<DoubleCheck> {
    let after = played(pos, m);
    let mut checkers = after.checkers().into_iter();
    let (a, b) = (checkers.next()?, checkers.next()?);
    Some(DoubleCheck {
        checkers: [placed(&after, a)?, placed(&after, b)?],
    })
}

/// Whether an uncovered line attacks the king or a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiscoveryKind {
    /// The uncovered piece gives check.
    Check,
    /// The uncovered piece attacks a piece worth taking.
    Attack,
}

/// A line opened by a move: the piece that moved away uncovers an attack by
/// a rook, bishop or queen behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Discovery {
    /// The square the moving piece left.
    pub from: Square,
    /// The uncovered rook, bishop or queen.
    pub line: Placed,
    /// What it now attacks: the king, a piece worth more than it, or an
    /// undefended piece.
    pub target: Placed,
    /// Check or attack.
    pub kind: DiscoveryKind,
}

/// The discovered checks and attacks that legal move `m` makes, king first.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::{DiscoveryKind, discoveries_after};
/// use shakmaty::{CastlingMode, Chess, Square, fen::Fen, uci::UciMove};
/// // The bishop on d3 steps aside: the rook on d1 now attacks the queen on d8.
/// let pos: Chess = "3q2k1/8/8/8/8/3B4/8/3R2K1 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let m = "d3b5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// let d = discoveries_after(&pos, m);
/// assert_eq!(d.len(), 1);
/// assert_eq!(d[0].kind, DiscoveryKind::Attack);
/// assert_eq!(d[0].target.square, Square::D8);
/// ```
pub fn discoveries_after(pos: &Chess, m: Move) -> Vec<Discovery> {
    let Some(from) = m.from() else {
        return Vec::new();
    };
    let after = played(pos, m);
    let board = after.board();
    let mover = pos.turn();
    let moved_to = moved_squares(m, mover);
    let sliders = board.by_color(mover) & board.sliders() & !moved_to;
    let mut found = Vec::new();
    for s in sliders {
        let Some(line) = placed(&after, s) else {
            continue;
        };
        let uncovered = (board.attacks_from(s) & board.by_color(!mover))
            .into_iter()
            .filter(|&t| attacks::between(s, t).contains(from));
        for t in uncovered {
            let Some(target) = placed(&after, t) else {
                continue;
            };
            let kind = if target.role == Role::King {
                DiscoveryKind::Check
            } else if is_target(&after, target, line.role, Bitboard::EMPTY) {
                DiscoveryKind::Attack
            } else {
                continue;
            };
            found.push(Discovery {
                from,
                line,
                target,
                kind,
            });
        }
    }
    found.sort_by_key(|d| (std::cmp::Reverse(value(d.target.role)), d.target.square));
    found
}

/// A mate by a rook or queen on the back rank, the king shut in by its own
/// pieces in front of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRankMate {
    /// The mating rook or queen, on the king's back rank.
    pub mating: Placed,
    /// The mated king.
    pub king: Square,
}

/// The back-rank mate that legal move `m` gives, if it does: after it the
/// opponent is checkmated, its king on its own back rank is checked along
/// that rank by a rook or queen, and each square in front of the king holds
/// one of its own pieces (at least one a pawn) or is covered by the mating
/// side.
///
/// # Examples
/// ```
/// use plyyard_engine::tactics::back_rank_mate_after;
/// use shakmaty::{CastlingMode, Chess, Square, fen::Fen, uci::UciMove};
/// let pos: Chess = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
///     .parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
/// let m = "a1a8".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
/// assert_eq!(back_rank_mate_after(&pos, m).unwrap().king, Square::G8);
/// ```
pub fn back_rank_mate_after(pos: &Chess, m: Move) -> Option<BackRankMate> {
    let after = played(pos, m);
    if !after.is_checkmate() {
        return None;
    }
    let victim = after.turn();
    let board = after.board();
    let king = board.king_of(victim)?;
    let back = victim.backrank();
    if king.rank() != back {
        return None;
    }
    let mating = after
        .checkers()
        .into_iter()
        .filter_map(|sq| placed(&after, sq))
        .find(|p| matches!(p.role, Role::Rook | Role::Queen) && p.square.rank() == back)?;
    let front = victim.relative_rank(Rank::Second);
    let shelter = (attacks::king_attacks(king) & Bitboard::from(front))
        .into_iter()
        .all(|sq| {
            board.color_at(sq) == Some(victim)
                || board.attacks_to(sq, !victim, board.occupied()).any()
        });
    let pawns = attacks::king_attacks(king)
        & Bitboard::from(front)
        & board.by_color(victim)
        & board.pawns();
    (shelter && pawns.any()).then_some(BackRankMate { mating, king })
}

/// `pos` after legal move `m`.
fn played(pos: &Chess, m: Move) -> Chess {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after
}

fn placed(pos: &Chess, square: Square) -> Option<Placed> {
    pos.board()
        .role_at(square)
        .map(|role| Placed { square, role })
}

/// The squares the moving side's pieces land on.
fn moved_squares(m: Move, mover: Color) -> Bitboard {
    match m.castling_side() {
        Some(side) => {
            Bitboard::from_square(side.king_to(mover)) | Bitboard::from_square(side.rook_to(mover))
        }
        None => Bitboard::from_square(m.to()),
    }
}

fn slider_attacks(role: Role, from: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        Role::Queen => attacks::queen_attacks(from, occupied),
        _ => Bitboard::EMPTY,
    }
}
