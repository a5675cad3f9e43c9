//! Owns the standings of a running or finished Arena, computed from what
//! is stored: each player's finished games (oldest first) become
//! [`ArenaGame`]s, their sheet (`plyyard_arena::Sheet`), record and rank
//! (`plyyard_arena::standings`). A game nobody started counts as lost
//! (`Outcome::Forfeit`) for the side that did not move and as won for the
//! other; a game still being played counts for nobody yet.

use std::collections::HashMap;

use plyyard_arena::{ArenaGame, Colour, Outcome, Record, Sheet, SheetJson, performance, standings};
use plyyard_game::GameResult;
use plyyard_store::{PairingRow, PairingStatus, TournamentPlayerRow};

/// One player's place in an Arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerStanding {
    /// 1 for the leader.
    pub rank: u32,
    /// The player.
    pub player_id: String,
    /// The account's name.
    pub username: String,
    /// Their rating when they joined.
    pub rating: u16,
    /// Points.
    pub score: u32,
    /// The sheet as lichess's API shows it.
    pub sheet: SheetJson,
    /// Performance rating, `None` before the first game.
    pub performance: Option<u16>,
    /// Withdrawn or paused.
    pub withdrawn: bool,
    /// Their finished games, oldest first.
    pub games: Vec<ArenaGame>,
    /// The opponent of their latest game (finished or not).
    pub last_opponent: Option<String>,
    /// When their latest game was scored, Unix milliseconds.
    pub last_finished_at: Option<i64>,
    /// Whether they are playing a game of this Arena now.
    pub playing: bool,
}

/// How a game with `result` after `plies` plies ended for `colour`.
pub fn outcome_for(result: GameResult, plies: i64, colour: Colour) -> Outcome {
    let mine = match colour {
        Colour::White => GameResult::WhiteWins,
        Colour::Black => GameResult::BlackWins,
    };
    match result {
        GameResult::Draw => Outcome::Draw,
        r if r == mine => Outcome::Win,
        GameResult::Aborted => {
            // Nobody started it: the side to move never moved.
            let never_moved = if plies == 0 {
                Colour::White
            } else {
                Colour::Black
            };
            if never_moved == colour {
                Outcome::Forfeit
            } else {
                Outcome::Win
            }
        }
        _ => Outcome::Loss,
    }
}

/// Clamps a stored rating to the rules' type.
pub fn rating16(r: i64) -> u16 {
    u16::try_from(r.clamp(0, i64::from(u16::MAX))).unwrap_or(u16::MAX)
}

/// The standings of `players` from the Arena's `pairings` (oldest first),
/// leader first.
pub fn standings_of(
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
    streakable: bool,
) -> Vec<PlayerStanding> {
    let mut by_player: HashMap<&str, PlayerStanding> = players
        .iter()
        .map(|p| {
            let s = PlayerStanding {
                rank: 0,
                player_id: p.player_id.clone(),
                username: p.username.clone(),
                rating: rating16(p.rating),
                score: 0,
                sheet: Sheet::default().json(streakable),
                performance: None,
                withdrawn: p.withdrawn,
                games: Vec::new(),
                last_opponent: None,
                last_finished_at: None,
                playing: false,
            };
            (p.player_id.as_str(), s)
        })
        .collect();
    for p in pairings {
        for (me, colour, opponent, opponent_rating, berserk) in [
            (
                &p.white,
                Colour::White,
                &p.black,
                p.black_rating,
                p.white_berserk,
            ),
            (
                &p.black,
                Colour::Black,
                &p.white,
                p.white_rating,
                p.black_berserk,
            ),
        ] {
            let Some(s) = by_player.get_mut(me.as_str()) else {
                continue;
            };
            s.last_opponent = Some(opponent.clone());
            match (p.status, p.result) {
                (PairingStatus::Finished, Some(result)) => {
                    s.games.push(ArenaGame {
                        outcome: outcome_for(result, p.plies, colour),
                        plies: u16::try_from(p.plies.max(0)).unwrap_or(u16::MAX),
                        berserk,
                        colour,
                        opponent_rating: rating16(opponent_rating),
                    });
                    s.last_finished_at = p.finished_at;
                    s.playing = false;
                }
                _ => s.playing = true,
            }
        }
    }
    let records: Vec<Record<String>> = by_player
        .values()
        .map(|s| Record::of_games(s.player_id.clone(), s.rating, &s.games, streakable))
        .collect();
    standings(&records)
        .into_iter()
        .filter_map(|st| {
            let mut s = by_player.remove(st.id.as_str())?;
            let sheet = Sheet::build(&s.games, streakable);
            s.rank = st.rank;
            s.score = sheet.total();
            s.sheet = sheet.json(streakable);
            s.performance = performance(&s.games);
            Some(s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: &str, rating: i64) -> TournamentPlayerRow {
        TournamentPlayerRow {
            player_id: id.into(),
            username: id.to_uppercase(),
            rating,
            withdrawn: false,
            pauses: Vec::new(),
            joined_at: 0,
        }
    }

    fn pairing(
        n: i64,
        white: &str,
        black: &str,
        result: Option<GameResult>,
        plies: i64,
    ) -> PairingRow {
        PairingRow {
            game_id: format!("g{n}"),
            tournament_id: "t".into(),
            white: white.into(),
            black: black.into(),
            white_rating: 1500,
            black_rating: 1500,
            status: if result.is_some() {
                PairingStatus::Finished
            } else {
                PairingStatus::Playing
            },
            result,
            plies,
            white_berserk: false,
            black_berserk: false,
            created_at: n,
            finished_at: result.map(|_| n + 1),
            round: 0,
        }
    }

    #[test]
    fn nobody_starting_loses_for_the_side_that_never_moved() {
        use Colour::{Black, White};
        let aborted = GameResult::Aborted;
        assert_eq!(outcome_for(aborted, 0, White), Outcome::Forfeit);
        assert_eq!(outcome_for(aborted, 0, Black), Outcome::Win);
        assert_eq!(outcome_for(aborted, 1, Black), Outcome::Forfeit);
        assert_eq!(outcome_for(aborted, 1, White), Outcome::Win);
        assert_eq!(outcome_for(GameResult::WhiteWins, 30, Black), Outcome::Loss);
        assert_eq!(outcome_for(GameResult::Draw, 30, Black), Outcome::Draw);
    }

    #[test]
    fn sheets_scores_and_ranks_come_from_the_games() {
        let players = [player("a", 1500), player("b", 1500), player("c", 1400)];
        let pairings = [
            pairing(1, "a", "b", Some(GameResult::WhiteWins), 30),
            pairing(2, "b", "a", Some(GameResult::BlackWins), 30),
            pairing(3, "a", "c", Some(GameResult::WhiteWins), 30),
            pairing(4, "c", "b", None, 0),
        ];
        let s = standings_of(&players, &pairings, true);
        let rows: Vec<_> = s
            .iter()
            .map(|p| {
                (
                    p.rank,
                    p.player_id.as_str(),
                    p.score,
                    p.sheet.scores.as_str(),
                    p.playing,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (1, "a", 8, "422", false),
                (2, "b", 0, "00", true),
                (3, "c", 0, "0", true)
            ]
        );
        assert!(s[0].sheet.fire);
        assert_eq!(s[0].last_opponent.as_deref(), Some("c"));
        assert_eq!(s[1].last_opponent.as_deref(), Some("c"));
    }
}
