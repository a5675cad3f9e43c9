//! Copies the Learn pages' content (`content/learn`: `pages.json` and one
//! Markdown file per page and language) to `$OUT_DIR/learn`, which the
//! crate embeds with `include_dir!`.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("learn");
    println!("cargo:rerun-if-changed=build.rs");
    // Watched even while missing: cargo then reruns this script until it appears.
    let learn = manifest.join("../../content/learn");
    println!("cargo:rerun-if-changed={}", learn.display());
    copy_tree(&learn, &out);
}

/// Copies the folder `from` (when it exists) to `to`, replacing what was
/// there; `to` always exists afterwards.
fn copy_tree(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).expect("create a folder in OUT_DIR");
    let Ok(entries) = std::fs::read_dir(from) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy a content file");
        }
    }
}
