#!/usr/bin/env python3
"""Pools the rounds of several `tools/bench_pair.sh` runs of the same two
builds and compares them round by round.

Each round of bench_pair.sh prints four lines (tables and bots, one per
build, in ABBA order); this script pairs each round's "before" and "after"
of one mode and reports, per figure, the medians of both builds, the median
of the per-round ratios after/before, how many rounds "after" was lower, and
the geometric mean of the ratios with a 95 % t-interval. Pairing within a
round cancels the machine's drift between rounds; the median of the ratios
is not moved by one round that something else on the machine disturbed.

    tools/bench_pool.py OUT1.txt [OUT2.txt ...]
"""
import json
import math
import statistics
import sys

FIGURES = ["p50_ms", "p99_ms", "moves_per_s", "rss_mb"]
# Two-sided 95 % Student t quantiles by degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
        8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160,
        14: 2.145, 15: 2.131, 19: 2.093, 23: 2.069, 29: 2.045}


def rounds(path):
    """The (mode, before, after) pairs of one bench_pair.sh output."""
    lines = []
    with open(path) as f:
        for line in f:
            if line.strip():
                label, js = line.split(" ", 1)
                d = json.loads(js)
                lines.append(("tables" if "sockets" in d else "bots", label, d))
    if len(lines) % 4:
        sys.exit(f"{path}: {len(lines)} lines, not whole rounds of 4")
    for i in range(0, len(lines), 4):
        rnd = lines[i:i + 4]
        for mode in ("tables", "bots"):
            pick = {label: d for m, label, d in rnd if m == mode}
            yield mode, pick["before"], pick["after"]


def main():
    pairs = {}
    for path in sys.argv[1:]:
        for mode, before, after in rounds(path):
            pairs.setdefault(mode, []).append((before, after))
    print("| load | figure | rounds | before (median) | after (median) | median of ratios "
          "| after lower | geometric mean [95 % CI] |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for mode, ps in pairs.items():
        n = len(ps)
        for f in FIGURES:
            ratios = [a[f] / b[f] for b, a in ps]
            logs = [math.log(r) for r in ratios]
            m = statistics.mean(logs)
            h = T975.get(n - 1, 2.0) * statistics.stdev(logs) / math.sqrt(n) if n > 1 else float("nan")
            pct = lambda x: f"{100 * (x - 1):+.1f} %"
            print(f"| {mode} | {f} | {n} | {statistics.median(b[f] for b, _ in ps):.2f} "
                  f"| {statistics.median(a[f] for _, a in ps):.2f} | {pct(statistics.median(ratios))} "
                  f"| {sum(r < 1 for r in ratios)} of {n} "
                  f"| {pct(math.exp(m))} [{pct(math.exp(m - h))}, {pct(math.exp(m + h))}] |")


if __name__ == "__main__":
    main()
