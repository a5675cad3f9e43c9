//! Chess clocks for games between people: [`TimeControl`] (the range of
//! clocks played here and the presets), [`Speed`] (bullet, blitz, rapid,
//! classical) and [`Clock`], a pure two-sided clock with increment, flag
//! fall and a bounded lag allowance.
//!
//! The clock never reads the time. Every operation takes the current
//! [`Moment`] (monotonic time since an origin the caller chooses), so the
//! server can run it on `tokio::time` — paused in tests — and wait for
//! [`Clock::deadline`] with a single timer.

use std::fmt;
use std::ops::{Add, RangeInclusive};
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Color};

/// The largest increment, in seconds.
const MAX_INCREMENT_SECS: u32 = 180;

/// A time control: a base time for the game plus an increment in seconds
/// added after each move.
///
/// Only the range played here can be built (lichess's custom clocks but
/// for the sub-30-second ones): a base of ½, ¾, 1 or 1½ minutes or whole
/// minutes up to 180 ([`TimeControl::SHORT_BASES_SECS`],
/// [`TimeControl::MINUTES`]) and an increment of
/// [`TimeControl::INCREMENT_SECS`] (0 to 180 seconds). It is written
/// `M+S` with the base in minutes (`"10+5"`, `"0.5+0"`), which [`FromStr`]
/// reads back and serde uses.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use plyyard_game::{Speed, TimeControl};
///
/// let tc = TimeControl::table(10, 5).unwrap();
/// assert_eq!(tc, TimeControl::PRESET_10_5);
/// assert_eq!(tc.initial(), Duration::from_secs(600));
/// assert_eq!(tc.increment(), Duration::from_secs(5));
/// assert_eq!(tc.estimated_secs(), 800);
/// assert_eq!(tc.speed(), Speed::Rapid);
/// assert_eq!(tc.to_string(), "10+5");
/// assert_eq!("10+5".parse::<TimeControl>().unwrap(), tc);
///
/// let half = TimeControl::from_secs(30, 0).unwrap();
/// assert_eq!(half.to_string(), "0.5+0");
/// assert_eq!(half.speed(), Speed::Bullet);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    base_secs: u32,
    increment_secs: u32,
}

impl TimeControl {
    /// The bases under two minutes, in seconds (½, ¾, 1 and 1½ minutes).
    pub const SHORT_BASES_SECS: [u32; 4] = [30, 45, 60, 90];
    /// The whole minutes a base may have.
    pub const MINUTES: RangeInclusive<u32> = 1..=180;
    /// The increments, in seconds.
    pub const INCREMENT_SECS: RangeInclusive<u32> = 0..=MAX_INCREMENT_SECS;

    /// Preset 1+0 (bullet).
    pub const PRESET_1_0: TimeControl = TimeControl::preset(1, 0);
    /// Preset 2+1 (bullet).
    pub const PRESET_2_1: TimeControl = TimeControl::preset(2, 1);
    /// Preset 3+2 (blitz).
    pub const PRESET_3_2: TimeControl = TimeControl::preset(3, 2);
    /// Preset 5+3 (blitz).
    pub const PRESET_5_3: TimeControl = TimeControl::preset(5, 3);
    /// Preset 10+5 (rapid).
    pub const PRESET_10_5: TimeControl = TimeControl::preset(10, 5);
    /// Preset 15+10 (rapid).
    pub const PRESET_15_10: TimeControl = TimeControl::preset(15, 10);
    /// Preset 30+20 (classical).
    pub const PRESET_30_20: TimeControl = TimeControl::preset(30, 20);
    /// The presets offered when opening a table, fastest first.
    pub const PRESETS: [TimeControl; 7] = [
        TimeControl::PRESET_1_0,
        TimeControl::PRESET_2_1,
        TimeControl::PRESET_3_2,
        TimeControl::PRESET_5_3,
        TimeControl::PRESET_10_5,
        TimeControl::PRESET_15_10,
        TimeControl::PRESET_30_20,
    ];

    const fn preset(minutes: u32, increment_secs: u32) -> TimeControl {
        // Checked at compile time: a preset outside the range fails to build.
        assert!(minutes >= 1 && minutes <= 180);
        assert!(increment_secs <= MAX_INCREMENT_SECS);
        TimeControl {
            base_secs: minutes * 60,
            increment_secs,
        }
    }

    /// Whether `base_secs` is a base played here: ½, ¾, 1 or 1½ minutes, or
    /// whole minutes up to 180.
    pub const fn valid_base_secs(base_secs: u32) -> bool {
        matches!(base_secs, 30 | 45 | 90)
            || (base_secs.is_multiple_of(60) && base_secs >= 60 && base_secs <= 180 * 60)
    }

    /// The time control of `base_secs` seconds for the game plus
    /// `increment_secs` after each move.
    ///
    /// # Errors
    ///
    /// Returns [`TimeControlError::Base`] if the base is not one played
    /// here (see [`TimeControl::valid_base_secs`]), otherwise
    /// [`TimeControlError::Increment`] if `increment_secs` is outside
    /// [`TimeControl::INCREMENT_SECS`]. Both hand back the input.
    ///
    /// # Examples
    ///
    /// ```
    /// use plyyard_game::{TimeControl, TimeControlError};
    ///
    /// assert!(TimeControl::from_secs(45, 0).is_ok());
    /// assert!(TimeControl::from_secs(5400, 30).is_ok());
    /// assert_eq!(
    ///     TimeControl::from_secs(15, 0),
    ///     Err(TimeControlError::Base { base_secs: 15, increment_secs: 0 })
    /// );
    /// assert_eq!(
    ///     TimeControl::from_secs(60, 181),
    ///     Err(TimeControlError::Increment { base_secs: 60, increment_secs: 181 })
    /// );
    /// ```
    pub const fn from_secs(
        base_secs: u32,
        increment_secs: u32,
    ) -> Result<TimeControl, TimeControlError> {
        if !TimeControl::valid_base_secs(base_secs) {
            Err(TimeControlError::Base {
                base_secs,
                increment_secs,
            })
        } else if increment_secs > MAX_INCREMENT_SECS {
            Err(TimeControlError::Increment {
                base_secs,
                increment_secs,
            })
        } else {
            Ok(TimeControl {
                base_secs,
                increment_secs,
            })
        }
    }

    /// The time control of `minutes` whole minutes plus `increment_secs`
    /// after each move (for the fractional bases, see
    /// [`TimeControl::from_secs`]).
    ///
    /// # Errors
    ///
    /// As [`TimeControl::from_secs`]: whole minutes from 1 to 180 and an
    /// increment of 0 to 180 s.
    ///
    /// # Examples
    ///
    /// ```
    /// use plyyard_game::{TimeControl, TimeControlError};
    ///
    /// assert!(TimeControl::table(1, 0).is_ok());
    /// assert!(TimeControl::table(180, 180).is_ok());
    /// assert_eq!(
    ///     TimeControl::table(0, 5),
    ///     Err(TimeControlError::Base { base_secs: 0, increment_secs: 5 })
    /// );
    /// ```
    pub fn table(minutes: u32, increment_secs: u32) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_secs(minutes.saturating_mul(60), increment_secs)
    }

    /// Base time for the game, in seconds.
    pub const fn base_secs(self) -> u32 {
        self.base_secs
    }

    /// Increment in seconds.
    pub const fn increment_secs(self) -> u32 {
        self.increment_secs
    }

    /// The base in minutes as written (`"10"`, `"0.5"`, `"0.75"`, `"1.5"`).
    pub fn minutes_text(self) -> String {
        minutes_text(self.base_secs)
    }

    /// Each side's time at the start.
    pub const fn initial(self) -> Duration {
        Duration::from_secs(self.base_secs as u64)
    }

    /// Time added to the mover's clock after each move.
    pub const fn increment(self) -> Duration {
        Duration::from_secs(self.increment_secs as u64)
    }

    /// Estimated duration of one side's play: `base + 40 × increment`
    /// seconds, a game of 40 moves.
    pub const fn estimated_secs(self) -> u32 {
        self.base_secs + 40 * self.increment_secs
    }

    /// The rating category, from [`TimeControl::estimated_secs`].
    pub const fn speed(self) -> Speed {
        Speed::from_estimated_secs(self.estimated_secs())
    }

    /// The value of the PGN `TimeControl` tag: seconds, `+`, increment
    /// (`"600+5"`).
    pub fn pgn_tag(self) -> String {
        format!("{}+{}", self.base_secs, self.increment_secs)
    }
}

/// `secs` in minutes as written: whole minutes, else up to two decimals
/// (`"0.5"`, `"0.75"`, `"1.5"`).
pub fn minutes_text(secs: u32) -> String {
    if secs.is_multiple_of(60) {
        return (secs / 60).to_string();
    }
    let hundredths = secs * 100 / 60;
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').to_owned()
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.minutes_text(), self.increment_secs)
    }
}

/// Seconds in `text` minutes (`"10"`, `"0.5"`, `"1.5"`), if a whole number
/// of seconds.
fn secs_of_minutes(text: &str) -> Option<u32> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) if digits(fraction) => (whole, fraction),
        Some(_) => return None,
        None => (text, ""),
    };
    if !digits(whole) {
        return None;
    }
    let whole: u32 = whole.parse().ok()?;
    // The fraction in ten-thousandths of a minute, times 60: seconds × 10⁴.
    let frac: u32 = format!("{fraction:0<4}").parse().ok()?;
    let scaled = frac * 60;
    scaled
        .is_multiple_of(10_000)
        .then(|| whole * 60 + scaled / 10_000)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads `M+S`, the base in minutes (`"10+5"`, `"0.5+0"`, spaces around
    /// the numbers allowed).
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let malformed = || TimeControlError::Malformed {
            input: s.to_owned(),
        };
        let (minutes, increment) = s.split_once('+').ok_or_else(malformed)?;
        let base = secs_of_minutes(minutes.trim()).ok_or_else(malformed)?;
        let increment = increment.trim().parse().map_err(|_| malformed())?;
        TimeControl::from_secs(base, increment)
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;

    fn try_from(s: String) -> Result<TimeControl, TimeControlError> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

/// A time control was refused; hands back the input and names the range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// The base is not ½, ¾, 1 or 1½ minutes nor whole minutes up to 180.
    #[error(
        "{}+{increment_secs} refused: the base time is 0.5, 0.75, 1 or 1.5 minutes, \
         or whole minutes up to 180",
        minutes_text(*base_secs)
    )]
    Base {
        /// The refused base, in seconds.
        base_secs: u32,
        /// The increment that came with it.
        increment_secs: u32,
    },
    /// The increment is over 180 seconds.
    #[error(
        "{}+{increment_secs} refused: the increment is 0 to 180 seconds",
        minutes_text(*base_secs)
    )]
    Increment {
        /// The base that came with the increment, in seconds.
        base_secs: u32,
        /// The refused increment, in seconds.
        increment_secs: u32,
    },
    /// The text is not `M+S`.
    #[error("time control {input:?} is not minutes+increment such as \"10+5\" or \"0.5+0\"")]
    Malformed {
        /// The refused text.
        input: String,
    },
}

impl TimeControlError {
    /// A short machine-readable kind: `minutes`, `increment` or `malformed`.
    pub fn kind(&self) -> &'static str {
        match self {
            TimeControlError::Base { .. } => "minutes",
            TimeControlError::Increment { .. } => "increment",
            TimeControlError::Malformed { .. } => "malformed",
        }
    }
}

/// Rating category of a time control, by its estimated duration
/// (lichess's boundaries; lichess's ultraBullet, under 30 s, cannot arise
/// from the clocks played here: the shortest is ½+0, 30 s).
///
/// # Examples
///
/// ```
/// use plyyard_game::{Speed, TimeControl};
///
/// assert_eq!(TimeControl::PRESET_1_0.speed(), Speed::Bullet);
/// assert_eq!(TimeControl::PRESET_3_2.speed(), Speed::Blitz);
/// assert_eq!(TimeControl::PRESET_10_5.speed(), Speed::Rapid);
/// assert_eq!(TimeControl::PRESET_30_20.speed().as_str(), "classical");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// Estimated under 180 s (3 minutes).
    Bullet,
    /// Estimated from 180 s up to under 480 s (8 minutes).
    Blitz,
    /// Estimated from 480 s up to under 1500 s (25 minutes).
    Rapid,
    /// Estimated 1500 s or more.
    Classical,
}

impl Speed {
    /// All speeds, fastest first.
    pub const ALL: [Speed; 4] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// The speed of a game estimated to last `secs` seconds per side
    /// (see [`TimeControl::estimated_secs`]).
    pub const fn from_estimated_secs(secs: u32) -> Speed {
        if secs < 180 {
            Speed::Bullet
        } else if secs < 480 {
            Speed::Blitz
        } else if secs < 1500 {
            Speed::Rapid
        } else {
            Speed::Classical
        }
    }

    /// The lowercase name used in JSON and the database.
    pub const fn as_str(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Speed {
    type Err = crate::ParseNameError;

    fn from_str(s: &str) -> Result<Speed, crate::ParseNameError> {
        Speed::ALL
            .into_iter()
            .find(|speed| s.trim().eq_ignore_ascii_case(speed.as_str()))
            .ok_or_else(|| crate::ParseNameError {
                what: "speed",
                input: s.to_owned(),
            })
    }
}

/// A point in monotonic time: the duration since an origin the caller
/// chooses (the server's start, say) and keeps for the whole game.
///
/// With `tokio::time`, `Moment::from(tokio::time::Instant::now() - origin)`
/// gives the moment, and `origin + deadline.since_origin()` turns
/// [`Clock::deadline`] back into an instant to sleep until.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Moment(Duration);

impl Moment {
    /// The origin itself.
    pub const ORIGIN: Moment = Moment(Duration::ZERO);

    /// The moment `since_origin` after the origin.
    pub const fn from_origin(since_origin: Duration) -> Moment {
        Moment(since_origin)
    }

    /// The moment `ms` milliseconds after the origin.
    pub const fn from_millis(ms: u64) -> Moment {
        Moment(Duration::from_millis(ms))
    }

    /// Time since the origin.
    pub const fn since_origin(self) -> Duration {
        self.0
    }

    /// Time from `earlier` to this moment, zero if `earlier` is later.
    pub fn saturating_duration_since(self, earlier: Moment) -> Duration {
        self.0.saturating_sub(earlier.0)
    }
}

impl From<Duration> for Moment {
    fn from(since_origin: Duration) -> Moment {
        Moment(since_origin)
    }
}

impl Add<Duration> for Moment {
    type Output = Moment;

    fn add(self, d: Duration) -> Moment {
        Moment(self.0 + d)
    }
}

/// A press of the clock was refused (or a start); the clock is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// No clock has been started yet.
    #[error("the clock has not been started")]
    NotStarted,
    /// The clocks were stopped: the game is over.
    #[error("the clocks are stopped")]
    Stopped,
    /// [`Clock::start`] while a clock already runs.
    #[error("{running}'s clock is already running")]
    AlreadyRunning {
        /// The side whose clock runs.
        running: Color,
    },
    /// The side that pressed is not the side whose clock runs.
    #[error("{pressed} pressed the clock, but it is {running}'s turn")]
    NotYourTurn {
        /// The side that pressed.
        pressed: Color,
        /// The side whose clock runs.
        running: Color,
    },
    /// The running side's time had run out at the moment of the press, so
    /// the move does not count: the game is lost on time (or drawn, FIDE 6.9).
    #[error("{color}'s flag has fallen")]
    Flagged {
        /// The side whose flag fell.
        color: Color,
    },
}

/// What a successful [`Clock::press`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Press {
    /// Time the move took on the server's clock, from the start of the turn
    /// to the press.
    pub elapsed: Duration,
    /// Lag credited back to the mover (at most [`Clock::LAG_CREDIT_MAX`]).
    pub lag_credit: Duration,
    /// The mover's remaining time after the move, increment included (the
    /// value of PGN's `[%clk]`).
    pub remaining: Duration,
}

/// The state of a [`Clock`] as plain data, to store with each move and
/// give back to [`Clock::restore`] after a restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSnapshot {
    /// White's remaining time, in milliseconds.
    pub white_ms: u64,
    /// Black's remaining time, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs, if any.
    #[serde(with = "color_name")]
    pub running: Option<Color>,
    /// White's lag quota, in milliseconds.
    pub white_lag_quota_ms: u64,
    /// Black's lag quota, in milliseconds.
    pub black_lag_quota_ms: u64,
}

/// `Option<Color>` as `"white"`, `"black"` or `null`.
mod color_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match color {
            Some(c) => s.serialize_some(c.fold_wb("white", "black")),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(name) => name
                .parse()
                .map(Some)
                .map_err(|_| D::Error::custom(format!("unknown colour {name:?}"))),
        }
    }
}

/// A two-sided chess clock with increment, driven by the [`Moment`]s passed
/// in.
///
/// At most one side's clock runs. A clock starts with [`Clock::start`] (the
/// server starts it once both sides have made their first move, which have
/// their own time-outs); each [`Clock::press`] stops the mover's clock, adds
/// the increment and starts the opponent's; [`Clock::stop`] freezes both at
/// the end of the game. A flag falls when the running side's time reaches
/// zero — exactly zero counts — and remaining times never go below zero.
///
/// # Lag allowance
///
/// A move spends time on the network before the server sees it. The client
/// measures that lag and sends it with the move; the clock credits it back,
/// within bounds, from a per-player quota (after lichess's lag quota):
///
/// * each move credits at most [`Clock::LAG_CREDIT_MAX`] (1 s), and never
///   more than the move's elapsed time or the player's quota;
/// * the quota starts at [`Clock::LAG_QUOTA_START`] (3 s), loses what is
///   credited and regains [`Clock::LAG_QUOTA_GAIN`] (0.5 s) after each
///   move, up to [`Clock::LAG_QUOTA_MAX`] (5 s).
///
/// So over `n` moves a player is credited at most `3 s + 0.5 s × (n − 1)`,
/// however much lag they claim: a steady 0.5 s of lag per move is
/// covered in full, spikes up to 1 s are covered while the quota lasts.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use plyyard_game::shakmaty::Color;
/// use plyyard_game::{Clock, ClockError, Moment, TimeControl};
///
/// let mut clock = Clock::new(TimeControl::PRESET_3_2);
/// clock.start(Color::White, Moment::from_millis(0)).unwrap();
///
/// // White moves after 10 s (no lag claimed): 180 - 10 + 2 = 172 s.
/// let press = clock.press(Color::White, Moment::from_millis(10_000), Duration::ZERO).unwrap();
/// assert_eq!(press.remaining, Duration::from_secs(172));
/// assert_eq!(clock.running(), Some(Color::Black));
///
/// // Black's flag falls 180 s later unless Black moves.
/// assert_eq!(clock.deadline(), Some(Moment::from_millis(190_000)));
/// assert_eq!(clock.flagged(Moment::from_millis(189_999)), None);
/// assert_eq!(clock.flagged(Moment::from_millis(190_000)), Some(Color::Black));
/// assert_eq!(
///     clock.press(Color::Black, Moment::from_millis(190_000), Duration::ZERO),
///     Err(ClockError::Flagged { color: Color::Black })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Remaining time at the start of the current turn (for the running
    /// side) or now (for the other side).
    remaining: ByColor<Duration>,
    lag_quota: ByColor<Duration>,
    /// Sides that went berserk (an Arena's rule): no increment for them.
    berserk: ByColor<bool>,
    state: State,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NotStarted,
    Running { color: Color, since: Moment },
    Stopped,
}

impl Clock {
    /// Most lag credited for one move.
    pub const LAG_CREDIT_MAX: Duration = Duration::from_millis(1_000);
    /// Each player's lag quota at the start of a game.
    pub const LAG_QUOTA_START: Duration = Duration::from_millis(3_000);
    /// Lag quota regained after each move.
    pub const LAG_QUOTA_GAIN: Duration = Duration::from_millis(500);
    /// Most lag quota a player can hold.
    pub const LAG_QUOTA_MAX: Duration = Duration::from_millis(5_000);

    /// A clock for `control`: both sides at the initial time, full lag quotas,
    /// nothing running.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: ByColor::new_with(|_| control.initial()),
            lag_quota: ByColor::new_with(|_| Clock::LAG_QUOTA_START),
            berserk: ByColor::default(),
            state: State::NotStarted,
        }
    }

    /// `color` goes berserk (an Arena's rule) before the clock starts:
    /// their time becomes `time` (never more than they have) and their
    /// moves get no increment from now on.
    ///
    /// # Errors
    ///
    /// [`ClockError::AlreadyRunning`] once the clock runs,
    /// [`ClockError::Stopped`] after the game; the clock is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_3_2);
    /// clock.berserk(Color::Black, Duration::from_secs(90)).unwrap();
    /// clock.start(Color::White, Moment::ORIGIN).unwrap();
    /// clock.press(Color::White, Moment::from_millis(1_000), Duration::ZERO).unwrap();
    /// let black = clock.press(Color::Black, Moment::from_millis(3_000), Duration::ZERO).unwrap();
    /// assert_eq!(black.remaining, Duration::from_secs(88));
    /// ```
    pub fn berserk(&mut self, color: Color, time: Duration) -> Result<(), ClockError> {
        match self.state {
            State::NotStarted => {
                self.remaining[color] = self.remaining[color].min(time);
                self.berserk[color] = true;
                Ok(())
            }
            State::Running { color: running, .. } => Err(ClockError::AlreadyRunning { running }),
            State::Stopped => Err(ClockError::Stopped),
        }
    }

    /// Whether `color` went berserk.
    pub fn is_berserk(&self, color: Color) -> bool {
        self.berserk[color]
    }

    /// Marks `color` berserk (no increment) without touching their time:
    /// for a clock restored from stored times that were already halved.
    pub fn restore_berserk(&mut self, color: Color) {
        self.berserk[color] = true;
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose clock runs, if any.
    pub fn running(&self) -> Option<Color> {
        match self.state {
            State::Running { color, .. } => Some(color),
            State::NotStarted | State::Stopped => None,
        }
    }

    /// Whether [`Clock::stop`] has been called.
    pub fn is_stopped(&self) -> bool {
        self.state == State::Stopped
    }

    /// Starts `color`'s clock at `now` (the side to move).
    ///
    /// # Errors
    ///
    /// Returns [`ClockError::AlreadyRunning`] if a clock runs and
    /// [`ClockError::Stopped`] after [`Clock::stop`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, ClockError, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_5_3);
    /// clock.start(Color::White, Moment::from_millis(1_000)).unwrap();
    /// assert_eq!(clock.remaining(Color::White, Moment::from_millis(3_000)), Duration::from_secs(298));
    /// assert_eq!(
    ///     clock.start(Color::Black, Moment::from_millis(3_000)),
    ///     Err(ClockError::AlreadyRunning { running: Color::White })
    /// );
    /// ```
    pub fn start(&mut self, color: Color, now: Moment) -> Result<(), ClockError> {
        match self.state {
            State::NotStarted => {
                self.state = State::Running { color, since: now };
                Ok(())
            }
            State::Running { color, .. } => Err(ClockError::AlreadyRunning { running: color }),
            State::Stopped => Err(ClockError::Stopped),
        }
    }

    /// `color`'s remaining time at `now` (zero once the flag has fallen).
    pub fn remaining(&self, color: Color, now: Moment) -> Duration {
        match self.state {
            State::Running {
                color: running,
                since,
            } if running == color => {
                self.remaining[color].saturating_sub(now.saturating_duration_since(since))
            }
            _ => self.remaining[color],
        }
    }

    /// The side whose time has run out at `now`, if any: remaining time of
    /// exactly zero counts.
    ///
    /// # Examples
    ///
    /// ```
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_3_2);
    /// clock.start(Color::White, Moment::ORIGIN).unwrap();
    /// assert_eq!(clock.flagged(Moment::from_millis(179_999)), None);
    /// assert_eq!(clock.flagged(Moment::from_millis(180_000)), Some(Color::White));
    /// ```
    pub fn flagged(&self, now: Moment) -> Option<Color> {
        if let State::Running { color, .. } = self.state {
            return (self.remaining(color, now).is_zero()).then_some(color);
        }
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.remaining[c].is_zero())
    }

    /// The moment the running side's time runs out (its flag falls), or
    /// `None` when no clock runs. The server sleeps until this moment and
    /// then checks [`Clock::flagged`].
    pub fn deadline(&self) -> Option<Moment> {
        match self.state {
            State::Running { color, since } => Some(since + self.remaining[color]),
            State::NotStarted | State::Stopped => None,
        }
    }

    /// `color` has moved at `now` and presses the clock: their clock stops,
    /// the elapsed time less the lag credit (see [the lag
    /// allowance](Clock#lag-allowance); `client_lag` is what the client
    /// measured for this move) is charged, the increment is added, and the
    /// opponent's clock starts at `now`.
    ///
    /// # Errors
    ///
    /// Leaves the clock unchanged and returns
    /// [`ClockError::Flagged`] if the running side's time had run out at
    /// `now` (a move that arrives at or after the flag never counts,
    /// whatever lag is claimed), [`ClockError::NotYourTurn`] if the other side's clock
    /// runs, [`ClockError::NotStarted`] before [`Clock::start`] and
    /// [`ClockError::Stopped`] after [`Clock::stop`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, ClockError, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_10_5);
    /// clock.start(Color::White, Moment::ORIGIN).unwrap();
    ///
    /// // 4 s on the server's clock, of which the client says 300 ms were lag.
    /// let press = clock
    ///     .press(Color::White, Moment::from_millis(4_000), Duration::from_millis(300))
    ///     .unwrap();
    /// assert_eq!(press.lag_credit, Duration::from_millis(300));
    /// assert_eq!(press.remaining, Duration::from_millis(600_000 - 3_700 + 5_000));
    ///
    /// assert_eq!(
    ///     clock.press(Color::White, Moment::from_millis(5_000), Duration::ZERO),
    ///     Err(ClockError::NotYourTurn { pressed: Color::White, running: Color::Black })
    /// );
    /// ```
    pub fn press(
        &mut self,
        color: Color,
        now: Moment,
        client_lag: Duration,
    ) -> Result<Press, ClockError> {
        let since = match self.state {
            State::NotStarted => return Err(ClockError::NotStarted),
            State::Stopped => return Err(ClockError::Stopped),
            State::Running {
                color: running,
                since,
            } => {
                if let Some(flagged) = self.flagged(now) {
                    return Err(ClockError::Flagged { color: flagged });
                }
                if running != color {
                    return Err(ClockError::NotYourTurn {
                        pressed: color,
                        running,
                    });
                }
                since
            }
        };
        let elapsed = now.saturating_duration_since(since);
        let lag_credit = client_lag
            .min(Clock::LAG_CREDIT_MAX)
            .min(self.lag_quota[color])
            .min(elapsed);
        self.lag_quota[color] =
            (self.lag_quota[color] - lag_credit + Clock::LAG_QUOTA_GAIN).min(Clock::LAG_QUOTA_MAX);
        // Not flagged, so elapsed < remaining and the subtraction cannot underflow.
        let increment = if self.berserk[color] {
            Duration::ZERO
        } else {
            self.control.increment()
        };
        let remaining = self.remaining[color] - (elapsed - lag_credit) + increment;
        self.remaining[color] = remaining;
        self.state = State::Running {
            color: color.other(),
            since: now,
        };
        Ok(Press {
            elapsed,
            lag_credit,
            remaining,
        })
    }

    /// Moves were taken back and `color` is to move at `now`: the running
    /// side is charged up to `now` (no increment, no lag credit) and
    /// `color`'s clock starts. Nothing changes when `color`'s clock runs
    /// already.
    ///
    /// # Errors
    ///
    /// [`ClockError::NotStarted`] before [`Clock::start`] and
    /// [`ClockError::Stopped`] after [`Clock::stop`]; the clock is
    /// unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_3_2);
    /// clock.start(Color::White, Moment::ORIGIN).unwrap();
    /// clock.press(Color::White, Moment::from_millis(10_000), Duration::ZERO).unwrap();
    /// // Black thinks 5 s, then White's move is taken back: White's clock runs again.
    /// clock.take_back_to(Color::White, Moment::from_millis(15_000)).unwrap();
    /// assert_eq!(clock.running(), Some(Color::White));
    /// assert_eq!(clock.remaining(Color::Black, Moment::from_millis(20_000)), Duration::from_secs(175));
    /// assert_eq!(clock.remaining(Color::White, Moment::from_millis(20_000)), Duration::from_secs(167));
    /// ```
    pub fn take_back_to(&mut self, color: Color, now: Moment) -> Result<(), ClockError> {
        match self.state {
            State::NotStarted => Err(ClockError::NotStarted),
            State::Stopped => Err(ClockError::Stopped),
            State::Running { color: running, .. } if running == color => Ok(()),
            State::Running { color: running, .. } => {
                self.remaining[running] = self.remaining(running, now);
                self.state = State::Running { color, since: now };
                Ok(())
            }
        }
    }

    /// Stops the clocks at `now` for good (the game is over): the running
    /// side is charged up to `now`, without increment or lag credit. A
    /// second call changes nothing.
    pub fn stop(&mut self, now: Moment) {
        if let State::Running { color, .. } = self.state {
            self.remaining[color] = self.remaining(color, now);
        }
        self.state = State::Stopped;
    }

    /// `color`'s lag quota (see [the lag allowance](Clock#lag-allowance)).
    pub fn lag_quota(&self, color: Color) -> Duration {
        self.lag_quota[color]
    }

    /// The clock's state at `now` as plain data, remaining times in whole
    /// milliseconds (rounded down). Taken right after a press, it records
    /// the mover's time after the increment and the opponent's full time.
    pub fn snapshot(&self, now: Moment) -> ClockSnapshot {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        ClockSnapshot {
            white_ms: ms(self.remaining(Color::White, now)),
            black_ms: ms(self.remaining(Color::Black, now)),
            running: self.running(),
            white_lag_quota_ms: ms(self.lag_quota[Color::White]),
            black_lag_quota_ms: ms(self.lag_quota[Color::Black]),
        }
    }

    /// A clock restored from `snapshot` after a restart: the side that was
    /// running starts again at `now` from its stored remaining time, so the
    /// time the server was down is not charged. A snapshot with no running
    /// side gives a clock not yet started. Quotas above
    /// [`Clock::LAG_QUOTA_MAX`] are lowered to it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use plyyard_game::shakmaty::Color;
    /// use plyyard_game::{Clock, Moment, TimeControl};
    ///
    /// let mut clock = Clock::new(TimeControl::PRESET_3_2);
    /// clock.start(Color::White, Moment::ORIGIN).unwrap();
    /// clock.press(Color::White, Moment::from_millis(5_000), Duration::ZERO).unwrap();
    /// let stored = clock.snapshot(Moment::from_millis(5_000));
    ///
    /// // The server comes back an hour later: Black still has 180 s.
    /// let back = Moment::from_millis(3_605_000);
    /// let restored = Clock::restore(TimeControl::PRESET_3_2, &stored, back);
    /// assert_eq!(restored.running(), Some(Color::Black));
    /// assert_eq!(restored.remaining(Color::Black, back), Duration::from_secs(180));
    /// assert_eq!(restored.remaining(Color::White, back), Duration::from_secs(177));
    /// ```
    pub fn restore(control: TimeControl, snapshot: &ClockSnapshot, now: Moment) -> Clock {
        let quota = |ms: u64| Duration::from_millis(ms).min(Clock::LAG_QUOTA_MAX);
        Clock {
            control,
            remaining: ByColor {
                white: Duration::from_millis(snapshot.white_ms),
                black: Duration::from_millis(snapshot.black_ms),
            },
            lag_quota: ByColor {
                white: quota(snapshot.white_lag_quota_ms),
                black: quota(snapshot.black_lag_quota_ms),
            },
            berserk: ByColor::default(),
            state: match snapshot.running {
                Some(color) => State::Running { color, since: now },
                None => State::NotStarted,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Color = Color::White;
    const B: Color = Color::Black;

    fn at(ms: u64) -> Moment {
        Moment::from_millis(ms)
    }

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn started(tc: TimeControl) -> Clock {
        let mut clock = Clock::new(tc);
        clock.start(W, at(0)).unwrap();
        clock
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut clock = started(TimeControl::PRESET_5_3);
        let p = clock.press(W, at(2_000), Duration::ZERO).unwrap();
        assert_eq!(p.elapsed, ms(2_000));
        assert_eq!(p.remaining, ms(300_000 - 2_000 + 3_000));
        let p = clock.press(B, at(2_500), Duration::ZERO).unwrap();
        assert_eq!(p.remaining, ms(300_000 - 500 + 3_000));
        // A quick move gains time: the increment exceeds the think time.
        assert!(p.remaining > TimeControl::PRESET_5_3.initial());
        let p = clock.press(W, at(12_500), Duration::ZERO).unwrap();
        assert_eq!(p.remaining, ms(301_000 - 10_000 + 3_000));
        assert_eq!(clock.remaining(W, at(12_500)), ms(294_000));
        assert_eq!(clock.remaining(B, at(12_500)), ms(302_500));
    }

    #[test]
    fn only_the_movers_clock_runs() {
        let mut clock = Clock::new(TimeControl::PRESET_3_2);
        // Nothing runs before the start.
        assert_eq!(clock.running(), None);
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.remaining(W, at(50_000)), ms(180_000));
        assert_eq!(
            clock.press(W, at(0), Duration::ZERO),
            Err(ClockError::NotStarted)
        );

        clock.start(W, at(1_000)).unwrap();
        assert_eq!(clock.remaining(W, at(11_000)), ms(170_000));
        assert_eq!(clock.remaining(B, at(11_000)), ms(180_000));
        clock.press(W, at(11_000), Duration::ZERO).unwrap();
        assert_eq!(clock.running(), Some(B));
        assert_eq!(clock.remaining(W, at(71_000)), ms(172_000));
        assert_eq!(clock.remaining(B, at(71_000)), ms(120_000));
        assert_eq!(
            clock.press(W, at(71_000), Duration::ZERO),
            Err(ClockError::NotYourTurn {
                pressed: W,
                running: B
            })
        );
        // The refused press changed nothing.
        assert_eq!(clock.remaining(B, at(71_000)), ms(120_000));
        assert_eq!(clock.deadline(), Some(at(191_000)));
    }

    #[test]
    fn flag_falls_at_the_exact_instant() {
        let mut clock = started(TimeControl::PRESET_3_2);
        clock.press(W, at(1_000), Duration::ZERO).unwrap();
        let deadline = clock.deadline().unwrap();
        assert_eq!(deadline, at(181_000));
        assert_eq!(clock.flagged(at(180_999)), None);
        assert_eq!(clock.remaining(B, at(180_999)), ms(1));
        assert_eq!(clock.flagged(deadline), Some(B));
        assert_eq!(clock.remaining(B, deadline), Duration::ZERO);
        // Time never goes negative.
        assert_eq!(clock.remaining(B, at(500_000)), Duration::ZERO);
        assert_eq!(clock.flagged(at(500_000)), Some(B));
        // One nanosecond before the deadline the move still counts.
        let mut early = clock.clone();
        let just_before = Moment::from_origin(deadline.since_origin() - Duration::from_nanos(1));
        let p = early.press(B, just_before, Duration::ZERO).unwrap();
        assert_eq!(p.remaining, Duration::from_nanos(1) + ms(2_000));
    }

    #[test]
    fn a_move_at_or_after_the_flag_is_refused() {
        let mut clock = started(TimeControl::PRESET_3_2);
        let before = clock.clone();
        for now in [at(180_000), at(180_001), at(999_000)] {
            // Claimed lag does not rescue a fallen flag.
            assert_eq!(
                clock.press(W, now, ms(900)),
                Err(ClockError::Flagged { color: W })
            );
            // Nor may the opponent move over it.
            assert_eq!(
                clock.press(B, now, Duration::ZERO),
                Err(ClockError::Flagged { color: W })
            );
            assert_eq!(clock, before);
        }
        clock.stop(at(200_000));
        assert!(clock.is_stopped());
        assert_eq!(clock.flagged(at(300_000)), Some(W));
        assert_eq!(clock.remaining(W, at(300_000)), Duration::ZERO);
        assert_eq!(clock.remaining(B, at(300_000)), ms(180_000));
    }

    #[test]
    fn stop_freezes_both_clocks() {
        let mut clock = started(TimeControl::PRESET_3_2);
        clock.press(W, at(3_000), Duration::ZERO).unwrap();
        clock.stop(at(10_000));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.flagged(at(10_000_000)), None);
        assert_eq!(clock.remaining(W, at(10_000_000)), ms(179_000));
        assert_eq!(clock.remaining(B, at(10_000_000)), ms(173_000));
        assert_eq!(
            clock.press(B, at(11_000), Duration::ZERO),
            Err(ClockError::Stopped)
        );
        assert_eq!(clock.start(W, at(11_000)), Err(ClockError::Stopped));
        let frozen = clock.clone();
        clock.stop(at(20_000));
        assert_eq!(clock, frozen);
    }

    #[test]
    fn lag_credit_is_capped_and_drawn_from_the_quota() {
        let mut clock = started(TimeControl::PRESET_10_5);
        // A claim over the cap credits the cap.
        let p = clock.press(W, at(5_000), ms(4_000)).unwrap();
        assert_eq!(p.lag_credit, Clock::LAG_CREDIT_MAX);
        assert_eq!(p.remaining, ms(600_000 - 4_000 + 5_000));
        assert_eq!(clock.lag_quota(W), ms(3_000 - 1_000 + 500));
        // Black's quota is untouched by White's moves.
        assert_eq!(clock.lag_quota(B), Clock::LAG_QUOTA_START);
        // Never more than the move took: a 200 ms move is charged nothing,
        // and the quota only pays for the 200 ms credited.
        let p = clock.press(B, at(5_200), ms(900)).unwrap();
        assert_eq!(p.lag_credit, ms(200));
        assert_eq!(p.remaining, ms(600_000 + 5_000));
        assert_eq!(clock.lag_quota(B), ms(3_000 - 200 + 500));
        // A small claim is credited in full.
        let p = clock.press(W, at(6_200), ms(150)).unwrap();
        assert_eq!(p.lag_credit, ms(150));
        assert_eq!(clock.lag_quota(W), ms(2_500 - 150 + 500));
    }

    #[test]
    fn quota_refills_slowly_up_to_its_cap() {
        let mut clock = started(TimeControl::PRESET_30_20);
        let mut now = 0;
        // Drain White's quota with big claims.
        for _ in 0..5 {
            now += 5_000;
            clock.press(W, at(now), ms(60_000)).unwrap();
            now += 5_000;
            clock.press(B, at(now), Duration::ZERO).unwrap();
        }
        assert_eq!(clock.lag_quota(W), ms(500));
        now += 5_000;
        assert_eq!(
            clock.press(W, at(now), ms(800)).unwrap().lag_credit,
            ms(500)
        );
        // Honest moves without lag refill it, 0.5 s a move, up to the cap.
        now += 5_000;
        clock.press(B, at(now), Duration::ZERO).unwrap();
        let mut quotas = Vec::new();
        for _ in 0..12 {
            now += 5_000;
            clock.press(W, at(now), Duration::ZERO).unwrap();
            quotas.push(clock.lag_quota(W).as_millis());
            now += 5_000;
            clock.press(B, at(now), Duration::ZERO).unwrap();
        }
        assert_eq!(
            quotas,
            [
                1_000, 1_500, 2_000, 2_500, 3_000, 3_500, 4_000, 4_500, 5_000, 5_000, 5_000, 5_000
            ]
        );
        // Black, who claimed nothing, sits at the cap too.
        assert_eq!(clock.lag_quota(B), Clock::LAG_QUOTA_MAX);
    }

    #[test]
    fn always_claiming_huge_lag_gains_at_most_the_bound() {
        const MOVES: u64 = 60;
        let mut clock = started(TimeControl::PRESET_15_10);
        let mut now = 0;
        let mut credited = Duration::ZERO;
        for _ in 0..MOVES {
            now += 3_000;
            let p = clock.press(W, at(now), Duration::from_secs(3_600)).unwrap();
            assert!(p.lag_credit <= Clock::LAG_CREDIT_MAX);
            credited += p.lag_credit;
            now += 3_000;
            clock.press(B, at(now), Duration::ZERO).unwrap();
        }
        // Bound: the starting quota plus one gain for every move but the last.
        let bound = Clock::LAG_QUOTA_START + Clock::LAG_QUOTA_GAIN * (MOVES as u32 - 1);
        assert_eq!(bound, ms(32_500));
        assert_eq!(credited, bound);
        // Against an honest opponent, the cheat is worth exactly that.
        let white = clock.remaining(W, at(now));
        let black = clock.remaining(B, at(now));
        assert_eq!(white - black, bound);
    }

    #[test]
    fn snapshot_restore_round_trip() {
        let mut clock = started(TimeControl::PRESET_5_3);
        clock.press(W, at(4_000), ms(2_000)).unwrap();
        clock.press(B, at(9_000), ms(100)).unwrap();
        clock.press(W, at(10_000), Duration::ZERO).unwrap();
        let snap = clock.snapshot(at(10_000));
        assert_eq!(
            snap,
            ClockSnapshot {
                white_ms: 300_000 - 3_000 + 3_000 - 1_000 + 3_000,
                black_ms: 300_000 - 4_900 + 3_000,
                running: Some(B),
                white_lag_quota_ms: 3_000 - 1_000 + 500 + 500,
                black_lag_quota_ms: 3_000 - 100 + 500,
            }
        );
        // Restored at the same instant, it is the same clock.
        let restored = Clock::restore(TimeControl::PRESET_5_3, &snap, at(10_000));
        assert_eq!(restored, clock);
        assert_eq!(restored.snapshot(at(10_000)), snap);

        // Through JSON, as the server may store it.
        let json = serde_json::to_string(&snap).unwrap();
        assert!(json.contains(r#""running":"black""#), "{json}");
        assert_eq!(serde_json::from_str::<ClockSnapshot>(&json).unwrap(), snap);
        let idle = Clock::new(TimeControl::PRESET_3_2).snapshot(at(0));
        let json = serde_json::to_string(&idle).unwrap();
        assert!(json.contains(r#""running":null"#), "{json}");
        assert_eq!(serde_json::from_str::<ClockSnapshot>(&json).unwrap(), idle);
        assert!(serde_json::from_str::<ClockSnapshot>(&json.replace("null", "\"red\"")).is_err());
    }

    #[test]
    fn down_time_is_not_charged() {
        let mut clock = started(TimeControl::PRESET_3_2);
        clock.press(W, at(20_000), Duration::ZERO).unwrap();
        let stored = clock.snapshot(at(20_000));
        // Crash at 100 s (Black had thought 80 s), back at 1000 s.
        let back = at(1_000_000);
        let mut clock = Clock::restore(TimeControl::PRESET_3_2, &stored, back);
        assert_eq!(clock.running(), Some(B));
        assert_eq!(clock.flagged(back), None);
        assert_eq!(clock.remaining(B, back), ms(180_000));
        assert_eq!(clock.remaining(W, back), ms(162_000));
        assert_eq!(clock.deadline(), Some(at(1_180_000)));
        // Play goes on from there.
        let p = clock.press(B, at(1_010_000), Duration::ZERO).unwrap();
        assert_eq!(p.remaining, ms(172_000));
        assert_eq!(clock.running(), Some(W));

        // A clock stored before it started comes back not started.
        let idle = Clock::new(TimeControl::PRESET_3_2).snapshot(at(0));
        let mut restored = Clock::restore(TimeControl::PRESET_3_2, &idle, back);
        assert_eq!(restored.running(), None);
        restored.start(W, back).unwrap();
        assert_eq!(restored.deadline(), Some(at(1_180_000)));

        // A forged quota is lowered to the cap.
        let forged = ClockSnapshot {
            white_lag_quota_ms: 3_600_000,
            ..stored
        };
        let restored = Clock::restore(TimeControl::PRESET_3_2, &forged, back);
        assert_eq!(restored.lag_quota(W), Clock::LAG_QUOTA_MAX);
    }

    #[test]
    fn start_refuses_a_running_clock() {
        let mut clock = started(TimeControl::PRESET_3_2);
        assert_eq!(
            clock.start(B, at(5)),
            Err(ClockError::AlreadyRunning { running: W })
        );
        let mut black_first = Clock::new(TimeControl::PRESET_3_2);
        black_first.start(B, at(100)).unwrap();
        assert_eq!(black_first.running(), Some(B));
        assert_eq!(black_first.deadline(), Some(at(180_100)));
    }

    #[test]
    fn time_control_ranges() {
        for base in 0..=11_000 {
            for inc in [0, 1, 2, 20, 30, 60, 120, 180, 181, 500] {
                let r = TimeControl::from_secs(base, inc);
                let base_ok = [30, 45, 90].contains(&base)
                    || (base % 60 == 0 && (60..=10_800).contains(&base));
                let ok = base_ok && inc <= 180;
                assert_eq!(r.is_ok(), ok, "{base}+{inc}");
                if let Ok(tc) = r {
                    assert_eq!(tc.initial(), Duration::from_secs(u64::from(base)));
                    assert_eq!(tc.increment(), Duration::from_secs(u64::from(inc)));
                    assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc));
                }
            }
        }
        assert_eq!(TimeControl::table(1, 0), TimeControl::from_secs(60, 0));
        assert!(TimeControl::table(181, 0).is_err());
        assert!(TimeControl::table(u32::MAX, 0).is_err());
        let err = TimeControl::table(181, 5).unwrap_err();
        assert_eq!(
            err,
            TimeControlError::Base {
                base_secs: 10_860,
                increment_secs: 5
            }
        );
        assert_eq!(err.kind(), "minutes");
        assert!(err.to_string().contains("whole minutes up to 180"), "{err}");
        assert!(err.to_string().starts_with("181+5 refused"), "{err}");
        let err = TimeControl::from_secs(15, 0).unwrap_err();
        assert!(err.to_string().starts_with("0.25+0 refused"), "{err}");
        let err = TimeControl::table(10, 181).unwrap_err();
        assert_eq!(err.kind(), "increment");
        assert!(err.to_string().contains("0 to 180 seconds"), "{err}");
        assert_eq!(
            "10".parse::<TimeControl>(),
            Err(TimeControlError::Malformed { input: "10".into() })
        );
        for bad in [
            "x+5", "0.3+0", "-1+0", "1.+0", ".5+0", "½+0", "0.5+-1", "1e1+0",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            " 15 + 10 ".parse::<TimeControl>(),
            Ok(TimeControl::PRESET_15_10)
        );
        assert_eq!(
            "0.25+5".parse::<TimeControl>().unwrap_err().kind(),
            "minutes"
        );
        assert_eq!("0.5+0".parse::<TimeControl>().unwrap().base_secs(), 30);
        assert_eq!("0.75+0".parse::<TimeControl>().unwrap().base_secs(), 45);
        assert_eq!("1.5+1".parse::<TimeControl>().unwrap().base_secs(), 90);
        assert_eq!("90+30".parse::<TimeControl>().unwrap().base_secs(), 5400);
        assert_eq!(minutes_text(45), "0.75");
        assert_eq!(minutes_text(90), "1.5");
        assert_eq!(minutes_text(10_800), "180");
    }

    #[test]
    fn presets() {
        let names: Vec<String> = TimeControl::PRESETS.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            names,
            ["1+0", "2+1", "3+2", "5+3", "10+5", "15+10", "30+20"]
        );
        for tc in TimeControl::PRESETS {
            assert_eq!(
                TimeControl::from_secs(tc.base_secs(), tc.increment_secs()),
                Ok(tc)
            );
        }
        assert_eq!(TimeControl::PRESET_10_5.pgn_tag(), "600+5");
        assert_eq!(TimeControl::from_secs(30, 0).unwrap().pgn_tag(), "30+0");
        assert_eq!(
            serde_json::to_string(&TimeControl::PRESET_15_10).unwrap(),
            r#""15+10""#
        );
        assert_eq!(
            serde_json::from_str::<TimeControl>(r#""30+20""#).unwrap(),
            TimeControl::PRESET_30_20
        );
        assert_eq!(
            serde_json::to_string(&TimeControl::from_secs(45, 0).unwrap()).unwrap(),
            r#""0.75+0""#
        );
        assert!(serde_json::from_str::<TimeControl>(r#""181+0""#).is_err());
    }

    #[test]
    fn speed_boundaries() {
        let speed = |base, inc| TimeControl::from_secs(base, inc).unwrap().speed();
        // The fastest clock is bullet, never lichess's ultraBullet (< 30 s).
        assert_eq!(TimeControl::from_secs(30, 0).unwrap().estimated_secs(), 30);
        assert_eq!(speed(30, 0), Speed::Bullet);
        assert_eq!(speed(60, 0), Speed::Bullet);
        assert_eq!(speed(120, 1), Speed::Bullet);
        // 179 s is not a clock; 60+2 is 140 s, 60+3 is 180 s.
        assert_eq!(speed(60, 2), Speed::Bullet);
        assert_eq!(speed(60, 3), Speed::Blitz);
        assert_eq!(speed(120, 0), Speed::Bullet);
        assert_eq!(speed(180, 0), Speed::Blitz);
        assert_eq!(TimeControl::PRESET_3_2.estimated_secs(), 260);
        assert_eq!(speed(180, 2), Speed::Blitz);
        assert_eq!(speed(300, 3), Speed::Blitz);
        assert_eq!(TimeControl::PRESET_10_5.estimated_secs(), 800);
        assert_eq!(speed(600, 5), Speed::Rapid);
        assert_eq!(speed(900, 10), Speed::Rapid);
        assert_eq!(TimeControl::PRESET_30_20.estimated_secs(), 2600);
        assert_eq!(speed(1800, 20), Speed::Classical);
        // 460 s and 480 s either side of the blitz/rapid line.
        assert_eq!(speed(300, 4), Speed::Blitz);
        assert_eq!(speed(360, 3), Speed::Rapid);
        assert_eq!(speed(420, 0), Speed::Blitz);
        assert_eq!(speed(480, 0), Speed::Rapid);
        // 1480 s and 1500 s either side of the rapid/classical line.
        assert_eq!(speed(1200, 7), Speed::Rapid);
        assert_eq!(speed(900, 15), Speed::Classical);
        assert_eq!(speed(1440, 0), Speed::Rapid);
        assert_eq!(speed(1500, 0), Speed::Classical);
        assert_eq!(speed(5400, 30), Speed::Classical);
        assert_eq!(speed(10_800, 180), Speed::Classical);
        assert_eq!(Speed::from_estimated_secs(0), Speed::Bullet);
        assert_eq!(Speed::from_estimated_secs(179), Speed::Bullet);
        assert_eq!(Speed::from_estimated_secs(180), Speed::Blitz);
        assert_eq!(Speed::from_estimated_secs(479), Speed::Blitz);
        assert_eq!(Speed::from_estimated_secs(1_499), Speed::Rapid);
        for s in Speed::ALL {
            assert_eq!(s.as_str().parse::<Speed>().unwrap(), s);
        }
        assert_eq!(Speed::Rapid.to_string(), "rapid");
        assert_eq!(
            serde_json::to_string(&Speed::Bullet).unwrap(),
            r#""bullet""#
        );
        assert!("ultraBullet".parse::<Speed>().is_err());
    }

    #[test]
    fn a_bullet_clock_without_increment_flags() {
        let mut clock = started(TimeControl::from_secs(30, 0).unwrap());
        let p = clock.press(W, at(10_000), Duration::ZERO).unwrap();
        assert_eq!(p.remaining, ms(20_000));
        assert_eq!(clock.deadline(), Some(at(40_000)));
        assert_eq!(clock.flagged(at(40_000)), Some(B));
    }
}
