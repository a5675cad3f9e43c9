#!/usr/bin/env python3
"""Short mates: the position sets behind the engine's mate tests, and a check
of any UCI engine against them.

Two sets, both written to crates/engine/tests/data/:

- mate_traps.txt: positions where some legal move lets the opponent mate in
  at most two moves and some other move does not. Each line is
  `FEN | moves allowing mate (UCI) | source`. A move "allows mate" when the
  judge engine, searching the position after it to --judge-depth, scores a
  mate in 1 or 2 for the opponent; every such move of every position is
  recorded, so a move not listed is one the judge found no short mate
  against.
- short_mates.txt: suite positions with a mate in at most three moves for
  the side to move, `FEN | moves to mate | source`, the distance as the
  judge proves it (searched to --mate-depth).

Positions come from the EPD suites (each position, and the position after
its first `bm` move: the defender's side), and from seeded self-play of the
engine under test from those positions (--plies plies each, engine moves at
--selfplay-nodes nodes, one move in four drawn at random), so that the set is
not only the suites' own positions.

Usage (python-chess and a judge engine, Debian's `stockfish`):

  tools/mates.py build --engine "target/release/plyyard uci" [--seed S --out DIR]
  tools/mates.py check --engine "target/release/plyyard uci" \
      [--depth 12] [--mate-depth 8] [--data DIR]

The committed files were built with the self-play of the engine before the
fixes of issue 44 (commit f6e8dcb); another --seed and engine give a set
the tests have never seen (--out elsewhere, then check --data there).

`check` plays each trap position at --depth (one thread, `ucinewgame`
before each) and counts the moves that allow mate; then searches each short
mate at --mate-depth and counts those whose mate it does not report (a
mate score no longer than the judge's). It needs no judge: the verdicts are
in the files. `check --verify` also proves each failure again with an
exact brute-force search in python-chess (no engine involved), so a failure
never rests on the judge alone.
"""

import argparse
import json
import random
import shlex
import sys
import time
from pathlib import Path

import chess
import chess.engine

from epd import normalise_epd

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "crates" / "engine" / "tests" / "data"
SUITES = [
    ROOT.parent / "shared" / "data" / "epd" / "wac.epd",
    ROOT.parent / "shared" / "data" / "epd" / "wac-revised.epd",
    ROOT.parent / "shared" / "data" / "epd" / "bratko-kopec.epd",
]
# The positions of the issue (44, item 1): the Opera Game after 15.Bxd7+,
# and two suite positions where the engine allowed a mate in one.
ISSUE = [
    ("4kb1r/p2B1ppp/4qn2/4p1B1/4P3/1Q6/PPP2PPP/2KR4 b k - 0 15", "issue44.opera"),
    ("r2qkb1r/1pp2ppp/p7/1b2p3/P1Q1P3/2P5/5PPP/R1B2KNR w kq - 1 2", "issue44.qe2"),
    ("r3rnk1/1pq2bb1/p4p2/3p1PQ1/3B2P1/1NP4R/P1P1B3/2K4R b - - 0 1", "issue44.re5"),
]


def read_epd(path):
    """(board, ops) of each readable line of an EPD file."""
    out = []
    for line in path.read_text(errors="replace").splitlines():
        line = normalise_epd(line)
        if not line:
            continue
        try:
            out.append(chess.Board.from_epd(line))
        except ValueError as e:
            print(f"skip unreadable line in {path.name}: {e}", file=sys.stderr)
    return out


def seeds():
    """(board, source) of every suite position and the position after its
    first best move, plus the issue's positions; each FEN once."""
    seen = set()
    out = []

    def add(board, src):
        key = board.epd()
        if key not in seen and not board.is_game_over():
            seen.add(key)
            out.append((board, src))

    for fen, src in ISSUE:
        add(chess.Board(fen), src)
    for path in SUITES:
        for board, ops in read_epd(path):
            ident = ops.get("id", "?")
            add(board.copy(), f"{ident}")
            bm = ops.get("bm") or []
            if bm:
                after = board.copy()
                after.push(bm[0])
                add(after, f"{ident}+bm")
    return out


def self_play(engine, board, plies, nodes, rng):
    """Positions along a seeded self-play line from `board`."""
    out = []
    b = board.copy()
    engine.protocol.send_line("ucinewgame")
    for _ in range(plies):
        if b.is_game_over():
            break
        if rng.random() < 0.25:
            m = rng.choice(sorted(b.legal_moves, key=lambda m: m.uci()))
        else:
            m = engine.play(b, chess.engine.Limit(nodes=nodes)).move
        b.push(m)
        if not b.is_game_over():
            out.append(b.copy(stack=False))
    return out


def mate_for_mover(info):
    """Moves to mate for the side to move in a judge's analysis, or None."""
    score = info.get("score")
    if score is None:
        return None
    m = score.relative.mate()
    return m if m is not None and m > 0 else None


def allowing_moves(judge, board, depth):
    """The legal moves of `board` after which the judge finds the opponent
    a mate in one or two."""
    out = []
    for m in sorted(board.legal_moves, key=lambda m: m.uci()):
        b = board.copy(stack=False)
        b.push(m)
        if b.is_game_over():
            continue
        info = judge.analyse(b, chess.engine.Limit(depth=depth))
        k = mate_for_mover(info)
        if k is not None and k <= 2:
            out.append(m)
    return out


def build(args):
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    engine.configure({"Hash": 16, "Threads": 1})
    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    judge.configure({"Hash": 64, "Threads": 1})
    rng = random.Random(args.seed)
    base = seeds()
    candidates = list(base)
    seen = {b.epd() for b, _ in base}
    for board, src in base:
        for i, b in enumerate(self_play(engine, board, args.plies, args.selfplay_nodes, rng)):
            if b.epd() not in seen:
                seen.add(b.epd())
                candidates.append((b, f"{src}/self{i + 1}"))
    engine.quit()
    print(f"{len(base)} suite positions, {len(candidates)} with self-play", file=sys.stderr)

    traps = []
    t0 = time.time()
    for n, (board, src) in enumerate(candidates, 1):
        bad = allowing_moves(judge, board, args.judge_depth)
        if bad and len(bad) < board.legal_moves.count():
            traps.append((board, bad, src))
        if n % 100 == 0:
            print(f"{n}/{len(candidates)} judged, {len(traps)} traps, {time.time() - t0:.0f} s", file=sys.stderr)

    mates = []
    for board, src in base:
        if src.startswith("issue44") or src.endswith("+bm"):
            continue
        info = judge.analyse(board, chess.engine.Limit(depth=args.mate_depth))
        k = mate_for_mover(info)
        if k is not None and k <= 3:
            mates.append((board, k, src))
    judge.quit()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    header = (
        f"# written by tools/mates.py build --seed {args.seed} --plies {args.plies} "
        f"--selfplay-nodes {args.selfplay_nodes} --judge-depth {args.judge_depth} "
        f"--mate-depth {args.mate_depth}\n"
    )
    with open(out / "mate_traps.txt", "w") as f:
        f.write(header)
        f.write("# FEN | moves after which the opponent mates in at most 2 (UCI) | source\n")
        for board, bad, src in traps:
            f.write(f"{board.fen()} | {' '.join(m.uci() for m in bad)} | {src}\n")
    with open(out / "short_mates.txt", "w") as f:
        f.write(header)
        f.write("# FEN | moves to mate for the side to move | source\n")
        for board, k, src in mates:
            f.write(f"{board.fen()} | {k} | {src}\n")
    print(f"{len(traps)} trap positions, {len(mates)} mates in at most 3")


def read_set(folder, name):
    rows = []
    for line in (Path(folder) / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, middle, src = (x.strip() for x in line.split("|"))
        rows.append((chess.Board(fen), middle, src))
    return rows


def mates_in(board, n):
    """Whether the side to move mates in at most `n` moves (exact, brute force)."""
    if n <= 0:
        return False
    for m in board.legal_moves:
        board.push(m)
        try:
            if board.is_checkmate():
                return True
            if n > 1 and not board.is_game_over() and all(
                replies_lose(board, r, n - 1) for r in list(board.legal_moves)
            ):
                return True
        finally:
            board.pop()
    return False


def replies_lose(board, reply, n):
    board.push(reply)
    try:
        return mates_in(board, n)
    finally:
        board.pop()


def check(args):
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    opts = {"Hash": 16, "Threads": 1}
    for p in args.opt or []:
        k, _, v = p.partition("=")
        opts[k] = int(v) if v.isdigit() else v
    engine.configure(opts)
    traps = read_set(args.data, "mate_traps.txt")
    fails = 0
    for board, bad, src in traps:
        engine.protocol.send_line("ucinewgame")
        m = engine.play(board, chess.engine.Limit(depth=args.depth)).move
        if m.uci() in bad.split():
            fails += 1
            proof = ""
            if args.verify:
                after = board.copy()
                after.push(m)
                proof = " (exact: mate in <= 2)" if mates_in(after, 2) else " (exact: NO mate in 2)"
            print(f"allows mate: {src}: {board.fen()} played {board.san(m)}{proof}", flush=True)
    mates = read_set(args.data, "short_mates.txt")
    missed = 0
    for board, k, src in mates:
        engine.protocol.send_line("ucinewgame")
        info = engine.analyse(board, chess.engine.Limit(depth=args.mate_depth))
        got = mate_for_mover(info)
        if got is None or got > int(k):
            missed += 1
            print(f"mate missed: {src}: {board.fen()} mate in {k}, got {info.get('score')}", flush=True)
    engine.quit()
    print(f"mate traps at depth {args.depth}: {fails} of {len(traps)} positions allow mate")
    print(f"mates in <= 3 at depth {args.mate_depth}: {len(mates) - missed} of {len(mates)} found")
    print("RESULT " + json.dumps({
        "depth": args.depth, "traps": len(traps), "allowed": fails,
        "mate_depth": args.mate_depth, "mates": len(mates), "found": len(mates) - missed,
    }))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write the two position sets")
    b.add_argument("--engine", required=True, help="engine for the self-play lines")
    b.add_argument("--judge", default="/usr/games/stockfish", help="judge engine command line")
    b.add_argument("--seed", type=int, default=44001)
    b.add_argument("--plies", type=int, default=6, help="self-play plies from each suite position")
    b.add_argument("--selfplay-nodes", type=int, default=5000)
    b.add_argument("--judge-depth", type=int, default=8)
    b.add_argument("--mate-depth", type=int, default=16)
    b.add_argument("--out", default=str(DATA), help="folder for the two files")
    c = sub.add_parser("check", help="an engine against the two sets")
    c.add_argument("--engine", required=True)
    c.add_argument("--depth", type=int, default=12)
    c.add_argument("--mate-depth", type=int, default=8)
    c.add_argument("--opt", action="append", help="UCI option NAME=VALUE")
    c.add_argument("--verify", action="store_true", help="prove each failure by brute force")
    c.add_argument("--data", default=str(DATA), help="folder of the two files")
    args = ap.parse_args()
    build(args) if args.cmd == "build" else check(args)


if __name__ == "__main__":
    main()
