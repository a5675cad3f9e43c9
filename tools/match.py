#!/usr/bin/env python3
"""Play a match between two UCI engines and report score and Elo difference.

Openings come from a polyglot book (default: the Debian gnuchess-book file);
each opening is played twice with colours swapped. A crash, an illegal move
or a flag loses the game. Requires python-chess (`pip install chess`).

Example:
  tools/match.py --engine1 "/tmp/plyyard-engine-abc uci" --name1 expert \
      --engine2 /usr/games/stockfish --opt2 UCI_LimitStrength=true \
      --opt2 UCI_Elo=2000 --games 40 --tc 10+0.1 --pgn /tmp/m.pgn
"""

import argparse
import concurrent.futures
import json
import math
import random
import shlex
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn
import chess.polyglot


def parse_tc(tc):
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def parse_opts(pairs):
    opts = {}
    for p in pairs or []:
        name, _, value = p.partition("=")
        if value.lower() in ("true", "false"):
            opts[name] = value.lower() == "true"
        else:
            try:
                opts[name] = int(value)
            except ValueError:
                opts[name] = value
    return opts


def book_opening(reader, rng, plies):
    """A random weighted walk through the book, at most `plies` half-moves."""
    board = chess.Board()
    for _ in range(plies):
        entries = list(reader.find_all(board)) if reader else []
        if not entries:
            break
        total = sum(e.weight for e in entries)
        if total == 0:
            move = rng.choice(entries).move
        else:
            x = rng.uniform(0, total)
            move = entries[-1].move
            for e in entries:
                x -= e.weight
                if x <= 0:
                    move = e.move
                    break
        board.push(move)
    return board


class Player:
    def __init__(self, cmd, opts, name):
        self.cmd = cmd
        self.opts = opts
        self.name = name
        self.engine = None

    def ensure(self):
        if self.engine is None:
            self.engine = chess.engine.SimpleEngine.popen_uci(shlex.split(self.cmd), timeout=30)
            if self.opts:
                self.engine.configure(self.opts)
        return self.engine

    def kill(self):
        if self.engine is not None:
            try:
                self.engine.quit()
            except Exception:
                try:
                    self.engine.close()
                except Exception:
                    pass
        self.engine = None


def play_game(white, black, opening, base, inc, margin, adjudicate, nodes=None):
    """Returns (result string, reason, pgn game)."""
    board = opening.copy()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    for p in players.values():
        try:
            p.ensure().ping()
            p.engine.protocol.send_line("ucinewgame")
        except Exception:
            p.kill()
    game = chess.pgn.Game()
    game.headers["White"] = white.name
    game.headers["Black"] = black.name
    game.headers["TimeControl"] = f"{base:g}+{inc:g}"
    node = game
    for m in opening.move_stack:
        node = node.add_variation(m)
    win_streak = {chess.WHITE: 0, chess.BLACK: 0}
    last_cp = {chess.WHITE: None, chess.BLACK: None}
    draw_streak = 0
    while True:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            return outcome.result(), outcome.termination.name.lower(), game
        side = board.turn
        p = players[side]
        if nodes:
            limit = chess.engine.Limit(nodes=nodes)
        else:
            limit = chess.engine.Limit(
                white_clock=max(clocks[chess.WHITE], 0.001),
                black_clock=max(clocks[chess.BLACK], 0.001),
                white_inc=inc,
                black_inc=inc,
            )
        t0 = time.monotonic()
        try:
            res = p.ensure().play(board, limit, info=chess.engine.INFO_SCORE, game=id(game))
        except Exception as e:  # crash or protocol error: forfeit
            p.kill()
            return ("0-1" if side == chess.WHITE else "1-0"), f"crash: {e}", game
        spent = time.monotonic() - t0
        clocks[side] -= spent
        if not nodes and clocks[side] < -margin:
            return ("0-1" if side == chess.WHITE else "1-0"), "time forfeit", game
        clocks[side] = max(clocks[side], 0) + inc
        move = res.move
        if move is None or move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), f"illegal move {move}", game
        board.push(move)
        node = node.add_variation(move)
        if not nodes:
            node.set_clock(clocks[side])
            node.set_emt(spent)
        score = res.info.get("score")
        if adjudicate and score is not None:
            cp = score.pov(side).score(mate_score=100000)
            last_cp[side] = cp
            win_streak[side] = win_streak[side] + 1 if cp >= 1000 else 0
            if abs(cp) <= 10 and board.fullmove_number >= 40:
                draw_streak += 1
            else:
                draw_streak = 0
            # Both engines must agree: the winner has seen it for 4 moves
            # and the loser's own last report says it is lost.
            other = not side
            if win_streak[side] >= 4 and last_cp[other] is not None and last_cp[other] <= -1000:
                return ("1-0" if side == chess.WHITE else "0-1"), "adjudicated win", game
            if draw_streak >= 12:
                return "1/2-1/2", "adjudicated draw", game


def elo_from_score(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def summarize(w, d, l):
    n = w + d + l
    if n == 0:
        return {"games": 0}
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.96 * se, s + 1.96 * se
    return {
        "games": n,
        "wins": w,
        "draws": d,
        "losses": l,
        "score": round(s, 4),
        "elo": round(elo_from_score(s), 1),
        "elo_lo": round(elo_from_score(lo), 1),
        "elo_hi": round(elo_from_score(hi), 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine1", required=True, help="command of the first engine")
    ap.add_argument("--engine2", required=True, help="command of the second engine")
    ap.add_argument("--name1", default="engine1")
    ap.add_argument("--name2", default="engine2")
    ap.add_argument("--opt1", action="append", help="UCI option NAME=VALUE for engine 1")
    ap.add_argument("--opt2", action="append", help="UCI option NAME=VALUE for engine 2")
    ap.add_argument("--games", type=int, default=20, help="number of games (rounded up to even)")
    ap.add_argument("--tc", default="10+0.1", help="time control base+inc in seconds")
    ap.add_argument("--nodes", type=int, help="fixed nodes per move instead of a clock (load-independent A/B tests)")
    ap.add_argument("--book", default="/usr/share/games/gnuchess/book.bin")
    ap.add_argument("--book-plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.1, help="seconds of clock overrun forgiven")
    ap.add_argument("--no-adjudicate", action="store_true")
    ap.add_argument("--pgn", help="append games to this PGN file")
    args = ap.parse_args()

    base, inc = parse_tc(args.tc)
    rng = random.Random(args.seed)
    try:
        reader = chess.polyglot.open_reader(args.book)
    except OSError:
        print(f"warning: no book at {args.book}, playing from the start position", file=sys.stderr)
        reader = None
    pairs = (args.games + 1) // 2
    openings = [book_opening(reader, rng, args.book_plies) for _ in range(pairs)]
    jobs = []
    for i, op in enumerate(openings):
        jobs.append((2 * i, op, True))
        jobs.append((2 * i + 1, op, False))

    lock = threading.Lock()
    tally = {"w": 0, "d": 0, "l": 0}
    local = threading.local()
    players = []

    def run(job):
        idx, op, first_white = job
        if not hasattr(local, "p1"):
            local.p1 = Player(args.engine1, parse_opts(args.opt1), args.name1)
            local.p2 = Player(args.engine2, parse_opts(args.opt2), args.name2)
            with lock:
                players.extend([local.p1, local.p2])
        white, black = (local.p1, local.p2) if first_white else (local.p2, local.p1)
        result, reason, game = play_game(
            white, black, op, base, inc, args.margin, not args.no_adjudicate, args.nodes
        )
        game.headers["Result"] = result
        game.headers["Round"] = str(idx + 1)
        game.headers["Termination"] = reason
        game.headers["Opening"] = op.fen()
        game.headers["BookPlies"] = str(len(op.move_stack))
        with lock:
            if result == "1/2-1/2":
                tally["d"] += 1
            elif (result == "1-0") == first_white:
                tally["w"] += 1
            else:
                tally["l"] += 1
            s = summarize(tally["w"], tally["d"], tally["l"])
            print(
                f"game {idx + 1}: {white.name} vs {black.name} {result} ({reason}); "
                f"{args.name1} +{s['wins']} ={s['draws']} -{s['losses']} "
                f"score {s['score']:.3f} elo {s['elo']:+.0f} [{s['elo_lo']:+.0f}, {s['elo_hi']:+.0f}]",
                flush=True,
            )
            if args.pgn:
                with open(args.pgn, "a") as f:
                    print(game, file=f, end="\n\n")

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as ex:
        list(ex.map(run, jobs))
    for p in players:
        p.kill()
    s = summarize(tally["w"], tally["d"], tally["l"])
    s.update({"engine1": args.name1, "engine2": args.name2, "tc": args.tc})
    print("RESULT " + json.dumps(s), flush=True)


if __name__ == "__main__":
    main()
