//! The tags of a PGN game that the game itself does not know ([`PgnTags`]),
//! and those the exporter derives from the game ([`DERIVED_TAGS`]).

/// Tags the exporter writes from the game itself (or from [`PgnTags`]
/// fields); extra tags with these names are left out.
pub const DERIVED_TAGS: [&str; 14] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "TimeControl",
    "Termination",
    "Rules",
    "PlyYardReason",
];

/// The tags of a game that the game itself does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnTags {
    /// `Event`, `?` if unknown.
    pub event: String,
    /// `Site`, `?` if unknown.
    pub site: String,
    /// `Date` as `YYYY.MM.DD`, with `??` for unknown parts.
    pub date: String,
    /// `Round`, `?` if unknown, `-` if not applicable.
    pub round: String,
    /// `White` player.
    pub white: String,
    /// `Black` player.
    pub black: String,
    /// `TimeControl` in PGN form (`180+2`), if the game was timed.
    pub time_control: Option<String>,
    /// Further tags, written after the standard ones in this order.
    pub extra: Vec<(String, String)>,
}

impl Default for PgnTags {
    fn default() -> PgnTags {
        PgnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            time_control: None,
            extra: Vec::new(),
        }
    }
}
