//! The Board and Bot API's game stream, `GET /api/{board,bot}/game/stream/{id}`:
//! one NDJSON line per event, `gameFull` first, then a `gameState` on
//! every move (with its draw offer) and at the end, `opponentGone` when the
//! opponent's connection goes or comes back, `chatLine` for each line said
//! in the player room from then on ([`plyyard_social::chat`]); an empty line every
//! [`KEEP_ALIVE`]; closed once the game is over.
//!
//! A stream is one more subscriber of the game's feed, as a game socket
//! is: it relays the events in their order (catch-up first) and
//! resubscribes from its version on a gap. While it is open its player
//! counts as connected to the game (the away and abandonment rules) and as
//! online. An account has at most [`MAX_STREAMS`] open at once, over all
//! the nodes of a cluster ([`crate::streams`]).

use futures_util::StreamExt;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::Response;
use plyyard_game::shakmaty::Color;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use super::caller::{Api, Caller};
use super::error::{LiError, LiResult};
use super::game_json::{self, GameStateJson};
use crate::identity::PlayerId;
use crate::state::{AppState, Shared};
use crate::streams::MAX_STREAMS;
use plyyard_live::{Event, Follow, Update, color_name};
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{ChatLine, ChatRoom, EventKind, GameState, MoveJson};

/// An empty line goes out this often (lichess clients time out after 15 s
/// of silence).
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);
/// Lines waiting for a slow client before the stream waits for it.
const BUFFER: usize = 32;

/// The content type of every Lichess-API stream (never compressed: see
/// `crate::http`).
pub const NDJSON: &str = "application/x-ndjson";

/// A Lichess-API error for a game command or subscription that failed:
/// 404 for an unknown game or someone else's, 429 kept, 500 for our own
/// failures, 400 for everything else the game refused.
pub fn game_error(e: ApiError) -> LiError {
    match e.code {
        ErrorCode::NotFound => LiError::not_found("No such game"),
        ErrorCode::Forbidden => LiError::not_found("Not your game"),
        // Kept as they are: a client retries these, never a refused move.
        ErrorCode::RateLimited | ErrorCode::Internal | ErrorCode::Unavailable => LiError::from(e),
        _ => LiError::bad_request(e.message),
    }
}

/// A streamed NDJSON response fed by `rx`.
pub fn ndjson_response(rx: mpsc::Receiver<Bytes>) -> Response {
    // Fused: the compression layer polls a finished body once more, which
    // an `unfold` stream answers with a panic.
    let lines = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    })
    .fuse();
    let mut resp = Response::new(Body::from_stream(lines));
    let headers = resp.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(NDJSON),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    // Reverse proxies (nginx) pass each line on at once.
    headers.insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    resp
}

/// One NDJSON line of `value`.
pub fn line(value: &impl Serialize) -> Bytes {
    let mut text = serde_json::to_vec(value).unwrap_or_else(|e| {
        tracing::error!("cannot serialize a stream line: {e}");
        b"{}".to_vec()
    });
    text.push(b'\n');
    Bytes::from(text)
}

/// `GET /api/board/game/stream/{id}`.
pub(super) async fn board(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Response> {
    open(state, caller, &id, Api::Board).await
}

/// `GET /api/bot/game/stream/{id}`.
pub(super) async fn bot(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> LiResult<Response> {
    open(state, caller, &id, Api::Bot).await
}

async fn open(state: AppState, caller: Caller, id: &str, api: Api) -> LiResult<Response> {
    caller.require_api(api)?;
    let id = game_json::game_id(id).to_owned();
    let user_id = caller.id();
    let slot = state.game_streams.take(&user_id).await.ok_or_else(|| {
        let mut e = LiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("Too many game streams: an account may hold {MAX_STREAMS} open at once"),
        );
        e.retry_after = Some(KEEP_ALIVE.as_secs());
        e
    })?;
    let player = PlayerId(caller.account.player_id.clone());
    let mut follow = Follow::start(&state.live, &id, None)
        .await
        .map_err(game_error)?;
    let Some(color) = follow.seats().color_of(&player) else {
        return Err(LiError::not_found("Not your game"));
    };
    let Some(Update::Full(full)) = follow.ready() else {
        return Err(LiError::from(ApiError::internal(
            "a subscription without a version did not get the whole state",
        )));
    };
    let players = game_json::players(&state.store, &full).await?;
    let first = line(&game_json::game_full(&full, players));
    let chat = state.social.chat.hub().subscribe(&id);
    let (tx, rx) = mpsc::channel(BUFFER);
    let _ = tx.try_send(first);
    let ended = full.status != "ongoing";
    let relay = Relay {
        shared: Arc::clone(&state.0),
        game_id: id,
        color,
        tx,
        moves: full.moves.clone().unwrap_or_default(),
        sent_v: full.v,
        gone: false,
        claim_shown: false,
    };
    if !ended {
        let here = state.social.presence.here(&user_id);
        follow.here(player);
        tokio::spawn(async move {
            relay.run(follow, chat, &full).await;
            drop(here);
            drop(slot);
        });
    }
    Ok(ndjson_response(rx))
}

/// An event as the game's feed writes it.
#[derive(Deserialize)]
struct EventMsg {
    v: u64,
    kind: EventKind,
    #[serde(rename = "move")]
    mv: Option<MoveJson>,
    game: GameState,
}

/// `opponentGone`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GoneJson {
    #[serde(rename = "type")]
    kind: &'static str,
    gone: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    claim_win_in_seconds: Option<u64>,
}

/// `chatLine`.
#[derive(Serialize)]
struct ChatLineJson<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    username: &'a str,
    text: &'a str,
    room: &'static str,
}

/// Why a relay stops.
enum Stop {
    /// The game is over, the client left or the server stops.
    Done,
}

/// One stream's relay from the game's feed to its client.
struct Relay {
    shared: Arc<Shared>,
    game_id: String,
    color: Color,
    tx: mpsc::Sender<Bytes>,
    /// The moves so far (events carry only their own).
    moves: Vec<MoveJson>,
    /// The version the client has.
    sent_v: u64,
    /// Whether the client was told its opponent is gone.
    gone: bool,
    /// Whether the client was told it may claim the win now.
    claim_shown: bool,
}

impl Relay {
    async fn send(&self, bytes: Bytes) -> Result<(), Stop> {
        self.tx.send(bytes).await.map_err(|_| Stop::Done)
    }

    /// Relays until the game ends, the client goes or the server stops.
    /// The follower says the player is here while it runs.
    async fn run(
        mut self,
        follow: Follow,
        chat: broadcast::Receiver<Arc<ChatLine>>,
        first: &GameState,
    ) {
        let _ = self.serve(follow, chat, first).await;
    }

    async fn serve(
        &mut self,
        mut follow: Follow,
        mut chat: broadcast::Receiver<Arc<ChatLine>>,
        first: &GameState,
    ) -> Result<(), Stop> {
        self.opponent(first).await?;
        let mut stopping = self.shared.shutting_down.subscribe();
        if *stopping.borrow() {
            return Ok(());
        }
        let start = tokio::time::Instant::now() + KEEP_ALIVE;
        let mut keep_alive = tokio::time::interval_at(start, KEEP_ALIVE);
        keep_alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = self.tx.closed() => return Ok(()),
                changed = stopping.changed() => {
                    if changed.is_err() || *stopping.borrow_and_update() {
                        return Ok(());
                    }
                    continue;
                }
                _ = keep_alive.tick() => {
                    self.send(Bytes::from_static(b"\n")).await?;
                    continue;
                }
                said = chat.recv() => {
                    match said {
                        Ok(l) if l.room == ChatRoom::Player => {
                            self.send(line(&ChatLineJson {
                                kind: "chatLine",
                                username: &l.user,
                                text: &l.text,
                                room: l.room.as_str(),
                            }))
                            .await?;
                        }
                        // Lines missed by a slow client stay missed (GET
                        // …/chat lists them).
                        Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => {
                            chat = self.shared.social.chat.hub().subscribe(&self.game_id);
                        }
                    }
                    continue;
                }
                update = follow.next() => match update {
                    Ok(Update::Event(e)) => self.event(&e).await?,
                    Ok(Update::Full(g)) => self.full(&g).await?,
                    // The game cannot be followed any more.
                    Err(_) => return Ok(()),
                },
            }
        }
    }

    /// The whole state again (the follower fell too far behind).
    async fn full(&mut self, g: &GameState) -> Result<(), Stop> {
        if g.v <= self.sent_v {
            return Ok(());
        }
        self.sent_v = g.v;
        self.moves = g.moves.clone().unwrap_or_default();
        self.state(g).await?;
        self.opponent(g).await
    }

    /// Relays one event (the follower hands them on in order and once).
    async fn event(&mut self, e: &Event) -> Result<(), Stop> {
        let msg: EventMsg = serde_json::from_str(&e.text).map_err(|err| {
            tracing::error!(game = %self.game_id, "unreadable event: {err}");
            Stop::Done
        })?;
        self.sent_v = msg.v;
        match msg.kind {
            EventKind::Move => {
                if let Some(mv) = msg.mv {
                    self.moves.push(mv);
                }
                self.state(&msg.game).await?;
            }
            EventKind::Undo => {
                self.moves.truncate(msg.game.ply as usize);
                self.state(&msg.game).await?;
            }
            EventKind::End | EventKind::Berserk | EventKind::Draw | EventKind::Takeback => {
                self.state(&msg.game).await?;
            }
            EventKind::Away => self.opponent(&msg.game).await?,
            EventKind::Rematch => {}
        }
        Ok(())
    }

    /// Sends the `gameState` of `g`; stops after the game's last.
    async fn state(&mut self, g: &GameState) -> Result<(), Stop> {
        let json: GameStateJson = game_json::game_state(g, game_json::moves_text(&self.moves));
        self.send(line(&json)).await?;
        if g.status != "ongoing" {
            return Err(Stop::Done);
        }
        Ok(())
    }

    /// Sends `opponentGone` when the opponent's connection went or came
    /// back, or the claim against them opened.
    async fn opponent(&mut self, g: &GameState) -> Result<(), Stop> {
        let Some(t) = &g.table else { return Ok(()) };
        if g.status != "ongoing" {
            return Ok(());
        }
        let me = color_name(self.color);
        let gone = self.color.fold_wb(t.away.black, t.away.white);
        let claimable = t.away_claimable_by.as_deref() == Some(me);
        if gone == self.gone && claimable == self.claim_shown {
            return Ok(());
        }
        self.gone = gone;
        self.claim_shown = gone && claimable;
        let claim_win_in_seconds = match (gone, claimable) {
            (false, _) => None,
            (true, true) => Some(0),
            // Before both sides moved, an absent player's game is aborted
            // instead: nothing to claim.
            (true, false) if g.ply < 2 => None,
            (true, false) => Some(self.shared.tuning.away_claim_after.as_secs_f64().ceil() as u64),
        };
        self.send(line(&GoneJson {
            kind: "opponentGone",
            gone,
            claim_win_in_seconds,
        }))
        .await
    }
}
