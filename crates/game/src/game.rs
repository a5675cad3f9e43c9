//! [`Game`]: one game of chess from its start to its outcome — moves played,
//! positions reached, draw offers, claims and results under a [`RuleSet`].

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Bitboard, Board, Color, EnPassantMode, FromSetup, Move, MoveList, Position, PositionErrorKinds,
    Rank, Setup, Square,
};
use shakmaty::{CastlingMode, Chess};

use crate::error::{ActionError, ClaimError, GameOverError, MoveError, SetupError, clip};
use crate::notation::{self, Lang};
use crate::rules::{Outcome, Reason, RuleSet, Variant};

/// A move as it was played, with its notations and what came with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// The move itself.
    #[serde(skip)]
    pub mv: Move,
    /// UCI: Chess960 castling is king-takes-rook (`e1h1`) only in Chess960
    /// games, otherwise the king's step (`e1g1`).
    pub uci: String,
    /// English SAN with `+`/`#`.
    pub san: String,
    /// The mover's remaining clock after the move, if clocks are kept.
    pub clock_ms: Option<u64>,
    /// Whether the mover offered a draw with this move.
    pub draw_offer: bool,
    /// Whether the mover's tab had lost the focus since their previous
    /// move (their browser says so; fair play reads it).
    #[serde(default)]
    pub blur: bool,
}

/// A game: the starting position, the moves played, and how it ended.
///
/// All changes go through methods that either succeed completely or leave
/// the game untouched and return a typed error.
///
/// # Examples
///
/// ```
/// use plyyard_game::{Game, RuleSet, Reason};
/// let mut g = Game::new(RuleSet::PlyYard);
/// for m in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
///     g.play_san(m).unwrap();
/// }
/// assert_eq!(g.outcome().unwrap().reason, Reason::Checkmate);
/// assert_eq!(g.outcome().unwrap().result.to_string(), "1-0");
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    rules: RuleSet,
    variant: Variant,
    chess960_number: Option<u32>,
    mode: CastlingMode,
    /// The position before the first move.
    start: Chess,
    /// The position after every move of `history`. Earlier positions are
    /// replayed from `start` when asked for: a server keeps thousands of
    /// live games, and a position per ply would be most of their memory.
    current: Chess,
    /// `keys[i]` is the repetition key (FIDE 9.2.3: legal en passant only)
    /// of the position after `i` plies.
    keys: Vec<u64>,
    history: Vec<PlayedMove>,
    outcome: Option<Outcome>,
    draw_declined: bool,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(RuleSet::default())
    }
}

/// Plies added to a game's vectors when they are full.
const GROWTH: usize = 32;

/// Pushes `item`, growing `v` by [`GROWTH`] items instead of doubling it: a
/// server keeps thousands of live games in memory, and doubling leaves up
/// to half of each game's history unused.
fn push_stepped<T>(v: &mut Vec<T>, item: T) {
    if v.len() == v.capacity() {
        v.reserve_exact(GROWTH);
    }
    v.push(item);
}

fn repetition_key(pos: &Chess) -> u64 {
    let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    z.0
}

/// The first rule of a legal position that `kinds` breaks, as a short
/// code clients translate (`missing_king`, `opposite_check`, …;
/// `illegal` when none is named).
fn position_error_code(kinds: PositionErrorKinds) -> &'static str {
    let codes = [
        (PositionErrorKinds::EMPTY_BOARD, "empty_board"),
        (PositionErrorKinds::MISSING_KING, "missing_king"),
        (PositionErrorKinds::TOO_MANY_KINGS, "too_many_kings"),
        (PositionErrorKinds::PAWNS_ON_BACKRANK, "pawns_on_backrank"),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling_rights",
        ),
        (PositionErrorKinds::INVALID_EP_SQUARE, "ep_square"),
        (PositionErrorKinds::OPPOSITE_CHECK, "opposite_check"),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "impossible_check"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "too_much_material"),
    ];
    codes
        .iter()
        .find(|(k, _)| kinds.contains(*k))
        .map_or("illegal", |(_, c)| c)
}

fn describe_position_error(kinds: PositionErrorKinds) -> String {
    let names = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns stand on the first or last rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights do not match the king and rooks",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square is impossible",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check cannot have arisen from a legal move",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "there is more material than a game can have",
        ),
        (PositionErrorKinds::VARIANT, "a variant rule is violated"),
    ];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, n)| *n)
        .collect();
    if parts.is_empty() {
        "the position is not legal".to_owned()
    } else {
        parts.join("; ")
    }
}

fn looks_like_uci(s: &str) -> bool {
    let b = s.as_bytes();
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    s == "0000"
        || ((b.len() == 4 || b.len() == 5)
            && sq(b[0], b[1])
            && sq(b[2], b[3])
            && (b.len() == 4 || matches!(b[4], b'q' | b'r' | b'b' | b'n' | b'k')))
}

/// Accepts the common spellings SAN readers meet besides the standard one:
/// castling with zeros or lowercase letters, and long algebraic notation
/// (`Ng1-f3`, `e2-e4`: the dash between the squares is dropped).
fn normalize_san(s: &str) -> String {
    let (body, suffix) = match s.find(['+', '#']) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let castle = match body {
        "0-0" | "o-o" => Some("O-O"),
        "0-0-0" | "o-o-o" => Some("O-O-O"),
        _ => None,
    };
    if let Some(c) = castle {
        return format!("{c}{suffix}");
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_squares = c == '-'
            && i > 0
            && matches!(chars[i - 1], '1'..='8')
            && chars.get(i + 1).is_some_and(|n| matches!(n, 'a'..='h'));
        if !between_squares {
            out.push(c);
        }
    }
    out
}

/// Parses FEN text. shakmaty reads a castling field that names a right twice
/// (`KQkqK`) as if it were written once; such a field is malformed FEN and is
/// refused here, as other readers do.
fn parse_fen(fen: &str) -> Result<Fen, SetupError> {
    let castling = fen.split_whitespace().nth(2).unwrap_or("");
    let repeated = castling
        .char_indices()
        .any(|(i, c)| castling[..i].contains(c));
    if repeated {
        return Err(SetupError::Fen {
            input: clip(fen),
            reason: format!("the castling field {castling:?} names a right twice"),
        });
    }
    Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| SetupError::Fen {
        input: clip(fen),
        reason: e.to_string(),
    })
}

impl Game {
    fn from_position(
        start: Chess,
        mode: CastlingMode,
        rules: RuleSet,
        chess960_number: Option<u32>,
    ) -> Game {
        let key = repetition_key(&start);
        let mut g = Game {
            rules,
            variant: if mode.is_chess960() {
                Variant::Chess960
            } else {
                Variant::Standard
            },
            chess960_number,
            mode,
            current: start.clone(),
            start,
            keys: vec![key],
            history: Vec::new(),
            outcome: None,
            draw_declined: false,
        };
        g.outcome = g.board_outcome();
        g
    }

    /// A game from the standard starting position.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(Chess::default(), CastlingMode::Standard, rules, None)
    }

    /// A Chess960 game from start position `number` (Scharnagl numbering,
    /// 0–959; 518 is the standard array).
    ///
    /// # Errors
    ///
    /// [`SetupError::Chess960Number`] if `number` is 960 or more.
    pub fn chess960(number: u32, rules: RuleSet) -> Result<Game, SetupError> {
        if number >= 960 {
            return Err(SetupError::Chess960Number { number });
        }
        let board = Board::chess960(number);
        let castling_rights =
            board.rooks() & (Bitboard::from(Rank::First) | Bitboard::from(Rank::Eighth));
        let setup = Setup {
            board,
            castling_rights,
            ..Setup::initial()
        };
        let pos =
            Chess::from_setup(setup, CastlingMode::Chess960).map_err(|e| SetupError::Position {
                input: format!("chess960 #{number}"),
                reason: describe_position_error(e.kinds()),
                code: position_error_code(e.kinds()),
            })?;
        Ok(Game::from_position(
            pos,
            CastlingMode::Chess960,
            rules,
            Some(number),
        ))
    }

    /// A Chess960 game from a uniformly random start position; returns its number.
    pub fn random_chess960(rules: RuleSet, rng: &mut impl rand::Rng) -> (u32, Game) {
        let n = rng.random_range(0..960);
        let g = Game::chess960(n, rules).expect("numbers below 960 are valid");
        (n, g)
    }

    /// A game from a FEN (also X-FEN and Shredder-FEN). Chess960 castling is
    /// used when the castling field needs it.
    ///
    /// # Errors
    ///
    /// [`SetupError::Fen`] for unreadable text, [`SetupError::Position`] for
    /// an illegal position (missing or extra kings, pawns on the back rank,
    /// the side not to move in check, impossible material, …).
    pub fn from_fen(fen: &str, rules: RuleSet) -> Result<Game, SetupError> {
        Game::from_fen_with(fen, rules, false)
    }

    /// Like [`Game::from_fen`], but with `chess960` forces Chess960 castling
    /// (as a PGN `Variant "Chess960"` tag does).
    ///
    /// # Errors
    ///
    /// As [`Game::from_fen`].
    pub fn from_fen_with(fen: &str, rules: RuleSet, chess960: bool) -> Result<Game, SetupError> {
        let parsed = parse_fen(fen)?;
        let setup = parsed.into_setup();
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::detect(&setup)
        };
        let pos = Chess::from_setup(setup, mode).map_err(|e| SetupError::Position {
            input: clip(fen),
            reason: describe_position_error(e.kinds()),
            code: position_error_code(e.kinds()),
        })?;
        Ok(Game::from_position(pos, mode, rules, None))
    }

    /// A game from a FEN for move-generator testing (perft): like
    /// [`Game::from_fen`], but positions whose check could not have arisen
    /// legally or with more material than a game can have are accepted, as
    /// published perft suites contain such positions.
    ///
    /// # Errors
    ///
    /// As [`Game::from_fen`] for every other defect.
    pub fn from_fen_lenient(fen: &str, rules: RuleSet) -> Result<Game, SetupError> {
        let parsed = parse_fen(fen)?;
        let setup = parsed.into_setup();
        let mode = CastlingMode::detect(&setup);
        let pos = Chess::from_setup(setup, mode)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .or_else(shakmaty::PositionError::ignore_too_much_material)
            .map_err(|e| SetupError::Position {
                input: clip(fen),
                reason: describe_position_error(e.kinds()),
                code: position_error_code(e.kinds()),
            })?;
        Ok(Game::from_position(pos, mode, rules, None))
    }

    /// The rule set of this game.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Standard chess or Chess960 (castling mode).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The castling mode used for UCI notation.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The Chess960 start number, for games created with [`Game::chess960`].
    pub fn chess960_number(&self) -> Option<u32> {
        self.chess960_number
    }

    /// FEN of the starting position.
    pub fn initial_fen(&self) -> String {
        Fen::from_position(self.initial_position(), EnPassantMode::Legal).to_string()
    }

    /// FEN of the current position (en passant square only when a capture is legal).
    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The starting position.
    pub fn initial_position(&self) -> &Chess {
        &self.start
    }

    /// The position after `ply` plies (0 is the start), if played: replayed
    /// from the start unless it is the current one.
    pub fn position_at(&self, ply: usize) -> Option<Chess> {
        match ply.cmp(&self.history.len()) {
            std::cmp::Ordering::Less => self.positions().nth(ply),
            std::cmp::Ordering::Equal => Some(self.current.clone()),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// Every position of the game in order: the start, then the position
    /// after each move (one replay for the whole game).
    pub fn positions(&self) -> impl Iterator<Item = Chess> + '_ {
        let after = self.history.iter().scan(self.start.clone(), |pos, m| {
            pos.play_unchecked(m.mv);
            Some(pos.clone())
        });
        std::iter::once(self.start.clone()).chain(after)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// Number of plies played in this game.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves played, with notations.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// All moves played, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.history.iter().map(|p| p.mv).collect()
    }

    /// Legal moves in the current position (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Sorted UCI strings of the legal moves (`e1g1` in standard games,
    /// `e1h1` in Chess960 games).
    pub fn legal_uci(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal_moves()
            .iter()
            .map(|m| notation::uci(*m, self.mode))
            .collect();
        v.sort();
        v
    }

    /// UCI text of a move in this game's castling convention.
    pub fn uci_of(&self, m: Move) -> String {
        notation::uci(m, self.mode)
    }

    fn over_error(&self, input: &str) -> Option<MoveError> {
        self.outcome.map(|outcome| MoveError::GameOver {
            input: clip(input),
            outcome,
        })
    }

    /// Parses UCI (`e2e4`, `e7e8q`; castling as `e1g1` or `e1h1`) into a
    /// legal move of the current position.
    ///
    /// # Errors
    ///
    /// [`MoveError::Malformed`] if the text is not UCI, [`MoveError::Illegal`]
    /// if it is not legal here (the null move `0000` never is),
    /// [`MoveError::GameOver`] once the game has ended.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        if let Some(e) = self.over_error(uci) {
            return Err(e);
        }
        let parsed = UciMove::from_ascii(uci.trim().as_bytes())
            .map_err(|_| MoveError::Malformed { input: clip(uci) })?;
        parsed
            .to_move(self.position())
            .map_err(|_| MoveError::Illegal { input: clip(uci) })
    }

    /// Parses SAN into a legal move of the current position. English SAN is
    /// tried first; only text that is not English SAN at all is then read
    /// with French, Romanian, Russian letters or figurines. Well-formed
    /// English SAN is never reinterpreted: `Nc4` with no knight able to go
    /// there is illegal, not a Romanian bishop move, and `Re2` is a rook move,
    /// not a French king move (use [`Game::parse_san_lang`] for those). A
    /// trailing `!`/`?` annotation is ignored.
    ///
    /// # Errors
    ///
    /// [`MoveError::Malformed`], [`MoveError::Illegal`],
    /// [`MoveError::Ambiguous`] (for example `Nd2` when two knights can go
    /// there) or [`MoveError::GameOver`].
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveError> {
        if let Some(e) = self.over_error(san) {
            return Err(e);
        }
        match self.san_in(san, Lang::En) {
            Ok(m) => return Ok(m),
            Err(e @ (MoveError::Ambiguous { .. } | MoveError::Illegal { .. })) => return Err(e),
            Err(_) => {}
        }
        let mut found: Vec<Move> = Vec::new();
        let mut any_ambiguous = false;
        let mut any_parsed = SanPlus::from_ascii(san.trim().as_bytes()).is_ok();
        for lang in [Lang::Fr, Lang::Ro, Lang::Ru, Lang::Figurine] {
            match self.san_in(san, lang) {
                Ok(m) => {
                    any_parsed = true;
                    if !found.contains(&m) {
                        found.push(m);
                    }
                }
                Err(MoveError::Ambiguous { .. }) => {
                    any_parsed = true;
                    any_ambiguous = true;
                }
                Err(MoveError::Illegal { .. }) => any_parsed = true,
                Err(_) => {}
            }
        }
        match found.as_slice() {
            [m] if !any_ambiguous => Ok(*m),
            [] if !any_ambiguous && !any_parsed => Err(MoveError::Malformed { input: clip(san) }),
            [] if !any_ambiguous => Err(MoveError::Illegal { input: clip(san) }),
            _ => Err(MoveError::Ambiguous { input: clip(san) }),
        }
    }

    /// Parses SAN written with the piece letters of `lang` only.
    ///
    /// # Errors
    ///
    /// As [`Game::parse_san`].
    pub fn parse_san_lang(&self, san: &str, lang: Lang) -> Result<Move, MoveError> {
        if let Some(e) = self.over_error(san) {
            return Err(e);
        }
        self.san_in(san, lang)
    }

    fn san_in(&self, san: &str, lang: Lang) -> Result<Move, MoveError> {
        let trimmed = normalize_san(san.trim().trim_end_matches(['!', '?']));
        let english = notation::delocalize_san(&trimmed, lang)
            .ok_or_else(|| MoveError::Malformed { input: clip(san) })?;
        let parsed = SanPlus::from_ascii(english.as_bytes())
            .map_err(|_| MoveError::Malformed { input: clip(san) })?;
        if matches!(parsed.san, San::Null | San::Put { .. }) {
            return Err(MoveError::Illegal { input: clip(san) });
        }
        parsed.san.to_move(self.position()).map_err(|e| match e {
            SanError::AmbiguousSan => MoveError::Ambiguous { input: clip(san) },
            SanError::IllegalSan => MoveError::Illegal { input: clip(san) },
        })
    }

    /// Parses a move in UCI or SAN (any supported language).
    ///
    /// # Errors
    ///
    /// As [`Game::parse_uci`] and [`Game::parse_san`].
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if looks_like_uci(text.trim()) {
            self.parse_uci(text)
        } else {
            self.parse_san(text)
        }
    }

    /// Parses a move in UCI or in SAN written with the piece letters of
    /// `lang` only.
    ///
    /// # Errors
    ///
    /// As [`Game::parse_uci`] and [`Game::parse_san_lang`].
    pub fn parse_move_lang(&self, text: &str, lang: Lang) -> Result<Move, MoveError> {
        if looks_like_uci(text.trim()) {
            self.parse_uci(text)
        } else {
            self.parse_san_lang(text, lang)
        }
    }

    /// Plays a move given in UCI.
    ///
    /// # Errors
    ///
    /// As [`Game::parse_uci`]; the game is unchanged on error.
    pub fn play_uci(&mut self, uci: &str) -> Result<&PlayedMove, MoveError> {
        let m = self.parse_uci(uci)?;
        self.play(m)
    }

    /// Plays a move given in SAN (English, or localised letters, or figurines).
    ///
    /// # Errors
    ///
    /// As [`Game::parse_san`]; the game is unchanged on error.
    pub fn play_san(&mut self, san: &str) -> Result<&PlayedMove, MoveError> {
        let m = self.parse_san(san)?;
        self.play(m)
    }

    /// Plays a move given in UCI or SAN.
    ///
    /// # Errors
    ///
    /// As [`Game::parse_move`]; the game is unchanged on error.
    pub fn play_text(&mut self, text: &str) -> Result<&PlayedMove, MoveError> {
        let m = self.parse_move(text)?;
        self.play(m)
    }

    /// Plays a move.
    ///
    /// # Errors
    ///
    /// [`MoveError::Illegal`] or [`MoveError::GameOver`]; the game is unchanged on error.
    pub fn play(&mut self, mv: Move) -> Result<&PlayedMove, MoveError> {
        self.play_with(mv, None, false)
    }

    /// Plays a move, recording the mover's remaining clock and whether a draw
    /// is offered with it. Moving declines a pending offer from the opponent.
    ///
    /// # Errors
    ///
    /// [`MoveError::Illegal`] or [`MoveError::GameOver`]; the game is unchanged on error.
    pub fn play_with(
        &mut self,
        mv: Move,
        clock_ms: Option<u64>,
        offer_draw: bool,
    ) -> Result<&PlayedMove, MoveError> {
        let uci = notation::uci(mv, self.mode);
        if let Some(e) = self.over_error(&uci) {
            return Err(e);
        }
        if !self.position().is_legal(mv) {
            return Err(MoveError::Illegal { input: uci });
        }
        let mut next = self.position().clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut next, mv).to_string();
        push_stepped(&mut self.keys, repetition_key(&next));
        self.current = next;
        push_stepped(
            &mut self.history,
            PlayedMove {
                mv,
                uci,
                san,
                clock_ms,
                draw_offer: offer_draw,
                blur: false,
            },
        );
        self.draw_declined = false;
        self.outcome = self.board_outcome();
        Ok(self.history.last().expect("just pushed"))
    }

    /// Marks the last move as made after the mover's tab had lost the
    /// focus (what their browser reported with it); nothing without moves.
    pub fn mark_blur(&mut self) {
        if let Some(last) = self.history.last_mut() {
            last.blur = true;
        }
    }

    /// Takes back the last ply. An outcome decided by the board (mate,
    /// stalemate, repetition, move rules, material, or a claim of those) is
    /// cleared with it; a game ended by resignation, agreement, time,
    /// abandonment or abort cannot be taken back (returns `None`).
    pub fn take_back(&mut self) -> Option<PlayedMove> {
        if self.outcome.is_some_and(|o| !o.reason.is_from_board()) {
            return None;
        }
        let last = self.history.pop()?;
        self.current = self
            .positions()
            .last()
            .expect("positions always yields the start");
        self.keys.pop();
        self.draw_declined = false;
        self.outcome = self.board_outcome();
        Some(last)
    }

    /// How many times the position after `ply` plies has occurred up to then
    /// (FIDE 9.2.3 identity).
    pub fn repetitions_at(&self, ply: usize) -> usize {
        let Some(pos) = self.position_at(ply) else {
            return 0;
        };
        let key = self.keys[ply];
        let earliest = ply.saturating_sub(pos.halfmoves() as usize);
        let same_key: Vec<usize> = (earliest..ply)
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&j| self.keys[j] == key)
            .collect();
        if same_key.is_empty() {
            return 1;
        }
        // Equal keys are confirmed on the positions themselves, replayed
        // once: a hash collision must never make a repetition.
        let confirmed = self
            .positions()
            .take(ply)
            .enumerate()
            .filter(|(j, p)| same_key.contains(j) && *p == pos)
            .count();
        1 + confirmed
    }

    /// How many times the current position has occurred.
    pub fn repetitions(&self) -> usize {
        self.repetitions_at(self.history.len())
    }

    fn board_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if pos.is_checkmate() {
            return Some(Outcome::win(!pos.turn(), Reason::Checkmate));
        }
        if pos.is_stalemate() {
            return Some(Outcome::draw(Reason::Stalemate));
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        let (reps, moves, rep_reason, move_reason) = match self.rules {
            RuleSet::PlyYard => (3, 100, Reason::ThreefoldRepetition, Reason::FiftyMoves),
            RuleSet::Fide => (5, 150, Reason::FivefoldRepetition, Reason::SeventyFiveMoves),
        };
        if self.repetitions() >= reps {
            return Some(Outcome::draw(rep_reason));
        }
        if pos.halfmoves() >= moves {
            return Some(Outcome::draw(move_reason));
        }
        None
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Under FIDE rules, the draws the side to move may claim in the current
    /// position: threefold repetition (the position has just occurred a third
    /// time) and the 50-move rule. Always empty under Ply Yard rules (those
    /// draws are automatic) and once the game is over.
    pub fn claimable(&self) -> Vec<Reason> {
        if self.rules != RuleSet::Fide || self.outcome.is_some() {
            return Vec::new();
        }
        let mut v = Vec::new();
        if self.repetitions() >= 3 {
            v.push(Reason::ThreefoldRepetition);
        }
        if self.position().halfmoves() >= 100 {
            v.push(Reason::FiftyMoves);
        }
        v
    }

    /// Under FIDE rules, the draws the side to move could claim by announcing
    /// `mv` (the claim is about the position the move produces).
    pub fn claimable_with_move(&self, mv: Move) -> Vec<Reason> {
        if self.rules != RuleSet::Fide || self.outcome.is_some() {
            return Vec::new();
        }
        let mut next = self.clone();
        if next.play(mv).is_err() || next.outcome.is_some() {
            return Vec::new();
        }
        next.claimable()
    }

    fn check_claim_reason(&self, reason: Reason) -> Result<(), ClaimError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        if self.rules != RuleSet::Fide {
            return Err(ActionError::ClaimsNotUsed);
        }
        if !matches!(reason, Reason::ThreefoldRepetition | Reason::FiftyMoves) {
            return Err(ActionError::NotAClaim { reason });
        }
        Ok(())
    }

    /// The side to move claims a draw (FIDE rules) in the current position.
    ///
    /// # Errors
    ///
    /// [`ActionError::ClaimsNotUsed`] under Ply Yard rules,
    /// [`ActionError::NotAClaim`] for reasons other than threefold/50-move,
    /// [`ActionError::NotClaimable`] when the condition does not hold,
    /// [`ActionError::GameOver`].
    pub fn claim_draw(&mut self, reason: Reason) -> Result<Outcome, ClaimError> {
        self.check_claim_reason(reason)?;
        if !self.claimable().contains(&reason) {
            return Err(ActionError::NotClaimable { reason });
        }
        let o = Outcome::draw(reason);
        self.outcome = Some(o);
        Ok(o)
    }

    /// The side to move claims a draw by announcing `mv`, which produces the
    /// repetition or completes the 50 moves (FIDE 9.2.2.1, 9.3.1). The move is
    /// played and the game drawn; if the move itself ends the game (for
    /// example checkmate on the 50th move) that outcome takes precedence and
    /// is returned. If the claim would be wrong, nothing is played.
    ///
    /// # Errors
    ///
    /// As [`Game::claim_draw`], plus [`ActionError::Move`] for an illegal move.
    pub fn claim_draw_with_move(
        &mut self,
        mv: Move,
        reason: Reason,
    ) -> Result<Outcome, ClaimError> {
        self.check_claim_reason(reason)?;
        let mut next = self.clone();
        next.play(mv)?;
        if let Some(o) = next.outcome {
            *self = next;
            return Ok(o);
        }
        if !next.claimable().contains(&reason) {
            return Err(ActionError::NotClaimable { reason });
        }
        let o = Outcome::draw(reason);
        next.outcome = Some(o);
        *self = next;
        Ok(o)
    }

    fn end(&mut self, o: Outcome) -> Result<Outcome, GameOverError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        self.outcome = Some(o);
        Ok(o)
    }

    /// `loser` resigns.
    ///
    /// # Errors
    ///
    /// [`ActionError::GameOver`] if the game already ended.
    pub fn resign(&mut self, loser: Color) -> Result<Outcome, GameOverError> {
        self.end(Outcome::win(!loser, Reason::Resignation))
    }

    /// `loser`'s flag fell. The opponent wins, unless the opponent cannot
    /// checkmate by any series of legal moves (FIDE 6.9): then it is a draw.
    ///
    /// # Errors
    ///
    /// [`ActionError::GameOver`] if the game already ended.
    pub fn flag(&mut self, loser: Color) -> Result<Outcome, GameOverError> {
        let winner = !loser;
        let o = if self.position().has_insufficient_material(winner) {
            Outcome::draw(Reason::TimeoutVsInsufficientMaterial)
        } else {
            Outcome::win(winner, Reason::Timeout)
        };
        self.end(o)
    }

    /// `loser` left the table.
    ///
    /// # Errors
    ///
    /// [`ActionError::GameOver`] if the game already ended.
    pub fn abandon(&mut self, loser: Color) -> Result<Outcome, GameOverError> {
        self.end(Outcome::win(!loser, Reason::Abandonment))
    }

    /// A player left the table and the opponent, who could claim the win,
    /// settles for a draw instead.
    ///
    /// # Errors
    ///
    /// [`ActionError::GameOver`] if the game already ended.
    pub fn abandon_drawn(&mut self) -> Result<Outcome, GameOverError> {
        self.end(Outcome::draw(Reason::Abandonment))
    }

    /// Calls the game off; allowed only before both sides have moved.
    ///
    /// # Errors
    ///
    /// [`ActionError::TooLateToAbort`] after two plies,
    /// [`ActionError::GameOver`] if the game already ended.
    pub fn abort(&mut self) -> Result<Outcome, GameOverError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        if self.history.len() >= 2 {
            return Err(ActionError::TooLateToAbort {
                plies: self.history.len(),
            });
        }
        self.end(Outcome {
            result: crate::rules::GameResult::Aborted,
            reason: Reason::Aborted,
        })
    }

    /// The side with a pending draw offer: the player who offered with their
    /// last move, until the opponent moves, declines or the game ends.
    pub fn draw_offer(&self) -> Option<Color> {
        if self.outcome.is_some() || self.draw_declined {
            return None;
        }
        match self.history.last() {
            Some(last) if last.draw_offer => Some(!self.turn()),
            _ => None,
        }
    }

    /// The side to move accepts the opponent's pending draw offer.
    ///
    /// # Errors
    ///
    /// [`ActionError::NoDrawOffer`], [`ActionError::GameOver`].
    pub fn accept_draw(&mut self) -> Result<Outcome, GameOverError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        if self.draw_offer() != Some(!self.turn()) {
            return Err(ActionError::NoDrawOffer);
        }
        self.end(Outcome::draw(Reason::Agreement))
    }

    /// `color`, who has just moved (the opponent is to move), offers a draw
    /// after the move: the offer is joined to that move and pending at
    /// once, until the opponent moves, declines or accepts. Offering again
    /// while the offer stands changes nothing.
    ///
    /// # Errors
    ///
    /// [`ActionError::NotAfterOwnMove`] when `color` is to move (or nobody
    /// has moved), [`ActionError::GameOver`].
    pub fn offer_draw_after_move(&mut self, color: Color) -> Result<(), GameOverError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        let Some(last) = self.history.last_mut() else {
            return Err(ActionError::NotAfterOwnMove);
        };
        if self.current.turn() == color {
            return Err(ActionError::NotAfterOwnMove);
        }
        last.draw_offer = true;
        self.draw_declined = false;
        Ok(())
    }

    /// The side to move declines the pending offer without moving (moving
    /// declines it too).
    ///
    /// # Errors
    ///
    /// [`ActionError::NoDrawOffer`], [`ActionError::GameOver`].
    pub fn decline_draw(&mut self) -> Result<(), GameOverError> {
        if let Some(outcome) = self.outcome {
            return Err(ActionError::GameOver { outcome });
        }
        if self.draw_offer().is_none() {
            return Err(ActionError::NoDrawOffer);
        }
        self.draw_declined = true;
        Ok(())
    }

    /// From- and to-squares of the last move as written in UCI (for castling
    /// in Chess960 games: king and rook squares), for highlighting.
    pub fn last_move_squares(&self) -> Option<(Square, Square)> {
        let last = self.history.last()?;
        match UciMove::from_move(last.mv, self.mode) {
            UciMove::Normal { from, to, .. } => Some((from, to)),
            UciMove::Put { to, .. } => Some((to, to)),
            UciMove::Null => None,
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Long algebraic notation of the move at `index` in the history.
    pub fn long_algebraic(&self, index: usize) -> Option<String> {
        let m = self.history.get(index)?;
        let before = self.position_at(index)?;
        Some(notation::long_algebraic(&before, m.mv))
    }

    /// Overrides the outcome after import (PGN results the board cannot know).
    pub(crate) fn set_outcome(&mut self, o: Outcome) {
        self.outcome = Some(o);
    }

    /// Sets the clock of an already played move (PGN import).
    pub(crate) fn set_clock(&mut self, index: usize, clock_ms: u64) {
        if let Some(m) = self.history.get_mut(index) {
            m.clock_ms = Some(clock_ms);
        }
    }
}

/// A snapshot of a game for JSON output (`plyyard replay`, the API): keys in
/// this order — `fen`, `turn`, `san`, `legal_moves`, `status`, `result`,
/// `reason`, `claimable`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// FEN of the current position.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// SAN of every move played.
    pub san: Vec<String>,
    /// Sorted UCI of every legal move (empty once the game is over).
    pub legal_moves: Vec<String>,
    /// `ongoing` or `finished`.
    pub status: &'static str,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub result: &'static str,
    /// Why the game ended, or `null`.
    pub reason: Option<Reason>,
    /// Draws the side to move may claim now (FIDE rules).
    pub claimable: Vec<Reason>,
}

impl Game {
    /// A [`Summary`] of the current state.
    pub fn summary(&self) -> Summary {
        let outcome = self.outcome();
        Summary {
            fen: self.fen(),
            turn: if self.turn().is_white() {
                "white"
            } else {
                "black"
            },
            san: self.history.iter().map(|m| m.san.clone()).collect(),
            legal_moves: self.legal_uci(),
            status: if outcome.is_some() {
                "finished"
            } else {
                "ongoing"
            },
            result: outcome.map_or("*", |o| o.result.as_str()),
            reason: outcome.map(|o| o.reason),
            claimable: self.claimable(),
        }
    }
}

#[cfg(test)]
mod tests;
