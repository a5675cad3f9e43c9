//! Owns [`Sheet`]: a player's Arena games in order, each one's points, the
//! total, and whether the player is on fire — lichess's scoring
//! (`ArenaSheet`), rule for rule:
//!
//! - a win is 2, a draw 1, a loss 0;
//! - after two wins in a row the player is on fire (if the Arena is
//!   streakable): a win is 4 and a draw 2, until a game is not won;
//! - a draw in fewer than [`QUICK_DRAW_PLIES`] plies is 0, and breaks fire;
//! - a draw whose previous non-lost game was a draw is 0 unless it lasted
//!   [`LONG_GAME_PLIES`] plies or more (losses in between do not count);
//! - a berserk win of at least [`BERSERK_MIN_PLIES`] plies gets 1 more.
//!
//! The JSON [`SheetJson`] is lichess's `sheet` of
//! `/api/tournament/{id}/results`: `scores`, each game's points as one digit,
//! most recent first, and `fire: true` while on fire.

use crate::game::{ArenaGame, Outcome};
use serde::Serialize;

/// A draw in fewer plies than this scores 0 (lichess's `quickDraw`).
pub const QUICK_DRAW_PLIES: u16 = 20;
/// A draw right after a draw scores unless it has this many plies.
pub const LONG_GAME_PLIES: u16 = 60;
/// A berserk win earns its bonus point from this many plies on.
pub const BERSERK_MIN_PLIES: u16 = 14;

/// Why a game scored what it did, beyond its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Mark {
    /// Scored as its result says.
    Plain,
    /// A win that starts a streak: the first or second of two wins in a row,
    /// or the latest win, which may yet start one.
    StreakStarter,
    /// Played on fire: points doubled.
    OnFire,
    /// A draw in fewer than [`QUICK_DRAW_PLIES`] plies: 0.
    QuickDraw,
    /// A draw after a draw, shorter than [`LONG_GAME_PLIES`]: 0.
    DrawStreak,
}

/// What berserk did to one game's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BerserkMark {
    /// The player did not berserk.
    None,
    /// Berserked and won in at least [`BERSERK_MIN_PLIES`] plies: +1.
    Bonus,
    /// Berserked without earning the bonus.
    NoBonus,
}

/// One game's line on the sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GameScore {
    /// How the game ended for the player.
    pub outcome: Outcome,
    /// Why it scored what it did.
    pub mark: Mark,
    /// Berserk's part.
    pub berserk: BerserkMark,
    /// The points it earned (0..=5).
    pub points: u8,
}

/// A player's games and points, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    scores: Vec<GameScore>,
    total: u32,
}

/// The sheet as lichess's API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SheetJson {
    /// Each game's points as a digit, most recent first.
    pub scores: String,
    /// Present (and true) while the player is on fire.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fire: bool,
}

impl Sheet {
    /// The sheet of `games`, oldest first; `streakable` is the Arena's
    /// option for fire.
    pub fn build<'a>(games: impl IntoIterator<Item = &'a ArenaGame>, streakable: bool) -> Sheet {
        games
            .into_iter()
            .fold(Sheet::default(), |sheet, game| sheet.with(game, streakable))
    }

    /// The sheet once `game` is added at the end.
    pub fn with(mut self, game: &ArenaGame, streakable: bool) -> Sheet {
        let score = self.score(game, streakable);
        if !game.outcome.is_win() {
            self.end_pending_streak();
        }
        self.total += u32::from(score.points);
        self.scores.push(score);
        self
    }

    /// Each game's line, oldest first.
    pub fn scores(&self) -> &[GameScore] {
        &self.scores
    }

    /// The total points.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Whether the last two games were won: the next win or draw counts
    /// double (if the Arena is streakable).
    pub fn on_fire(&self) -> bool {
        matches!(self.scores.as_slice(), [.., a, b] if a.outcome.is_win() && b.outcome.is_win())
    }

    /// Each game's points as digits, most recent first (lichess's
    /// `sheet.scores`).
    pub fn scores_string(&self) -> String {
        self.scores
            .iter()
            .rev()
            .map(|s| char::from(b'0' + s.points))
            .collect()
    }

    /// The API's `sheet` object.
    pub fn json(&self, streakable: bool) -> SheetJson {
        SheetJson {
            scores: self.scores_string(),
            fire: streakable && self.on_fire(),
        }
    }

    fn score(&self, game: &ArenaGame, streakable: bool) -> GameScore {
        let fire = streakable && self.on_fire();
        let (mark, base) = match game.outcome {
            Outcome::Win if fire => (Mark::OnFire, 4),
            Outcome::Win if streakable => (Mark::StreakStarter, 2),
            Outcome::Win => (Mark::Plain, 2),
            Outcome::Draw => self.draw_score(game.plies, fire),
            Outcome::Loss | Outcome::Forfeit => (Mark::Plain, 0),
        };
        let berserk = berserk_mark(game);
        let bonus = u8::from(berserk == BerserkMark::Bonus);
        GameScore {
            outcome: game.outcome,
            mark,
            berserk,
            points: base + bonus,
        }
    }

    fn draw_score(&self, plies: u16, fire: bool) -> (Mark, u8) {
        if plies < QUICK_DRAW_PLIES {
            (Mark::QuickDraw, 0)
        } else if fire {
            (Mark::OnFire, 2)
        } else if plies < LONG_GAME_PLIES && self.last_result_was_draw() {
            (Mark::DrawStreak, 0)
        } else {
            (Mark::Plain, 1)
        }
    }

    /// Whether the latest game that was not lost was a draw.
    fn last_result_was_draw(&self) -> bool {
        self.scores
            .iter()
            .rev()
            .find(|s| matches!(s.outcome, Outcome::Win | Outcome::Draw))
            .is_some_and(|s| s.outcome == Outcome::Draw)
    }

    /// A lone latest win that is not followed by a win starts no streak.
    fn end_pending_streak(&mut self) {
        let n = self.scores.len();
        let lone = match self.scores.as_slice() {
            [.., before, last] => last.mark == Mark::StreakStarter && !before.outcome.is_win(),
            [last] => last.mark == Mark::StreakStarter,
            [] => false,
        };
        if lone {
            self.scores[n - 1].mark = Mark::Plain;
        }
    }
}

fn berserk_mark(game: &ArenaGame) -> BerserkMark {
    match (game.berserk, game.outcome.is_win()) {
        (false, _) => BerserkMark::None,
        (true, true) if game.plies >= BERSERK_MIN_PLIES => BerserkMark::Bonus,
        (true, _) => BerserkMark::NoBonus,
    }
}
