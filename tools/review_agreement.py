#!/usr/bin/env python3
"""Compare the review's labels with labels from a stronger engine.

Runs `plyyard review` on a PGN file (our labels, read back from the NAGs it
writes: $6 ?!, $2 ?, $4 ??), evaluates every position of the same games with
a reference engine (Stockfish 15.1 by default) at a deep fixed budget, labels
each move from the reference's evaluations with the rules in docs/review.md,
and prints one JSON line with the agreement: how many of the reference's
blunders (and mistakes-or-worse) we flag, and how many of ours it does not.

Reference evaluations are cached in a JSON file keyed by FEN and budget, so
runs at several of our budgets evaluate each position once.

Example:
  tools/review_agreement.py --pgn games.pgn --plyyard target/release/plyyard \
      --nodes 100000 --sf-depth 18 --cache /tmp/sf-cache.json
Requires python-chess.
"""

import argparse
import io
import json
import math
import os
import subprocess
import sys
import time

import chess
import chess.engine
import chess.pgn

NAG_LABEL = {6: "inaccuracy", 2: "mistake", 4: "blunder"}
RANK = {"inaccuracy": 1, "mistake": 2, "blunder": 3}


def winning_chances(cp):
    """Winning chances in [-1, 1] of a centipawn score (docs/review.md)."""
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def cp_of(score):
    """Centipawns of a score `(kind, value)` seen by its side, mates as
    ±1000 (docs/review.md): `("cp", n)`, or `("mate", n)` with n > 0 when
    that side mates (n = 0: it has mated) and n < 0 when it is mated."""
    kind, v = score
    if kind == "mate":
        return 1000 if v >= 0 else -1000
    return max(-1000, min(1000, v))


def mates(score):
    return score[0] == "mate" and score[1] >= 0


def mated(score):
    return score[0] == "mate" and score[1] < 0


def graded(worth):
    """A missed or allowed mate's label from what the mover keeps (cp)."""
    if worth > 999:
        return "inaccuracy"
    if worth > 700:
        return "mistake"
    return "blunder"


def label(before, after):
    """The label of a move from the mover's scores before and after it,
    by the rules of docs/review.md."""
    if mates(before):
        return None if mates(after) else graded(cp_of(after))
    if mated(before):
        return None
    if mated(after):
        return graded(-cp_of(before))
    drop = winning_chances(cp_of(before)) - winning_chances(cp_of(after))
    if drop >= 0.3:
        return "blunder"
    if drop >= 0.2:
        return "mistake"
    if drop >= 0.1:
        return "inaccuracy"
    return None


def read_games(path):
    with open(path, encoding="utf-8") as f:
        games = []
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return games
            games.append(g)


def our_labels(plyyard, pgn, nodes):
    """Labels per game and ply from `plyyard review`, and the wall time."""
    t0 = time.monotonic()
    out = subprocess.run([plyyard, "review", "--nodes", str(nodes), pgn],
                         check=True, capture_output=True, text=True).stdout
    spent = time.monotonic() - t0
    labels = []
    f = io.StringIO(out)
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        per_ply = []
        for node in g.mainline():
            nag = next((NAG_LABEL[n] for n in node.nags if n in NAG_LABEL), None)
            per_ply.append(nag)
        labels.append(per_ply)
    return labels, spent


def reference_scores(games, engine_cmd, depth, cache_path):
    """White-relative reference scores of every position of every game."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            cache = json.load(f)
    engine = chess.engine.SimpleEngine.popen_uci(engine_cmd)
    engine.configure({"Threads": 1, "Hash": 128})
    scores = []
    try:
        for g in games:
            board = g.board()
            per = []
            positions = [board.copy()]
            for m in g.mainline_moves():
                board.push(m)
                positions.append(board.copy())
            for b in positions:
                key = f"{b.fen()}|d{depth}"
                if key not in cache:
                    if b.is_game_over():
                        outcome = b.outcome()
                        # Only checkmate has a winner; the side to move is mated.
                        cache[key] = "cp 0" if outcome.winner is None else "mate -0"
                    else:
                        info = engine.analyse(b, chess.engine.Limit(depth=depth))
                        s = info["score"].pov(b.turn)
                        cache[key] = f"mate {s.mate()}" if s.is_mate() else f"cp {s.score()}"
                kind, _, v = cache[key].partition(" ")
                per.append((b.turn, kind, v))
            scores.append(per)
    finally:
        engine.quit()
        if cache_path:
            with open(cache_path, "w", encoding="utf-8") as f:
                json.dump(cache, f)
    return scores


def pov_score(entry, side):
    """A cached entry as `(kind, value)` from `side`'s point of view."""
    turn, kind, v = entry
    if kind == "mate" and v == "-0":
        value = -1  # the side to move is checkmated
    else:
        value = int(v)
    if turn != side:
        value = -value
        if kind == "mate" and value == 1 and v == "-0":
            value = 0
    return (kind, value)


def reference_labels(scores):
    labels = []
    for per in scores:
        out = []
        for i in range(len(per) - 1):
            mover = per[i][0]
            out.append(label(pov_score(per[i], mover), pov_score(per[i + 1], mover)))
        labels.append(out)
    return labels


def compare(ours, theirs, at_least):
    both = only_ours = only_theirs = 0
    for o_game, t_game in zip(ours, theirs):
        for o, t in zip(o_game, t_game):
            o_hit = o is not None and RANK[o] >= at_least
            t_hit = t is not None and RANK[t] >= at_least
            both += o_hit and t_hit
            only_ours += o_hit and not t_hit
            only_theirs += t_hit and not o_hit
    flagged = both + only_theirs
    ours_n = both + only_ours
    return {
        "reference": flagged,
        "ours": ours_n,
        "both": both,
        "recall": round(both / flagged, 3) if flagged else None,
        "precision": round(both / ours_n, 3) if ours_n else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--plyyard", default="target/release/plyyard")
    ap.add_argument("--nodes", type=int, required=True, help="our budget per position")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--sf-depth", type=int, default=18)
    ap.add_argument("--cache", help="JSON file caching the reference's evaluations")
    args = ap.parse_args()
    games = read_games(args.pgn)
    ours, spent = our_labels(args.plyyard, args.pgn, args.nodes)
    theirs = reference_labels(reference_scores(games, args.engine, args.sf_depth, args.cache))
    moves = sum(len(t) for t in theirs)
    print(json.dumps({
        "games": len(games),
        "moves": moves,
        "nodes": args.nodes,
        "reference_depth": args.sf_depth,
        "review_seconds": round(spent, 1),
        "blunders": compare(ours, theirs, RANK["blunder"]),
        "mistakes_or_worse": compare(ours, theirs, RANK["mistake"]),
    }))


if __name__ == "__main__":
    sys.exit(main())
