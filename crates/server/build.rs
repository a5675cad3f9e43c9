//! Builds the web app (`web/`, an npm project bundled by esbuild) into
//! `$OUT_DIR/web`, which the crate embeds with `include_dir!`.
//!
//! `npm ci` runs when `web/node_modules` is missing or older than
//! `web/package-lock.json`; `npm run build` runs whenever the web sources
//! change. Setting `PLYYARD_SKIP_WEB=1` embeds a one-page placeholder instead
//! (for working on the server without Node); a normal build fails with a
//! clear message if Node or npm is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const WATCHED: &[&str] = &[
    "src",
    "index.html",
    "package.json",
    "package-lock.json",
    "build.mjs",
    "i18n",
];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("web");

    println!("cargo:rerun-if-env-changed=PLYYARD_SKIP_WEB");
    println!("cargo:rerun-if-changed=build.rs");
    for name in WATCHED {
        let p = web.join(name);
        // A missing path would make cargo rerun this script on every build.
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }

    if std::env::var_os("PLYYARD_SKIP_WEB").is_some_and(|v| v != "0") {
        println!(
            "cargo:warning=PLYYARD_SKIP_WEB is set: embedding a placeholder page instead of the web app"
        );
        write_placeholder(&out);
        return;
    }
    if !web.join("package.json").exists() {
        fail(&format!(
            "the web app is missing: {} has no package.json",
            web.display()
        ));
    }
    for tool in ["node", "npm"] {
        if Command::new(tool).arg("--version").output().is_err() {
            fail(&format!(
                "`{tool}` was not found on PATH. Building Ply Yard needs Node.js 20+ and npm \
                 to bundle the web app (Debian: `apt-get install nodejs npm`). \
                 Set PLYYARD_SKIP_WEB=1 to build the server with a placeholder page instead."
            ));
        }
    }

    let modules = web.join("node_modules");
    let lock = web.join("package-lock.json");
    // npm rewrites node_modules/.package-lock.json on every install, even
    // when no top-level folder changes.
    let installed = mtime(&modules).max(mtime(&modules.join(".package-lock.json")));
    if !modules.exists() || installed < mtime(&lock) {
        run(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&web),
            "npm ci",
        );
    }
    run(
        Command::new("npm")
            .args(["run", "build", "--silent"])
            .env("PLYYARD_WEB_OUT", &out)
            .current_dir(&web),
        "npm run build",
    );
    if !out.join("index.html").exists() {
        fail(&format!(
            "`npm run build` did not produce {}",
            out.join("index.html").display()
        ));
    }
}

fn mtime(p: &Path) -> SystemTime {
    p.metadata()
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn run(cmd: &mut Command, what: &str) {
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&format!(
            "`{what}` in web/ failed ({s}); see its output above"
        )),
        Err(e) => fail(&format!("cannot run `{what}`: {e}")),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    println!("cargo:warning={message}");
    std::process::exit(1);
}

fn write_placeholder(out: &Path) {
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).expect("create OUT_DIR/web");
    std::fs::write(
        out.join("index.html"),
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ply Yard</title></head>\n\
         <body><h1>Ply Yard</h1><p>This server was built without its web app \
         (PLYYARD_SKIP_WEB). The API is at /api.</p></body></html>\n",
    )
    .expect("write placeholder");
}
