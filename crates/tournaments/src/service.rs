//! Owns [`Tournaments`], the door: creating an Arena, joining it (its
//! conditions, club membership, once, up to [`MAX_PLAYERS`]), pausing and
//! rejoining (lichess's pause penalties), terminating it (its creator),
//! and reading it back (the Arena, its standings, its games, the lists).
//! The director's tick is in [`crate::director`].

use std::sync::Arc;
use std::time::Duration;

use plyyard_arena::{Entrant, Pauses, Timestamp};
use plyyard_clubs::Clubs;
use plyyard_live::Games;
use plyyard_social::Presence;
use plyyard_store::{JoinResult, PairingRow, Store, StoreError, TournamentRow, TournamentStatus};

use crate::arena::{self, Arena, NewArena};
use crate::error::TournamentError;
use crate::scoring::{PlayerStanding, standings_of};

/// The most players one Arena takes.
pub const MAX_PLAYERS: i64 = 10_000;
/// The most Arenas one account creates in [`CREATION_WINDOW`].
pub const MAX_CREATED: i64 = 24;
/// The window of [`MAX_CREATED`].
pub const CREATION_WINDOW: Duration = Duration::from_secs(24 * 3600);
/// Arenas in each of the lists (created, started, finished).
pub const LIST_LIMIT: u32 = 50;
/// How many fresh ids are tried for a new Arena.
const ID_TRIES: u32 = 5;

/// What the tournaments need from the rest of the node.
#[derive(Debug, Clone)]
pub struct TournamentsDeps {
    /// Storage: tournaments, players, pairings, ratings.
    pub store: Store,
    /// Live games: every Arena game is one.
    pub live: Games,
    /// Clubs, for club Arenas.
    pub clubs: Clubs,
    /// Who is online: only they are paired.
    pub presence: Arc<Presence>,
    /// The bell: tournaments starting soon, Swiss rounds paired, wins.
    pub notifications: plyyard_social::notify::Notifications,
    /// This node's tournament feeds, nudged when games are scored.
    pub feeds: Arc<crate::feed::Feeds>,
}

/// The Arenas of one site; cheap to clone.
#[derive(Debug, Clone)]
pub struct Tournaments {
    pub(crate) deps: TournamentsDeps,
}

/// The lists of Arenas lichess's `GET /api/tournament` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lists {
    /// Not started yet, the soonest first.
    pub created: Vec<Arena>,
    /// Running, the earliest start first.
    pub started: Vec<Arena>,
    /// Over, the latest start first.
    pub finished: Vec<Arena>,
}

/// The pause record of a player who paused at `pauses` (Unix ms, oldest
/// first).
pub(crate) fn pauses_of(pauses: &[i64]) -> Option<Pauses> {
    pauses.iter().fold(None, |before, &at| {
        Some(Pauses::after_pause(before, Timestamp::from_millis(at)))
    })
}

impl Tournaments {
    /// The Arenas over `deps`.
    pub fn new(deps: TournamentsDeps) -> Tournaments {
        Tournaments { deps }
    }

    /// Creates an Arena by `creator` (player id; `creator_name` names it
    /// when the request does not) at `now`.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for bad settings (each says why: longer
    /// than 24 h, a clock tables cannot play, a start in the past …), a
    /// club that does not exist, or too many Arenas created lately;
    /// [`TournamentError::Forbidden`] for a club Arena by someone who does
    /// not lead the club; a store failure. Nothing is stored then.
    pub async fn create(
        &self,
        creator: &str,
        creator_name: &str,
        new: NewArena,
        now: Timestamp,
    ) -> Result<Arena, TournamentError> {
        let name = arena::check_name(new.name.as_deref(), creator_name)?;
        let description = arena::check_description(&new.description)?;
        let settings_json = serde_json::to_string(&new.draft).map_err(|e| {
            TournamentError::Store(StoreError::Corrupt {
                table: "tournaments",
                detail: e.to_string(),
            })
        })?;
        let settings = new
            .draft
            .validate(now)
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        arena::check_clock_choice(&settings)?;
        arena::control_of(&settings)?;
        arena::check_variant(&settings)?;
        let club = settings.conditions().team().map(str::to_owned);
        if let Some(club) = &club {
            if self.deps.store.club(club).await?.is_none() {
                return Err(TournamentError::Invalid(format!("no club {club}")));
            }
            let leads = self
                .deps
                .clubs
                .is_leader(club, creator)
                .await
                .map_err(|e| TournamentError::Invalid(e.to_string()))?;
            if !leads {
                return Err(TournamentError::Forbidden(format!(
                    "only a leader of {club} may create an Arena for its members"
                )));
            }
        }
        let window = i64::try_from(CREATION_WINDOW.as_millis()).unwrap_or(i64::MAX);
        let lately = self
            .deps
            .store
            .tournaments_created_since(creator, now.millis().saturating_sub(window))
            .await?;
        if lately >= MAX_CREATED {
            return Err(TournamentError::Invalid(format!(
                "you created {lately} tournaments in the last 24 hours; at most {MAX_CREATED}"
            )));
        }
        let mut row = TournamentRow {
            id: arena::new_id(),
            kind: "arena".into(),
            name,
            description,
            created_by: creator.to_owned(),
            club_id: club,
            settings: settings_json,
            status: TournamentStatus::Created,
            starts_at: settings.starts_at().millis(),
            finishes_at: settings.ends_at().millis(),
            nb_players: 0,
            created_at: now.millis(),
        };
        for attempt in 1..=ID_TRIES {
            match self.deps.store.create_tournament(&row).await {
                Ok(()) => break,
                Err(StoreError::Taken(_)) if attempt < ID_TRIES => row.id = arena::new_id(),
                Err(e) => return Err(e.into()),
            }
        }
        tracing::info!(tournament = %row.id, by = %creator, "arena created");
        Ok(Arena { row, settings })
    }

    /// The Arena `id`.
    ///
    /// # Errors
    /// [`TournamentError::NotFound`] (a Swiss's id too); a store failure.
    pub async fn get(&self, id: &str) -> Result<Arena, TournamentError> {
        if !arena::well_formed(id) {
            return Err(TournamentError::NotFound(id.chars().take(16).collect()));
        }
        let row = self
            .deps
            .store
            .tournament(id)
            .await?
            .ok_or_else(|| TournamentError::NotFound(id.to_owned()))?;
        if row.kind != "arena" {
            return Err(TournamentError::NotFound(id.to_owned()));
        }
        Arena::from_row(row)
    }

    /// The standings of `arena`, leader first.
    ///
    /// # Errors
    /// A store failure.
    pub async fn standings(&self, arena: &Arena) -> Result<Vec<PlayerStanding>, TournamentError> {
        let players = self.deps.store.tournament_players(arena.id()).await?;
        let pairings = self.deps.store.tournament_pairings(arena.id()).await?;
        Ok(standings_of(
            &players,
            &pairings,
            arena.settings.streakable(),
        ))
    }

    /// The games of Arena `id`, the oldest first.
    ///
    /// # Errors
    /// A store failure.
    pub async fn games(&self, id: &str) -> Result<Vec<PairingRow>, TournamentError> {
        Ok(self.deps.store.tournament_pairings(id).await?)
    }

    /// The Arena whose game `game_id` is, with the game's pairing.
    ///
    /// # Errors
    /// A store failure.
    pub async fn of_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(Arena, PairingRow)>, TournamentError> {
        let Some(pairing) = self.deps.store.tournament_pairing(game_id).await? else {
            return Ok(None);
        };
        let arena = self.get(&pairing.tournament_id).await?;
        Ok(Some((arena, pairing)))
    }

    /// The game of Arena `id` that `player` is playing now, if any (the
    /// latest one paired).
    ///
    /// # Errors
    /// A store failure.
    pub async fn playing(&self, id: &str, player: &str) -> Result<Option<String>, TournamentError> {
        let pairings = self.deps.store.tournament_pairings(id).await?;
        Ok(pairings
            .into_iter()
            .rev()
            .find(|p| {
                p.status == plyyard_store::PairingStatus::Playing
                    && (p.white == player || p.black == player)
            })
            .map(|p| p.game_id))
    }

    /// The created, started and finished Arenas.
    ///
    /// # Errors
    /// A store failure.
    pub async fn lists(&self) -> Result<Lists, TournamentError> {
        let list = |status, newest_first| async move {
            let rows = self
                .deps
                .store
                .tournaments_with_status("arena", status, newest_first, LIST_LIMIT)
                .await?;
            rows.into_iter()
                .map(Arena::from_row)
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Lists {
            created: list(TournamentStatus::Created, false).await?,
            started: list(TournamentStatus::Started, false).await?,
            finished: list(TournamentStatus::Finished, true).await?,
        })
    }

    /// Club `club`'s Arenas, the latest start first, at most `limit`.
    ///
    /// # Errors
    /// A store failure.
    pub async fn club_arenas(&self, club: &str, limit: u32) -> Result<Vec<Arena>, TournamentError> {
        let rows = self
            .deps
            .store
            .club_tournaments("arena", club, limit)
            .await?;
        rows.into_iter().map(Arena::from_row).collect()
    }

    /// `player` joins Arena `id` (or comes back after a pause), with the
    /// `password` they typed.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] when the Arena is finished, the player
    /// is in it already, fails a condition (not a member of its club, the
    /// wrong password, a rating out of range …), paused too recently, or
    /// the Arena is full; [`TournamentError::NotFound`]; a store failure.
    /// Nothing is changed then.
    pub async fn join(
        &self,
        id: &str,
        player: &str,
        password: Option<&str>,
        now: Timestamp,
    ) -> Result<(), TournamentError> {
        let arena = self.get(id).await?;
        if arena.status() == TournamentStatus::Finished {
            return Err(TournamentError::Invalid(
                "the tournament is finished".into(),
            ));
        }
        let store = &self.deps.store;
        if let Some(me) = store.tournament_player(id, player).await? {
            if !me.withdrawn {
                return Err(TournamentError::Invalid(
                    "you are in this tournament already".into(),
                ));
            }
            if let Some(p) = pauses_of(&me.pauses) {
                p.rejoin(arena.settings.clock(), now)
                    .map_err(|e| TournamentError::Invalid(e.to_string()))?;
            }
        }
        let rating = store.rating(player, arena.speed()).await?;
        let shown = plyyard_rating::display(rating.glicko.rating);
        let conditions = arena.settings.conditions();
        let in_team = match conditions.team() {
            Some(club) => self
                .deps
                .clubs
                .is_member(club, player)
                .await
                .map_err(|e| TournamentError::Invalid(e.to_string()))?,
            None => true,
        };
        conditions
            .admit(&Entrant {
                rating: crate::scoring::rating16(shown),
                rated_games: rating.games,
                in_team,
                password,
            })
            .map_err(|e| TournamentError::Invalid(e.to_string()))?;
        let joined = store
            .join_tournament(id, player, shown, MAX_PLAYERS, now.millis())
            .await?;
        admitted(joined, MAX_PLAYERS)?;
        tracing::info!(tournament = %id, %player, "joined");
        Ok(())
    }

    /// `player` pauses (withdraws from) Arena `id`: not paired until they
    /// join again, which their pauses delay (lichess's penalty). A game
    /// they are playing goes on and counts.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] when the Arena is finished or they are
    /// not playing in it; [`TournamentError::NotFound`]; a store failure.
    pub async fn withdraw(
        &self,
        id: &str,
        player: &str,
        now: Timestamp,
    ) -> Result<(), TournamentError> {
        let arena = self.get(id).await?;
        if arena.status() == TournamentStatus::Finished {
            return Err(TournamentError::Invalid(
                "the tournament is finished".into(),
            ));
        }
        if !self
            .deps
            .store
            .withdraw_from_tournament(id, player, now.millis())
            .await?
        {
            return Err(TournamentError::Invalid(
                "you are not playing in this tournament".into(),
            ));
        }
        tracing::info!(tournament = %id, %player, "withdrew");
        Ok(())
    }

    /// Arena `id`'s creator ends it now: no more games are paired; games
    /// being played finish normally and still count.
    ///
    /// # Errors
    /// [`TournamentError::Forbidden`] for anyone but its creator;
    /// [`TournamentError::Invalid`] when it is finished already;
    /// [`TournamentError::NotFound`]; a store failure.
    pub async fn terminate(
        &self,
        id: &str,
        player: &str,
        now: Timestamp,
    ) -> Result<(), TournamentError> {
        for _ in 0..3 {
            let arena = self.get(id).await?;
            if arena.row.created_by != player {
                return Err(TournamentError::Forbidden(
                    "only the tournament's creator may terminate it".into(),
                ));
            }
            let from = arena.status();
            if from == TournamentStatus::Finished {
                return Err(TournamentError::Invalid(
                    "the tournament is finished already".into(),
                ));
            }
            let at = now.millis().min(arena.row.finishes_at);
            if self
                .deps
                .store
                .set_tournament_status(id, from, TournamentStatus::Finished, Some(at))
                .await?
            {
                tracing::info!(tournament = %id, "terminated by its creator");
                return Ok(());
            }
        }
        Err(TournamentError::Invalid(
            "the tournament changed meanwhile; try again".into(),
        ))
    }
}

/// What a stored join answered, as the player is told: `Ok` when they are
/// in (joined or back), else why not (`max`: the event's bound).
pub(crate) fn admitted(joined: JoinResult, max: i64) -> Result<(), TournamentError> {
    match joined {
        JoinResult::Joined | JoinResult::Rejoined => Ok(()),
        JoinResult::AlreadyIn => Err(TournamentError::Invalid(
            "you are in this tournament already".into(),
        )),
        JoinResult::Full => Err(TournamentError::Invalid(format!(
            "the tournament is full ({max} players)"
        ))),
        JoinResult::Closed => Err(TournamentError::Invalid(
            "the tournament is finished".into(),
        )),
    }
}

impl Tournaments {
    /// Tournament `id`'s [`plyyard_store::FeedMark`], `None` when there is none.
    ///
    /// # Errors
    /// A store failure.
    pub async fn feed_mark(
        &self,
        id: &str,
    ) -> Result<Option<plyyard_store::FeedMark>, TournamentError> {
        Ok(self.deps.store.tournament_feed_mark(id).await?)
    }
}
