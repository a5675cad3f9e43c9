//! A game as lichess writes it, built once from our [`GameState`] for every
//! Lichess-API endpoint that shows one: the status ids and names, speeds
//! by lichess's boundaries, perfs, variants, UCI with castling written
//! king-takes-rook, the players (`aiLevel` for our computer), the Board/Bot
//! stream's `gameFull` and `gameState`, and the game as one player sees it
//! (`nowPlaying`, and the event stream's `gameStart`/`gameFinish`).
//!
//! The mappings are pure functions (tested below); [`players`] alone reads
//! the accounts behind the seats.

use plyyard_game::Reason;
use plyyard_game::shakmaty::{ByColor, Color};
use plyyard_wire::protocol::{GameState, MoveJson, SeatKind};
use serde::Serialize;
use sha2::{Digest, Sha256};

use plyyard_store::Store;

pub use super::users::perf_name;

/// `wtime`/`btime` of a game without a clock, as lichess sends them.
pub const NO_CLOCK_MS: u64 = 2_147_483_647;

/// A game's status as lichess numbers and names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Lichess's number (20 `started`, 30 `mate` …).
    pub id: u16,
    /// Lichess's name.
    pub name: &'static str,
}

/// The lichess status of a game that ended for `reason` (`None`: it goes
/// on) with `winner` (`None`: no winner).
pub fn status(reason: Option<Reason>, winner: Option<Color>) -> Status {
    let (id, name) = match reason {
        None => (20, "started"),
        Some(Reason::Aborted) => (25, "aborted"),
        Some(Reason::Checkmate) => (30, "mate"),
        Some(Reason::Resignation) => (31, "resign"),
        Some(Reason::Stalemate) => (32, "stalemate"),
        // A win claimed against a player who left; a draw claimed so is
        // a draw, as lichess's "force draw".
        Some(Reason::Abandonment) if winner.is_some() => (33, "timeout"),
        Some(Reason::Timeout | Reason::TimeoutVsInsufficientMaterial) => (35, "outoftime"),
        Some(
            Reason::Abandonment
            | Reason::Agreement
            | Reason::InsufficientMaterial
            | Reason::ThreefoldRepetition
            | Reason::FivefoldRepetition
            | Reason::FiftyMoves
            | Reason::SeventyFiveMoves,
        ) => (34, "draw"),
    };
    Status { id, name }
}

/// The winner of a game by its PGN result.
pub fn winner(result: &str) -> Option<Color> {
    match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        _ => None,
    }
}

/// The lichess status of a game's state.
pub fn status_of(g: &GameState) -> Status {
    let reason = g.reason.as_deref().and_then(|r| r.parse::<Reason>().ok());
    match (reason, g.status.as_str()) {
        // An ended game always has a reason; a corrupt one is shown ended.
        (None, "ended") => Status {
            id: 38,
            name: "unknownFinish",
        },
        (r, _) => status(r, winner(&g.result)),
    }
}

pub use plyyard_wire::lichess::speed;

/// The lichess speed of a game: by its clock, `correspondence` without one.
pub fn speed_of(g: &GameState) -> &'static str {
    g.table.as_ref().map_or("correspondence", |t| {
        speed(t.clock.initial_ms, t.clock.increment_ms)
    })
}

/// Where a game came from, as lichess names it: `friend` at a table,
/// `ai` against the computer (and for an imported game, as before).
pub fn source_of(g: &GameState) -> &'static str {
    if g.kind == "table" { "friend" } else { "ai" }
}

/// The lichess perf of a game: `chess960` for Chess960, else its speed.
pub fn perf_of(g: &GameState) -> &'static str {
    if g.variant == "chess960" {
        "chess960"
    } else {
        speed_of(g)
    }
}

/// A variant as lichess writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VariantJson {
    /// `standard`, `chess960` or `fromPosition`.
    pub key: &'static str,
    /// `Standard`, `Chess960` or `From Position`.
    pub name: &'static str,
    /// `Std`, `960` or `FEN`.
    pub short: &'static str,
}

/// The FEN of the standard start.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The lichess variant of a game: a standard game from another position
/// is `fromPosition`.
pub fn variant_of(g: &GameState) -> VariantJson {
    if g.variant == "chess960" {
        VariantJson {
            key: "chess960",
            name: "Chess960",
            short: "960",
        }
    } else if g.initial_fen != START_FEN {
        VariantJson {
            key: "fromPosition",
            name: "From Position",
            short: "FEN",
        }
    } else {
        VariantJson {
            key: "standard",
            name: "Standard",
            short: "Std",
        }
    }
}

/// `initialFen`: `startpos` for the standard start, else the FEN.
pub fn initial_fen(g: &GameState) -> String {
    if g.initial_fen == START_FEN {
        "startpos".to_owned()
    } else {
        g.initial_fen.clone()
    }
}

/// A move's UCI as lichess writes it in streams: castling as the king
/// taking its rook (`e1h1`, `e8a8`) in standard chess too; Chess960's is
/// so already.
pub fn lichess_uci(m: &MoveJson) -> String {
    let castles = m.san.starts_with("O-O");
    let b = m.uci.as_bytes();
    if !castles || b.len() != 4 || b[0] != b'e' {
        return m.uci.clone();
    }
    let rook_file = match b[2] {
        b'g' => 'h',
        b'c' => 'a',
        _ => return m.uci.clone(),
    };
    format!("{}{}{}", &m.uci[..2], rook_file, b[3] as char)
}

/// The moves as lichess's `moves`: space-separated UCI.
pub fn moves_text(moves: &[MoveJson]) -> String {
    let mut out = String::with_capacity(moves.len() * 5);
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&lichess_uci(m));
    }
    out
}

/// The number lichess gives the level of our computer (Beginner 1 …
/// Expert 5).
pub fn ai_level(level: &str) -> Option<u8> {
    match level {
        "beginner" => Some(1),
        "easy" => Some(2),
        "normal" => Some(3),
        "hard" => Some(4),
        "expert" => Some(5),
        _ => None,
    }
}

/// A game's `fullId`: the game id and four characters that stand for the
/// player (lichess's player id), derived from both.
pub fn full_id(game_id: &str, player_id: &str) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let digest = Sha256::digest(format!("{game_id}/{player_id}").as_bytes());
    let tail: String = digest[..4]
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    format!("{game_id}{tail}")
}

/// The game id of an id in a path: lichess accepts the 8-character game
/// id or the 12-character full id.
pub fn game_id(path_id: &str) -> &str {
    if path_id.len() == 12 && path_id.is_ascii() {
        &path_id[..8]
    } else {
        path_id
    }
}

/// A player of a game as lichess shows one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Player {
    /// A person (an account, or an anonymous or deleted player).
    Person {
        /// Lichess id: the name in lower case (`None`: no account).
        id: Option<String>,
        /// The name shown.
        name: String,
        /// `BOT` for bots.
        title: Option<&'static str>,
        /// Rating at the game's speed, when the game has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i64>,
        /// Whether the rating is provisional.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        provisional: bool,
    },
    /// Our computer.
    Computer {
        /// Its level, 1–5.
        #[serde(rename = "aiLevel")]
        ai_level: u8,
    },
}

impl Player {
    /// The lichess id of a person with an account.
    pub fn id(&self) -> Option<&str> {
        match self {
            Player::Person { id, .. } => id.as_deref(),
            Player::Computer { .. } => None,
        }
    }

    /// The rating shown, if any.
    pub fn rating(&self) -> Option<i64> {
        match self {
            Player::Person { rating, .. } => *rating,
            Player::Computer { .. } => None,
        }
    }

    /// The name shown (`A.I. level N` for the computer, as lichess).
    pub fn name(&self) -> String {
        match self {
            Player::Person { name, .. } => name.clone(),
            Player::Computer { ai_level } => format!("A.I. level {ai_level}"),
        }
    }
}

/// Both players of a game as lichess shows them: each account's name and
/// title (read from the store) with the ratings the game shows.
///
/// # Errors
/// A database failure.
pub async fn players(
    store: &Store,
    g: &GameState,
) -> Result<ByColor<Player>, plyyard_store::StoreError> {
    let mut out = Vec::with_capacity(2);
    for color in Color::ALL {
        let seat = color.fold_wb(&g.white, &g.black);
        let rating = g
            .table
            .as_ref()
            .and_then(|t| t.ratings)
            .map(|r| color.fold_wb(r.white, r.black));
        let player = match (seat.kind, &seat.name, &seat.level) {
            (SeatKind::Computer, _, level) => Player::Computer {
                ai_level: level.as_deref().and_then(ai_level).unwrap_or(1),
            },
            (SeatKind::User, Some(name), _) => {
                let account = store.account_named(name).await?;
                Player::Person {
                    id: Some(name.to_lowercase()),
                    name: name.clone(),
                    title: account.as_ref().and_then(super::users::title),
                    rating: rating.map(|r| r.rating),
                    provisional: rating.is_some_and(|r| r.provisional),
                }
            }
            (kind, name, _) => Player::Person {
                id: None,
                name: match (kind, name) {
                    (SeatKind::Deleted, _) => "Deleted player".to_owned(),
                    (_, Some(n)) => n.clone(),
                    _ => "Anonymous".to_owned(),
                },
                title: None,
                rating: None,
                provisional: false,
            },
        };
        out.push(player);
    }
    let black = out.pop().unwrap_or(Player::Computer { ai_level: 1 });
    let white = out.pop().unwrap_or(Player::Computer { ai_level: 1 });
    Ok(ByColor { white, black })
}

/// A `gameState` line of the Board/Bot game stream (also `gameFull`'s
/// `state`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameStateJson {
    /// `gameState`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The moves, space-separated UCI.
    pub moves: String,
    /// White's time left, ms.
    pub wtime: u64,
    /// Black's time left, ms.
    pub btime: u64,
    /// White's increment, ms.
    pub winc: u64,
    /// Black's increment, ms.
    pub binc: u64,
    /// The status name.
    pub status: &'static str,
    /// `white` or `black`, once there is a winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// White offers a draw.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wdraw: bool,
    /// Black offers a draw.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bdraw: bool,
    /// White asks for a takeback (casual games; lichess's, only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wtakeback: bool,
    /// Black asks for a takeback.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub btakeback: bool,
    /// White went berserk (Arena games; lichess's, only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wberserk: bool,
    /// Black went berserk.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bberserk: bool,
}

/// The `gameState` of `g` with its moves written as `moves`.
pub fn game_state(g: &GameState, moves: String) -> GameStateJson {
    let (wtime, btime, winc, binc, offer) = match &g.table {
        Some(t) => (
            t.clock.white_ms,
            t.clock.black_ms,
            if t.clock.white_berserk {
                0
            } else {
                t.clock.increment_ms
            },
            if t.clock.black_berserk {
                0
            } else {
                t.clock.increment_ms
            },
            t.draw_offer.as_deref(),
        ),
        None => (NO_CLOCK_MS, NO_CLOCK_MS, 0, 0, None),
    };
    let berserk = |side: fn(&plyyard_wire::protocol::ClockJson) -> bool| {
        g.table.as_ref().is_some_and(|t| side(&t.clock))
    };
    let takeback = g.table.as_ref().and_then(|t| t.takeback_offer.as_deref());
    let status = status_of(g);
    GameStateJson {
        kind: "gameState",
        moves,
        wtime,
        btime,
        winc,
        binc,
        status: status.name,
        winner: winner(&g.result).map(plyyard_wire::protocol::color_name),
        wdraw: offer == Some("white"),
        bdraw: offer == Some("black"),
        wtakeback: takeback == Some("white"),
        btakeback: takeback == Some("black"),
        wberserk: berserk(|c| c.white_berserk),
        bberserk: berserk(|c| c.black_berserk),
    }
}

/// A perf as `gameFull` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PerfJson {
    /// `Blitz`, `Chess960` …
    pub name: &'static str,
}

/// A clock as `gameFull` gives it, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockJson {
    /// Time per player at the start.
    pub initial: u64,
    /// Time added after each move.
    pub increment: u64,
}

/// The first line of the Board/Bot game stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFullJson {
    /// `gameFull`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Game id.
    pub id: String,
    /// The variant.
    pub variant: VariantJson,
    /// Lichess speed.
    pub speed: &'static str,
    /// Lichess perf.
    pub perf: PerfJson,
    /// Whether rated.
    pub rated: bool,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// `startpos` or a FEN.
    pub initial_fen: String,
    /// The clock (none for games without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockJson>,
    /// The state now.
    pub state: GameStateJson,
}

/// Unix milliseconds of an RFC 3339 time (0 if it cannot be read).
pub fn unix_ms(rfc3339: &str) -> i64 {
    time::OffsetDateTime::parse(rfc3339, &time::format_description::well_known::Rfc3339)
        .map(|t| i64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(0))
        .unwrap_or(0)
}

/// The `gameFull` of `g` (which carries its moves) with its `players`.
pub fn game_full(g: &GameState, players: ByColor<Player>) -> GameFullJson {
    let moves = moves_text(g.moves.as_deref().unwrap_or_default());
    GameFullJson {
        kind: "gameFull",
        id: g.id.clone(),
        variant: variant_of(g),
        speed: speed_of(g),
        perf: PerfJson {
            name: perf_name(perf_of(g)),
        },
        rated: g.table.as_ref().is_some_and(|t| t.rated),
        created_at: unix_ms(&g.created_at),
        white: players.white,
        black: players.black,
        initial_fen: initial_fen(g),
        clock: g.table.as_ref().map(|t| ClockJson {
            initial: t.clock.initial_ms,
            increment: t.clock.increment_ms,
        }),
        state: game_state(g, moves),
    }
}

/// The opponent in a game as one player sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpponentJson {
    /// Lichess id (`None`: the computer or no account).
    pub id: Option<String>,
    /// The name shown.
    pub username: String,
    /// Rating, when the game shows one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// The computer's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai: Option<u8>,
}

/// A variant as `nowPlaying` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VariantKeyJson {
    /// Key.
    pub key: &'static str,
    /// Name.
    pub name: &'static str,
}

/// A game as one of its players sees it: a line of `nowPlaying`, the
/// `game` of the event stream's `gameStart` and `gameFinish`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerGameJson {
    /// The full id (game id and player).
    pub full_id: String,
    /// The game id.
    pub game_id: String,
    /// The game id again (lichess sends both).
    pub id: String,
    /// The player's colour.
    pub color: &'static str,
    /// The position now.
    pub fen: String,
    /// Whether the player has moved.
    pub has_moved: bool,
    /// Whether it is the player's turn.
    pub is_my_turn: bool,
    /// The last move (UCI, as lichess), `""` before the first.
    pub last_move: String,
    /// The opponent.
    pub opponent: OpponentJson,
    /// Lichess perf key.
    pub perf: &'static str,
    /// Whether rated.
    pub rated: bool,
    /// The player's time left, seconds (none without a clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_left: Option<u64>,
    /// Where the game comes from: `friend` (a table) or `ai`.
    pub source: &'static str,
    /// Lichess speed.
    pub speed: &'static str,
    /// The status.
    pub status: Status,
    /// The variant.
    pub variant: VariantKeyJson,
    /// The winner, once there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// The player's rating shown, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// Which APIs may play it: every game of ours is playable by both.
    pub compat: Compat,
}

/// Which of lichess's APIs may play a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Compat {
    /// The Bot API.
    pub bot: bool,
    /// The Board API.
    pub board: bool,
}

/// Game `g` as player `me` (id `player_id`) sees it, against `players`.
pub fn player_game(
    g: &GameState,
    me: Color,
    player_id: &str,
    players: &ByColor<Player>,
) -> PlayerGameJson {
    let opp = players.get(!me);
    let opponent = match opp {
        Player::Computer { ai_level } => OpponentJson {
            id: None,
            username: opp.name(),
            rating: None,
            ai: Some(*ai_level),
        },
        Player::Person {
            id, name, rating, ..
        } => OpponentJson {
            id: id.clone(),
            username: name.clone(),
            rating: *rating,
            ai: None,
        },
    };
    let variant = variant_of(g);
    let my_turn = g.turn == plyyard_wire::protocol::color_name(me) && g.status == "ongoing";
    let last_move = g
        .last_move
        .as_ref()
        .map(|[a, b]| format!("{a}{b}"))
        .unwrap_or_default();
    PlayerGameJson {
        full_id: full_id(&g.id, player_id),
        game_id: g.id.clone(),
        id: g.id.clone(),
        color: plyyard_wire::protocol::color_name(me),
        fen: g.fen.clone(),
        has_moved: g.ply > me.fold_wb(0, 1),
        is_my_turn: my_turn,
        last_move,
        opponent,
        perf: perf_of(g),
        rated: g.table.as_ref().is_some_and(|t| t.rated),
        seconds_left: g
            .table
            .as_ref()
            .map(|t| me.fold_wb(t.clock.white_ms, t.clock.black_ms) / 1000),
        source: source_of(g),
        speed: speed_of(g),
        status: status_of(g),
        variant: VariantKeyJson {
            key: variant.key,
            name: variant.name,
        },
        winner: winner(&g.result).map(plyyard_wire::protocol::color_name),
        rating: players.get(me).rating(),
        compat: Compat {
            bot: true,
            board: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_reason_has_a_lichess_status() {
        for reason in Reason::ALL {
            for winner in [None, Some(Color::White)] {
                let s = status(Some(reason), winner);
                assert!(s.id >= 25 && s.id < 40, "{reason:?} {s:?}");
            }
        }
        assert_eq!(
            status(None, None),
            Status {
                id: 20,
                name: "started"
            }
        );
        let w = Some(Color::Black);
        assert_eq!(status(Some(Reason::Checkmate), w).name, "mate");
        assert_eq!(status(Some(Reason::Resignation), w).name, "resign");
        assert_eq!(status(Some(Reason::Stalemate), None).name, "stalemate");
        assert_eq!(
            status(Some(Reason::Timeout), w),
            Status {
                id: 35,
                name: "outoftime"
            }
        );
        assert_eq!(
            status(Some(Reason::TimeoutVsInsufficientMaterial), None).name,
            "outoftime"
        );
        assert_eq!(
            status(Some(Reason::Abandonment), w),
            Status {
                id: 33,
                name: "timeout"
            }
        );
        assert_eq!(status(Some(Reason::Abandonment), None).name, "draw");
        assert_eq!(
            status(Some(Reason::Agreement), None),
            Status {
                id: 34,
                name: "draw"
            }
        );
        assert_eq!(status(Some(Reason::FiftyMoves), None).name, "draw");
        assert_eq!(
            status(Some(Reason::Aborted), None),
            Status {
                id: 25,
                name: "aborted"
            }
        );
    }

    #[test]
    fn speeds_follow_lichess_boundaries() {
        let s = |limit_s: u64, inc_s: u64| speed(limit_s * 1000, inc_s * 1000);
        assert_eq!(s(15, 0), "ultraBullet");
        assert_eq!(s(29, 0), "ultraBullet");
        assert_eq!(s(30, 0), "bullet");
        assert_eq!(s(60, 0), "bullet");
        assert_eq!(s(60, 2), "bullet");
        assert_eq!(s(60, 3), "blitz");
        assert_eq!(s(120, 2), "blitz");
        assert_eq!(s(180, 2), "blitz");
        assert_eq!(s(300, 4), "blitz");
        assert_eq!(s(300, 5), "rapid");
        assert_eq!(s(600, 0), "rapid");
        assert_eq!(s(900, 10), "rapid");
        assert_eq!(s(1500, 0), "classical");
        assert_eq!(s(21_599, 0), "classical");
        assert_eq!(s(21_600, 0), "correspondence");
        assert_eq!(perf_name("ultraBullet"), "UltraBullet");
        assert_eq!(perf_name("blitz"), "Blitz");
    }

    fn mv(uci: &str, san: &str) -> MoveJson {
        MoveJson {
            uci: uci.into(),
            san: san.into(),
        }
    }

    #[test]
    fn castling_is_written_king_takes_rook() {
        assert_eq!(lichess_uci(&mv("e1g1", "O-O")), "e1h1");
        assert_eq!(lichess_uci(&mv("e8c8", "O-O-O+")), "e8a8");
        assert_eq!(lichess_uci(&mv("e1g1", "Kg1")), "e1g1");
        // Chess960 castling is king-takes-rook already.
        assert_eq!(lichess_uci(&mv("b1a1", "O-O-O")), "b1a1");
        assert_eq!(lichess_uci(&mv("e7e8q", "e8=Q")), "e7e8q");
        assert_eq!(
            moves_text(&[mv("e2e4", "e4"), mv("e7e5", "e5"), mv("e1g1", "O-O")]),
            "e2e4 e7e5 e1h1"
        );
        assert_eq!(moves_text(&[]), "");
    }

    #[test]
    fn ids_and_levels() {
        let full = full_id("abcdEFGH", "player-1");
        assert_eq!(full.len(), 12);
        assert!(full.starts_with("abcdEFGH"));
        assert!(full.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(full, full_id("abcdEFGH", "player-2"));
        assert_eq!(game_id(&full), "abcdEFGH");
        assert_eq!(game_id("abcdEFGH"), "abcdEFGH");
        assert_eq!(ai_level("beginner"), Some(1));
        assert_eq!(ai_level("expert"), Some(5));
        assert_eq!(ai_level("grandmaster"), None);
        assert_eq!(unix_ms("2025-11-29T13:00:00Z"), 1_764_421_200_000);
        assert_eq!(winner("0-1"), Some(Color::Black));
        assert_eq!(winner("1/2-1/2"), None);
    }
}
