//! Choosing a player's next puzzles: a walk through the angle's puzzles
//! in rating order, inside a band around the target rating (the player's
//! puzzle rating plus the difficulty's offset). The walk resumes where
//! the player's last one stopped (a cursor per player and angle), skips
//! puzzles served to the player before, wraps round the band once, then
//! widens it; only when no unseen puzzle is left anywhere does a puzzle
//! come back. Each step is a bounded range read of the angle index: no
//! scans, whatever the size of the database.

use std::collections::HashSet;

use plyyard_store::{Store, StoreError};

/// Half the width of the first band, in rating points.
pub const FIRST_BAND: i64 = 100;
/// The band stops widening here (±, around the target).
pub const WIDEST_BAND: i64 = 3_200;
/// Index entries read per step.
const STEP: u32 = 64;
/// Steps one band is walked at most before it widens (bounds the work
/// of one request for a player who has seen most of a band).
const STEPS_PER_BAND: u32 = 8;

/// What the walk found: puzzle ids, and where the walk stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    /// The chosen puzzles, in walk order.
    pub ids: Vec<String>,
    /// The cursor to keep for the next walk.
    pub cursor: (i64, String),
}

/// Up to `nb` puzzles of `angle` for `player`, aimed at `target`.
///
/// # Errors
/// A store failure.
pub async fn next(
    store: &Store,
    player: &str,
    angle: &str,
    target: i64,
    nb: usize,
) -> Result<Walk, StoreError> {
    let mut cursor = store.puzzle_cursor(player, angle).await?;
    let mut chosen: Vec<String> = Vec::with_capacity(nb);
    let mut band = FIRST_BAND;
    while chosen.len() < nb && band <= WIDEST_BAND {
        let (lo, hi) = (target - band, target + band);
        let start = match &cursor {
            Some((r, id)) if (lo..=hi).contains(r) => (*r, id.clone()),
            _ => (lo - 1, String::new()),
        };
        let (found, at) = walk_band(
            store,
            player,
            angle,
            start,
            (lo, hi),
            nb - chosen.len(),
            &chosen,
        )
        .await?;
        chosen.extend(found);
        cursor = Some(at);
        band *= 2;
    }
    if chosen.len() < nb {
        // Every puzzle of the angle was seen: repeats, nearest first.
        let again = store
            .angle_walk(angle, (target - FIRST_BAND - 1, ""), i64::MAX, STEP)
            .await?;
        for (r, id) in again {
            if chosen.len() == nb {
                break;
            }
            if !chosen.contains(&id) {
                cursor = Some((r, id.clone()));
                chosen.push(id);
            }
        }
    }
    Ok(Walk {
        ids: chosen,
        cursor: cursor.unwrap_or((target, String::new())),
    })
}

/// Walks one band from `start`, wrapping once to its low end: unseen
/// puzzles (at most `want`) and where it stopped.
async fn walk_band(
    store: &Store,
    player: &str,
    angle: &str,
    start: (i64, String),
    (lo, hi): (i64, i64),
    want: usize,
    taken: &[String],
) -> Result<(Vec<String>, (i64, String)), StoreError> {
    let mut found = Vec::new();
    let mut at = start.clone();
    let mut wrapped = start.0 < lo;
    for _ in 0..STEPS_PER_BAND {
        let page = store.angle_walk(angle, (at.0, &at.1), hi, STEP).await?;
        let ids: Vec<String> = page.iter().map(|p| p.1.clone()).collect();
        let seen: HashSet<String> = store.served_among(player, &ids).await?;
        for (r, id) in &page {
            at = (*r, id.clone());
            if !seen.contains(id) && !taken.contains(id) && !found.contains(id) {
                found.push(id.clone());
                if found.len() == want {
                    return Ok((found, at));
                }
            }
        }
        if page.len() < STEP as usize {
            if wrapped {
                break;
            }
            wrapped = true;
            at = (lo - 1, String::new());
        }
    }
    Ok((found, at))
}
