//! Drives the real `plyyard review`: annotated PGN out (evals, NAGs, the
//! best line, the explanation in the chosen language) that the importer
//! reads back as the same game, bad games reported as `pgn export` does,
//! bad flags refused.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use plyyard_game::RuleSet;
use plyyard_game::pgn::PgnImporter;

const GAMES: &str = "[Event \"hung queen\"]\n[White \"Ana\"]\n\n1. e4 e5 2. Nf3 Qg5 3. Nxg5 *\n\n\
    [Event \"missed mate\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 *\n";

fn review(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .arg("review")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run plyyard");
    // A refused command exits without reading its input.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The movetext with line breaks as spaces.
fn flat(pgn: &str) -> String {
    pgn.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn games_come_back_annotated() {
    let pgn = stdout(&review(&["-"], GAMES));
    let text = flat(&pgn);
    assert!(pgn.starts_with("[Event \"hung queen\"]\n"), "{pgn}");
    assert!(pgn.contains("[White \"Ana\"]"), "{pgn}");
    assert!(pgn.contains("[Annotator \"Ply Yard\"]"), "{pgn}");
    assert!(text.contains("1. e4 {[%eval "), "{text}");
    assert!(
        text.contains(
            "2... Qg5 $4 {[%eval 1" // a White advantage of 10 pawns or more
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "{Blunder. This move leaves the queen on g5 undefended: Nxg5 wins it. The best move was "
        ),
        "{text}"
    );
    assert!(text.contains("} (2... "), "{text}");
    assert!(text.contains("3... Nf6 $4 {[%eval #1]}"), "{text}");
    assert!(
        text.contains("After this, the opponent threatens mate with Qxf7#."),
        "{text}"
    );
    assert!(
        text.contains("4. Qf3 $4 {[%eval ")
            && text.contains("{Blunder. You missed Qxf7#: it was checkmate.} (4. Qxf7#) *"),
        "{text}"
    );
    for line in pgn.lines() {
        assert!(line.chars().count() <= 79, "{line}");
    }
    // The importer reads the annotated games back as the same games.
    let back: Vec<_> = PgnImporter::with_rules(pgn.as_bytes(), RuleSet::Fide)
        .map(|g| g.expect("valid").game.history().to_vec())
        .collect();
    let orig: Vec<_> = PgnImporter::with_rules(GAMES.as_bytes(), RuleSet::Fide)
        .map(|g| g.unwrap().game.history().to_vec())
        .collect();
    assert_eq!(back, orig);
}

#[test]
fn clocks_are_kept_beside_the_evals() {
    let input = "[Event \"clocks\"]\n[TimeControl \"180+2\"]\n\n\
        1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:59.5]} 2. Qh5 {[%clk 0:02:58]} \
        Ke7 {[%clk 0:02:50.4]} 3. Qxe5# {[%clk 0:02:57]} 1-0\n";
    let clocks = |text: &str| -> Vec<Option<u64>> {
        PgnImporter::with_rules(text.as_bytes(), RuleSet::Fide)
            .next()
            .unwrap()
            .unwrap()
            .game
            .history()
            .iter()
            .map(|m| m.clock_ms)
            .collect()
    };
    // Whole seconds by default, rounded to the nearest as lichess does.
    let pgn = stdout(&review(&["--nodes", "20000", "-"], input));
    assert!(pgn.contains("e5 {[%eval"), "{pgn}");
    assert!(!pgn.contains("[%clk 0:02:59.5]"), "{pgn}");
    assert!(
        !pgn.contains("[%eval\n") && !pgn.contains("[%clk\n"),
        "{pgn}"
    );
    assert!(
        flat(&pgn).ends_with("3. Qxe5# {[%clk 0:02:57]} 1-0"),
        "{pgn}"
    );
    assert_eq!(
        clocks(&pgn),
        [180_000, 180_000, 178_000, 170_000, 177_000].map(Some)
    );
    // The milliseconds on request.
    let pgn = stdout(&review(
        &["--clock-precision", "ms", "--nodes", "20000", "-"],
        input,
    ));
    assert!(pgn.contains("[%clk 0:02:59.5]"), "{pgn}");
    assert_eq!(clocks(&pgn), clocks(input));
    assert_eq!(clocks(&pgn)[1], Some(179_500));
    let bad = review(&["--clock-precision", "cs", "-"], input);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
}

#[test]
fn explanations_in_another_language_with_its_letters() {
    let pgn = flat(&stdout(&review(
        &["--lang", "fr", "--nodes", "20000", "-"],
        GAMES,
    )));
    assert!(
        pgn.contains("{Gaffe. Ce coup laisse la dame en g5 sans défense : Cxg5 s'en empare."),
        "{pgn}"
    );
    assert!(
        pgn.contains("Vous avez manqué Dxf7# : c'était mat."),
        "{pgn}"
    );
    // The moves themselves stay in standard (English) SAN.
    assert!(pgn.contains("4. Qf3 $4"), "{pgn}");
}

#[test]
fn a_movetime_budget_works_too() {
    let pgn = flat(&stdout(&review(
        &["--movetime", "20", "--threads", "1", "-"],
        "1. e4 e5 2. Nf3 Qg5 3. Nxg5 *\n",
    )));
    assert!(pgn.contains("2... Qg5 $4"), "{pgn}");
}

#[test]
fn bad_games_are_reported_and_the_others_reviewed() {
    let input = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"good\"]\n\n1. d4 *\n";
    let out = review(&["--nodes", "5000", "-"], input);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "-: game 1, line 3, column 13: illegal move \"Ke3\" (ply 3, move 2. Ke3)"
    );
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert!(
        pgn.contains("[Event \"good\"]") && !pgn.contains("[Event \"bad\"]"),
        "{pgn}"
    );
}

#[test]
fn bad_flags_and_files_are_refused() {
    let out = review(&["--lang", "de", "-"], GAMES);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--lang"));
    let out = review(&["--nodes", "10", "--movetime", "10", "-"], GAMES);
    assert!(!out.status.success());
    let out = review(&["/no/such/file.pgn"], "");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("plyyard review: /no/such/file.pgn: "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
