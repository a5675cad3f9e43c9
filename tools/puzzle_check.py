#!/usr/bin/env python3
"""Checks a seeded sample of Ply Yard's shipped puzzles with Stockfish.

For each sampled puzzle of data/puzzles.csv.gz (lichess's CSV columns):
the line is legal; the solution ends on the solver's (attacker's) move;
a one-move puzzle mates; and at every attacker move, Stockfish at a fixed
depth finds the solution's move at least 0.7 win chance better than the
best other move (win chance = 2 / (1 + e^(-0.00368208 cp)) - 1, +-1 for
mates), except that a final mating move may have rival mates.

    python3 tools/puzzle_check.py [--file data/puzzles.csv.gz] [--count 40]
        [--seed 1] [--depth 16] [--stockfish /usr/games/stockfish]
        [--doctor] [--filter OUT [--jobs N]] [--min N]

--filter OUT checks every puzzle of the file instead and writes those that
pass to OUT (gzip CSV, same columns): the last step before shipping, so
that the shipped file holds only puzzles Stockfish agrees with.

--doctor spoils every sampled puzzle first (its first solver move swapped
for another legal move, or its line cut to end on the defender's move) and
fails unless every one of them is caught: the check can fail.

Exit status 0 when every puzzle passes (with --doctor: when every doctored
puzzle fails), 1 otherwise; each failure is printed with its reason.
"""

import argparse
import csv
import gzip
import io
import math
import multiprocessing
import random
import shutil
import sys

import chess
import chess.engine

MARGIN = 0.7


def win_chance(score: chess.engine.PovScore, turn: chess.Color) -> float:
    s = score.pov(turn)
    if s.is_mate():
        return 1.0 if s.mate() > 0 else -1.0
    return 2.0 / (1.0 + math.exp(-0.00368208 * s.score())) - 1.0


def mates_in_one(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    mate = board.is_checkmate()
    board.pop()
    return mate


def judge(engine, board: chess.Board, move: chess.Move, depth: int, last: bool):
    """Why `move` is not the only good move in `board`, or None."""
    others = [m for m in board.legal_moves if m != move]
    if not others:
        return None
    limit = chess.engine.Limit(depth=depth)
    if last and mates_in_one(board, move):
        return None  # a final mate; rival mates are allowed
    # A new game for each search (empty hash): the verdict does not depend
    # on which puzzles were checked before, so --filter and the sample agree.
    best = engine.analyse(board, limit, root_moves=[move], game=object())
    rival = engine.analyse(board, limit, root_moves=others, game=object())
    ours = win_chance(best["score"], board.turn)
    theirs = win_chance(rival["score"], board.turn)
    if ours < theirs + MARGIN:
        alt = board.san(rival["pv"][0]) if rival.get("pv") else "?"
        return (f"{board.san(move)} ({ours:+.2f}) is not 0.7 better than "
                f"{alt} ({theirs:+.2f})")
    return None


def check(engine, row: dict, depth: int):
    """The reasons the puzzle `row` fails (empty when it passes)."""
    moves = row["Moves"].split()
    board = chess.Board(row["FEN"])
    try:
        board.push_uci(moves[0])
    except ValueError:
        return [f"opponent move {moves[0]} illegal"]
    solution = moves[1:]
    if len(solution) % 2 == 0:
        return [f"the line ends on the defender's move ({len(solution)} solution moves)"]
    failures = []
    for i, uci in enumerate(solution):
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return failures + [f"move {uci} unreadable"]
        if move not in board.legal_moves:
            return failures + [f"move {uci} illegal"]
        if i % 2 == 0:
            last = i == len(solution) - 1
            why = judge(engine, board, move, depth, last)
            if why:
                failures.append(f"move {i + 1}: {why}")
        board.push(move)
    if len(solution) == 1 and not board.is_checkmate():
        failures.append("a one-move puzzle that does not mate")
    return failures


def doctor(row: dict, rng: random.Random) -> dict:
    """A spoilt copy of `row`: a wrong first solver move, or a line cut short."""
    moves = row["Moves"].split()
    board = chess.Board(row["FEN"])
    board.push_uci(moves[0])
    spoilt = dict(row)
    if len(moves) > 2:
        spoilt["Moves"] = " ".join(moves[:-1])  # ends on the defender
        return spoilt
    good = chess.Move.from_uci(moves[1])
    others = [m for m in board.legal_moves if m != good and not mates_in_one(board, m)]
    if not others:
        spoilt["Moves"] = " ".join(moves + moves[1:2])  # even length
        return spoilt
    spoilt["Moves"] = " ".join([moves[0], rng.choice(others).uci()])
    return spoilt


def verdicts(rows, depth: int, stockfish: str):
    """The failures of each row (empty when it passes), with an engine of
    its own: one process of --filter's --jobs."""
    engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    try:
        return [check(engine, row, depth) for row in rows]
    finally:
        engine.quit()


def filter_file(rows, header: str, args) -> int:
    """Writes the rows that pass to args.filter, in their order; prints the
    others. The rows are dealt round to --jobs processes."""
    jobs = max(1, args.jobs)
    hands = [rows[i::jobs] for i in range(jobs)]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.starmap(verdicts, [(h, args.depth, args.stockfish) for h in hands])
    failures = [None] * len(rows)
    for i, result in enumerate(results):
        for j, f in enumerate(result):
            failures[i + j * jobs] = f
    kept = []
    for row, f in zip(rows, failures):
        if f:
            print(f"dropped {row['PuzzleId']}: " + "; ".join(f))
        else:
            kept.append(row)
    columns = header.split(",")
    with gzip.open(args.filter, "wt", encoding="utf-8", newline="") as f:
        f.write(header + "\n")
        for row in kept:
            f.write(",".join(row[c] for c in columns) + "\n")
    print(f"{len(kept)} of {len(rows)} puzzles kept at Stockfish depth {args.depth}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file", default="data/puzzles.csv.gz")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    ap.add_argument("--doctor", action="store_true")
    ap.add_argument("--filter", metavar="OUT")
    ap.add_argument("--jobs", type=int, default=1,
                    help="with --filter: Stockfish processes at once")
    ap.add_argument("--min", type=int, default=0,
                    help="fail when the file holds fewer puzzles than this")
    args = ap.parse_args()

    with gzip.open(args.file, "rt", encoding="utf-8") as f:
        text = f.read()
    header = text.split("\n", 1)[0]
    rows = list(csv.DictReader(io.StringIO(text)))
    rng = random.Random(args.seed)
    if len(rows) < args.min:
        print(f"only {len(rows)} puzzles in {args.file}, fewer than {args.min}")
        return 1
    if args.filter:
        return filter_file(rows, header, args)
    sample = rng.sample(rows, min(args.count, len(rows)))
    if args.doctor:
        sample = [doctor(r, rng) for r in sample]
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    bad = 0
    try:
        for row in sample:
            failures = check(engine, row, args.depth)
            if failures:
                bad += 1
                print(f"{row['PuzzleId']} {row['FEN']} {row['Moves']}: " + "; ".join(failures))
    finally:
        engine.quit()
    n = len(sample)
    if args.doctor:
        print(f"doctored: {bad} of {n} caught at depth {args.depth}")
        return 0 if bad == n else 1
    print(f"{n - bad} of {n} puzzles pass the only-move rule at Stockfish depth {args.depth}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
