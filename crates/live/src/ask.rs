//! Everything a game is asked and answers, as written: [`Ask`] (a
//! caller's question or a player's action), [`Action`] (what a player
//! does, before it is theirs), [`Reply`] (the game's answer), and, for a
//! game another node owns, the envelope that crosses the bus
//! ([`Forward`]) and the owner's [`Answer`].
//!
//! Every type here is serialisable as it is used: a command for a game
//! another node owns is sent as written and answered as written, with no
//! translation on either side. Only a subscription's event channel stays
//! home (the asking node hears the events from the bus). The JSON is a
//! contract between the nodes of two neighbouring versions during a
//! rolling upgrade (`docs/deploy.md`): the tests below pin it.
//!
//! The other messages that cross nodes are `cluster` (events on the game
//! lanes, owners changed, games starting and ending) and, outside live
//! games, `plyyard_social` and `plyyard_pairing`'s topics; `docs/architecture.md`
//! lists them all.

use std::sync::Arc;
use std::time::Duration;

use plyyard_game::Reason;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::feed::{CatchUp, Event};
use crate::seat::Seats;
use plyyard_engine_time::fair::Requester;
use plyyard_store::PlayerId;
use plyyard_wire::error::ApiError;
use plyyard_wire::protocol::GameState;

/// What a caller asks of a game.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Ask {
    /// The state as `viewer` sees it.
    State {
        /// The viewer.
        viewer: Option<PlayerId>,
    },
    /// The events from version `since` on.
    Subscribe {
        /// The client's version, if it has one.
        since: Option<u64>,
    },
    /// `player` plays `uci`.
    Move {
        /// Who asks.
        player: PlayerId,
        /// The move.
        uci: String,
        /// A draw offered with the move (table games).
        draw_offer: bool,
        /// The mover's tab had lost the focus since their previous move
        /// (table games; the web app says so). Left out when false, so that
        /// nodes of either version read each other's asks.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        blur: bool,
        /// The client's measured lag, ms (table games).
        lag_ms: u64,
        /// The keys of the client that sent it (its address and account):
        /// the computer's reply is searched in that client's share of the
        /// engine pool.
        client: Vec<Requester>,
    },
    /// `player` accepts the opponent's draw offer (table games).
    AcceptDraw {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` offers a draw, or accepts the opponent's offer (table
    /// games).
    OfferDraw {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` declines the opponent's draw offer (table games).
    DeclineDraw {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` calls the game off before both sides moved (table games).
    Abort {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` claims the win (or a draw) against an away opponent.
    ClaimAway {
        /// Who asks.
        player: PlayerId,
        /// The win, or a draw.
        win: bool,
    },
    /// `player` offers or accepts a rematch (table games).
    Rematch {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` takes back their last move and the computer's reply.
    Undo {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` asks for or accepts a takeback (`yes`), or declines or
    /// withdraws one (casual table games).
    Takeback {
        /// Who asks.
        player: PlayerId,
        /// Ask or accept, or decline.
        yes: bool,
    },
    /// `player` resigns.
    Resign {
        /// Who asks.
        player: PlayerId,
    },
    /// `player` goes berserk (Arena games) before their first move: their
    /// time becomes `time_ms` and they get no increment.
    Berserk {
        /// Who asks.
        player: PlayerId,
        /// Their time from now on, ms.
        time_ms: u64,
    },
    /// `player` claims a draw, optionally announcing a move.
    Claim {
        /// Who asks.
        player: PlayerId,
        /// What is claimed.
        reason: Reason,
        /// The move announced with the claim.
        uci: Option<String>,
    },
    /// The game as PGN.
    Pgn,
    /// The seats of player `from` now belong to player `to` (an anonymous
    /// player logged in: their games moved to the account).
    Reseat {
        /// The former player id.
        from: PlayerId,
        /// The new player id.
        to: PlayerId,
    },
    /// A socket of `player` opened (`here`) or closed: a notice, answered
    /// by nobody.
    Presence {
        /// Whose socket.
        player: PlayerId,
        /// Opened or closed.
        here: bool,
    },
}

impl Ask {
    /// Whether nobody waits for the answer.
    pub fn is_notice(&self) -> bool {
        matches!(self, Ask::Presence { .. })
    }
}

/// What a player does to a game (see [`Action::by`]).
#[derive(Debug, Clone)]
pub enum Action {
    /// Plays `uci`, with a draw offer (table games), from a client with
    /// `lag` and the keys `client` (the computer's reply is searched in
    /// that client's share of the engine pool).
    Move {
        /// The move.
        uci: String,
        /// A draw offered with it.
        draw_offer: bool,
        /// The mover's tab had lost the focus since their previous move.
        blur: bool,
        /// The client's measured lag.
        lag: Duration,
        /// The client's keys.
        client: Vec<Requester>,
    },
    /// Accepts the opponent's draw offer.
    AcceptDraw,
    /// Offers a draw: after one's own move, at once; on one's turn, with
    /// the next move; with the opponent's offer pending, accepts it.
    OfferDraw,
    /// Declines the opponent's pending draw offer.
    DeclineDraw,
    /// Calls the game off before both sides moved.
    Abort,
    /// Claims the win (or a draw) against an away opponent.
    ClaimAway {
        /// The win, or a draw.
        win: bool,
    },
    /// Offers or accepts a rematch.
    Rematch,
    /// Takes back the last move and the computer's reply.
    Undo,
    /// Asks for or accepts a takeback (`yes`), or declines or withdraws
    /// one.
    Takeback {
        /// Ask or accept, or decline.
        yes: bool,
    },
    /// Resigns.
    Resign,
    /// Goes berserk before one's first move (Arena games): one's time
    /// becomes `time`, with no increment.
    Berserk {
        /// The time left from now on.
        time: Duration,
    },
    /// Claims a draw, optionally announcing a move.
    Claim {
        /// What is claimed.
        reason: Reason,
        /// The move announced with the claim.
        uci: Option<String>,
    },
}

impl Action {
    /// The action as `player`'s ask.
    pub fn by(self, player: PlayerId) -> Ask {
        match self {
            Action::Move {
                uci,
                draw_offer,
                blur,
                lag,
                client,
            } => Ask::Move {
                player,
                uci,
                draw_offer,
                blur,
                lag_ms: u64::try_from(lag.as_millis()).unwrap_or(u64::MAX),
                client,
            },
            Action::AcceptDraw => Ask::AcceptDraw { player },
            Action::OfferDraw => Ask::OfferDraw { player },
            Action::DeclineDraw => Ask::DeclineDraw { player },
            Action::Abort => Ask::Abort { player },
            Action::ClaimAway { win } => Ask::ClaimAway { player, win },
            Action::Rematch => Ask::Rematch { player },
            Action::Undo => Ask::Undo { player },
            Action::Takeback { yes } => Ask::Takeback { player, yes },
            Action::Resign => Ask::Resign { player },
            Action::Berserk { time } => Ask::Berserk {
                player,
                time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
            },
            Action::Claim { reason, uci } => Ask::Claim {
                player,
                reason,
                uci,
            },
        }
    }
}

/// A game's answer to an [`Ask`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Reply {
    /// The state asked for.
    State {
        /// The game as the viewer sees it.
        game: Box<GameState>,
    },
    /// A subscription: what the client missed, and the events from now on.
    Subscribed {
        /// What the client missed.
        #[serde(with = "catch_up_json")]
        catch_up: CatchUp,
        /// Who plays the game.
        #[serde(with = "seats_json")]
        seats: Seats,
        /// The events from now on; it never crosses nodes (the asking node
        /// joins the game's relay before it asks).
        #[serde(skip)]
        events: Option<broadcast::Receiver<Arc<Event>>>,
    },
    /// An action's outcome: the new version, or why not.
    Version {
        /// The version, or the refusal.
        #[serde(with = "result_json")]
        result: Result<u64, ApiError>,
    },
    /// The game as PGN.
    Pgn {
        /// The PGN text.
        pgn: String,
    },
    /// Done (a reseat), or a notice taken.
    Done,
}

/// A command for game `game`, sent to its owner.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Forward {
    /// The game.
    pub game: String,
    /// What is asked.
    pub cmd: Ask,
}

/// The owner's answer to a [`Forward`]: the game's reply, or why the
/// command did not reach the game.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Answer {
    /// The command did not reach the game.
    Unserved(Unserved),
    /// The game's reply.
    Reply(Reply),
}

/// Why a forwarded command did not reach the game.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum Unserved {
    /// This node does not own the game (any more): ask again where it is.
    NotOwner,
    /// No such game, or it could not be loaded.
    Failed {
        /// Why.
        #[serde(with = "error_json")]
        error: ApiError,
    },
}

/// An [`ApiError`] as it crosses nodes: its code, message and wait.
mod error_json {
    use plyyard_wire::error::{ApiError, ErrorCode};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    pub(super) struct Wire {
        code: ErrorCode,
        message: String,
        retry_after: Option<u64>,
    }

    impl From<&ApiError> for Wire {
        fn from(e: &ApiError) -> Wire {
            Wire {
                code: e.code,
                message: e.message.clone(),
                retry_after: e.retry_after,
            }
        }
    }

    impl From<Wire> for ApiError {
        fn from(w: Wire) -> ApiError {
            let mut e = ApiError::new(w.code, w.message);
            e.retry_after = w.retry_after;
            e
        }
    }

    pub(super) fn serialize<S: Serializer>(e: &ApiError, s: S) -> Result<S::Ok, S::Error> {
        Wire::from(e).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ApiError, D::Error> {
        Wire::deserialize(d).map(ApiError::from)
    }
}

/// An action's outcome as it crosses nodes.
mod result_json {
    use plyyard_wire::error::ApiError;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::error_json::Wire;

    pub(super) fn serialize<S: Serializer>(
        r: &Result<u64, ApiError>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        r.as_ref().map(|v| *v).map_err(Wire::from).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Result<u64, ApiError>, D::Error> {
        Result::<u64, Wire>::deserialize(d).map(|r| r.map_err(ApiError::from))
    }
}

/// What a socket missed, as it crosses nodes: the events as their
/// version and text.
mod catch_up_json {
    use std::sync::Arc;

    use plyyard_wire::protocol::GameState;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::feed::{CatchUp, Event};

    #[derive(Serialize, Deserialize)]
    #[serde(tag = "t", rename_all = "snake_case")]
    enum Wire {
        UpToDate,
        Events { events: Vec<(u64, String)> },
        Full { game: Box<GameState> },
    }

    pub(super) fn serialize<S: Serializer>(c: &CatchUp, s: S) -> Result<S::Ok, S::Error> {
        match c {
            CatchUp::UpToDate => Wire::UpToDate,
            CatchUp::Events(events) => Wire::Events {
                events: events.iter().map(|e| (e.v, e.text.to_string())).collect(),
            },
            CatchUp::Full(game) => Wire::Full {
                game: Box::new(GameState::clone(game)),
            },
        }
        .serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CatchUp, D::Error> {
        Ok(match Wire::deserialize(d)? {
            Wire::UpToDate => CatchUp::UpToDate,
            Wire::Events { events } => CatchUp::Events(
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
            Wire::Full { game } => CatchUp::Full(Arc::new(*game)),
        })
    }
}

/// The seats of a game as they cross nodes: each side's player (`None`:
/// the computer) and the computer's level.
mod seats_json {
    use plyyard_game::shakmaty::ByColor;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::seat::{Seat, Seats};

    #[derive(Serialize, Deserialize)]
    struct Wire {
        white: Option<String>,
        black: Option<String>,
        level: Option<plyyard_engine::Level>,
    }

    pub(super) fn serialize<S: Serializer>(seats: &Seats, s: S) -> Result<S::Ok, S::Error> {
        let player = |seat: &Seat| match seat {
            Seat::Person(p) => Some(p.0.clone()),
            Seat::Computer(_) => None,
        };
        let level = [&seats.white, &seats.black]
            .into_iter()
            .find_map(|seat| match seat {
                Seat::Computer(l) => *l,
                Seat::Person(_) => None,
            });
        Wire {
            white: player(&seats.white),
            black: player(&seats.black),
            level,
        }
        .serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Seats, D::Error> {
        let w = Wire::deserialize(d)?;
        Ok(Seats(ByColor {
            white: Seat::of(w.white.as_deref(), w.level),
            black: Seat::of(w.black.as_deref(), w.level),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyyard_wire::error::ErrorCode;
    use serde_json::json;

    fn p(id: &str) -> PlayerId {
        PlayerId(id.to_owned())
    }

    /// The JSON of every ask, as the nodes of the last version wrote it.
    #[test]
    fn asks_are_written_as_before() {
        let cases = [
            (
                Ask::State {
                    viewer: Some(p("a")),
                },
                json!({"t": "state", "viewer": "a"}),
            ),
            (
                Ask::Subscribe { since: None },
                json!({"t": "subscribe", "since": null}),
            ),
            (
                Action::Move {
                    uci: "e2e4".into(),
                    draw_offer: true,
                    blur: false,
                    lag: Duration::from_millis(35),
                    client: vec![],
                }
                .by(p("a")),
                json!({"t": "move", "player": "a", "uci": "e2e4", "draw_offer": true, "lag_ms": 35, "client": []}),
            ),
            (
                Action::AcceptDraw.by(p("a")),
                json!({"t": "accept_draw", "player": "a"}),
            ),
            (
                Action::OfferDraw.by(p("a")),
                json!({"t": "offer_draw", "player": "a"}),
            ),
            (
                Action::DeclineDraw.by(p("a")),
                json!({"t": "decline_draw", "player": "a"}),
            ),
            (
                Action::Abort.by(p("a")),
                json!({"t": "abort", "player": "a"}),
            ),
            (
                Action::ClaimAway { win: false }.by(p("a")),
                json!({"t": "claim_away", "player": "a", "win": false}),
            ),
            (
                Action::Rematch.by(p("a")),
                json!({"t": "rematch", "player": "a"}),
            ),
            (Action::Undo.by(p("a")), json!({"t": "undo", "player": "a"})),
            (
                Action::Resign.by(p("a")),
                json!({"t": "resign", "player": "a"}),
            ),
            (Ask::Pgn, json!({"t": "pgn"})),
            (
                Ask::Reseat {
                    from: p("a"),
                    to: p("b"),
                },
                json!({"t": "reseat", "from": "a", "to": "b"}),
            ),
            (
                Ask::Presence {
                    player: p("a"),
                    here: true,
                },
                json!({"t": "presence", "player": "a", "here": true}),
            ),
        ];
        for (ask, want) in cases {
            assert_eq!(serde_json::to_value(&ask).unwrap(), want);
            let back: Ask = serde_json::from_value(want.clone()).unwrap();
            assert_eq!(serde_json::to_value(&back).unwrap(), want);
        }
        let fwd = Forward {
            game: "abcd1234".into(),
            cmd: Ask::Pgn,
        };
        assert_eq!(
            serde_json::to_value(&fwd).unwrap(),
            json!({"game": "abcd1234", "cmd": {"t": "pgn"}})
        );
    }

    /// The JSON of the answers, as the nodes of the last version wrote it.
    #[test]
    fn answers_are_written_as_before() {
        let refused = ApiError::new(ErrorCode::NotYourTurn, "not your turn");
        let cases = [
            (
                Answer::Unserved(Unserved::NotOwner),
                json!({"t": "not_owner"}),
            ),
            (
                Answer::Unserved(Unserved::Failed {
                    error: refused.clone(),
                }),
                json!({"t": "failed", "error": {"code": "not_your_turn", "message": "not your turn", "retry_after": null}}),
            ),
            (
                Answer::Reply(Reply::Version { result: Ok(7) }),
                json!({"t": "version", "result": {"Ok": 7}}),
            ),
            (
                Answer::Reply(Reply::Version {
                    result: Err(refused),
                }),
                json!({"t": "version", "result": {"Err": {"code": "not_your_turn", "message": "not your turn", "retry_after": null}}}),
            ),
            (
                Answer::Reply(Reply::Pgn {
                    pgn: "1. e4 *".into(),
                }),
                json!({"t": "pgn", "pgn": "1. e4 *"}),
            ),
            (Answer::Reply(Reply::Done), json!({"t": "done"})),
            (
                Answer::Reply(Reply::Subscribed {
                    catch_up: CatchUp::Events(vec![Arc::new(Event {
                        v: 3,
                        text: Arc::from("{}"),
                    })]),
                    seats: Seats(plyyard_game::shakmaty::ByColor {
                        white: crate::seat::Seat::Person(p("a")),
                        black: crate::seat::Seat::Computer(Some(plyyard_engine::Level::Hard)),
                    }),
                    events: None,
                }),
                json!({"t": "subscribed", "catch_up": {"t": "events", "events": [[3, "{}"]]}, "seats": {"white": "a", "black": null, "level": "hard"}}),
            ),
        ];
        for (answer, want) in cases {
            assert_eq!(serde_json::to_value(&answer).unwrap(), want);
            let back: Answer = serde_json::from_value(want.clone()).unwrap();
            assert_eq!(serde_json::to_value(&back).unwrap(), want);
        }
    }

    #[test]
    fn only_presence_is_a_notice() {
        assert!(
            Ask::Presence {
                player: p("a"),
                here: false
            }
            .is_notice()
        );
        assert!(!Ask::Pgn.is_notice());
        assert!(!Action::Resign.by(p("a")).is_notice());
    }
}
