//! The pairing wave: optimal matchings, forbidden pairs, colours, odd
//! counts, large waves and determinism.

use plyyard_arena::edge::{EdgeEnd, edge_cost};
use plyyard_arena::{
    Colour, ColourHistory, Pairing, Timestamp, WaitingPlayer, WaveContext, pair_wave,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;

const PLAYING: WaveContext = WaveContext {
    recently_started: false,
    active_players: 1000,
};

fn player(id: u32, rank: u32, rating: u16) -> WaitingPlayer<u32> {
    WaitingPlayer {
        id,
        rank: NonZeroU32::new(rank).unwrap(),
        rating,
        colours: ColourHistory::EMPTY,
        last_opponent: None,
        waiting_since: Timestamp::from_millis(i64::from(id)),
    }
}

fn random_history(rng: &mut StdRng) -> ColourHistory {
    let n = rng.random_range(0..8);
    ColourHistory::from_colours((0..n).map(|_| {
        if rng.random_bool(0.5) {
            Colour::White
        } else {
            Colour::Black
        }
    }))
}

/// `n` players with distinct ranks, random ratings, histories and last
/// opponents (among themselves).
fn random_players(rng: &mut StdRng, n: usize) -> Vec<WaitingPlayer<u32>> {
    let mut ranks: Vec<u32> = (1..=(3 * n as u32 + 3)).collect();
    for i in (1..ranks.len()).rev() {
        ranks.swap(i, rng.random_range(0..=i));
    }
    let mut players: Vec<_> = (0..n as u32)
        .map(|id| {
            let mut p = player(id, ranks[id as usize], rng.random_range(800..2800));
            p.colours = random_history(rng);
            p.waiting_since = Timestamp::from_millis(rng.random_range(0..1_000_000));
            p
        })
        .collect();
    for p in &mut players {
        if n > 1 && rng.random_bool(0.5) {
            p.last_opponent = Some(rng.random_range(0..n as u32)).filter(|&o| o != p.id);
        }
    }
    players
}

fn allowed(a: &WaitingPlayer<u32>, b: &WaitingPlayer<u32>) -> bool {
    a.last_opponent != Some(b.id)
        && b.last_opponent != Some(a.id)
        && a.colours.could_play(b.colours)
}

fn by_id(players: &[WaitingPlayer<u32>]) -> HashMap<u32, &WaitingPlayer<u32>> {
    players.iter().map(|p| (p.id, p)).collect()
}

/// Checks what every wave must hold: each player at most once, no
/// forbidden pair, white to the lower colour history.
fn check_invariants(players: &[WaitingPlayer<u32>], pairs: &[Pairing<u32>], duel: bool) {
    let ids = by_id(players);
    let mut seen = HashSet::new();
    for p in pairs {
        assert!(seen.insert(p.white) && seen.insert(p.black), "twice: {p:?}");
        let (w, b) = (ids[&p.white], ids[&p.black]);
        assert!(w.colours.could_play(b.colours), "two streaks: {p:?}");
        if !duel {
            assert!(allowed(w, b), "forbidden pair: {p:?}");
        }
        let (wk, bk) = (
            (w.colours.streak(), w.colours.balance()),
            (b.colours.streak(), b.colours.balance()),
        );
        assert!(wk <= bk, "white went to the higher history: {p:?}");
    }
}

/// The best (pairs, cost) over all matchings of `group`, by exhaustive
/// search.
fn brute_force(group: &[&WaitingPlayer<u32>]) -> (usize, i64) {
    let max_rank = group.iter().map(|p| p.rank).max().unwrap();
    let cost = |a: &WaitingPlayer<u32>, b: &WaitingPlayer<u32>| {
        let end = |p: &WaitingPlayer<u32>| EdgeEnd {
            rank: p.rank,
            rating: p.rating,
        };
        edge_cost(max_rank, end(a), end(b))
    };
    fn go(
        free: &mut Vec<bool>,
        group: &[&WaitingPlayer<u32>],
        cost: &dyn Fn(&WaitingPlayer<u32>, &WaitingPlayer<u32>) -> i64,
    ) -> (usize, i64) {
        let Some(i) = free.iter().position(|&f| f) else {
            return (0, 0);
        };
        free[i] = false;
        let mut best = go(free, group, cost);
        for j in i + 1..group.len() {
            if free[j] && allowed(group[i], group[j]) {
                free[j] = false;
                let (n, c) = go(free, group, cost);
                free[j] = true;
                let c = c + cost(group[i], group[j]);
                if n + 1 > best.0 || (n + 1 == best.0 && c < best.1) {
                    best = (n + 1, c);
                }
            }
        }
        free[i] = true;
        best
    }
    go(&mut vec![true; group.len()], group, &cost)
}

#[test]
fn matching_is_optimal_against_brute_force() {
    let mut rng = StdRng::seed_from_u64(11);
    for round in 0..1_500 {
        let n = rng.random_range(2..=10);
        let players = random_players(&mut rng, n);
        let pairs = pair_wave(&players, PLAYING, &mut rng);
        check_invariants(&players, &pairs, false);
        // The group the wave matched: everyone, or (odd) all but the
        // latest arrival, unless that gave nothing.
        let latest = players
            .iter()
            .max_by_key(|p| (p.waiting_since, p.id))
            .unwrap();
        let even: Vec<_> = players
            .iter()
            .filter(|p| n % 2 == 0 || p.id != latest.id)
            .collect();
        let mut group = even.clone();
        let mut expected = brute_force(&even);
        if expected.0 == 0 && n % 2 == 1 {
            group = players.iter().collect();
            expected = brute_force(&group);
        }
        let max_rank = group.iter().map(|p| p.rank).max().unwrap();
        let ids = by_id(&players);
        let end = |id: u32| EdgeEnd {
            rank: ids[&id].rank,
            rating: ids[&id].rating,
        };
        let got_cost: i64 = pairs
            .iter()
            .map(|p| edge_cost(max_rank, end(p.white), end(p.black)))
            .sum();
        assert_eq!(
            (pairs.len(), got_cost),
            expected,
            "round {round}: {players:?}"
        );
    }
}

#[test]
fn forbidden_pairs_are_never_made_in_large_waves() {
    let mut rng = StdRng::seed_from_u64(12);
    for n in [50, 99, 100, 101, 150, 333, 1000] {
        let players = random_players(&mut rng, n);
        let pairs = pair_wave(&players, PLAYING, &mut rng);
        check_invariants(&players, &pairs, false);
        assert!(!pairs.is_empty());
    }
}

#[test]
fn large_waves_match_two_groups_and_pair_six_more_cheaply() {
    let mut rng = StdRng::seed_from_u64(13);
    let wave = |n: u32, rng: &mut StdRng| {
        let players: Vec<_> = (0..n).map(|i| player(i, i + 1, 1500)).collect();
        pair_wave(&players, PLAYING, rng).len()
    };
    assert_eq!(wave(100, &mut rng), 50);
    assert_eq!(wave(150, &mut rng), 75); // groups of 74, 74, then 2
    assert_eq!(wave(300, &mut rng), 150); // 100, 100, then 100
    assert_eq!(wave(1000, &mut rng), 400); // 100, 100, then 600; 200 wait
    assert_eq!(wave(2000, &mut rng), 400);
}

#[test]
fn the_leaders_meet_each_other() {
    let mut rng = StdRng::seed_from_u64(14);
    let players: Vec<_> = (0..40)
        .map(|i| player(i, i + 1, 2000 - i as u16 * 10))
        .collect();
    let pairs = pair_wave(&players, PLAYING, &mut rng);
    let top = pairs.iter().find(|p| p.white == 0 || p.black == 0).unwrap();
    assert!(top.white == 1 || top.black == 1, "{top:?}");
}

#[test]
fn last_opponents_do_not_meet_again_unless_only_two_are_active() {
    let mut rng = StdRng::seed_from_u64(15);
    let mut a = player(1, 1, 1500);
    let mut b = player(2, 2, 1500);
    a.last_opponent = Some(2);
    b.last_opponent = Some(1);
    let both = [a, b];
    assert!(pair_wave(&both, PLAYING, &mut rng).is_empty());
    let duel = WaveContext {
        recently_started: false,
        active_players: 2,
    };
    assert_eq!(pair_wave(&both, duel, &mut rng).len(), 1);
}

#[test]
fn two_same_colour_streaks_of_three_never_meet() {
    let mut rng = StdRng::seed_from_u64(16);
    let www = ColourHistory::from_colours([Colour::White; 3]);
    let mut a = player(1, 1, 1500);
    let mut b = player(2, 2, 1500);
    a.colours = www;
    b.colours = www;
    let duel = WaveContext {
        recently_started: false,
        active_players: 2,
    };
    assert!(pair_wave(&[a.clone(), b.clone()], duel, &mut rng).is_empty());
    b.colours = ColourHistory::from_colours([Colour::White; 2]);
    let pairs = pair_wave(&[a, b], duel, &mut rng);
    assert_eq!(pairs, [Pairing { white: 2, black: 1 }]);
}

#[test]
fn no_one_gets_a_fourth_game_in_a_row_with_one_colour() {
    let mut rng = StdRng::seed_from_u64(17);
    for n in [3usize, 4, 7, 30, 120] {
        let mut players: Vec<_> = (0..n as u32)
            .map(|i| player(i, i + 1, rng.random_range(1000..2500)))
            .collect();
        for wave_no in 0..200 {
            // A random part of the field is waiting.
            let waiting: Vec<_> = players
                .iter()
                .filter(|_| rng.random_bool(0.7))
                .cloned()
                .collect();
            let context = WaveContext {
                recently_started: wave_no == 0,
                active_players: n,
            };
            let pairs = pair_wave(&waiting, context, &mut rng);
            check_invariants(&waiting, &pairs, n == 2);
            for p in pairs {
                for (id, colour, opp) in [
                    (p.white, Colour::White, p.black),
                    (p.black, Colour::Black, p.white),
                ] {
                    let me = &mut players[id as usize];
                    me.colours = me.colours.then(colour);
                    me.last_opponent = Some(opp);
                    me.waiting_since = Timestamp::from_millis(wave_no);
                    assert!(
                        me.colours.streak().abs() <= 3,
                        "{n} players, wave {wave_no}: {me:?}"
                    );
                }
            }
            // Ranks shuffle a little as results come in.
            let mut order: Vec<(i64, u32)> = (0..n as u32)
                .map(|i| {
                    (
                        i64::from(players[i as usize].rank.get()) * 4 + rng.random_range(-6..6),
                        i,
                    )
                })
                .collect();
            order.sort();
            for (r, (_, i)) in order.into_iter().enumerate() {
                players[i as usize].rank = NonZeroU32::new(r as u32 + 1).unwrap();
            }
        }
    }
}

#[test]
fn an_odd_wave_leaves_out_the_latest_arrival() {
    let mut rng = StdRng::seed_from_u64(18);
    let mut players: Vec<_> = (0..5).map(|i| player(i, i + 1, 1500)).collect();
    players[2].waiting_since = Timestamp::from_millis(99);
    let pairs = pair_wave(&players, PLAYING, &mut rng);
    assert_eq!(pairs.len(), 2);
    assert!(pairs.iter().all(|p| p.white != 2 && p.black != 2));
}

#[test]
fn an_odd_wave_takes_everyone_when_the_others_cannot_meet() {
    let mut rng = StdRng::seed_from_u64(19);
    let mut players: Vec<_> = (0..3).map(|i| player(i, i + 1, 1500)).collect();
    players[0].last_opponent = Some(1);
    players[1].last_opponent = Some(0);
    players[2].waiting_since = Timestamp::from_millis(99); // latest
    let pairs = pair_wave(&players, PLAYING, &mut rng);
    assert_eq!(pairs.len(), 1);
    assert!(pairs[0].white == 2 || pairs[0].black == 2);
}

#[test]
fn the_first_fifteen_seconds_go_in_rank_order() {
    let mut rng = StdRng::seed_from_u64(20);
    let players: Vec<_> = [5, 1, 4, 2, 6, 3]
        .into_iter()
        .map(|r| player(r * 10, r, 2500 - r as u16 * 100))
        .collect();
    let start = WaveContext {
        recently_started: true,
        active_players: 6,
    };
    let mut pairs: Vec<_> = pair_wave(&players, start, &mut rng)
        .into_iter()
        .map(|p| {
            let mut v = [p.white, p.black];
            v.sort();
            v
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, [[10, 20], [30, 40], [50, 60]]);
}

#[test]
fn colours_at_the_start_are_a_coin_toss() {
    let mut rng = StdRng::seed_from_u64(21);
    let players: Vec<_> = (0..200).map(|i| player(i, i + 1, 1500)).collect();
    let start = WaveContext {
        recently_started: true,
        active_players: 200,
    };
    let better_is_white = pair_wave(&players, start, &mut rng)
        .iter()
        .filter(|p| p.white < p.black)
        .count();
    assert!((30..70).contains(&better_is_white), "{better_is_white}");
}

#[test]
fn same_seed_same_pairs_whatever_the_input_order() {
    let mut setup = StdRng::seed_from_u64(22);
    let players = random_players(&mut setup, 257);
    let run =
        |players: &[WaitingPlayer<u32>]| pair_wave(players, PLAYING, &mut StdRng::seed_from_u64(5));
    let first = run(&players);
    assert_eq!(run(&players), first);
    let mut shuffled = players.clone();
    shuffled.reverse();
    assert_eq!(run(&shuffled), first);
    let other_seed = pair_wave(&players, PLAYING, &mut StdRng::seed_from_u64(6));
    let unordered = |ps: &[Pairing<u32>]| -> HashSet<[u32; 2]> {
        ps.iter()
            .map(|p| [p.white.min(p.black), p.white.max(p.black)])
            .collect()
    };
    // The seed only tosses colours: the same players meet.
    assert_eq!(unordered(&other_seed), unordered(&first));
}

#[test]
fn a_full_group_of_equals_pairs_rank_neighbours() {
    let mut rng = StdRng::seed_from_u64(23);
    let players: Vec<_> = (0..100).map(|i| player(i, i + 1, 1500)).collect();
    let mut pairs: Vec<[u32; 2]> = pair_wave(&players, PLAYING, &mut rng)
        .iter()
        .map(|p| [p.white.min(p.black), p.white.max(p.black)])
        .collect();
    pairs.sort();
    let expected: Vec<[u32; 2]> = (0..50).map(|k| [2 * k, 2 * k + 1]).collect();
    assert_eq!(pairs, expected);
}
