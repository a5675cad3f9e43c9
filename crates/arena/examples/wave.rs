//! Times the pairing wave on a simulated Arena.
//!
//! `cargo run --release -p plyyard-arena --example wave -- --players 1000`
//! (options: `--players N`, `--waves W` timed waves, default 20, `--seed S`).
//!
//! A field of N players is built with ratings spread around 1500 and played
//! through 10 untimed waves (results drawn from the rating gap), so ranks,
//! colour histories and last opponents are those of a running Arena. Then
//! W waves are timed with the whole field waiting (the worst case), each
//! followed by its results. Prints the median and the maximum.

use plyyard_arena::{
    Colour, ColourHistory, Pairing, Timestamp, WaitingPlayer, WaveContext, pair_wave,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

struct Options {
    players: usize,
    waves: usize,
    seed: u64,
}

fn options() -> Options {
    let mut o = Options {
        players: 1000,
        waves: 20,
        seed: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse().ok());
        match (pair[0].as_str(), value) {
            ("--players", Some(v)) => o.players = v as usize,
            ("--waves", Some(v)) => o.waves = v as usize,
            ("--seed", Some(v)) => o.seed = v,
            _ => panic!("usage: wave [--players N] [--waves W] [--seed S]"),
        }
    }
    o
}

/// One simulated player.
struct Entrant {
    rating: u16,
    score: u32,
    colours: ColourHistory,
    last_opponent: Option<u32>,
    since: i64,
}

fn field(n: usize, rng: &mut StdRng) -> Vec<Entrant> {
    (0..n)
        .map(|_| {
            let spread: f64 = (0..6).map(|_| rng.random_range(-1.0..1.0)).sum::<f64>() * 210.0;
            Entrant {
                rating: (1500.0 + spread).clamp(600.0, 3000.0) as u16,
                score: 0,
                colours: ColourHistory::EMPTY,
                last_opponent: None,
                since: 0,
            }
        })
        .collect()
}

/// Ranks by score then rating (1 = leader), per player index.
fn ranks(field: &[Entrant]) -> Vec<NonZeroU32> {
    let mut order: Vec<usize> = (0..field.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse((field[i].score, field[i].rating)), i));
    let mut rank = vec![NonZeroU32::MIN; field.len()];
    for (r, i) in order.into_iter().enumerate() {
        rank[i] = NonZeroU32::new(r as u32 + 1).unwrap();
    }
    rank
}

fn waiting(field: &[Entrant]) -> Vec<WaitingPlayer<u32>> {
    let rank = ranks(field);
    field
        .iter()
        .enumerate()
        .map(|(i, e)| WaitingPlayer {
            id: i as u32,
            rank: rank[i],
            rating: e.rating,
            colours: e.colours,
            last_opponent: e.last_opponent,
            waiting_since: Timestamp::from_millis(e.since),
        })
        .collect()
}

/// Plays the games: the stronger side wins more often, some draws.
fn play(field: &mut [Entrant], pairs: &[Pairing<u32>], clock_ms: i64, rng: &mut StdRng) {
    for p in pairs {
        let (w, b) = (p.white as usize, p.black as usize);
        let gap = f64::from(field[w].rating) - f64::from(field[b].rating);
        let white_expect = 1.0 / (1.0 + 10f64.powf(-gap / 400.0));
        let roll: f64 = rng.random();
        let (sw, sb) = if roll < 0.1 {
            (1, 1)
        } else if roll < 0.1 + 0.9 * white_expect {
            (2, 0)
        } else {
            (0, 2)
        };
        for (me, colour, opp, pts) in [(w, Colour::White, b, sw), (b, Colour::Black, w, sb)] {
            let e = &mut field[me];
            e.score += pts;
            e.colours = e.colours.then(colour);
            e.last_opponent = Some(opp as u32);
            e.since = clock_ms + rng.random_range(0..30_000);
        }
    }
}

fn main() {
    let o = options();
    let mut rng = StdRng::seed_from_u64(o.seed);
    let mut players = field(o.players, &mut rng);
    let context = WaveContext {
        recently_started: false,
        active_players: o.players,
    };
    for wave in 0..10 {
        let pairs = pair_wave(&waiting(&players), context, &mut rng);
        play(&mut players, &pairs, wave * 60_000, &mut rng);
    }
    let mut times = Vec::with_capacity(o.waves);
    let mut paired = 0;
    for wave in 0..o.waves {
        let input = waiting(&players);
        let started = Instant::now();
        let pairs = pair_wave(&input, context, &mut rng);
        times.push(started.elapsed());
        paired = pairs.len();
        play(&mut players, &pairs, (10 + wave as i64) * 60_000, &mut rng);
    }
    report(&o, &mut times, paired);
}

fn report(o: &Options, times: &mut [Duration], paired: usize) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = ms(times[times.len() / 2]);
    let max = ms(times[times.len() - 1]);
    println!(
        "players waiting: {}  waves: {}  seed: {}  pairs per wave: {}  median: {median:.1} ms  max: {max:.1} ms",
        o.players, o.waves, o.seed, paired
    );
}
