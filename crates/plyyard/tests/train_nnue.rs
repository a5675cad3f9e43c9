//! The network pipeline through the real binary: `datagen` writes positions,
//! `train-nnue` fits a network to them, and `plyyard uci` plays with it
//! through the `EvalFile` option (and refuses a broken file).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

fn plyyard(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run plyyard")
}

/// Sends `commands` to `plyyard uci` and returns everything it printed.
fn uci(commands: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn plyyard uci");
    let mut stdin = child.stdin.take().expect("stdin");
    for c in commands {
        writeln!(stdin, "{c}").expect("write");
    }
    // `isready` waits for the search; `quit` then ends the engine.
    writeln!(stdin, "isready\nquit").expect("write");
    drop(stdin);
    let out = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
        .collect();
    child.wait().expect("engine exits");
    out
}

/// Runs `train-nnue` in `dir` on `data`, validated on `valid.txt`, with
/// `extra` settings, writing `out`.
fn train_nnue(dir: &Path, data: &str, extra: &[&str], out: &str) -> std::process::Output {
    let mut args = vec!["train-nnue", "--data", data, "--valid", "valid.txt"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out]);
    plyyard(dir, &args)
}

/// `train-nnue` failed, said `why` and wrote nothing.
fn assert_refused(dir: &Path, out: &std::process::Output, why: &str, file: &str) {
    assert!(!out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(why),
        "{out:?}"
    );
    assert!(!dir.join(file).exists());
}

#[test]
fn datagen_then_train_then_play_with_the_network() {
    let dir = std::env::temp_dir().join(format!("plyyard-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (seed, file) in [("1", "train.txt"), ("2", "valid.txt")] {
        let out = plyyard(
            &dir,
            &[
                "datagen", "--games", "3", "--nodes", "300", "--seed", seed, "--out", file,
            ],
        );
        assert!(out.status.success(), "{out:?}");
    }
    // A whole evaluation, and a correction on the classical one, with
    // and without king buckets.
    for (base, kb) in [("none", "1"), ("classical", "1"), ("classical", "4")] {
        let file = format!("net-{base}-{kb}.nnue");
        let out = train_nnue(
            &dir,
            "train.txt",
            &[
                "--hidden",
                "16",
                "--epochs",
                "3",
                "--batch",
                "64",
                "--base",
                base,
                "--king-buckets",
                kb,
            ],
            &file,
        );
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{log}");
        assert!(
            log.contains("classical evaluation on the validation set"),
            "{log}"
        );
        assert!(log.contains("best valid"), "{log}");

        let lines = uci(&[
            &format!(
                "setoption name EvalFile value {}",
                dir.join(&file).display()
            ),
            "position startpos moves e2e4",
            "go depth 4",
        ]);
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "the network was refused: {lines:?}"
        );
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("a best move");
        assert_ne!(best.split_whitespace().next(), Some("0000"), "{lines:?}");
    }
    let net = dir.join("net-none-1.nnue");

    // A cut network file is refused with a reason, and the engine plays on.
    let bytes = std::fs::read(&net).expect("network file");
    let cut = dir.join("cut.nnue");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write cut file");
    let lines = uci(&[
        &format!("setoption name EvalFile value {}", cut.display()),
        "go depth 2",
    ]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("bytes")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );

    // Fine-tuning starts from a network of the same shape and base: the
    // built-in one, or a file; it reports the starting error as epoch 0.
    let small = ["--epochs", "1", "--batch", "64", "--base", "classical"];
    let out = train_nnue(
        &dir,
        "train.txt",
        &[&small[..], &["--init", "builtin"]].concat(),
        "tuned.nnue",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(log.contains("epoch 0 valid"), "{log}");
    assert!(dir.join("tuned.nnue").exists());
    let from_file = format!("{}", dir.join("net-classical-1.nnue").display());
    let out = train_nnue(
        &dir,
        "train.txt",
        &[&small[..], &["--hidden", "16", "--init", &from_file]].concat(),
        "tuned16.nnue",
    );
    assert!(out.status.success(), "{out:?}");
    let out = train_nnue(
        &dir,
        "train.txt",
        &[&small[..], &["--hidden", "32", "--init", "builtin"]].concat(),
        "x.nnue",
    );
    assert_refused(&dir, &out, "64 hidden units", "x.nnue");
    let out = train_nnue(&dir, "train.txt", &["--init", "builtin"], "x.nnue");
    assert_refused(&dir, &out, "base", "x.nnue");
    let out = train_nnue(&dir, "train.txt", &["--init", "missing.nnue"], "x.nnue");
    assert_refused(&dir, &out, "missing.nnue", "x.nnue");

    // Bad settings are refused before any work.
    let out = train_nnue(&dir, "train.txt", &["--hidden", "0"], "x.nnue");
    assert_refused(&dir, &out, "--hidden", "x.nnue");
    let out = train_nnue(&dir, "train.txt", &["--king-buckets", "2"], "x.nnue");
    assert_refused(&dir, &out, "--king-buckets", "x.nnue");

    // So is a training file without a single position, by name.
    std::fs::write(dir.join("empty.txt"), "not a position | 1.0 | 0\n").expect("write");
    let out = train_nnue(&dir, "empty.txt", &[], "x.nnue");
    assert_refused(&dir, &out, "no usable positions in empty.txt", "x.nnue");
    std::fs::remove_dir_all(&dir).ok();
}
