//! What tournaments tell players through the bell
//! ([`plyyard_social::notify`]): a tournament they joined starts soon
//! (once, whichever node's director sees it first), a Swiss round paired
//! (their opponent, or a bye), and a followed player's win. A failure to
//! tell is logged and never holds the director.

use plyyard_social::notify::Notice;
use plyyard_store::{RelationKind, TournamentRow};

use crate::error::TournamentError;
use crate::service::Tournaments;

/// Players are told a tournament starts this long before it does.
pub const SOON_MS: i64 = 5 * 60 * 1000;
/// Tournaments whose players are told in one tick, at most.
const SOON_PER_TICK: u32 = 50;
/// Followers told of a win, at most.
const FOLLOWERS_TOLD: u32 = 2000;

/// A tournament's name as its notices show it (an Arena's with "Arena").
pub fn shown_name(row: &TournamentRow) -> String {
    if row.kind == "swiss" {
        row.name.clone()
    } else {
        format!("{} Arena", row.name)
    }
}

impl Tournaments {
    /// Tells the players of every tournament starting within [`SOON_MS`]
    /// of `now` that it starts soon.
    ///
    /// # Errors
    /// A store failure.
    pub(crate) async fn notify_soon(&self, now: i64) -> Result<(), TournamentError> {
        let store = &self.deps.store;
        for row in store
            .tournaments_starting_soon(now + SOON_MS, SOON_PER_TICK)
            .await?
        {
            if !store.claim_soon_notice(&row.id, now).await? {
                continue;
            }
            let name = shown_name(&row);
            for p in store.tournament_players(&row.id).await? {
                if p.withdrawn {
                    continue;
                }
                let notice = Notice::TournamentSoon {
                    tournament: row.id.clone(),
                    name: name.clone(),
                    swiss: row.kind == "swiss",
                    starts_at: row.starts_at,
                };
                self.deps.notifications.notify(&p.player_id, notice).await;
            }
        }
        Ok(())
    }

    /// Tells the followers of `winner` (a player id, and the name shown)
    /// that they won tournament `row`.
    pub(crate) async fn notify_win(&self, row: &TournamentRow, winner: (&str, &str)) {
        let followers = match self
            .deps
            .store
            .related_to(winner.0, RelationKind::Follow, FOLLOWERS_TOLD)
            .await
        {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(tournament = %row.id, "cannot tell the winner's followers: {e}");
                return;
            }
        };
        let name = shown_name(row);
        for f in followers {
            let notice = Notice::TournamentWin {
                tournament: row.id.clone(),
                name: name.clone(),
                swiss: row.kind == "swiss",
                winner: winner.1.to_owned(),
            };
            self.deps.notifications.notify(&f.player_id, notice).await;
        }
    }

    /// Tells `player` that round `round` of Swiss `row` was paired, with
    /// `opponent` (`None`: a bye).
    pub(crate) async fn notify_round(
        &self,
        row: &TournamentRow,
        round: u32,
        player: &str,
        opponent: Option<&str>,
    ) {
        let notice = Notice::SwissRound {
            tournament: row.id.clone(),
            name: shown_name(row),
            round,
            opponent: opponent.map(str::to_owned),
        };
        self.deps.notifications.notify(player, notice).await;
    }
}
