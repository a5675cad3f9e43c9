//! Evaluation parameters: the layout of the weight vector and its starting
//! values. Every evaluation weight lives here, indexed by the constants
//! below; `plyyard tune` fits them to game results and prints a new table.

/// A middlegame / endgame weight pair, in centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

/// Phase of a full set of pieces (N = B = 1, R = 2, Q = 4).
pub const MAX_PHASE: i32 = 24;

/// Material per role (pawn .. king).
pub const MATERIAL: usize = 0;
/// Piece-square tables, 64 per role, from White's side (a1 = 0).
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by number of reachable safe squares (0..=8).
pub const MOB_N: usize = PST + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOB_B: usize = MOB_N + 9;
/// Rook mobility (0..=14).
pub const MOB_R: usize = MOB_B + 14;
/// Queen mobility (0..=27).
pub const MOB_Q: usize = MOB_R + 15;
/// Per attacked square of the enemy king zone, by a knight.
pub const KING_ATT_N: usize = MOB_Q + 28;
/// ... by a bishop.
pub const KING_ATT_B: usize = KING_ATT_N + 1;
/// ... by a rook.
pub const KING_ATT_R: usize = KING_ATT_B + 1;
/// ... by a queen.
pub const KING_ATT_Q: usize = KING_ATT_R + 1;
/// By number of pieces attacking the enemy king zone (0..=7).
pub const KING_ATTACKERS: usize = KING_ATT_Q + 1;
/// Two or more bishops.
pub const BISHOP_PAIR: usize = KING_ATTACKERS + 8;
/// Per own piece attacked by an enemy pawn.
pub const THREAT_BY_PAWN: usize = BISHOP_PAIR + 1;
/// Rook on a file without pawns.
pub const ROOK_OPEN: usize = THREAT_BY_PAWN + 1;
/// Rook on a file with only enemy pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Rook on the seventh rank.
pub const ROOK_SEVENTH: usize = ROOK_SEMI_OPEN + 1;
/// Pawn with no own pawn on adjacent files.
pub const ISOLATED: usize = ROOK_SEVENTH + 1;
/// Pawn with an own pawn in front of it.
pub const DOUBLED: usize = ISOLATED + 1;
/// Defended or side-by-side pawn, by relative rank.
pub const CONNECTED: usize = DOUBLED + 1;
/// Passed pawn by relative rank.
pub const PASSED: usize = CONNECTED + 8;
/// Passed pawn whose path is empty, by relative rank.
pub const PASSED_FREE: usize = PASSED + 8;
/// Passed pawn: own king distance to its stop square, times rank weight.
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8;
/// Passed pawn: enemy king distance to its stop square, times rank weight.
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
/// Own pawns shielding the king, by count (0..=3).
pub const KING_SHIELD: usize = PASSED_ENEMY_KING + 1;
/// Per file next to the king without own pawns.
pub const KING_OPEN_FILE: usize = KING_SHIELD + 4;
/// Enemy piece attacked by one of our knights or bishops, by its role
/// (pawn .. queen), when it is weak or a pawn-defended non-pawn.
pub const THREAT_BY_MINOR: usize = KING_OPEN_FILE + 1;
/// Weak enemy piece attacked by one of our rooks, by its role.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 5;
/// Weak enemy piece that is undefended or a non-pawn we attack twice.
pub const HANGING: usize = THREAT_BY_ROOK + 5;
/// Some safe square exists from which a knight could check the enemy king.
pub const SAFE_CHECK_N: usize = HANGING + 1;
/// ... a bishop.
pub const SAFE_CHECK_B: usize = SAFE_CHECK_N + 1;
/// ... a rook.
pub const SAFE_CHECK_R: usize = SAFE_CHECK_B + 1;
/// ... a queen.
pub const SAFE_CHECK_Q: usize = SAFE_CHECK_R + 1;
/// Knight on an outpost: ranks 4 to 6, defended by a pawn, out of reach of
/// enemy pawns.
pub const OUTPOST_N: usize = SAFE_CHECK_Q + 1;
/// Bishop on an outpost.
pub const OUTPOST_B: usize = OUTPOST_N + 1;
/// King danger by units (attackers of the king zone weighted by role,
/// safe checks, poorly defended zone squares), capped.
pub const KING_DANGER: usize = OUTPOST_B + 1;
/// Number of [`KING_DANGER`] buckets.
pub const KING_DANGER_BUCKETS: usize = 24;
/// Backward pawn: not isolated, no own pawn beside or behind it on the
/// adjacent files, and its stop square attacked by an enemy pawn.
pub const BACKWARD: usize = KING_DANGER + KING_DANGER_BUCKETS;
/// Per own pawn on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWNS: usize = BACKWARD + 1;
/// Knight or bishop with a pawn (either colour) just in front of it.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// Per enemy piece (not a pawn or the king) that one safe pawn push would
/// attack.
pub const PAWN_PUSH_THREAT: usize = MINOR_BEHIND_PAWN + 1;
/// Distance from the king to its nearest own pawn.
pub const KING_PAWN_DISTANCE: usize = PAWN_PUSH_THREAT + 1;
/// Bonus for the side to move (not part of the linear sum).
pub const TEMPO: usize = KING_PAWN_DISTANCE + 1;
/// Number of parameters.
pub const N_PARAMS: usize = TEMPO + 1;

/// A full weight vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params(pub [S; N_PARAMS]);

fn centre_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2
}

/// Error for a weight table that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseParamsError(pub String);

impl std::fmt::Display for ParseParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseParamsError {}

impl Params {
    /// Reads a table written by `plyyard tune`: every `S(mg, eg)` in order.
    ///
    /// # Errors
    ///
    /// Fails unless exactly [`N_PARAMS`] well-formed pairs are found.
    pub fn from_rust(text: &str) -> Result<Params, ParseParamsError> {
        let mut w = Vec::with_capacity(N_PARAMS);
        for chunk in text.split("S(").skip(1) {
            let inner = chunk
                .split(')')
                .next()
                .ok_or_else(|| ParseParamsError("unclosed S(".into()))?;
            let (a, b) = inner
                .split_once(',')
                .ok_or_else(|| ParseParamsError(format!("expected S(mg, eg), got S({inner})")))?;
            let parse = |x: &str| {
                x.trim()
                    .parse::<i32>()
                    .map_err(|_| ParseParamsError(format!("bad number in S({inner})")))
            };
            w.push(S(parse(a)?, parse(b)?));
        }
        let n = w.len();
        let arr: [S; N_PARAMS] = w
            .try_into()
            .map_err(|_| ParseParamsError(format!("expected {N_PARAMS} weights, found {n}")))?;
        Ok(Params(arr))
    }

    /// Hand-set starting values: simple geometric rules (centralise pieces,
    /// advance pawns, keep the king home until the endgame).
    pub fn initial() -> Params {
        let mut w = [S(0, 0); N_PARAMS];
        let material = [
            S(80, 100),
            S(320, 300),
            S(330, 310),
            S(450, 520),
            S(940, 980),
            S(0, 0),
        ];
        w[MATERIAL..MATERIAL + 6].copy_from_slice(&material);
        for sq in 0..64 {
            let f = sq % 8;
            let r = sq / 8;
            let cd = centre_distance(sq);
            let pawn_mg = [0, 0, 0, 5, 12, 25, 50, 0][r]
                + if (3..=4).contains(&f) && (2..=4).contains(&r) {
                    10
                } else {
                    0
                };
            let pawn_eg = [0, 0, 0, 5, 12, 25, 45, 0][r];
            w[PST + sq] = S(pawn_mg, pawn_eg);
            w[PST + 64 + sq] = S(20 - 6 * cd, 15 - 5 * cd);
            w[PST + 128 + sq] = S(10 - 3 * cd, 8 - 3 * cd);
            w[PST + 192 + sq] = S(if (3..=4).contains(&f) { 8 } else { 0 }, 0);
            w[PST + 256 + sq] = S(5 - 2 * cd, 15 - 4 * cd);
            let king_mg = match r {
                0 => [20, 30, 10, 0, 0, 10, 30, 20][f],
                1 => [0, 5, -10, -20, -20, -10, 5, 0][f],
                _ => -30 - 10 * r as i32,
            };
            w[PST + 320 + sq] = S(king_mg, 30 - 8 * cd);
        }
        for k in 0..9 {
            w[MOB_N + k] = S(4 * (k as i32 - 4), 4 * (k as i32 - 4));
        }
        for k in 0..14 {
            w[MOB_B + k] = S(5 * (k as i32 - 6), 5 * (k as i32 - 6));
        }
        for k in 0..15 {
            w[MOB_R + k] = S(2 * (k as i32 - 7), 4 * (k as i32 - 7));
        }
        for k in 0..28 {
            w[MOB_Q + k] = S(k as i32 - 13, 2 * (k as i32 - 13));
        }
        w[KING_ATT_N] = S(6, 0);
        w[KING_ATT_B] = S(5, 0);
        w[KING_ATT_R] = S(7, 0);
        w[KING_ATT_Q] = S(8, 0);
        for (k, v) in [0, 0, 10, 25, 45, 60, 70, 75].into_iter().enumerate() {
            w[KING_ATTACKERS + k] = S(v, 0);
        }
        w[BISHOP_PAIR] = S(30, 50);
        w[THREAT_BY_PAWN] = S(-40, -30);
        w[ROOK_OPEN] = S(25, 10);
        w[ROOK_SEMI_OPEN] = S(12, 5);
        w[ROOK_SEVENTH] = S(15, 20);
        w[ISOLATED] = S(-10, -12);
        w[DOUBLED] = S(-8, -20);
        let connected = [0, 0, 5, 7, 12, 20, 35, 0];
        let passed_mg = [0, 0, 5, 10, 20, 40, 70, 0];
        let passed_eg = [0, 5, 10, 20, 40, 70, 110, 0];
        let free_eg = [0, 0, 0, 5, 10, 20, 40, 0];
        for r in 0..8 {
            w[CONNECTED + r] = S(connected[r], connected[r] * 9 / 10);
            w[PASSED + r] = S(passed_mg[r], passed_eg[r]);
            w[PASSED_FREE + r] = S(0, free_eg[r]);
        }
        w[PASSED_OWN_KING] = S(0, -3);
        w[PASSED_ENEMY_KING] = S(0, 6);
        for (k, v) in [-30, -12, 0, 8].into_iter().enumerate() {
            w[KING_SHIELD + k] = S(v, 0);
        }
        w[KING_OPEN_FILE] = S(-15, 0);
        let minor = [S(5, 20), S(40, 40), S(40, 40), S(60, 40), S(60, 40)];
        let rook = [S(3, 25), S(25, 40), S(25, 40), S(0, 0), S(60, 40)];
        w[THREAT_BY_MINOR..THREAT_BY_MINOR + 5].copy_from_slice(&minor);
        w[THREAT_BY_ROOK..THREAT_BY_ROOK + 5].copy_from_slice(&rook);
        w[HANGING] = S(50, 25);
        w[SAFE_CHECK_N] = S(50, 5);
        w[SAFE_CHECK_B] = S(30, 5);
        w[SAFE_CHECK_R] = S(50, 5);
        w[SAFE_CHECK_Q] = S(40, 5);
        w[OUTPOST_N] = S(25, 10);
        w[OUTPOST_B] = S(15, 5);
        for u in 0..KING_DANGER_BUCKETS {
            let u = u as i32;
            w[KING_DANGER + u as usize] = S(u * u / 2, 0);
        }
        w[BACKWARD] = S(-8, -10);
        w[BISHOP_PAWNS] = S(-3, -6);
        w[MINOR_BEHIND_PAWN] = S(15, 3);
        w[PAWN_PUSH_THREAT] = S(15, 10);
        w[KING_PAWN_DISTANCE] = S(0, -8);
        w[TEMPO] = S(15, 5);
        Params(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_tables_are_refused() {
        assert!(Params::from_rust("S(1, 2)").is_err());
        assert!(Params::from_rust("S(1 2)").is_err());
    }
}
