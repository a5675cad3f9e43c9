#!/usr/bin/env python3
"""Count one-move blunders per game for each player of a PGN file.

A blunder is a move after which a shallow search (the obvious reply plus
capture resolution) finds the mover at least THRESHOLD centipawns worse off
than with the best move. The judge is any UCI engine at a small fixed depth.

Example:
  tools/blunders.py --engine "target/release/plyyard uci" --pgn /tmp/lv.pgn
Requires python-chess.
"""

import argparse
import collections
import json
import shlex

import chess
import chess.engine
import chess.pgn


def cp(info, pov):
    return info["score"].pov(pov).score(mate_score=10000)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--threshold", type=int, default=300)
    args = ap.parse_args()

    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.engine))
    blunders = collections.Counter()
    games = collections.Counter()
    moves = collections.Counter()
    with open(args.pgn) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
            for n in names.values():
                games[n] += 1
            board = game.board()
            # Book moves were not chosen by the players.
            skip = int(game.headers.get("BookPlies", "8"))
            for ply, move in enumerate(game.mainline_moves()):
                mover = board.turn
                if ply >= skip and not board.is_game_over():
                    limit = chess.engine.Limit(depth=args.depth)
                    best = cp(judge.analyse(board, limit), mover)
                    after_board = board.copy()
                    after_board.push(move)
                    if after_board.is_game_over():
                        after = 10000 if after_board.is_checkmate() else 0
                    else:
                        after = cp(judge.analyse(after_board, limit), mover)
                    moves[names[mover]] += 1
                    if best - after >= args.threshold and best > -args.threshold * 3:
                        blunders[names[mover]] += 1
                board.push(move)
    judge.quit()
    for name in sorted(games):
        g = games[name]
        print(f"{name}: {blunders[name]} blunders in {g} games ({blunders[name] / g:.2f} per game, {moves[name]} moves)")
    print("RESULT " + json.dumps({n: {"games": games[n], "blunders": blunders[n], "moves": moves[n]} for n in games}))


if __name__ == "__main__":
    main()
