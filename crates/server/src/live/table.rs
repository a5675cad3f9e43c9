//! Table games: two people and their clocks. What a table game adds to a
//! live game — the clocks and the deadlines the actor sleeps until (flag
//! fall, first move, an away opponent), who is connected, draw offers and
//! their acceptance, abort, claims against an away opponent, rematches, and
//! the ratings at the end.
//!
//! Time comes from tokio's clock (so tests run on paused time), as
//! [`Moment`]s since the actor's start. After a restart the side to move's
//! clock starts again from the time stored with the last move: the time the
//! server was down is not charged.

use std::sync::Arc;
use std::time::Duration;

use game::shakmaty::Color;
use game::{Clock, ClockError, ClockSnapshot, Game, Moment, TimeControl};
use rand::Rng;
use tokio::time::Instant;

use super::actor::{Actor, Change};
use super::replay::{new_game_id, summary_of};
use super::view::color_name;
use crate::Shared;
use crate::error::{ApiError, ErrorCode};
use crate::identity::PlayerId;
use crate::protocol::{AwayJson, ClockJson, EventKind, RatingJson, RematchJson, Sides, TableState};
use crate::store::{GameKind, GameRow, TableGame, TableRow, now_ms};

/// Each side's first move must come within this long (the default of
/// [`crate::Tuning::first_move_timeout`]).
pub const FIRST_MOVE: Duration = Duration::from_secs(30);
/// An opponent away this long may be claimed against (the default of
/// [`crate::Tuning::away_claim_after`]).
pub const AWAY_CLAIM: Duration = Duration::from_secs(30);
/// A deadline whose write failed is tried again this much later.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The live part of a table game.
#[derive(Debug)]
pub(super) struct TableLive {
    pub(super) code: String,
    pub(super) rated: bool,
    pub(super) clock: Clock,
    origin: Instant,
    /// Since when the side to move may make its first move (plies 0 and 1).
    first_move_from: Moment,
    first_move: Duration,
    away_claim: Duration,
    sockets: [u32; 2],
    away_since: [Option<Moment>; 2],
    /// The side whose claim against an away opponent the last published
    /// state showed open: a deadline wakes the actor only to change it.
    claim_shown: Option<Color>,
    /// No deadline fires before this moment (after a failed write, so a
    /// failing database is not asked again at once).
    hold_until: Moment,
    rematch_offer: Option<Color>,
    next_game: Option<String>,
    ratings: Option<Sides<RatingJson>>,
    rating_changes: Option<Sides<i64>>,
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl TableLive {
    /// The table part of a loaded game, its clock restored from the time
    /// stored with each side's last move.
    pub(super) fn load(t: &TableGame, game: &Game, tuning: &crate::Tuning) -> TableLive {
        let origin = Instant::now();
        let now = Moment::ORIGIN;
        let initial = ms(t.control.initial());
        let mut left = [initial, initial];
        for (i, m) in game.history().iter().enumerate() {
            if let Some(c) = m.clock_ms {
                left[i % 2] = c;
            }
        }
        let running = (game.ply() >= 2 && !game.is_over()).then(|| game.turn());
        let snapshot = ClockSnapshot {
            white_ms: left[0],
            black_ms: left[1],
            running,
            white_lag_quota_ms: ms(Clock::LAG_QUOTA_START),
            black_lag_quota_ms: ms(Clock::LAG_QUOTA_START),
        };
        TableLive {
            code: t.code.clone(),
            rated: t.rated,
            clock: Clock::restore(t.control, &snapshot, now),
            origin,
            first_move_from: now,
            first_move: tuning.first_move_timeout,
            away_claim: tuning.away_claim_after,
            sockets: [0, 0],
            away_since: [None, None],
            claim_shown: None,
            hold_until: now,
            rematch_offer: None,
            next_game: None,
            ratings: None,
            rating_changes: None,
        }
    }

    /// Both players' ratings at this game's speed, once loaded.
    pub(super) fn ratings(&self) -> Option<Sides<RatingJson>> {
        self.ratings
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
        [Color::White, Color::Black].into_iter().find_map(|c| {
            let since = self.away_since[index(!c)]?;
            (self.sockets[index(c)] > 0).then_some((c, since + self.away_claim))
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
        let i = index(color);
        let was_away = self.sockets[i] == 0;
        if here {
            self.sockets[i] += 1;
        } else {
            self.sockets[i] = self.sockets[i].saturating_sub(1);
        }
        let away = self.sockets[i] == 0;
        if was_away != away {
            self.away_since[i] = away.then_some(now);
        }
        was_away != away
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
            },
            draw_offer: game.draw_offer().map(|c| color_name(c).to_owned()),
            away: AwayJson {
                white: self.sockets[0] == 0,
                black: self.sockets[1] == 0,
            },
            can_claim_away: false,
            away_claimable_by: self
                .away_claimable_by(game, now)
                .map(|c| color_name(c).to_owned()),
            first_move_deadline_ms,
            ratings: self.ratings,
            rating_changes: self.rating_changes,
            rematch: RematchJson {
                offered_by: self.rematch_offer.map(|c| color_name(c).to_owned()),
                next_game: self.next_game.clone(),
            },
        }
    }
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

fn clock_error(e: ClockError) -> ApiError {
    ApiError::internal(format!("clock: {e}"))
}

/// The table part of a game, or `bad_request` for a computer game.
fn table_of(table: &mut Option<TableLive>) -> Result<&mut TableLive, ApiError> {
    table
        .as_mut()
        .ok_or_else(|| ApiError::bad_request("only table games have this"))
}

impl Actor {
    /// Loads the players' ratings at this game's speed, for display.
    pub(super) async fn load_ratings(&mut self) {
        let Some(t) = &self.table else { return };
        let speed = t.clock.control().speed();
        let now = now_ms();
        let mut sides = Vec::new();
        for p in [&self.row.white_player, &self.row.black_player] {
            let Some(p) = p else { return };
            match self.shared.store.rating(p, speed).await {
                Ok(r) => sides.push(RatingJson {
                    rating: crate::rating::display(r.at(now).rating),
                    provisional: r.provisional(),
                }),
                Err(e) => {
                    tracing::warn!(game = %self.row.id, "ratings: {e}");
                    return;
                }
            }
        }
        if let (Some(t), [w, b]) = (self.table.as_mut(), sides.as_slice()) {
            t.ratings = Some(Sides {
                white: *w,
                black: *b,
            });
        }
    }

    /// A move at a table: the clock is pressed (the first two moves run on
    /// the first-move deadlines instead), the draw offer goes with it.
    pub(super) async fn table_move(
        &mut self,
        player: &PlayerId,
        uci: &str,
        draw_offer: bool,
        lag: Duration,
    ) -> Result<u64, ApiError> {
        self.check_turn(player)?;
        let color = self.game.turn();
        let mv = self.game.parse_uci(uci).map_err(super::actor::move_error)?;
        let t = table_of(&mut self.table)?;
        let now = t.now();
        let before = t.clock.clone();
        let ply = self.game.ply();
        let left = match ply {
            0 | 1 => ms(t.clock.control().initial()),
            _ => match t.clock.press(color, now, lag) {
                Ok(p) => ms(p.remaining),
                Err(ClockError::Flagged { color }) => {
                    self.flag_fall(color).await?;
                    return Err(ApiError::new(ErrorCode::GameOver, "your time ran out"));
                }
                Err(e) => return Err(clock_error(e)),
            },
        };
        if ply == 1 {
            t.clock.start(Color::White, now).map_err(clock_error)?;
        }
        if ply == 0 {
            t.first_move_from = now;
        }
        let mut next = self.game.clone();
        next.play_with(mv, Some(left), draw_offer)
            .map_err(super::actor::move_error)?;
        let done = self.commit(next, Change::Move).await;
        if done.is_err()
            && let Some(t) = self.table.as_mut()
        {
            t.clock = before;
        }
        done
    }

    /// The flag of `color` fell: the game ends (a draw if the opponent
    /// cannot possibly mate).
    async fn flag_fall(&mut self, color: Color) -> Result<u64, ApiError> {
        let mut next = self.game.clone();
        next.flag(color)
            .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        self.commit(next, Change::End).await
    }

    /// Wakes at a deadline: a flag fall, a missed first move (the game is
    /// aborted), or the claim against an away opponent opening. A write
    /// that fails holds the deadlines back for a second.
    pub(super) async fn on_deadline(&mut self) {
        let Some(t) = &self.table else { return };
        let Some(due) = t.due(&self.game, t.now()) else {
            tracing::error!(game = %self.row.id, "woken with nothing due");
            if let Some(t) = self.table.as_mut() {
                t.hold(RETRY_AFTER);
            }
            return;
        };
        let result = match due {
            Due::Abort => {
                let mut next = self.game.clone();
                match next.abort() {
                    Ok(_) => self.commit(next, Change::End).await,
                    Err(e) => Err(ApiError::internal(format!("abort: {e}"))),
                }
            }
            Due::Flag(c) => self.flag_fall(c).await,
            Due::AwayClaim(_) => {
                self.commit(self.game.clone(), Change::Notice(EventKind::Away))
                    .await
            }
        };
        if let Err(e) = result {
            tracing::warn!(game = %self.row.id, "deadline: {}", e.message);
            if let Some(t) = self.table.as_mut() {
                t.hold(RETRY_AFTER);
            }
        }
    }

    /// A player's socket opened (`here`) or closed.
    pub(super) async fn presence(&mut self, player: &PlayerId, here: bool) {
        let Ok(color) = self.player_color(player) else {
            return;
        };
        let game_over = self.game.is_over();
        let Some(t) = self.table.as_mut() else { return };
        let now = t.now();
        if !t.presence(color, here, now) || game_over {
            return;
        }
        let notice = self
            .commit(self.game.clone(), Change::Notice(EventKind::Away))
            .await;
        if let Err(e) = notice {
            tracing::warn!(game = %self.row.id, "presence: {}", e.message);
        }
    }

    /// The side to move accepts the opponent's draw offer.
    pub(super) async fn accept_draw(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        self.check_turn(player)?;
        let mut next = self.game.clone();
        next.accept_draw()
            .map_err(|_| ApiError::new(ErrorCode::NoDrawOffer, "no draw offer to accept"))?;
        self.commit(next, Change::End).await
    }

    /// Calls the game off before both sides have moved.
    pub(super) async fn abort(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        self.player_color(player)?;
        table_of(&mut self.table)?;
        let mut next = self.game.clone();
        next.abort().map_err(|e| match e {
            game::ActionError::GameOver { .. } => {
                ApiError::new(ErrorCode::GameOver, "the game is over")
            }
            _ => ApiError::new(
                ErrorCode::CannotAbort,
                "both sides have moved: too late to abort",
            ),
        })?;
        self.commit(next, Change::End).await
    }

    /// Claims the win (or a draw) against an opponent away long enough.
    pub(super) async fn claim_away(
        &mut self,
        player: &PlayerId,
        win: bool,
    ) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        let t = table_of(&mut self.table)?;
        let now = t.now();
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if t.away_claimable_by(&self.game, now) != Some(color) {
            return Err(ApiError::new(
                ErrorCode::NotAway,
                "your opponent has not been away for 30 seconds",
            ));
        }
        let mut next = self.game.clone();
        if win {
            next.abandon(!color)
        } else {
            next.abandon_drawn()
        }
        .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        self.commit(next, Change::End).await
    }

    /// Offers a rematch, or accepts the opponent's: the next game at the
    /// same table starts with the colours swapped.
    pub(super) async fn rematch(&mut self, player: &PlayerId) -> Result<u64, ApiError> {
        let color = self.player_color(player)?;
        if !self.game.is_over() {
            return Err(ApiError::new(
                ErrorCode::NotOver,
                "a rematch comes after the game",
            ));
        }
        let t = table_of(&mut self.table)?;
        if t.next_game.is_some() || t.rematch_offer == Some(color) {
            return Ok(self.version);
        }
        if t.rematch_offer == Some(!color) {
            let next = start_rematch(&self.shared, &self.row).await?;
            if let Some(t) = self.table.as_mut() {
                t.next_game = Some(next);
            }
        } else {
            t.rematch_offer = Some(color);
        }
        self.commit(self.game.clone(), Change::Notice(EventKind::Rematch))
            .await
    }

    /// After a table game ended: stops the clock and rates the game.
    pub(super) async fn table_game_ended(&mut self) {
        let Some(t) = self.table.as_mut() else { return };
        let now = t.now();
        t.clock.stop(now);
        if !t.rated {
            return;
        }
        let speed = t.clock.control().speed();
        let (Some(white), Some(black), Some(outcome)) = (
            self.row.white_player.clone(),
            self.row.black_player.clone(),
            self.game.outcome(),
        ) else {
            return;
        };
        let rated = self
            .shared
            .store
            .apply_rated_result(
                &self.row.id,
                &white,
                &black,
                speed,
                outcome.result,
                now_ms(),
            )
            .await;
        match rated {
            Ok(Some(r)) => {
                if let Some(t) = self.table.as_mut() {
                    t.rating_changes = Some(Sides {
                        white: r.white.shown_change(),
                        black: r.black.shown_change(),
                    });
                }
            }
            Ok(None) => {}
            Err(e) => tracing::error!(game = %self.row.id, "cannot rate the game: {e}"),
        }
    }
}

/// The first game at `table`, now that `guest` sits down: colours drawn by
/// lot, one Chess960 position for both. Stores the game and seats the
/// guest in one transaction; `None` if someone else sat down first.
///
/// # Errors
/// A database failure.
pub async fn start_table_game(
    shared: &Arc<Shared>,
    table: &TableRow,
    guest: &PlayerId,
) -> Result<Option<String>, ApiError> {
    let guest_white = rand::rng().random_bool(0.5);
    let (white, black) = if guest_white {
        (guest.0.clone(), table.host.clone())
    } else {
        (table.host.clone(), guest.0.clone())
    };
    let row = table_game_row(table, white, black)?;
    let seated = shared
        .store
        .start_table_game(&row, &table.code, &guest.0, now_ms())
        .await?;
    if !seated {
        return Ok(None);
    }
    started(shared, &row).await;
    Ok(Some(row.id))
}

/// The next game at the table of `previous`, colours swapped.
async fn start_rematch(shared: &Arc<Shared>, previous: &GameRow) -> Result<String, ApiError> {
    let code = previous
        .table
        .as_ref()
        .map(|t| t.code.clone())
        .ok_or_else(|| ApiError::bad_request("only table games have rematches"))?;
    let table = shared
        .store
        .table(&code)
        .await?
        .ok_or_else(|| ApiError::internal(format!("table {code} vanished")))?;
    let (Some(white), Some(black)) = (previous.black_player.clone(), previous.white_player.clone())
    else {
        return Err(ApiError::internal("a table game without two players"));
    };
    let row = table_game_row(&table, white, black)?;
    if !shared.store.rematch_game(&row, &code, &previous.id).await? {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            "the table moved on already",
        ));
    }
    started(shared, &row).await;
    Ok(row.id)
}

/// Loads a new table game at once, so that its first-move deadline runs.
async fn started(shared: &Arc<Shared>, row: &GameRow) {
    shared
        .metrics
        .games_created
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tracing::info!(game = %row.id, table = ?row.table.as_ref().map(|t| &t.code), "table game started");
    if let Err(e) = super::hub::handle(shared, &row.id).await {
        tracing::warn!(game = %row.id, "cannot load a new table game: {}", e.message);
    }
}

fn table_game_row(table: &TableRow, white: String, black: String) -> Result<GameRow, ApiError> {
    let control = TimeControl::table(table.minutes, table.increment_s)
        .map_err(|e| ApiError::internal(format!("table {}: {e}", table.code)))?;
    let game = match table.variant {
        game::Variant::Standard => Game::new(table.rules),
        game::Variant::Chess960 => Game::random_chess960(table.rules, &mut rand::rng()).1,
    };
    let now = now_ms();
    Ok(GameRow {
        id: new_game_id(),
        kind: GameKind::Table,
        white_player: Some(white),
        black_player: Some(black),
        level: None,
        rules: game.rules(),
        variant: game.variant(),
        position: game.chess960_number(),
        initial_fen: game.initial_fen(),
        summary: summary_of(&game, 0, now),
        created_at: now,
        table: Some(TableGame {
            code: table.code.clone(),
            rated: table.rated,
            control,
        }),
    })
}

#[cfg(test)]
mod tests {
    use game::RuleSet;

    use super::*;

    fn live(game: &Game) -> TableLive {
        let control = TimeControl::table(3, 2).unwrap();
        let t = TableGame {
            code: "ABCDEF".into(),
            rated: false,
            control,
        };
        TableLive::load(&t, game, &crate::Tuning::default())
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
        t.clock.start(game::shakmaty::Color::White, start).unwrap();
        let flag = start + Duration::from_secs(180);
        assert_eq!(t.next_wake(&game), Some(flag));
        assert_eq!(t.clock.flagged(flag), Some(game::shakmaty::Color::White));
        assert_eq!(
            t.clock.flagged(Moment::from_millis(
                flag.since_origin().as_millis() as u64 - 1
            )),
            None
        );
        // Black goes away: the claim opens 30 s later, before the flag.
        t.sockets = [1, 0];
        t.away_since[1] = Some(Moment::from_millis(10_000));
        assert_eq!(t.next_wake(&game), Some(Moment::from_millis(40_000)));
        assert_eq!(
            t.away_claimable_by(&game, Moment::from_millis(39_999)),
            None
        );
        assert_eq!(
            t.away_claimable_by(&game, Moment::from_millis(40_000)),
            Some(game::shakmaty::Color::White)
        );
        t.claim_shown = Some(game::shakmaty::Color::White);
        assert_eq!(t.next_wake(&game), Some(flag));
        game.resign(game::shakmaty::Color::White).unwrap();
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
        assert_eq!(t.clock.running(), Some(game::shakmaty::Color::White));
        assert_eq!(
            t.clock
                .remaining(game::shakmaty::Color::White, Moment::ORIGIN),
            Duration::from_millis(170_500)
        );
        assert_eq!(
            t.clock
                .remaining(game::shakmaty::Color::Black, Moment::ORIGIN),
            Duration::from_millis(160_250)
        );
    }
}

/// Deadlines against every order of players leaving, coming back, moving
/// and waiting: the actor never wakes for nothing, never twice at one
/// instant, shows a claim the moment it opens, and writes a bounded number
/// of versions (the probe that found a game writing hundreds a second once
/// both players had left).
#[cfg(test)]
mod deadline_tests {
    use game::RuleSet;
    use game::shakmaty::Color;
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
            let t = TableLive::load(&t, &game, &crate::Tuning::default());
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
                    self.t.clock.stop(self.now);
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
            let (color, ply) = (self.game.turn(), self.game.ply());
            let left = match ply {
                0 => {
                    self.t.first_move_from = self.now;
                    180_000
                }
                1 => {
                    self.t.clock.start(Color::White, self.now).unwrap();
                    180_000
                }
                _ => ms(self
                    .t
                    .clock
                    .press(color, self.now, Duration::ZERO)
                    .unwrap()
                    .remaining),
            };
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
            Some(game::Reason::Timeout)
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

/// The flag falls on the server's own clock, with nobody sending anything,
/// and FIDE 6.9 decides the result: games stored a moment before a flag
/// fall are loaded and left alone.
#[cfg(test)]
mod flag_tests {
    use game::{GameResult, Reason, RuleSet, Variant};

    use super::*;
    use crate::live::{Cmd, request};
    use crate::store::{GameStatus, MoveRow, Store};

    /// On each backend, stores a table game from `fen` with two moves
    /// played, the mover of the first one (White) having `white_ms` left,
    /// waits for its end and returns its result and reason.
    async fn flagged(fen: &str, moves: [&str; 2], white_ms: i64) -> Vec<(String, Option<String>)> {
        let mut out = Vec::new();
        for (_dir, store) in plyyard_store::testing::stores().await {
            out.push(flagged_on(store, fen, moves, white_ms).await);
        }
        out
    }

    async fn flagged_on(
        store: Store,
        fen: &str,
        moves: [&str; 2],
        white_ms: i64,
    ) -> (String, Option<String>) {
        let shared = Arc::new(Shared::new(store, b"test", crate::Tuning::default()));
        for p in ["wwwwwwwwwwwwwwwwwwwwww", "bbbbbbbbbbbbbbbbbbbbbb"] {
            shared.store.touch_player(p, 1).await.unwrap();
        }
        let mut game = Game::from_fen(fen, RuleSet::Fide).unwrap();
        let now = now_ms();
        let row = GameRow {
            id: "flagtest".into(),
            kind: GameKind::Table,
            white_player: Some("wwwwwwwwwwwwwwwwwwwwww".into()),
            black_player: Some("bbbbbbbbbbbbbbbbbbbbbb".into()),
            level: None,
            rules: RuleSet::Fide,
            variant: Variant::Standard,
            position: None,
            initial_fen: fen.into(),
            summary: summary_of(&game, 0, now),
            created_at: now,
            table: Some(TableGame {
                code: "ABCDEF".into(),
                rated: false,
                control: TimeControl::table(3, 2).unwrap(),
            }),
        };
        shared.store.insert_game(&row).await.unwrap();
        for (i, (uci, left)) in moves.into_iter().zip([white_ms, 180_000]).enumerate() {
            let mv = game.parse_uci(uci).unwrap();
            game.play_with(mv, Some(left as u64), false).unwrap();
            let played = MoveRow {
                ply: i as u32 + 1,
                uci: uci.into(),
                san: game.history()[i].san.clone(),
                clock_ms: Some(left),
                draw_offer: false,
            };
            let summary = summary_of(&game, i as u64 + 1, now);
            shared
                .store
                .append_moves("flagtest", i as u64, &[played], &summary)
                .await
                .unwrap();
        }
        // White's clock runs from the stored 40-odd ms the moment it loads.
        let sub = request(&shared, "flagtest", |reply| Cmd::Subscribe {
            since: None,
            reply,
        })
        .await
        .unwrap();
        let mut events = sub.events;
        let ended = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let e = events.recv().await.unwrap();
                if e.text.contains("\"status\":\"ended\"") {
                    break;
                }
            }
        })
        .await;
        assert!(ended.is_ok(), "the flag fell by itself");
        let (stored, _) = shared.store.load_game("flagtest").await.unwrap().unwrap();
        assert_eq!(stored.summary.status, GameStatus::Ended);
        (
            stored.summary.result.as_str().to_owned(),
            stored.summary.reason.map(|r| r.as_str().to_owned()),
        )
    }

    #[tokio::test]
    async fn rook_flags_against_knight_and_loses() {
        // K+R flags against K+N: a mate by the knight side exists, so it wins.
        for (result, reason) in
            flagged("k6n/8/8/8/8/8/1R6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await
        {
            assert_eq!(result, GameResult::BlackWins.as_str());
            assert_eq!(reason.as_deref(), Some(Reason::Timeout.as_str()));
        }
    }

    #[tokio::test]
    async fn queen_flags_against_knight_and_draws() {
        for (result, reason) in
            flagged("k6n/8/8/8/8/8/1Q6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await
        {
            assert_eq!(result, GameResult::Draw.as_str());
            assert_eq!(
                reason.as_deref(),
                Some(Reason::TimeoutVsInsufficientMaterial.as_str())
            );
        }
    }

    #[tokio::test]
    async fn a_lone_king_never_wins_on_time() {
        for (result, reason) in flagged("k7/8/8/8/8/8/1Q6/7K w - - 0 1", ["h1g1", "a8a7"], 40).await
        {
            assert_eq!(result, GameResult::Draw.as_str());
            assert_eq!(
                reason.as_deref(),
                Some(Reason::TimeoutVsInsufficientMaterial.as_str())
            );
        }
    }
}
