//! Challenges: one account asks another for a game on given terms; the
//! other accepts (the game starts, an ordinary table game at a private
//! table with both seats taken, with the challenge's id) or declines with
//! a reason; the challenger may cancel. Every change is announced on both
//! players' event feeds ([`plyyard_social::events`]).
//!
//! A challenge waits while its challenger is there (an open event stream
//! or page renews it, see [`Pairing::touch_challenges`]) and goes
//! `offline` a little after that ([`Pairing::expire_challenges`], run by
//! the server every few seconds).

use plyyard_game::{RuleSet, TimeControl, Variant};
use plyyard_live::Action;
use plyyard_social::events::{AccountEvent, ChallengeNews};
use plyyard_store::{ChallengeRow, ChallengeStatus, PlayerId, TableRow, TableStatus, now_ms};
use plyyard_wire::error::{ApiError, ErrorCode};
use rand::Rng;

use crate::Pairing;
use crate::tables::new_code;

/// Challenges one account may have waiting at once.
pub const MAX_WAITING: u32 = 20;
/// Challenges one account may have received and not answered at once.
pub const MAX_RECEIVED: u32 = 20;
/// Challenges one account may have waiting for one player at once.
pub const MAX_TO_ONE: u32 = 3;

/// The reasons a challenge may be declined with (lichess's keys).
pub const DECLINE_KEYS: [&str; 11] = [
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "standard",
    "variant",
    "noBot",
    "onlyBot",
];

/// How many times accepting draws a new table code when the one drawn is
/// taken.
const CODE_TRIES: usize = 5;

/// Why a challenge call was refused.
#[derive(Debug)]
pub enum ChallengeError {
    /// The request cannot be done as asked; the text says why.
    Refused(String),
    /// No such challenge for this player.
    NotFound,
    /// The challenger has [`MAX_WAITING`] challenges waiting already.
    TooManyWaiting,
    /// The player challenged has [`MAX_RECEIVED`] challenges waiting for
    /// them already.
    TooManyReceived,
    /// The challenger has [`MAX_TO_ONE`] challenges waiting for this
    /// player already.
    TooManyToThem,
    /// No table code was free for the game (try again).
    NoFreeCode,
    /// A failure of the store or the game.
    Failed(ApiError),
}

impl From<ApiError> for ChallengeError {
    fn from(e: ApiError) -> ChallengeError {
        ChallengeError::Failed(e)
    }
}

impl From<plyyard_store::StoreError> for ChallengeError {
    fn from(e: plyyard_store::StoreError) -> ChallengeError {
        ChallengeError::Failed(e.into())
    }
}

/// The colour a challenger asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskedColor {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn when the challenge is made.
    Random,
}

impl AskedColor {
    /// The stored and wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            AskedColor::White => "white",
            AskedColor::Black => "black",
            AskedColor::Random => "random",
        }
    }
}

/// What a challenge asks for, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// The clock.
    pub control: TimeControl,
    /// Standard or Chess960.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The challenger's colour.
    pub color: AskedColor,
}

/// A challenge's terms as asked (lichess's fields: seconds, a variant key,
/// a colour name), before they are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AskedTerms<'a> {
    /// `clock.limit`, seconds.
    pub limit: Option<u32>,
    /// `clock.increment`, seconds.
    pub increment: Option<u32>,
    /// `days` (correspondence, not played here).
    pub days: Option<u32>,
    /// `white`, `black` or `random` (the default).
    pub color: Option<&'a str>,
    /// `standard` (the default) or `chess960`.
    pub variant: Option<&'a str>,
    /// Rated (default casual).
    pub rated: Option<bool>,
}

/// Checks a challenge's terms against what Ply Yard plays.
///
/// # Errors
/// [`ChallengeError::Refused`] with what is wrong.
pub fn terms(asked: &AskedTerms<'_>) -> Result<Terms, ChallengeError> {
    let refuse = |s: &str| Err(ChallengeError::Refused(s.to_owned()));
    if asked.days.is_some() {
        return refuse(
            "Correspondence games are not played here: send clock.limit and clock.increment",
        );
    }
    let (Some(limit), Some(increment)) = (asked.limit, asked.increment) else {
        return refuse("A clock is required: clock.limit and clock.increment, in seconds");
    };
    let control = TimeControl::from_secs(limit, increment).map_err(|_| {
        ChallengeError::Refused(format!(
            "Ply Yard plays clocks of ½ to {} minutes: clock.limit 30, 45 or 90 s or whole \
             minutes up to {} s; clock.increment {} to {} s",
            TimeControl::MINUTES.end(),
            TimeControl::MINUTES.end() * 60,
            TimeControl::INCREMENT_SECS.start(),
            TimeControl::INCREMENT_SECS.end(),
        ))
    })?;
    let variant = match asked.variant.unwrap_or("standard") {
        "standard" => Variant::Standard,
        "chess960" => Variant::Chess960,
        other => {
            return Err(ChallengeError::Refused(format!(
                "The variant {:?} is not played here: standard or chess960",
                other.chars().take(30).collect::<String>()
            )));
        }
    };
    let color = match asked.color.unwrap_or("random") {
        "random" => AskedColor::Random,
        "white" => AskedColor::White,
        "black" => AskedColor::Black,
        _ => return refuse("color is random, white or black"),
    };
    Ok(Terms {
        control,
        variant,
        rated: asked.rated.unwrap_or(false),
        color,
    })
}

/// Whether `id` can be a challenge id (8 ASCII letters and digits).
fn well_formed(id: &str) -> bool {
    id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl Pairing {
    /// `challenger` challenges `dest` on `terms`; both hear of it.
    ///
    /// # Errors
    /// `Refused` for a challenge to oneself or to a player who blocks the
    /// challenger; `TooManyWaiting`,
    /// `TooManyReceived`, `TooManyToThem`; a database failure.
    pub async fn challenge(
        &self,
        challenger: &str,
        dest: &str,
        terms: &Terms,
    ) -> Result<ChallengeRow, ChallengeError> {
        if challenger == dest {
            return Err(ChallengeError::Refused(
                "You cannot challenge yourself".to_owned(),
            ));
        }
        if self.store.relation(dest, challenger).await? == Some(plyyard_store::RelationKind::Block)
        {
            return Err(ChallengeError::Refused(
                "This player does not accept challenges from you".to_owned(),
            ));
        }
        let final_color = match terms.color {
            AskedColor::Random if rand::rng().random_bool(0.5) => AskedColor::White,
            AskedColor::Random => AskedColor::Black,
            c => c,
        };
        let now = now_ms();
        let row = ChallengeRow {
            id: plyyard_store::replay::new_game_id(),
            challenger: challenger.to_owned(),
            dest: dest.to_owned(),
            status: ChallengeStatus::Created,
            decline_reason: None,
            variant: terms.variant,
            base_s: terms.control.base_secs(),
            increment_s: terms.control.increment_secs(),
            rated: terms.rated,
            color: terms.color.as_str().to_owned(),
            final_color: final_color.as_str().to_owned(),
            created_at: now,
            seen_at: now,
            updated_at: now,
        };
        let caps = plyyard_store::ChallengeCaps {
            per_challenger: MAX_WAITING,
            per_dest: MAX_RECEIVED,
            per_pair: MAX_TO_ONE,
        };
        match self.store.create_challenge(&row, caps).await? {
            Ok(()) => {}
            Err(plyyard_store::ChallengeCap::Challenger) => {
                return Err(ChallengeError::TooManyWaiting);
            }
            Err(plyyard_store::ChallengeCap::Dest) => return Err(ChallengeError::TooManyReceived),
            Err(plyyard_store::ChallengeCap::Pair) => return Err(ChallengeError::TooManyToThem),
        }
        tracing::info!(challenge = %row.id, "challenge created");
        self.announce(ChallengeNews::Made, &row);
        if let plyyard_store::SeatInfo::User(from) = self.store.seat_info(challenger).await? {
            let notice = plyyard_social::notify::Notice::Challenge {
                challenge: row.id.clone(),
                from,
            };
            self.social.notifications.notify(dest, notice).await;
        }
        Ok(row)
    }

    /// The challenge `id` as `player` may see it (made or received),
    /// whatever its status.
    ///
    /// # Errors
    /// `NotFound`; a database failure.
    pub async fn challenge_of(
        &self,
        id: &str,
        player: &str,
    ) -> Result<ChallengeRow, ChallengeError> {
        if !well_formed(id) {
            return Err(ChallengeError::NotFound);
        }
        let c = self
            .store
            .challenge(id)
            .await?
            .ok_or(ChallengeError::NotFound)?;
        if c.challenger != player && c.dest != player {
            return Err(ChallengeError::NotFound);
        }
        Ok(c)
    }

    /// `player`'s waiting challenges, made and received, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn waiting_challenges(&self, player: &str) -> Result<Vec<ChallengeRow>, ApiError> {
        Ok(self.store.waiting_challenges(player).await?)
    }

    /// The challenge `id` made to `player` (`as_dest`) or by them.
    async fn own(
        &self,
        id: &str,
        player: &str,
        as_dest: bool,
    ) -> Result<ChallengeRow, ChallengeError> {
        let c = self.challenge_of(id, player).await?;
        let who = if as_dest { &c.dest } else { &c.challenger };
        if who != player {
            return Err(ChallengeError::NotFound);
        }
        Ok(c)
    }

    /// `player` accepts the challenge `id` made to them: its game starts.
    ///
    /// # Errors
    /// `NotFound`; `Refused` when it no longer waits; `NoFreeCode`; a
    /// database failure.
    pub async fn accept_challenge(&self, id: &str, player: &str) -> Result<(), ChallengeError> {
        let c = self.own(id, player, true).await?;
        if c.status != ChallengeStatus::Created {
            return Err(ChallengeError::Refused(format!(
                "This challenge is {} and can no longer be accepted",
                c.status.as_str()
            )));
        }
        let (white, black) = if c.final_color == "white" {
            (c.challenger.clone(), c.dest.clone())
        } else {
            (c.dest.clone(), c.challenger.clone())
        };
        let now = now_ms();
        for _ in 0..CODE_TRIES {
            let table = TableRow {
                code: new_code(),
                host: c.challenger.clone(),
                guest: Some(c.dest.clone()),
                variant: c.variant,
                base_s: c.base_s,
                increment_s: c.increment_s,
                rules: RuleSet::PlyYard,
                rated: c.rated,
                public: false,
                status: TableStatus::Playing,
                game_id: Some(c.id.clone()),
                created_at: now,
                expires_at: now,
            };
            match self
                .live
                .start_challenge_game(&c.id, &table, white.clone(), black.clone())
                .await
            {
                Ok(Some(_)) => {
                    tracing::info!(challenge = %c.id, "challenge accepted");
                    return Ok(());
                }
                Ok(None) => {
                    return Err(ChallengeError::Refused(
                        "This challenge can no longer be accepted".to_owned(),
                    ));
                }
                Err(e) if e.code == ErrorCode::Conflict => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ChallengeError::NoFreeCode)
    }

    /// `player` declines the challenge `id` made to them, for `reason`
    /// (one of [`DECLINE_KEYS`], any case; default `generic`).
    ///
    /// # Errors
    /// `Refused` for an unknown reason; `NotFound`; a database failure.
    pub async fn decline_challenge(
        &self,
        id: &str,
        player: &str,
        reason: Option<&str>,
    ) -> Result<(), ChallengeError> {
        let asked = reason.unwrap_or("generic");
        let Some(key) = DECLINE_KEYS.iter().find(|k| k.eq_ignore_ascii_case(asked)) else {
            return Err(ChallengeError::Refused(format!(
                "reason is one of {}",
                DECLINE_KEYS.join(", ")
            )));
        };
        self.own(id, player, true).await?;
        let settled = self
            .store
            .settle_challenge(id, ChallengeStatus::Declined, Some(key), now_ms())
            .await?
            .ok_or(ChallengeError::NotFound)?;
        self.announce(ChallengeNews::Declined, &settled);
        Ok(())
    }

    /// `player` withdraws the challenge `id` they made; an accepted
    /// challenge whose game has not begun is aborted.
    ///
    /// # Errors
    /// `NotFound`; the game's refusal to abort; a database failure.
    pub async fn cancel_challenge(&self, id: &str, player: &str) -> Result<(), ChallengeError> {
        let c = self.own(id, player, false).await?;
        if c.status == ChallengeStatus::Accepted {
            let player = PlayerId(player.to_owned());
            self.live.act(&c.id, player, Action::Abort).await?;
            return Ok(());
        }
        let settled = self
            .store
            .settle_challenge(id, ChallengeStatus::Canceled, None, now_ms())
            .await?
            .ok_or(ChallengeError::NotFound)?;
        self.announce(ChallengeNews::Canceled, &settled);
        Ok(())
    }

    /// Tells the players of challenges cancelled because an account was
    /// deleted (the store cancelled them with the account).
    pub fn canceled_with_account(&self, canceled: &[ChallengeRow]) {
        for c in canceled {
            self.announce(ChallengeNews::Canceled, c);
        }
    }

    /// Keeps `challenger`'s waiting challenges alive (they are there).
    pub async fn touch_challenges(&self, challenger: &str) {
        if let Err(e) = self.store.touch_challenges(challenger, now_ms()).await {
            tracing::warn!("cannot renew challenges: {e}");
        }
    }

    /// Marks offline the challenges whose challenger was last seen more
    /// than `ttl` ago, and tells both players.
    pub async fn expire_challenges(&self, ttl: std::time::Duration) {
        let now = now_ms();
        let ttl = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
        match self
            .store
            .expire_challenges(now.saturating_sub(ttl), now)
            .await
        {
            Ok(expired) => {
                for c in expired {
                    self.announce(ChallengeNews::Canceled, &c);
                }
            }
            Err(e) => tracing::warn!("cannot expire challenges: {e}"),
        }
    }

    /// Tells both players of `c` what became of it.
    fn announce(&self, news: ChallengeNews, c: &ChallengeRow) {
        let event = AccountEvent::Challenge {
            news,
            challenge: c.clone(),
        };
        for player in [&c.challenger, &c.dest] {
            self.social.events.send(player, event.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(limit: Option<u32>, increment: Option<u32>) -> AskedTerms<'static> {
        AskedTerms {
            limit,
            increment,
            ..AskedTerms::default()
        }
    }

    #[test]
    fn terms_are_the_clocks_played_here() {
        let t = terms(&asked(Some(300), Some(3))).unwrap();
        assert_eq!(t.control, TimeControl::table(5, 3).unwrap());
        assert_eq!(
            (t.variant, t.rated, t.color),
            (Variant::Standard, false, AskedColor::Random)
        );
        let t = terms(&AskedTerms {
            color: Some("black"),
            variant: Some("chess960"),
            rated: Some(true),
            ..asked(Some(180), Some(2))
        })
        .unwrap();
        assert_eq!(
            (t.variant, t.rated, t.color),
            (Variant::Chess960, true, AskedColor::Black)
        );
        // Custom clocks from ½ to 180 minutes, increments 0 to 180 s.
        for (limit, inc) in [(30, 0), (45, 0), (60, 0), (90, 1), (120, 1), (10_800, 180)] {
            let t = terms(&asked(Some(limit), Some(inc))).unwrap();
            assert_eq!(
                (t.control.base_secs(), t.control.increment_secs()),
                (limit, inc)
            );
        }
        let refused = terms(&asked(Some(15), Some(0))).unwrap_err();
        assert!(
            matches!(&refused, ChallengeError::Refused(why) if why.contains("up to 10800 s")),
            "{refused:?}"
        );
        for bad in [
            asked(Some(0), Some(0)),
            asked(Some(15), Some(0)),
            asked(Some(330), Some(3)),
            asked(Some(10_860), Some(0)),
            asked(Some(60), Some(181)),
            AskedTerms {
                days: Some(2),
                ..asked(Some(300), Some(3))
            },
            asked(None, None),
            AskedTerms {
                color: Some("green"),
                ..asked(Some(300), Some(3))
            },
            AskedTerms {
                variant: Some("atomic"),
                ..asked(Some(300), Some(3))
            },
        ] {
            assert!(
                matches!(terms(&bad), Err(ChallengeError::Refused(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn decline_keys_are_lichess_keys_and_ids_are_checked() {
        assert_eq!(DECLINE_KEYS[0], "generic");
        assert!(DECLINE_KEYS.contains(&"onlyBot"));
        assert!(well_formed("Ab3dEf9h"));
        assert!(!well_formed("Ab3dEf9"));
        assert!(!well_formed("Ab3dEf9-"));
    }
}
