#!/bin/sh
# Builds the fuzz targets the way `cargo fuzz build` does (libFuzzer with
# SanitizerCoverage and AddressSanitizer), for machines without cargo-fuzz.
# Needs a nightly toolchain. Binaries: target/x86_64-unknown-linux-gnu/release/{fen,moves,pgn}
set -eu
cd "$(dirname "$0")"
RUSTFLAGS="-Cpasses=sancov-module \
 -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
 -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares \
 --cfg fuzzing -Zsanitizer=address -Cdebug-assertions -Coverflow-checks" \
cargo +nightly build --release --target x86_64-unknown-linux-gnu --bins "$@"
