//! Where new games come from: games against the computer, the first game
//! at a table, the game of two players paired by their seeks (a table
//! opened with both seats taken), tournament games, and rematches. Each is stored from one row constructor
//! ([`new_row`]) and its actor started at once (a computer game's with the
//! client that asked; a table game's so that its first-move deadline runs).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use plyyard_game::shakmaty::{ByColor, Color};
use plyyard_game::{Game, Reason, TimeControl, Variant};
use rand::Rng;

use super::ask::{Ask, Reply};
use super::game::LiveGame;
use super::hub::{self, request};
use super::seat::seat_names;
use super::view::color_name;
use crate::hub::LiveDeps;
use crate::lifecycle::{LifeEvent, LifeKind};
use plyyard_engine_time::fair::Requester;
use plyyard_store::PlayerId;
use plyyard_store::replay::{new_game_id, summary_of};
use plyyard_store::{GameKind, GameRow, TableGame, TableRow, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{ColorChoice, GameState, NewComputerGame};

/// The stored row of a new game of `kind` from `game`'s starting position:
/// a fresh id, the player ids on each seat (`None`: the computer's), the
/// computer's level, and the table it is played at.
pub(super) fn new_row(
    kind: GameKind,
    game: &Game,
    white: Option<String>,
    black: Option<String>,
    level: Option<plyyard_engine::Level>,
    table: Option<TableGame>,
) -> GameRow {
    let now = now_ms();
    GameRow {
        id: new_game_id(),
        kind,
        white_player: white,
        black_player: black,
        level,
        rules: game.rules(),
        variant: game.variant(),
        position: game.chess960_number(),
        initial_fen: game.initial_fen(),
        summary: summary_of(game, 0, now),
        created_at: now,
        table,
        clock: None,
    }
}

/// Creates a game against the computer for `player`, whose requests come
/// from the client of `client` (its keys in the engine pool, see
/// [`Requester::keys`]), and returns its state.
///
/// # Errors
/// `bad_request` for an impossible set-up; `internal` for storage failures.
pub async fn create_computer_game(
    shared: &Arc<LiveDeps>,
    player: &PlayerId,
    client: Vec<Requester>,
    req: NewComputerGame,
) -> Result<GameState, ApiError> {
    let game = starting_game(&req)?;
    let clock = req.clock.map(|c| c.time_control()).transpose()?;
    let human = match req.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(rand::rng().random_bool(0.5)),
    };
    let seat = Some(player.0.clone());
    let (white, black) = match human {
        Color::White => (seat, None),
        Color::Black => (None, seat),
    };
    let mut row = new_row(
        GameKind::Computer,
        &game,
        white,
        black,
        Some(req.level),
        None,
    );
    row.clock = clock;
    shared.store.touch_player(&player.0, row.created_at).await?;
    // The computer's client goes with the row: a reloaded game keeps it.
    let keys = super::computer::client_keys(&client);
    shared.store.insert_game_with_client(&row, &keys).await?;
    shared.metrics.games_created.fetch_add(1, Ordering::Relaxed);
    shared.announce(LifeEvent {
        game: row.id.clone(),
        kind: LifeKind::Started,
        players: ByColor {
            white: row.white_player.clone(),
            black: row.black_player.clone(),
        },
    });
    tracing::info!(
        game = %row.id,
        level = row.level.map_or("-", plyyard_engine::Level::as_str),
        variant = %row.variant,
        clock = ?row.clock.map(|c| c.pgn_tag()),
        human = color_name(human),
        "game created"
    );
    let id = row.id.clone();
    let names = seat_names(&shared.store, &row).await?;
    let live = LiveGame::new(row, game, names, None, &shared.tuning);
    hub::start_new(shared, live, client).await?;
    let viewer = Some(player.clone());
    match request(shared, &id, Ask::State { viewer }).await? {
        Reply::State { game } => Ok(*game),
        other => Err(ApiError::internal(format!(
            "a new game answered out of turn: {other:?}"
        ))),
    }
}

/// The game a request starts from: standard chess, a Chess960 position
/// (numbered or random), or a FEN.
fn starting_game(req: &NewComputerGame) -> Result<Game, ApiError> {
    Ok(match (req.variant, req.position, req.fen.as_deref()) {
        (_, Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give either a position number or a FEN, not both",
            ));
        }
        (Variant::Standard, Some(_), None) => {
            return Err(ApiError::bad_request(
                "a position number is only for chess960",
            ));
        }
        (variant, None, Some(fen)) => {
            let g = Game::from_fen_with(fen, req.rules, variant == Variant::Chess960)
                .map_err(|e| ApiError::bad_request(e.to_string()).with_reason(e.code()))?;
            if let Some(o) = g.outcome() {
                return Err(ApiError::bad_request(format!(
                    "the game would be over from the start ({})",
                    o.reason
                ))
                .with_reason(over_code(o.reason)));
            }
            g
        }
        (Variant::Standard, None, None) => Game::new(req.rules),
        (Variant::Chess960, Some(n), None) => {
            Game::chess960(n, req.rules).map_err(|e| ApiError::bad_request(e.to_string()))?
        }
        (Variant::Chess960, None, None) => Game::random_chess960(req.rules, &mut rand::rng()).1,
    })
}

/// Why a position that is over from the start is refused, as the code
/// clients translate.
fn over_code(reason: Reason) -> &'static str {
    match reason {
        Reason::Checkmate => "mated",
        Reason::Stalemate => "stalemate",
        Reason::InsufficientMaterial => "insufficient_material",
        _ => "over",
    }
}

/// The first game at `table`, now that `guest` sits down: colours drawn by
/// lot, one Chess960 position for both. Stores the game and seats the
/// guest in one transaction; `None` if someone else sat down first.
///
/// # Errors
/// A database failure.
pub async fn start_table_game(
    shared: &Arc<LiveDeps>,
    table: &TableRow,
    guest: &PlayerId,
) -> Result<Option<String>, ApiError> {
    let guest_white = rand::rng().random_bool(0.5);
    let (white, black) = if guest_white {
        (guest.0.clone(), table.host.clone())
    } else {
        (table.host.clone(), guest.0.clone())
    };
    let row = table_game_row(table, white, black)?;
    let seated = shared
        .store
        .start_table_game(&row, &table.code, &guest.0, now_ms())
        .await?;
    if !seated {
        return Ok(None);
    }
    started(shared, &row).await;
    Ok(Some(row.id))
}

/// The game of two players paired by their seeks: where it is played and
/// who has White.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairedGame {
    /// The new game's id.
    pub game_id: String,
    /// The code of the table it is played at (rematches happen there).
    pub code: String,
    /// Player id of White.
    pub white: String,
    /// Player id of Black.
    pub black: String,
}

/// Starts the game of `table`, a table opened for two paired players with
/// both seats taken (`host` and `guest` set, status `playing`, not public):
/// colours drawn by lot, one Chess960 position for both. The table and its
/// game are stored in one transaction; the game's actor then starts on a
/// task of its own (so that its first-move deadline runs), and the game is
/// returned at once: the players may be told while it loads (a request for
/// the game meanwhile waits for the same load).
///
/// # Errors
/// `conflict` if the table's code is taken (draw another and try again);
/// `bad_request` for a table without a guest; a database failure.
pub async fn start_paired_game(
    shared: &Arc<LiveDeps>,
    table: &TableRow,
) -> Result<PairedGame, ApiError> {
    let guest = table
        .guest
        .clone()
        .ok_or_else(|| ApiError::bad_request("a paired table needs two players"))?;
    let (white, black) = if rand::rng().random_bool(0.5) {
        (guest, table.host.clone())
    } else {
        (table.host.clone(), guest)
    };
    let row = table_game_row(table, white.clone(), black.clone())?;
    let table = TableRow {
        game_id: Some(row.id.clone()),
        ..table.clone()
    };
    match shared.store.insert_paired_table(&table, &row).await {
        Ok(()) => {}
        Err(plyyard_store::StoreError::Taken(code)) => {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                format!("table code {code} is taken"),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    let loading = Arc::clone(shared);
    let id = row.id.clone();
    tokio::spawn(async move { started(&loading, &row).await });
    Ok(PairedGame {
        game_id: id,
        code: table.code,
        white,
        black,
    })
}

/// The next game at the table of `previous`, colours swapped; its id.
///
/// # Errors
/// `conflict` if the table moved on already; a database failure.
pub(super) async fn start_rematch(
    shared: &Arc<LiveDeps>,
    previous: &GameRow,
) -> Result<String, ApiError> {
    let code = previous
        .table
        .as_ref()
        .map(|t| t.code.clone())
        .ok_or_else(|| ApiError::bad_request("only table games have rematches"))?;
    let table = shared
        .store
        .table(&code)
        .await?
        .ok_or_else(|| ApiError::internal(format!("table {code} vanished")))?;
    let (Some(white), Some(black)) = (previous.black_player.clone(), previous.white_player.clone())
    else {
        return Err(ApiError::internal("a table game without two players"));
    };
    let row = table_game_row(&table, white, black)?;
    if !shared.store.rematch_game(&row, &code, &previous.id).await? {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            "the table moved on already",
        ));
    }
    started(shared, &row).await;
    Ok(row.id)
}

/// Loads a new table game at once, so that its first-move deadline runs.
async fn started(shared: &Arc<LiveDeps>, row: &GameRow) {
    shared.metrics.games_created.fetch_add(1, Ordering::Relaxed);
    shared.announce(LifeEvent {
        game: row.id.clone(),
        kind: LifeKind::Started,
        players: ByColor {
            white: row.white_player.clone(),
            black: row.black_player.clone(),
        },
    });
    tracing::info!(game = %row.id, table = ?row.table.as_ref().map(|t| &t.code), "table game started");
    if let Err(e) = hub::route(shared, &row.id).await {
        tracing::warn!(game = %row.id, "cannot load a new table game: {}", e.message);
    }
}

/// Starts the game of an accepted challenge: `table` is the private table
/// it is played at (both seats taken, status `playing`, its `game_id` the
/// challenge's id); the game gets the challenge's id. The challenge's
/// acceptance, the table and the game are stored in one transaction;
/// `None` (nothing stored) if the challenge was no longer waiting.
///
/// # Errors
/// `conflict` if the table's code is taken (draw another and try again);
/// a database failure.
pub async fn start_challenge_game(
    shared: &Arc<LiveDeps>,
    challenge_id: &str,
    table: &TableRow,
    white: String,
    black: String,
) -> Result<Option<String>, ApiError> {
    let mut row = table_game_row(table, white, black)?;
    row.id = challenge_id.to_owned();
    let accepted = shared
        .store
        .accept_challenge(challenge_id, table, &row, now_ms())
        .await;
    match accepted {
        Ok(true) => {}
        Ok(false) => return Ok(None),
        Err(plyyard_store::StoreError::Taken(code)) => {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                format!("table code {code} is taken"),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    started(shared, &row).await;
    Ok(Some(row.id))
}

/// The row of a new game at `table` between `white` and `black`.
fn table_game_row(table: &TableRow, white: String, black: String) -> Result<GameRow, ApiError> {
    let control = TimeControl::from_secs(table.base_s, table.increment_s)
        .map_err(|e| ApiError::internal(format!("table {}: {e}", table.code)))?;
    let game = match table.variant {
        Variant::Standard => Game::new(table.rules),
        Variant::Chess960 => Game::random_chess960(table.rules, &mut rand::rng()).1,
    };
    let table = TableGame {
        code: table.code.clone(),
        rated: table.rated,
        control,
    };
    Ok(new_row(
        GameKind::Table,
        &game,
        Some(white),
        Some(black),
        None,
        Some(table),
    ))
}

/// Starts a game of a tournament: `table` is its private table (both
/// seats taken, status `playing`, not public; its host plays White, its
/// guest Black, as the tournament's pairing said), `pairing` the
/// tournament's record of it (its `game_id` is set here). The game, its
/// table and its pairing are stored in one transaction, and only while the
/// tournament is started; the actor then starts on a task of its own (so
/// that its first-move deadline runs) and the game's id is returned at
/// once. `None` (nothing stored) when the tournament is not started.
///
/// # Errors
/// `conflict` if the table's code is taken (draw another and try again);
/// `bad_request` for a table without a guest or a player still playing a
/// game of the tournament (nothing stored); a database failure.
pub async fn start_tournament_game(
    shared: &Arc<LiveDeps>,
    table: &TableRow,
    pairing: &plyyard_store::PairingRow,
) -> Result<Option<String>, ApiError> {
    let guest = table
        .guest
        .clone()
        .ok_or_else(|| ApiError::bad_request("a tournament table needs two players"))?;
    let row = table_game_row(table, table.host.clone(), guest)?;
    let table = TableRow {
        game_id: Some(row.id.clone()),
        ..table.clone()
    };
    let pairing = plyyard_store::PairingRow {
        game_id: row.id.clone(),
        ..pairing.clone()
    };
    match shared
        .store
        .insert_tournament_game(&table, &row, &pairing)
        .await
    {
        Ok(true) => {}
        Ok(false) => return Ok(None),
        Err(plyyard_store::StoreError::Taken(code)) => {
            return Err(ApiError::new(
                ErrorCode::Conflict,
                format!("table code {code} is taken"),
            ));
        }
        Err(plyyard_store::StoreError::Busy(player)) => {
            return Err(ApiError::bad_request(format!(
                "{player} is still playing a game of this tournament"
            )));
        }
        Err(e) => return Err(e.into()),
    }
    let loading = Arc::clone(shared);
    let id = row.id.clone();
    tokio::spawn(async move { started(&loading, &row).await });
    Ok(Some(id))
}
