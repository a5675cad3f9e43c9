//! What clients see of a live game: its state as sent on the wire (with the
//! legal destinations of every piece), and its PGN.

use std::collections::{BTreeMap, BTreeSet};

use game::Game;
use game::Variant;
use game::shakmaty::{Color, File, Move, Square};

use super::actor::Actor;
use crate::identity::PlayerId;
use crate::protocol::{GameState, MoveJson, SeatJson, SeatKind};

/// Name of a colour on the wire.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

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
fn dests(game: &Game) -> BTreeMap<String, Vec<String>> {
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
fn pgn_name(seat: &SeatJson) -> String {
    match (seat.kind, &seat.name, &seat.level) {
        (SeatKind::User | SeatKind::Pgn, Some(n), _) => n.clone(),
        (SeatKind::Computer, _, Some(l)) => format!("Ply Yard computer ({l})"),
        (SeatKind::Computer, _, None) => "Ply Yard computer".to_owned(),
        (SeatKind::Deleted, _, _) => "Deleted player".to_owned(),
        _ => "Anonymous".to_owned(),
    }
}

impl Actor {
    /// The state as `viewer` sees it (`you` is their colour, if they play).
    pub(super) fn state_for(&self, viewer: Option<PlayerId>) -> GameState {
        let mut s = self.state();
        s.you = viewer
            .and_then(|p| self.seats().color_of(&p))
            .map(|c| color_name(c).to_owned());
        s.for_viewer();
        s
    }

    /// The state as everyone sees it (`you` unset).
    pub(super) fn state(&self) -> GameState {
        let g = &self.game;
        let outcome = g.outcome();
        GameState {
            id: self.row.id.clone(),
            v: self.version,
            kind: self.row.kind.as_str().into(),
            level: self.row.level.map(|l| l.as_str().to_owned()),
            white: self.names[0].clone(),
            black: self.names[1].clone(),
            you: None,
            rules: g.rules().as_str().into(),
            variant: g.variant().as_str().into(),
            position: g.chess960_number().or(self.row.position),
            initial_fen: g.initial_fen(),
            fen: g.fen(),
            turn: color_name(g.turn()).into(),
            ply: u32::try_from(g.ply()).unwrap_or(u32::MAX),
            check: g.is_check(),
            moves: Some(
                g.history()
                    .iter()
                    .map(|p| MoveJson {
                        uci: p.uci.clone(),
                        san: p.san.clone(),
                    })
                    .collect(),
            ),
            last_move: g
                .last_move_squares()
                .map(|(a, b)| [a.to_string(), b.to_string()]),
            dests: dests(g),
            status: if outcome.is_some() {
                "ended"
            } else {
                "ongoing"
            }
            .into(),
            result: outcome.map_or("*", |o| o.result.as_str()).into(),
            reason: outcome.map(|o| o.reason.as_str().to_owned()),
            thinking: self.thinking.is_some(),
            claimable: g
                .claimable()
                .into_iter()
                .map(|r| r.as_str().to_owned())
                .collect(),
            created_at: rfc3339(self.row.created_at),
            table: self.table.as_ref().map(|t| t.state(&self.game)),
        }
    }

    /// `WhiteElo`/`BlackElo` from the players' ratings at a table (a
    /// provisional rating is still given: PGN has no mark for it).
    fn rating_tags(&self) -> Vec<(String, String)> {
        let Some(r) = self.table.as_ref().and_then(|t| t.ratings()) else {
            return Vec::new();
        };
        vec![
            ("WhiteElo".into(), r.white.rating.to_string()),
            ("BlackElo".into(), r.black.rating.to_string()),
        ]
    }

    /// The game as PGN: an imported game with the tags its PGN gave.
    pub(super) fn pgn(&self) -> String {
        if let Some(tags) = &self.imported_tags {
            return game::to_pgn(&self.game, tags);
        }
        let date = rfc3339(self.row.created_at);
        let table = self.row.table.as_ref();
        let event = match table {
            Some(t) if t.rated => "Ply Yard rated table game",
            Some(_) => "Ply Yard casual table game",
            None => "Ply Yard game against the computer",
        };
        let tags = game::PgnTags {
            event: event.into(),
            site: format!("Ply Yard, game {}", self.row.id),
            date: date.get(..10).unwrap_or("????-??-??").replace('-', "."),
            round: "-".into(),
            white: pgn_name(&self.names[0]),
            black: pgn_name(&self.names[1]),
            time_control: table.map(|t| t.control.pgn_tag()),
            extra: self.rating_tags(),
        };
        game::to_pgn(&self.game, &tags)
    }
}

#[cfg(test)]
mod tests {
    use game::RuleSet;

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
