//! The sheet's scoring against lichess's rules, case by case.

use plyyard_arena::{ArenaGame, BerserkMark, Colour, Mark, Outcome, Sheet};

fn game(outcome: Outcome, plies: u16, berserk: bool) -> ArenaGame {
    ArenaGame {
        outcome,
        plies,
        berserk,
        colour: Colour::White,
        opponent_rating: 1500,
    }
}

const W: ArenaGame = ArenaGame {
    outcome: Outcome::Win,
    plies: 40,
    berserk: false,
    colour: Colour::White,
    opponent_rating: 1500,
};
const L: ArenaGame = ArenaGame {
    outcome: Outcome::Loss,
    ..W
};
const D: ArenaGame = ArenaGame {
    outcome: Outcome::Draw,
    ..W
};
const F: ArenaGame = ArenaGame {
    outcome: Outcome::Forfeit,
    plies: 0,
    ..W
};

fn points(games: &[ArenaGame]) -> Vec<u8> {
    Sheet::build(games, true)
        .scores()
        .iter()
        .map(|s| s.points)
        .collect()
}

fn marks(games: &[ArenaGame]) -> Vec<Mark> {
    Sheet::build(games, true)
        .scores()
        .iter()
        .map(|s| s.mark)
        .collect()
}

#[test]
fn win_draw_loss_score_two_one_zero() {
    assert_eq!(points(&[W, L, D]), [2, 0, 1]);
    assert_eq!(Sheet::build(&[W, L, D], true).total(), 3);
}

#[test]
fn two_wins_light_the_fire_until_a_game_is_not_won() {
    assert_eq!(points(&[W, W, W, W, L, W, W, W]), [2, 2, 4, 4, 0, 2, 2, 4]);
    assert_eq!(points(&[W, W, D]), [2, 2, 2]);
    assert_eq!(points(&[W, W, D, W]), [2, 2, 2, 2]);
    assert_eq!(points(&[W, W, F, W]), [2, 2, 0, 2]);
    assert!(Sheet::build(&[L, W, W], true).on_fire());
    assert!(!Sheet::build(&[W, W, D], true).on_fire());
}

#[test]
fn no_fire_when_the_arena_is_not_streakable() {
    let sheet = Sheet::build(&[W, W, W, D], false);
    let pts: Vec<u8> = sheet.scores().iter().map(|s| s.points).collect();
    assert_eq!(pts, [2, 2, 2, 1]);
    assert!(sheet.scores().iter().all(|s| s.mark == Mark::Plain));
    assert!(!sheet.json(false).fire);
}

#[test]
fn streak_marks_follow_the_wins() {
    use Mark::*;
    assert_eq!(marks(&[W, L]), [Plain, Plain]);
    assert_eq!(marks(&[W]), [StreakStarter]);
    assert_eq!(
        marks(&[W, W, W, L]),
        [StreakStarter, StreakStarter, OnFire, Plain]
    );
    assert_eq!(marks(&[W, W, L]), [StreakStarter, StreakStarter, Plain]);
    assert_eq!(marks(&[L, W, D]), [Plain, Plain, Plain]);
}

#[test]
fn a_quick_draw_scores_nothing_and_ends_the_fire() {
    let quick = game(Outcome::Draw, 19, false);
    let just_enough = game(Outcome::Draw, 20, false);
    assert_eq!(points(&[quick]), [0]);
    assert_eq!(points(&[just_enough]), [1]);
    assert_eq!(points(&[W, W, quick, W]), [2, 2, 0, 2]);
    assert_eq!(marks(&[quick]), [Mark::QuickDraw]);
}

#[test]
fn a_draw_right_after_a_draw_scores_nothing_unless_long() {
    let long = game(Outcome::Draw, 60, false);
    let almost = game(Outcome::Draw, 59, false);
    assert_eq!(points(&[D, D]), [1, 0]);
    assert_eq!(points(&[D, almost]), [1, 0]);
    assert_eq!(points(&[D, long]), [1, 1]);
    assert_eq!(points(&[D, D, D]), [1, 0, 0]);
    assert_eq!(marks(&[D, D]), [Mark::Plain, Mark::DrawStreak]);
    // A win in between breaks the draw streak; losses do not.
    assert_eq!(points(&[D, W, D]), [1, 2, 1]);
    assert_eq!(points(&[D, L, D]), [1, 0, 0]);
    assert_eq!(points(&[D, F, L, D]), [1, 0, 0, 0]);
    // A quick draw is a draw for this rule too.
    let quick = game(Outcome::Draw, 10, false);
    assert_eq!(points(&[quick, D]), [0, 0]);
}

#[test]
fn berserk_adds_one_to_a_win_of_fourteen_plies_or_more() {
    let long_win = game(Outcome::Win, 14, true);
    let short_win = game(Outcome::Win, 13, true);
    let berserk_loss = game(Outcome::Loss, 50, true);
    let berserk_draw = game(Outcome::Draw, 50, true);
    assert_eq!(points(&[long_win]), [3]);
    assert_eq!(points(&[short_win]), [2]);
    assert_eq!(points(&[berserk_loss]), [0]);
    assert_eq!(points(&[berserk_draw]), [1]);
    assert_eq!(points(&[W, W, long_win]), [2, 2, 5]);
    let sheet = Sheet::build(&[long_win, short_win, W], true);
    let b: Vec<_> = sheet.scores().iter().map(|s| s.berserk).collect();
    assert_eq!(
        b,
        [BerserkMark::Bonus, BerserkMark::NoBonus, BerserkMark::None]
    );
}

#[test]
fn a_forfeit_is_a_loss() {
    assert_eq!(points(&[F]), [0]);
    assert_eq!(points(&[W, F, W, W, W]), [2, 0, 2, 2, 4]);
}

#[test]
fn json_is_lichess_sheet_most_recent_first() {
    let sheet = Sheet::build(&[W, W, game(Outcome::Win, 30, true), L, D], true);
    assert_eq!(sheet.scores_string(), "10522");
    assert_eq!(sheet.total(), 10);
    let json = serde_json::to_value(sheet.json(true)).unwrap();
    assert_eq!(json, serde_json::json!({ "scores": "10522" }));
    let hot = Sheet::build(&[L, W, W], true);
    let json = serde_json::to_value(hot.json(true)).unwrap();
    assert_eq!(json, serde_json::json!({ "scores": "220", "fire": true }));
}

#[test]
fn building_at_once_equals_adding_one_by_one() {
    let games = [W, D, D, W, W, W, L, game(Outcome::Win, 20, true), F, D];
    let once = Sheet::build(&games, true);
    let stepwise = games.iter().fold(Sheet::default(), |s, g| s.with(g, true));
    assert_eq!(once, stepwise);
    let sum: u32 = once.scores().iter().map(|s| u32::from(s.points)).sum();
    assert_eq!(once.total(), sum);
}
