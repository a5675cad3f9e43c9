#!/usr/bin/env python3
"""Where a player's lost games were lost: move number and clock.

For every game PLAYER lost in a PGN, a judge engine scores the position
after each of PLAYER's moves at a fixed node count. The game counts as lost
from the first of THREE consecutive such positions scored at least MARGIN
centipawns against PLAYER; the script prints that move, PLAYER's clock
there (from `[%clk]` comments, as tools/match.py writes them), then a
histogram by ten moves and the median clock.

Example:
  tools/losspoint.py --judge /usr/games/stockfish --pgn sf2600.pgn --player expert
Requires python-chess.
"""

import argparse
import collections
import shlex
import statistics

import chess
import chess.engine
import chess.pgn


def lost_by(game, player):
    result = game.headers.get("Result")
    if game.headers.get("White") == player:
        return chess.WHITE if result == "0-1" else None
    if game.headers.get("Black") == player:
        return chess.BLACK if result == "1-0" else None
    return None


def loss_point(judge, game, us, nodes, margin, run):
    """(fullmove, clock) of the first of `run` bad positions in a row, or None."""
    streak = 0
    start = None
    for node in game.mainline():
        before = node.parent.board()
        if before.turn != us:
            continue
        board = node.board()
        if board.is_game_over():
            return None
        info = judge.analyse(board, chess.engine.Limit(nodes=nodes))
        score = info["score"].pov(us).score(mate_score=10000)
        if score <= -margin:
            if streak == 0:
                start = (before.fullmove_number, node.clock())
            streak += 1
            if streak >= run:
                return start
        else:
            streak = 0
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", required=True, help="UCI command of the judging engine")
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--player", required=True, help="name in the White/Black tags")
    ap.add_argument("--nodes", type=int, default=100000)
    ap.add_argument("--margin", type=int, default=150)
    ap.add_argument("--run", type=int, default=3)
    args = ap.parse_args()

    judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    judge.configure({"Hash": 64, "Threads": 1})
    by_ten = collections.Counter()
    clocks = []
    lost = 0
    try:
        with open(args.pgn) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                us = lost_by(game, args.player)
                if us is None:
                    continue
                lost += 1
                point = loss_point(judge, game, us, args.nodes, args.margin, args.run)
                if point is None:
                    print(f"round {game.headers.get('Round')}: never {args.margin} cp behind {args.run} times in a row")
                    continue
                move, clock = point
                by_ten[(move - 1) // 10] += 1
                if clock is not None:
                    clocks.append(clock)
                shown = "?" if clock is None else f"{clock:.2f} s"
                print(f"round {game.headers.get('Round')}: lost from move {move}, clock {shown}", flush=True)
    finally:
        judge.quit()
    print(f"lost games: {lost}")
    for tens in sorted(by_ten):
        print(f"moves {tens * 10 + 1}-{tens * 10 + 10}: {by_ten[tens]}")
    if clocks:
        print(f"median clock at the loss point: {statistics.median(clocks):.2f} s")


if __name__ == "__main__":
    main()
