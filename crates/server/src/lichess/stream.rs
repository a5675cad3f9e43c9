//! `GET /api/stream/event`: an account's events as NDJSON, as lichess
//! streams them. On open, one `gameStart` per ongoing game and one
//! `challenge` per waiting challenge; then `gameStart` / `gameFinish` as
//! the account's games start and end, and the challenge events its feed
//! receives; an empty line every [`KEEP_ALIVE`] (6 s). One stream per account: a
//! new one ends the old. While open, the account is online and its
//! waiting challenges stay alive.

use std::collections::HashSet;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use plyyard_wire::lichess::Scope;
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use super::caller::Caller;
use super::challenges::{challenge_json, event_json};
use super::error::LiResult;
use super::game_event::game_event;
use super::game_stream::{KEEP_ALIVE, line, ndjson_response};
use super::users::user_id;
use crate::state::{AppState, Shared};
use plyyard_live::lifecycle::{LifeEvent, LifeKind};
use plyyard_social::events::{AccountEvent, ChallengeNews};
use plyyard_store::PlayerId;

/// Ongoing games listed when a stream opens, at most.
const MAX_ONGOING: u32 = 100;

/// `GET /api/stream/event`.
pub(super) async fn events(State(state): State<AppState>, caller: Caller) -> LiResult<Response> {
    caller.require(&[Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay])?;
    let me = PlayerId(caller.account.player_id.clone());
    // Listen before listing, so that nothing happens unseen in between.
    let slot = state.social.events.open(&me.0);
    let life = state.live.deps().life.listen();
    let here = state.social.presence.here(&user_id(&caller.account));
    let (tx, rx) = mpsc::channel::<Bytes>(64);
    let shared = Arc::clone(&state.0);
    tokio::spawn(async move {
        let _here = here;
        run(&shared, &me, slot, life, &tx).await;
    });
    Ok(ndjson_response(rx))
}

/// The challenge id of an event that announces a new challenge (empty
/// for other events): the listing may have sent it already.
fn challenge_id(event: &AccountEvent) -> String {
    match event {
        AccountEvent::Challenge {
            news: ChallengeNews::Made,
            challenge,
        } => challenge.id.clone(),
        AccountEvent::Challenge { .. } => String::new(),
    }
}

async fn game_line(state: &Shared, kind: &str, id: &str, me: &PlayerId) -> Option<Bytes> {
    let event = game_event(state, kind, id, me).await?;
    Some(line(&event))
}

/// Writes the stream until the client goes, a newer stream of the account
/// opens, or the server stops.
async fn run(
    state: &Shared,
    me: &PlayerId,
    mut slot: plyyard_social::events::Slot,
    mut life: broadcast::Receiver<LifeEvent>,
    tx: &mpsc::Sender<Bytes>,
) {
    // Subscribed first: a stop that comes while the stream lists what is
    // under way must still end it.
    let mut shutting_down = state.shutting_down.subscribe();
    let stopping = async move {
        let _ = shutting_down.wait_for(|s| *s).await;
    };
    tokio::pin!(stopping);
    state.pairing.touch_challenges(&me.0).await;
    // What the listing sent: the same news arriving on the feeds (it
    // happened between opening them and listing) is not sent twice.
    let mut listed: HashSet<(&'static str, String)> = HashSet::new();
    let ongoing = state
        .store
        .ongoing_games(&me.0, MAX_ONGOING)
        .await
        .unwrap_or_default();
    for g in ongoing.iter().rev() {
        if let Some(l) = game_line(state, "gameStart", &g.id, me).await {
            listed.insert(("gameStart", g.id.clone()));
            if tx.send(l).await.is_err() {
                return;
            }
        }
    }
    for c in state
        .store
        .waiting_challenges(&me.0)
        .await
        .unwrap_or_default()
    {
        if let Ok(json) = challenge_json(&state.pairing, &c, Some(&me.0)).await {
            listed.insert(("challenge", c.id.clone()));
            let l = line(&json!({"type": "challenge", "challenge": json}));
            if tx.send(l).await.is_err() {
                return;
            }
        }
    }
    let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
    keep_alive.tick().await;
    loop {
        let out = tokio::select! {
            _ = keep_alive.tick() => {
                state.pairing.touch_challenges(&me.0).await;
                Some(Bytes::from_static(b"\n"))
            }
            got = slot.lines.recv() => match got {
                Ok(event) if !listed.contains(&("challenge", challenge_id(&event))) => {
                    event_json(&state.pairing, &event, &me.0).await.ok().map(|v| line(&v))
                }
                Ok(_) => None,
                Err(broadcast::error::RecvError::Lagged(_)) => None,
                Err(broadcast::error::RecvError::Closed) => return,
            },
            got = life.recv() => match got {
                Ok(ev) if ev.kind == LifeKind::Started && listed.contains(&("gameStart", ev.game.clone())) => None,
                Ok(ev) if ev.players.iter().any(|p| p.as_deref() == Some(me.0.as_str())) => {
                    let kind = match ev.kind {
                        LifeKind::Started => "gameStart",
                        LifeKind::Ended => "gameFinish",
                    };
                    game_line(state, kind, &ev.game, me).await
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => None,
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = slot.newest.changed() => return,
            () = &mut stopping => return,
            () = tx.closed() => return,
        };
        if let Some(bytes) = out
            && tx.send(bytes).await.is_err()
        {
            return;
        }
    }
}
