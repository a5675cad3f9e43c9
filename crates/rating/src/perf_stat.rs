//! A player's statistics at one speed, as lichess's perf page shows them
//! (`GET /api/user/{name}/perf/{perf}`): the highest and lowest rating,
//! the best wins and worst losses, the counts, the longest and current
//! runs of wins and of losses, and of games played one after another.
//!
//! Computed from the player's rated games at that speed, the earliest
//! first; nothing here reads a clock or a database.

use crate::display;

/// How a game ended for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One rated game, as the statistics need it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedGame {
    /// The game's id.
    pub id: String,
    /// When it started, Unix milliseconds.
    pub started: i64,
    /// When it ended, Unix milliseconds.
    pub ended: i64,
    /// How it ended for the player.
    pub score: Score,
    /// The player's rating after it.
    pub rating_after: f64,
    /// The opponent's player id, and account name if the account remains.
    pub opponent: (String, Option<String>),
    /// The opponent's rating before it.
    pub opponent_rating: f64,
    /// Whether it was a tournament game.
    pub tournament: bool,
    /// Whether the player went berserk in it.
    pub berserk: bool,
}

/// A rating reached after a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingAt {
    /// The displayed rating.
    pub rating: i64,
    /// When (the game's end, Unix milliseconds).
    pub at: i64,
    /// After which game.
    pub game: String,
}

/// A notable result: a win or a loss and the opponent's rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notable {
    /// The opponent's displayed rating before the game.
    pub opponent_rating: i64,
    /// The opponent's player id and name (none for a deleted account).
    pub opponent: (String, Option<String>),
    /// When the game ended, Unix milliseconds.
    pub at: i64,
    /// The game.
    pub game: String,
}

/// A run of games: its length (games, or seconds for a time run) and its
/// first and last games (`(at, game id)`), none for an empty run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Run {
    /// Games in the run (or seconds played, for a time run).
    pub value: i64,
    /// The first game: when it started and its id.
    pub from: Option<(i64, String)>,
    /// The last game: when it ended and its id.
    pub to: Option<(i64, String)>,
}

/// The current and the longest run of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streak {
    /// The run going on now (empty when the last game broke it).
    pub current: Run,
    /// The longest run so far (the earliest of equal ones).
    pub max: Run,
}

/// Every figure of the perf page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerfStat {
    /// The highest rating after a game.
    pub highest: Option<RatingAt>,
    /// The lowest rating after a game.
    pub lowest: Option<RatingAt>,
    /// The wins against the highest-rated opponents, best first.
    pub best_wins: Vec<Notable>,
    /// The losses against the lowest-rated opponents, worst first.
    pub worst_losses: Vec<Notable>,
    /// Rated games counted.
    pub games: u32,
    /// Won, drawn and lost.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Games in tournaments.
    pub tournament: u32,
    /// Games where the player went berserk.
    pub berserk: u32,
    /// The opponents' average rating.
    pub opponent_average: f64,
    /// Seconds spent in the games.
    pub seconds: i64,
    /// Wins in a row.
    pub win_streak: Streak,
    /// Losses in a row.
    pub loss_streak: Streak,
    /// Games played one after another (each started within
    /// [`PLAY_GAP_MS`] of the previous one's end).
    pub play_streak: Streak,
    /// Seconds played in such a run.
    pub time_streak: Streak,
    /// When the last game ended.
    pub last_game: Option<i64>,
}

/// Notable wins and losses kept.
pub const NOTABLE: usize = 5;
/// The longest pause between two games of one playing run (an hour, as
/// lichess).
pub const PLAY_GAP_MS: i64 = 3_600_000;

/// A run being counted: extends it with a game, or ends it.
#[derive(Default)]
struct Counter {
    streak: Streak,
}

impl Counter {
    /// Adds `value` for `game` to the current run (starting one if none).
    fn extend(&mut self, value: i64, game: &PlayedGame) {
        let cur = &mut self.streak.current;
        if cur.from.is_none() {
            cur.from = Some((game.started, game.id.clone()));
        }
        cur.value += value;
        cur.to = Some((game.ended, game.id.clone()));
        if cur.value > self.streak.max.value {
            self.streak.max = cur.clone();
        }
    }

    /// Ends the current run.
    fn reset(&mut self) {
        self.streak.current = Run::default();
    }
}

/// The statistics of `games` (the player's rated games at one speed, the
/// earliest first).
///
/// # Examples
/// ```
/// use plyyard_rating::perf_stat::{PlayedGame, Score, compute};
/// let game = |id: &str, at: i64, score, rating_after, opponent_rating| PlayedGame {
///     id: id.into(),
///     started: at,
///     ended: at + 60_000,
///     score,
///     rating_after,
///     opponent: ("op".into(), Some("Op".into())),
///     opponent_rating,
///     tournament: false,
///     berserk: false,
/// };
/// let s = compute(&[
///     game("a", 0, Score::Win, 1600.0, 1500.0),
///     game("b", 100_000, Score::Win, 1650.0, 1700.0),
///     game("c", 200_000, Score::Loss, 1620.0, 1400.0),
/// ]);
/// assert_eq!(s.highest.unwrap().rating, 1650);
/// assert_eq!(s.best_wins[0].game, "b");
/// assert_eq!(s.win_streak.max.value, 2);
/// assert_eq!(s.win_streak.current.value, 0);
/// assert_eq!(s.play_streak.current.value, 3);
/// ```
pub fn compute(games: &[PlayedGame]) -> PerfStat {
    let mut s = PerfStat::default();
    let (mut wins, mut losses) = (Counter::default(), Counter::default());
    let (mut plays, mut time) = (Counter::default(), Counter::default());
    let mut opponents = 0.0;
    let mut last_end: Option<i64> = None;
    for g in games {
        let rating = display(g.rating_after);
        let at = RatingAt {
            rating,
            at: g.ended,
            game: g.id.clone(),
        };
        if s.highest.as_ref().is_none_or(|h| rating > h.rating) {
            s.highest = Some(at.clone());
        }
        if s.lowest.as_ref().is_none_or(|l| rating < l.rating) {
            s.lowest = Some(at);
        }
        s.games += 1;
        s.tournament += u32::from(g.tournament);
        s.berserk += u32::from(g.berserk);
        opponents += g.opponent_rating;
        let seconds = (g.ended - g.started).max(0) / 1000;
        s.seconds += seconds;
        match g.score {
            Score::Win => {
                s.wins += 1;
                wins.extend(1, g);
                losses.reset();
            }
            Score::Draw => {
                s.draws += 1;
                wins.reset();
                losses.reset();
            }
            Score::Loss => {
                s.losses += 1;
                losses.extend(1, g);
                wins.reset();
            }
        }
        if last_end.is_some_and(|end| g.started - end > PLAY_GAP_MS) {
            plays.reset();
            time.reset();
        }
        plays.extend(1, g);
        time.extend(seconds, g);
        last_end = Some(g.ended);
    }
    if s.games > 0 {
        s.opponent_average = opponents / f64::from(s.games);
    }
    s.best_wins = notable(games, Score::Win);
    s.worst_losses = notable(games, Score::Loss);
    s.win_streak = wins.streak;
    s.loss_streak = losses.streak;
    s.play_streak = plays.streak;
    s.time_streak = time.streak;
    s.last_game = last_end;
    s
}

/// The [`NOTABLE`] games of `score` by the opponent's rating: the highest
/// for wins, the lowest for losses (the latest first among equals).
fn notable(games: &[PlayedGame], score: Score) -> Vec<Notable> {
    let mut out: Vec<Notable> = games
        .iter()
        .rev()
        .filter(|g| g.score == score)
        .map(|g| Notable {
            opponent_rating: display(g.opponent_rating),
            opponent: g.opponent.clone(),
            at: g.ended,
            game: g.id.clone(),
        })
        .collect();
    if score == Score::Win {
        out.sort_by_key(|n| std::cmp::Reverse(n.opponent_rating));
    } else {
        out.sort_by_key(|n| n.opponent_rating);
    }
    out.truncate(NOTABLE);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, started: i64, score: Score, after: f64, opponent: f64) -> PlayedGame {
        PlayedGame {
            id: id.into(),
            started,
            ended: started + 120_000,
            score,
            rating_after: after,
            opponent: (format!("p{id}"), None),
            opponent_rating: opponent,
            tournament: id.starts_with('t'),
            berserk: id.ends_with('b'),
        }
    }

    #[test]
    fn nothing_played_gives_empty_figures() {
        let s = compute(&[]);
        assert_eq!((s.games, s.highest, s.last_game), (0, None, None));
        assert_eq!(s.win_streak, Streak::default());
    }

    #[test]
    fn runs_counts_and_notable_results() {
        let hour = PLAY_GAP_MS;
        let games = [
            game("a", 0, Score::Loss, 1480.0, 1300.0),
            game("tb", hour / 2, Score::Win, 1510.0, 1900.0),
            game("c", hour, Score::Win, 1530.2, 1500.0),
            game("d", 3 * hour, Score::Win, 1549.6, 1450.0),
            game("e", 3 * hour + 1000, Score::Draw, 1549.0, 1600.0),
            game("f", 3 * hour + 200_000, Score::Loss, 1520.0, 1200.0),
            game("g", 3 * hour + 400_000, Score::Loss, 1490.0, 1200.0),
        ];
        let s = compute(&games);
        assert_eq!((s.games, s.wins, s.draws, s.losses), (7, 3, 1, 3));
        assert_eq!((s.tournament, s.berserk), (1, 1));
        assert_eq!(s.seconds, 7 * 120);
        assert_eq!(
            s.highest.as_ref().map(|h| (h.rating, h.game.as_str())),
            Some((1550, "d"))
        );
        assert_eq!(
            s.lowest.as_ref().map(|l| (l.rating, l.game.as_str())),
            Some((1480, "a"))
        );
        // Three wins in a row, broken by the draw; the two last losses run on.
        assert_eq!(s.win_streak.max.value, 3);
        assert_eq!(
            s.win_streak.max.from.as_ref().map(|f| f.1.as_str()),
            Some("tb")
        );
        assert_eq!(
            s.win_streak.max.to.as_ref().map(|t| t.1.as_str()),
            Some("d")
        );
        assert_eq!(s.win_streak.current.value, 0);
        assert_eq!(
            (s.loss_streak.current.value, s.loss_streak.max.value),
            (2, 2)
        );
        // Two hours without a game end the first playing run of three.
        assert_eq!(
            (s.play_streak.max.value, s.play_streak.current.value),
            (4, 4)
        );
        assert_eq!(s.time_streak.current.value, 4 * 120);
        // Best wins by the opponent's rating; worst losses, the latest first among equals.
        let ids = |n: &[Notable]| n.iter().map(|x| x.game.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&s.best_wins), ["tb", "c", "d"]);
        assert_eq!(ids(&s.worst_losses), ["g", "f", "a"]);
        assert!((s.opponent_average - 10150.0 / 7.0).abs() < 1e-9);
        assert_eq!(s.last_game, Some(3 * hour + 520_000));
    }
}
