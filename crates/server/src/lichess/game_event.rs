//! A game as one of its players sees it in the event stream's
//! `gameStart` and `gameFinish` (lichess's `GameEventInfo`), built from
//! the live game's state; and our end reasons as lichess's statuses.

use serde_json::{Value, json};

use super::challenges::variant_json;
use crate::state::Shared;
use game::Variant;
use live::Cmd;
use plyyard_store::PlayerId;
use wire::protocol::{GameState, SeatKind};

/// Lichess's status (id and name) of a game in `state`.
pub fn status_of(state: &GameState) -> (u32, &'static str) {
    if state.status != "ended" {
        return (20, "started");
    }
    match state.reason.as_deref() {
        Some("checkmate") => (30, "mate"),
        Some("resignation") => (31, "resign"),
        Some("stalemate") => (32, "stalemate"),
        Some("abandonment") => (33, "timeout"),
        Some("timeout" | "timeout_vs_insufficient_material") => (35, "outoftime"),
        Some("aborted") => (25, "aborted"),
        Some(
            "insufficient_material"
            | "threefold_repetition"
            | "fivefold_repetition"
            | "fifty_moves"
            | "seventyfive_moves"
            | "agreement",
        ) => (34, "draw"),
        _ => (38, "unknownFinish"),
    }
}

/// `white` or `black` for a decisive result, else `None`.
pub fn winner_of(state: &GameState) -> Option<&'static str> {
    match state.result.as_str() {
        "1-0" => Some("white"),
        "0-1" => Some("black"),
        _ => None,
    }
}

/// The `game` object of `gameStart` / `gameFinish` for `player`, or `None`
/// when the game is gone or `player` does not play it.
pub async fn game_event(state: &Shared, id: &str, player: &PlayerId) -> Option<Value> {
    let viewer = Some(player.clone());
    let gs = live::request(&state.live, id, |reply| Cmd::State {
        viewer: viewer.clone(),
        reply,
    })
    .await
    .ok()?;
    let color = gs.you.clone()?;
    let them = if color == "white" {
        &gs.black
    } else {
        &gs.white
    };
    let opponent = match them.kind {
        SeatKind::Computer => {
            let level = level_number(them.level.as_deref());
            json!({"id": null, "username": format!("Ply Yard level {level}"), "ai": level})
        }
        _ => {
            let name = them.name.clone().unwrap_or_else(|| "Anonymous".to_owned());
            let rating = gs.table.as_ref().and_then(|t| t.ratings.as_ref()).map(|r| {
                if color == "white" {
                    r.black.rating
                } else {
                    r.white.rating
                }
            });
            json!({"id": name.to_lowercase(), "username": name, "rating": rating})
        }
    };
    let (status_id, status_name) = status_of(&gs);
    let table = gs.table.as_ref();
    let seconds_left = table.map(|t| {
        let ms = if color == "white" {
            t.clock.white_ms
        } else {
            t.clock.black_ms
        };
        ms / 1000
    });
    let speed = table.map_or("correspondence", |t| match t.speed.as_str() {
        "rapid" => "rapid",
        "classical" => "classical",
        _ => "blitz",
    });
    let variant = if gs.variant == "chess960" {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let mut v = variant_json(variant);
    if let Some(o) = v.as_object_mut() {
        o.remove("short");
    }
    let last = gs
        .moves
        .as_ref()
        .and_then(|m| m.last())
        .map_or(String::new(), |m| m.uci.clone());
    let has_moved = if color == "white" {
        gs.ply >= 1
    } else {
        gs.ply >= 2
    };
    let mut game = json!({
        "fullId": gs.id,
        "gameId": gs.id,
        "id": gs.id,
        "fen": gs.fen,
        "color": color,
        "lastMove": last,
        "source": if table.is_some() { "friend" } else { "ai" },
        "status": {"id": status_id, "name": status_name},
        "variant": v,
        "speed": speed,
        "perf": speed,
        "rated": table.is_some_and(|t| t.rated),
        "hasMoved": has_moved,
        "opponent": opponent,
        "isMyTurn": gs.status != "ended" && gs.turn == color,
        "compat": {"bot": true, "board": true},
    });
    if let Some(s) = seconds_left {
        game["secondsLeft"] = json!(s);
    }
    if let Some(w) = winner_of(&gs) {
        game["winner"] = json!(w);
    }
    Some(game)
}

/// Our computer level as lichess's AI level number (1–5).
fn level_number(level: Option<&str>) -> u8 {
    match level {
        Some("beginner") => 1,
        Some("easy") => 2,
        Some("normal") => 3,
        Some("hard") => 4,
        Some("expert") => 5,
        _ => 0,
    }
}
