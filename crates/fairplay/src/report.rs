//! What the moderators read of an account's fair play: the summary of its
//! verdicts and each judged game with its signals.

use plyyard_moderation::fairplay::{Assessed, Signal, Summary, Verdict, summarise};
use plyyard_store::FairPlayRow;
use serde::Serialize;

/// One judged side of a game, as the moderators read it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameVerdict {
    /// The game.
    pub id: String,
    /// The account's side.
    pub color: String,
    /// The game's speed.
    pub speed: Option<String>,
    /// The verdict (`None`: too short to judge, or never reviewed).
    pub verdict: Option<Verdict>,
    /// The signals raised: the reasons for the verdict.
    pub signals: Vec<Signal>,
    /// Average centipawn loss.
    pub acpl: Option<i64>,
    /// Whether the account won.
    pub won: bool,
    /// When the game was rated, Unix milliseconds.
    pub rated_at: i64,
}

/// The judged games a report lists at most (its summary counts more).
const LISTED: usize = 50;

/// An account's fair play: `fairPlay` in `GET /api/mod/user/{name}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The verdicts added up ([`Summary::flagged`] says whether to look).
    #[serde(flatten)]
    pub summary: Summary,
    /// The judged games, the latest first, at most 50.
    pub games: Vec<GameVerdict>,
}

fn signals_of(keys: &str) -> Vec<Signal> {
    keys.split_ascii_whitespace()
        .filter_map(Signal::from_key)
        .collect()
}

impl Report {
    /// The report of an account with `rated_games` rated games whose
    /// stored verdicts are `rows`, the latest first.
    pub fn of(rated_games: u32, rows: &[FairPlayRow]) -> Report {
        let games: Vec<GameVerdict> = rows
            .iter()
            .map(|r| GameVerdict {
                id: r.game_id.clone(),
                color: r.color.clone(),
                speed: r.speed.map(|s| s.to_string()),
                verdict: r.verdict.as_deref().and_then(Verdict::from_key),
                signals: signals_of(&r.signals),
                acpl: r.acpl,
                won: r.won,
                rated_at: r.rated_at,
            })
            .collect();
        let assessed: Vec<Assessed> = rows
            .iter()
            .zip(&games)
            .filter_map(|(r, g)| {
                Some(Assessed {
                    verdict: g.verdict?,
                    speed: r.speed,
                    flat_times: g.signals.contains(&Signal::FlatTimes),
                })
            })
            .collect();
        let mut games = games;
        games.truncate(LISTED);
        Report {
            summary: summarise(rated_games, &assessed),
            games,
        }
    }
}
