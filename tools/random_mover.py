#!/usr/bin/env python3
"""A UCI engine that plays a uniformly random legal move (seeded): the floor
of the level calibration chain. Requires python-chess."""

import random
import sys

import chess


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    board = chess.Board()
    for line in sys.stdin:
        tok = line.split()
        if not tok:
            continue
        cmd = tok[0]
        if cmd == "uci":
            print("id name random-mover\nid author the Ply Yard authors\nuciok", flush=True)
        elif cmd == "isready":
            print("readyok", flush=True)
        elif cmd == "position":
            try:
                if tok[1] == "startpos":
                    board = chess.Board()
                    rest = tok[2:]
                else:
                    end = tok.index("moves") if "moves" in tok else len(tok)
                    board = chess.Board(" ".join(tok[2:end]))
                    rest = tok[end:]
                for m in rest[1:]:
                    board.push_uci(m)
            except (ValueError, IndexError) as e:
                print(f"info string error: {e}", flush=True)
        elif cmd == "go":
            moves = list(board.legal_moves)
            print("bestmove " + (rng.choice(moves).uci() if moves else "0000"), flush=True)
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
