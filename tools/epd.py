#!/usr/bin/env python3
"""Run a UCI engine over an EPD test suite (bm/am) at a fixed time per position.

Example:
  tools/epd.py --engine "target/release/plyyard uci" \
      --file ../shared/data/epd/wac.epd --time 1.0
Prints one line per failed position and a final `solved X / N` line.
Requires python-chess (`pip install chess`).
"""

import argparse
import json
import re
import shlex
import sys

import chess
import chess.engine


def normalise_epd(line):
    """An EPD line as python-chess reads it, tolerating the Bratko-Kopec
    file's spelling: "- ; bm Qd1 + ; id BK.01<NUL>"."""
    line = line.replace("\x00", "").strip()
    line = re.sub(r'\bid ([^";]+?)\s*(;|$)', r'id "\1"\2', line)
    fields = line.split(None, 4)
    if len(fields) == 5:
        rest = re.sub(r"\s+\+", "+", fields[4].lstrip().lstrip(";").lstrip())
        line = " ".join(fields[:4] + [rest])
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="engine command line")
    ap.add_argument("--file", required=True, help="EPD file with bm and/or am operations")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position")
    ap.add_argument("--opt", action="append", help="UCI option NAME=VALUE")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    opts = {}
    for p in args.opt or []:
        k, _, v = p.partition("=")
        opts[k] = int(v) if v.isdigit() else v
    if opts:
        engine.configure(opts)

    solved = total = 0
    with open(args.file) as f:
        lines = [l for l in f if l.strip()]
    if args.limit:
        lines = lines[: args.limit]
    for line in lines:
        try:
            board, ops = chess.Board.from_epd(normalise_epd(line))
        except ValueError as e:
            print(f"skip unreadable line: {e}", file=sys.stderr)
            continue
        bm = ops.get("bm") or []
        am = ops.get("am") or []
        if not bm and not am:
            continue
        total += 1
        engine.protocol.send_line("ucinewgame")
        res = engine.play(board, chess.engine.Limit(time=args.time))
        ok = (not bm or res.move in bm) and (res.move not in am)
        solved += ok
        if not ok:
            want = " ".join(board.san(m) for m in bm) or "not " + " ".join(board.san(m) for m in am)
            print(f"fail {ops.get('id', '?')}: played {board.san(res.move)}, expected {want}", flush=True)
    engine.quit()
    print(f"solved {solved} / {total}")
    print("RESULT " + json.dumps({"file": args.file, "time": args.time, "solved": solved, "total": total}))


if __name__ == "__main__":
    main()
