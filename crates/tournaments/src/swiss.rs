//! Owns [`Swiss`], a Swiss tournament as stored (its row, its settings
//! read back) and [`SwissSettings`], what its leader chose (clock, rounds,
//! start, round interval, forbidden pairs, the club whose members play),
//! with their checks; and [`SwissState`], the tournament of
//! `plyyard-swiss` built from the stored rounds, byes and games, from
//! which the pairings, the standings and the TRF export are computed.
//!
//! Every Swiss belongs to a club: only its members join, only its leaders
//! create, edit, schedule and terminate it (lichess's team Swiss).

use std::collections::HashMap;

use plyyard_game::{GameResult, Speed, TimeControl, Variant};
use plyyard_store::{
    PairingRow, PairingStatus, StoreError, SwissRoundRow, TournamentPlayerRow, TournamentRow,
    TournamentStatus,
};
use plyyard_swiss::model::{Colour, Outcome, RoundEntry, Tournament};
use plyyard_swiss::tiebreak;
use serde::{Deserialize, Serialize};

use crate::error::TournamentError;

/// The fewest rounds (lichess's).
pub const MIN_ROUNDS: u32 = 3;
/// The most rounds.
pub const MAX_ROUNDS: u32 = 100;
/// The shortest fixed round interval, in seconds.
pub const MIN_INTERVAL_S: u32 = 5;
/// The longest fixed round interval, in seconds (one week).
pub const MAX_INTERVAL_S: u32 = 7 * 24 * 3600;
/// lichess's `roundInterval` for "the leader starts each round".
pub const MANUAL_INTERVAL: u32 = 99_999_999;
/// The most forbidden pairs.
pub const MAX_FORBIDDEN: usize = 200;
/// The largest increment, in seconds (lichess's Swiss).
pub const MAX_INCREMENT_S: u32 = 120;

/// Whether `limit` (seconds) is one of lichess's Swiss `clock.limit`
/// choices but for 0 and 15 s, which no clock here plays: 30, 45, 60, 90;
/// 120 to 420 by 60; 600 to 1800 by 300; 2400 to 10 800 by 600.
pub const fn is_clock_limit_choice(limit: u32) -> bool {
    match limit {
        30 | 45 | 60 | 90 => true,
        120..=420 => limit.is_multiple_of(60),
        600..=1800 => limit.is_multiple_of(300),
        2400..=10_800 => limit.is_multiple_of(600),
        _ => false,
    }
}

/// How far ahead a Swiss may start, in milliseconds (a year).
pub const MAX_AHEAD_MS: i64 = 366 * 24 * 3600 * 1000;

/// When the next round is paired once one is finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RoundInterval {
    /// Chosen from the clock (see [`RoundInterval::delay_s`]).
    Auto,
    /// A fixed number of seconds.
    Fixed(u32),
    /// When a leader says (`schedule-next-round`).
    Manual,
}

impl RoundInterval {
    /// The interval lichess's `roundInterval` asks for (`None`: automatic).
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] below [`MIN_INTERVAL_S`] or above
    /// [`MAX_INTERVAL_S`] (but [`MANUAL_INTERVAL`]).
    pub fn from_lichess(seconds: Option<i64>) -> Result<RoundInterval, TournamentError> {
        match seconds {
            None => Ok(RoundInterval::Auto),
            Some(s) if s == i64::from(MANUAL_INTERVAL) => Ok(RoundInterval::Manual),
            Some(s) if (i64::from(MIN_INTERVAL_S)..=i64::from(MAX_INTERVAL_S)).contains(&s) => {
                Ok(RoundInterval::Fixed(s as u32))
            }
            Some(s) => Err(TournamentError::Invalid(format!(
                "roundInterval {s}: from {MIN_INTERVAL_S} to {MAX_INTERVAL_S} seconds, \
                 or {MANUAL_INTERVAL} for rounds started by a leader"
            ))),
        }
    }

    /// Seconds between a round's end and the next round's pairing;
    /// `None` for manual rounds. Automatic: 10 s for games of up to 5
    /// minutes each (estimated: the clock plus 40 increments), 30 s up
    /// to 15 minutes, 60 s beyond.
    pub fn delay_s(self, control: TimeControl) -> Option<u32> {
        match self {
            RoundInterval::Fixed(s) => Some(s),
            RoundInterval::Manual => None,
            RoundInterval::Auto => Some(match control.estimated_secs() {
                0..=300 => 10,
                301..=900 => 30,
                _ => 60,
            }),
        }
    }

    /// lichess's `roundInterval` for it (automatic: its current value).
    pub fn lichess_seconds(self, control: TimeControl) -> u32 {
        self.delay_s(control).unwrap_or(MANUAL_INTERVAL)
    }
}

/// A Swiss's settings, stored as JSON in its row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SwissSettings {
    /// The clock's initial time, seconds (see [`is_clock_limit_choice`]).
    pub clock_limit: u32,
    /// The clock's increment, seconds (0 to [`MAX_INCREMENT_S`]).
    pub clock_increment: u32,
    /// The number of rounds.
    pub nb_rounds: u32,
    /// When round one is paired, Unix milliseconds.
    pub starts_at: i64,
    /// When later rounds are paired.
    pub round_interval: RoundInterval,
    /// Rated games.
    pub rated: bool,
    /// `standard` or `chess960`.
    pub variant: String,
    /// lichess's `chatFor` (0 nobody, 10 leaders, 20 members, 30 all).
    pub chat_for: u8,
    /// Player ids who must never be paired together.
    pub forbidden: Vec<(String, String)>,
}

impl SwissSettings {
    /// The live games' time control.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for a clock live games cannot play.
    pub fn control(&self) -> Result<TimeControl, TournamentError> {
        TimeControl::from_secs(self.clock_limit, self.clock_increment)
            .map_err(|e| TournamentError::Invalid(format!("Swiss games: {e}")))
    }

    /// Checks that the clock is one of lichess's Swiss choices.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] naming them.
    pub fn check_clock(&self) -> Result<(), TournamentError> {
        if is_clock_limit_choice(self.clock_limit) && self.clock_increment <= MAX_INCREMENT_S {
            return self.control().map(|_| ());
        }
        Err(TournamentError::Invalid(format!(
            "clock {}+{}: clock.limit is 30, 45, 60 or 90 s, 2 to 7 minutes, 10 to 30 minutes \
             by 5, or 40 to 180 minutes by 10 (in seconds: 120 to 420 by 60, 600 to 1800 by \
             300, 2400 to 10800 by 600); clock.increment 0 to {MAX_INCREMENT_S} s",
            plyyard_game::minutes_text(self.clock_limit),
            self.clock_increment
        )))
    }

    /// Checks everything but the forbidden pairs (the service resolves
    /// those) at `now`.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] saying what is wrong.
    pub fn check(&self, now: i64) -> Result<(), TournamentError> {
        self.check_clock()?;
        if !(MIN_ROUNDS..=MAX_ROUNDS).contains(&self.nb_rounds) {
            return Err(TournamentError::Invalid(format!(
                "nbRounds {}: from {MIN_ROUNDS} to {MAX_ROUNDS}",
                self.nb_rounds
            )));
        }
        self.variant.parse::<Variant>().map_err(|_| {
            TournamentError::Invalid(format!(
                "variant {:?} is not played here: standard or chess960",
                self.variant
            ))
        })?;
        if self.starts_at < now - 60_000 || self.starts_at > now + MAX_AHEAD_MS {
            return Err(TournamentError::Invalid(
                "startsAt must be from now to a year ahead".into(),
            ));
        }
        if ![0, 10, 20, 30].contains(&self.chat_for) {
            return Err(TournamentError::Invalid("chatFor: 0, 10, 20 or 30".into()));
        }
        if self.forbidden.len() > MAX_FORBIDDEN {
            return Err(TournamentError::Invalid(format!(
                "at most {MAX_FORBIDDEN} forbidden pairings"
            )));
        }
        Ok(())
    }
}

/// A Swiss as stored, with its settings read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Swiss {
    /// The stored row (`club_id` is always set).
    pub row: TournamentRow,
    /// Its settings.
    pub settings: SwissSettings,
}

impl Swiss {
    /// The Swiss of a stored row.
    ///
    /// # Errors
    /// A row that is not a Swiss or whose settings do not read.
    pub fn from_row(row: TournamentRow) -> Result<Swiss, TournamentError> {
        let corrupt = |detail: String| {
            TournamentError::Store(StoreError::Corrupt {
                table: "tournaments",
                detail,
            })
        };
        if row.kind != "swiss" {
            return Err(TournamentError::NotFound(row.id));
        }
        let settings: SwissSettings = serde_json::from_str(&row.settings)
            .map_err(|e| corrupt(format!("{}: settings: {e}", row.id)))?;
        Ok(Swiss { row, settings })
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.row.id
    }

    /// Its club.
    pub fn club(&self) -> &str {
        self.row.club_id.as_deref().unwrap_or_default()
    }

    /// Where it stands.
    pub fn status(&self) -> TournamentStatus {
        self.row.status
    }

    /// Its games' time control.
    pub fn control(&self) -> TimeControl {
        self.settings.control().unwrap_or(TimeControl::PRESET_3_2)
    }

    /// Its games' variant.
    pub fn variant(&self) -> Variant {
        self.settings.variant.parse().unwrap_or(Variant::Standard)
    }

    /// Its games' rating category.
    pub fn speed(&self) -> Speed {
        self.control().speed()
    }
}

/// One board of a round as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The game.
    pub game_id: String,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
    /// The result once finished (`*` while playing; aborted: a forfeit).
    pub result: Option<GameResult>,
    /// Plies played (who forfeited an aborted game: 0 White, 1 Black).
    pub plies: i64,
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissStanding {
    /// 1-based rank.
    pub rank: u32,
    /// Start number in the TRF.
    pub start: u32,
    /// The player.
    pub player_id: String,
    /// Their name.
    pub username: String,
    /// Their rating when they joined.
    pub rating: i64,
    /// Points in half-points.
    pub half_points: u32,
    /// Sonneborn-Berger, in quarter-points.
    pub sonneborn_berger: u32,
    /// Buchholz, in half-points.
    pub buchholz: u32,
    /// Performance (lichess's), when they played a game.
    pub performance: Option<i32>,
    /// Absent (withdrawn, or forfeited a game): not paired.
    pub absent: bool,
}

/// A Swiss's rounds rebuilt from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissState {
    /// The tournament of the finished rounds, players numbered by rating.
    pub tournament: Tournament,
    /// Player id of each start number (index `start - 1`).
    pub ids: Vec<String>,
    /// The players as stored.
    pub players: Vec<TournamentPlayerRow>,
    /// The paired rounds.
    pub rounds: Vec<SwissRoundRow>,
    /// The boards of each paired round (index `round - 1`), board order.
    pub boards: Vec<Vec<Board>>,
    /// The bye of each paired round (index `round - 1`).
    pub byes: Vec<Option<String>>,
}

fn entry_of(board: &Board, white: bool, opponent: u32) -> RoundEntry {
    let colour = if white { Colour::White } else { Colour::Black };
    let result = board.result.unwrap_or(GameResult::Aborted);
    if result == GameResult::Aborted {
        // The side to move who never moved forfeits.
        let white_idle = board.plies == 0;
        return RoundEntry::Forfeit {
            opponent,
            colour,
            won: white != white_idle,
        };
    }
    let white_outcome = match result {
        GameResult::WhiteWins => Outcome::Win,
        GameResult::BlackWins => Outcome::Loss,
        _ => Outcome::Draw,
    };
    RoundEntry::Played {
        opponent,
        colour,
        outcome: if white {
            white_outcome
        } else {
            white_outcome.reversed()
        },
    }
}

impl SwissState {
    /// Rebuilds `swiss`'s rounds: its players, paired rounds, byes and
    /// games. Only finished rounds are in [`SwissState::tournament`].
    pub fn build(
        swiss: &Swiss,
        players: Vec<TournamentPlayerRow>,
        rounds: Vec<SwissRoundRow>,
        byes: &[(i64, String)],
        games: &[PairingRow],
    ) -> SwissState {
        let entrants = players
            .iter()
            .map(|p| (p.username.clone(), crate::scoring::rating16(p.rating)))
            .collect();
        let mut t = Tournament::new(&swiss.row.name, swiss.settings.nb_rounds, entrants);
        let id_of_name: HashMap<&str, &str> = players
            .iter()
            .map(|p| (p.username.as_str(), p.player_id.as_str()))
            .collect();
        let ids: Vec<String> = t
            .players
            .iter()
            .map(|p| id_of_name[p.name.as_str()].to_owned())
            .collect();
        let start_of: HashMap<&str, u32> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i as u32 + 1))
            .collect();
        let n = rounds.len();
        let mut boards: Vec<Vec<Board>> = vec![Vec::new(); n];
        for g in games {
            let Some(list) = usize::try_from(g.round - 1)
                .ok()
                .and_then(|r| boards.get_mut(r))
            else {
                continue;
            };
            list.push(Board {
                game_id: g.game_id.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
                result: (g.status == PairingStatus::Finished)
                    .then_some(g.result)
                    .flatten(),
                plies: g.plies,
            });
        }
        let mut bye_of = vec![None; n];
        for (r, p) in byes {
            if let Some(slot) = usize::try_from(r - 1).ok().and_then(|r| bye_of.get_mut(r)) {
                *slot = Some(p.clone());
            }
        }
        let finished = rounds
            .iter()
            .take_while(|r| r.finished_at.is_some())
            .count();
        for r in 0..finished {
            let mut entries = vec![RoundEntry::Absent; ids.len()];
            for b in &boards[r] {
                let (Some(&w), Some(&bl)) = (
                    start_of.get(b.white.as_str()),
                    start_of.get(b.black.as_str()),
                ) else {
                    continue;
                };
                entries[w as usize - 1] = entry_of(b, true, bl);
                entries[bl as usize - 1] = entry_of(b, false, w);
            }
            if let Some(s) = bye_of[r].as_deref().and_then(|p| start_of.get(p)) {
                entries[*s as usize - 1] = RoundEntry::PairingBye;
            }
            for (p, e) in t.players.iter_mut().zip(entries) {
                p.rounds.push(e);
            }
        }
        t.forbidden = swiss
            .settings
            .forbidden
            .iter()
            .filter_map(|(a, b)| Some((*start_of.get(a.as_str())?, *start_of.get(b.as_str())?)))
            .collect();
        SwissState {
            tournament: t,
            ids,
            players,
            rounds,
            boards,
            byes: bye_of,
        }
    }

    /// The start number of `player`.
    pub fn start_of(&self, player: &str) -> Option<u32> {
        self.ids
            .iter()
            .position(|p| p == player)
            .map(|i| i as u32 + 1)
    }

    /// Start numbers of the players to pair next: those not withdrawn.
    pub fn present(&self) -> Vec<u32> {
        self.players
            .iter()
            .filter(|p| !p.withdrawn)
            .filter_map(|p| self.start_of(&p.player_id))
            .collect()
    }

    /// The standings: points, then Sonneborn-Berger, then performance,
    /// then start number.
    pub fn standings(&self) -> Vec<SwissStanding> {
        let t = &self.tournament;
        let mut lines: Vec<SwissStanding> = t
            .players
            .iter()
            .map(|p| {
                let id = &self.ids[p.start as usize - 1];
                let row = self.players.iter().find(|r| &r.player_id == id);
                SwissStanding {
                    rank: 0,
                    start: p.start,
                    player_id: id.clone(),
                    username: p.name.clone(),
                    rating: row.map_or(0, |r| r.rating),
                    half_points: p.half_points(),
                    sonneborn_berger: tiebreak::sonneborn_berger(t, p.start),
                    buchholz: tiebreak::buchholz(t, p.start),
                    performance: tiebreak::performance(t, p.start),
                    absent: row.is_none_or(|r| r.withdrawn),
                }
            })
            .collect();
        lines.sort_by(|a, b| {
            b.half_points
                .cmp(&a.half_points)
                .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
                .then(b.performance.cmp(&a.performance))
                .then(a.start.cmp(&b.start))
        });
        for (i, l) in lines.iter_mut().enumerate() {
            l.rank = i as u32 + 1;
        }
        lines
    }

    /// The TRF16 of the finished rounds, dated from `starts_at` (Unix ms).
    pub fn trf(&self, place: &str, starts_at: i64, ends_at: Option<i64>) -> String {
        let mut t = self.tournament.clone();
        t.place = place.to_owned();
        t.start_date = trf_date(starts_at);
        t.end_date = ends_at.map(trf_date).unwrap_or_default();
        plyyard_swiss::trf::write(&t, &[])
    }
}

/// `YYYY/MM/DD` (UTC) of Unix milliseconds.
pub fn trf_date(ms: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .map_or(time::OffsetDateTime::UNIX_EPOCH, |t| t)
        .date();
    format!(
        "{:04}/{:02}/{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trf_dates_are_utc_days_with_leading_zeros() {
        assert_eq!(trf_date(0), "1970/01/01");
        assert_eq!(trf_date(1_621_382_400_000 + 86_399_999), "2021/05/19");
        assert_eq!(trf_date(951_782_400_000), "2000/02/29");
        assert_eq!(trf_date(-1), "1969/12/31");
    }

    fn settings(clock_limit: u32, clock_increment: u32) -> SwissSettings {
        SwissSettings {
            clock_limit,
            clock_increment,
            nb_rounds: 5,
            starts_at: 1_000_000,
            round_interval: RoundInterval::Auto,
            rated: true,
            variant: "standard".into(),
            chat_for: 20,
            forbidden: Vec::new(),
        }
    }

    #[test]
    fn clocks_are_lichess_s_swiss_choices_from_half_a_minute_to_three_hours() {
        // OTB-like: 90 minutes plus 30 s a move.
        let otb = settings(5400, 30);
        otb.check(1_000_000).unwrap();
        assert_eq!(otb.control().unwrap().speed(), Speed::Classical);
        for (limit, inc) in [
            (30, 0),
            (45, 0),
            (90, 1),
            (420, 0),
            (1500, 10),
            (10_800, 120),
        ] {
            settings(limit, inc).check(1_000_000).unwrap();
        }
        assert_eq!(settings(60, 0).control().unwrap().speed(), Speed::Bullet);
        for (limit, inc) in [
            (0, 1),
            (15, 0),
            (480, 2),
            (700, 2),
            (2500, 0),
            (11_400, 0),
            (600, 121),
        ] {
            let e = settings(limit, inc).check(1_000_000).unwrap_err();
            assert!(e.to_string().contains("2400 to 10800 by 600"), "{e}");
        }
        // A clock stored before (an 8-minute Swiss) is still played as it is.
        assert_eq!(settings(480, 2).control().unwrap().base_secs(), 480);
    }

    #[test]
    fn automatic_round_intervals_follow_the_estimated_game() {
        let delay =
            |limit, inc| RoundInterval::Auto.delay_s(TimeControl::from_secs(limit, inc).unwrap());
        assert_eq!(delay(30, 0), Some(10));
        assert_eq!(delay(300, 0), Some(10));
        assert_eq!(delay(600, 5), Some(30));
        assert_eq!(delay(5400, 30), Some(60));
    }
}
