//! Owns the Swiss doors of [`Tournaments`]: creating a Swiss for a club
//! (its leaders), joining (its members, once, until half the rounds are
//! played, up to [`MAX_SWISS_PLAYERS`]), withdrawing (removed before the
//! start, absent after), editing (only what leaves the paired rounds as
//! they are, once started), scheduling the next round, terminating, and
//! reading it back (the Swiss, its state, its games, a club's list).

use plyyard_store::{StoreError, TournamentRow, TournamentStatus};

use crate::arena::{self, check_description, check_name};
use crate::error::TournamentError;
use crate::service::{CREATION_WINDOW, MAX_CREATED, Tournaments};
use crate::swiss::{Swiss, SwissSettings, SwissState};

/// The most players one Swiss takes.
pub const MAX_SWISS_PLAYERS: i64 = 1000;
/// How many fresh ids are tried for a new Swiss.
const ID_TRIES: u32 = 5;

/// A Swiss as asked for: name, description and settings, the forbidden
/// pairs given by username.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSwiss {
    /// Its name; `None`: named after its club.
    pub name: Option<String>,
    /// What its leader says of it.
    pub description: String,
    /// Its settings (`forbidden` ignored: see `forbidden_names`).
    pub settings: SwissSettings,
    /// Pairs of usernames never to pair together; `None` in an edit:
    /// the pairs stay as they are (in a creation: none).
    pub forbidden_names: Option<Vec<(String, String)>>,
}

impl Tournaments {
    async fn require_leader(&self, club: &str, player: &str) -> Result<(), TournamentError> {
        let leads = self
            .deps
            .clubs
            .is_leader(club, player)
            .await
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        if leads {
            Ok(())
        } else {
            Err(TournamentError::Forbidden(format!(
                "only a leader of {club} may do this"
            )))
        }
    }

    async fn resolve_forbidden(
        &self,
        names: &[(String, String)],
    ) -> Result<Vec<(String, String)>, TournamentError> {
        let mut out = Vec::with_capacity(names.len());
        for (a, b) in names {
            let mut ids = Vec::with_capacity(2);
            for name in [a, b] {
                let account = self
                    .deps
                    .store
                    .account_named(name)
                    .await?
                    .ok_or_else(|| TournamentError::Invalid(format!("no player {name}")))?;
                ids.push(account.player_id);
            }
            if ids[0] == ids[1] {
                return Err(TournamentError::Invalid(format!(
                    "a forbidden pairing needs two players: {a} {b}"
                )));
            }
            out.push((ids[0].clone(), ids[1].clone()));
        }
        Ok(out)
    }

    /// Creates a Swiss for club `club` by `creator` at `now` (Unix ms).
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for bad settings, an unknown club or
    /// player, or too many tournaments created lately;
    /// [`TournamentError::Forbidden`] for anyone but the club's leaders.
    /// Nothing is stored then.
    pub async fn create_swiss(
        &self,
        creator: &str,
        club: &str,
        new: NewSwiss,
        now: i64,
    ) -> Result<Swiss, TournamentError> {
        let Some(club_row) = self.deps.store.club(club).await? else {
            return Err(TournamentError::NotFound(format!("club {club}")));
        };
        self.require_leader(club, creator).await?;
        let name = check_name(
            new.name.as_deref(),
            &club_row.name.chars().take(30).collect::<String>(),
        )?;
        let description = check_description(&new.description)?;
        let mut settings = new.settings;
        let names = new.forbidden_names.unwrap_or_default();
        if names.len() > crate::swiss::MAX_FORBIDDEN {
            return Err(TournamentError::Invalid(
                "too many forbidden pairings".into(),
            ));
        }
        settings.forbidden = self.resolve_forbidden(&names).await?;
        settings.check(now)?;
        let window = i64::try_from(CREATION_WINDOW.as_millis()).unwrap_or(i64::MAX);
        let lately = self
            .deps
            .store
            .tournaments_created_since(creator, now.saturating_sub(window))
            .await?;
        if lately >= MAX_CREATED {
            return Err(TournamentError::Invalid(format!(
                "you created {lately} tournaments in the last 24 hours; at most {MAX_CREATED}"
            )));
        }
        let mut row = TournamentRow {
            id: arena::new_id(),
            kind: "swiss".into(),
            name,
            description,
            created_by: creator.to_owned(),
            club_id: Some(club.to_owned()),
            settings: to_json(&settings)?,
            status: TournamentStatus::Created,
            starts_at: settings.starts_at,
            finishes_at: settings.starts_at,
            nb_players: 0,
            created_at: now,
        };
        for attempt in 1..=ID_TRIES {
            match self.deps.store.create_tournament(&row).await {
                Ok(()) => break,
                Err(StoreError::Taken(_)) if attempt < ID_TRIES => row.id = arena::new_id(),
                Err(e) => return Err(e.into()),
            }
        }
        tracing::info!(swiss = %row.id, by = %creator, "swiss created");
        Ok(Swiss { row, settings })
    }

    /// The Swiss `id`.
    ///
    /// # Errors
    /// [`TournamentError::NotFound`] (an Arena's id too); a store failure.
    pub async fn swiss(&self, id: &str) -> Result<Swiss, TournamentError> {
        if !arena::well_formed(id) {
            return Err(TournamentError::NotFound(id.chars().take(16).collect()));
        }
        let row = self
            .deps
            .store
            .tournament(id)
            .await?
            .ok_or_else(|| TournamentError::NotFound(id.to_owned()))?;
        Swiss::from_row(row)
    }

    /// `swiss`'s rounds rebuilt from the store.
    ///
    /// # Errors
    /// A store failure.
    pub async fn swiss_state(&self, swiss: &Swiss) -> Result<SwissState, TournamentError> {
        let store = &self.deps.store;
        let players = store.tournament_players(swiss.id()).await?;
        let rounds = store.swiss_rounds(swiss.id()).await?;
        let byes = store.swiss_byes(swiss.id()).await?;
        let games = store.tournament_pairings(swiss.id()).await?;
        Ok(SwissState::build(swiss, players, rounds, &byes, &games))
    }

    /// Club `club`'s Swiss tournaments, the latest start first.
    ///
    /// # Errors
    /// A store failure.
    pub async fn club_swiss(&self, club: &str, limit: u32) -> Result<Vec<Swiss>, TournamentError> {
        let rows = self
            .deps
            .store
            .club_tournaments("swiss", club, limit)
            .await?;
        rows.into_iter().map(Swiss::from_row).collect()
    }

    /// `player` joins Swiss `id` at `now`, or comes back after withdrawing.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] when it is finished, too late (half
    /// the rounds paired), full, they are in it already, or not members
    /// of its club; [`TournamentError::NotFound`]. Nothing is changed then.
    pub async fn join_swiss(
        &self,
        id: &str,
        player: &str,
        now: i64,
    ) -> Result<(), TournamentError> {
        let swiss = self.swiss(id).await?;
        if swiss.status() == TournamentStatus::Finished {
            return Err(TournamentError::Invalid(
                "the tournament is finished".into(),
            ));
        }
        let store = &self.deps.store;
        let paired = store.swiss_rounds(id).await?.len() as u32;
        if paired * 2 >= swiss.settings.nb_rounds {
            return Err(TournamentError::Invalid(
                "too late: half the rounds are played".into(),
            ));
        }
        let member = self
            .deps
            .clubs
            .is_member(swiss.club(), player)
            .await
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        if !member {
            let open = store.club(swiss.club()).await?.is_some_and(|c| c.open);
            return Err(TournamentError::Forbidden(if open {
                format!(
                    "only members of {} may join; join the club first",
                    swiss.club()
                )
            } else {
                format!(
                    "only members of {} may join, and it is a closed club: ask to join it first",
                    swiss.club()
                )
            }));
        }
        let rating = store.rating(player, swiss.speed()).await?;
        let shown = plyyard_rating::display(rating.glicko.rating);
        let joined = store
            .join_tournament(id, player, shown, MAX_SWISS_PLAYERS, now)
            .await?;
        crate::service::admitted(joined, MAX_SWISS_PLAYERS)?;
        tracing::info!(swiss = %id, %player, "joined");
        Ok(())
    }

    /// `player` withdraws from Swiss `id`: removed before its start,
    /// absent (not paired, their game in progress going on) after it
    /// until they join again.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] when it is finished or they are not
    /// playing in it; [`TournamentError::NotFound`].
    pub async fn withdraw_swiss(
        &self,
        id: &str,
        player: &str,
        now: i64,
    ) -> Result<(), TournamentError> {
        let swiss = self.swiss(id).await?;
        let store = &self.deps.store;
        let done = match swiss.status() {
            TournamentStatus::Finished => {
                return Err(TournamentError::Invalid(
                    "the tournament is finished".into(),
                ));
            }
            TournamentStatus::Created => {
                store.remove_tournament_player(id, player).await?
                    || store.withdraw_from_tournament(id, player, now).await?
            }
            TournamentStatus::Started => store.withdraw_from_tournament(id, player, now).await?,
        };
        if !done {
            return Err(TournamentError::Invalid(
                "you are not playing in this tournament".into(),
            ));
        }
        tracing::info!(swiss = %id, %player, "withdrew");
        Ok(())
    }

    /// A leader of its club ends Swiss `id` now: no more rounds; games
    /// being played finish and count.
    ///
    /// # Errors
    /// [`TournamentError::Forbidden`] for anyone else;
    /// [`TournamentError::Invalid`] when it is finished already.
    pub async fn terminate_swiss(
        &self,
        id: &str,
        player: &str,
        now: i64,
    ) -> Result<(), TournamentError> {
        let swiss = self.swiss(id).await?;
        self.require_leader(swiss.club(), player).await?;
        let from = swiss.status();
        if from == TournamentStatus::Finished {
            return Err(TournamentError::Invalid(
                "the tournament is finished already".into(),
            ));
        }
        if !self
            .deps
            .store
            .set_tournament_status(id, from, TournamentStatus::Finished, Some(now))
            .await?
        {
            return Err(TournamentError::Invalid(
                "the tournament changed meanwhile; try again".into(),
            ));
        }
        tracing::info!(swiss = %id, "terminated by a leader");
        Ok(())
    }

    /// A leader edits Swiss `id`. Before its start everything may change;
    /// after it, only what leaves the paired rounds and their TRF as they
    /// are: the name, the description, the round interval and the chat.
    ///
    /// # Errors
    /// [`TournamentError::Forbidden`] for anyone but a leader;
    /// [`TournamentError::Invalid`] for bad settings, a finished Swiss,
    /// or a change of the clock, rounds, variant, rating, start or
    /// forbidden pairs once started. Nothing is changed then.
    pub async fn edit_swiss(
        &self,
        id: &str,
        player: &str,
        new: NewSwiss,
        now: i64,
    ) -> Result<Swiss, TournamentError> {
        let swiss = self.swiss(id).await?;
        self.require_leader(swiss.club(), player).await?;
        let name = check_name(new.name.as_deref(), &swiss.row.name)?;
        let description = check_description(&new.description)?;
        let mut settings = new.settings;
        settings.forbidden = match &new.forbidden_names {
            Some(names) if names.len() > crate::swiss::MAX_FORBIDDEN => {
                return Err(TournamentError::Invalid(
                    "too many forbidden pairings".into(),
                ));
            }
            Some(names) => self.resolve_forbidden(names).await?,
            None => swiss.settings.forbidden.clone(),
        };
        match swiss.status() {
            TournamentStatus::Finished => {
                return Err(TournamentError::Invalid(
                    "the tournament is finished".into(),
                ));
            }
            TournamentStatus::Created => settings.check(now)?,
            TournamentStatus::Started => {
                let old = &swiss.settings;
                let same = settings.clock_limit == old.clock_limit
                    && settings.clock_increment == old.clock_increment
                    && settings.nb_rounds == old.nb_rounds
                    && settings.rated == old.rated
                    && settings.variant == old.variant
                    && settings.starts_at == old.starts_at
                    && settings.forbidden == old.forbidden;
                if !same {
                    return Err(TournamentError::Invalid(
                        "once started, only the name, description, round interval and chat \
                         may change: the rest would change the rounds already paired"
                            .into(),
                    ));
                }
            }
        }
        let row = TournamentRow {
            name,
            description,
            settings: to_json(&settings)?,
            starts_at: settings.starts_at,
            finishes_at: settings.starts_at.max(swiss.row.finishes_at),
            ..swiss.row.clone()
        };
        if !self
            .deps
            .store
            .edit_tournament(&row, swiss.status())
            .await?
        {
            return Err(TournamentError::Invalid(
                "the tournament changed meanwhile; try again".into(),
            ));
        }
        Ok(Swiss { row, settings })
    }

    /// A leader sets when the next round of Swiss `id` is paired (`at`,
    /// Unix ms; lichess's `schedule-next-round`). Before the start it
    /// moves the start.
    ///
    /// # Errors
    /// [`TournamentError::Forbidden`] for anyone but a leader;
    /// [`TournamentError::Invalid`] when it is finished, a round is being
    /// played, or `at` is more than a year away.
    pub async fn schedule_next_round(
        &self,
        id: &str,
        player: &str,
        at: i64,
        now: i64,
    ) -> Result<(), TournamentError> {
        let swiss = self.swiss(id).await?;
        self.require_leader(swiss.club(), player).await?;
        if at > now + crate::swiss::MAX_AHEAD_MS {
            return Err(TournamentError::Invalid(
                "date: at most a year ahead".into(),
            ));
        }
        let at = at.max(now);
        let done = match swiss.status() {
            TournamentStatus::Finished => {
                return Err(TournamentError::Invalid(
                    "the tournament is finished".into(),
                ));
            }
            TournamentStatus::Created => {
                let settings = SwissSettings {
                    starts_at: at,
                    ..swiss.settings.clone()
                };
                let row = TournamentRow {
                    settings: to_json(&settings)?,
                    starts_at: at,
                    finishes_at: at,
                    ..swiss.row.clone()
                };
                self.deps
                    .store
                    .edit_tournament(&row, TournamentStatus::Created)
                    .await?
            }
            TournamentStatus::Started => self.deps.store.schedule_swiss_round(id, at).await?,
        };
        if !done {
            return Err(TournamentError::Invalid(
                "a round is being played: the next one can be scheduled once it is over".into(),
            ));
        }
        Ok(())
    }
}

fn to_json(settings: &SwissSettings) -> Result<String, TournamentError> {
    serde_json::to_string(settings).map_err(|e| {
        TournamentError::Store(StoreError::Corrupt {
            table: "tournaments",
            detail: e.to_string(),
        })
    })
}
