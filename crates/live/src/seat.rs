//! Who sits where: a game's two seats (White, Black), each a player id or
//! the computer ([`Seats`]), and how a seat is shown ([`seat_name`],
//! [`seat_names`]).

use plyyard_game::shakmaty::{ByColor, Color};

use plyyard_store::PlayerId;
use plyyard_store::reviews::ImportedInfo;
use plyyard_store::{GameKind, GameRow, Store, StoreError};
use plyyard_wire::protocol::SeatJson;

/// Who sits on one side of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A person: an account or an anonymous player.
    Person(PlayerId),
    /// The computer, at its level (`None` only for a corrupt row).
    Computer(Option<plyyard_engine::Level>),
}

impl Seat {
    /// The seat of player id `player` in a game against the computer at
    /// `level` (`None`: the computer's own seat).
    pub fn of(player: Option<&str>, level: Option<plyyard_engine::Level>) -> Seat {
        match player {
            Some(p) => Seat::Person(PlayerId(p.to_owned())),
            None => Seat::Computer(level),
        }
    }

    /// Whether `player` sits here.
    pub fn is(&self, player: &PlayerId) -> bool {
        matches!(self, Seat::Person(p) if p == player)
    }
}

/// The players of a game, by colour (a [`ByColor`] of seats: `seats.white`,
/// `seats.get(color)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats(pub ByColor<Seat>);

impl std::ops::Deref for Seats {
    type Target = ByColor<Seat>;

    fn deref(&self) -> &ByColor<Seat> {
        &self.0
    }
}

impl Seats {
    /// The seats of a stored game.
    pub fn of(row: &GameRow) -> Seats {
        Seats(ByColor {
            white: Seat::of(row.white_player.as_deref(), row.level),
            black: Seat::of(row.black_player.as_deref(), row.level),
        })
    }

    /// Nobody yet (a socket before it subscribes).
    pub fn empty() -> Seats {
        Seats(ByColor::new_with(|_| Seat::Computer(None)))
    }

    /// The colour `player` plays, if any.
    pub fn color_of(&self, player: &PlayerId) -> Option<Color> {
        self.0.find(|s| s.is(player))
    }

    /// The computer's colour and level, in a game against it.
    pub fn computer(&self) -> Option<(Color, plyyard_engine::Level)> {
        match (&self.white, &self.black) {
            (Seat::Computer(Some(l)), Seat::Person(_)) => Some((Color::White, *l)),
            (Seat::Person(_), Seat::Computer(Some(l))) => Some((Color::Black, *l)),
            _ => None,
        }
    }
}

/// How a seat is shown: the account's name, the computer's level, or an
/// anonymous or deleted player.
///
/// # Errors
/// A database failure.
pub async fn seat_name(store: &Store, seat: &Seat) -> Result<SeatJson, StoreError> {
    match seat {
        Seat::Computer(level) => Ok(SeatJson::computer(*level)),
        Seat::Person(p) => Ok(SeatJson::from(store.seat_info(&p.0).await?)),
    }
}

/// The seats of an imported game, by the names its PGN gave ("?" without).
pub(super) fn imported_seats(info: Option<&ImportedInfo>) -> ByColor<SeatJson> {
    let name = |n: Option<&String>| SeatJson::pgn(n.map_or("?", String::as_str));
    ByColor {
        white: name(info.map(|i| &i.white)),
        black: name(info.map(|i| &i.black)),
    }
}

/// How both seats of a stored game are shown: an imported game's by the
/// names its PGN gave.
pub(super) async fn seat_names(
    store: &Store,
    row: &GameRow,
) -> Result<ByColor<SeatJson>, StoreError> {
    if row.kind == GameKind::Imported {
        let info = plyyard_store::reviews::imported(store, &row.id).await?;
        return Ok(imported_seats(info.as_ref()));
    }
    let seats = Seats::of(row);
    Ok(ByColor {
        white: seat_name(store, &seats.white).await?,
        black: seat_name(store, &seats.black).await?,
    })
}
