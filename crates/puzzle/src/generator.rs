//! The generator's criteria, pure: which positions after a mistake make
//! a puzzle, which attacker moves are the only good move, where the
//! solution stops. The caller runs the engine (multipv 2) and passes its
//! scores here; nothing in this module searches.
//!
//! Scores are from the point of view of the side to move in the position
//! evaluated (the attacker, for the attacker's moves).

use plyyard_game::shakmaty::{Chess, Color, Position, Role};

/// An engine score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves (`n > 0`: the side to move mates; `n < 0`: it is
    /// mated).
    Mate(i32),
}

/// Win chance in −1..=1 of a centipawn score, lichess's curve:
/// `2 / (1 + exp(−0.00368208 · cp)) − 1`.
///
/// # Examples
/// ```
/// use plyyard_puzzle::generator::win_chances;
/// assert_eq!(win_chances(0), 0.0);
/// assert!((win_chances(200) - 0.35).abs() < 0.01);
/// assert!((win_chances(-200) + win_chances(200)).abs() < 1e-12);
/// ```
pub fn win_chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0
}

impl Score {
    /// The win chance of the score: ±1 for a mate.
    pub fn win_chances(self) -> f64 {
        match self {
            Score::Cp(cp) => win_chances(cp),
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => -1.0,
        }
    }

    /// The same score seen from the other side.
    #[must_use]
    pub const fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// What kind of puzzle a candidate position makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The attacker mates (in fewer than [`MAX_MATE`] moves).
    Mate,
    /// The attacker wins material or position decisively.
    Advantage,
}

/// Mates this long or longer are not puzzles.
pub const MAX_MATE: i32 = 15;
/// Least centipawn advantage of an advantage puzzle.
pub const MIN_ADVANTAGE: i32 = 200;
/// Least jump in win chance made by the opponent's mistake.
pub const MIN_JUMP: f64 = 0.6;
/// The attacker's eval before the mistake must not exceed this.
pub const MAX_PREVIOUS: i32 = 300;
/// Least margin in win chance of the only move over the second best.
pub const ONLY_MOVE_MARGIN: f64 = 0.7;

/// Whether the position after the opponent's move is a candidate, and of
/// which kind. `before` is the attacker's score before that move, `after`
/// the attacker's score after it (the attacker to move). When the
/// attacker stood above +300 before (a mate of its own included), the
/// move sets no puzzle.
///
/// # Examples
/// ```
/// use plyyard_puzzle::generator::{Kind, Score, candidate};
/// assert_eq!(candidate(Score::Cp(0), Score::Mate(3)), Some(Kind::Mate));
/// assert_eq!(candidate(Score::Cp(-50), Score::Cp(450)), Some(Kind::Advantage));
/// assert_eq!(candidate(Score::Cp(150), Score::Cp(350)), None); // jump too small
/// ```
pub fn candidate(before: Score, after: Score) -> Option<Kind> {
    // A mate the attacker already had counts as standing above +300.
    match before {
        Score::Cp(prev) if prev > MAX_PREVIOUS => return None,
        Score::Mate(n) if n > 0 => return None,
        _ => {}
    }
    match after {
        Score::Mate(n) if n > 0 && n < MAX_MATE => Some(Kind::Mate),
        Score::Mate(_) => None,
        Score::Cp(cp) => {
            let jump = after.win_chances() - before.win_chances();
            (cp >= MIN_ADVANTAGE && jump > MIN_JUMP).then_some(Kind::Advantage)
        }
    }
}

/// Whether the engine's best move is the only good one: its win chance
/// beats the second best's by more than [`ONLY_MOVE_MARGIN`]. With a
/// single legal move (`second` is `None`) it is. A mating move may have
/// rival mates when it is the line's last (`last_mate`): two mates in one
/// are both accepted (check [`rival_mates_allowed`] then).
pub fn only_move(best: Score, second: Option<Score>, last_mate: bool) -> bool {
    let Some(second) = second else {
        return true;
    };
    if last_mate && best == Score::Mate(1) && second == Score::Mate(1) {
        return true;
    }
    best.win_chances() > second.win_chances() + ONLY_MOVE_MARGIN
}

/// Most win chance the best non-mating move may keep when several moves
/// mate in one.
pub const RIVAL_MATE_MARGIN: f64 = 0.6;

/// When several moves mate in one (multipv 2 shows two), whether the
/// position still makes a fair last move: the best move that does not
/// mate at once (the caller's search with one more line) must not win
/// too (win chance at most [`RIVAL_MATE_MARGIN`]). `None`: every legal
/// move mates.
///
/// # Examples
/// ```
/// use plyyard_puzzle::generator::{Score, rival_mates_allowed};
/// assert!(rival_mates_allowed(Some(Score::Cp(0))));
/// assert!(!rival_mates_allowed(Some(Score::Mate(3))));
/// ```
pub fn rival_mates_allowed(best_non_mating: Option<Score>) -> bool {
    best_non_mating.is_none_or(|s| s.win_chances() <= RIVAL_MATE_MARGIN)
}

/// One attacker move of a candidate line, as the engine judged it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackerMove {
    /// The engine's best score in the position (attacker to move).
    pub best: Score,
    /// The second best (multipv 2), `None` with one legal move.
    pub second: Option<Score>,
    /// The move mates.
    pub mates: bool,
}

/// The solution's length in plies for a line of attacker moves (each
/// followed by the defender's reply): the line stops before the first
/// attacker move that is not the only good move, so it ends on the
/// attacker's move (an odd ply count). An advantage line whose best
/// score falls below [`MIN_ADVANTAGE`] is no puzzle (`None`), nor is a
/// line of one move that does not mate.
pub fn solution_plies(kind: Kind, moves: &[AttackerMove]) -> Option<usize> {
    let mut kept = 0;
    for m in moves {
        if kind == Kind::Advantage && !holds_advantage(m.best) {
            return None;
        }
        if !only_move(m.best, m.second, m.mates) {
            break;
        }
        kept += 1;
        if m.mates {
            break;
        }
    }
    let mates = kept > 0 && moves[kept - 1].mates;
    match kept {
        0 => None,
        1 if !mates => None,
        n => Some(2 * n - 1),
    }
}

fn holds_advantage(score: Score) -> bool {
    match score {
        Score::Cp(cp) => cp >= MIN_ADVANTAGE,
        Score::Mate(n) => n > 0,
    }
}

/// Under this many centipawns an advantage puzzle must come from a
/// material deficit (the attacker was down material before the mistake).
pub const CLEAR_ADVANTAGE: i32 = 400;

/// Whether an advantage candidate of `cp` centipawns is kept: at
/// [`CLEAR_ADVANTAGE`] or more always, below only when the attacker was
/// down in material before the opponent's mistake.
///
/// # Examples
/// ```
/// use plyyard_puzzle::generator::advantage_kept;
/// assert!(advantage_kept(450, false));
/// assert!(!advantage_kept(250, false));
/// assert!(advantage_kept(250, true));
/// ```
pub const fn advantage_kept(cp: i32, was_down_material: bool) -> bool {
    cp >= CLEAR_ADVANTAGE || was_down_material
}

/// Whether `side` is ahead in material (pawn 1, minor 3, rook 5, queen
/// 9): such a side's "mistake-punishing" line is skipped, as the puzzle
/// would often be just cashing in.
pub fn ahead_in_material(pos: &Chess, side: Color) -> bool {
    material(pos, side) > material(pos, !side)
}

/// Material of `side` in pawns.
pub fn material(pos: &Chess, side: Color) -> i32 {
    let board = pos.board();
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(role, value)| {
        let count = (board.by_role(role) & board.by_color(side)).count();
        value * i32::try_from(count).unwrap_or(0)
    })
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: AttackerMove = AttackerMove {
        best: Score::Cp(500),
        second: Some(Score::Cp(0)),
        mates: false,
    };

    #[test]
    fn win_chances_curve() {
        assert!((win_chances(1000) - 0.951).abs() < 0.001);
        assert!(win_chances(100_000) <= 1.0);
        assert_eq!(Score::Mate(-2).win_chances(), -1.0);
        assert_eq!(Score::Cp(120).flip(), Score::Cp(-120));
    }

    #[test]
    fn candidates() {
        assert_eq!(candidate(Score::Cp(0), Score::Mate(14)), Some(Kind::Mate));
        assert_eq!(candidate(Score::Cp(0), Score::Mate(15)), None);
        assert_eq!(candidate(Score::Cp(0), Score::Mate(-3)), None);
        assert_eq!(candidate(Score::Cp(400), Score::Mate(2)), None);
        // The attacker had a mate already: the mistake sets no puzzle.
        assert_eq!(candidate(Score::Mate(3), Score::Mate(3)), None);
        assert_eq!(candidate(Score::Cp(0), Score::Cp(199)), None);
        // 0 → +500: jump 0.72.
        assert_eq!(
            candidate(Score::Cp(0), Score::Cp(500)),
            Some(Kind::Advantage)
        );
        // +100 → +400: jump 0.58 only.
        assert_eq!(candidate(Score::Cp(100), Score::Cp(400)), None);
        assert_eq!(
            candidate(Score::Mate(-4), Score::Cp(300)),
            Some(Kind::Advantage)
        );
    }

    #[test]
    fn only_moves() {
        assert!(only_move(Score::Cp(600), Some(Score::Cp(0)), false));
        assert!(!only_move(Score::Cp(600), Some(Score::Cp(300)), false));
        assert!(only_move(Score::Cp(10), None, false));
        assert!(only_move(Score::Mate(1), Some(Score::Mate(1)), true));
        assert!(!only_move(Score::Mate(2), Some(Score::Mate(3)), false));
        assert!(only_move(Score::Mate(2), Some(Score::Cp(-100)), false));
    }

    #[test]
    fn trimming() {
        let mate = AttackerMove {
            best: Score::Mate(1),
            second: Some(Score::Cp(0)),
            mates: true,
        };
        let loose = AttackerMove {
            second: Some(Score::Cp(450)),
            ..M
        };
        assert_eq!(solution_plies(Kind::Mate, &[mate]), Some(1));
        assert_eq!(solution_plies(Kind::Advantage, &[M]), None);
        assert_eq!(solution_plies(Kind::Advantage, &[M, M]), Some(3));
        assert_eq!(solution_plies(Kind::Advantage, &[M, M, loose, M]), Some(3));
        assert_eq!(solution_plies(Kind::Advantage, &[M, loose]), None);
        assert_eq!(solution_plies(Kind::Advantage, &[loose]), None);
        let fading = AttackerMove {
            best: Score::Cp(150),
            ..M
        };
        assert_eq!(solution_plies(Kind::Advantage, &[M, fading]), None);
        let mating = AttackerMove {
            best: Score::Mate(2),
            second: Some(Score::Cp(100)),
            mates: false,
        };
        assert_eq!(solution_plies(Kind::Mate, &[mating, mate, M]), Some(3));
    }

    #[test]
    fn material_count() {
        let pos = crate::line::parse_fen("4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1").unwrap();
        assert_eq!(material(&pos, Color::White), 7);
        assert!(ahead_in_material(&pos, Color::White));
        assert!(!ahead_in_material(&pos, Color::Black));
    }
}
