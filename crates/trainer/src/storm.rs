//! Puzzle Storm's runs through the trainer: a run an account ended is
//! checked (`plyyard_puzzle::storm::Run::check`) and stored; a player's
//! dashboard is computed from their stored runs.

use plyyard_puzzle::storm::{self, BadRun, Dashboard, DatedRun, Run};
use plyyard_store::StormRunRow;

use crate::{Trainer, TrainerError};

/// Days a storm dashboard looks back at most (lichess's limit).
pub const MAX_DAYS: u32 = 365;
const DAY_MS: i64 = 86_400_000;
/// Runs read for one dashboard at most (a year of 50 runs a day).
const MAX_RUNS: u32 = 20_000;

impl From<BadRun> for TrainerError {
    fn from(e: BadRun) -> TrainerError {
        TrainerError::Invalid(e.0)
    }
}

fn to_row(run: &Run, ended_at: i64) -> StormRunRow {
    StormRunRow {
        ended_at,
        score: run.score,
        moves: run.moves,
        errors: run.errors,
        combo: run.combo,
        time_s: run.time,
        highest: run.highest,
    }
}

fn from_row(r: &StormRunRow) -> DatedRun {
    DatedRun {
        at: r.ended_at,
        run: Run {
            score: r.score,
            moves: r.moves,
            errors: r.errors,
            combo: r.combo,
            time: r.time_s,
            highest: r.highest,
        },
    }
}

impl Trainer {
    /// Stores account `player`'s run, ended at `now`; `false` when a run of
    /// theirs already ended at that millisecond (sent twice).
    ///
    /// # Errors
    /// [`TrainerError::Invalid`] for a run no storm ends with; a store
    /// failure.
    pub async fn record_storm(
        &self,
        player: &str,
        run: &Run,
        now: i64,
    ) -> Result<bool, TrainerError> {
        run.check()?;
        Ok(self.store.add_storm_run(player, &to_row(run, now)).await?)
    }

    /// `player`'s storm dashboard at `now`, its days over the last `days`.
    ///
    /// # Errors
    /// [`TrainerError::Invalid`] for `days` out of 1..=[`MAX_DAYS`]; a
    /// store failure.
    pub async fn storm_dashboard(
        &self,
        player: &str,
        days: u32,
        now: i64,
    ) -> Result<Dashboard, TrainerError> {
        if !(1..=MAX_DAYS).contains(&days) {
            return Err(TrainerError::Invalid(format!(
                "days is a number from 1 to {MAX_DAYS}"
            )));
        }
        // The highs need 30 days; all time is read apart.
        let back = i64::from(days.max(30));
        let since = (now.div_euclid(DAY_MS) - back) * DAY_MS;
        let runs: Vec<DatedRun> = self
            .store
            .storm_runs(player, since, MAX_RUNS)
            .await?
            .iter()
            .map(from_row)
            .collect();
        let mut d = storm::dashboard(&runs, now, days);
        d.high.all_time = d.high.all_time.max(self.store.storm_best(player).await?);
        Ok(d)
    }
}
