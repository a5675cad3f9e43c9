#!/bin/bash
# Background puzzle generation (docs/puzzles.md, "The background run"):
# one CSV per seed (20 games each), seeds FIRST, FIRST+STEP, ...; a
# finished seed's file is never redone, so the loop can be stopped and
# started again at will.
#
#   tools/puzzle_gen_run.sh BIN OUT FIRST STEP      (run it under nice -n 19)
set -u
BIN=$1; OUT=$2; FIRST=$3; STEP=$4
mkdir -p "$OUT"
for ((s = FIRST; s < 1000000; s += STEP)); do
  f=$OUT/seed-$s.csv
  [ -e "$f" ] && continue
  "$BIN" puzzles generate --seed "$s" --games 20 --out "$f.part" 2>>"$OUT/log-$FIRST.txt" && mv "$f.part" "$f"
done
