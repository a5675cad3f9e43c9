//! Colour preferences (C.04.3 A.6) and the colour allocation of a pair
//! (C.04.3 E.1–E.5), plus the absolute colour constraints of C3.

use crate::history::State;
use crate::model::Colour;

/// The strength of a colour preference (C.04.3 A.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet.
    None = 0,
    /// Colour difference 0: the other colour than last time.
    Mild = 1,
    /// Colour difference ±1.
    Strong = 2,
    /// Colour difference beyond ±1, or the same colour twice in a row.
    Absolute = 3,
}

/// A player's preferred colour and how strongly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preference {
    /// The colour wanted, if any.
    pub colour: Option<Colour>,
    /// How strongly.
    pub strength: Strength,
}

/// The colour preference of a player (C.04.3 A.6).
pub fn preference(s: &State) -> Preference {
    let h = &s.colours;
    let Some(&last) = h.last() else {
        return Preference {
            colour: None,
            strength: Strength::None,
        };
    };
    let diff = s.colour_difference();
    let twice = h.len() >= 2 && h[h.len() - 2] == last;
    let colour = if twice {
        Some(last.opposite())
    } else if diff > 0 {
        Some(Colour::Black)
    } else if diff < 0 {
        Some(Colour::White)
    } else {
        Some(last.opposite())
    };
    let strength = if diff.abs() >= 2 || twice {
        Strength::Absolute
    } else if diff.abs() == 1 {
        Strength::Strong
    } else {
        Strength::Mild
    };
    Preference { colour, strength }
}

/// The trailing colour repeated in the last two games, if any.
pub fn repeated_colour(s: &State) -> Option<Colour> {
    let h = &s.colours;
    (h.len() >= 2 && h[h.len() - 1] == h[h.len() - 2]).then(|| h[h.len() - 1])
}

/// True when giving `c` to the player breaks C3: a colour difference
/// beyond ±2, or the same colour three times in a row.
pub fn breaks_colour_rule(s: &State, c: Colour) -> bool {
    if repeated_colour(s) == Some(c) {
        return true;
    }
    let d = s.colour_difference() + if c == Colour::White { 1 } else { -1 };
    d.abs() > 2
}

/// True when some colour allocation of the pair keeps C3 for both.
pub fn has_legal_colours(a: &State, b: &State) -> bool {
    (!breaks_colour_rule(a, Colour::White) && !breaks_colour_rule(b, Colour::Black))
        || (!breaks_colour_rule(a, Colour::Black) && !breaks_colour_rule(b, Colour::White))
}

/// The colours of a pair (C.04.3 E): returns true when `a` gets white.
/// `initial` is the initial colour (E.5), drawn for the tournament.
pub fn a_gets_white(a: &State, b: &State, initial: Colour) -> bool {
    let pa = preference(a);
    let pb = preference(b);
    let (higher, a_is_higher) = if a.pairing_number < b.pairing_number {
        (a, true)
    } else {
        (b, false)
    };
    // E.1: both preferences granted.
    if let (Some(ca), Some(cb)) = (pa.colour, pb.colour)
        && ca != cb
    {
        return ca == Colour::White;
    }
    // E.2: the stronger preference; both absolute: the wider difference.
    if pa.strength != pb.strength {
        let (p, a_stronger) = if pa.strength > pb.strength {
            (pa, true)
        } else {
            (pb, false)
        };
        if let Some(c) = p.colour {
            return (c == Colour::White) == a_stronger;
        }
    } else if pa.strength == Strength::Absolute && pa.colour == pb.colour {
        let (da, db) = (a.colour_difference().abs(), b.colour_difference().abs());
        if da != db {
            let c = pa.colour.unwrap_or(Colour::White);
            return (c == Colour::White) == (da > db);
        }
    }
    // E.3: alternate from the most recent round in which they differed.
    let rounds = a.colour_by_round.len().min(b.colour_by_round.len());
    for r in (0..rounds).rev() {
        if let (Some(ca), Some(cb)) = (a.colour_by_round[r], b.colour_by_round[r])
            && ca != cb
        {
            return ca == Colour::Black;
        }
    }
    // E.4: the higher-ranked player's preference.
    if let Some(c) = preference(higher).colour {
        return (c == Colour::White) == a_is_higher;
    }
    // E.5: odd pairing number: the initial colour; even: the other.
    let hc = if higher.pairing_number % 2 == 1 {
        initial
    } else {
        initial.opposite()
    };
    (hc == Colour::White) == a_is_higher
}
