//! UCI conversations with the real `plyyard uci` binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plyyard"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn plyyard uci");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").expect("write command");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    out.push(l);
                    if done {
                        return out;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {prefix:?} within {timeout:?}; got {out:?}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got {out:?}"),
            }
        }
    }

    fn bestmove(&mut self, timeout: Duration) -> String {
        let lines = self.until("bestmove", timeout);
        let last = lines.last().expect("bestmove line");
        last.split_whitespace().nth(1).expect("move").to_owned()
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", Duration::from_secs(10));
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success());
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

fn legal(fen: Option<&str>, moves: &[&str], mv: &str, mode: CastlingMode) -> bool {
    let mut pos: Chess = match fen {
        Some(f) => f
            .parse::<Fen>()
            .expect("fen")
            .into_position(mode)
            .expect("pos"),
        None => Chess::default(),
    };
    for m in moves {
        let m = m
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal history");
        pos.play_unchecked(m);
    }
    mv.parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(&pos).ok())
        .is_some()
}

#[test]
fn handshake_lists_options() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(10));
    let text = lines.join("\n");
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name UCI_Chess960 type check",
        "option name UCI_LimitStrength type check",
        "option name UCI_Elo type spin",
        "option name Level type combo default Expert var Beginner var Easy var Normal var Hard var Expert",
        "option name Move Overhead type spin",
        "option name Clear Hash type button",
    ] {
        assert!(text.contains(opt), "missing {opt:?} in {text}");
    }
    assert!(lines[0].starts_with("id name Ply Yard"));
    e.ready();
    e.quit();
}

#[test]
fn searches_and_reports_info() {
    let mut e = Uci::start();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 6");
    let lines = e.until("bestmove", Duration::from_secs(60));
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 6"))
        .expect("depth 6 info");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    let mv = lines
        .last()
        .expect("bestmove")
        .split_whitespace()
        .nth(1)
        .expect("move")
        .to_owned();
    assert!(
        legal(None, &["e2e4", "e7e5", "g1f3"], &mv, CastlingMode::Standard),
        "{mv}"
    );
    e.quit();
}

#[test]
fn finds_mate_and_reports_mate_score() {
    let mut e = Uci::start();
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    e.send("go depth 4");
    let lines = e.until("bestmove", Duration::from_secs(30));
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().expect("line").split_whitespace().nth(1),
        Some("h5f7")
    );
    e.quit();
}

#[test]
fn searchmoves_limits_the_root() {
    let mut e = Uci::start();
    // Qxf7 mates at once; restricted to two other moves the engine must
    // pick between them, and a bad token is reported, not fatal.
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    e.send("setoption name MultiPV value 3");
    e.send("go depth 5 searchmoves a2a3 h2h3 e9e9");
    let lines = e.until("bestmove", Duration::from_secs(30));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("e9e9")),
        "{lines:?}"
    );
    let best = lines.last().expect("line").split_whitespace().nth(1);
    assert!(matches!(best, Some("a2a3" | "h2h3")), "{lines:?}");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| !l.contains("multipv 3") && !l.contains("pv h5f7")),
        "{lines:?}"
    );
    // Without searchmoves the next search sees every move again.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 4");
    let lines = e.until("bestmove", Duration::from_secs(30));
    assert_eq!(
        lines.last().expect("line").split_whitespace().nth(1),
        Some("h5f7")
    );
    e.quit();
}

#[test]
fn stop_ends_infinite_search_with_a_move() {
    let mut e = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    // No bestmove may arrive before stop.
    std::thread::sleep(Duration::from_millis(500));
    assert!(e.lines.try_iter().all(|l| !l.starts_with("bestmove")));
    let t = Instant::now();
    e.send("stop");
    let mv = e.bestmove(Duration::from_secs(5));
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(legal(None, &[], &mv, CastlingMode::Standard));
    e.ready();
    e.quit();
}

#[test]
fn isready_answers_during_search() {
    let mut e = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    e.until("readyok", Duration::from_secs(2));
    e.send("stop");
    e.bestmove(Duration::from_secs(5));
    e.quit();
}

#[test]
fn respects_movetime_and_clock() {
    let mut e = Uci::start();
    e.send("position startpos moves d2d4");
    let t = Instant::now();
    e.send("go movetime 300");
    e.bestmove(Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
    let t = Instant::now();
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    e.bestmove(Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_millis(1200),
        "{:?}",
        t.elapsed()
    );
    e.quit();
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Uci::start();
    e.send("setoption name UCI_Chess960 value true");
    // Shredder-FEN: king on f1 with rooks on b1 and g1; f1g1 castles short.
    let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let lines = e.until("Nodes searched", Duration::from_secs(10));
    assert!(lines.iter().any(|l| l == "f1g1: 1"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "f1b1: 1"), "{lines:?}");
    e.send(&format!("position fen {fen} moves f1g1 f8b8"));
    e.send("d");
    let lines = e.until("Fen:", Duration::from_secs(5));
    let fen_line = lines.last().expect("fen");
    assert!(
        fen_line.starts_with("Fen: 2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w"),
        "{fen_line}"
    );
    e.send("go depth 3");
    let mv = e.bestmove(Duration::from_secs(20));
    assert!(
        legal(Some(fen), &["f1g1", "f8b8"], &mv, CastlingMode::Chess960),
        "{mv}"
    );
    e.quit();
}

#[test]
fn garbage_never_kills_the_engine() {
    let mut e = Uci::start();
    for junk in [
        "",
        "   ",
        "hello world",
        "position",
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5",
        "position startpos moves e9e4",
        "go depth",
        "go depth -3",
        "go nodes abc",
        "go wtime x btime y",
        "setoption",
        "setoption name Hash value lots",
        "setoption name Nonexistent value 1",
        "setoption name Level value Grandmaster",
        "go perft",
        "\u{0}\u{1}\u{7f}",
    ] {
        e.send(junk);
    }
    e.send("stop");
    e.ready();
    // A perft depth out of range is an error, not a silent clamp.
    for bad in ["go perft -1", "go perft 65", "go perft x"] {
        e.send(bad);
        e.send("isready");
        let lines = e.until("readyok", Duration::from_secs(10));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains("perft"))
                && !lines.iter().any(|l| l.starts_with("Nodes searched")),
            "{bad}: {lines:?}"
        );
    }
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let mv = e.bestmove(Duration::from_secs(30));
    assert!(legal(None, &["e2e4"], &mv, CastlingMode::Standard), "{mv}");
    e.quit();
}

#[test]
fn levels_and_limit_strength_play_legal_moves() {
    let mut e = Uci::start();
    for setup in [
        "setoption name Level value Beginner",
        "setoption name Level value normal",
        "setoption name UCI_LimitStrength value true",
    ] {
        e.send(setup);
        e.send("setoption name UCI_Elo value 1400");
        e.send("position startpos moves e2e4 c7c5");
        e.send("go wtime 5000 btime 5000");
        let mv = e.bestmove(Duration::from_secs(20));
        assert!(
            legal(None, &["e2e4", "c7c5"], &mv, CastlingMode::Standard),
            "{mv}"
        );
    }
    e.quit();
}

#[test]
fn checkmated_position_answers_null_move() {
    let mut e = Uci::start();
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    e.send("go depth 3");
    assert_eq!(e.bestmove(Duration::from_secs(10)), "0000");
    e.quit();
}

/// `go perft` against the shared reference counts (cheap depths only).
#[test]
fn go_perft_matches_reference_counts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/perft");
    let mut e = Uci::start();
    let mut checked = 0;
    for (file, chess960) in [
        ("standard-cpw.perft", false),
        ("shakmaty-tests-tricky.perft", false),
        ("shakmaty-tests-chess960.perft", true),
    ] {
        let text =
            std::fs::read_to_string(dir.join(file)).expect("perft data beside the repository");
        e.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        let mut fen = String::new();
        let mut per_file = 0;
        for line in text.lines() {
            if let Some(f) = line.strip_prefix("epd ") {
                fen = f.to_owned();
                per_file += 1;
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let mut it = rest.split_whitespace();
                let depth: u32 = it.next().and_then(|d| d.parse().ok()).expect("depth");
                let nodes: u64 = it.next().and_then(|n| n.parse().ok()).expect("nodes");
                if nodes > 200_000 || per_file > 12 {
                    continue;
                }
                e.send(&format!("position fen {fen}"));
                e.send(&format!("go perft {depth}"));
                let lines = e.until("Nodes searched", Duration::from_secs(60));
                let got: u64 = lines
                    .last()
                    .and_then(|l| l.strip_prefix("Nodes searched: "))
                    .and_then(|n| n.parse().ok())
                    .expect("count");
                assert_eq!(got, nodes, "{file}: {fen} depth {depth}");
                let sum: u64 = lines
                    .iter()
                    .filter_map(|l| l.split_once(": "))
                    .filter(|(k, _)| k.len() >= 4 && k.len() <= 5 && !k.contains(' '))
                    .filter_map(|(_, v)| v.parse::<u64>().ok())
                    .sum();
                if depth > 0 {
                    assert_eq!(sum, nodes, "divide lines sum for {fen}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "only {checked} perft counts checked");
    e.quit();
}

#[test]
fn bench_is_deterministic_and_formatted() {
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_plyyard"))
            .args(["bench", "6"])
            .stderr(Stdio::null())
            .output()
            .expect("run bench");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf8");
        let line = text
            .lines()
            .find(|l| l.starts_with("Bench: "))
            .expect("Bench line")
            .to_owned();
        let parts: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(parts.len(), 5, "{line}");
        assert_eq!((parts[2], parts[4]), ("nodes", "nps"));
        parts[1].parse::<u64>().expect("nodes")
    };
    assert_eq!(run(), run());
}
