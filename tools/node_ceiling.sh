#!/usr/bin/env bash
# One node's ceiling: a fresh release server on a fresh SQLite database,
# `loadgen tables` at a given number of games and think time, and the
# machine's load average; with FLAME=OUT.svg, a flame graph of the server
# sampled during the window (tools/flamegraph.sh).
#
#   tools/node_ceiling.sh BINDIR GAMES THINK_MS SECONDS [LABEL]
#
# BINDIR holds release builds of `plyyard` and `loadgen`
# (cargo build --release -p plyyard -p plyyard-testkit). 5,000 games at a
# mean think time of 2,400 ms offer about 2,000 moves/s, at 1,200 ms about
# 4,000, at 950 ms about 5,000 (a closed loop: a slow server gets fewer).
# Prints loadgen's summary, the load averages before and after, and the
# last line of the report (JSON). Logs go to /tmp/ceiling-LABEL.*.
set -euo pipefail
B=$1; GAMES=$2; THINK=$3; SECS=$4; LABEL=${5:-run}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
D=$(mktemp -d /tmp/ceiling.XXXXXX)
LOG=/tmp/ceiling-$LABEL.server.log
OUT=/tmp/ceiling-$LABEL.loadgen.log
SERVER=$B/plyyard
if [ -n "${FLAME:-}" ]; then
  # Debian's perf 6.1 cannot read the binary's DWARF debug info (`debug = 1`)
  # and then resolves no symbol at all; a copy without it keeps the symbol
  # table and .eh_frame, which is all that DWARF unwinding and names need.
  SERVER=$D/plyyard
  objcopy --strip-debug "$B/plyyard" "$SERVER"
fi
"$SERVER" serve --addr 127.0.0.1:0 --db "sqlite://$D/t.db" --rate-limits off 2>"$LOG" &
SPID=$!
trap 'kill $SPID 2>/dev/null || true; rm -rf "$D"' EXIT
for _ in $(seq 1 60); do grep -q 'listening on' "$LOG" && break; sleep 0.5; done
PORT=$(grep -o 'listening on http://[0-9.:]*' "$LOG" | sed 's/.*://')
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/loadgen" --addr "127.0.0.1:$PORT" tables --games "$GAMES" --think-ms "$THINK" \
  --seconds "$SECS" --server-pid "$SPID" >"$OUT" 2>&1 &
LPID=$!
if [ -n "${FLAME:-}" ]; then
  # Sample the middle of the window: it starts 0.5 s after every game is seated.
  until grep -q '^games seated' "$OUT"; do sleep 0.5; kill -0 $LPID 2>/dev/null || break; done
  sleep $(( SECS / 4 + 1 ))
  # The server's busiest threads, once, for the reading of the graph.
  top -H -b -n1 -p "$SPID" | sed -n '7,16p' > "/tmp/ceiling-$LABEL.threads"
  "$(dirname "$0")/flamegraph.sh" "$SPID" $(( SECS / 2 )) "$FLAME" \
    "plyyard serve: $GAMES games, think $THINK ms, SQLite ($LABEL)"
fi
wait $LPID
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -v '^loadgen: ' "$OUT"
kill $SPID; wait $SPID 2>/dev/null || true
echo "\"mailbox full\" lines in the server log: $(grep -c 'mailbox full' "$LOG" || true)"
