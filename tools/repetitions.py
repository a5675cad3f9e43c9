#!/usr/bin/env python3
"""Were a player's draws by rule given away? The question behind contempt.

For every game in a PGN drawn by repetition or by the fifty-move rule, a
judge engine scores the position BACK plies before the end (where the
player could still have played on) at a fixed depth, from PLAYER's side.
A draw that PLAYER could have played on from a won position shows as a
large positive score; a saved lost game as a large negative one.

Example:
  tools/repetitions.py --judge /usr/games/stockfish --player expert r33005.pgn r33006.pgn
Requires python-chess.
"""

import argparse
import shlex

import chess
import chess.engine
import chess.pgn

from blunders import cp

# Termination headers as tools/match.py writes them (python-chess names, lower case).
RULE_DRAWS = tuple(
    t.name.lower() for t in (chess.Termination.THREEFOLD_REPETITION, chess.Termination.FIFTY_MOVES)
)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--judge", default="/usr/games/stockfish")
    ap.add_argument("--player", default="expert")
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--back", type=int, default=8, help="plies before the end")
    a = ap.parse_args()
    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(a.judge))
    judge.configure({"Threads": 1, "Hash": 64})
    try:
        for path in a.pgn:
            with open(path) as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    term = game.headers.get("Termination", "")
                    if term not in RULE_DRAWS:
                        continue
                    if a.player not in (game.headers.get("White"), game.headers.get("Black")):
                        continue
                    board = game.end().board()
                    plies = len(board.move_stack)
                    for _ in range(min(a.back, plies)):
                        board.pop()
                    info = judge.analyse(board, chess.engine.Limit(depth=a.depth))
                    us = chess.WHITE if game.headers.get("White") == a.player else chess.BLACK
                    print(f"{path} round {game.headers.get('Round', '?')}: {term} after {plies} plies, "
                          f"{cp(info, us):+d} cp for {a.player} {a.back} plies before the end")
    finally:
        judge.quit()


if __name__ == "__main__":
    main()
