//! The verdict on one side of one game: lichess's table of signals, one
//! step milder when the player did not win.

use serde::{Deserialize, Serialize};

use super::signals::Signals;

/// How strongly one side of one game suggests engine use, mildest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// Nothing suggests it.
    NotCheating,
    /// One signal, which honest players raise often.
    UnlikelyCheating,
    /// Signals that may go either way.
    Unclear,
    /// Signals that seldom come together in honest play.
    LikelyCheating,
    /// Signals that honest play does not raise together.
    Cheating,
}

impl Verdict {
    /// Its name in the API and the store.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::NotCheating => "notCheating",
            Verdict::UnlikelyCheating => "unlikelyCheating",
            Verdict::Unclear => "unclear",
            Verdict::LikelyCheating => "likelyCheating",
            Verdict::Cheating => "cheating",
        }
    }

    /// The verdict named `key`.
    pub fn from_key(key: &str) -> Option<Verdict> {
        [
            Verdict::NotCheating,
            Verdict::UnlikelyCheating,
            Verdict::Unclear,
            Verdict::LikelyCheating,
            Verdict::Cheating,
        ]
        .into_iter()
        .find(|v| v.key() == key)
    }

    /// One step milder, for a player who did not win (the two strongest
    /// verdicts only).
    fn milder(self) -> Verdict {
        match self {
            Verdict::Cheating => Verdict::LikelyCheating,
            Verdict::LikelyCheating => Verdict::Unclear,
            v => v,
        }
    }
}

/// The verdict of `s` for a player who `won` or not.
pub fn verdict(s: &Signals, won: bool) -> Verdict {
    let table = table(s);
    if won { table } else { table.milder() }
}

/// The table, strongest rows first; the first row that matches decides.
fn table(s: &Signals) -> Verdict {
    let cheating = (s.low_loss && s.high_blurs && s.no_fast_moves)
        || (s.low_loss && s.moderate_blurs)
        || (s.low_loss && s.flat_times)
        || (s.high_blurs && s.flat_times);
    if cheating {
        return Verdict::Cheating;
    }
    let likely =
        (s.moderate_blurs && s.steady_times) || s.flat_times || (s.always_ahead && s.high_blurs);
    if likely {
        return Verdict::LikelyCheating;
    }
    // alwaysAhead & steadyTimes; lowLoss & steadyTimes; lowLoss without
    // moderateBlurs or steadyTimes — each with noFastMoves.
    let unclear = s.no_fast_moves
        && ((s.always_ahead && s.steady_times)
            || (s.low_loss && (s.steady_times || !s.moderate_blurs)));
    if unclear {
        return Verdict::Unclear;
    }
    if s.low_loss {
        return Verdict::UnlikelyCheating;
    }
    Verdict::NotCheating
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_loss_with_flat_times_is_cheating_and_likely_when_not_won() {
        let s = Signals {
            low_loss: true,
            flat_times: true,
            no_fast_moves: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::Cheating);
        assert_eq!(verdict(&s, false), Verdict::LikelyCheating);
    }

    #[test]
    fn flat_times_alone_are_likely() {
        let s = Signals {
            flat_times: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::LikelyCheating);
        assert_eq!(verdict(&s, false), Verdict::Unclear);
    }

    #[test]
    fn low_loss_alone_is_unclear_without_fast_moves_and_unlikely_with_them() {
        let mut s = Signals {
            low_loss: true,
            no_fast_moves: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::Unclear);
        s.no_fast_moves = false;
        assert_eq!(verdict(&s, true), Verdict::UnlikelyCheating);
    }

    #[test]
    fn blurs_join_the_table() {
        let s = Signals {
            low_loss: true,
            moderate_blurs: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::Cheating);
        let s = Signals {
            always_ahead: true,
            high_blurs: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::LikelyCheating);
    }

    #[test]
    fn nothing_raised_is_not_cheating() {
        assert_eq!(verdict(&Signals::default(), true), Verdict::NotCheating);
        let s = Signals {
            always_ahead: true,
            no_fast_moves: true,
            ..Signals::default()
        };
        assert_eq!(verdict(&s, true), Verdict::NotCheating);
    }

    #[test]
    fn keys_round_trip() {
        for v in [Verdict::NotCheating, Verdict::Cheating, Verdict::Unclear] {
            assert_eq!(Verdict::from_key(v.key()), Some(v));
        }
        assert_eq!(Verdict::from_key("guilty"), None);
    }
}
