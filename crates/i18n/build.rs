//! Copies the translation tables (`web/i18n/*.json`, shared with the web
//! app) to `$OUT_DIR/i18n`, which the crate embeds with `include_dir!`.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let tables = manifest.join("../../web/i18n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("i18n");
    println!("cargo:rerun-if-changed=build.rs");
    // Watched even while missing: cargo then reruns this script until it appears.
    println!("cargo:rerun-if-changed={}", tables.display());
    copy_translations(&tables, &out);
}

/// Copies the `*.json` files of `from` to `to`, replacing what was there;
/// `to` always exists afterwards.
fn copy_translations(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).expect("create OUT_DIR/i18n");
    let Ok(entries) = std::fs::read_dir(from) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json") {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy a translation table");
        }
    }
}
