//! [`Clubs`]: every club action with its checks, over the store.
//!
//! Who may do what: anyone with an account creates a club (and leads it);
//! anyone joins an open club, or asks to join a closed one with a
//! message; a member quits, unless they are the club's only leader;
//! leaders accept and decline requests, kick members who do not lead,
//! make members leaders and edit the club. Members say things in the
//! club's chat. Targets are named by player id: the caller resolves
//! names.

use plyyard_store::{
    ChatLineRow, ClubMember, ClubRequestRow, ClubRow, NewClub, Removal, Store, StoreError,
};

use crate::error::ClubError;
use crate::rules;

/// Clubs in one page of a list (lichess's `maxPerPage` for teams).
pub const PAGE_SIZE: u32 = 15;
/// Lines of a club's chat kept and shown.
pub const CHAT_HISTORY: u32 = 100;
/// The chat room a club's lines are stored under.
const CHAT_ROOM: &str = "club";
/// How many ids `name-2`, `name-3` … are tried for a new club.
const ID_TRIES: u32 = 20;

/// A club as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubView {
    /// The club.
    pub club: ClubRow,
    /// Its leaders, longest-standing first.
    pub leaders: Vec<ClubMember>,
    /// The viewer is a member.
    pub joined: bool,
    /// The viewer leads it.
    pub leads: bool,
    /// The viewer's request is pending.
    pub requested: bool,
}

/// What joining did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// The player is a member (an open club).
    Member,
    /// The request went to the leaders (a closed club).
    Requested,
}

/// One page of a list of clubs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubPage {
    /// The page's number, from 1.
    pub page: u64,
    /// Its clubs with their leaders.
    pub clubs: Vec<(ClubRow, Vec<ClubMember>)>,
    /// How many clubs the whole list has.
    pub total: u64,
}

/// The clubs of one site.
#[derive(Debug, Clone)]
pub struct Clubs {
    store: Store,
}

impl Clubs {
    /// The clubs kept in `store`.
    pub fn new(store: Store) -> Clubs {
        Clubs { store }
    }

    /// Creates a club led by `leader`, its id made from its name.
    ///
    /// # Errors
    /// [`ClubError::Invalid`] for a bad name or description, or when no
    /// free id is left for the name; a store failure.
    pub async fn create(
        &self,
        leader: &str,
        name: &str,
        description: &str,
        open: bool,
        now: i64,
    ) -> Result<ClubRow, ClubError> {
        let name = rules::check_name(name)?;
        let description = rules::check_description(description)?;
        let base = rules::make_id(&name).unwrap_or_default();
        for n in 1..=ID_TRIES {
            let id = rules::candidate_id(&base, n);
            if rules::reserved(&id) {
                continue;
            }
            let new = NewClub {
                id: &id,
                name: &name,
                description: &description,
                open,
                leader,
                now,
            };
            match self.store.create_club(&new).await {
                Ok(()) => return self.club(&id).await,
                Err(StoreError::Taken(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Err(ClubError::Invalid(format!(
            "too many clubs are named like {name:?}: choose another name"
        )))
    }

    /// The club `id`.
    ///
    /// # Errors
    /// [`ClubError::NotFound`]; a store failure.
    pub async fn club(&self, id: &str) -> Result<ClubRow, ClubError> {
        if !rules::plausible_id(id) {
            return Err(ClubError::NotFound);
        }
        self.store.club(id).await?.ok_or(ClubError::NotFound)
    }

    /// The club `id` as `viewer` (a player id, or nobody) sees it.
    ///
    /// # Errors
    /// [`ClubError::NotFound`]; a store failure.
    pub async fn view(&self, id: &str, viewer: Option<&str>) -> Result<ClubView, ClubError> {
        let club = self.club(id).await?;
        let leaders = self.store.club_leaders(id).await?;
        let (mut joined, mut leads, mut requested) = (false, false, false);
        if let Some(v) = viewer {
            if let Some(m) = self.store.club_member(id, v).await? {
                joined = true;
                leads = m.leader;
            } else if let Some(r) = self.store.club_request(id, v).await? {
                requested = !r.declined;
            }
        }
        Ok(ClubView {
            club,
            leaders,
            joined,
            leads,
            requested,
        })
    }

    /// Whether `player` is a member of club `id`.
    ///
    /// # Errors
    /// A store failure.
    pub async fn is_member(&self, id: &str, player: &str) -> Result<bool, ClubError> {
        Ok(self.store.club_member(id, player).await?.is_some())
    }

    /// Whether `player` leads club `id`.
    ///
    /// # Errors
    /// A store failure.
    pub async fn is_leader(&self, id: &str, player: &str) -> Result<bool, ClubError> {
        Ok(self
            .store
            .club_member(id, player)
            .await?
            .is_some_and(|m| m.leader))
    }

    /// `player` joins club `id`: at once when it is open, by a request
    /// with `message` when it is closed.
    ///
    /// # Errors
    /// [`ClubError::AlreadyMember`], [`ClubError::AlreadyRequested`],
    /// [`ClubError::MessageNeeded`] (a closed club without a message),
    /// [`ClubError::NotFound`]; a store failure.
    pub async fn join(
        &self,
        id: &str,
        player: &str,
        message: Option<&str>,
        now: i64,
    ) -> Result<Joined, ClubError> {
        let club = self.club(id).await?;
        if self.store.club_member(id, player).await?.is_some() {
            return Err(ClubError::AlreadyMember);
        }
        if club.open {
            return if self.store.add_club_member(id, player, now).await? {
                Ok(Joined::Member)
            } else {
                Err(ClubError::AlreadyMember)
            };
        }
        let message = rules::check_message(message.unwrap_or(""))?;
        match self.store.add_club_request(id, player, &message, now).await {
            Ok(()) => Ok(Joined::Requested),
            Err(StoreError::Taken(_)) => Err(ClubError::AlreadyRequested),
            Err(e) => Err(e.into()),
        }
    }

    /// `player` leaves club `id`.
    ///
    /// # Errors
    /// [`ClubError::NotMember`], [`ClubError::OnlyLeader`],
    /// [`ClubError::NotFound`]; a store failure.
    pub async fn quit(&self, id: &str, player: &str, name: &str) -> Result<(), ClubError> {
        self.club(id).await?;
        match self.store.remove_club_member(id, player).await? {
            Removal::Removed => Ok(()),
            Removal::NotMember => Err(ClubError::NotMember(name.to_owned())),
            Removal::OnlyLeader => Err(ClubError::OnlyLeader),
        }
    }

    /// Passes when `leader` leads club `id`.
    async fn require_leader(&self, id: &str, leader: &str) -> Result<ClubRow, ClubError> {
        let club = self.club(id).await?;
        if !self.is_leader(id, leader).await? {
            return Err(ClubError::NotLeader);
        }
        Ok(club)
    }

    /// Leader `leader` kicks member `target` (named `name`) out of club `id`.
    ///
    /// # Errors
    /// [`ClubError::NotLeader`], [`ClubError::NotMember`],
    /// [`ClubError::KickLeader`]; a store failure.
    pub async fn kick(
        &self,
        id: &str,
        leader: &str,
        target: &str,
        name: &str,
    ) -> Result<(), ClubError> {
        self.require_leader(id, leader).await?;
        match self.store.club_member(id, target).await? {
            None => Err(ClubError::NotMember(name.to_owned())),
            Some(m) if m.leader => Err(ClubError::KickLeader),
            Some(_) => match self.store.remove_club_member(id, target).await? {
                Removal::Removed => Ok(()),
                Removal::NotMember => Err(ClubError::NotMember(name.to_owned())),
                Removal::OnlyLeader => Err(ClubError::KickLeader),
            },
        }
    }

    /// Leader `leader` makes member `target` a leader, or (`lead` false)
    /// takes their lead away; a leader may also step down this way while
    /// another leads.
    ///
    /// # Errors
    /// [`ClubError::NotLeader`], [`ClubError::NotMember`],
    /// [`ClubError::OnlyLeader`]; a store failure.
    pub async fn set_leader(
        &self,
        id: &str,
        leader: &str,
        target: &str,
        name: &str,
        lead: bool,
    ) -> Result<(), ClubError> {
        self.require_leader(id, leader).await?;
        if self.store.club_member(id, target).await?.is_none() {
            return Err(ClubError::NotMember(name.to_owned()));
        }
        if self.store.set_club_leader(id, target, lead).await? {
            Ok(())
        } else {
            Err(ClubError::OnlyLeader)
        }
    }

    /// Leader `leader` changes the description and openness of club `id`.
    ///
    /// # Errors
    /// [`ClubError::NotLeader`], [`ClubError::Invalid`]; a store failure.
    pub async fn edit(
        &self,
        id: &str,
        leader: &str,
        description: &str,
        open: bool,
    ) -> Result<ClubRow, ClubError> {
        self.require_leader(id, leader).await?;
        let description = rules::check_description(description)?;
        self.store.update_club(id, &description, open).await?;
        self.club(id).await
    }

    /// The pending (or `declined`) requests to join club `id`, for its
    /// leader `leader`.
    ///
    /// # Errors
    /// [`ClubError::NotLeader`]; a store failure.
    pub async fn requests(
        &self,
        id: &str,
        leader: &str,
        declined: bool,
        limit: u32,
    ) -> Result<Vec<ClubRequestRow>, ClubError> {
        self.require_leader(id, leader).await?;
        Ok(self.store.club_requests(id, declined, limit).await?)
    }

    /// Leader `leader` accepts (or declines) the pending request of
    /// `target`.
    ///
    /// # Errors
    /// [`ClubError::NotLeader`], [`ClubError::NoRequest`]; a store failure.
    pub async fn answer_request(
        &self,
        id: &str,
        leader: &str,
        target: &str,
        name: &str,
        accept: bool,
        now: i64,
    ) -> Result<(), ClubError> {
        self.require_leader(id, leader).await?;
        let done = if accept {
            self.store.accept_club_request(id, target, now).await?
        } else {
            self.store.decline_club_request(id, target).await?
        };
        if done {
            Ok(())
        } else {
            Err(ClubError::NoRequest(name.to_owned()))
        }
    }

    /// Club `id`'s members, the latest to join first, at most `limit`.
    ///
    /// # Errors
    /// [`ClubError::NotFound`]; a store failure.
    pub async fn members(&self, id: &str, limit: u32) -> Result<Vec<ClubMember>, ClubError> {
        self.club(id).await?;
        Ok(self.store.club_members(id, limit).await?)
    }

    /// The clubs `player` is a member of, each with its leaders.
    ///
    /// # Errors
    /// A store failure.
    pub async fn of_player(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<(ClubRow, Vec<ClubMember>)>, ClubError> {
        let clubs = self.store.clubs_of(player, limit).await?;
        self.with_leaders(clubs).await
    }

    /// Page `page` (from 1) of the clubs whose name contains `text`
    /// (`None`: all of them), the largest first.
    ///
    /// # Errors
    /// A store failure.
    pub async fn page(&self, text: Option<&str>, page: u64) -> Result<ClubPage, ClubError> {
        let page = page.max(1);
        let offset = (page - 1).saturating_mul(u64::from(PAGE_SIZE));
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        let (clubs, total) = self.store.clubs_page(text, offset, PAGE_SIZE).await?;
        Ok(ClubPage {
            page,
            clubs: self.with_leaders(clubs).await?,
            total,
        })
    }

    async fn with_leaders(
        &self,
        clubs: Vec<ClubRow>,
    ) -> Result<Vec<(ClubRow, Vec<ClubMember>)>, ClubError> {
        let mut out = Vec::with_capacity(clubs.len());
        for c in clubs {
            let leaders = self.store.club_leaders(&c.id).await?;
            out.push((c, leaders));
        }
        Ok(out)
    }

    /// Member `player` (named `name`) says `text` in club `id`'s chat.
    ///
    /// # Errors
    /// [`ClubError::NotMember`], [`ClubError::Invalid`] for a bad line; a
    /// store failure.
    pub async fn say(
        &self,
        id: &str,
        player: &str,
        name: &str,
        text: &str,
        now: i64,
    ) -> Result<ChatLineRow, ClubError> {
        self.club(id).await?;
        if !self.is_member(id, player).await? {
            return Err(ClubError::NotMember(name.to_owned()));
        }
        let text =
            plyyard_social::chat::check_text(text).map_err(|e| ClubError::Invalid(e.message))?;
        let line = ChatLineRow {
            game_id: id.to_owned(),
            room: CHAT_ROOM.to_owned(),
            author: player.to_owned(),
            author_name: name.to_owned(),
            text,
            created_at: now,
        };
        self.store.add_chat_line(&line).await?;
        Ok(line)
    }

    /// The last lines of club `id`'s chat, oldest first, for member
    /// `player` (named `name`).
    ///
    /// # Errors
    /// [`ClubError::NotMember`]; a store failure.
    pub async fn chat(
        &self,
        id: &str,
        player: &str,
        name: &str,
    ) -> Result<Vec<ChatLineRow>, ClubError> {
        self.club(id).await?;
        if !self.is_member(id, player).await? {
            return Err(ClubError::NotMember(name.to_owned()));
        }
        // A muted member reads their own lines; nobody else does.
        Ok(self
            .store
            .chat_lines_for(id, CHAT_ROOM, CHAT_HISTORY, Some(player))
            .await?)
    }
}
