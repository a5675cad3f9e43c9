//! Puzzle Storm's results: a run as the player's browser reports it
//! ([`Run`], checked by [`Run::check`]: the clock, the penalties and the
//! bonuses are the browser's, as on lichess) and the dashboard lichess's
//! `GET /api/storm/dashboard/{username}` answers ([`dashboard`]): the best
//! scores of today, the last 7 and 30 days and all time, and one entry per
//! day played (its best run, and how many runs).

use std::fmt;

/// Three minutes, plus at most this much earned by combos (every 5 solved
/// in a row add 3 seconds; 400 solved earn 240 s).
pub const MAX_TIME_S: u32 = 180 + 240;
/// More moves than anyone plays in a run.
pub const MAX_MOVES: u32 = 2_000;
/// The highest puzzle rating a run may report.
pub const MAX_RATING: u32 = 4_000;

const DAY_MS: i64 = 86_400_000;

/// One run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Puzzles solved.
    pub score: u32,
    /// Moves played (good and bad).
    pub moves: u32,
    /// Mistakes (each failed a puzzle).
    pub errors: u32,
    /// The longest run of puzzles solved in a row.
    pub combo: u32,
    /// Seconds played.
    pub time: u32,
    /// The highest rating among the puzzles solved (0: none).
    pub highest: u32,
}

/// Why a reported run is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRun(pub String);

impl fmt::Display for BadRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadRun {}

impl Run {
    /// Refuses a run no storm can end with: a solved puzzle takes at least
    /// one move and a mistake one more, the combo is at most the score, the
    /// time at most [`MAX_TIME_S`].
    ///
    /// # Errors
    /// [`BadRun`] saying what is impossible.
    pub fn check(&self) -> Result<(), BadRun> {
        let bad = |s: &str| Err(BadRun(s.to_owned()));
        if self.moves > MAX_MOVES {
            return bad(&format!("moves is at most {MAX_MOVES}"));
        }
        if self.time > MAX_TIME_S {
            return bad(&format!("time is at most {MAX_TIME_S} seconds"));
        }
        if self.highest > MAX_RATING {
            return bad(&format!("highest is at most {MAX_RATING}"));
        }
        if u64::from(self.score) + u64::from(self.errors) > u64::from(self.moves) {
            return bad("every solved or failed puzzle takes at least one move");
        }
        if self.combo > self.score {
            return bad("combo is at most the score");
        }
        if self.score > 0 && self.highest == 0 {
            return bad("highest is the rating of the hardest puzzle solved");
        }
        Ok(())
    }
}

/// A stored run: when it ended (Unix ms) and what it scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatedRun {
    /// When it ended, Unix milliseconds.
    pub at: i64,
    /// The run.
    pub run: Run,
}

/// The best scores over four windows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct High {
    /// Today (UTC).
    pub day: u32,
    /// The last 7 days.
    pub week: u32,
    /// The last 30 days.
    pub month: u32,
    /// Ever.
    pub all_time: u32,
}

/// One day played: its best run and how many runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Day {
    /// Lichess's day key: `YYYY/M/D` (UTC, no leading zeros).
    pub id: String,
    /// The day's best run (the first of equal scores).
    pub best: Run,
    /// Runs that day.
    pub runs: u32,
}

/// A player's storm dashboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dashboard {
    /// The best scores.
    pub high: High,
    /// The days of the last `days` days played, the latest first.
    pub days: Vec<Day>,
}

/// The dashboard at `now` (Unix ms) from every run of a player (in any
/// order), its days limited to the last `days` days.
pub fn dashboard(runs: &[DatedRun], now: i64, days: u32) -> Dashboard {
    let today = now.div_euclid(DAY_MS);
    let best_since = |from_day: i64| {
        runs.iter()
            .filter(|r| r.at.div_euclid(DAY_MS) >= from_day)
            .map(|r| r.run.score)
            .max()
            .unwrap_or(0)
    };
    let high = High {
        day: best_since(today),
        week: best_since(today - 6),
        month: best_since(today - 29),
        all_time: best_since(i64::MIN),
    };
    let mut sorted: Vec<&DatedRun> = runs
        .iter()
        .filter(|r| r.at.div_euclid(DAY_MS) > today - i64::from(days))
        .collect();
    sorted.sort_by_key(|r| (std::cmp::Reverse(r.at.div_euclid(DAY_MS)), r.at));
    let mut out: Vec<(i64, Day)> = Vec::new();
    for r in sorted {
        let d = r.at.div_euclid(DAY_MS);
        match out.last_mut() {
            Some((day, entry)) if *day == d => {
                entry.runs += 1;
                if r.run.score > entry.best.score {
                    entry.best = r.run;
                }
            }
            _ => out.push((
                d,
                Day {
                    id: day_key(d),
                    best: r.run,
                    runs: 1,
                },
            )),
        }
    }
    Dashboard {
        high,
        days: out.into_iter().map(|(_, d)| d).collect(),
    }
}

/// Lichess's key of day `d` (days since the Unix epoch): `YYYY/M/D`.
pub fn day_key(d: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(d.saturating_mul(86_400))
        .map_or(time::OffsetDateTime::UNIX_EPOCH, |t| t)
        .date();
    format!("{}/{}/{}", date.year(), u8::from(date.month()), date.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(score: u32) -> Run {
        Run {
            score,
            moves: score * 2 + 1,
            errors: 1,
            combo: score,
            time: 170,
            highest: 1500 + score,
        }
    }

    #[test]
    fn day_keys_are_lichess_s() {
        assert_eq!(day_key(0), "1970/1/1");
        assert_eq!(day_key(18_766), "2021/5/19");
        assert_eq!(day_key(11_016), "2000/2/29");
        assert_eq!(day_key(-1), "1969/12/31");
    }

    #[test]
    fn impossible_runs_are_refused() {
        assert_eq!(run(20).check(), Ok(()));
        let zero = Run {
            score: 0,
            moves: 0,
            errors: 0,
            combo: 0,
            time: 0,
            highest: 0,
        };
        assert_eq!(zero.check(), Ok(()));
        for (bad, why) in [
            (
                Run {
                    moves: 10,
                    ..run(20)
                },
                "at least one move",
            ),
            (
                Run {
                    combo: 21,
                    ..run(20)
                },
                "combo",
            ),
            (
                Run {
                    time: MAX_TIME_S + 1,
                    ..run(20)
                },
                "time",
            ),
            (
                Run {
                    highest: 0,
                    ..run(20)
                },
                "highest",
            ),
            (
                Run {
                    highest: MAX_RATING + 1,
                    ..run(20)
                },
                "highest",
            ),
            (
                Run {
                    moves: MAX_MOVES + 1,
                    ..run(20)
                },
                "moves",
            ),
        ] {
            let e = bad.check().unwrap_err();
            assert!(e.0.contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn the_dashboard_keeps_each_day_s_best_run_and_the_highs() {
        let day = |d: i64, h: i64| d * DAY_MS + h * 3_600_000;
        let now = day(100, 12);
        let runs = [
            DatedRun {
                at: day(100, 1),
                run: run(12),
            },
            DatedRun {
                at: day(100, 2),
                run: run(15),
            },
            DatedRun {
                at: day(100, 3),
                run: run(15),
            },
            DatedRun {
                at: day(97, 5),
                run: run(30),
            },
            DatedRun {
                at: day(80, 5),
                run: run(40),
            },
            DatedRun {
                at: day(10, 5),
                run: run(50),
            },
        ];
        let d = dashboard(&runs, now, 30);
        assert_eq!(
            d.high,
            High {
                day: 15,
                week: 30,
                month: 40,
                all_time: 50
            }
        );
        let ids: Vec<(&str, u32, u32)> = d
            .days
            .iter()
            .map(|x| (x.id.as_str(), x.best.score, x.runs))
            .collect();
        assert_eq!(
            ids,
            [
                (day_key(100).as_str(), 15, 3),
                (day_key(97).as_str(), 30, 1),
                (day_key(80).as_str(), 40, 1)
            ]
        );
        // The first of two equal scores stands.
        assert_eq!(d.days[0].best, runs[1].run);
        assert_eq!(dashboard(&runs, now, 1).days.len(), 1);
        assert_eq!(
            dashboard(&[], now, 30),
            Dashboard {
                high: High::default(),
                days: vec![]
            }
        );
    }
}
