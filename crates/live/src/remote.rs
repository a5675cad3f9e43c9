//! Commands crossing nodes: a command for a game another node owns is
//! split here into what travels ([`Forward`], JSON) and the reply channel
//! that stays ([`Waiting`]); the owner rebuilds a [`Cmd`] from it
//! ([`rebuild`]) and sends back an [`Answer`], which [`Waiting::deliver`]
//! puts in the original reply channel. This module only translates: who
//! sends where is `cluster`'s.

use std::sync::Arc;
use std::time::Duration;

use plyyard_game::Reason;
use plyyard_game::shakmaty::ByColor;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, oneshot};

use crate::cmd::{Cmd, Subscription};
use crate::fair::Requester;
use crate::feed::{CatchUp, Event};
use crate::seat::{Seat, Seats};
use plyyard_store::PlayerId;
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::GameState;

/// A command for game `game`, sent to its owner.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Forward {
    /// The game.
    pub game: String,
    /// The command.
    pub cmd: RemoteCmd,
}

/// The commands that may cross nodes (the internal ones never do).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum RemoteCmd {
    State {
        viewer: Option<String>,
    },
    Subscribe {
        since: Option<u64>,
    },
    Move {
        player: String,
        uci: String,
        draw_offer: bool,
        lag_ms: u64,
        client: Vec<Requester>,
    },
    AcceptDraw {
        player: String,
    },
    Abort {
        player: String,
    },
    ClaimAway {
        player: String,
        win: bool,
    },
    Rematch {
        player: String,
    },
    Undo {
        player: String,
    },
    Resign {
        player: String,
    },
    Claim {
        player: String,
        reason: Reason,
        uci: Option<String>,
    },
    Pgn,
    Reseat {
        from: String,
        to: String,
    },
    Presence {
        player: String,
        here: bool,
    },
}

/// An error as it crosses nodes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct RemoteError {
    code: ErrorCode,
    message: String,
    retry_after: Option<u64>,
}

impl From<ApiError> for RemoteError {
    fn from(e: ApiError) -> RemoteError {
        RemoteError {
            code: e.code,
            message: e.message,
            retry_after: e.retry_after,
        }
    }
}

impl From<RemoteError> for ApiError {
    fn from(e: RemoteError) -> ApiError {
        let mut err = ApiError::new(e.code, e.message);
        err.retry_after = e.retry_after;
        err
    }
}

/// What a socket missed, as it crosses nodes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum RemoteCatchUp {
    UpToDate,
    Events { events: Vec<(u64, String)> },
    Full { game: Box<GameState> },
}

/// The seats of a game as they cross nodes: each side's player (`None`:
/// the computer) and the computer's level.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RemoteSeats {
    white: Option<String>,
    black: Option<String>,
    level: Option<plyyard_engine::Level>,
}

impl From<&Seats> for RemoteSeats {
    fn from(s: &Seats) -> RemoteSeats {
        let player = |seat: &Seat| match seat {
            Seat::Person(p) => Some(p.0.clone()),
            Seat::Computer(_) => None,
        };
        let level = [&s.white, &s.black]
            .into_iter()
            .find_map(|seat| match seat {
                Seat::Computer(l) => *l,
                Seat::Person(_) => None,
            });
        RemoteSeats {
            white: player(&s.white),
            black: player(&s.black),
            level,
        }
    }
}

impl From<RemoteSeats> for Seats {
    fn from(s: RemoteSeats) -> Seats {
        Seats(ByColor {
            white: Seat::of(s.white.as_deref(), s.level),
            black: Seat::of(s.black.as_deref(), s.level),
        })
    }
}

/// The owner's answer to a [`Forward`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Answer {
    /// This node does not own the game (any more): ask again where it is.
    NotOwner,
    /// The command could not reach the game (no such game, say).
    Failed {
        error: RemoteError,
    },
    State {
        game: Box<GameState>,
    },
    Subscribed {
        catch_up: RemoteCatchUp,
        seats: RemoteSeats,
    },
    Version {
        result: Result<u64, RemoteError>,
    },
    Pgn {
        pgn: String,
    },
    Done,
}

/// The reply channel of a forwarded command, kept by the node that sent it.
#[derive(Debug)]
pub(crate) enum Waiting {
    State(oneshot::Sender<GameState>),
    Subscribe(oneshot::Sender<Subscription>),
    Version(oneshot::Sender<Result<u64, ApiError>>),
    Pgn(oneshot::Sender<String>),
    Done(oneshot::Sender<()>),
    Nothing,
}

fn pid(p: PlayerId) -> String {
    p.0
}

/// Splits `cmd` into what travels and the reply channel that stays;
/// `Err(cmd)` for an internal command, which never crosses nodes.
pub(crate) fn split(cmd: Cmd) -> Result<(RemoteCmd, Waiting), Box<Cmd>> {
    use RemoteCmd as R;
    Ok(match cmd {
        Cmd::State { viewer, reply } => (
            R::State {
                viewer: viewer.map(pid),
            },
            Waiting::State(reply),
        ),
        Cmd::Subscribe { since, reply } => (R::Subscribe { since }, Waiting::Subscribe(reply)),
        Cmd::Move {
            player,
            uci,
            draw_offer,
            lag,
            client,
            reply,
        } => (
            R::Move {
                player: pid(player),
                uci,
                draw_offer,
                lag_ms: u64::try_from(lag.as_millis()).unwrap_or(u64::MAX),
                client,
            },
            Waiting::Version(reply),
        ),
        Cmd::AcceptDraw { player, reply } => (
            R::AcceptDraw {
                player: pid(player),
            },
            Waiting::Version(reply),
        ),
        Cmd::Abort { player, reply } => (
            R::Abort {
                player: pid(player),
            },
            Waiting::Version(reply),
        ),
        Cmd::ClaimAway { player, win, reply } => (
            R::ClaimAway {
                player: pid(player),
                win,
            },
            Waiting::Version(reply),
        ),
        Cmd::Rematch { player, reply } => (
            R::Rematch {
                player: pid(player),
            },
            Waiting::Version(reply),
        ),
        Cmd::Undo { player, reply } => (
            R::Undo {
                player: pid(player),
            },
            Waiting::Version(reply),
        ),
        Cmd::Resign { player, reply } => (
            R::Resign {
                player: pid(player),
            },
            Waiting::Version(reply),
        ),
        Cmd::Claim {
            player,
            reason,
            uci,
            reply,
        } => (
            R::Claim {
                player: pid(player),
                reason,
                uci,
            },
            Waiting::Version(reply),
        ),
        Cmd::Pgn { reply } => (R::Pgn, Waiting::Pgn(reply)),
        Cmd::Reseat { from, to, reply } => (
            R::Reseat {
                from: pid(from),
                to: pid(to),
            },
            Waiting::Done(reply),
        ),
        Cmd::Presence { player, here } => (
            R::Presence {
                player: pid(player),
                here,
            },
            Waiting::Nothing,
        ),
        internal => return Err(Box::new(internal)),
    })
}

/// What the owner waits on for a rebuilt command's reply.
#[derive(Debug)]
pub(crate) enum Pending {
    State(oneshot::Receiver<GameState>),
    Subscribe(oneshot::Receiver<Subscription>),
    Version(oneshot::Receiver<Result<u64, ApiError>>),
    Pgn(oneshot::Receiver<String>),
    Done(oneshot::Receiver<()>),
    Nothing,
}

/// The owner's side: the command to send to the game's actor, and what
/// to wait on for the answer.
pub(crate) fn rebuild(cmd: RemoteCmd) -> (Cmd, Pending) {
    use RemoteCmd as R;
    fn version() -> (oneshot::Sender<Result<u64, ApiError>>, Pending) {
        let (tx, rx) = oneshot::channel();
        (tx, Pending::Version(rx))
    }
    match cmd {
        R::State { viewer } => {
            let (reply, rx) = oneshot::channel();
            let viewer = viewer.map(PlayerId);
            (Cmd::State { viewer, reply }, Pending::State(rx))
        }
        R::Subscribe { since } => {
            let (reply, rx) = oneshot::channel();
            (Cmd::Subscribe { since, reply }, Pending::Subscribe(rx))
        }
        R::Move {
            player,
            uci,
            draw_offer,
            lag_ms,
            client,
        } => {
            let (reply, p) = version();
            let cmd = Cmd::Move {
                player: PlayerId(player),
                uci,
                draw_offer,
                lag: Duration::from_millis(lag_ms),
                client,
                reply,
            };
            (cmd, p)
        }
        R::AcceptDraw { player } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::AcceptDraw { player, reply }, p)
        }
        R::Abort { player } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::Abort { player, reply }, p)
        }
        R::ClaimAway { player, win } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::ClaimAway { player, win, reply }, p)
        }
        R::Rematch { player } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::Rematch { player, reply }, p)
        }
        R::Undo { player } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::Undo { player, reply }, p)
        }
        R::Resign { player } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            (Cmd::Resign { player, reply }, p)
        }
        R::Claim {
            player,
            reason,
            uci,
        } => {
            let (reply, p) = version();
            let player = PlayerId(player);
            let cmd = Cmd::Claim {
                player,
                reason,
                uci,
                reply,
            };
            (cmd, p)
        }
        R::Pgn => {
            let (reply, rx) = oneshot::channel();
            (Cmd::Pgn { reply }, Pending::Pgn(rx))
        }
        R::Reseat { from, to } => {
            let (reply, rx) = oneshot::channel();
            let (from, to) = (PlayerId(from), PlayerId(to));
            (Cmd::Reseat { from, to, reply }, Pending::Done(rx))
        }
        R::Presence { player, here } => {
            let player = PlayerId(player);
            (Cmd::Presence { player, here }, Pending::Nothing)
        }
    }
}

impl Pending {
    /// Waits for the actor's reply and writes it as an answer; `NotOwner`
    /// when the actor stopped before replying (the command was not
    /// applied).
    pub(crate) async fn answer(self) -> Answer {
        let answered = match self {
            Pending::State(rx) => rx.await.map(|g| Answer::State { game: Box::new(g) }),
            Pending::Subscribe(rx) => rx.await.map(|sub| subscribed(&sub)),
            Pending::Version(rx) => rx.await.map(|r| Answer::Version {
                result: r.map_err(RemoteError::from),
            }),
            Pending::Pgn(rx) => rx.await.map(|pgn| Answer::Pgn { pgn }),
            Pending::Done(rx) => rx.await.map(|()| Answer::Done),
            Pending::Nothing => Ok(Answer::Done),
        };
        answered.unwrap_or(Answer::NotOwner)
    }
}

/// A subscription as it crosses nodes: what the client missed (the events
/// stay on the owner: the asking node hears them from the bus).
fn subscribed(sub: &Subscription) -> Answer {
    let catch_up = match &sub.catch_up {
        CatchUp::UpToDate => RemoteCatchUp::UpToDate,
        CatchUp::Events(events) => RemoteCatchUp::Events {
            events: events.iter().map(|e| (e.v, e.text.to_string())).collect(),
        },
        CatchUp::Full(game) => RemoteCatchUp::Full {
            game: Box::new(GameState::clone(game)),
        },
    };
    Answer::Subscribed {
        catch_up,
        seats: RemoteSeats::from(&sub.seats),
    }
}

impl RemoteCatchUp {
    /// The catch-up as a local socket takes it.
    pub(crate) fn into_local(self) -> CatchUp {
        match self {
            RemoteCatchUp::UpToDate => CatchUp::UpToDate,
            RemoteCatchUp::Events { events } => CatchUp::Events(
                events
                    .into_iter()
                    .map(|(v, text)| {
                        Arc::new(Event {
                            v,
                            text: Arc::from(text),
                        })
                    })
                    .collect(),
            ),
            RemoteCatchUp::Full { game } => CatchUp::Full(Arc::new(*game)),
        }
    }
}

impl Waiting {
    /// Puts the owner's `answer` into the reply channel. A mismatched
    /// answer (which a correct owner never sends) drops the channel: the
    /// asker sees the game's actor gone and asks again.
    /// A subscription's events come from `joined`, the relay of the game
    /// joined before the command was sent (so nothing falls between the
    /// owner's answer and the first event heard).
    pub(crate) fn deliver(self, answer: Answer, joined: Option<broadcast::Receiver<Arc<Event>>>) {
        match (self, answer) {
            (Waiting::State(tx), Answer::State { game }) => {
                let _ = tx.send(*game);
            }
            (Waiting::Version(tx), Answer::Version { result }) => {
                let _ = tx.send(result.map_err(ApiError::from));
            }
            (Waiting::Version(tx), Answer::Failed { error }) => {
                let _ = tx.send(Err(error.into()));
            }
            (Waiting::Pgn(tx), Answer::Pgn { pgn }) => {
                let _ = tx.send(pgn);
            }
            (Waiting::Done(tx), Answer::Done) => {
                let _ = tx.send(());
            }
            (Waiting::Subscribe(tx), Answer::Subscribed { catch_up, seats }) => {
                let Some(events) = joined else {
                    tracing::warn!("a subscription was answered without its relay");
                    return;
                };
                let _ = tx.send(Subscription {
                    catch_up: catch_up.into_local(),
                    events,
                    seats: seats.into(),
                });
            }
            (Waiting::Nothing, _) => {}
            (w, a) => tracing::warn!("a forwarded command got a mismatched answer: {w:?} / {a:?}"),
        }
    }
}
