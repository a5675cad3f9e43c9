//! How a live game is written for clients: colour names and times on the
//! wire, the legal destinations of every piece ([`dests`]), and how a seat
//! is named in PGN ([`pgn_name`]). A live game puts them together into its
//! state and PGN.

use std::collections::{BTreeMap, BTreeSet};

use plyyard_game::Game;
use plyyard_game::Variant;
use plyyard_game::shakmaty::{File, Move, Square};

use plyyard_wire::protocol::{SeatJson, SeatKind};

pub use plyyard_wire::protocol::color_name;

/// RFC 3339 text of Unix milliseconds.
pub fn rfc3339(ms: i64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| {
            t.replace_nanosecond(0)
                .ok()?
                .format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| "1970-01-01T00:00:00Z".into())
}

/// Legal moves as from-square → to-squares, with castling given both as
/// king-to-rook and (in standard games) king-to-target.
pub(super) fn dests(game: &Game) -> BTreeMap<String, Vec<String>> {
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let standard = game.variant() == Variant::Standard;
    for m in game.legal_moves() {
        let mut add = |from: Square, to: Square| {
            map.entry(from.to_string())
                .or_default()
                .insert(to.to_string());
        };
        match m {
            Move::Castle { king, rook } => {
                add(king, rook);
                if standard {
                    let file = if rook.file() > king.file() {
                        File::G
                    } else {
                        File::C
                    };
                    add(king, Square::from_coords(file, king.rank()));
                }
            }
            other => {
                if let Some(from) = other.from() {
                    add(from, other.to());
                }
            }
        }
    }
    map.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}

/// How a seat is named in PGN.
pub(super) fn pgn_name(seat: &SeatJson) -> String {
    match (seat.kind, &seat.name, &seat.level) {
        (SeatKind::User | SeatKind::Pgn, Some(n), _) => n.clone(),
        (SeatKind::Computer, _, Some(l)) => format!("Ply Yard computer ({l})"),
        (SeatKind::Computer, _, None) => "Ply Yard computer".to_owned(),
        (SeatKind::Deleted, _, _) => "Deleted player".to_owned(),
        _ => "Anonymous".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use plyyard_game::RuleSet;

    use super::*;

    #[test]
    fn dests_list_castling_both_ways_in_standard_chess() {
        let mut g = Game::new(RuleSet::PlyYard);
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] {
            g.play_uci(m).unwrap();
        }
        let d = dests(&g);
        assert_eq!(d["e1"], ["e2", "f1", "g1", "h1"]);
        assert_eq!(d["f3"].len(), 5, "{:?}", d["f3"]);
        assert_eq!(d.values().map(Vec::len).sum::<usize>(), {
            // Castling adds one extra destination (h1) beside the 33 moves.
            g.legal_moves().len() + 1
        });
    }

    #[test]
    fn promotions_give_one_destination() {
        let g = Game::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", RuleSet::PlyYard).unwrap();
        assert_eq!(dests(&g)["a7"], ["a8"]);
    }

    #[test]
    fn times_are_well_formed() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_764_421_200_123), "2025-11-29T13:00:00Z");
    }
}
