#!/usr/bin/env bash
# Samples a running process with Linux perf and draws a flame graph.
#
#   tools/flamegraph.sh PID SECONDS OUT.svg [TITLE]
#
# Needs `perf` (Debian: apt-get install -y linux-perf) and inferno
# (cargo install inferno: inferno-collapse-perf, inferno-flamegraph).
# Stacks are unwound with DWARF (.eh_frame), sampled at 199 Hz on every
# thread of PID. Debian's perf 6.1 resolves no symbol of a binary that
# carries the release profile's debug info: run a copy made with
# `objcopy --strip-debug` (tools/node_ceiling.sh does). The folded stacks
# are kept beside the SVG (OUT.folded) for reading with grep.
set -euo pipefail
PID=$1; SECS=$2; OUT=$3; TITLE=${4:-"plyyard serve, pid $PID, ${SECS} s"}
DATA=$(mktemp /tmp/flame.XXXXXX.data)
trap 'rm -f "$DATA"' EXIT
perf record -F 199 --call-graph dwarf,16384 -p "$PID" -o "$DATA" -- sleep "$SECS" >/dev/null 2>&1
perf script -i "$DATA" 2>/dev/null | inferno-collapse-perf --all > "${OUT%.svg}.folded"
inferno-flamegraph --title "$TITLE" --minwidth 0.5 < "${OUT%.svg}.folded" > "$OUT"
echo "flame graph: $OUT ($(wc -l < "${OUT%.svg}.folded") distinct stacks)"
