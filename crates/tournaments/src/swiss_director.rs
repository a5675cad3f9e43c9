//! Owns the Swiss part of the director's tick: starting each Swiss at its
//! time (finished at once with fewer than two players), finishing a round
//! once all its games are scored (the next round then due after the round
//! interval, or when a leader says), pairing the next round by the FIDE
//! Dutch system (`plyyard-swiss`) over the players present, recording its
//! bye and starting each board as an ordinary live game, and finishing the
//! Swiss after its last round (or when no pairing exists).
//!
//! A player who does not move in time loses by forfeit (the game is
//! aborted; the director's scoring pass marks them absent); an absent or
//! withdrawn player is not paired until they join again.

use plyyard_arena::Timestamp;
use plyyard_store::{PairingRow, PairingStatus, TournamentStatus};
use plyyard_swiss::pair_round;

use crate::director::TickReport;
use crate::error::TournamentError;
use crate::service::Tournaments;
use crate::swiss::{Swiss, SwissState};

/// Swiss tournaments of one status looked at per tick.
const SWISS_PER_TICK: u32 = 1000;

impl Tournaments {
    /// The Swiss part of a tick at `now` (Unix ms).
    ///
    /// # Errors
    /// A store failure (the next tick tries again).
    pub(crate) async fn swiss_tick(
        &self,
        now: i64,
        report: &mut TickReport,
    ) -> Result<(), TournamentError> {
        let store = &self.deps.store;
        for row in store
            .tournaments_with_status("swiss", TournamentStatus::Created, false, SWISS_PER_TICK)
            .await?
        {
            if row.starts_at > now {
                break;
            }
            let to = if row.nb_players < 2 {
                TournamentStatus::Finished
            } else {
                TournamentStatus::Started
            };
            if store
                .set_tournament_status(&row.id, TournamentStatus::Created, to, Some(now))
                .await?
            {
                tracing::info!(swiss = %row.id, status = to.as_str(), "swiss started");
                report.started += 1;
            }
        }
        for row in store
            .tournaments_with_status("swiss", TournamentStatus::Started, false, SWISS_PER_TICK)
            .await?
        {
            match Swiss::from_row(row) {
                Ok(swiss) => self.advance_swiss(&swiss, now, report).await?,
                Err(e) => tracing::warn!("swiss director: {e}"),
            }
        }
        Ok(())
    }

    /// Finishes `swiss`'s current round when its games are over, and pairs
    /// the next one when it is due.
    async fn advance_swiss(
        &self,
        swiss: &Swiss,
        now: i64,
        report: &mut TickReport,
    ) -> Result<(), TournamentError> {
        let store = &self.deps.store;
        let state = self.swiss_state(swiss).await?;
        let paired = state.rounds.len();
        if let Some(last) = state.rounds.last() {
            if last.finished_at.is_none() {
                let playing = state.boards[paired - 1].iter().any(|b| b.result.is_none());
                if playing {
                    return Ok(());
                }
                let next_at = swiss
                    .settings
                    .round_interval
                    .delay_s(swiss.control())
                    .map(|s| now + i64::from(s) * 1000);
                store
                    .finish_swiss_round(swiss.id(), last.round, now, next_at)
                    .await?;
                tracing::info!(swiss = %swiss.id(), round = last.round, "round finished");
                if paired as u32 >= swiss.settings.nb_rounds {
                    self.finish_swiss(swiss, now, report).await?;
                }
                return Ok(());
            }
            if paired as u32 >= swiss.settings.nb_rounds {
                return self.finish_swiss(swiss, now, report).await;
            }
            if last.next_round_at.is_none_or(|at| at > now) {
                return Ok(());
            }
        }
        self.pair_swiss(swiss, &state, now, report).await
    }

    async fn finish_swiss(
        &self,
        swiss: &Swiss,
        now: i64,
        report: &mut TickReport,
    ) -> Result<(), TournamentError> {
        if self
            .deps
            .store
            .set_tournament_status(
                swiss.id(),
                TournamentStatus::Started,
                TournamentStatus::Finished,
                Some(now),
            )
            .await?
        {
            tracing::info!(swiss = %swiss.id(), "swiss finished");
            report.finished += 1;
            let state = self.swiss_state(swiss).await?;
            if let Some(first) = state.standings().first().filter(|s| s.half_points > 0) {
                self.notify_win(&swiss.row, (&first.player_id, &first.username))
                    .await;
            }
        }
        Ok(())
    }

    /// Pairs the next round of `swiss` and starts its games.
    async fn pair_swiss(
        &self,
        swiss: &Swiss,
        state: &SwissState,
        now: i64,
        report: &mut TickReport,
    ) -> Result<(), TournamentError> {
        let round = state.rounds.len() as i64 + 1;
        let present = state.present();
        let pairing = if present.len() < 2 {
            None
        } else {
            pair_round(&state.tournament, &present).ok()
        };
        let Some(pairing) = pairing else {
            tracing::info!(swiss = %swiss.id(), round, "no pairing: the swiss ends");
            return self.finish_swiss(swiss, now, report).await;
        };
        let id_of = |start: u32| state.ids[start as usize - 1].clone();
        let bye = pairing.bye.map(id_of);
        if !self
            .deps
            .store
            .pair_swiss_round(swiss.id(), round, bye.as_deref(), now)
            .await?
        {
            return Ok(());
        }
        report.rounds += 1;
        self.tell_round(swiss, state, round, &pairing.boards, bye.as_deref())
            .await;
        let rating = |id: &str| {
            state
                .players
                .iter()
                .find(|p| p.player_id == id)
                .map_or(0, |p| p.rating)
        };
        let how = (swiss.control(), swiss.variant(), swiss.settings.rated);
        for (board, (w, b)) in pairing.boards.iter().enumerate() {
            let (white, black) = (id_of(*w), id_of(*b));
            let row = PairingRow {
                game_id: String::new(),
                tournament_id: swiss.id().to_owned(),
                white_rating: rating(&white),
                black_rating: rating(&black),
                white,
                black,
                status: PairingStatus::Playing,
                result: None,
                plies: 0,
                white_berserk: false,
                black_berserk: false,
                // Keeps the board order in the games' order.
                created_at: now + board as i64,
                finished_at: None,
                round,
            };
            match self
                .start_game(how, &row, Timestamp::from_millis(now))
                .await
            {
                Ok(Some(game)) => {
                    report.paired += 1;
                    tracing::info!(swiss = %swiss.id(), round, %game, "swiss game started");
                }
                Ok(None) => break,
                Err(e) => tracing::warn!(swiss = %swiss.id(), "cannot start a game: {}", e.message),
            }
        }
        Ok(())
    }

    /// Tells each player of round `round` their opponent, or their bye.
    async fn tell_round(
        &self,
        swiss: &Swiss,
        state: &SwissState,
        round: i64,
        boards: &[(u32, u32)],
        bye: Option<&str>,
    ) {
        let round = u32::try_from(round).unwrap_or(u32::MAX);
        let id_of = |start: u32| state.ids[start as usize - 1].as_str();
        let name_of = |id: &str| {
            state
                .players
                .iter()
                .find(|p| p.player_id == id)
                .map(|p| p.username.clone())
        };
        for &(w, b) in boards {
            let (white, black) = (id_of(w), id_of(b));
            for (me, them) in [(white, black), (black, white)] {
                self.notify_round(&swiss.row, round, me, name_of(them).as_deref())
                    .await;
            }
        }
        if let Some(b) = bye {
            self.notify_round(&swiss.row, round, b, None).await;
        }
    }
}
