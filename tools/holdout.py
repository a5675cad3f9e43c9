#!/usr/bin/env python3
"""Splits a `plyyard datagen` file into validation and training positions
at a game boundary, so that no game has positions on both sides.

    tools/holdout.py --data dg.txt --valid-lines 30000 --valid valid.txt --train train.txt

The first games, up to and including the one that holds line N, go to the
validation file; every later game to the training file. A new game starts
where the move number falls. A last line without its newline (a generator
stopped mid-write) is dropped.
"""
import argparse
import sys


def ply(line):
    """Ply number of a datagen line, from its FEN's move number and side."""
    fields = line.split("|")[0].split()
    if len(fields) < 6:
        raise ValueError(f"not a datagen line: {line!r}")
    return int(fields[5]) * 2 + (fields[1] == "b")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--valid-lines", type=int, required=True)
    ap.add_argument("--valid", required=True)
    ap.add_argument("--train", required=True)
    a = ap.parse_args()
    text = open(a.data).read()
    lines = text.split("\n")
    lines = lines[:-1]  # the empty string after the last newline, or a cut line
    if a.valid_lines < 1 or a.valid_lines >= len(lines):
        sys.exit(f"holdout.py: --valid-lines must be 1..{len(lines) - 1}")
    try:
        cut = a.valid_lines
        while cut < len(lines) and ply(lines[cut]) > ply(lines[cut - 1]):
            cut += 1
    except ValueError as e:
        sys.exit(f"holdout.py: {a.data}: {e}")
    with open(a.valid, "w") as f:
        f.writelines(l + "\n" for l in lines[:cut])
    with open(a.train, "w") as f:
        f.writelines(l + "\n" for l in lines[cut:])
    print(f"{cut} validation positions, {len(lines) - cut} training positions")


if __name__ == "__main__":
    main()
