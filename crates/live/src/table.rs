//! Table games: two people and their clocks. What a table game adds to a
//! live game ([`TableLive`]): the clocks and the deadlines the actor
//! sleeps until (flag fall, first move, an away opponent), who is
//! connected, claims against an away opponent, rematch offers, and the
//! ratings shown.
//!
//! A game against the computer played with a clock has a table part too,
//! at no table ([`TableLive::against_computer`]): the clocks and the
//! first-move deadlines only. The computer is never away, so nobody
//! claims; its games are never rated, and nobody offers it a rematch.
//!
//! The rules here are pure steps on the table's state: each takes the game
//! and a [`Moment`], changes the table, and returns what it decided
//! ([`Pressed`], [`Due`], [`Rematch`], a presence change …) for the actor
//! to apply and commit.
//!
//! Time comes from tokio's clock (so tests run on paused time), as
//! [`Moment`]s since the actor's start. After a restart the side to move's
//! clock starts again from the time stored with the last move: the time the
//! server was down is not charged.

use std::time::Duration;

use plyyard_game::shakmaty::{ByColor, Color};
use plyyard_game::{Clock, ClockError, ClockSnapshot, Game, Moment, Speed, TimeControl};
use tokio::time::Instant;

use super::view::color_name;
use plyyard_store::TableGame;
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{AwayJson, ClockJson, RatingJson, RematchJson, Sides, TableState};

/// A deadline whose write failed is tried again this much later.
pub(super) const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The live part of a table game.
#[derive(Debug)]
pub(super) struct TableLive {
    /// The table's code (`None` against the computer).
    code: Option<String>,
    /// The computer's colour, in a game against it.
    computer: Option<Color>,
    rated: bool,
    clock: Clock,
    origin: Instant,
    /// Since when the side to move may make its first move (plies 0 and 1).
    first_move_from: Moment,
    first_move: Duration,
    away_claim: Duration,
    /// Open sockets of each side.
    sockets: ByColor<u32>,
    /// Since when each side has had no socket, if it has none.
    away_since: ByColor<Option<Moment>>,
    /// The side whose claim against an away opponent the last published
    /// state showed open: a deadline wakes the actor only to change it.
    claim_shown: Option<Color>,
    /// No deadline fires before this moment (after a failed write, so a
    /// failing database is not asked again at once).
    hold_until: Moment,
    rematch_offer: Option<Color>,
    /// A side that offered a draw on its own turn: the offer goes with its
    /// next move (kept in memory like a rematch offer).
    held_draw: Option<Color>,
    /// A side asking to take back its last move (casual games; kept in
    /// memory like a rematch offer, dropped by any move).
    takeback: Option<Color>,
    next_game: Option<String>,
    ratings: Option<ByColor<RatingJson>>,
    rating_changes: Option<ByColor<i64>>,
}

/// A move's press of the clock, as decided by [`TableLive::press`].
#[derive(Debug)]
pub(super) struct Pressed {
    /// The time left to the mover, stored with the move.
    pub(super) left_ms: u64,
    /// The clock before the press, put back if the move is not committed.
    pub(super) before: Clock,
}

/// Why the clock could not be pressed.
#[derive(Debug)]
pub(super) enum Refusal {
    /// The mover's flag had fallen: the game ends on time instead.
    Flagged(Color),
    /// The clock refused for another reason (a bug).
    Clock(ClockError),
}

/// What falls due at a table when a deadline passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Due {
    /// A side missed its first move: the game is aborted.
    Abort,
    /// The flag of this side fell.
    Flag(Color),
    /// This side's claim against its away opponent opens (a notice).
    AwayClaim(Color),
}

/// What a rematch request decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rematch {
    /// Nothing changes: this side offered already, or the next game runs.
    Unchanged,
    /// This side offers a rematch (players are told).
    Offered,
    /// This side accepts the opponent's offer: the next game starts.
    Accepted,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The wire's per-side value of `by`.
fn sides<T>(by: ByColor<T>) -> Sides<T> {
    Sides {
        white: by.white,
        black: by.black,
    }
}

/// An internal error for a clock that refused.
pub(super) fn clock_error(e: ClockError) -> ApiError {
    ApiError::internal(format!("clock: {e}"))
}

impl TableLive {
    /// The table part of a loaded game, its clock restored from the time
    /// stored with each side's last move.
    pub(super) fn load(
        t: &TableGame,
        game: &Game,
        tuning: &crate::tuning::LiveTuning,
    ) -> TableLive {
        let mut live = TableLive::restore(t.control, game, tuning);
        live.code = Some(t.code.clone());
        live.rated = t.rated;
        live
    }

    /// The clocks of a game against the computer, which plays `computer`,
    /// restored like a table's ([`TableLive::load`]).
    pub(super) fn against_computer(
        control: TimeControl,
        computer: Color,
        game: &Game,
        tuning: &crate::tuning::LiveTuning,
    ) -> TableLive {
        let mut live = TableLive::restore(control, game, tuning);
        live.computer = Some(computer);
        live
    }

    /// Clocks restored from the time stored with each side's last move,
    /// at no table yet.
    fn restore(control: TimeControl, game: &Game, tuning: &crate::tuning::LiveTuning) -> TableLive {
        let now = Moment::ORIGIN;
        let initial = ms(control.initial());
        let mut left = ByColor::new_with(|_| initial);
        for (i, m) in game.history().iter().enumerate() {
            if let Some(c) = m.clock_ms {
                left[Color::from_white(i % 2 == 0)] = c;
            }
        }
        let running = (game.ply() >= 2 && !game.is_over()).then(|| game.turn());
        let snapshot = ClockSnapshot {
            white_ms: left.white,
            black_ms: left.black,
            running,
            white_lag_quota_ms: ms(Clock::LAG_QUOTA_START),
            black_lag_quota_ms: ms(Clock::LAG_QUOTA_START),
        };
        let mut clock = Clock::restore(control, &snapshot, now);
        // A side's first move records its time before the clock started:
        // less than the initial time only when it went berserk.
        for (i, m) in game.history().iter().take(2).enumerate() {
            if m.clock_ms.is_some_and(|c| c < initial) {
                clock.restore_berserk(Color::from_white(i == 0));
            }
        }
        TableLive {
            code: None,
            computer: None,
            rated: false,
            clock,
            origin: Instant::now(),
            first_move_from: now,
            first_move: tuning.first_move_timeout,
            away_claim: tuning.away_claim_after,
            sockets: ByColor::default(),
            away_since: ByColor::default(),
            claim_shown: None,
            hold_until: now,
            rematch_offer: None,
            held_draw: None,
            takeback: None,
            next_game: None,
            ratings: None,
            rating_changes: None,
        }
    }

    /// The computer's colour, in a game against it.
    pub(super) fn computer(&self) -> Option<Color> {
        self.computer
    }

    /// The clock of `color` now, as the engine budgets from it.
    pub(super) fn engine_clock(&self, color: Color) -> plyyard_engine::Clock {
        plyyard_engine::Clock {
            time: self.clock.remaining(color, self.now()),
            inc: self.clock.control().increment(),
            movestogo: None,
        }
    }

    /// The speed of this game's time control (its ratings are at it).
    pub(super) fn speed(&self) -> Speed {
        self.clock.control().speed()
    }

    /// Both players' ratings at this game's speed, once loaded.
    pub(super) fn ratings(&self) -> Option<ByColor<RatingJson>> {
        self.ratings
    }

    /// Shows both players' ratings at this game's speed.
    pub(super) fn set_ratings(&mut self, ratings: ByColor<RatingJson>) {
        self.ratings = Some(ratings);
    }

    /// The moment now.
    pub(super) fn now(&self) -> Moment {
        Moment::from(Instant::now().saturating_duration_since(self.origin))
    }

    fn instant(&self, m: Moment) -> Instant {
        self.origin + m.since_origin()
    }

    /// When the actor must next wake up for this game, if ever.
    pub(super) fn deadline(&self, game: &Game) -> Option<Instant> {
        self.next_wake(game)
            .map(|m| self.instant(m.max(self.hold_until)))
    }

    /// Holds every deadline back for `pause` from now.
    pub(super) fn hold(&mut self, pause: Duration) {
        self.hold_until = self.now() + pause;
    }

    /// The earliest moment at which [`TableLive::due`] has something to
    /// do, if nothing else happens first: the first-move limit, the flag of
    /// the running clock, or a claim against an away player opening that
    /// clients were not shown yet. At that moment `due` is never `None`.
    fn next_wake(&self, game: &Game) -> Option<Moment> {
        if game.is_over() {
            return None;
        }
        if game.ply() < 2 {
            return Some(self.first_move_deadline());
        }
        let claim = self
            .claim_opens()
            .filter(|&(c, _)| self.claim_shown != Some(c))
            .map(|(_, at)| at);
        match (self.clock.deadline(), claim) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// What falls due at `now` with nobody acting; each changes the game
    /// or what the players are shown.
    pub(super) fn due(&self, game: &Game, now: Moment) -> Option<Due> {
        if game.is_over() {
            return None;
        }
        if game.ply() < 2 {
            return (now >= self.first_move_deadline()).then_some(Due::Abort);
        }
        if let Some(c) = self.clock.flagged(now) {
            return Some(Due::Flag(c));
        }
        self.away_claimable_by(game, now)
            .filter(|&c| self.claim_shown != Some(c))
            .map(Due::AwayClaim)
    }

    fn first_move_deadline(&self) -> Moment {
        self.first_move_from + self.first_move
    }

    /// The side that may claim against its away opponent, and from when:
    /// the claimant is here (it presses the button) and the opponent is
    /// not. Both away, nobody can claim: the clock decides.
    fn claim_opens(&self) -> Option<(Color, Moment)> {
        Color::ALL.into_iter().find_map(|c| {
            let since = self.away_since[!c]?;
            (self.sockets[c] > 0).then_some((c, since + self.away_claim))
        })
    }

    /// The side that may claim against an away opponent at `now` (once
    /// both sides have moved: before that, the game is aborted instead).
    fn away_claimable_by(&self, game: &Game, now: Moment) -> Option<Color> {
        if game.is_over() || game.ply() < 2 {
            return None;
        }
        self.claim_opens()
            .filter(|&(_, at)| now >= at)
            .map(|(c, _)| c)
    }

    /// Whether `color` may claim against its away opponent at `now`, or
    /// why not.
    pub(super) fn check_claim_away(
        &self,
        game: &Game,
        color: Color,
        now: Moment,
    ) -> Result<(), ApiError> {
        if game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if self.away_claimable_by(game, now) != Some(color) {
            return Err(ApiError::new(
                ErrorCode::NotAway,
                "your opponent has not been away for 30 seconds",
            ));
        }
        Ok(())
    }

    /// Records what a published state showed of the away claim.
    pub(super) fn shown(&mut self, state: &TableState) {
        self.claim_shown = match state.away_claimable_by.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
    }

    /// A socket of `color` opened (`here`) or closed at `now`; whether the
    /// side's presence changed (it came back, or its last socket closed).
    pub(super) fn presence(&mut self, color: Color, here: bool, now: Moment) -> bool {
        let sockets = &mut self.sockets[color];
        let was_away = *sockets == 0;
        if here {
            *sockets += 1;
        } else {
            *sockets = sockets.saturating_sub(1);
        }
        let away = *sockets == 0;
        if was_away != away {
            self.away_since[color] = away.then_some(now);
        }
        was_away != away
    }

    /// Presses the clock for the side to move in `game` at `now`, with the
    /// client's `lag`: its time left after the move. The first two moves
    /// run on the first-move deadlines instead: White's starts Black's,
    /// Black's starts White's clock.
    pub(super) fn press(
        &mut self,
        game: &Game,
        now: Moment,
        lag: Duration,
    ) -> Result<Pressed, Refusal> {
        let before = self.clock.clone();
        let ply = game.ply();
        let left_ms = match ply {
            // Before the clock starts: the initial time, or half of it after berserk.
            0 | 1 => ms(self.clock.remaining(game.turn(), now)),
            _ => match self.clock.press(game.turn(), now, lag) {
                Ok(p) => ms(p.remaining),
                Err(ClockError::Flagged { color }) => return Err(Refusal::Flagged(color)),
                Err(e) => return Err(Refusal::Clock(e)),
            },
        };
        if ply == 1 {
            self.clock
                .start(Color::White, now)
                .map_err(Refusal::Clock)?;
        }
        if ply == 0 {
            self.first_move_from = now;
        }
        Ok(Pressed { left_ms, before })
    }

    /// `color` goes berserk at ply `ply`: allowed only before their own
    /// first move (White at ply 0, Black before ply 2) and once. Their
    /// time becomes `time_ms`, without increment; the clock as it was is
    /// returned (for [`TableLive::unpress`]).
    pub(super) fn berserk(
        &mut self,
        color: Color,
        ply: usize,
        time_ms: u64,
    ) -> Result<Clock, ApiError> {
        let moved = match color {
            Color::White => ply >= 1,
            Color::Black => ply >= 2,
        };
        if moved {
            return Err(ApiError::bad_request(
                "berserk is only possible before your first move",
            ));
        }
        if self.clock.is_berserk(color) {
            return Err(ApiError::bad_request("you went berserk already"));
        }
        let before = self.clock.clone();
        self.clock
            .berserk(color, Duration::from_millis(time_ms))
            .map_err(clock_error)?;
        Ok(before)
    }

    /// Puts the clock back as it was before a press whose move was not
    /// committed.
    pub(super) fn unpress(&mut self, before: Clock) {
        self.clock = before;
    }

    /// `color` asks for a rematch once the game is over: an offer, or the
    /// acceptance of the opponent's.
    pub(super) fn rematch(&mut self, color: Color) -> Rematch {
        if self.next_game.is_some() || self.rematch_offer == Some(color) {
            return Rematch::Unchanged;
        }
        if self.rematch_offer == Some(!color) {
            return Rematch::Accepted;
        }
        self.rematch_offer = Some(color);
        Rematch::Offered
    }

    /// The accepted rematch started as game `id`.
    pub(super) fn rematch_started(&mut self, id: String) {
        self.next_game = Some(id);
    }

    /// The game ended at `now`: the clock stops. The speed to rate the game
    /// at, if it is rated.
    pub(super) fn ended(&mut self, now: Moment) -> Option<Speed> {
        self.clock.stop(now);
        self.rated.then(|| self.speed())
    }

    /// Shows the rating changes of a rated game.
    pub(super) fn rated(&mut self, changes: ByColor<i64>) {
        self.rating_changes = Some(changes);
    }

    /// Holds `color`'s draw offer for its next move.
    pub(super) fn hold_draw(&mut self, color: Color) {
        self.held_draw = Some(color);
    }

    /// Drops `color`'s held draw offer; whether there was one.
    pub(super) fn drop_held_draw(&mut self, color: Color) -> bool {
        let held = self.held_draw == Some(color);
        if held {
            self.held_draw = None;
        }
        held
    }

    /// Whether the game counts for ratings.
    pub(super) fn is_rated(&self) -> bool {
        self.rated
    }

    /// The side asking for a takeback, if any.
    pub(super) fn takeback(&self) -> Option<Color> {
        self.takeback
    }

    /// Sets or clears the takeback asked for.
    pub(super) fn set_takeback(&mut self, by: Option<Color>) {
        self.takeback = by;
    }

    /// Moves were taken back and `color` is to move now: its clock runs
    /// (the other side is charged up to now). The clock as it was is
    /// returned (for [`TableLive::unpress`]).
    pub(super) fn take_back_to(&mut self, color: Color) -> Result<Clock, ApiError> {
        let before = self.clock.clone();
        let now = self.now();
        self.clock.take_back_to(color, now).map_err(clock_error)?;
        Ok(before)
    }

    /// Whether `color` has no connection to the game (the computer is
    /// always there).
    fn is_away(&self, color: Color) -> bool {
        self.sockets[color] == 0 && self.computer != Some(color)
    }

    /// Whether `color` holds a draw offer for its next move.
    pub(super) fn holds_draw(&self, color: Color) -> bool {
        self.held_draw == Some(color)
    }

    /// The table part of the state now.
    pub(super) fn state(&self, game: &Game) -> TableState {
        self.state_at(game, self.now())
    }

    /// The table part of the state at `now`.
    fn state_at(&self, game: &Game, now: Moment) -> TableState {
        let control = self.clock.control();
        let first_move_deadline_ms = (game.ply() < 2 && !game.is_over())
            .then(|| ms((self.first_move_from + self.first_move).saturating_duration_since(now)));
        TableState {
            table: self.code.clone(),
            rated: self.rated,
            speed: control.speed().as_str().to_owned(),
            clock: ClockJson {
                initial_ms: ms(control.initial()),
                increment_ms: ms(control.increment()),
                white_ms: ms(self.clock.remaining(Color::White, now)),
                black_ms: ms(self.clock.remaining(Color::Black, now)),
                running: self.clock.running().map(|c| color_name(c).to_owned()),
                white_berserk: self.clock.is_berserk(Color::White),
                black_berserk: self.clock.is_berserk(Color::Black),
            },
            draw_offer: game.draw_offer().map(|c| color_name(c).to_owned()),
            takeback_offer: self.takeback.map(|c| color_name(c).to_owned()),
            away: AwayJson {
                white: self.is_away(Color::White),
                black: self.is_away(Color::Black),
            },
            can_claim_away: false,
            away_claimable_by: self
                .away_claimable_by(game, now)
                .map(|c| color_name(c).to_owned()),
            first_move_deadline_ms,
            ratings: self.ratings.map(sides),
            rating_changes: self.rating_changes.map(sides),
            rematch: RematchJson {
                offered_by: self.rematch_offer.map(|c| color_name(c).to_owned()),
                next_game: self.next_game.clone(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use plyyard_game::shakmaty::Color;
    use plyyard_game::{RuleSet, TimeControl};

    use super::*;
    use crate::tuning::FIRST_MOVE;

    fn live(game: &Game) -> TableLive {
        let control = TimeControl::table(3, 2).unwrap();
        let t = TableGame {
            code: "ABCDEF".into(),
            rated: false,
            control,
        };
        TableLive::load(&t, game, &crate::tuning::LiveTuning::default())
    }

    /// Against the computer nobody is ever away on its side, so neither
    /// side can claim, however long the player stays away; the player's
    /// clock still runs and their flag falls.
    #[test]
    fn against_the_computer_nobody_claims_and_the_flag_still_falls() {
        let mut game = Game::new(RuleSet::Fide);
        game.play_uci("e2e4").unwrap();
        game.play_uci("e7e5").unwrap();
        let control = TimeControl::table(3, 2).unwrap();
        let tuning = crate::tuning::LiveTuning::default();
        let mut t = TableLive::against_computer(control, Color::Black, &game, &tuning);
        // Loaded after two moves: White's clock runs from the load.
        let start = Moment::ORIGIN;
        assert_eq!(t.clock.running(), Some(Color::White));
        assert!(t.presence(Color::White, true, start));
        assert!(t.presence(Color::White, false, start));
        let late = start + Duration::from_secs(170);
        assert_eq!(t.away_claimable_by(&game, late), None);
        assert_eq!(t.claim_opens(), None);
        let shown = t.state_at(&game, late);
        assert!(shown.away.white && !shown.away.black, "{:?}", shown.away);
        assert_eq!(shown.table, None);
        assert!(!shown.rated);
        let flag = start + Duration::from_secs(180);
        assert_eq!(t.next_wake(&game), Some(flag));
        assert_eq!(t.due(&game, flag), Some(Due::Flag(Color::White)));
    }

    /// The actor sleeps until the first-move limit, then until the flag of
    /// the running clock, and an away player's claim opens on time.
    #[test]
    fn the_next_wake_is_the_first_move_limit_then_the_flag() {
        let mut game = Game::new(RuleSet::Fide);
        let mut t = live(&game);
        assert_eq!(t.next_wake(&game), Some(Moment::ORIGIN + FIRST_MOVE));
        game.play_uci("e2e4").unwrap();
        t.first_move_from = Moment::from_millis(5_000);
        assert_eq!(t.next_wake(&game), Some(Moment::from_millis(35_000)));
        game.play_uci("e7e5").unwrap();
        let start = Moment::from_millis(9_000);
        t.clock
            .start(plyyard_game::shakmaty::Color::White, start)
            .unwrap();
        let flag = start + Duration::from_secs(180);
        assert_eq!(t.next_wake(&game), Some(flag));
        assert_eq!(
            t.clock.flagged(flag),
            Some(plyyard_game::shakmaty::Color::White)
        );
        assert_eq!(
            t.clock.flagged(Moment::from_millis(
                flag.since_origin().as_millis() as u64 - 1
            )),
            None
        );
        // Black goes away: the claim opens 30 s later, before the flag.
        t.sockets = ByColor { white: 1, black: 0 };
        t.away_since.black = Some(Moment::from_millis(10_000));
        assert_eq!(t.next_wake(&game), Some(Moment::from_millis(40_000)));
        assert_eq!(
            t.away_claimable_by(&game, Moment::from_millis(39_999)),
            None
        );
        assert_eq!(
            t.away_claimable_by(&game, Moment::from_millis(40_000)),
            Some(plyyard_game::shakmaty::Color::White)
        );
        t.claim_shown = Some(plyyard_game::shakmaty::Color::White);
        assert_eq!(t.next_wake(&game), Some(flag));
        game.resign(plyyard_game::shakmaty::Color::White).unwrap();
        assert_eq!(t.next_wake(&game), None);
    }

    /// A reloaded game's clocks come from the time stored with each side's
    /// last move; the side to move's clock runs again from the reload.
    #[test]
    fn clocks_come_back_from_the_stored_moves() {
        let mut game = Game::new(RuleSet::Fide);
        for (uci, left) in [
            ("e2e4", 180_000),
            ("e7e5", 180_000),
            ("g1f3", 170_500),
            ("b8c6", 160_250),
        ] {
            let mv = game.parse_uci(uci).unwrap();
            game.play_with(mv, Some(left), false).unwrap();
        }
        let t = live(&game);
        assert_eq!(
            t.clock.running(),
            Some(plyyard_game::shakmaty::Color::White)
        );
        assert_eq!(
            t.clock
                .remaining(plyyard_game::shakmaty::Color::White, Moment::ORIGIN),
            Duration::from_millis(170_500)
        );
        assert_eq!(
            t.clock
                .remaining(plyyard_game::shakmaty::Color::Black, Moment::ORIGIN),
            Duration::from_millis(160_250)
        );
    }

    /// The first two moves run on the first-move deadlines: White's
    /// restarts the limit for Black, Black's starts White's clock; later
    /// moves press the clock.
    #[test]
    fn the_first_two_presses_start_the_clock() {
        let mut game = Game::new(RuleSet::Fide);
        let mut t = live(&game);
        let at = Moment::from_millis(4_000);
        let p = t.press(&game, at, Duration::ZERO).unwrap();
        assert_eq!(p.left_ms, 180_000);
        assert_eq!(t.first_move_from, at);
        assert_eq!(t.clock.running(), None);
        game.play_uci("e2e4").unwrap();
        t.press(&game, Moment::from_millis(6_000), Duration::ZERO)
            .unwrap();
        assert_eq!(t.clock.running(), Some(Color::White));
        game.play_uci("e7e5").unwrap();
        let p = t
            .press(&game, Moment::from_millis(16_000), Duration::ZERO)
            .unwrap();
        assert_eq!(p.left_ms, 170_000 + 2_000, "10 s used, 2 s added");
        assert_eq!(t.clock.running(), Some(Color::Black));
        t.unpress(p.before);
        assert_eq!(t.clock.running(), Some(Color::White));
    }

    /// Berserk (Arena games): only before one's own first move and once;
    /// the time is recorded with the first move, so a reloaded game knows
    /// who went berserk (no increment for them).
    #[test]
    fn berserk_halves_a_clock_before_the_first_move_and_comes_back() {
        let mut game = Game::new(RuleSet::Fide);
        let mut t = live(&game);
        let before = t.berserk(Color::Black, 0, 90_000).unwrap();
        assert!(!before.is_berserk(Color::Black));
        assert!(t.berserk(Color::Black, 0, 90_000).is_err(), "once");
        let state = t.state(&game);
        assert_eq!(
            (state.clock.black_ms, state.clock.white_ms),
            (90_000, 180_000)
        );
        assert!(state.clock.black_berserk && !state.clock.white_berserk);
        t.press(&game, Moment::from_millis(1_000), Duration::ZERO)
            .unwrap();
        let mv = game.parse_uci("e2e4").unwrap();
        game.play_with(mv, Some(180_000), false).unwrap();
        assert!(
            t.berserk(Color::White, 1, 90_000).is_err(),
            "White has moved"
        );
        let p = t
            .press(&game, Moment::from_millis(2_000), Duration::ZERO)
            .unwrap();
        assert_eq!(
            p.left_ms, 90_000,
            "Black's first move records its halved time"
        );
        let mv = game.parse_uci("e7e5").unwrap();
        game.play_with(mv, Some(p.left_ms), false).unwrap();
        // No increment for Black from now on; White keeps theirs.
        t.press(&game, Moment::from_millis(12_000), Duration::ZERO)
            .unwrap();
        game.play_uci("g1f3").unwrap();
        let p = t
            .press(&game, Moment::from_millis(17_000), Duration::ZERO)
            .unwrap();
        assert_eq!(p.left_ms, 85_000);

        let mut reloaded = Game::new(RuleSet::Fide);
        for (uci, left) in [("e2e4", 180_000), ("e7e5", 90_000), ("g1f3", 172_000)] {
            let mv = reloaded.parse_uci(uci).unwrap();
            reloaded.play_with(mv, Some(left), false).unwrap();
        }
        let back = live(&reloaded);
        assert!(back.clock.is_berserk(Color::Black));
        assert!(!back.clock.is_berserk(Color::White));
    }

    /// A rematch is offered once, accepted by the other side, and asked
    /// for in vain once the next game runs.
    #[test]
    fn a_rematch_is_offered_then_accepted() {
        let mut t = live(&Game::new(RuleSet::Fide));
        assert_eq!(t.rematch(Color::White), Rematch::Offered);
        assert_eq!(t.rematch(Color::White), Rematch::Unchanged);
        assert_eq!(t.rematch(Color::Black), Rematch::Accepted);
        t.rematch_started("nextgame".into());
        assert_eq!(t.rematch(Color::Black), Rematch::Unchanged);
        assert_eq!(t.rematch(Color::White), Rematch::Unchanged);
    }

    /// A side is away from its last socket's close until it comes back;
    /// only those changes tell the players.
    #[test]
    fn presence_changes_on_the_first_and_last_socket() {
        let mut t = live(&Game::new(RuleSet::Fide));
        let at = Moment::from_millis(1_000);
        assert!(t.presence(Color::White, true, at));
        assert!(!t.presence(Color::White, true, at));
        assert!(!t.presence(Color::White, false, at));
        assert_eq!(t.away_since.white, None);
        assert!(t.presence(Color::White, false, at));
        assert_eq!(t.away_since.white, Some(at));
        assert_eq!(t.sockets, ByColor { white: 0, black: 0 });
    }
}

/// Deadlines against every order of players leaving, coming back, moving
/// and waiting: the actor never wakes for nothing, never twice at one
/// instant, shows a claim the moment it opens, and writes a bounded number
/// of versions (the probe that found a game writing hundreds a second once
/// both players had left).
#[cfg(test)]
mod deadline_tests {
    use plyyard_game::shakmaty::Color;
    use plyyard_game::{RuleSet, TimeControl};
    use proptest::prelude::*;

    use super::*;

    #[derive(Debug, Clone)]
    enum Step {
        Leave(Color),
        Return(Color),
        /// The side to move plays its `n`th legal move (modulo their count).
        Move(usize),
        Wait(Duration),
    }

    /// A table game driven as the actor drives it, on a clock of our own.
    struct Sim {
        game: Game,
        t: TableLive,
        now: Moment,
        versions: u64,
        timed: u64,
        presence_changes: u64,
    }

    impl Sim {
        fn new() -> Sim {
            let game = Game::new(RuleSet::Fide);
            let control = TimeControl::table(3, 2).unwrap();
            let t = TableGame {
                code: "ABCDEF".into(),
                rated: false,
                control,
            };
            let t = TableLive::load(&t, &game, &crate::tuning::LiveTuning::default());
            Sim {
                game,
                t,
                now: Moment::ORIGIN,
                versions: 0,
                timed: 0,
                presence_changes: 0,
            }
        }

        /// A commit: a new version, and the state clients are shown.
        fn publish(&mut self) {
            self.versions += 1;
            let shown = self.t.state_at(&self.game, self.now);
            self.t.shown(&shown);
        }

        /// Fires every deadline up to `until`, as the actor's loop does.
        fn wait_until(&mut self, until: Moment) {
            let mut at_this_instant = 0;
            while let Some(wake) = self.t.next_wake(&self.game).filter(|&m| m <= until) {
                let wake = wake.max(self.now);
                at_this_instant = if wake == self.now {
                    at_this_instant + 1
                } else {
                    1
                };
                assert!(at_this_instant <= 2, "woken again and again at {wake:?}");
                self.now = wake;
                let due = self.t.due(&self.game, self.now);
                let due = due.unwrap_or_else(|| panic!("woken at {wake:?} for nothing"));
                match due {
                    Due::Abort => drop(self.game.abort().unwrap()),
                    Due::Flag(c) => drop(self.game.flag(c).unwrap()),
                    Due::AwayClaim(_) => {}
                }
                if matches!(due, Due::Flag(_) | Due::Abort) {
                    self.t.ended(self.now);
                }
                self.timed += 1;
                self.publish();
            }
            self.now = self.now.max(until);
            // Whatever the players see of the claim is true now.
            let shown = self.t.state_at(&self.game, self.now).away_claimable_by;
            let expected = self.t.away_claimable_by(&self.game, self.now);
            assert_eq!(shown.as_deref(), expected.map(color_name));
            assert_eq!(self.t.claim_shown, expected, "the claim shown is stale");
        }

        fn step(&mut self, step: &Step) {
            match *step {
                Step::Wait(d) => self.wait_until(self.now + d),
                Step::Leave(c) | Step::Return(c) => {
                    let here = matches!(step, Step::Return(_));
                    if self.t.presence(c, here, self.now) {
                        self.presence_changes += 1;
                        if !self.game.is_over() {
                            self.publish();
                        }
                    }
                }
                Step::Move(n) => self.play(n),
            }
            self.wait_until(self.now);
        }

        fn play(&mut self, n: usize) {
            if self.game.is_over() {
                return;
            }
            let moves = self.game.legal_moves();
            let mv = moves[n % moves.len()];
            let pressed = self.t.press(&self.game, self.now, Duration::ZERO).unwrap();
            let left = pressed.left_ms;
            self.game.play_with(mv, Some(left), false).unwrap();
            self.publish();
        }
    }

    fn step() -> impl Strategy<Value = Step> {
        let color = prop_oneof![Just(Color::White), Just(Color::Black)];
        prop_oneof![
            color.clone().prop_map(Step::Leave),
            color.prop_map(Step::Return),
            (0usize..40).prop_map(Step::Move),
            (0u64..40_000).prop_map(|ms| Step::Wait(Duration::from_millis(ms))),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        #[test]
        fn deadlines_write_only_what_changes(steps in proptest::collection::vec(step(), 0..60)) {
            let mut sim = Sim::new();
            for s in &steps {
                sim.step(s);
            }
            // Then nobody does anything for an hour: the game ends by itself.
            sim.wait_until(sim.now + Duration::from_secs(3_600));
            prop_assert!(sim.game.is_over());
            // A timed version is the end, or a claim opening after a presence change.
            prop_assert!(sim.timed <= sim.presence_changes + 1, "{} timed versions", sim.timed);
            prop_assert!(sim.versions <= steps.len() as u64 + sim.timed);
        }
    }

    /// The probe: 3+2, 1.e4 e5, White's socket closes, a second later
    /// Black's. Nobody can claim; the clock runs until White's flag falls.
    #[test]
    fn both_players_gone_is_decided_by_the_clock() {
        let mut sim = Sim::new();
        for c in [Color::White, Color::Black] {
            sim.step(&Step::Return(c));
        }
        sim.step(&Step::Move(12));
        sim.step(&Step::Move(12));
        sim.step(&Step::Leave(Color::White));
        sim.step(&Step::Wait(Duration::from_secs(1)));
        sim.step(&Step::Leave(Color::Black));
        let before = sim.versions;
        sim.step(&Step::Wait(Duration::from_secs(600)));
        assert_eq!(sim.versions, before + 1, "only the flag fall is written");
        assert_eq!(
            sim.game.outcome().map(|o| o.reason),
            Some(plyyard_game::Reason::Timeout)
        );
        // Black comes back before the flag instead: Black may claim at once.
        let mut sim = Sim::new();
        for s in [
            Step::Return(Color::White),
            Step::Return(Color::Black),
            Step::Move(12),
            Step::Move(12),
            Step::Leave(Color::White),
            Step::Wait(Duration::from_secs(1)),
            Step::Leave(Color::Black),
            Step::Wait(Duration::from_secs(60)),
        ] {
            sim.step(&s);
        }
        assert_eq!(sim.t.away_claimable_by(&sim.game, sim.now), None);
        let before = sim.versions;
        sim.step(&Step::Return(Color::Black));
        assert_eq!(sim.versions, before + 1);
        assert_eq!(sim.t.claim_shown, Some(Color::Black));
    }
}
