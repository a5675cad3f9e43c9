//! The wire format shared with the web app (`docs/protocol.md`): the game
//! state, socket messages in both directions, and request bodies.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Color};

use crate::error::{ApiError, ErrorCode};

/// A move as the client sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveJson {
    /// UCI (`e2e4`, `e7e8q`; Chess960 castling as king-takes-rook).
    pub uci: String,
    /// English SAN.
    pub san: String,
}

/// The whole state of a game as the client sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// Game id.
    pub id: String,
    /// Version: the number of the last event.
    pub v: u64,
    /// `computer`.
    pub kind: String,
    /// Computer level.
    pub level: Option<String>,
    /// Who plays White.
    pub white: SeatJson,
    /// Who plays Black.
    pub black: SeatJson,
    /// The viewer's colour, `None` for a spectator.
    pub you: Option<String>,
    /// Rule set: `plyyard` or `fide`.
    pub rules: String,
    /// `standard` or `chess960`.
    pub variant: String,
    /// Chess960 position number.
    pub position: Option<u32>,
    /// FEN of the start.
    pub initial_fen: String,
    /// FEN now.
    pub fen: String,
    /// Side to move.
    pub turn: String,
    /// Plies played.
    pub ply: u32,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The moves played. Left out of events, which carry only their own
    /// move: the client keeps the list (see `docs/protocol.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveJson>>,
    /// From and to squares of the last move.
    pub last_move: Option<[String; 2]>,
    /// Legal moves of the side to move: from-square → to-squares.
    pub dests: BTreeMap<String, Vec<String>>,
    /// `ongoing` or `ended`.
    pub status: String,
    /// PGN result.
    pub result: String,
    /// Why the game ended.
    pub reason: Option<String>,
    /// Whether the computer is thinking.
    pub thinking: bool,
    /// Draws the side to move may claim now (FIDE rules only):
    /// `threefold_repetition`, `fifty_moves`.
    pub claimable: Vec<String>,
    /// Creation time, RFC 3339.
    pub created_at: String,
    /// What only table games have (flattened into the state).
    #[serde(flatten, skip_serializing_if = "Option::is_none", default)]
    pub table: Option<TableState>,
}

impl GameState {
    /// Sets what depends on who looks (`you` must be set first).
    pub fn for_viewer(&mut self) {
        if let Some(t) = self.table.as_mut() {
            t.can_claim_away = self.you.is_some() && t.away_claimable_by == self.you;
        }
    }
}

/// The part of a game's state that only table games have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// The table's code (`None` against the computer, played with a clock
    /// but at no table).
    pub table: Option<String>,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// `blitz`, `rapid` or `classical`.
    pub speed: String,
    /// Both clocks, as they stand when the message is made.
    pub clock: ClockJson,
    /// The side whose draw offer (made with its last move) is pending.
    pub draw_offer: Option<String>,
    /// The side asking to take back its last move (casual games).
    pub takeback_offer: Option<String>,
    /// Which players have no connection to the game.
    pub away: AwayJson,
    /// Whether the viewer may claim the game, the opponent being away long
    /// enough (set per viewer).
    pub can_claim_away: bool,
    /// The side that may claim against an away opponent now, if any.
    pub away_claimable_by: Option<String>,
    /// Milliseconds left for the side to move to make its first move.
    pub first_move_deadline_ms: Option<u64>,
    /// Both players' ratings at the game's speed.
    pub ratings: Option<Sides<RatingJson>>,
    /// Rating points won or lost, once a rated game is over.
    pub rating_changes: Option<Sides<i64>>,
    /// A rematch offered or agreed.
    pub rematch: RematchJson,
}

/// The clocks of a table game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockJson {
    /// Time per player at the start.
    pub initial_ms: u64,
    /// Time added after each move.
    pub increment_ms: u64,
    /// White's remaining time.
    pub white_ms: u64,
    /// Black's remaining time.
    pub black_ms: u64,
    /// The side whose clock runs.
    pub running: Option<String>,
    /// White went berserk (Arena games): half the time, no increment.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub white_berserk: bool,
    /// Black went berserk.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub black_berserk: bool,
}

/// Which players are away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwayJson {
    /// White has no connection.
    pub white: bool,
    /// Black has no connection.
    pub black: bool,
}

/// A value for each side, as the wire writes it (`{"white":…,"black":…}`);
/// inside the server, per-side data is a [`ByColor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> From<ByColor<T>> for Sides<T> {
    fn from(b: ByColor<T>) -> Sides<T> {
        Sides {
            white: b.white,
            black: b.black,
        }
    }
}

/// Name of a colour on the wire: `white` or `black`.
pub fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

/// A rating as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingJson {
    /// Rounded rating.
    pub rating: i64,
    /// Fewer than 10 rated games at this speed.
    pub provisional: bool,
}

/// A rematch offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RematchJson {
    /// The side that asked.
    pub offered_by: Option<String>,
    /// The next game, once both agreed.
    pub next_game: Option<String>,
}

/// Who sits on a seat, as shown to people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatJson {
    /// Who.
    pub kind: SeatKind,
    /// The account's name (`user` only).
    pub name: Option<String>,
    /// The computer's level (`computer` only).
    pub level: Option<String>,
}

/// The kinds of seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    /// An account.
    User,
    /// A player without an account.
    Anonymous,
    /// The engine.
    Computer,
    /// An account that was deleted.
    Deleted,
    /// A player known only by the name an imported PGN gives.
    Pgn,
}

impl SeatJson {
    /// A player of an imported game, by the PGN's name.
    pub fn pgn(name: &str) -> SeatJson {
        SeatJson {
            kind: SeatKind::Pgn,
            name: Some(name.to_owned()),
            level: None,
        }
    }

    /// The computer at `level`.
    pub fn computer(level: Option<plyyard_engine::Level>) -> SeatJson {
        SeatJson {
            kind: SeatKind::Computer,
            name: None,
            level: level.map(|l| l.as_str().to_owned()),
        }
    }
}

/// A game in a player's list (`/api/users/{name}/games`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameListItem {
    /// Game id.
    pub id: String,
    /// `computer`.
    pub kind: &'static str,
    /// Computer level.
    pub level: Option<&'static str>,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// `plyyard` or `fide`.
    pub rules: &'static str,
    /// `ongoing` or `ended`.
    pub status: &'static str,
    /// PGN result.
    pub result: &'static str,
    /// Why the game ended.
    pub reason: Option<&'static str>,
    /// Plies played.
    pub plies: u32,
    /// Creation time, RFC 3339.
    pub created_at: String,
    /// Time of the last change, RFC 3339.
    pub updated_at: String,
    /// Who played White.
    pub white: SeatJson,
    /// Who played Black.
    pub black: SeatJson,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// Lichess's perf key of the game (`bullet`, `blitz`, …, `chess960`;
    /// `correspondence` without a clock).
    pub perf: &'static str,
    /// The clock as written, base minutes `+` increment seconds (`"3+2"`).
    pub clock: Option<String>,
    /// What the game did to the listed player's rating (rated games).
    pub rating_diff: Option<i64>,
}

/// A line of `/api/my-games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummaryJson {
    /// Game id.
    pub id: String,
    /// Computer level.
    pub level: Option<String>,
    /// The player's colour.
    pub you: Option<String>,
    /// Who sat opposite: the computer at its level, or the other player
    /// (an account by its name) at a table.
    pub opponent: SeatJson,
    /// `standard` or `chess960`.
    pub variant: String,
    /// `ongoing` or `ended`.
    pub status: String,
    /// PGN result.
    pub result: String,
    /// Why the game ended.
    pub reason: Option<String>,
    /// Plies played.
    pub plies: u32,
    /// Creation time, RFC 3339.
    pub created_at: String,
    /// Time of the last change, RFC 3339.
    pub updated_at: String,
}

/// Body of `POST /api/computer-games`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewComputerGame {
    /// Level name.
    pub level: plyyard_engine::Level,
    /// Colour wanted by the player.
    #[serde(default)]
    pub color: ColorChoice,
    /// Variant.
    #[serde(default)]
    pub variant: plyyard_game::Variant,
    /// Chess960 position number (random when absent).
    #[serde(default)]
    pub position: Option<u32>,
    /// Rule set (Ply Yard rules by default).
    #[serde(default)]
    pub rules: plyyard_game::RuleSet,
    /// Start from this position (FEN; X-FEN or Shredder-FEN for Chess960)
    /// instead of the variant's start.
    #[serde(default)]
    pub fen: Option<String>,
    /// Play with a clock (none by default: the computer waits).
    #[serde(default)]
    pub clock: Option<ClockRequest>,
}

/// A clock asked for: the base time per player and the increment.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Base time per player, minutes: 0.5, 0.75, 1, 1.5 or whole minutes
    /// up to 180.
    pub minutes: f64,
    /// Increment per move, seconds (0–180).
    pub increment: u32,
}

impl ClockRequest {
    /// The time control asked for.
    ///
    /// # Errors
    /// `bad_request` for a base that is not 0.5, 0.75, 1, 1.5 or whole
    /// minutes up to 180, or an increment over 180 s.
    pub fn time_control(&self) -> Result<plyyard_game::TimeControl, ApiError> {
        let secs = self.minutes * 60.0;
        if !(secs.is_finite() && secs.fract() == 0.0 && (0.0..=1e6).contains(&secs)) {
            return Err(ApiError::bad_request(format!(
                "minutes {}: the base time is 0.5, 0.75, 1 or 1.5 minutes, or whole minutes \
                 up to 180",
                self.minutes
            )));
        }
        // Exact: a whole number from 0 to 10^6.
        plyyard_game::TimeControl::from_secs(secs as u32, self.increment)
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }
}

/// The colour a player asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Play White.
    White,
    /// Play Black.
    Black,
    /// Draw lots.
    #[default]
    Random,
}

/// What kind of change an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A move was played (by a player or the computer).
    Move,
    /// Moves were taken back.
    Undo,
    /// The game ended without a move (resignation).
    End,
    /// A player left or came back (table games).
    Away,
    /// A rematch was offered or agreed (table games).
    Rematch,
    /// A player went berserk (Arena games): their clock changed.
    Berserk,
    /// A draw was offered after a move, or declined (table games).
    Draw,
    /// A takeback was asked for or declined (casual table games).
    Takeback,
}

/// A message from the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientMsg {
    /// Play a move.
    Move {
        /// The move in UCI.
        uci: String,
        /// A draw is offered with the move (table games).
        draw_offer: bool,
        /// The player's tab had lost the focus since their previous move
        /// (`"blur": true`; fair play reads it).
        blur: bool,
        /// The client's own estimate of its network lag, ms (table games).
        lag_ms: Option<u64>,
    },
    /// Accept the opponent's draw offer (table games).
    AcceptDraw,
    /// Decline the opponent's draw offer (table games).
    DeclineDraw,
    /// Call the game off before both sides have moved (table games).
    Abort,
    /// The opponent is away long enough: claim the win, or a draw.
    ClaimAway {
        /// `true` for the win, `false` for a draw.
        win: bool,
    },
    /// Offer or accept a rematch after the game (table games).
    Rematch,
    /// Take back the player's last move and the computer's reply.
    Undo,
    /// Ask to take back one's last move, or accept the opponent's asking
    /// (`yes`); decline it, or withdraw one's own (`no`): casual table
    /// games.
    Takeback {
        /// Ask or accept (`true`), or decline (`false`).
        yes: bool,
    },
    /// Resign.
    Resign,
    /// Claim a draw (FIDE rules), optionally by announcing a move.
    Claim {
        /// `threefold_repetition` or `fifty_moves`.
        reason: plyyard_game::Reason,
        /// The move announced with the claim.
        uci: Option<String>,
    },
    /// Ask for the events after version `v`.
    Sync {
        /// The client's version.
        v: u64,
    },
    /// Keep-alive.
    Ping,
    /// Say something in a chat room of a table game.
    Chat {
        /// The room.
        room: ChatRoom,
        /// The text, as typed (the server trims and checks it).
        text: String,
    },
}

/// A chat room of a table game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    /// The game's two players.
    Player,
    /// Everyone else (anyone with an account may speak).
    Spectator,
}

impl ChatRoom {
    /// The room's name on the wire and in the database.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Player => "player",
            ChatRoom::Spectator => "spectator",
        }
    }
}

impl std::str::FromStr for ChatRoom {
    type Err = ApiError;

    fn from_str(s: &str) -> Result<ChatRoom, ApiError> {
        match s {
            "player" => Ok(ChatRoom::Player),
            "spectator" => Ok(ChatRoom::Spectator),
            _ => Err(ApiError::bad_request("room is player or spectator")),
        }
    }
}

/// One line of chat as clients get it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The room it was said in.
    pub room: ChatRoom,
    /// Who said it (a username).
    pub user: String,
    /// What they said (plain text: clients never read it as markup).
    pub text: String,
}

/// Longest move text accepted (UCI is at most 5 characters).
const MAX_UCI_LEN: usize = 8;

/// Decodes a client text frame. Returns the client's message id (if it could
/// be read) with the message or the error to send back.
///
/// # Examples
///
/// ```
/// use plyyard_wire::protocol::{ClientMsg, parse_client};
/// let (id, msg) = parse_client(r#"{"t":"move","id":5,"uci":"e2e4"}"#);
/// assert_eq!(id, Some(5));
/// assert_eq!(msg, Ok(ClientMsg::Move { uci: "e2e4".into(), draw_offer: false, blur: false, lag_ms: None }));
/// assert!(parse_client("{oops").1.is_err());
/// ```
pub fn parse_client(text: &str) -> (Option<u64>, Result<ClientMsg, ApiError>) {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return (
                None,
                Err(ApiError::bad_request(format!("malformed JSON: {e}"))),
            );
        }
    };
    let Some(obj) = value.as_object() else {
        return (
            None,
            Err(ApiError::bad_request("a message must be a JSON object")),
        );
    };
    let id = obj.get("id").and_then(serde_json::Value::as_u64);
    let Some(t) = obj.get("t").and_then(serde_json::Value::as_str) else {
        return (id, Err(ApiError::bad_request("missing message type \"t\"")));
    };
    let msg = match t {
        "move" => match obj.get("uci").and_then(serde_json::Value::as_str) {
            Some(uci) if uci.len() <= MAX_UCI_LEN => Ok(ClientMsg::Move {
                uci: uci.to_owned(),
                draw_offer: obj
                    .get("draw_offer")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false),
                blur: obj
                    .get("blur")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false),
                lag_ms: obj.get("lag_ms").and_then(serde_json::Value::as_u64),
            }),
            Some(_) => Err(ApiError::new(ErrorCode::IllegalMove, "not a UCI move")),
            None => Err(ApiError::bad_request("move needs a string \"uci\"")),
        },
        "undo" => Ok(ClientMsg::Undo),
        "takeback" => match obj.get("yes").and_then(serde_json::Value::as_bool) {
            Some(yes) => Ok(ClientMsg::Takeback { yes }),
            None => Err(ApiError::bad_request("takeback needs a boolean \"yes\"")),
        },
        "accept_draw" => Ok(ClientMsg::AcceptDraw),
        "decline_draw" => Ok(ClientMsg::DeclineDraw),
        "abort" => Ok(ClientMsg::Abort),
        "rematch" => Ok(ClientMsg::Rematch),
        "claim_away" => match obj.get("outcome").and_then(serde_json::Value::as_str) {
            Some("win") => Ok(ClientMsg::ClaimAway { win: true }),
            Some("draw") => Ok(ClientMsg::ClaimAway { win: false }),
            _ => Err(ApiError::bad_request(
                "claim_away needs an \"outcome\": win or draw",
            )),
        },
        "resign" => Ok(ClientMsg::Resign),
        "claim" => {
            let reason = obj
                .get("reason")
                .and_then(serde_json::Value::as_str)
                .and_then(|r| r.parse::<plyyard_game::Reason>().ok());
            let uci = obj.get("uci").and_then(serde_json::Value::as_str);
            match (reason, uci) {
                (None, _) => Err(ApiError::bad_request(
                    "claim needs a \"reason\": threefold_repetition or fifty_moves",
                )),
                (Some(_), Some(u)) if u.len() > MAX_UCI_LEN => {
                    Err(ApiError::new(ErrorCode::IllegalMove, "not a UCI move"))
                }
                (Some(reason), uci) => Ok(ClientMsg::Claim {
                    reason,
                    uci: uci.map(str::to_owned),
                }),
            }
        }
        "sync" => match obj.get("v").and_then(serde_json::Value::as_u64) {
            Some(v) => Ok(ClientMsg::Sync { v }),
            None => Err(ApiError::bad_request("sync needs a number \"v\"")),
        },
        "ping" => Ok(ClientMsg::Ping),
        "chat" => {
            let room = obj.get("room").and_then(serde_json::Value::as_str);
            let text = obj.get("text").and_then(serde_json::Value::as_str);
            match (room.map(str::parse::<ChatRoom>), text) {
                (Some(Ok(room)), Some(text)) => Ok(ClientMsg::Chat {
                    room,
                    text: text.to_owned(),
                }),
                (Some(Err(e)), _) => Err(e),
                _ => Err(ApiError::bad_request(
                    "chat needs a \"room\" (player or spectator) and a string \"text\"",
                )),
            }
        }
        other => {
            let shown: String = other.chars().take(32).collect();
            Err(ApiError::bad_request(format!(
                "unknown message type {shown:?}"
            )))
        }
    };
    (id, msg)
}

/// A message to the client.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole state.
    Full {
        /// Version of the state.
        v: u64,
        /// The state.
        game: GameState,
    },
    /// One change.
    Event {
        /// Version after the change.
        v: u64,
        /// What changed.
        kind: EventKind,
        /// The move, for `move` events.
        #[serde(rename = "move")]
        mv: Option<MoveJson>,
        /// The state after the change.
        game: GameState,
    },
    /// The client's message was applied and committed.
    Ack {
        /// The client's message id.
        id: Option<u64>,
        /// The version after it.
        v: u64,
    },
    /// The client's message was refused; nothing changed.
    Error {
        /// The client's message id.
        id: Option<u64>,
        /// Error code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
    /// Answer to `ping`.
    Pong,
    /// A line said in a chat room the client sees (its own lines too).
    Chat {
        /// The line.
        #[serde(flatten)]
        line: ChatLine,
    },
    /// The last lines of a chat room the client sees, oldest first: sent
    /// once, after the first state, for each such room.
    ChatHistory {
        /// The room.
        room: ChatRoom,
        /// Its last lines.
        lines: Vec<ChatLine>,
    },
}

impl ServerMsg {
    /// The error message for `err`.
    pub fn error(id: Option<u64>, err: ApiError) -> ServerMsg {
        ServerMsg::Error {
            id,
            code: err.code,
            message: err.message,
        }
    }

    /// The JSON text of the message.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            tracing::error!("cannot serialize a server message: {e}");
            r#"{"t":"error","id":null,"code":"internal","message":"internal server error"}"#
                .to_owned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse() {
        assert_eq!(
            parse_client(r#"{"t":"move","id":5,"uci":"e2e4"}"#),
            (
                Some(5),
                Ok(ClientMsg::Move {
                    uci: "e2e4".into(),
                    draw_offer: false,
                    blur: false,
                    lag_ms: None
                })
            )
        );
        assert_eq!(
            parse_client(r#"{"t":"move","uci":"e2e4","blur":true}"#).1,
            Ok(ClientMsg::Move {
                uci: "e2e4".into(),
                draw_offer: false,
                blur: true,
                lag_ms: None
            })
        );
        assert_eq!(parse_client(r#"{"t":"undo"}"#), (None, Ok(ClientMsg::Undo)));
        assert_eq!(
            parse_client(r#"{"t":"sync","v":12}"#),
            (None, Ok(ClientMsg::Sync { v: 12 }))
        );
        assert_eq!(parse_client(r#"{"t":"ping"}"#).1, Ok(ClientMsg::Ping));
        assert_eq!(
            parse_client(r#"{"t":"claim","reason":"fifty_moves","uci":"g1f3"}"#).1,
            Ok(ClientMsg::Claim {
                reason: plyyard_game::Reason::FiftyMoves,
                uci: Some("g1f3".into())
            })
        );
        assert_eq!(
            parse_client(r#"{"t":"claim","reason":"boredom"}"#)
                .1
                .unwrap_err()
                .code,
            ErrorCode::BadRequest
        );
    }

    #[test]
    fn bad_client_messages_are_errors_not_panics() {
        for (text, code) in [
            ("{", ErrorCode::BadRequest),
            ("[1,2]", ErrorCode::BadRequest),
            ("\"move\"", ErrorCode::BadRequest),
            (r#"{"id":3}"#, ErrorCode::BadRequest),
            (r#"{"t":"fly","id":3}"#, ErrorCode::BadRequest),
            (r#"{"t":"move","uci":7}"#, ErrorCode::BadRequest),
            (
                r#"{"t":"move","uci":"e2e4e2e4e2e4"}"#,
                ErrorCode::IllegalMove,
            ),
            (r#"{"t":"sync","v":-1}"#, ErrorCode::BadRequest),
        ] {
            let err = parse_client(text).1.unwrap_err();
            assert_eq!(err.code, code, "{text}");
        }
        assert_eq!(parse_client(r#"{"t":"fly","id":3}"#).0, Some(3));
        let long = format!(r#"{{"t":"{}"}}"#, "x".repeat(1000));
        assert!(parse_client(&long).1.unwrap_err().message.len() < 100);
    }

    #[test]
    fn server_messages_have_the_documented_shape() {
        let ack = ServerMsg::Ack { id: Some(5), v: 13 }.to_text();
        assert_eq!(ack, r#"{"t":"ack","id":5,"v":13}"#);
        let err =
            ServerMsg::error(Some(1), ApiError::new(ErrorCode::NotYourTurn, "wait")).to_text();
        assert_eq!(
            err,
            r#"{"t":"error","id":1,"code":"not_your_turn","message":"wait"}"#
        );
        assert_eq!(ServerMsg::Pong.to_text(), r#"{"t":"pong"}"#);
    }
}
