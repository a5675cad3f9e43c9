//! The signals read from one player's side of one game: how little the
//! player lost by their moves, whether they were ever worse, how steady
//! their move times were, whether they moved fast at times, and how often
//! their tab had lost the focus when they moved.

use plyyard_game::Speed;
use serde::{Deserialize, Serialize};

/// Fewer plies in the game and it is not assessed.
pub const MIN_PLIES: usize = 20;

/// Evaluations are capped at this many centipawns either way (a mate
/// counts as this much): past it, a move loses nothing that matters.
pub const MAX_CP: i32 = 1000;

/// A move made in less than this (centiseconds) is a fast move.
pub const FAST_CS: u32 = 50;

/// Added to every move time (centiseconds) so that instant moves do not
/// make the spread of times meaningless.
const TIME_PAD_CS: u32 = 10;

/// Move times spread less than this (coefficient of variation) are
/// highly consistent.
const FLAT_CV: f64 = 0.25;
/// … or, over some window of [`WINDOW`] moves, less than this.
const FLAT_WINDOW_CV: f64 = 0.14;
/// Move times spread less than this are moderately consistent.
const STEADY_CV: f64 = 0.4;
/// The window of move times looked at for a flat streak.
const WINDOW: usize = 14;
/// A window with this many fast moves or more says nothing of a streak.
const WINDOW_MAX_FAST: usize = 4;
/// Move-time consistency only counts in games estimated longer than this
/// (seconds).
const MIN_ESTIMATED_SECS: u32 = 60;

/// The window of moves looked at for a streak of lost focus.
const BLUR_WINDOW: usize = 12;

/// One player's side of a finished game, as measured elsewhere.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Side {
    /// The game's speed.
    pub speed: Option<Speed>,
    /// The clock's estimated game length in seconds (`0`: no clock).
    pub estimated_secs: u32,
    /// Plies in the whole game.
    pub plies: usize,
    /// Centipawns the player lost with each of their moves (evaluations
    /// capped at [`MAX_CP`]), in order.
    pub losses: Vec<u32>,
    /// The player's lowest evaluation over the game, from their side, in
    /// centipawns (capped at [`MAX_CP`]; a mate against them is
    /// `-MAX_CP`).
    pub worst_eval: i32,
    /// The time each of the player's moves took, centiseconds, in order.
    pub move_times_cs: Vec<u32>,
    /// For each of the player's moves: whether their tab had lost the
    /// focus since their previous move.
    pub blurs: Vec<bool>,
    /// Whether the player won.
    pub won: bool,
}

/// One signal of engine use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Signal {
    /// The average loss per move is below the speed's threshold (25
    /// centipawns in bullet, 20 in blitz, 15 slower).
    LowLoss,
    /// The player was never worse than −1.00.
    AlwaysAhead,
    /// The tab had lost the focus before more than 90 % of the moves, or
    /// 11 of some 12 in a row.
    HighBlurs,
    /// … more than 70 %, or 8 of some 12 in a row.
    ModerateBlurs,
    /// Highly consistent move times.
    FlatTimes,
    /// Moderately consistent move times.
    SteadyTimes,
    /// (Almost) no fast moves.
    NoFastMoves,
}

impl Signal {
    /// Every signal, in the order [`Signals::raised`] lists them.
    pub const ALL: [Signal; 7] = [
        Signal::LowLoss,
        Signal::AlwaysAhead,
        Signal::HighBlurs,
        Signal::ModerateBlurs,
        Signal::FlatTimes,
        Signal::SteadyTimes,
        Signal::NoFastMoves,
    ];

    /// Its name in the API and the store.
    pub fn key(self) -> &'static str {
        match self {
            Signal::LowLoss => "lowLoss",
            Signal::AlwaysAhead => "alwaysAhead",
            Signal::HighBlurs => "highBlurs",
            Signal::ModerateBlurs => "moderateBlurs",
            Signal::FlatTimes => "flatTimes",
            Signal::SteadyTimes => "steadyTimes",
            Signal::NoFastMoves => "noFastMoves",
        }
    }

    /// The signal named `key`.
    pub fn from_key(key: &str) -> Option<Signal> {
        Signal::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// The signals raised by one side of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Signals {
    /// [`Signal::LowLoss`].
    pub low_loss: bool,
    /// [`Signal::AlwaysAhead`].
    pub always_ahead: bool,
    /// [`Signal::HighBlurs`].
    pub high_blurs: bool,
    /// [`Signal::ModerateBlurs`].
    pub moderate_blurs: bool,
    /// [`Signal::FlatTimes`].
    pub flat_times: bool,
    /// [`Signal::SteadyTimes`].
    pub steady_times: bool,
    /// [`Signal::NoFastMoves`].
    pub no_fast_moves: bool,
}

impl Signals {
    /// The signals of `side`; `None` when the game is too short
    /// ([`MIN_PLIES`]) or the player made no move.
    pub fn of(side: &Side) -> Option<Signals> {
        if side.plies < MIN_PLIES || side.losses.is_empty() {
            return None;
        }
        let clocked = side.estimated_secs > 0;
        let (high_blurs, moderate_blurs) = if clocked {
            blur_signals(&side.blurs)
        } else {
            (false, false)
        };
        let timed = side.estimated_secs > MIN_ESTIMATED_SECS;
        let times = padded_times(&side.move_times_cs);
        let cv = coefficient_of_variation(&times);
        Some(Signals {
            low_loss: average(&side.losses) < loss_threshold(side.speed),
            always_ahead: side.worst_eval >= -100,
            high_blurs,
            moderate_blurs,
            flat_times: timed && (cv.is_some_and(|c| c < FLAT_CV) || flat_streak(&times)),
            steady_times: timed && cv.is_some_and(|c| c < STEADY_CV),
            no_fast_moves: no_fast_moves(&side.move_times_cs),
        })
    }

    /// The signals raised, in [`Signal::ALL`] order.
    pub fn raised(&self) -> Vec<Signal> {
        let on = [
            self.low_loss,
            self.always_ahead,
            self.high_blurs,
            self.moderate_blurs,
            self.flat_times,
            self.steady_times,
            self.no_fast_moves,
        ];
        Signal::ALL
            .into_iter()
            .zip(on)
            .filter_map(|(s, on)| on.then_some(s))
            .collect()
    }
}

/// The average loss per move under which a game is suspicious.
fn loss_threshold(speed: Option<Speed>) -> f64 {
    match speed {
        Some(Speed::Bullet) => 25.0,
        Some(Speed::Blitz) => 20.0,
        _ => 15.0,
    }
}

fn average(xs: &[u32]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len() as f64
}

/// The move times the spread is measured on: the first move dropped (it
/// is made before the clock runs in earnest), each padded.
fn padded_times(times_cs: &[u32]) -> Vec<f64> {
    times_cs
        .iter()
        .skip(1)
        .map(|&t| f64::from(t.saturating_add(TIME_PAD_CS)))
        .collect()
}

/// The standard deviation of `xs` over their mean; `None` for fewer than
/// two values or a mean of zero.
pub fn coefficient_of_variation(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return None;
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    Some(var.sqrt() / mean)
}

/// Whether some window of [`WINDOW`] padded move times, with fewer than
/// [`WINDOW_MAX_FAST`] fast moves, trimmed of its quickest and slowest,
/// spreads less than [`FLAT_WINDOW_CV`].
fn flat_streak(times: &[f64]) -> bool {
    let fast = f64::from(FAST_CS + TIME_PAD_CS);
    times.windows(WINDOW).any(|w| {
        if w.iter().filter(|&&t| t < fast).count() >= WINDOW_MAX_FAST {
            return false;
        }
        let mut sorted = w.to_vec();
        sorted.sort_by(f64::total_cmp);
        coefficient_of_variation(&sorted[1..sorted.len() - 1]).is_some_and(|c| c < FLAT_WINDOW_CV)
    })
}

/// At most one fast move in twenty, plus two.
fn no_fast_moves(times_cs: &[u32]) -> bool {
    let fast = times_cs.iter().filter(|&&t| t < FAST_CS).count();
    fast <= times_cs.len() / 20 + 2
}

/// (high, moderate) lost-focus signals of the per-move `blurs`.
fn blur_signals(blurs: &[bool]) -> (bool, bool) {
    if blurs.is_empty() {
        return (false, false);
    }
    let count = blurs.iter().filter(|&&b| b).count();
    let percent = count * 100 / blurs.len();
    let streak = if blurs.len() < BLUR_WINDOW {
        count
    } else {
        blurs
            .windows(BLUR_WINDOW)
            .map(|w| w.iter().filter(|&&b| b).count())
            .max()
            .unwrap_or(0)
    };
    (percent > 90 || streak >= 11, percent > 70 || streak >= 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(losses: Vec<u32>, times: Vec<u32>) -> Side {
        let n = losses.len();
        Side {
            speed: Some(Speed::Blitz),
            estimated_secs: 180,
            plies: n * 2,
            losses,
            worst_eval: 30,
            move_times_cs: times,
            blurs: vec![false; n],
            won: true,
        }
    }

    #[test]
    fn a_short_game_raises_nothing() {
        assert_eq!(Signals::of(&side(vec![0; 9], vec![100; 9])), None);
    }

    #[test]
    fn an_engine_at_a_steady_pace_raises_low_loss_and_flat_times() {
        let times = (0..25).map(|i| 100 + (i % 3) * 5).collect();
        let s = Signals::of(&side(vec![3; 25], times)).unwrap();
        assert_eq!(
            s.raised(),
            vec![
                Signal::LowLoss,
                Signal::AlwaysAhead,
                Signal::FlatTimes,
                Signal::SteadyTimes,
                Signal::NoFastMoves
            ]
        );
    }

    #[test]
    fn a_human_spread_of_times_and_losses_raises_no_engine_signal() {
        let times = [
            300, 120, 45, 900, 210, 60, 1500, 95, 400, 30, 700, 180, 250, 80, 2200, 140, 35, 600,
            90, 320,
        ]
        .to_vec();
        let losses = [
            0, 40, 12, 150, 0, 80, 25, 300, 10, 60, 0, 35, 90, 20, 0, 45, 200, 15, 30, 0,
        ]
        .to_vec();
        let mut s = side(losses, times);
        s.worst_eval = -250;
        let raised = Signals::of(&s).unwrap();
        assert!(
            !raised.low_loss && !raised.always_ahead && !raised.flat_times && !raised.steady_times
        );
    }

    #[test]
    fn the_loss_threshold_follows_the_speed() {
        let mut s = side(vec![22; 20], vec![100; 20]);
        assert!(!Signals::of(&s).unwrap().low_loss);
        s.speed = Some(Speed::Bullet);
        assert!(Signals::of(&s).unwrap().low_loss);
        s.speed = Some(Speed::Classical);
        s.losses = vec![16; 20];
        assert!(!Signals::of(&s).unwrap().low_loss);
    }

    #[test]
    fn a_flat_streak_inside_a_varied_game_counts() {
        let mut times: Vec<u32> = vec![200, 900, 80, 1500, 60, 400, 2500];
        times.extend(
            [300; 14]
                .iter()
                .enumerate()
                .map(|(i, t)| t + (i as u32 % 2) * 10),
        );
        times.extend([1200, 70, 3000]);
        let n = times.len();
        let s = Signals::of(&side(vec![50; n], times)).unwrap();
        assert!(s.flat_times, "{s:?}");
        assert!(!s.steady_times);
    }

    #[test]
    fn consistency_needs_a_clock_of_over_a_minute() {
        let mut s = side(vec![3; 25], vec![100; 25]);
        s.estimated_secs = 60;
        let raised = Signals::of(&s).unwrap();
        assert!(!raised.flat_times && !raised.steady_times);
    }

    #[test]
    fn fast_moves_allow_two_and_one_in_twenty() {
        let mut times = vec![100; 40];
        times[..4].fill(20);
        assert!(
            Signals::of(&side(vec![3; 40], times.clone()))
                .unwrap()
                .no_fast_moves
        );
        times[4] = 20;
        assert!(
            !Signals::of(&side(vec![3; 40], times))
                .unwrap()
                .no_fast_moves
        );
    }

    #[test]
    fn blurs_by_share_and_by_streak() {
        let mut s = side(vec![3; 30], vec![100; 30]);
        s.blurs = (0..30).map(|i| i % 5 != 0).collect();
        let r = Signals::of(&s).unwrap();
        assert!(r.moderate_blurs && !r.high_blurs, "80 %, never 11 of 12");
        s.blurs = vec![false; 30];
        s.blurs[5..16].fill(true);
        let r = Signals::of(&s).unwrap();
        assert!(r.high_blurs && r.moderate_blurs, "11 of 12 in a row");
        s.estimated_secs = 0;
        let r = Signals::of(&s).unwrap();
        assert!(!r.high_blurs && !r.moderate_blurs, "only with a clock");
    }

    #[test]
    fn signal_keys_are_their_json_names() {
        for s in Signal::ALL {
            assert_eq!(Signal::from_key(s.key()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.key());
        }
        assert_eq!(Signal::from_key("fastHands"), None);
    }

    #[test]
    fn the_coefficient_of_variation() {
        assert_eq!(coefficient_of_variation(&[1.0]), None);
        assert_eq!(coefficient_of_variation(&[2.0, 2.0]), Some(0.0));
        let cv = coefficient_of_variation(&[1.0, 3.0]).unwrap();
        assert!((cv - 0.5).abs() < 1e-12);
    }
}
