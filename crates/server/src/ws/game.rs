//! One websocket session on a game: its events followed
//! (`plyyard_live::Follow`: the catch-up from the client's version, then
//! each event once and in order), client commands sent to the game
//! through `Games`, rate limiting, and
//! the chat room the viewer reads at a table game (its history after the
//! first state, then its lines as they are said; see [`plyyard_social::chat`]),
//! less the lines of players the viewer blocks.
//!
//! The session is written over any `Sink`/`Stream` of [`Outgoing`] and
//! [`Incoming`] frames, so it is tested with plain channels as well as with
//! real sockets; [`crate::http`] adapts axum's websocket to it.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio::sync::broadcast;

use super::{FloodGuard, Incoming, MAX_FRAME_BYTES, Outgoing, Verdict, close};
use crate::Shared;
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::protocol::{ChatLine, ChatRoom, ClientMsg, GameState, ServerMsg, parse_client};
use crate::security::{AccountKey, ClientIp, Limits};
use plyyard_engine_time::fair::Requester;
use plyyard_live::{Action, Follow, Seats, Update, color_name};
use plyyard_social::Social;
use plyyard_social::relations::Hidden;

/// How long a finished session keeps reading for the client's close reply.
/// Dropping a socket with unread input makes the kernel reset the
/// connection, and a reset can destroy what we sent last (the errors that
/// explain the close) before the client reads it.
const CLOSE_DRAIN: Duration = Duration::from_secs(2);

struct Session<'a, S> {
    shared: &'a Arc<Shared>,
    game_id: &'a str,
    player: &'a PlayerId,
    client: &'a [Requester],
    speaker: Voice,
    sink: S,
    seats: Seats,
    /// The chat authors the viewer blocks.
    hidden: Hidden,
}

impl<S, E> Session<'_, S>
where
    S: Sink<Outgoing, Error = E> + Unpin,
{
    fn viewer_state(&self, game: &GameState) -> GameState {
        let mut g = game.clone();
        g.you = self
            .seats
            .color_of(self.player)
            .map(|c| color_name(c).to_owned());
        g.for_viewer();
        g
    }

    async fn send(&mut self, msg: &ServerMsg) -> Result<(), E> {
        self.sink.send(Outgoing::Text(msg.to_text())).await
    }

    /// Sends what the follower got: an event as the game wrote it, or the
    /// whole state as this viewer sees it.
    async fn update(&mut self, u: Update) -> Result<(), E> {
        match u {
            Update::Event(e) => self.sink.send(Outgoing::Text(e.text.to_string())).await,
            Update::Full(game) => {
                let msg = ServerMsg::Full {
                    v: game.v,
                    game: self.viewer_state(&game),
                };
                self.send(&msg).await
            }
        }
    }

    /// At a table game: listens to the chat room the viewer reads and
    /// sends its history. `None` for games without chat.
    async fn open_chat(
        &mut self,
    ) -> Result<Option<(ChatRoom, broadcast::Receiver<Arc<ChatLine>>)>, E> {
        let room = match self
            .shared
            .social
            .chat
            .room_of(self.game_id, self.player)
            .await
        {
            Ok(Some(room)) => room,
            Ok(None) => return Ok(None),
            Err(e) => {
                tracing::warn!(game = %self.game_id, "no chat for a socket: {e}");
                return Ok(None);
            }
        };
        // Listen first: a line said meanwhile may come twice, never not at all.
        let rx = self.shared.social.chat.hub().subscribe(self.game_id);
        let viewer = self.speaker.account.as_ref().map(|a| a.0.clone());
        match self
            .shared
            .social
            .chat
            .history(self.game_id, room, viewer.as_deref())
            .await
        {
            Ok(lines) => {
                let mut shown = Vec::with_capacity(lines.len());
                for line in lines {
                    if !self.hides(&line).await {
                        shown.push(line);
                    }
                }
                self.send(&ServerMsg::ChatHistory { room, lines: shown })
                    .await?;
            }
            Err(e) => tracing::warn!(game = %self.game_id, "no chat history: {e}"),
        }
        Ok(Some((room, rx)))
    }

    /// Whether `line` is by a player the viewer blocks.
    async fn hides(&mut self, line: &ChatLine) -> bool {
        self.hidden
            .hides(&self.shared.social.relations, &line.user)
            .await
    }

    async fn command(&mut self, msg: ClientMsg) -> Result<Option<u64>, ApiError> {
        let Some(action) = action_for(self.client, msg) else {
            return Ok(None);
        };
        let v = self
            .shared
            .live
            .act(self.game_id, self.player.clone(), action)
            .await?;
        Ok(Some(v))
    }
}

/// The action a client message asks for; `None` for messages the session
/// answers itself.
fn action_for(client: &[Requester], msg: ClientMsg) -> Option<Action> {
    Some(match msg {
        ClientMsg::Move {
            uci,
            draw_offer,
            blur,
            lag_ms,
        } => Action::Move {
            uci,
            draw_offer,
            blur,
            lag: Duration::from_millis(lag_ms.unwrap_or(0)),
            client: client.to_vec(),
        },
        ClientMsg::Claim { reason, uci } => Action::Claim { reason, uci },
        ClientMsg::ClaimAway { win } => Action::ClaimAway { win },
        ClientMsg::AcceptDraw => Action::AcceptDraw,
        ClientMsg::DeclineDraw => Action::DeclineDraw,
        ClientMsg::Abort => Action::Abort,
        ClientMsg::Rematch => Action::Rematch,
        ClientMsg::Undo => Action::Undo,
        ClientMsg::Takeback { yes } => Action::Takeback { yes },
        ClientMsg::Resign => Action::Resign,
        ClientMsg::Sync { .. } | ClientMsg::Ping | ClientMsg::Chat { .. } => return None,
    })
}

/// Who speaks in chat from a socket: the player, their account (`None`:
/// anonymous, who may only read) and the address their quota is counted
/// on with their account.
#[derive(Debug, Clone)]
pub struct Voice {
    /// The player.
    pub player: PlayerId,
    /// Their account, if logged in.
    pub account: Option<AccountKey>,
    /// Their address.
    pub ip: ClientIp,
}

impl Voice {
    /// The speaker as game chat knows them.
    pub fn speaker(&self) -> plyyard_social::Speaker {
        plyyard_social::Speaker {
            player: self.player.clone(),
            account: self.account.as_ref().map(|a| a.0.clone()),
        }
    }

    /// Says `text` in `room` of game `game_id`, counted against this
    /// voice's chat quota once the line passed every other check.
    ///
    /// # Errors
    /// See [`plyyard_social::Chat::say`].
    pub async fn say(
        &self,
        social: &Social,
        limits: &Limits,
        game_id: &str,
        room: plyyard_wire::protocol::ChatRoom,
        text: &str,
    ) -> Result<plyyard_social::chat::Said, ApiError> {
        let quota = async {
            limits
                .check_chat(self.ip, self.account.as_ref())
                .await
                .map_err(ApiError::from)
        };
        let speaker = self.speaker();
        // Boxed: saying a line holds the quota's and the store's futures
        // at once, and every open socket's session would otherwise carry
        // their room while it waits for something else.
        Box::pin(social.chat.say(game_id, &speaker, room, text, quota)).await
    }
}

/// Runs a session of `player`, from the client of `client` (its keys, see
/// [`Requester::keys`]), until either side closes. `since` is the version
/// the client already has (`?v=`); `speaker` is who speaks in chat (the
/// same player, with their account and address).
#[allow(clippy::too_many_arguments)]
pub async fn run_session<S, R, E>(
    shared: Arc<Shared>,
    game_id: String,
    player: PlayerId,
    client: Vec<Requester>,
    speaker: Voice,
    since: Option<u64>,
    sink: S,
    mut stream: R,
) where
    S: Sink<Outgoing, Error = E> + Unpin,
    R: Stream<Item = Incoming> + Unpin,
{
    shared.metrics.sockets_open.fetch_add(1, Ordering::Relaxed);
    let hidden = Hidden::new(speaker.account.as_ref().map(|a| a.0.clone()));
    let mut session = Session {
        shared: &shared,
        game_id: &game_id,
        player: &player,
        client: &client,
        speaker,
        hidden,
        sink,
        seats: Seats::empty(),
    };
    let _ = serve(&mut session, since, &mut stream).await;
    let _ = tokio::time::timeout(CLOSE_DRAIN, async {
        while stream.next().await.is_some() {}
    })
    .await;
    let _ = session.sink.close().await;
    shared.metrics.sockets_open.fetch_sub(1, Ordering::Relaxed);
}

async fn serve<S, R, E>(
    session: &mut Session<'_, S>,
    since: Option<u64>,
    stream: &mut R,
) -> Result<(), E>
where
    S: Sink<Outgoing, Error = E> + Unpin,
    R: Stream<Item = Incoming> + Unpin,
{
    let mut follow = match Follow::start(&session.shared.live, session.game_id, since).await {
        Ok(mut follow) => {
            session.seats = follow.seats().clone();
            if session.seats.color_of(session.player).is_some() {
                follow.here(session.player.clone());
            }
            follow
        }
        Err(e) => {
            let code = if e.code == ErrorCode::NotFound {
                close::NOT_FOUND
            } else {
                close::INTERNAL
            };
            session.send(&ServerMsg::error(None, e)).await?;
            session
                .sink
                .send(Outgoing::Close(code, "cannot open this game".into()))
                .await?;
            return Ok(());
        }
    };
    // What the client missed comes first, then the chat.
    while let Some(u) = follow.ready() {
        session.update(u).await?;
    }
    let mut chat = session.open_chat().await?;
    let mut guard = FloodGuard::new();
    let mut stopping = session.shared.shutting_down.subscribe();
    if *stopping.borrow() {
        return Ok(());
    }
    loop {
        tokio::select! {
            line = async {
                match chat.as_mut() {
                    Some((_, rx)) => rx.recv().await,
                    None => std::future::pending().await,
                }
            } => match line {
                Ok(line) => {
                    if chat.as_ref().is_some_and(|(room, _)| *room == line.room)
                        && !session.hides(&line).await
                    {
                        session.send(&ServerMsg::Chat { line: ChatLine::clone(&line) }).await?;
                    }
                }
                // Lines missed by a slow socket stay missed: chat is not
                // replayed.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => chat = None,
            },
            changed = stopping.changed() => {
                let stop = changed.is_err() || *stopping.borrow_and_update();
                if stop {
                    session.sink.send(Outgoing::Close(close::GOING_AWAY, "server restarting".into())).await?;
                    return Ok(());
                }
            }
            frame = stream.next() => {
                let frame = match frame {
                    None | Some(Incoming::Close) => return Ok(()),
                    Some(Incoming::Other) => continue,
                    Some(Incoming::TooLarge) => {
                        let msg = ServerMsg::error(None, ApiError::new(
                            ErrorCode::TooLarge,
                            format!("frames are limited to {MAX_FRAME_BYTES} bytes"),
                        ));
                        session.send(&msg).await?;
                        session.sink.send(Outgoing::Close(close::TOO_BIG, "frame too large".into())).await?;
                        return Ok(());
                    }
                    Some(f) => f,
                };
                match guard.check(Instant::now()) {
                    Verdict::Allow => {}
                    Verdict::Close => {
                        session.sink.send(Outgoing::Close(close::POLICY, "too many messages".into())).await?;
                        return Ok(());
                    }
                    Verdict::Refuse => {
                        // Only text gets an answer: a flood of binary or
                        // control frames must not become a flood of replies.
                        if let Incoming::Text(text) = &frame {
                            let (id, _) = parse_client(text);
                            session.send(&ServerMsg::error(id, ApiError::new(ErrorCode::RateLimited, "too many messages; slow down"))).await?;
                        }
                        continue;
                    }
                }
                let text = match frame {
                    Incoming::Text(t) => t,
                    Incoming::Binary => {
                        session.send(&ServerMsg::error(None, ApiError::bad_request("binary frames are not supported"))).await?;
                        continue;
                    }
                    _ => continue,
                };
                let (id, parsed) = parse_client(&text);
                match parsed {
                    Err(e) => session.send(&ServerMsg::error(id, e)).await?,
                    Ok(ClientMsg::Ping) => session.send(&ServerMsg::Pong).await?,
                    Ok(ClientMsg::Chat { room, text }) => {
                        match session.speaker.say(&session.shared.social, &session.shared.limits, session.game_id, room, &text).await {
                            Ok(said) => {
                                // A muted speaker's line reaches nobody else:
                                // their own socket shows it as if it had.
                                if said.shadow {
                                    session.send(&ServerMsg::Chat { line: said.line }).await?;
                                }
                                let v = follow.v();
                                session.send(&ServerMsg::Ack { id, v }).await?;
                            }
                            Err(e) => session.send(&ServerMsg::error(id, e)).await?,
                        }
                    }
                    Ok(ClientMsg::Sync { v }) => match tokio::select! {
                        r = follow.sync(v) => r,
                        () = stopped(&mut stopping) => {
                            session.sink.send(Outgoing::Close(close::GOING_AWAY, "server restarting".into())).await?;
                            return Ok(());
                        }
                    } {
                        Ok(()) => session.seats = follow.seats().clone(),
                        Err(e) => session.send(&ServerMsg::error(id, e)).await?,
                    },
                    Ok(cmd) => match tokio::select! {
                        r = session.command(cmd) => r,
                        () = stopped(&mut stopping) => {
                            session.sink.send(Outgoing::Close(close::GOING_AWAY, "server restarting".into())).await?;
                            return Ok(());
                        }
                    } {
                        Ok(Some(v)) => session.send(&ServerMsg::Ack { id, v }).await?,
                        Ok(None) => {}
                        Err(e) => session.send(&ServerMsg::error(id, e)).await?,
                    },
                }
            }
            // A stopping node's games move while its sockets wait for
            // them: the stop branch, not the wait, decides.
            update = follow.next() => match update {
                Ok(u) => {
                    if matches!(u, Update::Full(_)) {
                        // The seats may have changed (a player logged in).
                        session.seats = follow.seats().clone();
                    }
                    session.update(u).await?;
                }
                Err(e) => {
                    session.send(&ServerMsg::error(None, e)).await?;
                    return Ok(());
                }
            },
        }
    }
}

/// Completes once the server starts shutting down.
async fn stopped(stopping: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stopping.wait_for(|s| *s).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    use futures_channel::mpsc;
    use serde_json::{Value, json};

    use crate::protocol::{ColorChoice, NewComputerGame};
    use crate::{Shared, Tuning};
    use plyyard_store::Store;

    async fn shared(dir: &tempfile::TempDir) -> Arc<Shared> {
        let url = format!("sqlite://{}", dir.path().join("s.db").display());
        let store = Store::open(&url).await.unwrap();
        let tuning = Tuning {
            engine_workers: 1,
            engine_hash_mb: 1,
            think_time_factor: 0.25,
            ..Tuning::default()
        };
        Arc::new(Shared::new(store, b"test", tuning))
    }

    fn anonymous(player: &PlayerId) -> Voice {
        Voice {
            player: player.clone(),
            account: None,
            ip: crate::security::ClientIp(std::net::Ipv4Addr::LOCALHOST.into()),
        }
    }

    async fn next(rx: &mut mpsc::UnboundedReceiver<Outgoing>) -> Outgoing {
        tokio::time::timeout(Duration::from_secs(20), rx.next())
            .await
            .expect("a frame in time")
            .expect("the session is open")
    }

    fn json_of(o: Outgoing) -> Value {
        match o {
            Outgoing::Text(t) => serde_json::from_str(&t).unwrap(),
            Outgoing::Close(code, why) => panic!("closed {code}: {why}"),
        }
    }

    /// A new Beginner computer game of `player` (White), its searches
    /// charged to `client`.
    async fn beginner_game(
        shared: &Arc<Shared>,
        player: &PlayerId,
        client: &[Requester],
    ) -> GameState {
        let req = NewComputerGame {
            level: plyyard_engine::Level::Beginner,
            color: ColorChoice::White,
            variant: plyyard_game::Variant::Standard,
            position: None,
            rules: plyyard_game::RuleSet::PlyYard,
            fen: None,
            clock: None,
        };
        shared
            .live
            .create_computer_game(player, client.to_vec(), req)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_session_over_channels() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir).await;
        let player = crate::identity::new_player_id();
        let client = vec![Requester::Player(player.0.clone())];
        let g = beginner_game(&shared, &player, &client).await;
        let (to_client, mut client_rx) = mpsc::unbounded::<Outgoing>();
        let (client_tx, from_client) = mpsc::unbounded::<Incoming>();
        let task = tokio::spawn(run_session(
            Arc::clone(&shared),
            g.id.clone(),
            player.clone(),
            client,
            anonymous(&player),
            None,
            to_client,
            from_client,
        ));
        let full = json_of(next(&mut client_rx).await);
        assert_eq!(full["t"], "full");
        assert_eq!(full["game"]["you"], "white");

        let send = |v: Value| {
            client_tx
                .unbounded_send(Incoming::Text(v.to_string()))
                .unwrap()
        };
        send(json!({"t":"move","id":1,"uci":"e2e4"}));
        let mut got = Vec::new();
        while got.len() < 3 {
            got.push(json_of(next(&mut client_rx).await));
        }
        assert!(got.contains(&json!({"t":"ack","id":1,"v":1})), "{got:?}");
        assert!(got.iter().any(|m| m["t"] == "event" && m["v"] == 1));
        assert!(
            got.iter()
                .any(|m| m["t"] == "event" && m["v"] == 2 && m["game"]["ply"] == 2)
        );

        client_tx.unbounded_send(Incoming::TooLarge).unwrap();
        assert_eq!(json_of(next(&mut client_rx).await)["code"], "too_large");
        assert_eq!(
            next(&mut client_rx).await,
            Outgoing::Close(close::TOO_BIG, "frame too large".into())
        );
        // After the close the session reads on, answering nothing, until
        // the client's side ends.
        send(json!({"t":"ping"}));
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!task.is_finished());
        drop(client_tx);
        tokio::time::timeout(Duration::from_secs(1), task)
            .await
            .expect("the session ends with the client's stream")
            .unwrap();
        assert_eq!(client_rx.next().await, None);
        assert_eq!(shared.metrics.sockets_open.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn a_session_on_a_missing_game_closes() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir).await;
        let (to_client, mut client_rx) = mpsc::unbounded::<Outgoing>();
        let (_client_tx, from_client) = mpsc::unbounded::<Incoming>();
        let player = crate::identity::new_player_id();
        run_session(
            shared,
            "nosuchgm".into(),
            player.clone(),
            Vec::new(),
            anonymous(&player),
            None,
            to_client,
            from_client,
        )
        .await;
        assert_eq!(json_of(next(&mut client_rx).await)["code"], "not_found");
        assert!(matches!(
            next(&mut client_rx).await,
            Outgoing::Close(close::NOT_FOUND, _)
        ));
    }

    #[tokio::test]
    async fn floods_of_any_frame_kind_end_in_a_policy_close() {
        let dir = tempfile::tempdir().unwrap();
        let shared = shared(&dir).await;
        let player = crate::identity::new_player_id();
        let client = vec![Requester::Player(player.0.clone())];
        let g = beginner_game(&shared, &player, &client).await;
        for flood in [Incoming::Binary, Incoming::Control] {
            let (to_client, mut client_rx) = mpsc::unbounded::<Outgoing>();
            let (client_tx, from_client) = mpsc::unbounded::<Incoming>();
            let task = tokio::spawn(run_session(
                Arc::clone(&shared),
                g.id.clone(),
                player.clone(),
                client.clone(),
                anonymous(&player),
                None,
                to_client,
                from_client,
            ));
            assert_eq!(json_of(next(&mut client_rx).await)["t"], "full");
            for _ in 0..10_000 {
                client_tx.unbounded_send(flood.clone()).unwrap();
            }
            let mut replies = 0;
            loop {
                match next(&mut client_rx).await {
                    Outgoing::Text(_) => replies += 1,
                    Outgoing::Close(code, _) => {
                        assert_eq!(code, close::POLICY, "{flood:?}");
                        break;
                    }
                }
            }
            // One `bad_request` per binary frame within the limit (and a
            // token or two refilled meanwhile); nothing for control frames.
            let expected = if flood == Incoming::Binary {
                super::super::FRAMES_PER_SEC as usize + 2
            } else {
                0
            };
            assert!(replies <= expected, "{flood:?}: {replies} replies");
            drop(client_tx);
            task.await.unwrap();
        }
    }
}
