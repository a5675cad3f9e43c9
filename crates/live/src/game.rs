//! A live game as plain data ([`LiveGame`]): its stored row, the names on
//! its seats, the [`Game`], its version and, at a table, the table's live
//! state; what clients see of it (its state and PGN); and what players ask
//! for as pure steps that check who asks and return the next game (with
//! the [`Change`] to write), which the actor then commits.
//!
//! Nothing here waits, writes or sends: the actor does that.

use std::time::Duration;

use plyyard_game::shakmaty::{ByColor, Color, Move};
use plyyard_game::{Clock, Game, MoveError, Reason};

use super::seat::Seats;
use super::table::{Due, Refusal, Rematch, TableLive, clock_error};
use super::view::{color_name, dests, pgn_name, rfc3339};
use plyyard_store::PlayerId;
use plyyard_store::{GameKind, GameRow};
use plyyard_wire::error::{ApiError, ErrorCode};
use plyyard_wire::protocol::{EventKind, GameState, MoveJson, SeatJson};

/// A live game: what the actor owns of it besides its mailbox, feed and
/// searches.
#[derive(Debug)]
pub(super) struct LiveGame {
    /// The stored row (its summary as of `version`).
    pub(super) row: GameRow,
    /// How each seat is shown.
    pub(super) names: ByColor<SeatJson>,
    /// An imported game's tags, for its PGN.
    pub(super) imported_tags: Option<plyyard_game::PgnTags>,
    /// The game.
    pub(super) game: Game,
    /// The version clients last saw (the number of committed changes).
    pub(super) version: u64,
    /// Clocks, deadlines and presence of a table game.
    pub(super) table: Option<TableLive>,
    /// The fencing epoch of this node's lease on the game, which every
    /// write names (`None`: a node running alone takes no leases).
    pub(super) epoch: Option<i64>,
}

/// Plies never taken back in a game with a clock: the clocks start with
/// the first two moves.
const CLOCKED_KEPT_PLIES: usize = 2;

/// What a commit writes, and the event it publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    /// The last move of the next game is appended (a `move` event); the
    /// computer then thinks if it is its turn.
    Move,
    /// Moves are taken back to the next game's ply (an `undo` event); a
    /// search in flight is cancelled.
    TakeBack,
    /// The game ends without a move (an `end` event); a search in flight is
    /// cancelled.
    End,
    /// A draw offer joined to the last move (`true`: offered after it) or
    /// declined (`false`): the last move's mark is written (a `draw`
    /// event).
    DrawOffer(bool),
    /// Nothing changes on the board, but what players see does (someone
    /// left or came back, a rematch offer): a new version with the event
    /// of that kind.
    Notice(EventKind),
}

/// A move at a table, as [`LiveGame::table_move`] decided it.
#[derive(Debug)]
pub(super) enum TableMove {
    /// The move goes ahead.
    Play(Box<Played>),
    /// The mover's flag had fallen: the game ends on time instead.
    Flagged(Color),
}

/// What a player's draw offer does, as [`LiveGame::offer_draw`] decided it.
#[derive(Debug)]
pub(super) enum DrawStep {
    /// The next game to commit: the offer joined to the player's last
    /// move, or the opponent's offer accepted.
    Commit(Box<Game>, Change),
    /// It is the player's turn: the offer is held for their next move.
    Held,
    /// The player's offer already stands.
    Unchanged,
}

/// A move at a table that goes ahead.
#[derive(Debug)]
pub(super) struct Played {
    /// The game after the move.
    pub(super) next: Game,
    /// The clock before the press, put back if the commit fails (`None`
    /// in a game without a clock).
    pub(super) before: Option<Clock>,
}

impl LiveGame {
    /// A game loaded or created with `row` at its stored version.
    pub(super) fn new(
        row: GameRow,
        game: Game,
        names: ByColor<SeatJson>,
        imported_tags: Option<plyyard_game::PgnTags>,
        tuning: &crate::tuning::LiveTuning,
    ) -> LiveGame {
        let table = match (&row.table, row.clock) {
            (Some(t), _) => Some(TableLive::load(t, &game, tuning)),
            (None, Some(control)) => Seats::of(&row)
                .computer()
                .map(|(c, _)| TableLive::against_computer(control, c, &game, tuning)),
            (None, None) => None,
        };
        LiveGame {
            version: row.summary.version,
            row,
            names,
            imported_tags,
            game,
            table,
            epoch: None,
        }
    }

    /// The players of this game.
    pub(super) fn seats(&self) -> Seats {
        Seats::of(&self.row)
    }

    /// The colour `player` plays, or `forbidden` for anyone else.
    pub(super) fn player_color(&self, player: &PlayerId) -> Result<Color, ApiError> {
        self.seats()
            .color_of(player)
            .ok_or_else(|| ApiError::forbidden("you are not a player of this game"))
    }

    /// The computer's colour and level, in a game against the computer.
    pub(super) fn computer(&self) -> Option<(Color, plyyard_engine::Level)> {
        if self.row.kind != GameKind::Computer {
            return None;
        }
        self.seats().computer()
    }

    /// Checks that `player` may act now: they play this game, it is not
    /// over, and it is their turn with no search (`thinking`) running.
    pub(super) fn check_turn(&self, player: &PlayerId, thinking: bool) -> Result<(), ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        if self.game.turn() != color || thinking {
            return Err(ApiError::new(ErrorCode::NotYourTurn, "it is not your turn"));
        }
        Ok(())
    }

    /// The table part of a game between two people (not the clocks of a
    /// game against the computer).
    pub(super) fn people_table(&self) -> Option<&TableLive> {
        self.table.as_ref().filter(|t| t.computer().is_none())
    }

    /// The table part of a game between two people, or `bad_request`
    /// against the computer (with a clock or not).
    pub(super) fn table_mut(&mut self) -> Result<&mut TableLive, ApiError> {
        match self.table.as_mut() {
            Some(t) if t.computer().is_none() => Ok(t),
            _ => Err(ApiError::bad_request("only table games have this")),
        }
    }

    /// The state as `viewer` sees it (`you` is their colour, if they play);
    /// `thinking` tells whether the computer searches.
    pub(super) fn state_for(&self, viewer: Option<PlayerId>, thinking: bool) -> GameState {
        let mut s = self.state(thinking);
        s.you = viewer
            .and_then(|p| self.seats().color_of(&p))
            .map(|c| color_name(c).to_owned());
        s.for_viewer();
        s
    }

    /// The state as everyone sees it (`you` unset); `thinking` tells
    /// whether the computer searches.
    pub(super) fn state(&self, thinking: bool) -> GameState {
        let g = &self.game;
        let outcome = g.outcome();
        GameState {
            id: self.row.id.clone(),
            v: self.version,
            kind: self.row.kind.as_str().into(),
            level: self.row.level.map(|l| l.as_str().to_owned()),
            white: self.names.white.clone(),
            black: self.names.black.clone(),
            you: None,
            rules: g.rules().as_str().into(),
            variant: g.variant().as_str().into(),
            position: g.chess960_number().or(self.row.position),
            initial_fen: g.initial_fen(),
            fen: g.fen(),
            turn: color_name(g.turn()).into(),
            ply: u32::try_from(g.ply()).unwrap_or(u32::MAX),
            check: g.is_check(),
            moves: Some(
                g.history()
                    .iter()
                    .map(|p| MoveJson {
                        uci: p.uci.clone(),
                        san: p.san.clone(),
                    })
                    .collect(),
            ),
            last_move: g
                .last_move_squares()
                .map(|(a, b)| [a.to_string(), b.to_string()]),
            dests: dests(g),
            status: if outcome.is_some() {
                "ended"
            } else {
                "ongoing"
            }
            .into(),
            result: outcome.map_or("*", |o| o.result.as_str()).into(),
            reason: outcome.map(|o| o.reason.as_str().to_owned()),
            thinking,
            claimable: g
                .claimable()
                .into_iter()
                .map(|r| r.as_str().to_owned())
                .collect(),
            created_at: rfc3339(self.row.created_at),
            table: self.table.as_ref().map(|t| t.state(g)),
        }
    }

    /// `WhiteElo`/`BlackElo` from the players' ratings at a table (a
    /// provisional rating is still given: PGN has no mark for it).
    fn rating_tags(&self) -> Vec<(String, String)> {
        let Some(r) = self.table.as_ref().and_then(TableLive::ratings) else {
            return Vec::new();
        };
        vec![
            ("WhiteElo".into(), r.white.rating.to_string()),
            ("BlackElo".into(), r.black.rating.to_string()),
        ]
    }

    /// The game as PGN: an imported game with the tags its PGN gave.
    pub(super) fn pgn(&self) -> String {
        if let Some(tags) = &self.imported_tags {
            return plyyard_game::to_pgn(&self.game, tags);
        }
        let date = rfc3339(self.row.created_at);
        let table = self.row.table.as_ref();
        let event = match table {
            Some(t) if t.rated => "Ply Yard rated table game",
            Some(_) => "Ply Yard casual table game",
            None => "Ply Yard game against the computer",
        };
        let tags = plyyard_game::PgnTags {
            event: event.into(),
            site: format!("Ply Yard, game {}", self.row.id),
            date: date.get(..10).unwrap_or("????-??-??").replace('-', "."),
            round: "-".into(),
            white: pgn_name(&self.names.white),
            black: pgn_name(&self.names.black),
            time_control: self.row.control().map(|c| c.pgn_tag()),
            extra: self.rating_tags(),
        };
        plyyard_game::to_pgn(&self.game, &tags)
    }

    /// Gives `from`'s seats to `to`; the colours whose seat moved (their
    /// names are to be looked up again).
    pub(super) fn reseat(&mut self, from: &PlayerId, to: &PlayerId) -> Vec<Color> {
        let seats = ByColor {
            white: &mut self.row.white_player,
            black: &mut self.row.black_player,
        };
        let mut moved = Vec::new();
        for (color, seat) in seats.zip_color() {
            if seat.as_deref() == Some(from.0.as_str()) {
                *seat = Some(to.0.clone());
                moved.push(color);
            }
        }
        moved
    }

    /// `player` plays `uci` in a game against the computer.
    pub(super) fn play(
        &self,
        player: &PlayerId,
        uci: &str,
        thinking: bool,
    ) -> Result<Game, ApiError> {
        self.check_turn(player, thinking)?;
        let mut next = self.game.clone();
        next.play_uci(uci).map_err(move_error)?;
        Ok(next)
    }

    /// `player` plays `uci` at a table, with a draw offer or not, after
    /// their tab lost the focus (`blur`) or not: the clock is pressed (the
    /// first two moves run on the first-move deadlines instead).
    pub(super) fn table_move(
        &mut self,
        player: &PlayerId,
        uci: &str,
        draw_offer: bool,
        blur: bool,
        lag: Duration,
    ) -> Result<TableMove, ApiError> {
        self.check_turn(player, false)?;
        let mv = self.game.parse_uci(uci).map_err(move_error)?;
        // The computer answers no draw offer: none is made to it.
        let draw_offer = draw_offer && self.people_table().is_some();
        let mut step = self.press_and_play(mv, draw_offer, lag)?;
        if blur && let TableMove::Play(played) = &mut step {
            played.next.mark_blur();
        }
        Ok(step)
    }

    /// The computer plays `mv`: its clock pressed first, in a game with
    /// one.
    pub(super) fn computer_play(&mut self, mv: Move) -> Result<TableMove, ApiError> {
        if self.table.is_none() {
            let mut next = self.game.clone();
            next.play(mv).map_err(move_error)?;
            return Ok(TableMove::Play(Box::new(Played { next, before: None })));
        }
        self.press_and_play(mv, false, Duration::ZERO)
    }

    /// Presses the clock of the side to move (with the client's `lag`),
    /// then plays `mv` with the time left, and the draw offer if any.
    fn press_and_play(
        &mut self,
        mv: Move,
        draw_offer: bool,
        lag: Duration,
    ) -> Result<TableMove, ApiError> {
        let game = &self.game;
        let Some(t) = self.table.as_mut() else {
            return Err(ApiError::bad_request("only games with a clock have this"));
        };
        let now = t.now();
        let pressed = match t.press(game, now, lag) {
            Ok(p) => p,
            Err(Refusal::Flagged(color)) => return Ok(TableMove::Flagged(color)),
            Err(Refusal::Clock(e)) => return Err(clock_error(e)),
        };
        let mut next = self.game.clone();
        let draw_offer = draw_offer || t.holds_draw(game.turn());
        if let Err(e) = next.play_with(mv, Some(pressed.left_ms), draw_offer) {
            t.unpress(pressed.before);
            return Err(move_error(e));
        }
        Ok(TableMove::Play(Box::new(Played {
            next,
            before: Some(pressed.before),
        })))
    }

    /// The flag of `color` fell: the game ends (a draw if the opponent
    /// cannot possibly mate).
    pub(super) fn flag_fall(&self, color: Color) -> Result<Game, ApiError> {
        let mut next = self.game.clone();
        next.flag(color)
            .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        Ok(next)
    }

    /// What a deadline that fell `due` changes: the game aborted or lost
    /// on time, or the players told that a claim opened.
    pub(super) fn on_due(&self, due: Due) -> Result<(Game, Change), ApiError> {
        match due {
            Due::Abort => {
                let mut next = self.game.clone();
                match next.abort() {
                    Ok(_) => Ok((next, Change::End)),
                    Err(e) => Err(ApiError::internal(format!("abort: {e}"))),
                }
            }
            Due::Flag(c) => Ok((self.flag_fall(c)?, Change::End)),
            Due::AwayClaim(_) => Ok((self.game.clone(), Change::Notice(EventKind::Away))),
        }
    }

    /// Takes back moves until it is `player`'s turn again.
    pub(super) fn undo(&self, player: &PlayerId) -> Result<Game, ApiError> {
        let color = self.player_color(player)?;
        let clocked = match &self.table {
            Some(t) if t.computer().is_none() => {
                return Err(ApiError::new(
                    ErrorCode::NothingToUndo,
                    "moves are not taken back at a table",
                ));
            }
            t => t.is_some(),
        };
        if clocked && self.game.is_over() {
            // The clocks have stopped for good.
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        let mut next = self.game.clone();
        loop {
            if clocked && next.ply() <= CLOCKED_KEPT_PLIES {
                return Err(ApiError::new(
                    ErrorCode::NothingToUndo,
                    "with a clock, the first two moves stay (the clocks start with them)",
                ));
            }
            if next.take_back().is_none() {
                return Err(
                    if next.outcome().is_some_and(|o| !o.reason.is_from_board()) {
                        ApiError::new(ErrorCode::GameOver, "the game is over")
                    } else {
                        ApiError::new(ErrorCode::NothingToUndo, "you have no move to take back")
                    },
                );
            }
            if next.turn() == color {
                return Ok(next);
            }
        }
    }

    /// `player` resigns.
    pub(super) fn resign(&self, player: &PlayerId) -> Result<Game, ApiError> {
        let color = self.player_color(player)?;
        let mut next = self.game.clone();
        next.resign(color)
            .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        Ok(next)
    }

    /// `player` claims a draw, with the move announced with the claim if
    /// any (then written as a move).
    pub(super) fn claim(
        &self,
        player: &PlayerId,
        reason: Reason,
        uci: Option<&str>,
        thinking: bool,
    ) -> Result<(Game, Change), ApiError> {
        self.check_turn(player, thinking)?;
        let mut next = self.game.clone();
        let claimed = match uci {
            Some(u) => {
                let mv = next.parse_uci(u).map_err(move_error)?;
                next.claim_draw_with_move(mv, reason)
            }
            None => next.claim_draw(reason),
        };
        claimed.map_err(|e| match e {
            plyyard_game::ActionError::GameOver { .. } => {
                ApiError::new(ErrorCode::GameOver, "the game is over")
            }
            plyyard_game::ActionError::Move(m) => move_error(m),
            other => ApiError::new(ErrorCode::CannotClaim, other.to_string()),
        })?;
        let change = if uci.is_some() {
            Change::Move
        } else {
            Change::End
        };
        Ok((next, change))
    }

    /// The side to move accepts the opponent's draw offer.
    pub(super) fn accept_draw(&self, player: &PlayerId, thinking: bool) -> Result<Game, ApiError> {
        self.check_turn(player, thinking)?;
        let mut next = self.game.clone();
        next.accept_draw()
            .map_err(|_| ApiError::new(ErrorCode::NoDrawOffer, "no draw offer to accept"))?;
        Ok(next)
    }

    /// `player` offers a draw (table games): the opponent's pending offer
    /// is accepted; after the player's own move the offer joins that move;
    /// on the player's turn it is held for their next move.
    pub(super) fn offer_draw(&mut self, player: &PlayerId) -> Result<DrawStep, ApiError> {
        let color = self.player_color(player)?;
        self.table_mut()?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        let offer = self.game.draw_offer();
        if offer == Some(color) {
            return Ok(DrawStep::Unchanged);
        }
        if offer == Some(!color) {
            let accepted = self.accept_draw(player, false)?;
            return Ok(DrawStep::Commit(Box::new(accepted), Change::End));
        }
        let mut next = self.game.clone();
        if next.offer_draw_after_move(color).is_ok() {
            return Ok(DrawStep::Commit(Box::new(next), Change::DrawOffer(true)));
        }
        self.table_mut()?.hold_draw(color);
        Ok(DrawStep::Held)
    }

    /// `player` declines the opponent's pending draw offer in words (and
    /// drops an offer of their own still held for their next move).
    pub(super) fn decline_draw(&mut self, player: &PlayerId) -> Result<Option<Game>, ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        let dropped = self.table_mut()?.drop_held_draw(color);
        if self.game.draw_offer() != Some(!color) {
            if dropped {
                return Ok(None);
            }
            return Err(ApiError::new(
                ErrorCode::NoDrawOffer,
                "no draw offer to decline",
            ));
        }
        let mut next = self.game.clone();
        next.decline_draw()
            .map_err(|_| ApiError::new(ErrorCode::NoDrawOffer, "no draw offer to decline"))?;
        Ok(Some(next))
    }

    /// After a move of `color` was committed: its held draw offer went
    /// with it.
    pub(super) fn moved(&mut self, color: Color) {
        if let Some(t) = self.table.as_mut() {
            t.drop_held_draw(color);
            t.set_takeback(None);
        }
    }

    /// `player` calls the game off before both sides have moved.
    pub(super) fn abort(&mut self, player: &PlayerId) -> Result<Game, ApiError> {
        self.player_color(player)?;
        self.table_mut()?;
        let mut next = self.game.clone();
        next.abort().map_err(|e| match e {
            plyyard_game::ActionError::GameOver { .. } => {
                ApiError::new(ErrorCode::GameOver, "the game is over")
            }
            _ => ApiError::new(
                ErrorCode::CannotAbort,
                "both sides have moved: too late to abort",
            ),
        })?;
        Ok(next)
    }

    /// `player` goes berserk in a table game before their own first move:
    /// their time becomes `time_ms`, without increment. The clock as it
    /// was, to put back if the change is not committed.
    pub(super) fn berserk(
        &mut self,
        player: &PlayerId,
        time_ms: u64,
    ) -> Result<plyyard_game::Clock, ApiError> {
        let color = self.player_color(player)?;
        if self.game.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "the game is over"));
        }
        let ply = self.game.ply();
        let t = self.table_mut()?;
        t.berserk(color, ply, time_ms)
    }

    /// `player` claims the win (or a draw) against an opponent away long
    /// enough.
    pub(super) fn claim_away(&mut self, player: &PlayerId, win: bool) -> Result<Game, ApiError> {
        let color = self.player_color(player)?;
        let game = &self.game;
        let Some(t) = self.table.as_ref() else {
            return Err(ApiError::bad_request("only table games have this"));
        };
        t.check_claim_away(game, color, t.now())?;
        let mut next = self.game.clone();
        if win {
            next.abandon(!color)
        } else {
            next.abandon_drawn()
        }
        .map_err(|_| ApiError::new(ErrorCode::GameOver, "the game is over"))?;
        Ok(next)
    }

    /// `player` offers a rematch after the game, or accepts the
    /// opponent's offer.
    pub(super) fn rematch(&mut self, player: &PlayerId) -> Result<Rematch, ApiError> {
        let color = self.player_color(player)?;
        if !self.game.is_over() {
            return Err(ApiError::new(
                ErrorCode::NotOver,
                "a rematch comes after the game",
            ));
        }
        Ok(self.table_mut()?.rematch(color))
    }

    /// A socket of `player` opened (`here`) or closed: the notice to
    /// publish if a player of an ongoing table game came or went.
    pub(super) fn presence(&mut self, player: &PlayerId, here: bool) -> Option<Change> {
        let color = self.player_color(player).ok()?;
        let game_over = self.game.is_over();
        let t = self.table.as_mut()?;
        let now = t.now();
        (t.presence(color, here, now) && !game_over).then_some(Change::Notice(EventKind::Away))
    }
}

/// A refused move as the client's error.
pub(super) fn move_error(e: MoveError) -> ApiError {
    match e {
        MoveError::GameOver { .. } => ApiError::new(ErrorCode::GameOver, "the game is over"),
        other => ApiError::new(ErrorCode::IllegalMove, other.to_string()),
    }
}
