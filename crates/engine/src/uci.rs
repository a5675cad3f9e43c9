//! The UCI front end: reads commands line by line, runs searches on a
//! background thread so `stop`, `isready` and `quit` are answered at once,
//! and writes the standard replies. Bad input is reported with
//! `info string` and otherwise ignored; it never ends the loop.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::{Clock, Engine, Level, Limits, SearchInfo};

/// Engine name reported to GUIs.
pub const NAME: &str = "Ply Yard";
/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn emit(out: &Out, line: &str) {
    if let Ok(mut o) = out.lock() {
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }
}

/// Maps a `UCI_Elo` value onto the nearest playing level.
pub fn level_for_elo(elo: u32) -> Level {
    match elo {
        0..=950 => Level::Beginner,
        951..=1250 => Level::Easy,
        1251..=1600 => Level::Normal,
        1601..=2200 => Level::Hard,
        _ => Level::Expert,
    }
}

struct Options {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    chess960: bool,
    limit_strength: bool,
    elo: u32,
    level: Level,
    overhead_ms: u64,
    seed: u64,
    position_is_960: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            chess960: false,
            limit_strength: false,
            elo: 2800,
            level: Level::Expert,
            overhead_ms: 30,
            seed: 0,
            position_is_960: false,
        }
    }
}

impl Options {
    fn mode(&self) -> CastlingMode {
        if self.chess960 || self.position_is_960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn effective_level(&self) -> Level {
        if self.limit_strength {
            level_for_elo(self.elo)
        } else {
            self.level
        }
    }
}

/// UCI session state.
pub struct Session {
    out: Out,
    opts: Options,
    engine: Option<Engine>,
    running: Option<JoinHandle<Engine>>,
    stop: Arc<AtomicBool>,
    start: Chess,
    moves: Vec<Move>,
    games: u64,
}

/// Runs the UCI loop over `input`, writing replies to `output`, until
/// `quit` or end of input.
pub fn run<R: BufRead>(input: R, output: Box<dyn Write + Send>) {
    let mut s = Session::new(output);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !s.handle(&line) {
            break;
        }
    }
    s.finish();
}

/// The evaluation an `EvalFile` value names: empty for the built-in
/// network (a correction on the classical evaluation), a network file from `plyyard train-nnue`, or a weight table
/// from `plyyard tune` (such as `crates/engine/src/tuned.rs`, the
/// classical evaluation).
fn load_eval_file(v: &str) -> Result<std::sync::Arc<dyn crate::evaluator::Evaluator>, String> {
    if v.is_empty() || v == "<empty>" {
        return Ok(crate::nnue::default_network());
    }
    let bytes = std::fs::read(v).map_err(|e| format!("cannot read EvalFile {v:?}: {e}"))?;
    if bytes.starts_with(crate::nnue::MAGIC) {
        let net = crate::nnue::Network::from_bytes(&bytes)
            .map_err(|e| format!("bad EvalFile {v:?}: {e}"))?;
        return Ok(std::sync::Arc::new(net));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("bad EvalFile {v:?}: neither a network nor a weight table"))?;
    let params =
        crate::params::Params::from_rust(&text).map_err(|e| format!("bad EvalFile {v:?}: {e}"))?;
    Ok(std::sync::Arc::new(crate::eval::Classical::with_params(
        params,
    )))
}

/// The legal move of `pos` that a UCI move token names, if any.
fn parse_move(pos: &Chess, tok: &str) -> Option<Move> {
    tok.parse::<UciMove>().ok()?.to_move(pos).ok()
}

fn format_move(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

fn info_line(i: &SearchInfo, mode: CastlingMode) -> String {
    let ms = i.time.as_millis().max(1);
    let nps = u128::from(i.nodes) * 1000 / ms;
    let pv: Vec<String> = i.pv.iter().map(|m| format_move(*m, mode)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.score,
        i.nodes,
        nps,
        i.hashfull,
        i.time.as_millis(),
        pv.join(" ")
    )
}

impl Session {
    fn new(output: Box<dyn Write + Send>) -> Session {
        let opts = Options::default();
        Session {
            out: Arc::new(Mutex::new(output)),
            engine: Some(Engine::new(opts.hash_mb)),
            opts,
            running: None,
            stop: Arc::new(AtomicBool::new(false)),
            start: Chess::default(),
            moves: Vec::new(),
            games: 0,
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, msg: &str) {
        self.say(&format!("info string error: {msg}"));
        eprintln!("plyyard uci: {msg}");
    }

    fn wait(&mut self) {
        if let Some(h) = self.running.take() {
            match h.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => {
                    self.error("search thread failed; engine reset");
                    self.engine = Some(self.fresh_engine());
                }
            }
        }
    }

    fn fresh_engine(&self) -> Engine {
        let mut e = Engine::new(self.opts.hash_mb);
        e.set_threads(self.opts.threads);
        e.set_move_overhead(Duration::from_millis(self.opts.overhead_ms));
        e
    }

    fn stop_and_wait(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wait();
    }

    fn engine(&mut self) -> &mut Engine {
        self.wait();
        if self.engine.is_none() {
            self.engine = Some(self.fresh_engine());
        }
        self.engine.as_mut().expect("engine present")
    }

    fn finish(&mut self) {
        self.stop_and_wait();
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => {
                self.say(&format!("id name {NAME} {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the Ply Yard authors");
                self.say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"
                ));
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name MultiPV type spin default 1 min 1 max 256");
                self.say("option name UCI_Chess960 type check default false");
                self.say("option name UCI_LimitStrength type check default false");
                self.say("option name UCI_Elo type spin default 2800 min 500 max 2800");
                self.say("option name Level type combo default Expert var Beginner var Easy var Normal var Hard var Expert");
                self.say("option name Move Overhead type spin default 30 min 0 max 5000");
                self.say("option name Seed type spin default 0 min 0 max 2147483647");
                self.say("option name EvalFile type string default <empty>");
                self.say("option name Clear Hash type button");
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop_and_wait();
                self.games += 1;
                self.engine().clear();
            }
            "position" => {
                self.stop_and_wait();
                self.position(args);
            }
            "go" => {
                self.stop_and_wait();
                self.go(args);
            }
            "stop" => self.stop_and_wait(),
            "ponderhit" => {}
            "quit" => return false,
            "setoption" => {
                self.stop_and_wait();
                self.setoption(args);
            }
            "d" => self.display(),
            "bench" => {
                self.stop_and_wait();
                let depth = args
                    .first()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(crate::bench::DEFAULT_DEPTH);
                let r = crate::bench::run(depth, &mut |l| emit(&self.out, l));
                self.say(&r.summary());
            }
            "eval" => {
                let (pos, _) = crate::replay(&self.start, &self.moves);
                let e = self.engine().static_eval(&pos);
                self.say(&format!("info string static eval {e} cp (side to move)"));
            }
            "debug" | "register" => {}
            _ => self.error(&format!("unknown command: {line}")),
        }
        true
    }

    fn position(&mut self, args: &[&str]) {
        let mode = self.opts.mode();
        let (start, rest) = match args.first() {
            Some(&"startpos") => (Ok(Chess::default()), &args[1..]),
            Some(&"fen") => {
                let end = args
                    .iter()
                    .position(|t| *t == "moves")
                    .unwrap_or(args.len());
                let fen = args[1..end].join(" ");
                let pos = fen
                    .parse::<Fen>()
                    .map_err(|e| format!("bad FEN {fen:?}: {e}"))
                    .and_then(|f| {
                        // A standard-mode GUI may still send a position whose
                        // castling rooks are not on the corners (a Chess960
                        // start): accept it with Chess960 castling.
                        f.clone()
                            .into_position::<Chess>(mode)
                            .map_err(|e| format!("illegal position {fen:?}: {e}"))
                            .or_else(|msg| {
                                f.into_position::<Chess>(CastlingMode::Chess960)
                                    .map_err(|_| msg)
                            })
                    });
                (pos, &args[end..])
            }
            _ => (
                Err("expected 'position startpos' or 'position fen <fen>'".to_owned()),
                &args[..0],
            ),
        };
        let start = match start {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let mut moves = Vec::new();
        if let Some((&"moves", list)) = rest.split_first() {
            let mut pos = start.clone();
            for tok in list {
                match parse_move(&pos, tok) {
                    Some(m) => {
                        pos.play_unchecked(m);
                        moves.push(m);
                    }
                    None => {
                        return self.error(&format!("illegal move {tok} in position command"));
                    }
                }
            }
        } else if let Some(t) = rest.first() {
            return self.error(&format!("unexpected token {t:?} in position command"));
        }
        self.opts.position_is_960 = start.castles().mode() == CastlingMode::Chess960;
        self.start = start;
        self.moves = moves;
    }

    fn setoption(&mut self, args: &[&str]) {
        let name_at = args.iter().position(|t| t.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            return self.error("setoption without name");
        };
        let name = args[n + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        let num = || value.trim().parse::<u64>();
        let flag = || value.trim().eq_ignore_ascii_case("true");
        match name.to_ascii_lowercase().as_str() {
            "hash" => match num() {
                Ok(mb) if (1..=65536).contains(&mb) => {
                    self.opts.hash_mb = mb as usize;
                    self.engine().set_hash(mb as usize);
                }
                _ => self.error(&format!("bad Hash value {value:?}")),
            },
            "threads" => match num() {
                Ok(t) if (1..=256).contains(&t) => {
                    self.opts.threads = t as usize;
                    self.engine().set_threads(t as usize);
                }
                _ => self.error(&format!("bad Threads value {value:?}")),
            },
            "multipv" => match num() {
                Ok(k) if (1..=256).contains(&k) => self.opts.multipv = k as usize,
                _ => self.error(&format!("bad MultiPV value {value:?}")),
            },
            "uci_chess960" => self.opts.chess960 = flag(),
            "uci_limitstrength" => self.opts.limit_strength = flag(),
            "uci_elo" => match num() {
                Ok(e) if (500..=2800).contains(&e) => self.opts.elo = e as u32,
                _ => self.error(&format!("bad UCI_Elo value {value:?}")),
            },
            "level" => match value.parse::<Level>() {
                Ok(l) => self.opts.level = l,
                Err(e) => self.error(&e.to_string()),
            },
            "move overhead" => match num() {
                Ok(ms) if ms <= 5000 => {
                    self.opts.overhead_ms = ms;
                    self.engine().set_move_overhead(Duration::from_millis(ms));
                }
                _ => self.error(&format!("bad Move Overhead value {value:?}")),
            },
            "seed" => match num() {
                Ok(s) => self.opts.seed = s,
                _ => self.error(&format!("bad Seed value {value:?}")),
            },
            "clear hash" => self.engine().clear(),
            "evalfile" => {
                let v = value.trim();
                match load_eval_file(v) {
                    Ok(eval) => self.engine().set_evaluator(eval),
                    Err(e) => self.error(&e),
                }
            }
            _ => self.error(&format!("unknown option {name:?}")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        const MAX_PERFT_DEPTH: i64 = 64;
        const GO_KEYWORDS: [&str; 13] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "movetime",
            "mate",
            "infinite",
            "ponder",
            "perft",
            "searchmoves",
        ];
        let (pos, _) = crate::replay(&self.start, &self.moves);
        let mut limits = Limits::default();
        let mut wtime = None;
        let mut btime = None;
        let mut winc = Duration::ZERO;
        let mut binc = Duration::ZERO;
        let mut movestogo = None;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let val = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let ms = |v: Option<i64>| Duration::from_millis(v.unwrap_or(0).max(0) as u64);
            let mut takes_value = true;
            match key {
                "wtime" => wtime = Some(ms(val)),
                "btime" => btime = Some(ms(val)),
                "winc" => winc = ms(val),
                "binc" => binc = ms(val),
                "movestogo" => movestogo = val.map(|v| v.clamp(1, 1000) as u32),
                "depth" => limits.depth = val.map(|v| v.clamp(1, 200) as u32),
                "nodes" => limits.nodes = val.map(|v| v.max(1) as u64),
                "movetime" => limits.movetime = Some(ms(val)),
                "mate" => limits.depth = val.map(|v| (v.clamp(1, 50) * 2) as u32),
                "infinite" => {
                    limits.infinite = true;
                    takes_value = false;
                }
                "ponder" => takes_value = false,
                "perft" => {
                    match val {
                        Some(d @ 0..=MAX_PERFT_DEPTH) => self.perft(&pos, d as u32),
                        _ => self.error(&format!(
                            "go perft needs a depth from 0 to {MAX_PERFT_DEPTH}"
                        )),
                    }
                    return;
                }
                "searchmoves" => {
                    // Moves up to the next keyword (usually the end of the line).
                    i += 1;
                    while let Some(tok) = args.get(i).filter(|t| !GO_KEYWORDS.contains(t)) {
                        match parse_move(&pos, tok) {
                            Some(m) => limits.searchmoves.push(m),
                            None => self.error(&format!("illegal move {tok} in searchmoves")),
                        }
                        i += 1;
                    }
                    continue;
                }
                _ => {
                    self.error(&format!("unknown go parameter {key:?}"));
                    takes_value = false;
                }
            }
            if takes_value && val.is_none() {
                self.error(&format!("go {key} needs a number"));
            }
            i += if takes_value { 2 } else { 1 };
        }
        let (time, inc) = match pos.turn() {
            Color::White => (wtime, winc),
            Color::Black => (btime, binc),
        };
        if let Some(time) = time {
            limits.clock = Some(Clock {
                time,
                inc,
                movestogo,
            });
        }

        let mut engine = self.engine.take().unwrap_or_else(|| self.fresh_engine());
        let out = self.out.clone();
        let stop = self.stop.clone();
        stop.store(false, Ordering::SeqCst);
        let start = self.start.clone();
        let moves = self.moves.clone();
        let mode = self.opts.mode();
        let level = self.opts.effective_level();
        let multipv = self.opts.multipv;
        let seed = self.opts.seed ^ self.games.wrapping_mul(0x9e37_79b9) ^ (moves.len() as u64);
        self.running = Some(std::thread::spawn(move || {
            let mut report = |i: &SearchInfo| emit(&out, &info_line(i, mode));
            let result = if level == Level::Expert {
                engine
                    .analyse_with_info(&start, &moves, &limits, multipv, &stop, &mut report)
                    .into_iter()
                    .next()
            } else {
                let r = engine.search(&start, &moves, &limits, level, seed, &stop);
                if let Some(r) = &r {
                    report(&SearchInfo {
                        depth: r.depth,
                        seldepth: r.seldepth,
                        multipv: 1,
                        score: r.score,
                        nodes: r.nodes,
                        time: r.time,
                        hashfull: 0,
                        pv: r.pv.clone(),
                    });
                }
                r
            };
            if limits.infinite {
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            match result {
                Some(r) => {
                    let mut line = format!("bestmove {}", format_move(r.best_move, mode));
                    if let Some(p) = r.pv.get(1) {
                        line.push_str(&format!(" ponder {}", format_move(*p, mode)));
                    }
                    emit(&out, &line);
                }
                None => emit(&out, "bestmove 0000"),
            }
            engine
        }));
    }

    fn perft(&mut self, pos: &Chess, depth: u32) {
        let mode = self.opts.mode();
        let mut total = 0u64;
        if depth == 0 {
            total = 1;
        } else {
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let n = shakmaty::perft(&child, depth - 1);
                total += n;
                self.say(&format!("{}: {n}", format_move(m, mode)));
            }
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
        self.say("");
    }

    fn display(&self) {
        let (pos, keys) = crate::replay(&self.start, &self.moves);
        let board = pos.board();
        let mut s = String::from(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        for l in s.lines() {
            self.say(l);
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal);
        self.say("");
        self.say(&format!("Fen: {fen}"));
        self.say(&format!("Key: {:016X}", keys.last().copied().unwrap_or(0)));
        let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
        self.say(&format!("Checkers: {}", checkers.join(" ")));
    }
}
