#!/usr/bin/env python3
"""Checks Ply Yard's FIDE Dutch pairing against caissify-pairings 0.5.0.

Default mode ("ours"): makes COUNT random tournaments with
`plyyard swiss random` (no byes asked for, no forfeits; 8-60 players,
3-11 rounds, varied draw rates), then re-pairs every round of each with
caissify's Dutch engine (its free pairings checker, `check_trf`) and counts
the rounds whose pairs differ.

`--their` mode: makes COUNT tournaments with caissify's own random
generator (`caissify_pairings.rtg`) and checks that `plyyard swiss pair`
reproduces every round's pairs (and bye) from the rounds before it.

Prints one JSON summary line; exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def sizes(rng: random.Random) -> tuple[int, int, float, int]:
    """Players 8-60 (small fields more often: caissify's Python engine is
    slow on large ones), rounds 3-11 (at most players - 1), a draw rate."""
    players = 8 + int(52 * rng.random() ** 2)
    rounds = rng.randint(3, min(11, players - 1))
    draw = rng.choice([0.0, 0.1, 0.3, 0.5, 0.7])
    return players, rounds, draw, rng.randrange(1 << 31)


def check_one(job: tuple) -> dict:
    """Makes one tournament with our generator and re-pairs it with caissify."""
    from caissify_pairings.fpc import check_trf

    binary, i, players, rounds, draw, seed, keep = job
    cmd = [binary, "swiss", "random", "--seed", str(seed), "--players",
           str(players), "--rounds", str(rounds), "--draw-rate", str(draw)]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    report = check_trf(run.stdout)
    bad = [r["round"] for r in report["rounds"] if not r["match"]]
    if bad and keep:
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, f"ours-{i}.trf"), "w") as f:
            f.write(run.stdout)
    return {"checked": report["summary"]["rounds_checked"], "bad": bad,
            "stopped": "could not be paired" in run.stderr,
            "cmd": " ".join(cmd[1:])}


def ours(args) -> dict:
    from concurrent.futures import ProcessPoolExecutor

    rng = random.Random(args.seed)
    jobs = [(args.bin, i, *sizes(rng), args.keep) for i in range(args.count)]
    summary = {"mode": "ours", "tournaments": 0, "rounds_checked": 0,
               "differences": 0, "stopped_early": 0, "failures": []}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for r in pool.map(check_one, jobs):
            summary["tournaments"] += 1
            summary["rounds_checked"] += r["checked"]
            summary["stopped_early"] += r["stopped"]
            if r["bad"]:
                summary["differences"] += len(r["bad"])
                summary["failures"].append(f"{r['cmd']}  (rounds {r['bad']})")
    return summary


def truncate(trf: str, rounds: int) -> str:
    """The TRF with only its first `rounds` round blocks (col 92 on)."""
    out = []
    for line in trf.splitlines():
        if line.startswith("001"):
            line = line[: 91 + 10 * rounds - 2].rstrip()
        out.append(line)
    return "\n".join(out) + "\n"


def round_pairs(trf: str, rnd: int) -> set:
    """The pairs of round `rnd` as a set of (low, high), byes as (n, 0)."""
    pairs = set()
    for line in trf.splitlines():
        if not line.startswith("001"):
            continue
        me = int(line[4:8])
        block = line[91 + 10 * (rnd - 1): 91 + 10 * (rnd - 1) + 8].split()
        if not block:
            continue
        if int(block[0]) == 0:
            if block[-1] in ("U", "F", "+"):
                pairs.add((me, 0))
        else:
            opp = int(block[0])
            pairs.add((min(me, opp), max(me, opp)))
    return pairs


def theirs(args) -> dict:
    from caissify_pairings.rtg import generate_tournament

    rng = random.Random(args.seed)
    summary = {"mode": "their", "tournaments": 0, "rounds_checked": 0,
               "differences": 0, "failures": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            players, rounds, draw, seed = sizes(rng)
            trf = generate_tournament(num_players=players, num_rounds=rounds,
                                      draw_rate=draw, seed=seed)
            summary["tournaments"] += 1
            for rnd in range(2, rounds + 1):
                want = round_pairs(trf, rnd)
                if not want:
                    continue
                path = os.path.join(tmp, "t.trf")
                with open(path, "w") as f:
                    f.write(truncate(trf, rnd - 1))
                run = subprocess.run([args.bin, "swiss", "pair", path],
                                     capture_output=True, text=True)
                got = set()
                for line in run.stdout.splitlines()[1:]:
                    w, b = map(int, line.split())
                    got.add((w, 0) if b == 0 else (min(w, b), max(w, b)))
                summary["rounds_checked"] += 1
                if got != want:
                    summary["differences"] += 1
                    summary["failures"].append(
                        f"players {players} rounds {rounds} draw {draw} seed {seed} round {rnd}")
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        with open(os.path.join(args.keep, f"their-{i}-r{rnd}.trf"), "w") as f:
                            f.write(trf)
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="the plyyard binary")
    ap.add_argument("--count", type=int, default=200, help="tournaments")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--their", action="store_true",
                    help="caissify's tournaments, re-paired by us")
    ap.add_argument("--keep", help="directory for the TRFs that differ")
    ap.add_argument("--jobs", type=int, default=2, help="checks run at once")
    args = ap.parse_args()
    started = time.monotonic()
    summary = theirs(args) if args.their else ours(args)
    summary["seconds"] = round(time.monotonic() - started, 1)
    summary["failures"] = summary["failures"][:10]
    print(json.dumps(summary))
    return 1 if summary["differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
