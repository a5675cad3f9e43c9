#!/usr/bin/env python3
"""Cross-check Ply Yard's rules core against python-chess, through the real binary.

Random games (standard, Chess960 from random start numbers, positions reached by
random play and given as FEN, small random endgames) are replayed with
`plyyard replay` in UCI and in SAN, under both rule sets, and every field of the
JSON is compared with a reference built on python-chess: final FEN, turn, SAN
list, sorted legal UCI moves, status/result/reason, claimable draws. Refused
input (illegal, malformed, ambiguous moves, `0000`, moves after the end) must
exit 2 with a JSON error. `plyyard perft --divide` is compared on random
positions, `plyyard pgn export --clock-precision ms` of the games is re-read by
python-chess (clocks to the millisecond), and the
`--chess960 N` numbering is compared with `chess.Board.from_chess960_pos(N)`.

The reference decides results itself, per FIDE Laws and docs/rules-crosscheck.md:
repetition identity is FIDE 9.2.3 (placement, side to move, castling rights,
en passant only when a legal capture exists); Ply Yard rules end the game on
threefold/50 moves, FIDE rules on fivefold/75 moves with threefold/50 moves
as claims of the side to move; a stalemate that is also insufficient material
is reported as stalemate (as lichess does).

Everything is seeded: game K of seed S is the same on every run, and each
difference is printed with the command that reproduces it.

    pip install chess==1.11.2
    cargo build -p plyyard
    python3 tools/crosscheck.py --games 200 --seed 1
    python3 tools/crosscheck.py --seed 1 --game 37 -v    # one game again
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import chess
import chess.pgn

RULESETS = ("plyyard", "fide")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = os.path.join(HERE, "..", "target", "debug", "plyyard")


# ---------------------------------------------------------------- reference


def rep_key(board: chess.Board):
    """FIDE 9.2.3 identity: placement, side to move, castling rights, legal e.p."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.clean_castling_rights(), ep)


class Ref:
    """A game replayed by python-chess, with our own bookkeeping of repetitions."""

    def __init__(self, board: chess.Board):
        self.board = board.copy(stack=False)
        self.keys = [rep_key(self.board)]
        self.san: list[str] = []
        self.uci: list[str] = []

    def push(self, move: chess.Move) -> None:
        self.san.append(self.board.san(move))
        self.uci.append(self.board.uci(move))
        self.board.push(move)
        self.keys.append(rep_key(self.board))

    def repetitions(self) -> int:
        return self.keys.count(self.keys[-1])

    def outcome(self, rules: str):
        """(result, reason) if the game is over under `rules`, else None."""
        b = self.board
        if b.is_checkmate():
            return ("0-1" if b.turn == chess.WHITE else "1-0", "checkmate")
        if b.is_stalemate():
            return ("1/2-1/2", "stalemate")
        if b.is_insufficient_material():
            return ("1/2-1/2", "insufficient_material")
        if rules == "plyyard":
            if self.repetitions() >= 3:
                return ("1/2-1/2", "threefold_repetition")
            if b.halfmove_clock >= 100:
                return ("1/2-1/2", "fifty_moves")
        else:
            if self.repetitions() >= 5:
                return ("1/2-1/2", "fivefold_repetition")
            if b.halfmove_clock >= 150:
                return ("1/2-1/2", "seventyfive_moves")
        return None

    def summary(self, rules: str) -> dict:
        b = self.board
        out = self.outcome(rules)
        claimable = []
        if out is None and rules == "fide":
            if self.repetitions() >= 3:
                claimable.append("threefold_repetition")
            if b.halfmove_clock >= 100:
                claimable.append("fifty_moves")
        legal = [] if out is not None else sorted(b.uci(m) for m in b.legal_moves)
        return {
            "fen": b.fen(),
            "turn": "white" if b.turn == chess.WHITE else "black",
            "san": list(self.san),
            "legal_moves": legal,
            "status": "ongoing" if out is None else "finished",
            "result": "*" if out is None else out[0],
            "reason": None if out is None else out[1],
            "claimable": claimable,
        }


def expected_replay(start: chess.Board, moves: list[chess.Move], rules: str):
    """What `plyyard replay` must print for `moves` from `start` under `rules`:
    ("ok", summary) or ("error", ply, kind) when a move comes after the end."""
    ref = Ref(start)
    for i, m in enumerate(moves):
        if ref.outcome(rules) is not None:
            return ("error", i + 1, "game_over")
        ref.push(m)
    return ("ok", ref.summary(rules))


# ---------------------------------------------------------------- generation

CENTRE = chess.BB_CENTER


def move_weight(board: chess.Board, m: chess.Move, style: str, rng: random.Random) -> float:
    if style == "uniform":
        return 1.0
    w = 1.0
    if style == "tactical":
        if board.is_en_passant(m):
            w += 40
        if board.is_castling(m):
            w += 30
        if m.promotion:
            w += 20
        if board.is_capture(m):
            w += 4
        if board.gives_check(m):
            w += 6
        p = board.piece_at(m.from_square)
        if p and p.piece_type == chess.PAWN:
            w += 3
            if abs(m.to_square - m.from_square) == 16:
                w += 6
            if chess.square_rank(m.to_square) == (4 if board.turn == chess.WHITE else 3):
                w += 8
        return w
    # "shuffle": keep material, prefer quiet piece moves so positions repeat
    if board.is_capture(m) or board.piece_at(m.from_square).piece_type == chess.PAWN:
        w = 0.05
    if board.is_castling(m):
        w = 0.2
    return w


def pick(board: chess.Board, style: str, rng: random.Random, history: list[chess.Move]) -> chess.Move:
    legal = list(board.legal_moves)
    if style == "shuffle" and len(history) >= 4 and rng.random() < 0.85:
        back = history[-4]
        if back in legal:
            return back
    weights = [move_weight(board, m, style, rng) for m in legal]
    return rng.choices(legal, weights=weights)[0]


def random_play(board: chess.Board, n: int, style: str, rng: random.Random) -> list[chess.Move]:
    b = board.copy(stack=False)
    out: list[chess.Move] = []
    for _ in range(n):
        if b.is_game_over():
            break
        m = pick(b, style, rng, out)
        out.append(m)
        b.push(m)
    return out


def random_endgame(rng: random.Random) -> chess.Board:
    """A small random legal position: two kings and a few men."""
    while True:
        b = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2)
        b.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        b.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        pool = [chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.ROOK, chess.QUEEN]
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 5])):
            pt = rng.choice(pool)
            color = rng.choice(chess.COLORS)
            sq = rng.choice(chess.SQUARES)
            if b.piece_at(sq) or (pt == chess.PAWN and chess.square_rank(sq) in (0, 7)):
                continue
            b.set_piece_at(sq, chess.Piece(pt, color))
        b.turn = rng.choice(chess.COLORS)
        if rng.random() < 0.5:
            b.halfmove_clock = rng.choice([0, 30, 90, 97, 99, 140, 147, 149])
        b.fullmove_number = rng.randint(1, 120)
        if b.is_valid() and not impossible_double_check(b):
            return b


def random_ep(rng: random.Random) -> chess.Board:
    """A random legal position where the side to move may be able to capture
    en passant, often with its king and an enemy rook or queen on the same
    rank (the rank pin) or a bishop on a diagonal through the pawns."""
    while True:
        b = chess.Board(None)
        us = rng.choice(chess.COLORS)
        rank = 4 if us == chess.WHITE else 3
        f = rng.randrange(8)
        g = f + rng.choice([-1, 1])
        if not 0 <= g < 8:
            continue
        b.set_piece_at(chess.square(f, rank), chess.Piece(chess.PAWN, us))
        b.set_piece_at(chess.square(g, rank), chess.Piece(chess.PAWN, not us))
        step = 1 if us == chess.WHITE else -1
        ep = chess.square(g, rank + step)

        def put(piece: chess.Piece, sq: int) -> None:
            if b.piece_at(sq) is None and sq not in (ep, chess.square(g, rank + 2 * step)):
                b.set_piece_at(sq, piece)

        on_rank = rng.random() < 0.6
        put(chess.Piece(chess.KING, us), chess.square(rng.randrange(8), rank) if on_rank else rng.choice(chess.SQUARES))
        slider = rng.choice([chess.ROOK, chess.QUEEN] if on_rank else [chess.BISHOP, chess.QUEEN, chess.ROOK])
        put(chess.Piece(slider, not us), chess.square(rng.randrange(8), rank) if on_rank else rng.choice(chess.SQUARES))
        put(chess.Piece(chess.KING, not us), rng.choice(chess.SQUARES))
        for _ in range(rng.randint(0, 3)):
            pt = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK])
            sq = rng.choice(chess.SQUARES)
            if pt == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            put(chess.Piece(pt, rng.choice(chess.COLORS)), sq)
        b.turn = us
        b.ep_square = ep
        b.halfmove_clock = 0
        b.fullmove_number = rng.randint(10, 60)
        if len(b.pieces(chess.KING, us)) == 1 and b.is_valid() and not impossible_double_check(b):
            return b


@dataclass
class Case:
    """One random game: how it starts and the moves played."""

    index: int
    kind: str
    start: chess.Board
    start_args: list[str]
    chess960: bool
    moves: list[chess.Move]
    style: str
    rules: str
    desc: str = ""


def fen_mode(fen: str) -> bool:
    """Whether `--fen` must use Chess960 castling for this FEN."""
    return chess.Board(fen, chess960=True).has_chess960_castling_rights()


def make_case(seed: int, index: int) -> Case:
    rng = random.Random(f"plyyard-crosscheck:{seed}:{index}")
    kind = rng.choices(["standard", "chess960", "fen", "fen960", "endgame", "ep"], [24, 24, 19, 14, 12, 7])[0]
    style = rng.choices(["uniform", "tactical", "shuffle"], [30, 45, 25])[0]
    rules = "fide" if style == "shuffle" and rng.random() < 0.7 else rng.choice(RULESETS)
    if kind == "standard":
        start = chess.Board()
        args: list[str] = []
        c960 = False
        desc = "standard"
    elif kind == "chess960":
        n = rng.randrange(960)
        start = chess.Board.from_chess960_pos(n)
        args = ["--chess960", str(n)]
        c960 = True
        desc = f"chess960 #{n}"
    elif kind in ("fen", "fen960"):
        if kind == "fen":
            base = chess.Board()
        else:
            base = chess.Board.from_chess960_pos(rng.randrange(960))
        pre = random_play(base, rng.randint(4, 60), rng.choice(["tactical", "uniform"]), rng)
        for m in pre:
            base.push(m)
        if base.is_game_over():
            base.pop()
        if base.ep_square is None and rng.random() < 0.3:
            base.halfmove_clock = rng.choice([90, 96, 99, 140, 146, 149])
        # Shredder-FEN sometimes (also for standard castling), and sometimes an
        # en passant square after every double step, capturable or not.
        ep_mode = rng.choice(["legal", "fen"])
        if rng.random() < (0.5 if kind == "fen960" else 0.15):
            fen = base.shredder_fen(en_passant=ep_mode)
        else:
            fen = base.fen(en_passant=ep_mode)
        c960 = fen_mode(fen)
        start = chess.Board(fen, chess960=c960)
        args = ["--fen", fen]
        desc = f"fen after {len(pre)} random plies"
    elif kind == "ep":
        b = random_ep(rng)
        fen = b.fen(en_passant="fen")
        c960 = False
        start = chess.Board(fen)
        args = ["--fen", fen]
        desc = "random en passant position"
    else:
        b = random_endgame(rng)
        fen = b.fen()
        c960 = False
        start = chess.Board(fen)
        args = ["--fen", fen]
        desc = "random endgame"
    length = rng.choice([rng.randint(0, 20), rng.randint(20, 120), rng.randint(120, 400)])
    moves: list[chess.Move] = []
    ref = Ref(start)
    while len(moves) < length and ref.outcome(rules) is None:
        m = pick(ref.board, style, rng, moves)
        moves.append(m)
        ref.push(m)
    return Case(index, kind, start, args, c960, moves, style, rules, desc)


# ---------------------------------------------------------------- the binary


@dataclass
class Stats:
    games: int = 0
    replays: int = 0
    positions: int = 0
    moves: int = 0
    legal_moves: int = 0
    errors_checked: int = 0
    perft_positions: int = 0
    perft_nodes: int = 0
    pgn_games: int = 0
    pgn_check_games: int = 0
    san_positions: int = 0
    san_moves: int = 0
    san_spellings: int = 0
    pgn_check_bad: int = 0
    c960_numbers: int = 0
    setups: int = 0
    reasons: dict = field(default_factory=dict)
    features: dict = field(default_factory=dict)

    def count(self, table: dict, key: str) -> None:
        table[key] = table.get(key, 0) + 1


class Checker:
    def __init__(self, binary: str, seed: int, max_report: int, verbose: bool):
        self.bin = binary
        self.seed = seed
        self.max_report = max_report
        self.verbose = verbose
        self.stats = Stats()
        self.diffs: list[str] = []
        self.diff_count = 0
        self.categories: dict[str, int] = {}

    def run(self, args: list[str], stdin: str | None = None):
        p = subprocess.run([self.bin, *args], capture_output=True, text=True, input=stdin)
        return p.returncode, p.stdout, p.stderr

    def differ(self, category: str, index: int | None, text: str, cmd: list[str] | None = None) -> None:
        self.diff_count += 1
        self.categories[category] = self.categories.get(category, 0) + 1
        if len(self.diffs) < self.max_report:
            lines = [f"[{category}] " + (f"game {index}: " if index is not None else "") + text]
            if cmd:
                lines.append("  reproduce: " + shlex.join(["target/debug/plyyard", *cmd]))
            if index is not None:
                lines.append(f"  again:     python3 tools/crosscheck.py --seed {self.seed} --game {index} -v")
            self.diffs.append("\n".join(lines))
            if self.verbose:
                print(self.diffs[-1], file=sys.stderr)

    # -- replay --------------------------------------------------------------

    def replay(self, case: Case, moves: list[chess.Move], rules: str, notation: str, label: str) -> None:
        ref = Ref(case.start)
        texts = []
        for m in moves:
            texts.append(ref.board.san(m) if notation == "san" else ref.board.uci(m))
            ref.board.push(m)
        cmd = ["replay", *case.start_args, "--rules", rules, "--", *texts]
        code, out, err = self.run(cmd)
        self.stats.replays += 1
        exp = expected_replay(case.start, moves, rules)
        if exp[0] == "error":
            self.expect_error(case.index, cmd, code, out, exp[1], texts[exp[1] - 1], {exp[2]}, label)
            return
        want = exp[1]
        if code != 0:
            self.differ("replay-refused", case.index, f"{label}: exit {code}: {out.strip()} {err.strip()}", cmd)
            return
        try:
            got = json.loads(out)
        except json.JSONDecodeError:
            self.differ("replay-json", case.index, f"{label}: not JSON: {out[:200]!r}", cmd)
            return
        self.stats.positions += 1
        self.stats.moves += len(moves)
        self.stats.legal_moves += len(want["legal_moves"])
        if want["reason"]:
            self.stats.count(self.stats.reasons, f"{rules}:{want['reason']}")
            if want["reason"] == "stalemate" and ref.board.is_insufficient_material():
                self.stats.count(self.stats.features, "stalemate that is also insufficient material")
            if want["reason"] == "checkmate" and ref.board.halfmove_clock >= 100:
                self.stats.count(self.stats.features, "checkmate on/after the 50th move")
        for claim in want["claimable"]:
            self.stats.count(self.stats.reasons, f"fide:claimable:{claim}")
        if ref.board.has_legal_en_passant() and want["status"] == "ongoing":
            self.stats.count(self.stats.features, "final positions with legal e.p.")
        elif ref.board.ep_square is not None and any(
            ref.board.is_en_passant(m) for m in ref.board.generate_pseudo_legal_moves()
        ):
            self.stats.count(self.stats.features, "final positions with only an illegal e.p. capture")
        if list(got.keys()) != list(want.keys()):
            self.differ("json-keys", case.index, f"{label}: keys {list(got.keys())}", cmd)
        for k, v in want.items():
            if got.get(k) != v:
                g = got.get(k)
                if k == "san":
                    i = next((j for j, (a, b) in enumerate(zip(g or [], v)) if a != b), None)
                    detail = f"first at {i}: ours {g[i]!r} ref {v[i]!r}" if i is not None else f"ours {g} ref {v}"
                elif k == "legal_moves":
                    detail = f"only ours {sorted(set(g or []) - set(v))} only ref {sorted(set(v) - set(g or []))}"
                else:
                    detail = f"ours {g!r} ref {v!r}"
                self.differ(f"field-{k}", case.index, f"{label}: {k}: {detail}", cmd)

    def expect_error(self, index, cmd, code, out, ply, move, kinds, label) -> None:
        self.stats.errors_checked += 1
        if code != 2:
            self.differ("error-exit", index, f"{label}: expected exit 2 ({'/'.join(kinds)} at ply {ply}), got {code}: {out.strip()[:200]}", cmd)
            return
        try:
            got = json.loads(out)
        except json.JSONDecodeError:
            self.differ("error-json", index, f"{label}: error output not JSON: {out[:200]!r}", cmd)
            return
        if not isinstance(got.get("error"), str) or got.get("ply") != ply or got.get("move") != move:
            self.differ("error-fields", index, f"{label}: want ply {ply} move {move!r}, got {got}", cmd)
        elif got.get("kind") not in kinds:
            self.differ("error-kind", index, f"{label}: want kind {kinds}, got {got.get('kind')!r} ({got.get('error')})", cmd)

    # -- refused moves ---------------------------------------------------------

    def bad_moves(self, case: Case, rng: random.Random) -> None:
        """At a random ongoing position of the game, append refused moves."""
        cut = rng.randint(0, len(case.moves))
        ref = Ref(case.start)
        for m in case.moves[:cut]:
            ref.push(m)
        b = ref.board
        if ref.outcome(case.rules) is not None or b.is_game_over():
            return
        prefix = ref.uci
        legal = set(b.legal_moves)
        candidates: list[tuple[str, set[str]]] = [("0000", {"illegal"})]
        pseudo = [m for m in b.pseudo_legal_moves if m not in legal]
        if pseudo:
            m = rng.choice(pseudo)
            candidates.append((b.uci(m), {"illegal"}))
        for _ in range(3):
            f, t = rng.sample(chess.SQUARES, 2)
            m = chess.Move(f, t)
            if m not in legal and chess.Move(f, t, chess.QUEEN) not in legal and not self._castle_alias(b, m):
                candidates.append((m.uci(), {"illegal"}))
                break
        pawn_promos = [m for m in legal if m.promotion]
        if pawn_promos:
            m = rng.choice(pawn_promos)
            candidates.append((chess.Move(m.from_square, m.to_square).uci(), {"illegal"}))
        # ambiguous SAN: drop the disambiguation of a move that needs it
        for m in legal:
            san = b.san(m)
            piece = b.piece_at(m.from_square)
            if piece.piece_type in (chess.PAWN, chess.KING) or m.promotion:
                continue
            body = san.rstrip("+#")
            plain = body[0] + ("x" if "x" in body else "") + chess.square_name(m.to_square)
            if plain != body:
                candidates.append((plain, {"ambiguous"}))
                break
        # illegal English SAN: a piece letter that no such piece can play
        for letter, pt in (("R", chess.ROOK), ("N", chess.KNIGHT), ("B", chess.BISHOP), ("Q", chess.QUEEN), ("K", chess.KING)):
            sq = rng.choice(chess.SQUARES)
            if not any(mv.to_square == sq and b.piece_type_at(mv.from_square) == pt for mv in legal):
                occupied = b.piece_at(sq) is not None
                candidates.append((f"{letter}{'x' if occupied else ''}{chess.square_name(sq)}", {"illegal"}))
        candidates.append((rng.choice(["Zz9", "e9", "Nf", "xx", "e2e", "a1a1a", "O-O-O-O", "Ke0"]), {"malformed", "illegal"}))
        text, kinds = rng.choice(candidates)
        cmd = ["replay", *case.start_args, "--rules", case.rules, "--", *prefix, text]
        code, out, _ = self.run(cmd)
        self.expect_error(case.index, cmd, code, out, len(prefix) + 1, text, kinds, f"refused {text!r}")

    @staticmethod
    def _castle_alias(b: chess.Board, m: chess.Move) -> bool:
        """Whether `m` could be read as castling (e1g1 in a Chess960 game, king-takes-rook)."""
        p = b.piece_at(m.from_square)
        return p is not None and p.piece_type == chess.KING and chess.square_rank(m.from_square) == chess.square_rank(m.to_square)

    # -- one game --------------------------------------------------------------

    def features(self, case: Case) -> None:
        if case.start.ep_square is not None and case.moves:
            ref = Ref(case.start)
            for m in case.moves:
                ref.push(m)
            if ref.keys.count(ref.keys[0]) > 1:
                legal = "capturable" if case.start.has_legal_en_passant() else "not capturable"
                self.stats.count(self.stats.features, f"start with e.p. square ({legal}) repeated")
        b = case.start.copy(stack=False)
        for m in case.moves:
            if b.is_en_passant(m):
                self.stats.count(self.stats.features, "en passant captures")
            if b.is_castling(m):
                self.stats.count(self.stats.features, "castlings")
                if case.chess960:
                    self.stats.count(self.stats.features, "Chess960 castlings")
            if m.promotion:
                self.stats.count(self.stats.features, "promotions")
                if m.promotion != chess.QUEEN:
                    self.stats.count(self.stats.features, "under-promotions")
            if b.gives_check(m):
                self.stats.count(self.stats.features, "checks")
            b.push(m)

    def game(self, case: Case) -> None:
        rng = random.Random(f"plyyard-crosscheck-checks:{self.seed}:{case.index}")
        self.stats.games += 1
        self.stats.count(self.stats.features, f"start: {case.kind}")
        self.features(case)
        other = "fide" if case.rules == "plyyard" else "plyyard"
        self.replay(case, case.moves, case.rules, "uci", f"uci {case.rules}")
        self.replay(case, case.moves, other, "san", f"san {other}")
        if case.kind == "ep":
            # the start is the interesting position: e.p. legal, pinned or absent
            self.replay(case, [], rng.choice(RULESETS), "uci", "start")
            self.perft(case, rng, cut=0)
        for _ in range(2):
            if case.moves:
                cut = rng.randrange(len(case.moves))
                self.replay(case, case.moves[:cut], rng.choice(RULESETS), rng.choice(["uci", "san"]), f"prefix {cut}")
        self.bad_moves(case, rng)

    # -- perft -----------------------------------------------------------------

    def perft(self, case: Case, rng: random.Random, cut: int | None = None) -> None:
        ref = Ref(case.start)
        if cut is None:
            cut = rng.choice([0, rng.randint(0, len(case.moves))])
        for m in case.moves[:cut]:
            ref.push(m)
        b = ref.board
        depth = rng.choice([2, 2, 3])
        if cut == 0 and case.kind == "chess960":
            start = case.start_args
        else:
            fen = b.shredder_fen() if case.chess960 and rng.random() < 0.5 else b.fen()
            start = ["--fen", fen]
            b = chess.Board(fen, chess960=fen_mode(fen))
        cmd = ["perft", *start, "--depth", str(depth), "--divide"]
        code, out, err = self.run(cmd)
        want = {}
        for m in b.legal_moves:
            uci = b.uci(m)
            b.push(m)
            want[uci] = perft_count(b, depth - 1)
            b.pop()
        self.stats.perft_positions += 1
        self.stats.perft_nodes += sum(want.values())
        if code != 0:
            self.differ("perft-refused", case.index, f"perft exit {code}: {err.strip()}", cmd)
            return
        got = {}
        lines = out.strip().splitlines()
        for line in lines[:-1]:
            if ":" in line:
                k, v = line.split(":")
                got[k.strip()] = int(v)
        total = int(lines[-1]) if lines else -1
        if got != want or total != sum(want.values()):
            diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)}
            self.differ("perft", case.index, f"depth {depth} total ours {total} ref {sum(want.values())}; (ours, ref) {diff}", cmd)

    # -- PGN -------------------------------------------------------------------

    def pgn(self, cases: list[Case]) -> None:
        """Export the games with python-chess, normalise them with `plyyard pgn
        export`, read the result back with python-chess."""
        buf = io.StringIO()
        wanted = []
        for c in cases:
            g = chess.pgn.Game()
            board = c.start.copy(stack=False)
            g.setup(board)
            if c.chess960:
                g.headers["Variant"] = "Chess960"
            g.headers["Event"] = f"Cross-check {c.index}"
            g.headers["Site"] = "Ply Yard"
            g.headers["Date"] = "2026.11.29"
            g.headers["Round"] = str(c.index)
            g.headers["White"] = "Alpha, A."
            g.headers["Black"] = "Beta, B."
            exp = expected_replay(c.start, c.moves, "fide")
            moves = c.moves
            if exp[0] == "error":
                moves = c.moves[: exp[1] - 1]
                exp = expected_replay(c.start, moves, "fide")
            rng = random.Random(f"plyyard-crosscheck-pgn:{self.seed}:{c.index}")
            result = exp[1]["result"]
            if result == "*" and rng.random() < 0.4:
                result = rng.choice(["1-0", "0-1", "1/2-1/2"])  # resignation, agreement, time
            g.headers["Result"] = result
            clocks = rng.random() < 0.5
            clock_values = []
            node = g
            b = c.start.copy(stack=False)
            for m in moves:
                # side lines, comments and NAGs must be skipped by the importer
                if rng.random() < 0.05:
                    node.comment = (node.comment + " a comment (with brackets?)").strip()
                main = node.add_variation(m)
                if rng.random() < 0.05:
                    others = [x for x in b.legal_moves if x != m]
                    if others:
                        side = node.add_variation(rng.choice(others))
                        side.comment = "a side line"
                node = main
                b.push(m)
                if rng.random() < 0.05:
                    node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
                if clocks:
                    value = rng.randrange(0, 36000) + rng.choice([0, 0, 0.5, 0.25])
                    node.set_clock(value)
                    clock_values.append(value)
            print(g, file=buf, end="\n\n")
            wanted.append((c, g.headers, moves, clock_values))
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(buf.getvalue())
            path = f.name
        try:
            # Milliseconds: the clocks are compared to python-chess's exactly.
            code, out, err = self.run(["pgn", "export", "--clock-precision", "ms", path])
        finally:
            keep = os.environ.get("CROSSCHECK_KEEP_PGN")
            if not keep:
                os.unlink(path)
        if code != 0:
            self.differ("pgn-export", None, f"exit {code}: {err.strip()[:500]}", ["pgn", "export", "--clock-precision", "ms", path])
            return
        stream = io.StringIO(out)
        for c, headers, moves, clock_values in wanted:
            got = chess.pgn.read_game(stream)
            self.stats.pgn_games += 1
            if got is None:
                self.differ("pgn-missing", c.index, "game missing from the export")
                return
            if got.errors:
                self.differ("pgn-parse", c.index, f"python-chess cannot read our export: {got.errors[0]}")
            got_moves = [m for m in got.mainline_moves()]
            if got_moves != moves:
                self.differ("pgn-moves", c.index, f"moves differ after export ({len(got_moves)} vs {len(moves)})")
            elif clock_values:
                got_clocks = [n.clock() for n in got.mainline()]
                bad = [(i, a, b) for i, (a, b) in enumerate(zip(got_clocks, clock_values)) if a is None or abs(a - b) > 0.0011]
                if bad or len(got_clocks) != len(clock_values):
                    self.differ("pgn-clock", c.index, f"clocks (ply, ours, ref) {bad[:3]}")
            for k in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "SetUp", "Variant"):
                want = headers.get(k)
                if k == "Variant" and want is None:
                    continue
                if got.headers.get(k) != want and not (k in ("FEN", "SetUp") and want is None):
                    self.differ("pgn-header", c.index, f"{k}: ours {got.headers.get(k)!r} ref {want!r}")
            if list(got.headers.keys())[:7] != ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:
                self.differ("pgn-str", c.index, f"Seven Tag Roster order: {list(got.headers.keys())[:7]}")

    def pgn_check(self, cases: list[Case]) -> None:
        """`plyyard pgn check` on the games written one move a line, some with
        one move replaced by an illegal one: exactly those games are reported,
        each with its number, the line and the move."""
        lines: list[str] = []
        bad: dict[int, tuple[int, str]] = {}
        for n, c in enumerate(cases, start=1):
            rng = random.Random(f"plyyard-crosscheck-pgncheck:{self.seed}:{c.index}")
            exp = expected_replay(c.start, c.moves, "fide")
            moves = c.moves if exp[0] == "ok" else c.moves[: exp[1] - 1]
            lines.append(f'[Event "Check {c.index}"]')
            if c.chess960:
                lines.append('[Variant "Chess960"]')
            if c.start.fen() != chess.STARTING_FEN or c.chess960:
                lines += ['[SetUp "1"]', f'[FEN "{c.start.fen()}"]']
            lines.append("")
            corrupt = rng.randrange(len(moves)) if moves and rng.random() < 0.15 else None
            b = c.start.copy(stack=False)
            for k, m in enumerate(moves):
                number = f"{b.fullmove_number}{'.' if b.turn == chess.WHITE else '...'} "
                san = b.san(m)
                if k == corrupt:
                    for other in (x for x in self._other_sans(c, k, rng)):
                        try:
                            b.parse_san(other)
                        except ValueError as e:
                            if "ambiguous" not in str(e):
                                san = other
                                bad[n] = (len(lines) + 1, other)
                                break
                lines.append(number + san)
                if k == corrupt and n in bad:
                    break
                b.push(m)
            lines.append("*")
            lines.append("")
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write("\n".join(lines) + "\n")
            path = f.name
        try:
            code, out, err = self.run(["pgn", "check", path])
        finally:
            if not os.environ.get("CROSSCHECK_KEEP_PGN"):
                os.unlink(path)
        self.stats.pgn_check_games += len(cases)
        self.stats.pgn_check_bad += len(bad)
        reported: dict[int, str] = {}
        for line in out.splitlines():
            if line.startswith(path + ": game "):
                rest = line[len(path) + 7 :]
                reported[int(rest.split(",")[0])] = rest
        summary = f"{len(cases)} games: {len(cases) - len(bad)} valid, {len(bad)} with errors"
        if code != (1 if bad else 0) or summary not in out:
            self.differ("pgn-check", None, f"exit {code}, want summary {summary!r}: {out.strip()[-300:]}", ["pgn", "check", path])
        for n in sorted(set(bad) | set(reported)):
            if n not in bad:
                self.differ("pgn-check", cases[n - 1].index, f"game {n} reported but valid: {reported[n]}")
            elif n not in reported:
                self.differ("pgn-check", cases[n - 1].index, f"game {n} not reported (bad move {bad[n][1]!r} on line {bad[n][0]})")
            else:
                line_no, mv = bad[n]
                if f"line {line_no}," not in reported[n] or f'"{mv}"' not in reported[n]:
                    self.differ("pgn-check", cases[n - 1].index, f"game {n}: want line {line_no} move {mv!r}, got {reported[n]}")

    def _other_sans(self, c: Case, k: int, rng: random.Random) -> list[str]:
        """SAN of moves from other points of the game, likely illegal at ply k."""
        b = c.start.copy(stack=False)
        sans = []
        for m in c.moves:
            sans.append(b.san(m).rstrip("+#"))
            b.push(m)
        rng.shuffle(sans)
        return sans[:20] + ["Ke9", "Qxh8", "Nxa1", "Rd4", "Bb5"]

    def san_all(self, seed: int, count: int) -> None:
        """SAN of every legal move of crowded random positions (several
        queens, rooks, knights, bishops of one colour, pins): each move is a
        one-move game given to `plyyard pgn export`, whose SAN must equal
        python-chess's (disambiguation by file, rank, both; pinned pieces do
        not count; `+`/`#`; `=Q`)."""
        rng = random.Random(f"plyyard-crosscheck-san:{seed}")
        games: list[str] = []
        want: list[tuple[str, str]] = []
        for _ in range(count):
            b = crowded_position(rng)
            fen = b.fen()
            number = f"{b.fullmove_number}{'.' if b.turn == chess.WHITE else '...'}"
            for m in b.legal_moves:
                san = b.san(m)
                games.append(f'[Event "?"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{number} {san} *\n')
                want.append((fen, san))
        if not games:
            return
        code, out, err = self.run(["pgn", "export", "-"], stdin="\n".join(games))
        self.stats.san_positions += count
        self.stats.san_moves += len(want)
        if code != 0:
            self.differ("san-all", None, f"pgn export exit {code}: {err.strip()[:300]}")
            return
        got = []
        for block in out.split("\n\n"):
            block = block.strip()
            if block and not block.startswith("["):
                tokens = [t for t in block.split() if not t[0].isdigit() and t != "*"]
                got.append(" ".join(tokens))
        if len(got) != len(want):
            self.differ("san-all", None, f"{len(got)} games exported, {len(want)} given")
            return
        for (fen, san), ours in zip(want, got):
            if ours != san:
                self.differ("san-all", None, f"{fen}: ours {ours!r} ref {san!r}", ["replay", "--fen", fen, san])
        # Other spellings python-chess reads: long algebraic (Qe3xf2+, e2-e4),
        # SAN without its check mark, fully disambiguated SAN.
        for fen, san in rng.sample(want, min(len(want), count // 3)):
            b = chess.Board(fen)
            m = b.parse_san(san)
            piece = b.piece_type_at(m.from_square)
            forms = [b.lan(m), san.rstrip("+#")]
            if piece not in (chess.PAWN, chess.KING):
                mark = san[len(san.rstrip("+#")) :]
                capture = "x" if b.is_capture(m) else ""
                forms.append(f"{san[0]}{chess.square_name(m.from_square)}{capture}{chess.square_name(m.to_square)}{mark}")
            text = rng.choice(forms)
            cmd = ["replay", "--fen", fen, text]
            code, out, _ = self.run(cmd)
            self.stats.san_spellings += 1
            try:
                got_san = json.loads(out)["san"] if code == 0 else None
            except (json.JSONDecodeError, KeyError):
                got_san = None
            if got_san != [san]:
                self.differ("san-spelling", None, f"{fen}: {text!r} (for {san}): exit {code} {out.strip()[:150]}", cmd)

    # -- set-up ----------------------------------------------------------------

    def chess960_numbers(self, numbers) -> None:
        for n in numbers:
            cmd = ["replay", "--chess960", str(n)]
            code, out, _ = self.run(cmd)
            self.stats.c960_numbers += 1
            want = chess.Board.from_chess960_pos(n)
            try:
                got = json.loads(out)["fen"]
            except (json.JSONDecodeError, KeyError):
                self.differ("chess960-number", None, f"#{n}: exit {code} {out[:200]!r}", cmd)
                continue
            if got != want.fen():
                self.differ("chess960-number", None, f"#{n}: ours {got} ref {want.fen()}", cmd)
        for bad in ("960", "-1", "x"):
            code, out, _ = self.run(["replay", "--chess960", bad])
            if code == 0:
                self.differ("chess960-number", None, f"--chess960 {bad} accepted", ["replay", "--chess960", bad])

    def setups(self, seed: int, count: int) -> None:
        """Random placements, legal or not: we must accept exactly the valid ones."""
        rng = random.Random(f"plyyard-crosscheck-setup:{seed}")
        for _ in range(count):
            b = chess.Board(None)
            for _ in range(rng.randint(0, 12) if rng.random() < 0.7 else rng.randint(12, 30)):
                b.set_piece_at(rng.choice(chess.SQUARES), chess.Piece(rng.choice(chess.PIECE_TYPES), rng.choice(chess.COLORS)))
            for color in chess.COLORS:
                if rng.random() < 0.9:
                    b.set_piece_at(rng.choice(chess.SQUARES), chess.Piece(chess.KING, color))
            b.turn = rng.choice(chess.COLORS)
            fen = b.fen()
            if rng.random() < 0.4:
                # castling and en passant fields, right or wrong, on a sparse board
                b = chess.Board(None)
                b.turn = rng.choice(chess.COLORS)
                for _ in range(rng.randint(0, 6)):
                    sq = chess.square(rng.randrange(8), rng.randint(1, 6))
                    b.set_piece_at(sq, chess.Piece(rng.choice(chess.PIECE_TYPES[:-1]), rng.choice(chess.COLORS)))
                for color, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
                    king_file = 4 if rng.random() < 0.6 else rng.randint(1, 6)
                    b.set_piece_at(chess.square(king_file, rank), chess.Piece(chess.KING, color))
                    for f in rng.sample(range(8), rng.randint(0, 3)):
                        if f != king_file:
                            b.set_piece_at(chess.square(f, rank), chess.Piece(chess.ROOK, color))
                castling = rng.choice(["-", "KQkq", "KQ", "kq", "K", "Qk", "HAha", "BGbg", "Hh", "Aa", "Ckq", "KQkqK"])
                ep = rng.choice(["-", "-", "e3", "d6", "a6", "h3", "c4", "e6"])
                fen = f"{b.board_fen()} {'w' if b.turn else 'b'} {castling} {ep} 0 1"
                if rng.random() < 0.5:
                    # every right the placement allows, as X-FEN or Shredder-FEN
                    cb = chess.Board(f"{b.board_fen()} {'w' if b.turn else 'b'} - - 0 1", chess960=True)
                    cb.castling_rights = cb.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
                    cb.castling_rights = cb.clean_castling_rights()
                    fen = cb.shredder_fen() if rng.random() < 0.3 else cb.fen()
            cmd = ["replay", "--fen", fen]
            code, out, _ = self.run(cmd)
            self.stats.setups += 1
            try:
                b = chess.Board(fen, chess960=True)
                if not b.has_chess960_castling_rights():
                    b = chess.Board(fen)
                ok = b.is_valid()
            except ValueError:
                ok = False
            self.stats.count(self.stats.features, "set-ups valid" if ok else "set-ups invalid")
            if ok and code != 0 and "cannot have arisen" in out and impossible_double_check(b):
                self.stats.count(self.stats.features, "set-ups: impossible double check refused (python-chess accepts)")
                continue
            field = fen.split()[2]
            named = 0 if field == "-" else len(field)
            if ok and code != 0 and "castling rights do not match" in out and named > len(chess.SquareSet(b.castling_rights)):
                self.stats.count(self.stats.features, "set-ups: castling letter with no rook refused (python-chess drops it)")
                continue
            if ok and code != 0 and "more material than a game can have" in out and too_much_material(b):
                self.stats.count(self.stats.features, "set-ups: more promoted pieces than missing pawns refused (python-chess accepts)")
                continue
            if ok != (code == 0):
                self.differ("setup", None, f"{fen}: ours {'accepts' if code == 0 else 'refuses'}, python-chess status {b.status()!r}", cmd)
            elif ok:
                # accepted by both: the whole summary must agree (castling with
                # random attackers, e.p. fields, positions already decided)
                want = Ref(b).summary("plyyard")
                got = json.loads(out)
                for k, v in want.items():
                    if got.get(k) != v:
                        self.differ("setup-summary", None, f"{fen}: {k}: ours {got.get(k)!r} ref {v!r}", cmd)
                if any(b.is_castling(m) for m in b.legal_moves):
                    self.stats.count(self.stats.features, "set-ups with a legal castling")


def crowded_position(rng: random.Random) -> chess.Board:
    """A legal position with several pieces of the same kind on one side."""
    while True:
        b = chess.Board(None)
        b.set_piece_at(rng.choice(chess.SQUARES), chess.Piece(chess.KING, chess.WHITE))
        sq = rng.choice([x for x in chess.SQUARES if b.piece_at(x) is None])
        b.set_piece_at(sq, chess.Piece(chess.KING, chess.BLACK))
        us = rng.choice(chess.COLORS)
        for pt in rng.sample([chess.QUEEN, chess.ROOK, chess.KNIGHT, chess.BISHOP], 2):
            for _ in range(rng.randint(2, 4)):
                sq = rng.choice(chess.SQUARES)
                if b.piece_at(sq) is None:
                    b.set_piece_at(sq, chess.Piece(pt, us))
        for _ in range(rng.randint(0, 4)):
            pt = rng.choice([chess.PAWN, chess.ROOK, chess.BISHOP, chess.QUEEN, chess.KNIGHT])
            sq = rng.choice(chess.SQUARES)
            if b.piece_at(sq) is None and not (pt == chess.PAWN and chess.square_rank(sq) in (0, 7)):
                b.set_piece_at(sq, chess.Piece(pt, rng.choice(chess.COLORS)))
        b.turn = us
        b.fullmove_number = rng.randint(20, 80)
        if (
            b.is_valid()
            and not impossible_double_check(b)
            and not b.is_insufficient_material()
            and any(b.legal_moves)
        ):
            return b


def impossible_double_check(b: chess.Board) -> bool:
    """Two checkers that are both knights or pawns: no single move gives that
    (only a slider's check can be discovered). python-chess's validity test
    does not look for it; shakmaty's does."""
    checkers = list(b.checkers())
    return len(checkers) == 2 and all(b.piece_type_at(sq) in (chess.KNIGHT, chess.PAWN) for sq in checkers)


def too_much_material(b: chess.Board) -> bool:
    """A side has more pieces beyond the starting set (counting bishops per
    square colour) than it has missing pawns: no game reaches that."""
    for color in chess.COLORS:
        extra = (
            max(0, len(b.pieces(chess.QUEEN, color)) - 1)
            + max(0, len(b.pieces(chess.ROOK, color)) - 2)
            + max(0, len(b.pieces(chess.KNIGHT, color)) - 2)
            + max(0, len(b.pieces(chess.BISHOP, color) & chess.BB_LIGHT_SQUARES) - 1)
            + max(0, len(b.pieces(chess.BISHOP, color) & chess.BB_DARK_SQUARES) - 1)
        )
        if len(b.pieces(chess.PAWN, color)) + extra > 8:
            return True
    return False


def perft_count(b: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return b.legal_moves.count()
    n = 0
    for m in b.legal_moves:
        b.push(m)
        n += perft_count(b, depth - 1)
        b.pop()
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="number of random games (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    ap.add_argument("--game", type=int, help="check only this game index (reproduce a difference)")
    ap.add_argument("--bin", default=DEFAULT_BIN, help="plyyard binary (default target/debug/plyyard)")
    ap.add_argument("--perft-every", type=int, default=10, help="perft on one position of every Nth game (0: never)")
    ap.add_argument("--chess960-numbers", type=int, default=60, help="how many --chess960 numbers to check (960: all)")
    ap.add_argument("--setups", type=int, default=100, help="random set-ups checked for acceptance")
    ap.add_argument("--san-positions", type=int, default=100, help="crowded positions whose every move's SAN is compared")
    ap.add_argument("--max-report", type=int, default=15, help="differences printed in full")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each difference as found, and each game")
    a = ap.parse_args()
    if not os.path.exists(a.bin):
        print(f"{a.bin} not found: run `cargo build -p plyyard` first", file=sys.stderr)
        return 2
    ck = Checker(a.bin, a.seed, a.max_report, a.verbose)
    t0 = time.time()
    indices = [a.game] if a.game is not None else range(a.first, a.first + a.games)
    cases = []
    for n, i in enumerate(indices):
        if n and n % 500 == 0:
            print(f"… {n} games, {ck.diff_count} differences, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        case = make_case(a.seed, i)
        if a.verbose:
            print(f"game {i}: {case.desc}, {case.style}, {case.rules}, {len(case.moves)} plies, start {shlex.join(case.start_args) or '(standard)'}", file=sys.stderr)
        ck.game(case)
        if a.perft_every and (i % a.perft_every == 0 or a.game is not None):
            ck.perft(case, random.Random(f"plyyard-crosscheck-perft:{a.seed}:{i}"))
        cases.append(case)
    for j in range(0, len(cases), 500):
        ck.pgn(cases[j : j + 500])
        ck.pgn_check(cases[j : j + 500])
    if a.game is None:
        rng = random.Random(f"plyyard-crosscheck-960:{a.seed}")
        numbers = range(960) if a.chess960_numbers >= 960 else rng.sample(range(960), a.chess960_numbers)
        ck.chess960_numbers(numbers)
        ck.setups(a.seed, a.setups)
        ck.san_all(a.seed, a.san_positions)
    s = ck.stats
    print(f"crosscheck seed {a.seed}: {s.games} games, {s.replays} replays, {s.positions} final positions compared "
          f"({s.moves} moves, {s.legal_moves} legal moves), {s.errors_checked} refusals, "
          f"{s.perft_positions} perft positions ({s.perft_nodes} nodes), {s.pgn_games} PGN games exported, "
          f"{s.pgn_check_games} checked ({s.pgn_check_bad} with an illegal move), "
          f"{s.c960_numbers} Chess960 numbers, {s.setups} set-ups, "
          f"SAN of all {s.san_moves} moves of {s.san_positions} crowded positions ({s.san_spellings} other spellings); {time.time() - t0:.0f} s")
    print("endings seen: " + ", ".join(f"{k} {v}" for k, v in sorted(s.reasons.items())))
    print("in the games: " + ", ".join(f"{k} {v}" for k, v in sorted(s.features.items())))
    if ck.diff_count:
        print(f"{ck.diff_count} DIFFERENCES: " + ", ".join(f"{k} {v}" for k, v in sorted(ck.categories.items())))
        for d in ck.diffs:
            print(d)
        return 1
    print("no differences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
