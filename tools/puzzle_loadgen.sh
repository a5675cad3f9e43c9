#!/bin/bash
# One `loadgen puzzles` run (docs/benchmarks.md, "The next puzzle and a
# solve"): a fresh copy of an imported database, a release server on it,
# 200 solvers for 30 s; prints loadgen's JSON line.
#
#   tools/puzzle_loadgen.sh BIN LABEL sqlite|pg PORT [SOURCE]
#
# SOURCE: the SQLite file to copy (default /tmp/bench/m3.db) or the
# PostgreSQL database to copy as a template (default m3, on the server of
# $PG_ADMIN, default postgres://postgres@127.0.0.1:55432/postgres).
# LABEL names the copy: letters, digits and underscores.
set -eu
BIN=$1; LABEL=$2; KIND=$3; PORT=$4
PG_ADMIN=${PG_ADMIN:-postgres://postgres@127.0.0.1:55432/postgres}
OUT=${OUT:-/tmp/bench}
mkdir -p "$OUT"
if [ "$KIND" = sqlite ]; then
  cp "${5:-/tmp/bench/m3.db}" "$OUT/run_$LABEL.db"
  rm -f "$OUT/run_$LABEL.db-wal" "$OUT/run_$LABEL.db-shm"
  DB="sqlite://$OUT/run_$LABEL.db"
else
  psql "$PG_ADMIN" -qc "DROP DATABASE IF EXISTS run_$LABEL" -c "CREATE DATABASE run_$LABEL TEMPLATE ${5:-m3}"
  DB="${PG_ADMIN%/*}/run_$LABEL"
fi
"$BIN" serve --addr "127.0.0.1:$PORT" --db "$DB" --rate-limits off --own-puzzles off \
  > "$OUT/server_$LABEL.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 1; done
"$(dirname "$0")/../target/release/loadgen" --addr "127.0.0.1:$PORT" puzzles \
  --solvers 200 --seconds 30 --think-ms 2000 | tail -n 1
