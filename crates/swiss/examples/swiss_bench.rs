//! Times the pairing of every round of a random tournament:
//! `cargo run --release -p plyyard-swiss --example swiss_bench -- PLAYERS ROUNDS [auto|exact|fast] [SEED]`.
//! Prints the slowest round and the mean, in seconds.

use std::time::Instant;

use plyyard_swiss::dutch::{Method, pair_round_by};
use plyyard_swiss::model::{Colour, Outcome, RoundEntry, Tournament};
use plyyard_swiss::rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let rounds: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(9);
    let method = match args.get(3).map(String::as_str) {
        Some("exact") => Method::Exact,
        Some("fast") => Method::Fast,
        _ => Method::Auto,
    };
    let seed: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = Rng::new(seed);
    let entrants = (0..players)
        .map(|i| (format!("P{i}"), 1000 + rng.below(1700) as u16))
        .collect();
    let mut t = Tournament::new("bench", rounds, entrants);
    let all: Vec<u32> = (1..=players).collect();
    let mut times = Vec::new();
    for round in 1..=rounds {
        let started = Instant::now();
        let p = match pair_round_by(&t, &all, method) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("round {round}: {e}");
                break;
            }
        };
        let secs = started.elapsed().as_secs_f64();
        times.push(secs);
        eprintln!("round {round}: {secs:.3} s");
        let mut set = vec![RoundEntry::Absent; players as usize];
        if let Some(b) = p.bye {
            set[b as usize - 1] = RoundEntry::PairingBye;
        }
        for (w, b) in p.boards {
            let o = match rng.below(10) {
                0..=3 => Outcome::Win,
                4..=6 => Outcome::Draw,
                _ => Outcome::Loss,
            };
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
        for (pl, e) in t.players.iter_mut().zip(set) {
            pl.rounds.push(e);
        }
    }
    let max = times.iter().copied().fold(0.0, f64::max);
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    println!(
        "{players} players, {} rounds, {method:?}: slowest round {max:.3} s, mean {mean:.3} s",
        times.len()
    );
}
