#!/usr/bin/env python3
"""Writes a large puzzle CSV for import and scale benchmarks, derived from
lichess's sample (`../shared/data/puzzles/lichess-sample.csv`, read in
place): the sample's rows with a five-character id (lichess's shape) are
copied round and round with new ids (base 62 of the row number, so every
row is distinct and the output is the same for the same arguments) and
ratings moved by -100..+100 per copy. The sample's damaged rows are
copied as they are on the first round only, so the import still meets
(and reports) bad rows. Never commit the output: it is lichess's data.

    python3 tools/puzzle_bench_csv.py --rows 1000000 --out /tmp/bench/puzzles-1m.csv
"""

import argparse
import csv
import os
import sys

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "shared", "data", "puzzles", "lichess-sample.csv")


def base62(n: int) -> str:
    """The five-character id of row `n`."""
    out = []
    for _ in range(5):
        out.append(DIGITS[n % 62])
        n //= 62
    return "".join(reversed(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, required=True, help="data rows to write (at most 62^5)")
    ap.add_argument("--out", required=True, help="the CSV to write (outside the repository)")
    ap.add_argument("--sample", default=SAMPLE, help="lichess's sample CSV")
    args = ap.parse_args()
    if not 1 <= args.rows <= 62 ** 5:
        ap.error("--rows must be in 1..62^5")
    with open(args.sample, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    good = [r for r in rows if len(r) >= 10 and len(r[0]) == 5]
    bad = [r for r in rows if not (len(r) >= 10 and len(r[0]) == 5)]
    rating_col = header.index("Rating")
    with open(args.out, "w", newline="") as out:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        written = 0
        for r in bad[: args.rows]:
            w.writerow(r)
            written += 1
        n = 0
        while written < args.rows:
            src = good[n % len(good)]
            copy = n // len(good)
            row = list(src)
            row[0] = base62(n)
            try:
                rating = int(src[rating_col]) + (copy * 37) % 201 - 100
                row[rating_col] = str(max(rating, 400))
            except ValueError:
                pass
            w.writerow(row)
            written += 1
            n += 1
    print(f"{args.out}: {args.rows} rows ({len(bad)} damaged rows of the sample included)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
