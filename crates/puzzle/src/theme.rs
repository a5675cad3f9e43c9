//! The theme vocabulary: lichess's puzzle theme keys, their groups, which
//! ones are "static" (computed, never voted) and how parsing a key works.
//!
//! The keys and groups are those lichess shows on its themes page today
//! (72 keys in 9 groups, counting the named mates lichess has added over
//! the years). `mate` belongs to two groups (mates and goals), as on
//! lichess; [`Theme::group`] gives its first one.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The group a theme is listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// Opening, middlegame, endgame and the endgame types.
    Phases,
    /// Tactical motifs (fork, pin, …).
    Motifs,
    /// Advanced ideas (deflection, quiet move, …).
    Advanced,
    /// `mate` and the mate-in-N lengths.
    Mates,
    /// Named mating patterns (back-rank mate, smothered mate, …).
    MatePatterns,
    /// Castling, en passant, promotion, under-promotion.
    SpecialMoves,
    /// What the solution achieves: equality, advantage, crushing, mate.
    Goals,
    /// The solver's move count: one move, short, long, very long.
    Lengths,
    /// Where the game comes from: master games, super-GM games.
    Origin,
}

impl Group {
    /// Every group, in lichess's display order.
    pub const ALL: [Group; 9] = [
        Group::Phases,
        Group::Motifs,
        Group::Advanced,
        Group::Mates,
        Group::MatePatterns,
        Group::SpecialMoves,
        Group::Goals,
        Group::Lengths,
        Group::Origin,
    ];

    /// The group's key (`phases`, `motifs`, `mateThemes`, …).
    pub const fn key(self) -> &'static str {
        match self {
            Group::Phases => "phases",
            Group::Motifs => "motifs",
            Group::Advanced => "advanced",
            Group::Mates => "mates",
            Group::MatePatterns => "mateThemes",
            Group::SpecialMoves => "specialMoves",
            Group::Goals => "goals",
            Group::Lengths => "lengths",
            Group::Origin => "origin",
        }
    }

    /// The themes of the group, in display order (`mate` is listed under
    /// both [`Group::Mates`] and [`Group::Goals`]).
    pub fn themes(self) -> Vec<Theme> {
        let mut list: Vec<Theme> = Theme::ALL
            .iter()
            .copied()
            .filter(|t| t.group() == self)
            .collect();
        if self == Group::Goals {
            list.push(Theme::Mate);
        }
        list
    }
}

macro_rules! themes {
    ($($variant:ident => $key:literal, $group:ident;)*) => {
        /// One of lichess's puzzle theme keys.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Theme {
            $(
                #[doc = concat!("`", $key, "`")]
                $variant,
            )*
        }

        impl Theme {
            /// Every theme, group by group.
            pub const ALL: &'static [Theme] = &[$(Theme::$variant),*];

            /// The theme's key as lichess writes it (`backRankMate`).
            pub const fn key(self) -> &'static str {
                match self {
                    $(Theme::$variant => $key,)*
                }
            }

            /// The group the theme is listed under first.
            pub const fn group(self) -> Group {
                match self {
                    $(Theme::$variant => Group::$group,)*
                }
            }
        }
    };
}

themes! {
    Opening => "opening", Phases;
    Middlegame => "middlegame", Phases;
    Endgame => "endgame", Phases;
    RookEndgame => "rookEndgame", Phases;
    BishopEndgame => "bishopEndgame", Phases;
    PawnEndgame => "pawnEndgame", Phases;
    KnightEndgame => "knightEndgame", Phases;
    QueenEndgame => "queenEndgame", Phases;
    QueenRookEndgame => "queenRookEndgame", Phases;
    AdvancedPawn => "advancedPawn", Motifs;
    AttackingF2F7 => "attackingF2F7", Motifs;
    CapturingDefender => "capturingDefender", Motifs;
    DiscoveredAttack => "discoveredAttack", Motifs;
    DoubleCheck => "doubleCheck", Motifs;
    ExposedKing => "exposedKing", Motifs;
    Fork => "fork", Motifs;
    HangingPiece => "hangingPiece", Motifs;
    KingsideAttack => "kingsideAttack", Motifs;
    Pin => "pin", Motifs;
    QueensideAttack => "queensideAttack", Motifs;
    Sacrifice => "sacrifice", Motifs;
    Skewer => "skewer", Motifs;
    TrappedPiece => "trappedPiece", Motifs;
    Attraction => "attraction", Advanced;
    Clearance => "clearance", Advanced;
    DiscoveredCheck => "discoveredCheck", Advanced;
    DefensiveMove => "defensiveMove", Advanced;
    Deflection => "deflection", Advanced;
    Interference => "interference", Advanced;
    Intermezzo => "intermezzo", Advanced;
    QuietMove => "quietMove", Advanced;
    XRayAttack => "xRayAttack", Advanced;
    Zugzwang => "zugzwang", Advanced;
    Mate => "mate", Mates;
    MateIn1 => "mateIn1", Mates;
    MateIn2 => "mateIn2", Mates;
    MateIn3 => "mateIn3", Mates;
    MateIn4 => "mateIn4", Mates;
    MateIn5 => "mateIn5", Mates;
    AnastasiaMate => "anastasiaMate", MatePatterns;
    ArabianMate => "arabianMate", MatePatterns;
    BackRankMate => "backRankMate", MatePatterns;
    BalestraMate => "balestraMate", MatePatterns;
    BlindSwineMate => "blindSwineMate", MatePatterns;
    BodenMate => "bodenMate", MatePatterns;
    CornerMate => "cornerMate", MatePatterns;
    DoubleBishopMate => "doubleBishopMate", MatePatterns;
    DovetailMate => "dovetailMate", MatePatterns;
    EpauletteMate => "epauletteMate", MatePatterns;
    HookMate => "hookMate", MatePatterns;
    KillBoxMate => "killBoxMate", MatePatterns;
    MorphysMate => "morphysMate", MatePatterns;
    OperaMate => "operaMate", MatePatterns;
    PillsburysMate => "pillsburysMate", MatePatterns;
    SmotheredMate => "smotheredMate", MatePatterns;
    SwallowstailMate => "swallowstailMate", MatePatterns;
    TriangleMate => "triangleMate", MatePatterns;
    VukovicMate => "vukovicMate", MatePatterns;
    Castling => "castling", SpecialMoves;
    EnPassant => "enPassant", SpecialMoves;
    Promotion => "promotion", SpecialMoves;
    UnderPromotion => "underPromotion", SpecialMoves;
    Equality => "equality", Goals;
    Advantage => "advantage", Goals;
    Crushing => "crushing", Goals;
    OneMove => "oneMove", Lengths;
    Short => "short", Lengths;
    Long => "long", Lengths;
    VeryLong => "veryLong", Lengths;
    Master => "master", Origin;
    MasterVsMaster => "masterVsMaster", Origin;
    SuperGm => "superGM", Origin;
}

impl Theme {
    /// Whether players cannot vote on the theme: it is computed from the
    /// line or the game (lichess's "static" themes: goals, lengths, the
    /// three phases, mates in N, origin, castling, en passant and
    /// smothered mate).
    pub const fn is_static(self) -> bool {
        matches!(
            self,
            Theme::Advantage
                | Theme::Castling
                | Theme::Crushing
                | Theme::EnPassant
                | Theme::Endgame
                | Theme::Equality
                | Theme::Long
                | Theme::Master
                | Theme::MasterVsMaster
                | Theme::SuperGm
                | Theme::Mate
                | Theme::MateIn1
                | Theme::MateIn2
                | Theme::MateIn3
                | Theme::MateIn4
                | Theme::MateIn5
                | Theme::Middlegame
                | Theme::OneMove
                | Theme::Opening
                | Theme::Short
                | Theme::SmotheredMate
                | Theme::VeryLong
        )
    }

    /// Whether the theme is a named mate (its key ends in `Mate`).
    pub fn is_named_mate(self) -> bool {
        self.key().ends_with("Mate")
    }

    /// The theme of a key, compared without regard to case as lichess
    /// does (`backrankmate` finds `backRankMate`).
    pub fn from_key(key: &str) -> Option<Theme> {
        Theme::ALL
            .iter()
            .copied()
            .find(|t| t.key().eq_ignore_ascii_case(key))
    }

    /// `mateIn{n}` for `n` in 1..=5.
    pub const fn mate_in(n: usize) -> Option<Theme> {
        match n {
            1 => Some(Theme::MateIn1),
            2 => Some(Theme::MateIn2),
            3 => Some(Theme::MateIn3),
            4 => Some(Theme::MateIn4),
            5 => Some(Theme::MateIn5),
            _ => None,
        }
    }
}

/// A key that is not a theme.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown puzzle theme {0:?}")]
pub struct UnknownTheme(pub String);

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        Theme::from_key(s).ok_or_else(|| UnknownTheme(s.to_owned()))
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl Serialize for Theme {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

impl<'de> Deserialize<'de> for Theme {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Theme, D::Error> {
        let key = String::deserialize(d)?;
        key.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_round_trip() {
        let mut keys: Vec<&str> = Theme::ALL.iter().map(|t| t.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Theme::ALL.len());
        assert_eq!(Theme::ALL.len(), 72);
        for &t in Theme::ALL {
            assert_eq!(t.key().parse::<Theme>(), Ok(t));
        }
        assert_eq!("BACKRANKMATE".parse::<Theme>(), Ok(Theme::BackRankMate));
        assert!("mix".parse::<Theme>().is_err());
        assert!("backRank".parse::<Theme>().is_err());
    }

    #[test]
    fn groups_partition_the_vocabulary_but_mate() {
        let listed: usize = Group::ALL.iter().map(|g| g.themes().len()).sum();
        assert_eq!(listed, Theme::ALL.len() + 1);
        assert_eq!(Group::Phases.themes().len(), 9);
        assert_eq!(Group::Motifs.themes().len(), 14);
        assert_eq!(Group::Lengths.themes()[0], Theme::OneMove);
        assert!(Group::Goals.themes().contains(&Theme::Mate));
        assert!(Group::Mates.themes().contains(&Theme::Mate));
        assert_eq!(Theme::SuperGm.key(), "superGM");
        assert_eq!(Theme::XRayAttack.group(), Group::Advanced);
    }

    #[test]
    fn static_and_named_mates() {
        assert!(Theme::MateIn3.is_static());
        assert!(Theme::SmotheredMate.is_static());
        assert!(!Theme::Fork.is_static());
        assert!(!Theme::RookEndgame.is_static());
        assert!(Theme::HookMate.is_named_mate());
        assert!(!Theme::Mate.is_named_mate());
        assert!(!Theme::MateIn1.is_named_mate());
        let named = Theme::ALL.iter().filter(|t| t.is_named_mate()).count();
        assert_eq!(named, Group::MatePatterns.themes().len());
    }

    #[test]
    fn serde_uses_the_key() {
        let json = serde_json::to_string(&[Theme::MateIn2, Theme::SuperGm]).unwrap();
        assert_eq!(json, r#"["mateIn2","superGM"]"#);
        let back: Vec<Theme> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, [Theme::MateIn2, Theme::SuperGm]);
        assert!(serde_json::from_str::<Theme>(r#""nope""#).is_err());
    }
}
