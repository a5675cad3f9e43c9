//! A binary built without the `train` feature: the training subcommands
//! are left out of its help and answer with how to get them.
#![cfg(not(feature = "train"))]

use std::process::Command;

fn plyyard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plyyard"))
        .args(args)
        .output()
        .expect("run plyyard")
}

#[test]
fn training_subcommands_say_they_are_not_built_in() {
    for (name, args) in [
        (
            "datagen",
            &["datagen", "--games", "1", "--out", "x.txt"][..],
        ),
        ("tune", &["tune", "--data", "x.txt", "--out", "y.rs"][..]),
        (
            "train-nnue",
            &["train-nnue", "--data", "a", "--valid", "b"][..],
        ),
    ] {
        let out = plyyard(args);
        assert!(!out.status.success(), "{name} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "plyyard {name}: this binary was built without training support"
            )) && err.contains("--features train"),
            "{name}: {err}"
        );
    }
    let help = String::from_utf8_lossy(&plyyard(&["--help"]).stdout).into_owned();
    assert!(help.contains("bench"), "{help}");
    for name in ["datagen", "tune", "train-nnue"] {
        assert!(!help.contains(name), "{name} in the help: {help}");
    }
}
