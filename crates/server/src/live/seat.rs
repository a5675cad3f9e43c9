//! Who sits where: a game's two seats (White, Black), each a player id or
//! the computer, how a seat is shown ([`seat_name`]), and moving seats from
//! one player id to another (an anonymous player logs in; an account is
//! deleted).

use game::shakmaty::Color;
use tokio::sync::oneshot;

use super::actor::{Actor, Cmd};
use crate::Shared;
use crate::error::ApiError;
use crate::identity::PlayerId;
use crate::protocol::SeatJson;
use crate::store::{GameRow, StoreError};

/// The players of a game, by colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    /// White's player id (`None`: the computer).
    pub white: Option<String>,
    /// Black's player id (`None`: the computer).
    pub black: Option<String>,
}

impl Seats {
    /// The colour `player` plays, if any.
    pub fn color_of(&self, player: &PlayerId) -> Option<Color> {
        if self.white.as_deref() == Some(player.0.as_str()) {
            Some(Color::White)
        } else if self.black.as_deref() == Some(player.0.as_str()) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// How a seat is shown: the account's name, the computer's level, or an
/// anonymous or deleted player.
///
/// # Errors
/// A database failure.
pub async fn seat_name(
    shared: &Shared,
    player: Option<&str>,
    level: Option<engine::Level>,
) -> Result<SeatJson, StoreError> {
    let Some(player) = player else {
        return Ok(SeatJson::computer(level));
    };
    Ok(SeatJson::from(shared.store.seat_info(player).await?))
}

/// How both seats of a stored game are shown (White, Black).
pub(super) async fn seat_names(
    shared: &Shared,
    row: &GameRow,
) -> Result<[SeatJson; 2], StoreError> {
    Ok([
        seat_name(shared, row.white_player.as_deref(), row.level).await?,
        seat_name(shared, row.black_player.as_deref(), row.level).await?,
    ])
}

/// Tells every loaded game that `player`'s seats now show who `player` is
/// (after an account was deleted, say); games not loaded read it when they
/// load.
pub async fn refresh_seats(shared: &Shared, player: &PlayerId) {
    for h in shared.hub.handles() {
        let (reply, done) = oneshot::channel();
        let cmd = Cmd::Reseat {
            from: player.clone(),
            to: player.clone(),
            reply,
        };
        if h.tx.send(cmd).await.is_ok() {
            let _ = done.await;
        }
    }
}

impl Actor {
    /// The players of this game.
    pub(super) fn seats(&self) -> Seats {
        Seats {
            white: self.row.white_player.clone(),
            black: self.row.black_player.clone(),
        }
    }

    /// The colour `player` plays, or `forbidden` for anyone else.
    pub(super) fn player_color(&self, player: &PlayerId) -> Result<Color, ApiError> {
        self.seats()
            .color_of(player)
            .ok_or_else(|| ApiError::forbidden("you are not a player of this game"))
    }

    /// Gives `from`'s seats to `to`, showing `to`'s name on them.
    pub(super) async fn reseat(&mut self, from: &PlayerId, to: &PlayerId) {
        for (i, seat) in [&mut self.row.white_player, &mut self.row.black_player]
            .into_iter()
            .enumerate()
        {
            if seat.as_deref() == Some(from.0.as_str()) {
                *seat = Some(to.0.clone());
                match seat_name(&self.shared, Some(&to.0), None).await {
                    Ok(name) => self.names[i] = name,
                    Err(e) => tracing::warn!(game = %self.row.id, "seat name: {e}"),
                }
            }
        }
    }
}
