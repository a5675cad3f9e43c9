//! Drives the real `plyyard` binary: `replay`, `perft`, `pgn check|export`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn plyyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(args)
        .output()
        .expect("run plyyard")
}

fn plyyard_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run plyyard");
    // A command that refuses its arguments exits before it reads: its
    // input then meets a closed pipe, which is not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one JSON line expected: {text}");
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn replay(args: &[&str]) -> Value {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    let out = plyyard(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn replay_from_the_start() {
    let v = replay(&[]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = [
        "fen",
        "turn",
        "san",
        "legal_moves",
        "status",
        "result",
        "reason",
        "claimable",
    ];
    expected.sort();
    let mut got = keys.clone();
    got.sort();
    assert_eq!(got, expected);
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(v["turn"], "white");
    assert_eq!(strings(&v["legal_moves"]).len(), 20);
    let mut sorted = strings(&v["legal_moves"]);
    sorted.sort();
    assert_eq!(sorted, strings(&v["legal_moves"]));
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["result"], "*");
    assert!(v["reason"].is_null());
    assert_eq!(v["claimable"], serde_json::json!([]));
}

#[test]
fn replay_keeps_the_documented_key_order() {
    let out = plyyard(&["replay", "e4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let order = [
        "\"fen\"",
        "\"turn\"",
        "\"san\"",
        "\"legal_moves\"",
        "\"status\"",
        "\"result\"",
        "\"reason\"",
        "\"claimable\"",
    ];
    let positions: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[test]
fn replay_checkmate_with_mixed_notation() {
    let v = replay(&["e2e4", "e5", "Bc4", "b8c6", "Qh5", "Nf6", "h5f7"]);
    assert_eq!(
        strings(&v["san"]),
        ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    );
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "1-0");
    assert_eq!(v["reason"], "checkmate");
    assert_eq!(v["turn"], "black");
    assert_eq!(v["legal_moves"], serde_json::json!([]));
}

#[test]
fn replay_localised_san() {
    let v = replay(&["e4", "e5", "Cf3", "Кc6", "♗b5"]);
    assert_eq!(strings(&v["san"]), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
}

#[test]
fn replay_lang_selects_one_language() {
    // English first: no rook reaches e2 and no knight c4, so these are illegal…
    for bad in ["Re2", "Nc4"] {
        let out = plyyard(&["replay", "e4", "e5", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_eq!(json(&out)["kind"], "illegal", "{bad}");
    }
    // …unless the language is given: the French king, the Romanian bishop.
    let v = replay(&["--lang", "fr", "e4", "e5", "Re2", "Cc6", "g1f3"]);
    assert_eq!(strings(&v["san"]), ["e4", "e5", "Ke2", "Nc6", "Nf3"]);
    let v = replay(&["--lang", "ro", "e4", "e5", "Nc4"]);
    assert_eq!(strings(&v["san"]), ["e4", "e5", "Bc4"]);
}

#[test]
fn replay_refuses_bad_moves_with_status_2() {
    for (args, ply, mv) in [
        (vec!["e4", "e4"], 2, "e4"),
        (vec!["e2e4", "0000"], 2, "0000"),
        (vec!["Zz9"], 1, "Zz9"),
        (vec!["e4", "e5", "Ke3"], 3, "Ke3"),
        (vec!["f3", "e5", "g4", "Qh4#", "a3"], 5, "a3"),
        (vec!["e2e5"], 1, "e2e5"),
    ] {
        let mut all = vec!["replay"];
        all.extend(args.iter().copied());
        let out = plyyard(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let v = json(&out);
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
        assert_eq!(v["ply"], ply, "{args:?}");
        assert_eq!(v["move"], mv, "{args:?}");
    }
}

#[test]
fn replay_ambiguous_san() {
    let out = plyyard(&["replay", "--fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(json(&out)["error"].as_str().unwrap().contains("ambiguous"));
}

#[test]
fn replay_rejects_invalid_positions() {
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    ] {
        let out = plyyard(&["replay", "--fen", fen]);
        assert!(!out.status.success(), "{fen}");
        assert!(
            !String::from_utf8_lossy(&out.stderr).trim().is_empty(),
            "{fen}: a message is expected"
        );
    }
    let out = plyyard(&["replay", "--chess960", "960"]);
    assert!(!out.status.success());
}

#[test]
fn replay_chess960_castling_is_king_takes_rook() {
    let v = replay(&["--chess960", "518", "e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5"]);
    assert!(strings(&v["legal_moves"]).contains(&"e1h1".to_owned()));
    assert!(!strings(&v["legal_moves"]).contains(&"e1g1".to_owned()));
    let v = replay(&[
        "--chess960",
        "518",
        "e4",
        "e5",
        "Nf3",
        "Nf6",
        "Bc4",
        "Bc5",
        "e1h1",
    ]);
    assert_eq!(strings(&v["san"]).last().unwrap(), "O-O");
    // Standard games write e1g1 but accept both.
    let v = replay(&["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5"]);
    assert!(strings(&v["legal_moves"]).contains(&"e1g1".to_owned()));
    let v = replay(&["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "e1h1"]);
    assert_eq!(strings(&v["san"]).last().unwrap(), "O-O");
}

#[test]
fn replay_shredder_and_x_fen() {
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    ] {
        let v = replay(&["--fen", fen]);
        assert_eq!(strings(&v["legal_moves"]).len(), 21, "{fen}");
    }
    let v = replay(&["--fen", "1r4k1/8/8/8/8/8/8/1R4KR w HB - 0 1", "O-O"]);
    assert_eq!(v["fen"], "1r4k1/8/8/8/8/8/8/1R3RK1 b - - 1 1");
}

#[test]
fn replay_rule_sets() {
    let dance = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let mut args = vec!["--rules", "fide"];
    args.extend(dance);
    let v = replay(&args);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(strings(&v["claimable"]), ["threefold_repetition"]);
    let v = replay(&dance);
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["reason"], "threefold_repetition");
    let v = replay(&["--fen", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Rb1"]);
    assert_eq!(v["reason"], "fifty_moves");
    let v = replay(&[
        "--rules",
        "fide",
        "--fen",
        "7k/8/6K1/8/8/8/8/R7 w - - 99 80",
        "Rb1",
    ]);
    assert_eq!(strings(&v["claimable"]), ["fifty_moves"]);
    let v = replay(&[
        "--rules",
        "fide",
        "--fen",
        "7k/8/6K1/8/8/8/8/R7 w - - 149 80",
        "Rb1",
    ]);
    assert_eq!(v["reason"], "seventyfive_moves");
    let v = replay(&["--fen", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "Ra8#"]);
    assert_eq!(v["reason"], "checkmate");
    let v = replay(&["--fen", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kxd2"]);
    assert_eq!(v["reason"], "insufficient_material");
    let v = replay(&["--fen", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "Qf7"]);
    assert_eq!(v["reason"], "stalemate");
}

#[test]
fn perft_counts() {
    let out = plyyard(&["perft", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "8902");
    let out = plyyard(&[
        "perft",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "--depth",
        "2",
        "--divide",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last().unwrap().trim(), "2039");
    let rows: Vec<&&str> = lines.iter().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 48);
    let sum: u64 = rows
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2039);
    assert!(rows.iter().any(|l| l.starts_with("e1g1: ")));
    // A Chess960 FEN: castling appears as king-takes-rook.
    let out = plyyard(&[
        "perft",
        "--fen",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "--depth",
        "3",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "12189");
    // Start position 0 (BBQNNRKR), count from the published 960 start suite.
    let out = plyyard(&["perft", "--chess960", "0", "--depth", "3"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "9006");
}

const GOOD: &str =
    "[Event \"a\"]\n[White \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 {[%clk 0:02:00]} 1/2-1/2\n\n";
const BAD: &str = "[Event \"b\"]\n\n1. e4 e5\n2. Ke3 Nc6 *\n\n";

#[test]
fn pgn_check_reports_each_bad_game_and_goes_on() {
    let dir = std::env::temp_dir().join(format!("plyyard-cli-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mixed.pgn");
    std::fs::write(&path, format!("{GOOD}{BAD}{GOOD}{BAD}")).unwrap();
    let out = plyyard(&["pgn", "check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("game 2, line 9, column 4"), "{text}");
    assert!(text.contains("Ke3"), "{text}");
    assert!(text.contains("game 4, line 19"), "{text}");
    assert!(text.contains("4 games: 2 valid, 2 with errors"), "{text}");

    let good = dir.join("good.pgn");
    std::fs::write(&good, GOOD.repeat(3)).unwrap();
    let out = plyyard(&["pgn", "check", good.to_str().unwrap()]);
    assert!(out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();

    let out = plyyard(&["pgn", "check", "/nonexistent/file.pgn"]);
    assert!(!out.status.success());
}

#[test]
fn pgn_check_handles_junk_without_panicking() {
    for input in [
        &b"\xff\xfe\xfd garbage \x00\x01"[..],
        b"[Event \"unterminated\n1. e4 *",
        b"1. e4 { open comment",
        b"[White \"\xff\"]\n\n1. e4 *\n",
        b"1. e4 e5 2. Qxf7 *\n",
    ] {
        let out = plyyard_stdin(&["pgn", "check", "-"], input);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{:?}",
            String::from_utf8_lossy(input)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("game 1"));
    }
    let junk = vec![b'x'; 1 << 20];
    let out = plyyard_stdin(&["pgn", "check", "-"], &junk);
    assert!(out.status.code().is_some());
}

#[test]
fn pgn_export_normalises_and_localises() {
    let messy = "[White \"x\"]\n[Event \"a\"]\n\n1.e4   e5 2.Nf3 (2. f4) Nc6! $1 {note} 1/2-1/2\n";
    let out = plyyard_stdin(&["pgn", "export", "-"], messy.as_bytes());
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.starts_with("[Event \"a\"]\n[Site \"?\"]"), "{text}");
    assert!(text.contains("\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n"), "{text}");
    let out = plyyard_stdin(&["pgn", "export", "--lang", "fr", "-"], messy.as_bytes());
    assert!(String::from_utf8_lossy(&out.stdout).contains("2. Cf3 Cc6"));
    let out = plyyard_stdin(&["pgn", "export", "--lang", "ru", "-"], messy.as_bytes());
    assert!(String::from_utf8_lossy(&out.stdout).contains("2. Кf3 Кc6"));
    let out = plyyard_stdin(&["pgn", "export", "-"], BAD.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Ke3"));
}

#[test]
fn pgn_export_writes_whole_second_clocks_unless_asked_for_milliseconds() {
    let timed = "[Event \"t\"]\n\n1. e4 {[%clk 0:03:00.506]} e5 {[%clk 0:02:59.5]} \
        2. Nf3 {[%clk 0:02:58]} Nc6 {[%clk 0:02:57.499]} *\n";
    let whole = "1. e4 {[%clk 0:03:01]} 1... e5 {[%clk 0:03:00]} 2. Nf3 {[%clk 0:02:58]}";
    let exact = "1. e4 {[%clk 0:03:00.506]} 1... e5 {[%clk 0:02:59.5]} 2. Nf3 {[%clk 0:02:58]}";
    for (args, want, last) in [
        (
            &["pgn", "export", "-"][..],
            whole,
            "2... Nc6 {[%clk 0:02:57]} *",
        ),
        (
            &["pgn", "export", "--clock-precision", "s", "-"][..],
            whole,
            "2... Nc6 {[%clk 0:02:57]} *",
        ),
        (
            &["pgn", "export", "--clock-precision", "ms", "-"][..],
            exact,
            "2... Nc6 {[%clk 0:02:57.499]} *",
        ),
    ] {
        let out = plyyard_stdin(args, timed.as_bytes());
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.contains(want), "{args:?}: {text}");
        assert!(text.contains(last), "{args:?}: {text}");
        // Our own export reads back, and is written again unchanged.
        let again = plyyard_stdin(args, text.as_bytes());
        assert!(again.status.success(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&again.stdout), text, "{args:?}");
    }
    let out = plyyard_stdin(
        &["pgn", "export", "--clock-precision", "cs", "-"],
        timed.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("clock precision"));
}

#[test]
fn help_mentions_the_subcommands() {
    let out = plyyard(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for cmd in ["replay", "perft", "pgn"] {
        assert!(text.contains(cmd), "{text}");
    }
    let out = plyyard(&["replay", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--chess960"));
}
