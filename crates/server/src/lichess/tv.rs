//! TV through lichess's API: `GET /api/tv/channels` (each channel's
//! featured game), `GET /api/tv/feed` (the best channel) and
//! `GET /api/tv/{channel}/feed` (NDJSON: a `featured` line for each game
//! shown, then a `fen` line for each of its moves, switching to the next
//! game when one ends), and ours, `GET /api/tv/games` (the games in
//! progress the home page lists). The choice of games is
//! [`plyyard_live::tv_board`]'s; this module writes it.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use plyyard_game::shakmaty::{ByColor, Color};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::caller::Reader;
use super::error::{LiError, LiResult};
use super::game_json::{self, Player};
use super::game_stream::{KEEP_ALIVE, line, ndjson_response};
use crate::state::{AppState, Shared};
use plyyard_live::tv::Channel;
use plyyard_live::tv_board::{FRESH, OnAir};
use plyyard_live::{Follow, Update};
use plyyard_wire::protocol::{EventKind, GameState, MoveJson};

/// Games in progress `GET /api/tv/games` lists.
const LISTED: usize = 12;
/// Lines waiting for a slow viewer.
const BUFFER: usize = 16;

/// `GET /api/tv/channels`: for each channel with a game in progress, its
/// featured game and the player TV looks from.
pub(super) async fn channels(
    State(state): State<AppState>,
    reader: Reader,
) -> LiResult<Json<Value>> {
    reader.count(&state.limits, 1).await?;
    let mut out = serde_json::Map::new();
    for (channel, on_air) in state.tv.channels().await? {
        let Ok(g) = state.live.state(&on_air.candidate.id, None).await else {
            continue;
        };
        let players = game_json::players(&state.store, &g).await?;
        let side = shown_side(&on_air);
        let player = side.fold_wb(&players.white, &players.black);
        let mut entry = json!({
            "gameId": on_air.candidate.id,
            "color": plyyard_live::color_name(side),
            "rating": on_air.candidate.ratings[usize::from(side == Color::Black)],
        });
        if let Player::Person {
            id, name, title, ..
        } = player
        {
            entry["user"] =
                json!({ "id": id.clone().unwrap_or_else(|| name.to_lowercase()), "name": name });
            if let Some(t) = title {
                entry["user"]["title"] = json!(t);
            }
        }
        out.insert(channel.key().to_owned(), entry);
    }
    Ok(Json(Value::Object(out)))
}

/// `GET /api/tv/games` (ours): the heaviest games in progress between
/// people, with their players and ratings.
pub(super) async fn games(State(state): State<AppState>, reader: Reader) -> LiResult<Json<Value>> {
    reader.count(&state.limits, 1).await?;
    let mut out = Vec::new();
    for on_air in state.tv.in_progress(LISTED).await? {
        let Ok(g) = state.live.state(&on_air.candidate.id, None).await else {
            continue;
        };
        if g.status != "ongoing" {
            continue;
        }
        let players = game_json::players(&state.store, &g).await?;
        out.push(json!({
            "id": g.id,
            "perf": on_air.candidate.perf,
            "fen": g.fen,
            "players": sides_json(&on_air, &players, &g),
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// `GET /api/tv/feed`: the best channel's feed.
pub(super) async fn feed_best(State(state): State<AppState>, reader: Reader) -> LiResult<Response> {
    feed(state, reader, Channel::Best).await
}

/// `GET /api/tv/{channel}/feed`.
pub(super) async fn feed_of(
    State(state): State<AppState>,
    reader: Reader,
    Path(key): Path<String>,
) -> LiResult<Response> {
    let channel = Channel::from_key(&key).ok_or_else(|| {
        let keys: Vec<&str> = Channel::ALL.iter().map(|c| c.key()).collect();
        LiError::not_found(format!("No such channel: {}", keys.join(", ")))
    })?;
    feed(state, reader, channel).await
}

async fn feed(state: AppState, reader: Reader, channel: Channel) -> LiResult<Response> {
    reader.count(&state.limits, 1).await?;
    let permit = Arc::clone(&state.tv_viewers)
        .try_acquire_owned()
        .map_err(|_| {
            LiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "Too many TV viewers on this server: try again later",
            )
        })?;
    let (tx, rx) = mpsc::channel(BUFFER);
    let shared = Arc::clone(&state.0);
    tokio::spawn(async move {
        Viewer { shared, tx }.watch(channel).await;
        drop(permit);
    });
    Ok(ndjson_response(rx))
}

/// Which side TV looks from: the higher-rated player (White when equal),
/// never the computer.
fn shown_side(on_air: &OnAir) -> Color {
    match (on_air.players[0].is_some(), on_air.players[1].is_some()) {
        (true, false) => Color::White,
        (false, true) => Color::Black,
        _ => {
            let [w, b] = on_air.candidate.ratings;
            if b > w { Color::Black } else { Color::White }
        }
    }
}

/// Both players as a list ends them: name (or computer level), rating.
fn sides_json(on_air: &OnAir, players: &ByColor<Player>, g: &GameState) -> Value {
    let one = |c: Color| {
        let mut p = match c.fold_wb(&players.white, &players.black) {
            Player::Person {
                id, name, title, ..
            } => {
                let mut user = json!({ "name": name, "id": id.clone().unwrap_or_else(|| name.to_lowercase()) });
                if let Some(t) = title {
                    user["title"] = json!(t);
                }
                json!({ "color": plyyard_live::color_name(c), "user": user })
            }
            Player::Computer { ai_level } => {
                json!({ "color": plyyard_live::color_name(c), "ai": ai_level })
            }
        };
        if let Some(r) = on_air.candidate.ratings[usize::from(c == Color::Black)] {
            p["rating"] = json!(r);
        }
        p["seconds"] = json!(seconds(g, c));
        p
    };
    json!([one(Color::White), one(Color::Black)])
}

/// A side's time left in whole seconds (0 without a clock).
fn seconds(g: &GameState, c: Color) -> u64 {
    g.table
        .as_ref()
        .map_or(0, |t| c.fold_wb(t.clock.white_ms, t.clock.black_ms) / 1000)
}

/// An event as the game's feed writes it.
#[derive(Deserialize)]
struct EventMsg {
    kind: EventKind,
    #[serde(rename = "move")]
    mv: Option<MoveJson>,
    game: GameState,
}

/// Why a viewer's loop stops.
enum Stop {
    /// The viewer left, or the server stops.
    Gone,
}

/// One TV viewer: the channel's games one after another.
struct Viewer {
    shared: Arc<Shared>,
    tx: mpsc::Sender<Bytes>,
}

impl Viewer {
    async fn send(&self, bytes: Bytes) -> Result<(), Stop> {
        self.tx.send(bytes).await.map_err(|_| Stop::Gone)
    }

    async fn watch(self, channel: Channel) {
        let _ = self.serve(channel).await;
    }

    async fn serve(&self, channel: Channel) -> Result<(), Stop> {
        let mut stopping = self.shared.shutting_down.subscribe();
        loop {
            if *stopping.borrow_and_update() {
                return Ok(());
            }
            let on_air = self.shared.tv.featured(channel).await.ok().flatten();
            let followed = match &on_air {
                Some(g) => Follow::start(&self.shared.live, &g.candidate.id, None)
                    .await
                    .ok(),
                None => None,
            };
            match (on_air, followed) {
                (Some(on_air), Some(follow)) => self.show(&on_air, follow).await?,
                _ => {
                    // Nothing on air: a keep-alive, and look again a little later.
                    self.send(Bytes::from_static(b"\n")).await?;
                    tokio::select! {
                        () = tokio::time::sleep(KEEP_ALIVE) => {}
                        () = self.tx.closed() => return Ok(()),
                        _ = stopping.changed() => {}
                    }
                }
            }
        }
    }

    /// Shows one game: `featured`, then a `fen` line per move, until it
    /// ends (then waits for TV to see it ended).
    async fn show(&self, on_air: &OnAir, mut follow: Follow) -> Result<(), Stop> {
        let Some(Update::Full(full)) = follow.ready() else {
            return Ok(());
        };
        let Ok(players) = game_json::players(&self.shared.store, &full).await else {
            return Ok(());
        };
        self.send(line(&json!({
            "t": "featured",
            "d": {
                "id": full.id,
                "orientation": plyyard_live::color_name(shown_side(on_air)),
                "players": sides_json(on_air, &players, &full),
                "fen": full.fen,
            },
        })))
        .await?;
        let mut ongoing = full.status == "ongoing";
        let mut keep_alive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        while ongoing {
            tokio::select! {
                () = self.tx.closed() => return Err(Stop::Gone),
                _ = keep_alive.tick() => self.send(Bytes::from_static(b"\n")).await?,
                update = follow.next() => match update {
                    Ok(Update::Event(e)) => {
                        let Ok(msg) = serde_json::from_str::<EventMsg>(&e.text) else { continue };
                        if matches!(msg.kind, EventKind::Move | EventKind::Undo) {
                            self.send(fen_line(&msg.game, msg.mv.as_ref())).await?;
                        }
                        ongoing = msg.game.status == "ongoing";
                    }
                    Ok(Update::Full(g)) => {
                        self.send(fen_line(&g, None)).await?;
                        ongoing = g.status == "ongoing";
                    }
                    Err(_) => ongoing = false,
                },
            }
        }
        // TV reads the games in progress once a second: let it see this one ended.
        tokio::time::sleep(FRESH + Duration::from_millis(100)).await;
        Ok(())
    }
}

/// A `fen` line: the position, the last move and both clocks in seconds.
fn fen_line(g: &GameState, mv: Option<&MoveJson>) -> Bytes {
    let lm = mv
        .map(|m| m.uci.clone())
        .or_else(|| {
            g.moves
                .as_ref()
                .and_then(|m| m.last())
                .map(|m| m.uci.clone())
        })
        .or_else(|| g.last_move.as_ref().map(|[a, b]| format!("{a}{b}")))
        .unwrap_or_default();
    line(&json!({
        "t": "fen",
        "d": {
            "fen": g.fen,
            "lm": lm,
            "wc": seconds(g, Color::White),
            "bc": seconds(g, Color::Black),
        },
    }))
}
