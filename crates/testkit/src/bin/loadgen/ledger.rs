//! The exact accounting of `loadgen spread`: each move a player sent (its
//! ply, its UCI, and whether its ack came or it was seen applied in the
//! game) is checked at the end against the game's final move list.
//!
//! - **lost**: acknowledged, yet not in the final game at its ply.
//! - **vanished**: never acknowledged (its socket was lost) but seen
//!   applied in the game afterwards, yet not in the final game.
//! - **duplicated**: a move of the final game that no player sent at that
//!   ply; a resent move applied a second time would show up so (a move is
//!   only resent after the game was seen without it).
//!
//! Castling may be sent as the king taking its rook (`e1h1`, offered in
//! `dests`) and is stored as the king's two-square move (`e1g1`): the two
//! are [`same_move`].

use std::collections::HashSet;

use serde::Serialize;

/// A move in UCI, kept without allocating (at most 5 characters).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Uci {
    bytes: [u8; 5],
    len: u8,
}

impl Uci {
    /// The move `s` (4 or 5 ASCII characters), or `None`.
    pub fn parse(s: &str) -> Option<Uci> {
        let b = s.as_bytes();
        if !(4..=5).contains(&b.len()) || !b.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 5];
        bytes[..b.len()].copy_from_slice(b);
        Some(Uci {
            bytes,
            len: b.len() as u8,
        })
    }

    /// The move as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

/// The king's two-square castling move for the king-takes-rook form.
const CASTLING: [(&str, &str); 4] = [
    ("e1h1", "e1g1"),
    ("e1a1", "e1c1"),
    ("e8h8", "e8g8"),
    ("e8a8", "e8c8"),
];

/// Whether `sent` is the move stored as `stored`: the same text, or a
/// castling sent as the king taking its rook. (A rook or queen move
/// `e1h1` is stored as it was sent, so at a ply where `e1g1` was stored
/// an `e1h1` sent can only have been castling.)
pub fn same_move(sent: Uci, stored: Uci) -> bool {
    sent == stored
        || CASTLING
            .iter()
            .any(|(rook, king)| sent.as_str() == *rook && stored.as_str() == *king)
}

/// The king-takes-rook form of a stored castling move, if it is one.
fn rook_form(stored: Uci) -> Option<Uci> {
    let (rook, _) = CASTLING.iter().find(|(_, king)| stored.as_str() == *king)?;
    Uci::parse(rook)
}

/// What became of a move sent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fate {
    /// Its ack came.
    Acked,
    /// Its ack was lost with its socket, but the game showed it applied.
    Applied,
    /// Neither (refused, superseded, or still open at the end).
    Unknown,
}

/// One move a player sent (perhaps more than once: a resend keeps it).
#[derive(Clone, Copy, Debug)]
pub struct Attempt {
    /// The ply it was sent at (0 = White's first move).
    pub ply: u32,
    pub uci: Uci,
    pub fate: Fate,
}

/// The verdict on one game, or the sum over many.
#[derive(Debug, Default, Clone, Copy, Serialize)]
pub struct Verdict {
    /// Moves in the final games.
    pub final_moves: u64,
    /// Acknowledged moves checked.
    pub acked: u64,
    pub lost: u64,
    pub vanished: u64,
    pub duplicated: u64,
}

impl Verdict {
    /// Adds `o` to this one.
    pub fn add(&mut self, o: Verdict) {
        self.final_moves += o.final_moves;
        self.acked += o.acked;
        self.lost += o.lost;
        self.vanished += o.vanished;
        self.duplicated += o.duplicated;
    }
}

/// Checks the moves both players of a game sent against its final move
/// list `final_moves`.
pub fn verify(final_moves: &[Uci], attempts: &[Attempt]) -> Verdict {
    let held = |ply: u32, uci: Uci| {
        final_moves
            .get(ply as usize)
            .is_some_and(|&m| same_move(uci, m))
    };
    let mut v = Verdict {
        final_moves: final_moves.len() as u64,
        ..Verdict::default()
    };
    for a in attempts {
        match a.fate {
            Fate::Acked => {
                v.acked += 1;
                if !held(a.ply, a.uci) {
                    v.lost += 1;
                }
            }
            Fate::Applied if !held(a.ply, a.uci) => v.vanished += 1,
            _ => {}
        }
    }
    let sent: HashSet<(u32, Uci)> = attempts.iter().map(|a| (a.ply, a.uci)).collect();
    v.duplicated = final_moves
        .iter()
        .zip(0u32..)
        .filter(|(m, ply)| {
            !sent.contains(&(*ply, **m))
                && !rook_form(**m).is_some_and(|r| sent.contains(&(*ply, r)))
        })
        .count() as u64;
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Uci {
        Uci::parse(s).unwrap()
    }

    fn a(ply: u32, s: &str, fate: Fate) -> Attempt {
        Attempt {
            ply,
            uci: u(s),
            fate,
        }
    }

    #[test]
    fn uci_round_trips_and_refuses_odd_lengths() {
        assert_eq!(u("e2e4").as_str(), "e2e4");
        assert_eq!(u("a7a8q").as_str(), "a7a8q");
        assert!(Uci::parse("e2").is_none());
        assert!(Uci::parse("e2e4qq").is_none());
    }

    #[test]
    fn a_faithful_game_has_nothing_lost_or_duplicated() {
        let fin = [u("e2e4"), u("e7e5"), u("g1f3")];
        let sent = [
            a(0, "e2e4", Fate::Acked),
            a(1, "e7e5", Fate::Applied),
            a(2, "g1f3", Fate::Acked),
        ];
        let v = verify(&fin, &sent);
        assert_eq!((v.acked, v.lost, v.vanished, v.duplicated), (2, 0, 0, 0));
        assert_eq!(v.final_moves, 3);
    }

    #[test]
    fn an_acknowledged_move_missing_or_replaced_is_lost() {
        let sent = [a(0, "e2e4", Fate::Acked), a(1, "e7e5", Fate::Acked)];
        let v = verify(&[u("e2e4")], &sent);
        assert_eq!((v.lost, v.duplicated), (1, 0));
        // Replaced by another move at that ply: lost, and the other move
        // was never sent there.
        let v = verify(&[u("e2e4"), u("d7d5")], &sent);
        assert_eq!((v.lost, v.duplicated), (1, 1));
    }

    #[test]
    fn castling_sent_as_king_takes_rook_is_the_stored_castling() {
        let fin = [u("e2e4"), u("e7e5"), u("e1g1")];
        let sent = [
            a(0, "e2e4", Fate::Acked),
            a(1, "e7e5", Fate::Acked),
            a(2, "e1h1", Fate::Acked),
        ];
        let v = verify(&fin, &sent);
        assert_eq!((v.lost, v.duplicated), (0, 0));
        // A real rook move stays itself.
        assert!(!same_move(u("e1g1"), u("e1h1")));
        assert!(!same_move(u("e2h1"), u("e1g1")));
    }

    #[test]
    fn a_move_applied_twice_is_a_duplicate() {
        // White's g1f3 sent at ply 2, then again after the game looked
        // unchanged; both applied (the second at ply 4).
        let fin = [u("e2e4"), u("e7e5"), u("g1f3"), u("b8c6"), u("g1f3")];
        let sent = [
            a(0, "e2e4", Fate::Acked),
            a(1, "e7e5", Fate::Acked),
            a(2, "g1f3", Fate::Acked),
            a(3, "b8c6", Fate::Acked),
        ];
        let v = verify(&fin, &sent);
        assert_eq!((v.lost, v.duplicated), (0, 1));
    }

    #[test]
    fn a_move_seen_applied_then_gone_has_vanished_and_unknown_ones_do_not_count() {
        let sent = [
            a(0, "e2e4", Fate::Acked),
            a(1, "e7e5", Fate::Applied),
            a(1, "c7c5", Fate::Unknown),
        ];
        let v = verify(&[u("e2e4"), u("c7c5")], &sent);
        assert_eq!((v.lost, v.vanished, v.duplicated), (0, 1, 0));
    }
}
