//! The crate's tests: round one, colours, the bye, forbidden pairs, the
//! absolute criteria on thousands of generated tournaments, TRF16 round
//! trips and tie-breaks.

use crate::colour::a_gets_white;
use crate::generator::{GeneratorOptions, generate};
use crate::history::states;
use crate::model::{Colour, Outcome, RoundEntry, Tournament};
use crate::{pair_next_round, pair_round, tiebreak, trf};

fn field(n: u32) -> Tournament {
    Tournament::new(
        "t",
        5,
        (0..n)
            .map(|i| (format!("P{i:02}"), 2000 - i as u16 * 10))
            .collect(),
    )
}

fn play(t: &mut Tournament, boards: &[(u32, u32, Outcome)], bye: Option<u32>) {
    let n = t.players.len();
    let mut set = vec![RoundEntry::Absent; n];
    for &(w, b, o) in boards {
        set[w as usize - 1] = RoundEntry::Played {
            opponent: b,
            colour: Colour::White,
            outcome: o,
        };
        set[b as usize - 1] = RoundEntry::Played {
            opponent: w,
            colour: Colour::Black,
            outcome: o.reversed(),
        };
    }
    if let Some(b) = bye {
        set[b as usize - 1] = RoundEntry::PairingBye;
    }
    for (p, e) in t.players.iter_mut().zip(set) {
        p.rounds.push(e);
    }
}

#[test]
fn round_one_top_half_meets_bottom_half_with_alternating_colours() {
    let t = field(7);
    let p = pair_next_round(&t).unwrap();
    assert_eq!(p.boards, vec![(1, 4), (5, 2), (3, 6)]);
    assert_eq!(p.bye, Some(7));
    let mut t = field(8);
    t.initial_colour = Colour::Black;
    let p = pair_next_round(&t).unwrap();
    assert_eq!(p.boards, vec![(5, 1), (2, 6), (7, 3), (4, 8)]);
    assert_eq!(p.bye, None);
}

#[test]
fn start_numbers_follow_rating_then_name() {
    let t = Tournament::new(
        "t",
        3,
        vec![
            ("Bea".into(), 1500),
            ("Al".into(), 1500),
            ("Cy".into(), 1900),
        ],
    );
    let names: Vec<&str> = t.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Cy", "Al", "Bea"]);
}

#[test]
fn round_two_pairs_winners_with_winners_and_alternates_colours() {
    let mut t = field(8);
    play(
        &mut t,
        &[
            (1, 5, Outcome::Win),
            (6, 2, Outcome::Loss),
            (3, 7, Outcome::Win),
            (8, 4, Outcome::Loss),
        ],
        None,
    );
    let p = pair_next_round(&t).unwrap();
    // Winners: S1 {1, 2}, S2 {3, 4}. 1 and 3 had white (both want black),
    // 2 and 4 had black: 1-3, 2-4 would deny two colour preferences, so
    // the transposition 1-4, 2-3 wins (C.04.3 C12 comes before the order
    // of the transpositions), and every preference is granted (E.1).
    assert_eq!(p.boards.len(), 4);
    assert_eq!(&p.boards[..2], &[(4, 1), (2, 3)]);
    let pairs: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    assert!(
        pairs.contains(&(5, 8)) && pairs.contains(&(6, 7)),
        "{pairs:?}"
    );
}

#[test]
fn colour_rules_e1_to_e5() {
    let mut t = field(4);
    play(
        &mut t,
        &[(1, 3, Outcome::Draw), (4, 2, Outcome::Draw)],
        None,
    );
    let s = states(&t);
    // E.1: 1 wants black, 2 wants white.
    assert!(!a_gets_white(&s[0], &s[1], Colour::White));
    assert!(a_gets_white(&s[1], &s[0], Colour::White));
    // E.4: 1 and 4 both had white, both want black: the higher-ranked gets it.
    assert!(a_gets_white(&s[3], &s[0], Colour::White));
    let t = field(4);
    let s = states(&t);
    // E.5: no history; pairing number 1 is odd: the initial colour.
    assert!(a_gets_white(&s[0], &s[2], Colour::White));
    assert!(!a_gets_white(&s[0], &s[2], Colour::Black));
    // Pairing number 2 is even: the other colour.
    assert!(!a_gets_white(&s[1], &s[3], Colour::White));
}

#[test]
fn the_bye_goes_to_the_lowest_eligible_player_of_the_lowest_score() {
    let mut t = field(5);
    play(
        &mut t,
        &[(1, 3, Outcome::Win), (4, 2, Outcome::Loss)],
        Some(5),
    );
    let p = pair_next_round(&t).unwrap();
    // 3 and 4 are on zero; 5 had the bye already (C2): 4 gets it.
    assert_eq!(p.bye, Some(4));
    assert_eq!(p.boards.len(), 2);
}

#[test]
fn forbidden_pairs_never_meet() {
    let mut t = field(8);
    t.forbidden.push((1, 5));
    let p = pair_next_round(&t).unwrap();
    for &(w, b) in &p.boards {
        assert!(!t.is_forbidden(w, b), "{w}-{b}");
    }
    assert_eq!(p.boards.len(), 4);
}

#[test]
fn absent_players_are_left_out() {
    let t = field(6);
    let p = pair_round(&t, &[1, 2, 3, 5, 6]).unwrap();
    assert!(p.boards.iter().all(|&(w, b)| w != 4 && b != 4));
    assert_eq!(p.boards.len(), 2);
    assert!(p.bye.is_some());
}

#[test]
fn a_downfloater_meets_the_highest_resident_it_may() {
    // Round 1: 1-4 (1 wins), 5-2 (2 wins), 3-6 (6 wins).
    let mut t = field(6);
    play(
        &mut t,
        &[
            (1, 4, Outcome::Win),
            (5, 2, Outcome::Loss),
            (3, 6, Outcome::Loss),
        ],
        None,
    );
    let p = pair_next_round(&t).unwrap();
    // Top group {1, 2, 6}: 1-2 (S1 {1}, S2 {2, 6}, colours fit), 6 floats
    // down. 6 already met 3; 6-4 would deny a preference (both want
    // white), 6-5 does not; then 3-4 (3 wants black, 4 white). Colours:
    // E.1 everywhere. Boards: the 1-point pair, then 6-5 (higher score 1),
    // then 3-4.
    assert_eq!(p.boards, vec![(2, 1), (6, 5), (4, 3)]);
    assert_eq!(p.bye, None);
}

/// The absolute criteria C1–C3 on a finished tournament.
fn check_absolute(t: &Tournament) {
    t.validate().unwrap();
    let rounds = t.rounds_paired();
    for p in &t.players {
        let mut met = std::collections::BTreeSet::new();
        let mut unplayed_points = 0;
        let mut colours: Vec<Colour> = Vec::new();
        for (r, e) in p.rounds.iter().enumerate() {
            if let RoundEntry::PairingBye = e {
                assert_eq!(
                    unplayed_points,
                    0,
                    "C2: player {} round {}: {t:?}",
                    p.start,
                    r + 1
                );
            }
            if e.is_unplayed_point() {
                unplayed_points += 1;
            }
            if let Some(o) = e.opponent() {
                assert!(
                    !t.is_forbidden(p.start, o),
                    "forbidden pair {} {o}",
                    p.start
                );
            }
            if let RoundEntry::Played {
                opponent, colour, ..
            } = e
            {
                assert!(
                    met.insert(*opponent),
                    "C1: {} met {opponent} twice",
                    p.start
                );
                let score_before = p.half_points_after(r);
                let topscorer = r + 1 == t.total_rounds as usize && score_before > r as u32;
                let opp_top = t.player(*opponent).unwrap().half_points_after(r) > r as u32
                    && r + 1 == t.total_rounds as usize;
                colours.push(*colour);
                let diff: i32 = colours
                    .iter()
                    .map(|c| if *c == Colour::White { 1 } else { -1 })
                    .sum();
                let three =
                    colours.len() >= 3 && colours[colours.len() - 3..].iter().all(|c| c == colour);
                if !(topscorer || opp_top) {
                    assert!(diff.abs() <= 2, "C3: player {} round {}", p.start, r + 1);
                    assert!(
                        !three,
                        "C3: player {} round {}: three in a row",
                        p.start,
                        r + 1
                    );
                }
            }
        }
        assert_eq!(p.rounds.len(), rounds);
    }
}

#[test]
fn absolute_criteria_hold_on_thousands_of_random_tournaments() {
    let mut rng = crate::rng::Rng::new(99);
    let mut done = 0;
    for seed in 0..2000u64 {
        let rounds = 3 + rng.below(6) as u32;
        let o = GeneratorOptions {
            seed,
            players: 4 + rng.below(16) as u32,
            rounds,
            draw_rate: rng.unit() * 0.6,
            bye_rate: if seed % 2 == 0 { 0.05 } else { 0.0 },
            forfeit_rate: if seed % 3 == 0 { 0.05 } else { 0.0 },
            withdraw_rate: if seed % 5 == 0 { 0.03 } else { 0.0 },
            late_rate: if seed % 7 == 0 { 0.2 } else { 0.0 },
            forbidden_pairs: (seed % 4) as u32,
            initial_colour: if seed % 2 == 0 {
                Colour::White
            } else {
                Colour::Black
            },
        };
        let g = generate(&o);
        check_absolute(&g.tournament);
        if g.stopped_at.is_none() {
            done += 1;
        }
    }
    assert!(done > 1500, "only {done} tournaments went the distance");
}

#[test]
fn larger_fields_use_the_fast_system_and_keep_the_absolute_criteria() {
    let g = generate(&GeneratorOptions {
        seed: 5,
        players: crate::dutch::EXACT_LIMIT as u32 + 41,
        rounds: 6,
        bye_rate: 0.03,
        forfeit_rate: 0.02,
        ..GeneratorOptions::default()
    });
    assert_eq!(g.stopped_at, None);
    check_absolute(&g.tournament);
}

#[test]
fn trf_round_trip() {
    for seed in 0..50 {
        let g = generate(&GeneratorOptions {
            seed,
            players: 9 + seed as u32 % 13,
            rounds: 5,
            bye_rate: 0.1,
            forfeit_rate: 0.1,
            withdraw_rate: 0.05,
            late_rate: 0.1,
            forbidden_pairs: 2,
            initial_colour: if seed % 2 == 0 {
                Colour::White
            } else {
                Colour::Black
            },
            ..GeneratorOptions::default()
        });
        let mut t = g.tournament;
        t.start_date = "2026/12/06".into();
        t.end_date = "2026/12/07".into();
        let text = trf::write(&t, &[(1, RoundEntry::HalfBye)]);
        let back = trf::read(&text).unwrap();
        assert_eq!(back.tournament, t);
        assert_eq!(back.next_round, vec![(1, RoundEntry::HalfBye)]);
        assert!(!back.present().contains(&1));
        assert_eq!(trf::write(&back.tournament, &back.next_round), text);
    }
}

#[test]
fn trf_columns_are_trf16s() {
    let mut t = field(2);
    play(&mut t, &[(1, 2, Outcome::Draw)], None);
    let text = trf::write(&t, &[]);
    let line = text.lines().find(|l| l.starts_with("001    1")).unwrap();
    assert_eq!(&line[4..8], "   1");
    assert_eq!(&line[14..17], "P00");
    assert_eq!(&line[48..52], "2000");
    assert_eq!(&line[80..84], " 0.5");
    assert_eq!(&line[85..89], "   1");
    assert_eq!(&line[91..99], "   2 w =");
    assert!(text.contains("\nXXR 5\n") && text.contains("\nXXC white1\n"));
}

#[test]
fn tie_breaks_by_hand() {
    // 1 beats 2, 3 draws 4; then 1 draws 3, 2 beats 4.
    let mut t = field(4);
    play(&mut t, &[(1, 2, Outcome::Win), (3, 4, Outcome::Draw)], None);
    play(&mut t, &[(1, 3, Outcome::Draw), (2, 4, Outcome::Win)], None);
    // Scores: 1: 1.5, 2: 1, 3: 1, 4: 0.5 (half-points 3, 2, 2, 1).
    assert_eq!(tiebreak::buchholz(&t, 1), 2 + 2);
    assert_eq!(tiebreak::sonneborn_berger(&t, 1), 2 * 2 + 2);
    assert_eq!(tiebreak::buchholz(&t, 4), 2 + 2);
    assert_eq!(tiebreak::sonneborn_berger(&t, 4), 2);
    assert_eq!(tiebreak::performance(&t, 1), Some((1990 + 500 + 1980) / 2));
    // 2 and 3 tie on points and Buchholz (4); Sonneborn-Berger: 2 has 2, 3 has 4.
    assert_eq!(tiebreak::standings(&t), vec![1, 3, 2, 4]);
}

#[test]
fn unplayed_rounds_by_c07_article_16() {
    let mut t = field(3);
    play(&mut t, &[(1, 2, Outcome::Win)], Some(3));
    play(&mut t, &[(3, 1, Outcome::Loss)], Some(2));
    // Player 3: the bye in round 1 (2 half-points), then lost to 1 (who
    // has 4). 16.4: the bye's dummy has 3's own score (2), capped at a draw
    // per round (2): 2. Buchholz 2 + 4; Sonneborn-Berger: 2 × 2 + 4 × 0.
    assert_eq!(tiebreak::buchholz(&t, 3), 2 + 4);
    assert_eq!(tiebreak::sonneborn_berger(&t, 3), 4);
    // Player 2 lost to 1, then had the bye: own score 2, dummy 2.
    assert_eq!(tiebreak::buchholz(&t, 2), 4 + 2);
    // A half-point bye asked for in the last round counts as a draw for
    // the opponents (16.2.5, 16.3); one followed by a game counts its
    // half point (16.2.3).
    let mut t = field(4);
    play(&mut t, &[(1, 2, Outcome::Win), (3, 4, Outcome::Win)], None);
    for p in &mut t.players {
        let e = if p.start == 4 {
            RoundEntry::ZeroBye
        } else {
            RoundEntry::Absent
        };
        p.rounds.push(e);
    }
    // 4 lost, then a zero-point bye in the last round: counted as a draw,
    // so 3's Buchholz sees 4 with 1 half-point, not 0.
    assert_eq!(tiebreak::buchholz(&t, 3), 1 + 2);
}
