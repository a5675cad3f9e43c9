#!/usr/bin/env python3
"""Rate one player against opponents of known rating (a "ladder").

Reads the games of each match from PGN files written by tools/match.py and
fits the rating R that maximises the likelihood of the scores under the
logistic model E = 1 / (1 + 10^((r_opp - R) / 400)), a draw counting as half
a win. The 95 % interval is where the log-likelihood is within 1.92 of its
maximum (profile likelihood), which stays honest when a score is near 0 % or
100 %. Requires python-chess (`pip install chess`).

Example:
  tools/ladder.py --player expert --pgn sf2000.pgn=2000 --pgn sf2400.pgn=2400
"""

import argparse
import math
import sys

import chess.pgn


def scores(path, player):
    """Scores of `player` in every finished game of a PGN file."""
    out = []
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return out
            h = game.headers
            result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(h.get("Result"))
            if result is None:
                continue
            if h.get("White") == player:
                out.append(result)
            elif h.get("Black") == player:
                out.append(1.0 - result)


def log_likelihood(rating, games):
    ll = 0.0
    for opp, s in games:
        e = 1.0 / (1.0 + 10 ** ((opp - rating) / 400.0))
        e = min(max(e, 1e-12), 1 - 1e-12)
        ll += s * math.log(e) + (1 - s) * math.log(1 - e)
    return ll


def fit(games, lo=0.0, hi=4000.0):
    """Maximum-likelihood rating and its 95 % profile interval."""
    grid = [lo + i * 0.5 for i in range(int((hi - lo) * 2) + 1)]
    lls = [log_likelihood(r, games) for r in grid]
    best = max(range(len(grid)), key=lambda i: lls[i])
    inside = [grid[i] for i in range(len(grid)) if lls[i] >= lls[best] - 1.92]
    return grid[best], min(inside), max(inside)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--player", required=True, help="the rated player's name in the PGN headers")
    ap.add_argument("--pgn", action="append", required=True, metavar="FILE=RATING",
                    help="a match file and its opponent's rating (repeatable)")
    args = ap.parse_args()
    games = []
    for spec in args.pgn:
        path, sep, rating = spec.rpartition("=")
        try:
            opp = float(rating)
        except ValueError:
            sep = ""
        if not sep or not path:
            sys.exit(f"ladder.py: expected FILE=RATING, got {spec!r}")
        try:
            ss = scores(path, args.player)
        except OSError as e:
            sys.exit(f"ladder.py: {e}")
        w = sum(1 for s in ss if s == 1.0)
        d = sum(1 for s in ss if s == 0.5)
        print(f"{path}: {len(ss)} games vs {opp:.0f}: +{w} ={d} -{len(ss) - w - d} "
              f"({100 * sum(ss) / max(len(ss), 1):.1f} %)")
        games += [(opp, s) for s in ss]
    if not games:
        sys.exit(f"ladder.py: no finished games of {args.player!r}")
    r, lo, hi = fit(games)
    print(f"rating {r:.0f}  95% [{lo:.0f}, {hi:.0f}]  ({len(games)} games)")


if __name__ == "__main__":
    main()
