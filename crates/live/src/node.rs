//! What a node of a cluster does beside its games' actors: it serves the
//! commands other nodes forward to it, hears the games' events and the
//! lifecycle announcements on the bus, publishes its own, renews its
//! leases (stopping the actors of games it lost), sweeps up table games
//! nobody owns, and, when it stops, hands its games over ([`drain`]). The
//! rules of ownership are `cluster`'s; the registry is `hub`'s.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use bytes::Bytes;
use plyyard_cluster::Bus;
use plyyard_cluster::inbox::Incoming;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::ask::{Answer, Forward, Unserved};
use crate::cluster::{
    Cluster, Frame, LANES, LEASE_TTL, LIFE_TOPIC, RENEW_EVERY, SWEEP_BATCH, SWEEP_EVERY, lane,
    owner_changed,
};
use crate::cmd::Cmd;
use crate::hub::{self, LiveDeps, Route};
use crate::lifecycle::{LifeEvent, LifeKind};
use plyyard_wire::error::ApiError;

/// Starts this node's cluster tasks: serving forwarded commands, hearing
/// events and announcements, publishing, renewing leases and sweeping.
pub fn start(shared: &Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    if let Some(incoming) = c.take_incoming() {
        tokio::spawn(serve_forwarded(Arc::clone(shared), incoming));
    }
    if let Some(rx) = c.take_outgoing() {
        tokio::spawn(publish(Arc::clone(c.bus()), rx));
    }
    for n in 0..LANES {
        let rx = c.bus().subscribe(&plyyard_cluster::topics::game_lane(n));
        tokio::spawn(hear_lane(Arc::clone(&c), rx));
    }
    tokio::spawn(hear_life(Arc::clone(shared), c.bus().subscribe(LIFE_TOPIC)));
    tokio::spawn(catch_up_after_loss(Arc::clone(&c)));
    tokio::spawn(renew(Arc::clone(shared)));
    tokio::spawn(sweep(Arc::clone(shared)));
}

/// Answers the commands other nodes forward to this one, each in a task
/// of its own (a game's actor still takes them one at a time).
async fn serve_forwarded(shared: Arc<LiveDeps>, mut incoming: mpsc::Receiver<Incoming>) {
    while let Some(msg) = incoming.recv().await {
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let answer = serve_one(&shared, &msg.body).await;
            if let Some(reply) = msg.reply {
                match serde_json::to_vec(&answer) {
                    Ok(body) => reply.answer(&body).await,
                    Err(e) => tracing::error!("cannot write an answer: {e}"),
                }
            }
        });
    }
}

async fn serve_one(shared: &Arc<LiveDeps>, body: &[u8]) -> Answer {
    let fwd: Forward = match serde_json::from_slice(body) {
        Ok(f) => f,
        Err(e) => {
            let error = ApiError::bad_request(format!("unreadable command: {e}"));
            return Answer::Unserved(Unserved::Failed { error });
        }
    };
    let draining = shared.cluster.as_ref().is_some_and(|c| c.draining());
    if draining {
        return Answer::Unserved(Unserved::NotOwner);
    }
    let handle = match hub::route(shared, &fwd.game).await {
        Ok(Route::Local(h)) => h,
        Ok(Route::Remote(_)) => return Answer::Unserved(Unserved::NotOwner),
        Err(error) => return Answer::Unserved(Unserved::Failed { error }),
    };
    shared
        .metrics
        .served_forwarded
        .fetch_add(1, Ordering::Relaxed);
    if fwd.cmd.is_notice() {
        return match handle.notices.send(fwd.cmd) {
            Ok(()) => Answer::Reply(crate::ask::Reply::Done),
            Err(_) => Answer::Unserved(Unserved::NotOwner),
        };
    }
    let (reply, answer) = oneshot::channel();
    let cmd = Cmd::Ask {
        ask: fwd.cmd,
        reply,
    };
    if handle.tx.send(cmd).await.is_err() {
        return Answer::Unserved(Unserved::NotOwner);
    }
    // An actor that stopped before answering did not apply the command.
    answer
        .await
        .map_or(Answer::Unserved(Unserved::NotOwner), Answer::Reply)
}

/// Publishes the queued frames in order.
async fn publish(bus: Arc<Bus>, mut rx: mpsc::UnboundedReceiver<Frame>) {
    let mut warned: Option<Instant> = None;
    while let Some((topic, frame)) = rx.recv().await {
        // While Redis is down, frames are dropped at once rather than each
        // waiting out a timeout: other nodes catch up when it is back.
        if !bus.is_up() {
            continue;
        }
        if let Err(e) = bus.publish(&topic, &frame).await
            && warned.is_none_or(|t| t.elapsed() > Duration::from_secs(5))
        {
            warned = Some(Instant::now());
            tracing::warn!("bus: an event was not published ({e}); other nodes catch up");
        }
    }
}

/// Relays the events heard on one lane.
async fn hear_lane(c: Arc<Cluster>, mut rx: broadcast::Receiver<Bytes>) {
    loop {
        match rx.recv().await {
            Ok(frame) => on_lane_frame(&c, &frame),
            Err(broadcast::error::RecvError::Lagged(_)) => c.relays.close_all(),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

fn on_lane_frame(c: &Cluster, frame: &Bytes) {
    let Some((mut head, body)) = plyyard_cluster::frame::split(frame) else {
        tracing::warn!("bus: an unreadable game frame");
        return;
    };
    match (head.next(), head.next(), head.next()) {
        (Some("E"), Some(game), Some(v)) => {
            let (Ok(v), Ok(text)) = (v.parse(), std::str::from_utf8(&body)) else {
                return;
            };
            c.relays.deliver(game, v, text);
        }
        (Some("O"), Some(game), None) => {
            c.relays.close(game);
            c.forget_owner(game);
        }
        _ => tracing::warn!("bus: an unreadable game frame"),
    }
}

/// Delivers the lifecycle announcements of every node to this node's
/// listeners.
async fn hear_life(shared: Arc<LiveDeps>, mut rx: broadcast::Receiver<Bytes>) {
    loop {
        let frame = match rx.recv().await {
            Ok(f) => f,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&frame) else {
            continue;
        };
        let name = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
        let Some(game) = name("game") else { continue };
        let started = v.get("started").and_then(serde_json::Value::as_bool);
        shared.life.announce(LifeEvent {
            game,
            kind: if started == Some(true) {
                LifeKind::Started
            } else {
                LifeKind::Ended
            },
            players: plyyard_game::shakmaty::ByColor {
                white: name("white"),
                black: name("black"),
            },
        });
    }
}

/// After the bus lost messages, every relay closes so that its sockets
/// catch up from the games' owners.
async fn catch_up_after_loss(c: Arc<Cluster>) {
    let mut again = c.bus().resubscribed();
    while again.changed().await.is_ok() {
        c.relays.close_all();
        c.forget_owners();
    }
}

/// Renews this node's leases every [`RENEW_EVERY`]; stops the actors of
/// games whose lease was lost, and all of them when renewing failed for
/// longer than a lease lasts less one renewal (another node may own them).
async fn renew(shared: Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    let mut every = tokio::time::interval(RENEW_EVERY);
    let mut renewed = Instant::now();
    loop {
        every.tick().await;
        if c.draining() {
            return;
        }
        c.relays.prune();
        match shared.store.renew_leases(c.node(), LEASE_TTL).await {
            Ok(held) => {
                renewed = Instant::now();
                let held: HashSet<String> = held.into_iter().collect();
                hub::release_where(&shared, |id| !held.contains(id)).await;
            }
            Err(e) => {
                tracing::warn!("cannot renew leases: {e}");
                if renewed.elapsed() > LEASE_TTL - RENEW_EVERY {
                    tracing::error!("leases not renewed in time: this node stops its games");
                    hub::release_where(&shared, |_| true).await;
                }
            }
        }
    }
}

/// Takes over, every [`SWEEP_EVERY`], table games still being played that
/// no node owns.
async fn sweep(shared: Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        if c.draining() {
            return;
        }
        let orphans = match shared.store.orphaned_games(SWEEP_BATCH).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("cannot look for orphaned games: {e}");
                continue;
            }
        };
        for id in orphans {
            match hub::route(&shared, &id).await {
                Ok(Route::Local(_)) => tracing::info!(game = %id, "took over an orphaned game"),
                Ok(Route::Remote(_)) => {}
                Err(e) => tracing::warn!(game = %id, "cannot take over: {}", e.message),
            }
        }
    }
}

/// Stops this node's part in the cluster: it takes no game any more,
/// stops its actors (each finishes the command in hand), gives up its
/// leases and tells the other nodes, so that its games move at once.
pub async fn drain(shared: &Arc<LiveDeps>) {
    let Some(c) = shared.cluster.clone() else {
        return;
    };
    c.start_draining();
    hub::release_where(shared, |_| true).await;
    let until = Instant::now() + Duration::from_secs(3);
    while !shared.hub.is_empty() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    match shared.store.release_leases(c.node()).await {
        Ok(games) => {
            tracing::info!(games = games.len(), "leases given up");
            for game in &games {
                if let Err(e) = c.bus().publish(&lane(game), &owner_changed(game)).await {
                    tracing::warn!("cannot tell other nodes: {e}");
                    break;
                }
            }
        }
        Err(e) => tracing::warn!("cannot give up leases: {e}"),
    }
}
