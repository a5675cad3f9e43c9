//! Streaming PGN import: one game at a time from any reader (never the whole
//! file in memory), each game replayed through [`Game`] so that every move is
//! checked. Errors name the game number, the line (and column) and the move.
//!
//! pgn-reader does the parsing. It silently skips tokens it cannot read as
//! moves and does not track lines, so the text of the current game is kept
//! (only until the game is done) and scanned once more to locate errors and
//! to find unreadable tokens.

use std::cell::RefCell;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::san::{San, SanError};
use shakmaty::{KnownOutcome, Position};

use crate::error::{MoveError, SetupError, clip};
use crate::game::Game;
use crate::pgn::PgnTags;
use crate::rules::{GameResult, Outcome, Reason, RuleSet, Variant};

/// What is wrong with a game in a PGN file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// A tag value is not valid UTF-8 or not usable.
    #[error("bad tag {name}: {reason}")]
    Tag {
        /// The tag name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The `FEN`/`SetUp` tags give an invalid position.
    #[error("{0}")]
    Setup(SetupError),
    /// A variant other than standard chess and Chess960.
    #[error("unsupported variant {0:?}")]
    UnsupportedVariant(String),
    /// A token in the movetext is neither a move nor anything else PGN allows.
    #[error("unreadable token {0:?}")]
    UnknownToken(String),
    /// A move is illegal, ambiguous or comes after the end of the game.
    #[error("{0}")]
    Move(MoveError),
    /// The result given contradicts the final position.
    #[error("result {found} contradicts the position ({expected})")]
    ResultMismatch {
        /// What the position says.
        expected: Outcome,
        /// The result written in the file.
        found: GameResult,
    },
    /// The file cannot be parsed further (unterminated tag, read error).
    #[error("{0}")]
    Syntax(String),
}

/// An error in one game of a PGN file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}{}: {kind}{}", column.map(|c| format!(", column {c}")).unwrap_or_default(), describe_move(*ply, mv.as_deref()))]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the error, from 1 (the game's first line when unknown).
    pub line: usize,
    /// The column (in bytes, from 1), when known.
    pub column: Option<usize>,
    /// The ply of the offending move, from 1.
    pub ply: Option<usize>,
    /// The offending move as written.
    pub mv: Option<String>,
    /// What is wrong.
    pub kind: PgnErrorKind,
    /// Whether reading can go on with the next game.
    pub recoverable: bool,
}

fn describe_move(ply: Option<usize>, mv: Option<&str>) -> String {
    match (ply, mv) {
        (Some(p), Some(m)) => {
            let number = p.div_ceil(2);
            let dots = if p % 2 == 1 { "." } else { "..." };
            format!(" (ply {p}, move {number}{dots} {m})")
        }
        (None, Some(m)) => format!(" (at {m:?})"),
        _ => String::new(),
    }
}

/// A game read from PGN: the replayed game and all its tags.
#[derive(Debug, Clone)]
pub struct ImportedGame {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The line where the game starts.
    pub line: usize,
    /// All tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The replayed game, with its outcome and clocks.
    pub game: Game,
}

impl ImportedGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Tags for re-export: the roster, `TimeControl`, and the other tags
    /// except those the exporter derives from the game itself.
    pub fn pgn_tags(&self) -> PgnTags {
        let get = |n: &str, d: &str| self.tag(n).unwrap_or(d).to_owned();
        PgnTags {
            event: get("Event", "?"),
            site: get("Site", "?"),
            date: get("Date", "????.??.??"),
            round: get("Round", "?"),
            white: get("White", "?"),
            black: get("Black", "?"),
            time_control: self.tag("TimeControl").map(str::to_owned),
            extra: self
                .tags
                .iter()
                .filter(|(k, _)| !crate::pgn::DERIVED_TAGS.contains(&k.as_str()))
                .cloned()
                .collect(),
        }
    }
}

/// Keeps a copy of the bytes read since the last finished game.
struct Tap<R> {
    inner: R,
    seen: Rc<RefCell<Vec<u8>>>,
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen.borrow_mut().extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// Reads the games of a PGN stream one by one.
///
/// # Examples
///
/// ```
/// use plyyard_game::pgn::PgnImporter;
/// let text = "[Event \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. e4 e5 2. Ke3 *\n";
/// let games: Vec<_> = PgnImporter::new(text.as_bytes()).collect();
/// assert!(games[0].is_ok());
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!((err.game, err.line, err.ply), (2, 5, Some(3)));
/// ```
pub struct PgnImporter<R: Read> {
    reader: Reader<Tap<R>>,
    seen: Rc<RefCell<Vec<u8>>>,
    /// Bytes of `seen` that belong to earlier games and were dropped.
    dropped: u64,
    /// Line number at the first byte of `seen`.
    line: usize,
    number: usize,
    done: bool,
    rules: RuleSet,
}

impl<R: Read> PgnImporter<R> {
    /// Reads from `input`; games without a `Rules` tag use FIDE rules.
    pub fn new(input: R) -> PgnImporter<R> {
        PgnImporter::with_rules(input, RuleSet::Fide)
    }

    /// Reads from `input`; games without a `Rules` tag use `rules`.
    pub fn with_rules(input: R, rules: RuleSet) -> PgnImporter<R> {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let tap = Tap {
            inner: input,
            seen: Rc::clone(&seen),
        };
        PgnImporter {
            reader: Reader::new(tap),
            seen,
            dropped: 0,
            line: 1,
            number: 0,
            done: false,
            rules,
        }
    }

    /// Drops the bytes of the finished game; returns its text and first line.
    fn take_game_text(&mut self) -> (Vec<u8>, usize) {
        let mut seen = self.seen.borrow_mut();
        let pending = self.reader.buffer().len().min(seen.len());
        let end = seen.len() - pending;
        let text: Vec<u8> = seen.drain(..end).collect();
        self.dropped += end as u64;
        let start_line = self.line;
        self.line += text.iter().filter(|&&b| b == b'\n').count();
        (text, start_line)
    }
}

impl<R: Read> Iterator for PgnImporter<R> {
    type Item = Result<ImportedGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut visitor = Collector { rules: self.rules };
        let read = self.reader.read_game(&mut visitor);
        let (text, first_line) = self.take_game_text();
        match read {
            Ok(None) => {
                self.done = true;
                None
            }
            Ok(Some(state)) => {
                self.number += 1;
                Some(finish(self.number, first_line, &text, state))
            }
            Err(e) => {
                self.done = true;
                self.number += 1;
                let lines = text.iter().filter(|&&b| b == b'\n').count();
                Some(Err(PgnError {
                    game: self.number,
                    line: first_line + lines,
                    column: None,
                    ply: None,
                    mv: None,
                    kind: PgnErrorKind::Syntax(e.to_string()),
                    recoverable: false,
                }))
            }
        }
    }
}

/// What went wrong while replaying, before it is located in the text.
enum Failure {
    Tag {
        name: String,
        reason: String,
    },
    Setup(PgnErrorKind),
    /// The `index`-th readable move (from 0) failed.
    Move {
        index: usize,
        error: MoveError,
    },
}

struct State {
    tags: Vec<(String, String)>,
    game: Option<Game>,
    failure: Option<Failure>,
    sans: usize,
    result: Option<pgn_reader::Outcome>,
}

struct Collector {
    rules: RuleSet,
}

fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

pub(super) fn start_game(
    tags: &[(String, String)],
    default_rules: RuleSet,
) -> Result<Game, PgnErrorKind> {
    let rules = match tag_value(tags, "Rules") {
        Some(r) => r.parse::<RuleSet>().map_err(|e| PgnErrorKind::Tag {
            name: "Rules".into(),
            reason: e.to_string(),
        })?,
        None => default_rules,
    };
    let chess960 = match tag_value(tags, "Variant") {
        None => false,
        Some(v) => match v.parse::<Variant>() {
            Ok(Variant::Standard) => false,
            Ok(Variant::Chess960) => true,
            Err(_) if v.trim().is_empty() => false,
            Err(_) => return Err(PgnErrorKind::UnsupportedVariant(v.to_owned())),
        },
    };
    match tag_value(tags, "FEN") {
        Some(fen) if tag_value(tags, "SetUp") != Some("0") => {
            Game::from_fen_with(fen, rules, chess960).map_err(PgnErrorKind::Setup)
        }
        // Writers such as python-chess leave out the FEN of a Chess960 game
        // that starts from the standard array (position 518).
        _ if chess960 => Game::chess960(518, rules).map_err(PgnErrorKind::Setup),
        _ => Ok(Game::new(rules)),
    }
}

fn parse_clock(comment: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(comment).ok()?;
    let at = text.find("[%clk")?;
    let rest = text[at + 5..].trim_start();
    let end = rest.find(']')?;
    let value = rest[..end].trim();
    let (hms, frac) = match value.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (value, None),
    };
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut secs: u64 = 0;
    for p in &parts {
        secs = secs.checked_mul(60)?.checked_add(p.parse::<u64>().ok()?)?;
    }
    let mut ms = secs.checked_mul(1000)?;
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 3 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let padded = format!("{f:0<3}");
        ms = ms.checked_add(padded.parse::<u64>().ok()?)?;
    }
    Some(ms)
}

impl Visitor for Collector {
    type Tags = (Vec<(String, String)>, Option<Failure>);
    type Movetext = State;
    type Output = State;

    fn begin_tags(&mut self) -> ControlFlow<State, Self::Tags> {
        ControlFlow::Continue((Vec::new(), None))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<State> {
        let name_s = String::from_utf8_lossy(name).into_owned();
        match (std::str::from_utf8(name), value.decode_utf8()) {
            (Ok(_), Ok(v)) => tags.0.push((name_s, v.into_owned())),
            _ => {
                if tags.1.is_none() {
                    tags.1 = Some(Failure::Tag {
                        name: name_s,
                        reason: "not valid UTF-8".into(),
                    });
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<State, State> {
        let (tags, failure) = tags;
        let (game, failure) = match failure {
            Some(f) => (None, Some(f)),
            None => match start_game(&tags, self.rules) {
                Ok(g) => (Some(g), None),
                Err(e) => (None, Some(Failure::Setup(e))),
            },
        };
        ControlFlow::Continue(State {
            tags,
            game,
            failure,
            sans: 0,
            result: None,
        })
    }

    fn san(&mut self, state: &mut State, san_plus: SanPlus) -> ControlFlow<State> {
        let index = state.sans;
        state.sans += 1;
        if state.failure.is_some() {
            return ControlFlow::Continue(());
        }
        let Some(game) = state.game.as_mut() else {
            return ControlFlow::Continue(());
        };
        let text = san_plus.to_string();
        let error = if let Some(outcome) = game.outcome() {
            Some(MoveError::GameOver {
                input: text,
                outcome,
            })
        } else if matches!(san_plus.san, San::Null | San::Put { .. }) {
            Some(MoveError::Illegal { input: text })
        } else {
            match san_plus.san.to_move(game.position()) {
                Ok(m) => game.play(m).err(),
                Err(SanError::AmbiguousSan) => Some(MoveError::Ambiguous { input: text }),
                Err(SanError::IllegalSan) => Some(MoveError::Illegal { input: text }),
            }
        };
        if let Some(error) = error {
            state.failure = Some(Failure::Move { index, error });
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, state: &mut State, comment: RawComment<'_>) -> ControlFlow<State> {
        if state.failure.is_none()
            && let Some(ms) = parse_clock(comment.as_bytes())
            && let Some(game) = state.game.as_mut()
            && game.ply() > 0
        {
            let last = game.ply() - 1;
            game.set_clock(last, ms);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, state: &mut State, outcome: pgn_reader::Outcome) -> ControlFlow<State> {
        state.result = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, state: State) -> State {
        state
    }
}

/// A token of the main line that stands where a move should.
struct Token {
    text: String,
    offset: usize,
    readable: bool,
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// Lists the main-line move tokens of one game's text (tags, comments,
/// variations, NAGs, move numbers and results left out).
fn scan_moves(text: &[u8]) -> (Vec<Token>, Option<(usize, &'static str)>) {
    let mut out = Vec::new();
    let mut problem: Option<(usize, &'static str)> = None;
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    while i < text.len() {
        let b = text[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b'%' if line_start => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' if depth == 0 => {
                let start = i;
                i += 1;
                let mut in_str = false;
                let mut closed = false;
                while i < text.len() && text[i] != b'\n' {
                    match text[i] {
                        b'\\' if in_str => i += 1,
                        b'"' => in_str = !in_str,
                        b']' if !in_str => {
                            closed = true;
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if !closed && problem.is_none() {
                    problem = Some((start, "unterminated tag"));
                }
                if closed {
                    i += 1;
                }
            }
            b'{' => {
                let start = i;
                while i < text.len() && text[i] != b'}' {
                    i += 1;
                }
                if i >= text.len() && problem.is_none() {
                    problem = Some((start, "unterminated comment"));
                }
                i += 1;
            }
            b';' => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'}' | b']' => i += 1,
            _ => {
                let start = i;
                // Always take the first byte, so that a stray `[` inside a
                // variation cannot stall the scan.
                i += 1;
                while i < text.len()
                    && !matches!(
                        text[i],
                        b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'(' | b')' | b';' | b'['
                    )
                {
                    i += 1;
                }
                if depth == 0 {
                    classify(&text[start..i], start, &mut out);
                }
            }
        }
        line_start = false;
    }
    (out, problem)
}

fn classify(raw: &[u8], offset: usize, out: &mut Vec<Token>) {
    let text = String::from_utf8_lossy(raw).into_owned();
    if text.starts_with('$') || text.chars().all(|c| c == '!' || c == '?') {
        return;
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (body, body_offset) = if digits > 0 && text[digits..].starts_with('.') {
        let rest = text[digits..].trim_start_matches('.');
        (rest.to_owned(), offset + (text.len() - rest.len()))
    } else {
        (text.clone(), offset)
    };
    if body.is_empty() || is_result(&body) {
        return;
    }
    let core = body.trim_end_matches(['!', '?']);
    let castles = matches!(
        core.trim_end_matches(['+', '#']),
        "0-0" | "0-0-0" | "O-O" | "O-O-O"
    );
    let readable = castles || SanPlus::from_ascii(core.as_bytes()).is_ok();
    out.push(Token {
        text: clip(&body),
        offset: body_offset,
        readable,
    });
}

fn line_col(text: &[u8], first_line: usize, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = first_line + before.iter().filter(|&&b| b == b'\n').count();
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

fn decide_outcome(state: &State, game: &Game) -> Result<Option<Outcome>, PgnErrorKind> {
    let written = match state.result {
        Some(pgn_reader::Outcome::Known(KnownOutcome::Decisive { winner })) => {
            Some(GameResult::win(winner))
        }
        Some(pgn_reader::Outcome::Known(KnownOutcome::Draw)) => Some(GameResult::Draw),
        Some(pgn_reader::Outcome::Unknown) => Some(GameResult::Aborted),
        None => tag_value(&state.tags, "Result").and_then(|r| r.parse().ok()),
    };
    if let Some(board) = game.outcome() {
        return match written {
            Some(w) if w != board.result && w != GameResult::Aborted => {
                Err(PgnErrorKind::ResultMismatch {
                    expected: board,
                    found: w,
                })
            }
            _ => Ok(None),
        };
    }
    let termination = tag_value(&state.tags, "Termination")
        .unwrap_or("")
        .to_ascii_lowercase();
    let stated: Option<Reason> =
        tag_value(&state.tags, "PlyYardReason").and_then(|r| r.parse().ok());
    let fits = |r: Reason, res: GameResult| -> bool {
        match r {
            Reason::Resignation | Reason::Timeout | Reason::Abandonment => res.winner().is_some(),
            Reason::Agreement | Reason::TimeoutVsInsufficientMaterial => res == GameResult::Draw,
            Reason::ThreefoldRepetition | Reason::FiftyMoves => {
                res == GameResult::Draw && game.claimable().contains(&r)
            }
            Reason::Aborted => res == GameResult::Aborted,
            _ => false,
        }
    };
    let Some(result) = written else {
        return Ok(None);
    };
    if let Some(r) = stated.filter(|r| fits(*r, result)) {
        return Ok(Some(Outcome { result, reason: r }));
    }
    let reason = match result {
        GameResult::Aborted => {
            if termination == "abandoned" && game.ply() < 2 {
                Reason::Aborted
            } else {
                return Ok(None);
            }
        }
        GameResult::Draw => {
            if let Some(r) = game.claimable().first() {
                *r
            } else if termination == "time forfeit" {
                Reason::TimeoutVsInsufficientMaterial
            } else {
                Reason::Agreement
            }
        }
        GameResult::WhiteWins | GameResult::BlackWins => match termination.as_str() {
            "time forfeit" => Reason::Timeout,
            "abandoned" => Reason::Abandonment,
            _ => Reason::Resignation,
        },
    };
    Ok(Some(Outcome { result, reason }))
}

// Errors are the exception per game and are handed straight to the caller.
#[allow(clippy::result_large_err)]
fn finish(
    number: usize,
    first_line: usize,
    text: &[u8],
    mut state: State,
) -> Result<ImportedGame, PgnError> {
    let skip_ws = text
        .iter()
        .take_while(|b| b.is_ascii_whitespace())
        .filter(|&&b| b == b'\n')
        .count();
    let game_line = first_line + skip_ws;
    let (tokens, problem) = scan_moves(text);
    if let Some((offset, what)) = problem {
        let (line, col) = line_col(text, first_line, offset);
        return Err(PgnError {
            game: number,
            line,
            column: Some(col),
            ply: None,
            mv: None,
            kind: PgnErrorKind::Syntax(what.to_owned()),
            recoverable: true,
        });
    }
    let err = |line: usize, column: Option<usize>, ply, mv, kind| PgnError {
        game: number,
        line,
        column,
        ply,
        mv,
        kind,
        recoverable: true,
    };
    let first_unreadable = tokens.iter().position(|t| !t.readable);
    let start_ply = |state: &State| {
        state
            .game
            .as_ref()
            .map(|g| usize::from(g.initial_position().turn().is_black()))
            .unwrap_or(0)
    };
    // The error for the unreadable token at `u`, located and numbered.
    let unknown_token = |u: usize, state: &State| {
        let t = &tokens[u];
        let (line, col) = line_col(text, first_line, t.offset);
        let ply = tokens[..u].iter().filter(|t| t.readable).count() + 1;
        err(
            line,
            Some(col),
            Some(ply + start_ply(state)),
            Some(t.text.clone()),
            PgnErrorKind::UnknownToken(t.text.clone()),
        )
    };
    match state.failure.take() {
        Some(Failure::Tag { name, reason }) => {
            return Err(err(
                game_line,
                None,
                None,
                None,
                PgnErrorKind::Tag { name, reason },
            ));
        }
        Some(Failure::Setup(kind)) => return Err(err(game_line, None, None, None, kind)),
        Some(Failure::Move { index, error }) => {
            let at = tokens
                .iter()
                .enumerate()
                .filter(|(_, t)| t.readable)
                .nth(index)
                .map(|(i, _)| i);
            if let Some(u) = first_unreadable
                && at.is_none_or(|a| u < a)
            {
                return Err(unknown_token(u, &state));
            }
            let (line, col, shown) = match at {
                Some(a) => {
                    let (l, c) = line_col(text, first_line, tokens[a].offset);
                    (l, Some(c), tokens[a].text.clone())
                }
                None => (game_line, None, error.input().to_owned()),
            };
            return Err(err(
                line,
                col,
                Some(index + 1 + start_ply(&state)),
                Some(shown),
                PgnErrorKind::Move(error),
            ));
        }
        None => {}
    }
    if let Some(u) = first_unreadable {
        return Err(unknown_token(u, &state));
    }
    let mut game = state.game.take().expect("game exists without a failure");
    match decide_outcome(&state, &game) {
        Ok(Some(o)) => game.set_outcome(o),
        Ok(None) => {}
        Err(kind) => {
            let (line, col) = tokens
                .last()
                .map(|t| line_col(text, first_line, t.offset))
                .map(|(l, c)| (l, Some(c)))
                .unwrap_or((game_line, None));
            return Err(err(line, col, None, None, kind));
        }
    }
    Ok(ImportedGame {
        number,
        line: game_line,
        tags: state.tags,
        game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8]) -> Vec<Result<ImportedGame, PgnError>> {
        PgnImporter::new(text).collect()
    }

    #[test]
    fn clock_values() {
        assert_eq!(parse_clock(b"[%clk 0:03:00]"), Some(180_000));
        assert_eq!(parse_clock(b"x [%clk 1:00:01.5] y"), Some(3_601_500));
        assert_eq!(parse_clock(b"[%clk 0:00:07.25]"), Some(7_250));
        assert_eq!(parse_clock(b"[%clk nonsense]"), None);
        assert_eq!(parse_clock(b"plain comment"), None);
    }

    #[test]
    fn illegal_move_is_located() {
        let text = b"[Event \"one\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Ke6 *\n\n[Event \"two\"]\n\n1. d4 *\n";
        let games = all(text);
        assert_eq!(games.len(), 2);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.column, e.ply), (1, 5, Some(8), Some(6)));
        assert_eq!(e.mv.as_deref(), Some("Ke6"));
        assert!(matches!(
            e.kind,
            PgnErrorKind::Move(MoveError::Illegal { .. })
        ));
        let ok = games[1].as_ref().unwrap();
        assert_eq!((ok.number, ok.line, ok.game.ply()), (2, 7, 1));
    }

    #[test]
    fn junk_tokens_are_reported() {
        let e = all(b"1. e4 Zz9 2. Nf3 *\n")[0].clone().unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::UnknownToken("Zz9".into()));
        assert_eq!((e.line, e.column, e.ply), (1, Some(7), Some(2)));
    }

    #[test]
    fn ambiguous_and_pieceless_moves() {
        let e = all(b"[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n\n1. Nd2 *\n")[0]
            .clone()
            .unwrap_err();
        assert!(matches!(
            e.kind,
            PgnErrorKind::Move(MoveError::Ambiguous { .. })
        ));
        let e = all(b"1. e8 *\n")[0].clone().unwrap_err();
        assert!(matches!(
            e.kind,
            PgnErrorKind::Move(MoveError::Illegal { .. })
        ));
    }

    #[test]
    fn invalid_utf8_tag_and_unterminated_parts() {
        let e = all(b"[White \"\xff\xfe\"]\n\n1. e4 *\n")[0]
            .clone()
            .unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::Tag { .. }));
        let r = all(b"[White \"abc\n");
        assert_eq!(r.len(), 1);
        let e = r[0].clone().unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::Syntax("unterminated tag".into()));
        let r = all(b"1. e4 { never closed\n");
        assert_eq!(r.len(), 1);
        assert!(matches!(
            r[0],
            Err(PgnError {
                kind: PgnErrorKind::Syntax(_),
                ..
            })
        ));
        // Invalid UTF-8 in the movetext is an unreadable token.
        let e = all(b"1. e4 \xff\xfe *\n")[0].clone().unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::UnknownToken(_)));
    }

    #[test]
    fn moves_after_mate_are_refused() {
        let e = all(b"1. f3 e5 2. g4 Qh4# 3. a3 0-1\n")[0]
            .clone()
            .unwrap_err();
        assert!(matches!(
            e.kind,
            PgnErrorKind::Move(MoveError::GameOver { .. })
        ));
        assert_eq!(e.ply, Some(5));
    }

    #[test]
    fn result_mismatch() {
        let e = all(b"1. f3 e5 2. g4 Qh4# 1-0\n")[0].clone().unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::ResultMismatch { .. }));
    }

    #[test]
    fn resignation_and_variations_and_castling_with_zeros() {
        let g = all(b"1. e4 (1. d4 d5) e5 2. Nf3 $1 Nc6 {x} 3. Bc4 Bc5 4. 0-0 1-0\n")[0]
            .clone()
            .unwrap();
        assert_eq!(g.game.ply(), 7);
        assert_eq!(g.game.outcome().unwrap().reason, Reason::Resignation);
        assert_eq!(g.game.history()[6].san, "O-O");
    }
}
