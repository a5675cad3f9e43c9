#!/usr/bin/env bash
# Two builds of the server, back to back on the same machine: `loadgen
# tables` (5,000 games, 60 s) and `loadgen bots` (1,000 games, 30 s), each
# against a fresh server of each build on SQLite, alternating which build
# goes first from round to round (ABBA) so that both see the same machine. Prints loadgen's JSON lines, each
# prefixed with its build's label.
#
#   tools/bench_pair.sh BEFORE_DIR AFTER_DIR [ROUNDS]
#
# Each DIR holds `plyyard` and `loadgen` from `cargo build --release -p
# plyyard -p plyyard-testkit` of that build (copy them out of
# target/release; the builds of a worktree: CARGO_TARGET_DIR).
set -euo pipefail
before=$1
after=$2
rounds=${3:-1}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d "${TMPDIR:-/tmp}/plyyard-bench.XXXXXX")
spid=""
stop() {
  if [ -n "$spid" ]; then kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true; fi
  spid=""
}
trap 'stop; rm -rf "$work"' EXIT

# serve DIR: starts DIR's server on a fresh SQLite database; sets $spid, $port.
serve() {
  local d
  d=$(mktemp -d "$work/run.XXXXXX")
  "$1/plyyard" serve --addr 127.0.0.1:0 --db "sqlite://$d/t.db" --rate-limits off 2>"$d/server.log" &
  spid=$!
  for _ in $(seq 1 100); do
    port=$(grep -o 'listening on http://[0-9.:]*' "$d/server.log" 2>/dev/null | sed 's/.*://' || true)
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "the server did not start" >&2
  cat "$d/server.log" >&2
  exit 1
}

# run LABEL DIR MODE ARGS...: one loadgen run against a fresh server.
run() {
  local label=$1 dir=$2
  shift 2
  serve "$dir"
  echo "# $label: $* (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  local extra=()
  # Only the tables mode reads the server's CPU.
  if [ "$1" = tables ]; then extra=(--server-pid "$spid"); fi
  "$dir/loadgen" --addr "127.0.0.1:$port" "$@" "${extra[@]}" 2>>"$work/loadgen.log" |
    grep '^{' | sed "s/^/$label /"
  stop
  sleep 2
}

# Odd rounds run the first build first, even rounds the second (ABBA), so
# that neither always runs on a machine warmed by the other.
for r in $(seq 1 "$rounds"); do
  order=("before $before" "after $after")
  if [ $((r % 2)) = 0 ]; then order=("after $after" "before $before"); fi
  for pair in "${order[@]}"; do
    set -- $pair
    run "$1" "$2" tables --games 5000 --seconds 60
  done
  for pair in "${order[@]}"; do
    set -- $pair
    run "$1" "$2" bots --games 1000 --seconds 30 --accounts 250
  done
done
