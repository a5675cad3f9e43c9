//! A round's result: the first attempt of a player (with an account, and
//! asking for it) rated as lichess rates puzzles — a pondered Glicko-2
//! game against the puzzle (`plyyard_puzzle::rating::finish`) — inside the
//! store's transaction; replays, casual rounds and anonymous players are
//! recorded unrated.

use plyyard_puzzle::Angle;
use plyyard_puzzle::rating::{Solve, finish};
use plyyard_rating::Glicko2;
use plyyard_store::{Glicko, PuzzleRating, Rated, Recorded, Store, StoreError};

/// A recorded round, as the API reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// The puzzle.
    pub id: String,
    /// Solved at the first attempt.
    pub win: bool,
    /// The player's rating change (`None`: not rated).
    pub rating_diff: Option<i64>,
}

fn to_store(g: Glicko2) -> Glicko {
    Glicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

fn from_store(g: Glicko) -> Glicko2 {
    Glicko2 {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

/// Records `player`'s round of `puzzle` under `angle`; `rated` when the
/// round may rate (an account asking for a rated round). `None` when the
/// puzzle was never served to the player.
///
/// # Errors
/// A store failure.
pub async fn record(
    store: &Store,
    player: &str,
    puzzle: &str,
    angle: &Angle,
    win: bool,
    rated: bool,
    now: i64,
) -> Result<Option<Round>, StoreError> {
    let owned = angle.clone();
    let rate = move |before: Option<PuzzleRating>, p: Glicko| {
        if !rated {
            return None;
        }
        let player = before.map_or(plyyard_rating::DEFAULT, |b| from_store(b.glicko));
        let done = finish(Solve {
            player,
            puzzle: from_store(p),
            angle: &owned,
            win,
            dubious: false,
        });
        Some(Rated {
            player_before: player.rating,
            player: to_store(done.player),
            puzzle: done.puzzle.map(to_store),
        })
    };
    let recorded = store
        .record_puzzle_round(player, puzzle, angle.key(), win, now, rate)
        .await?;
    Ok(recorded.map(|r| Round {
        id: puzzle.to_owned(),
        win,
        rating_diff: match r {
            Recorded::First(Some((before, after))) => {
                Some(after.round() as i64 - before.round() as i64)
            }
            Recorded::First(None) | Recorded::Replay => None,
        },
    }))
}
