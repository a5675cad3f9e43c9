//! Evaluations and move labels: the engine's verdict as White sees it
//! ([`Eval`]), winning chances on lichess's curve, and the label a move
//! earns from the winning chances it gives away ([`judge`]).
//!
//! # The rule (see `docs/review.md`)
//! Winning chances of an evaluation, from White's side, in [−1, 1]:
//! `2 / (1 + exp(−0.00368208 · cp)) − 1`, with `cp` clamped to ±1000 and a
//! mate for either side counted as ±1000 (lichess's `WinPercent`). A move's
//! *loss* is the drop of the mover's winning chances from the position
//! before the move to the position after it. Then:
//! - a loss of at least 0.3 is a blunder, 0.2 a mistake, 0.1 an inaccuracy;
//! - a move that gives up a forced mate the mover had is a *missed mate in
//!   N*: a blunder, or a mistake when the position after it is still worth
//!   more than 700 cp to the mover, an inaccuracy above 999 cp;
//! - a move after which the opponent has a forced mate it did not have is an
//!   *allowed mate in N*: a blunder, or a mistake when the position before
//!   was already below −700 cp for the mover (never less: allowing a forced
//!   mate is at least a mistake, however lost the position was);
//! - a mate that is merely slower than the best one earns nothing.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// Steepness of the winning-chances curve (per centipawn).
pub const WIN_CHANCE_SLOPE: f64 = 0.003_682_08;
/// Centipawn scores are clamped to ± this before the curve; mates count as
/// this much.
pub const CP_CEILING: i32 = 1000;
/// Smallest loss of winning chances (on [−1, 1]) that is an inaccuracy.
pub const INACCURACY_LOSS: f64 = 0.1;
/// Smallest loss that is a mistake.
pub const MISTAKE_LOSS: f64 = 0.2;
/// Smallest loss that is a blunder.
pub const BLUNDER_LOSS: f64 = 0.3;

/// A side, as the review's data names it (`"white"`, `"black"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// Whether this is White.
    pub fn is_white(self) -> bool {
        self == Side::White
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        if c.is_white() {
            Side::White
        } else {
            Side::Black
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        Color::from_white(s.is_white())
    }
}

/// An evaluation from White's point of view: `{"cp": 35}`, `{"mate": 3}`
/// (White mates in 3), `{"mate": -2}` (Black mates in 2), or
/// `{"checkmate": "white"}` for a game that ended with White's mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns; positive favours White.
    Cp(i32),
    /// A forced mate in that many moves; positive when White mates.
    Mate(i32),
    /// Checkmate on the board, given by this side.
    Checkmate(Side),
}

impl Eval {
    /// The engine's score (from the side to move) as White sees it.
    pub fn from_score(score: plyyard_engine::Score, to_move: Side) -> Eval {
        let sign = if to_move.is_white() { 1 } else { -1 };
        match score {
            plyyard_engine::Score::Cp(c) => Eval::Cp(c * sign),
            plyyard_engine::Score::Mate(m) => Eval::Mate(m * sign),
        }
    }

    /// Centipawns for White with mates at ±[`CP_CEILING`] and any score
    /// clamped to that range.
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(m) if m > 0 => CP_CEILING,
            Eval::Mate(_) => -CP_CEILING,
            Eval::Checkmate(Side::White) => CP_CEILING,
            Eval::Checkmate(Side::Black) => -CP_CEILING,
        }
    }

    /// White's winning chances in [−1, 1].
    pub fn win_chances(self) -> f64 {
        let cp = f64::from(self.ceiled_cp());
        2.0 / (1.0 + (-WIN_CHANCE_SLOPE * cp).exp()) - 1.0
    }

    /// White's winning chances as a percentage, 0 to 100.
    pub fn win_percent(self) -> f64 {
        50.0 + 50.0 * self.win_chances()
    }

    /// This evaluation as `side` sees it.
    fn pov(self, side: Side) -> Pov {
        let sign = if side.is_white() { 1 } else { -1 };
        match self {
            Eval::Cp(c) => Pov::Cp(c * sign),
            Eval::Mate(m) if (m > 0) == side.is_white() => Pov::Mates(m.unsigned_abs()),
            Eval::Mate(m) => Pov::Mated(m.unsigned_abs()),
            Eval::Checkmate(s) if s == side => Pov::Mates(0),
            Eval::Checkmate(_) => Pov::Mated(0),
        }
    }
}

/// An evaluation from one side's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pov {
    Cp(i32),
    /// This side mates in that many moves.
    Mates(u32),
    /// The other side mates in that many moves.
    Mated(u32),
}

/// How bad a move is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Label {
    /// The PGN NAG number: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Label::Inaccuracy => 6,
            Label::Mistake => 2,
            Label::Blunder => 4,
        }
    }

    /// The move-assessment symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Label::Inaccuracy => "?!",
            Label::Mistake => "?",
            Label::Blunder => "??",
        }
    }

    /// The label a loss of winning chances earns, if any.
    pub fn from_loss(loss: f64) -> Option<Label> {
        if loss >= BLUNDER_LOSS {
            Some(Label::Blunder)
        } else if loss >= MISTAKE_LOSS {
            Some(Label::Mistake)
        } else if loss >= INACCURACY_LOSS {
            Some(Label::Inaccuracy)
        } else {
            None
        }
    }

    /// Lowercase name (`inaccuracy`, `mistake`, `blunder`).
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// What a move did to a forced mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MateChange {
    /// The mover had a forced mate in `moves` and let it go.
    Missed {
        /// Length of the mate the mover had.
        moves: u32,
    },
    /// After the move the opponent mates in `moves`.
    Allowed {
        /// Length of the opponent's mate.
        moves: u32,
    },
}

/// The verdict on one move.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The label, if the move earns one.
    pub label: Option<Label>,
    /// A mate missed or allowed.
    pub mate: Option<MateChange>,
    /// The mover's loss of winning chances (on [−1, 1]), never negative.
    pub loss: f64,
}

impl Judgement {
    /// A move with nothing to say about it.
    pub const GOOD: Judgement = Judgement {
        label: None,
        mate: None,
        loss: 0.0,
    };
}

/// The verdict on a move by `mover` from a position evaluated `before` to
/// one evaluated `after` (both from White's point of view). See the
/// [module documentation](self) for the rule.
pub fn judge(before: Eval, after: Eval, mover: Side) -> Judgement {
    let sign = if mover.is_white() { 1.0 } else { -1.0 };
    let loss = (sign * (before.win_chances() - after.win_chances())).max(0.0);
    let (b, a) = (before.pov(mover), after.pov(mover));
    let (label, mate) = match (b, a) {
        (_, Pov::Mates(_)) => (None, None),
        (Pov::Mates(n), Pov::Cp(cp)) => (
            Some(missed_label(cp)),
            Some(MateChange::Missed { moves: n }),
        ),
        (Pov::Mates(n), Pov::Mated(_)) => {
            (Some(Label::Blunder), Some(MateChange::Missed { moves: n }))
        }
        (Pov::Cp(cp), Pov::Mated(m)) => (
            Some(allowed_label(cp)),
            Some(MateChange::Allowed { moves: m }),
        ),
        (Pov::Cp(_), Pov::Cp(_)) => (Label::from_loss(loss), None),
        (Pov::Mated(_), _) => (None, None),
    };
    Judgement { label, mate, loss }
}

fn missed_label(cp_after: i32) -> Label {
    if cp_after > 999 {
        Label::Inaccuracy
    } else if cp_after > 700 {
        Label::Mistake
    } else {
        Label::Blunder
    }
}

fn allowed_label(cp_before: i32) -> Label {
    if cp_before < -700 {
        Label::Mistake
    } else {
        Label::Blunder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_s() {
        assert_eq!(Eval::Cp(0).win_chances(), 0.0);
        assert!((Eval::Cp(100).win_chances() - 0.18206).abs() < 1e-4);
        assert!((Eval::Cp(-300).win_chances() + 0.50225).abs() < 1e-4);
        assert_eq!(Eval::Cp(5000).win_chances(), Eval::Cp(1000).win_chances());
        assert_eq!(Eval::Mate(3).win_chances(), Eval::Cp(1000).win_chances());
        assert_eq!(Eval::Mate(-1).win_chances(), Eval::Cp(-1000).win_chances());
        assert_eq!(
            Eval::Checkmate(Side::Black).win_percent(),
            Eval::Mate(-4).win_percent()
        );
        assert!((Eval::Cp(0).win_percent() - 50.0).abs() < 1e-12);
    }

    #[test]
    fn scores_turn_to_white_s_view() {
        assert_eq!(
            Eval::from_score(plyyard_engine::Score::Cp(40), Side::Black),
            Eval::Cp(-40)
        );
        assert_eq!(
            Eval::from_score(plyyard_engine::Score::Mate(2), Side::Black),
            Eval::Mate(-2)
        );
        assert_eq!(
            Eval::from_score(plyyard_engine::Score::Mate(-1), Side::White),
            Eval::Mate(-1)
        );
    }

    /// The centipawn score after which a move from 0 cp loses exactly `loss`.
    fn cp_for_loss(loss: f64) -> f64 {
        // 2/(1+e^(-k·cp)) − 1 = −loss  ⇔  cp = −ln(2/(1−loss) − 1)/k
        -(2.0 / (1.0 - loss) - 1.0).ln() / WIN_CHANCE_SLOPE
    }

    #[test]
    fn labels_follow_the_thresholds() {
        for (loss, label) in [
            (INACCURACY_LOSS, Label::Inaccuracy),
            (MISTAKE_LOSS, Label::Mistake),
            (BLUNDER_LOSS, Label::Blunder),
        ] {
            let at = cp_for_loss(loss);
            let just_over = at.floor() as i32;
            let just_under = just_over + 2;
            let over = judge(Eval::Cp(0), Eval::Cp(just_over), Side::White);
            let under = judge(Eval::Cp(0), Eval::Cp(just_under), Side::White);
            assert_eq!(over.label, Some(label), "{loss} at {just_over}");
            assert_ne!(under.label, Some(label), "{loss} at {just_under}");
            // Black's drop is the mirror image.
            let black = judge(Eval::Cp(0), Eval::Cp(-just_over), Side::Black);
            assert_eq!(black.label, Some(label));
        }
        assert_eq!(Label::from_loss(0.099), None);
        assert_eq!(Label::from_loss(0.1), Some(Label::Inaccuracy));
        assert_eq!(Label::from_loss(0.2), Some(Label::Mistake));
        assert_eq!(Label::from_loss(0.3), Some(Label::Blunder));
        assert_eq!(Label::from_loss(1.9), Some(Label::Blunder));
    }

    #[test]
    fn cp_thresholds_in_centipawns() {
        // From equality: about 54, 110 and 168 cp lost.
        assert!(
            (cp_for_loss(0.1) + 54.3).abs() < 0.5,
            "{}",
            cp_for_loss(0.1)
        );
        assert!(
            (cp_for_loss(0.2) + 110.3).abs() < 0.5,
            "{}",
            cp_for_loss(0.2)
        );
        assert!(
            (cp_for_loss(0.3) + 168.3).abs() < 0.5,
            "{}",
            cp_for_loss(0.3)
        );
    }

    #[test]
    fn gains_and_tiny_losses_earn_nothing() {
        assert_eq!(
            judge(Eval::Cp(0), Eval::Cp(300), Side::White),
            Judgement {
                label: None,
                mate: None,
                loss: 0.0
            }
        );
        assert_eq!(judge(Eval::Cp(20), Eval::Cp(-20), Side::White).label, None);
        // Losing 300 cp when already 900 down is no blunder: the curve is flat.
        assert_eq!(
            judge(Eval::Cp(-900), Eval::Cp(-1200), Side::White).label,
            None
        );
        // A gain for Black is a drop for White's numbers.
        assert_eq!(judge(Eval::Cp(0), Eval::Cp(-500), Side::Black).label, None);
    }

    #[test]
    fn mates_missed_and_allowed() {
        let missed = judge(Eval::Mate(1), Eval::Cp(150), Side::White);
        assert_eq!(missed.label, Some(Label::Blunder));
        assert_eq!(missed.mate, Some(MateChange::Missed { moves: 1 }));
        assert_eq!(
            judge(Eval::Mate(2), Eval::Cp(800), Side::White).label,
            Some(Label::Mistake)
        );
        assert_eq!(
            judge(Eval::Mate(2), Eval::Cp(1500), Side::White).label,
            Some(Label::Inaccuracy)
        );
        // Black had mate in 3 and now White mates.
        let reversed = judge(Eval::Mate(-3), Eval::Mate(2), Side::Black);
        assert_eq!(reversed.label, Some(Label::Blunder));
        assert_eq!(reversed.mate, Some(MateChange::Missed { moves: 3 }));

        let allowed = judge(Eval::Cp(-50), Eval::Mate(-2), Side::White);
        assert_eq!(allowed.label, Some(Label::Blunder));
        assert_eq!(allowed.mate, Some(MateChange::Allowed { moves: 2 }));
        assert_eq!(
            judge(Eval::Cp(800), Eval::Mate(1), Side::Black).label,
            Some(Label::Mistake)
        );
        // However lost the position was, allowing a forced mate is at
        // least a mistake (issue 58: a mate in two allowed was only "?!").
        assert_eq!(
            judge(Eval::Cp(1200), Eval::Mate(1), Side::Black).label,
            Some(Label::Mistake)
        );
        assert_eq!(
            judge(Eval::Cp(-1500), Eval::Mate(-2), Side::White).label,
            Some(Label::Mistake)
        );
    }

    #[test]
    fn slower_mates_and_lost_causes_earn_nothing() {
        assert_eq!(
            judge(Eval::Mate(2), Eval::Mate(5), Side::White),
            Judgement {
                label: None,
                mate: None,
                loss: 0.0
            }
        );
        assert_eq!(
            judge(Eval::Mate(-2), Eval::Mate(-1), Side::White).label,
            None
        );
        assert_eq!(
            judge(Eval::Mate(1), Eval::Checkmate(Side::White), Side::White),
            Judgement::GOOD
        );
        assert_eq!(judge(Eval::Mate(-1), Eval::Cp(0), Side::White).label, None);
    }

    #[test]
    fn nags_and_symbols() {
        assert_eq!(
            [Label::Inaccuracy, Label::Mistake, Label::Blunder].map(Label::nag),
            [6, 2, 4]
        );
        assert_eq!(Label::Blunder.symbol(), "??");
        let json = serde_json::to_string(&Eval::Checkmate(Side::White)).unwrap();
        assert_eq!(json, r#"{"checkmate":"white"}"#);
        assert_eq!(
            serde_json::to_string(&Eval::Mate(-2)).unwrap(),
            r#"{"mate":-2}"#
        );
    }
}
