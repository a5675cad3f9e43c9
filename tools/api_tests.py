#!/usr/bin/env python3
"""The Lichess-compatible API driven by berserk, a real lichess client.

    pip install berserk==0.14.0
    python3 tools/api_tests.py [--bin target/debug/plyyard] [-v]

Starts its own server (`plyyard serve` on 127.0.0.1, a free port, SQLite in
a temporary folder, challenges expiring after 8 s), signs accounts up over
HTTP, makes their tokens with `plyyard token create`, and checks, through
berserk wherever berserk has the call: a Board-API game between two
accounts (challenge, accept, event and game streams, moves, a draw offered
with a move and accepted; `offer_draw`, `decline_draw` and `accept_draw` as
on lichess: offered after one's move and seen at once, declined and gone,
held on one's turn for the next move, offered again and accepted), bots
(upgrade, challenge, accept, a game played to mate through `bots.*`),
challenge decline / cancel / expiry, clubs (`teams.*`: open and closed,
requests, kicks, lists), puzzles (`puzzles.*` and the batch API over
lichess's sample, imported with `plyyard puzzles import`), an Arena
(`tournaments.*`: created to start in 2 s, joined by two accounts whose
event streams both get the game, played to mate, the winner's 2 points in
the results, terminate refused to another), relations (`relations.*`:
follow, the NDJSON list, unfollow; a block through `requests`, after which
the blocked player's follow and challenge are refused), private messages
(`messaging.send`, and `GET /inbox/{username}` as JSON: a new account's
message to a stranger, to oneself, too long, or to a player who blocks
one refused), the streams'
keep-alive and order, `oauth.test_tokens`, and the OAuth PKCE flow (plain
`requests`, as an app does it). The server and the temporary folder are
removed on any exit. Every stream read has a deadline, so that a server that
stops talking fails a test instead of hanging it.
"""

import argparse
import base64
import datetime
import hashlib
import http.client
import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

import berserk
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("PLYYARD_BIN", os.path.join(ROOT, "target", "debug", "plyyard"))
PASSWORD = "correct horse battery staple"
BOARD_SCOPES = "board:play,challenge:read,challenge:write"
CHALLENGE_TTL_SECS = 8
# Every read from a stream waits at most this long.
WAIT = 15.0
# The whole run's deadline: past it the run fails (and still cleans up).
RUN_DEADLINE_SECS = 150


class Server:
    """A `plyyard serve` child process on a free loopback port with its own
    SQLite database in a temporary folder."""

    def __init__(self, binary):
        self.binary = binary
        self.dir = tempfile.mkdtemp(prefix="plyyard-api-tests.")
        self.db = f"sqlite://{self.dir}/api.db"
        self.log_path = os.path.join(self.dir, "server.log")
        self.proc = None
        self.base = None

    def start(self):
        """Starts the server; returns once it listens."""
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--addr", "127.0.0.1:0", "--db", self.db,
             "--challenge-ttl-secs", str(CHALLENGE_TTL_SECS), "--limit-signups-per-hour", "100",
             # Every class creates its tournaments from 127.0.0.1, more than one
             # address may in a day by default (12); the limit is the server's
             # own tests' to check.
             "--limit-tournaments-per-day", "100",
             "--engine-workers", "1"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True)
        found = queue.Queue()

        def drain():
            with open(self.log_path, "w", encoding="utf-8") as log:
                for raw in self.proc.stderr:
                    line = raw.decode("utf-8", "replace")
                    log.write(line)
                    log.flush()
                    m = re.search(r"listening on (http://[0-9.:]+)", line)
                    if m:
                        found.put(m.group(1))
            found.put(None)

        threading.Thread(target=drain, daemon=True).start()
        try:
            self.base = found.get(timeout=60)
        except queue.Empty:
            self.base = None
        if not self.base:
            raise RuntimeError("the server did not start:\n" + self.log())

    def log(self):
        """The server's log so far."""
        try:
            with open(self.log_path, encoding="utf-8") as f:
                return f.read()[-6000:]
        except OSError:
            return ""

    def token(self, user, scopes, description="api tests"):
        """A new personal token of `user` (`plyyard token create`)."""
        out = subprocess.run(
            [self.binary, "token", "create", "--db", self.db, "--user", user, "--scopes", scopes,
             "--description", description],
            capture_output=True, text=True, timeout=60, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"token create failed: {out.stderr}")
        token = out.stdout.strip()
        assert token.startswith("lip_"), token
        return token

    def stop(self):
        """Stops the server (its whole process group) and removes the
        temporary folder."""
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


SERVER = None


def web(name):
    """A new account `name`, signed up over HTTP: its logged-in session
    (cookies; requests carry the site's Origin as the web app's do)."""
    s = requests.Session()
    s.headers["Origin"] = SERVER.base
    r = s.post(SERVER.base + "/api/account/signup", json={"username": name, "password": PASSWORD}, timeout=30)
    assert r.status_code in (200, 201), (r.status_code, r.text)
    return s


def client(token):
    """A berserk client with `token` against the test server."""
    return berserk.Client(berserk.TokenSession(token), base_url=SERVER.base)


def player(name, scopes=BOARD_SCOPES):
    """A new account and a berserk client with a token of `scopes`."""
    web(name)
    token = SERVER.token(name, scopes)
    return client(token), token


class Feed:
    """The lines of a berserk stream, read by a thread, each awaited with a
    deadline (`next`), keeping what was seen (`seen`)."""

    def __init__(self, iterator):
        self.q = queue.Queue()
        self.seen = []
        self.ended = False

        def pump():
            try:
                for item in iterator:
                    self.q.put(("line", item))
            except Exception as e:  # noqa: BLE001 - handed to the reader
                self.q.put(("error", e))
            self.q.put(("end", None))

        threading.Thread(target=pump, daemon=True).start()

    def next(self, timeout=WAIT):
        """The next line; None once the stream ended."""
        if self.ended:
            return None
        try:
            kind, item = self.q.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout} s; seen so far: {self.seen}") from None
        if kind == "error":
            raise item
        if kind == "end":
            self.ended = True
            return None
        self.seen.append(item)
        return item

    def until(self, pred, timeout=WAIT, what="a line"):
        """The first line meeting `pred`, the lines passed over before it."""
        deadline = time.monotonic() + timeout
        skipped = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} within {timeout} s; passed over {skipped}")
            line = self.next(left)
            if line is None:
                raise AssertionError(f"the stream ended before {what}; passed over {skipped}")
            if pred(line):
                return line, skipped
            skipped.append(line)

    def state(self):
        """The next `gameState`, passing over `opponentGone` lines."""
        line, _ = self.until(lambda l: l.get("type") != "opponentGone", what="a gameState")
        return line

    def end(self, timeout=WAIT):
        """Waits for the stream to close; the lines before the end."""
        rest = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.1, deadline - time.monotonic()))
            if line is None:
                return rest
            rest.append(line)


def is_type(kind, key=None, value=None):
    """A predicate: a line of type `kind` (whose `key` object has `id` or
    `gameId` `value`, when given)."""
    def pred(line):
        if line.get("type") != kind:
            return False
        if key is None:
            return True
        obj = line.get(key) or {}
        return value in (obj.get("id"), obj.get("gameId"))
    return pred


def raw_post(token, path):
    """A POST with `token` outside berserk (for what berserk has no call
    for): the status and the parsed answer."""
    r = requests.post(SERVER.base + path, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    return r.status_code, r.json()


class Base(unittest.TestCase):
    """Names unique to each test, so the tests share one server."""

    def name(self, stem):
        return f"{stem}{secrets.token_hex(3)}"

    def challenge_game(self, a, b, b_name, a_events, b_events, color="white"):
        """`a` challenges `b` (5+3, casual, `a` plays `color`), `b`
        accepts: the game id, once both event streams announced it."""
        c = a.challenges.create(b_name, rated=False, clock_limit=300, clock_increment=3, color=color)
        cid = c["id"]
        self.assertEqual(c["status"], "created")
        self.assertEqual(c["timeControl"]["limit"], 300)
        self.assertEqual(c["timeControl"]["increment"], 3)
        seen, _ = b_events.until(is_type("challenge", "challenge", cid), what="the challenge")
        self.assertEqual(seen["challenge"]["direction"], "in")
        b.challenges.accept(cid)
        for feed in (a_events, b_events):
            start, _ = feed.until(is_type("gameStart", "game", cid), what="gameStart")
            self.assertEqual(start["game"]["gameId"], cid)
        return cid


class Tokens(Base):
    def test_test_tokens_tells_owner_and_scopes(self):
        name = self.name("tok")
        c, token = player(name, "board:play,challenge:read")
        got = c.oauth.test_tokens(token, "lip_doesnotexist0000000000")
        self.assertEqual(got[token]["userId"], name.lower())
        self.assertEqual(set(got[token]["scopes"].split(",")), {"board:play", "challenge:read"})
        self.assertIsNone(got["lip_doesnotexist0000000000"])
        self.assertEqual(c.account.get()["username"], name)

    def test_unknown_token_and_missing_scope_are_refused(self):
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            client("lip_doesnotexist0000000000").account.get()
        self.assertEqual(e.exception.status_code, 401)
        name = self.name("scope")
        c, _ = player(name, "preference:read")
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            c.challenges.create("nobody", rated=False, clock_limit=300, clock_increment=3)
        self.assertEqual(e.exception.status_code, 403)
        self.assertIn("Missing scope", str(e.exception))


class BoardGame(Base):
    def test_board_game_with_draw_by_agreement(self):
        wn, bn = self.name("white"), self.name("black")
        (w, wt), (b, bt) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        gid = self.challenge_game(w, b, bn, w_events, b_events, color="white")
        self.assertIn(gid, [g["gameId"] for g in w.games.get_ongoing()])
        streams = [Feed(c.board.stream_game_state(gid)) for c in (w, b)]
        for s in streams:
            full = s.next()
            self.assertEqual(full["type"], "gameFull")
            self.assertEqual(full["id"], gid)
            self.assertEqual(full["state"]["type"], "gameState")
            self.assertEqual(full["clock"], {"initial": 300000, "increment": 3000})
            self.assertEqual(full["white"]["name"], wn)
            self.assertEqual(full["black"]["name"], bn)
            # berserk turns createdAt into a datetime and a gameState's
            # times (integers in ms) into timedeltas; gameFull's own state
            # it leaves as sent.
            self.assertIsInstance(full["createdAt"], datetime.datetime)
            self.assertEqual(full["state"]["wtime"], 300000)
        played = []
        for i, uci in enumerate(["e2e4", "e7e5", "g1f3"]):
            (w if i % 2 == 0 else b).board.make_move(gid, uci)
            played.append(uci)
            for s in streams:
                st = s.state()
                self.assertEqual((st["type"], st["moves"], st["status"]), ("gameState", " ".join(played), "started"))
                self.assertIsInstance(st["btime"], datetime.timedelta)
        # The same move again is late: refused, never applied twice.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            w.board.make_move(gid, "g1f3")
        self.assertTrue(400 <= e.exception.status_code < 500)
        # Draw offers go with a move (berserk's make_move has no flag for it).
        status, body = raw_post(bt, f"/api/board/game/{gid}/move/b8c6?offeringDraw=true")
        self.assertEqual((status, body), (200, {"ok": True}))
        for s in streams:
            st = s.state()
            self.assertEqual(st["moves"], "e2e4 e7e5 g1f3 b8c6")
            self.assertTrue(st.get("bdraw"), st)
        w.board.accept_draw(gid)
        for s in streams:
            st = s.state()
            self.assertEqual(st["status"], "draw")
            self.assertNotIn("winner", st)
            self.assertEqual(s.end(), [])
        for feed in (w_events, b_events):
            fin, _ = feed.until(is_type("gameFinish", "game", gid), what="gameFinish")
            self.assertEqual(fin["game"]["status"]["name"], "draw")
        exported = w.games.export(gid)
        self.assertEqual((exported["id"], exported["status"]), (gid, "draw"))
        # An account that has played cannot become a bot.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            client(SERVER.token(wn, "bot:play")).account.upgrade_to_bot()
        self.assertEqual(e.exception.status_code, 400)

    def test_game_stream_lines_come_in_order(self):
        wn, bn = self.name("ordw"), self.name("ordb")
        (w, _), (b, _) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        gid = self.challenge_game(w, b, bn, w_events, b_events)
        watcher = Feed(w.board.stream_game_state(gid))
        self.assertEqual(watcher.next()["type"], "gameFull")
        moves = ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7"]
        # Moves sent back to back, without waiting for the stream: each
        # gameState adds exactly the next move.
        for i, uci in enumerate(moves):
            (w if i % 2 == 0 else b).board.make_move(gid, uci)
        for n in range(1, len(moves) + 1):
            self.assertEqual(watcher.state()["moves"], " ".join(moves[:n]))
        b.board.resign_game(gid)
        last = watcher.state()
        self.assertEqual((last["status"], last["winner"]), ("resign", "white"))
        self.assertEqual(watcher.end(), [])
        # A stream opened on a finished game: gameFull, then the end.
        late = Feed(b.board.stream_game_state(gid))
        full = late.next()
        self.assertEqual((full["type"], full["state"]["status"]), ("gameFull", "resign"))
        self.assertEqual(late.end(), [])


    def test_draw_offered_declined_and_accepted_as_on_lichess(self):
        wn, bn = self.name("offw"), self.name("offb")
        (w, _), (b, _) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        gid = self.challenge_game(w, b, bn, w_events, b_events)
        streams = [Feed(c.board.stream_game_state(gid)) for c in (w, b)]
        for s in streams:
            self.assertEqual(s.next()["type"], "gameFull")
        w.board.make_move(gid, "e2e4")
        for s in streams:
            self.assertEqual(s.state()["moves"], "e2e4")
        # Offered after one's own move: seen at once by both.
        w.board.offer_draw(gid)
        for s in streams:
            st = s.state()
            self.assertEqual(st["moves"], "e2e4")
            self.assertTrue(st.get("wdraw"), st)
            self.assertFalse(st.get("bdraw"), st)
        # Declined in words: gone at once.
        b.board.decline_draw(gid)
        for s in streams:
            st = s.state()
            self.assertFalse(st.get("wdraw"), st)
            self.assertEqual(st["status"], "started")
        # Declining with nothing to decline is ok and changes nothing.
        b.board.decline_draw(gid)
        # The declined offer is gone: Black's draw/yes now is Black's own
        # offer, held for its move (it is Black's turn), shown with it.
        b.board.offer_draw(gid)
        b.board.make_move(gid, "e7e5")
        for s in streams:
            st = s.state()
            self.assertEqual(st["moves"], "e2e4 e7e5")
            self.assertTrue(st.get("bdraw"), st)
            self.assertFalse(st.get("wdraw"), st)
        # White plays on: the offer lapses. Offered again by White, a new
        # offer, and accepted by Black through accept_draw.
        w.board.make_move(gid, "g1f3")
        for s in streams:
            st = s.state()
            self.assertFalse(st.get("bdraw"), st)
        w.board.offer_draw(gid)
        for s in streams:
            self.assertTrue(s.state().get("wdraw"))
        b.board.accept_draw(gid)
        for s in streams:
            st = s.state()
            self.assertEqual(st["status"], "draw")
            self.assertEqual(s.end(), [])
        self.assertEqual(w.games.export(gid)["status"], "draw")

    def test_takeback_asked_accepted_declined_and_refused_when_rated(self):
        wn, bn = self.name("tbw"), self.name("tbb")
        (w, wt), (b, _) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        gid = self.challenge_game(w, b, bn, w_events, b_events)
        streams = [Feed(c.board.stream_game_state(gid)) for c in (w, b)]
        for s in streams:
            self.assertEqual(s.next()["type"], "gameFull")
        played = []
        for i, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]):
            (w if i % 2 == 0 else b).board.make_move(gid, uci)
            played.append(uci)
            for s in streams:
                self.assertEqual(s.state()["moves"], " ".join(played))
        # White asks to take back Bc4: both streams show it at once.
        w.board.offer_takeback(gid)
        for s in streams:
            st = s.state()
            self.assertTrue(st.get("wtakeback"), st)
            self.assertFalse(st.get("btakeback"), st)
        # Asking twice is refused; Black accepts: Bc4 is gone, White is to move.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            w.board.offer_takeback(gid)
        self.assertEqual(e.exception.status_code, 400)
        b.board.accept_takeback(gid)
        for s in streams:
            st = s.state()
            self.assertEqual(st["moves"], "e2e4 e7e5 g1f3 b8c6")
            self.assertFalse(st.get("wtakeback"), st)
        w.board.make_move(gid, "f1b5")
        for s in streams:
            self.assertEqual(s.state()["moves"], "e2e4 e7e5 g1f3 b8c6 f1b5")
        # Black, on its turn, asks: its Nc6 and White's Bb5 would go. White declines.
        b.board.offer_takeback(gid)
        for s in streams:
            self.assertTrue(s.state().get("btakeback"))
        w.board.decline_takeback(gid)
        for s in streams:
            st = s.state()
            self.assertFalse(st.get("btakeback"), st)
            self.assertEqual(st["moves"], "e2e4 e7e5 g1f3 b8c6 f1b5")
        # Declining with nothing pending changes nothing; a bad answer is a 400.
        w.board.decline_takeback(gid)
        status, body = raw_json(wt, "POST", f"/api/board/game/{gid}/takeback/maybe")
        self.assertEqual(status, 400)
        # Asked again, and accepted: two plies back, Black to move.
        b.board.offer_takeback(gid)
        self.assertTrue(streams[0].state().get("btakeback"))
        streams[1].state()
        w.board.accept_takeback(gid)
        for s in streams:
            self.assertEqual(s.state()["moves"], "e2e4 e7e5 g1f3")
        w.board.resign_game(gid)
        for s in streams:
            self.assertEqual(s.state()["status"], "resign")
        # After the game: refused.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            b.board.offer_takeback(gid)
        self.assertIn(e.exception.status_code, (400, 409))
        # Never in a rated game.
        c = w.challenges.create(bn, rated=True, clock_limit=300, clock_increment=3, color="white")
        b_events.until(is_type("challenge", "challenge", c["id"]), what="the rated challenge")
        b.challenges.accept(c["id"])
        w_events.until(is_type("gameStart", "game", c["id"]), what="gameStart")
        rated = c["id"]
        for i, uci in enumerate(["e2e4", "e7e5", "g1f3"]):
            (w if i % 2 == 0 else b).board.make_move(rated, uci)
        status, body = raw_json(wt, "POST", f"/api/board/game/{rated}/takeback/yes")
        self.assertEqual(status, 400, body)
        self.assertIn("casual", body["error"])


class Bots(Base):
    def test_bots_upgrade_and_play_to_mate(self):
        an, bn = self.name("botw"), self.name("botb")
        (a, _), (b, _) = player(an, "bot:play"), player(bn, "bot:play")
        for c in (a, b):
            c.account.upgrade_to_bot()
            self.assertEqual(c.account.get()["title"], "BOT")
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            a.account.upgrade_to_bot()
        self.assertEqual(e.exception.status_code, 400)
        a_events = Feed(a.bots.stream_incoming_events())
        b_events = Feed(b.bots.stream_incoming_events())
        deadline = time.monotonic() + WAIT
        while an.lower() not in [u["id"] for u in b.bots.get_online_bots()]:
            self.assertLess(time.monotonic(), deadline, "the bot never showed online")
            time.sleep(0.2)
        c = b.challenges.create(an, rated=False, clock_limit=180, clock_increment=2, color="black")
        cid = c["id"]
        got, _ = a_events.until(is_type("challenge", "challenge", cid), what="the challenge")
        self.assertEqual(got["challenge"]["challenger"]["title"], "BOT")
        a.bots.accept_challenge(cid)
        for feed in (a_events, b_events):
            feed.until(is_type("gameStart", "game", cid), what="gameStart")
        streams = {x: Feed(c.bots.stream_game_state(cid)) for x, c in (("w", a), ("b", b))}
        for s in streams.values():
            full = s.next()
            self.assertEqual((full["type"], full["speed"]), ("gameFull", "blitz"))
            self.assertEqual(full["white"]["title"], "BOT")
        # A bot token cannot use the Board API.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            a.board.make_move(cid, "f2f3")
        self.assertTrue(400 <= e.exception.status_code < 500)
        played = []
        for i, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
            (a if i % 2 == 0 else b).bots.make_move(cid, uci)
            played.append(uci)
            for s in streams.values():
                st = s.state()
                self.assertEqual(st["moves"], " ".join(played))
                self.assertEqual(st["status"], "mate" if len(played) == 4 else "started")
        for s in streams.values():
            self.assertEqual(s.end(), [])
        exported = a.games.export(cid)
        self.assertEqual((exported["status"], exported["winner"]), ("mate", "black"))
        for feed in (a_events, b_events):
            fin, _ = feed.until(is_type("gameFinish", "game", cid), what="gameFinish")
            self.assertEqual(fin["game"]["status"]["name"], "mate")

    def test_board_token_cannot_use_bot_endpoints(self):
        name = self.name("human")
        c, _ = player(name, "board:play,bot:play")
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            list(c.bots.stream_game_state("abcdefgh"))
        self.assertTrue(400 <= e.exception.status_code < 500)


class Challenges(Base):
    def test_decline_with_a_reason(self):
        an, bn = self.name("chal"), self.name("decl")
        (a, _), (b, _) = player(an), player(bn)
        a_events = Feed(a.board.stream_incoming_events())
        c = a.challenges.create(bn, rated=False, clock_limit=600, clock_increment=5)
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            b.challenges.decline(c["id"], reason="notAReason")
        self.assertEqual(e.exception.status_code, 400)
        self.assertIn(c["id"], [x["id"] for x in b.challenges.get_mine()["in"]])
        b.challenges.decline(c["id"], reason="tooSlow")
        got, _ = a_events.until(is_type("challengeDeclined", "challenge", c["id"]), what="challengeDeclined")
        self.assertEqual(got["challenge"]["status"], "declined")
        self.assertEqual(got["challenge"]["declineReasonKey"].lower(), "tooslow")
        self.assertEqual(b.challenges.get_mine()["in"], [])
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            b.challenges.accept(c["id"])
        self.assertEqual(e.exception.status_code, 400)

    def test_cancel(self):
        an, bn = self.name("canc"), self.name("cdest")
        (a, _), (b, _) = player(an), player(bn)
        b_events = Feed(b.board.stream_incoming_events())
        c = a.challenges.create(bn, rated=False, clock_limit=300, clock_increment=3)
        b_events.until(is_type("challenge", "challenge", c["id"]), what="the challenge")
        self.assertEqual([x["id"] for x in a.challenges.get_mine()["out"]], [c["id"]])
        a.challenges.cancel(c["id"])
        got, _ = b_events.until(is_type("challengeCanceled", "challenge", c["id"]), what="challengeCanceled")
        self.assertEqual(got["challenge"]["status"], "canceled")
        self.assertEqual(a.challenges.get_mine()["out"], [])

    def test_challenge_expires_without_its_challenger(self):
        an, bn = self.name("gone"), self.name("wait")
        (a, _), (b, _) = player(an), player(bn)
        b_events = Feed(b.board.stream_incoming_events())
        started = time.monotonic()
        c = a.challenges.create(bn, rated=False, clock_limit=300, clock_increment=3)
        got, _ = b_events.until(is_type("challengeCanceled", "challenge", c["id"]),
                                timeout=CHALLENGE_TTL_SECS + 15, what="the expiry")
        self.assertGreaterEqual(time.monotonic() - started, CHALLENGE_TTL_SECS - 1)
        self.assertEqual(got["challenge"]["status"], "offline")
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            b.challenges.accept(c["id"])
        self.assertEqual(e.exception.status_code, 400)

    def test_challenge_to_oneself_or_nobody(self):
        name = self.name("self")
        a, _ = player(name)
        for dest, status in ((name, 400), ("nosuchplayer42", 404)):
            with self.assertRaises(berserk.exceptions.ResponseError) as e:
                a.challenges.create(dest, rated=False, clock_limit=300, clock_increment=3)
            self.assertEqual(e.exception.status_code, status)


TEAM_SCOPES = "team:read,team:write,team:lead"


class Clocks(Base):
    def test_bullet_challenge_game_is_rated_bullet(self):
        an, bn = self.name("bul"), self.name("let")
        (a, _), (b, _) = player(an), player(bn)
        a_events = Feed(a.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        c = a.challenges.create(bn, rated=True, clock_limit=60, clock_increment=0, color="white")
        cid = c["id"]
        self.assertEqual(c["speed"], "bullet")
        self.assertEqual(c["perf"]["name"], "Bullet")
        self.assertEqual(c["timeControl"], {"type": "clock", "limit": 60, "increment": 0, "show": "1+0"})
        b_events.until(is_type("challenge", "challenge", cid), what="the challenge")
        b.challenges.accept(cid)
        for feed in (a_events, b_events):
            feed.until(is_type("gameStart", "game", cid), what="gameStart")
        stream = Feed(a.board.stream_game_state(cid))
        full = stream.next()
        self.assertEqual(full["clock"], {"initial": 60000, "increment": 0})
        self.assertEqual((full["speed"], full["perf"]["name"], full["rated"]), ("bullet", "Bullet", True))
        played = []
        for i, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
            (a if i % 2 == 0 else b).board.make_move(cid, uci)
            played.append(uci)
            st = stream.state()
            self.assertEqual(st["moves"], " ".join(played))
            # No increment: the clocks only go down from a minute.
            self.assertLessEqual(st["wtime"], datetime.timedelta(minutes=1))
            self.assertLessEqual(st["btime"], datetime.timedelta(minutes=1))
        a.board.resign_game(cid)
        st = stream.state()
        self.assertEqual((st["status"], st["winner"]), ("resign", "black"))
        exported = a.games.export(cid)
        self.assertEqual((exported["speed"], exported["perf"]), ("bullet", "bullet"))
        self.assertEqual((exported["clock"]["initial"], exported["clock"]["increment"]), (60, 0))
        # The rated bullet game moved both players' bullet ratings only.
        for name, won in ((an, False), (bn, True)):
            perfs = a.users.get_public_data(name)["perfs"]
            self.assertEqual(perfs["bullet"]["games"], 1, perfs)
            self.assertEqual(perfs["blitz"]["games"], 0, perfs)
            self.assertEqual(perfs["bullet"]["rating"] > 1500, won, perfs)
            # The rating history: today's bullet rating, nothing at the other speeds
            # (lichess's months count from 0).
            history = {h["name"]: h["points"] for h in a.users.get_rating_history(name)}
            self.assertEqual(set(history), {"Bullet", "Blitz", "Rapid", "Classical"}, history)
            self.assertEqual((history["Blitz"], history["Rapid"], history["Classical"]), ([], [], []))
            [point] = history["Bullet"]
            today = datetime.datetime.now(datetime.timezone.utc).date()
            self.assertIn(
                datetime.date(point.year, point.month + 1, point.day),
                (today, today - datetime.timedelta(days=1)),
            )
            self.assertEqual(point.rating, perfs["bullet"]["rating"])
        # The perf pages: the winner's best win and the loser's worst loss are this game.
        for name, won, other in ((bn, True, an), (an, False, bn)):
            perf = a.users.get_user_performance(name, "bullet")
            self.assertEqual(perf["user"]["name"], name)
            self.assertEqual(perf["perf"]["nb"], 1)
            stat = perf["stat"]
            self.assertEqual(stat["perfType"], {"key": "bullet", "name": "Bullet"})
            count = stat["count"]
            self.assertEqual((count["all"], count["rated"], count["win"], count["loss"], count["draw"]),
                             (1, 1, int(won), int(not won), 0))
            self.assertEqual(stat["highest"]["gameId"], cid)
            self.assertEqual(stat["highest"]["int"], a.users.get_public_data(name)["perfs"]["bullet"]["rating"])
            notable = stat["bestWins" if won else "worstLosses"]["results"]
            self.assertEqual([(r["gameId"], r["opId"]["name"], r["opRating"]) for r in notable], [(cid, other, 1500)])
            self.assertEqual(stat["worstLosses" if won else "bestWins"]["results"], [])
            run = stat["resultStreak"]["win" if won else "loss"]
            self.assertEqual((run["cur"]["v"], run["max"]["v"], run["max"]["from"]["gameId"]), (1, 1, cid))
            self.assertEqual(stat["playStreak"]["nb"]["cur"]["v"], 1)
        status, body = raw_json(SERVER.token(an, "board:play"), "GET", f"/api/user/{an}/perf/atomic")
        self.assertEqual(status, 404)
        self.assertIn("No such perf", body["error"])
        # Players found by the beginning of their name, in any case, 3 letters at least.
        self.assertIn(an, a.users.get_by_autocomplete(an[:5].upper()))
        self.assertEqual(a.users.get_by_autocomplete(an[:2]), [])
        found = a.users.get_by_autocomplete(bn[:6], as_object=True)
        self.assertEqual([u["name"] for u in found], [bn])
        self.assertEqual(found[0]["id"], bn.lower())
        with self.assertRaises(berserk.exceptions.ResponseError):
            a.users.get_rating_history("nobody" + secrets.token_hex(4))

    def test_custom_challenge_clocks_from_half_a_minute_to_three_hours(self):
        an, bn = self.name("cus"), self.name("tom")
        (a, _), _ = player(an), player(bn)
        for limit, inc, show, speed in ((30, 0, "0.5+0", "bullet"), (45, 2, "0.75+2", "bullet"),
                                         (5400, 30, "90+30", "classical"), (10800, 180, "180+180", "classical")):
            c = a.challenges.create(bn, rated=False, clock_limit=limit, clock_increment=inc)
            self.assertEqual((c["timeControl"]["limit"], c["timeControl"]["show"], c["speed"]),
                             (limit, show, speed))
            a.challenges.cancel(c["id"])
        for limit, inc in ((15, 0), (0, 1), (10860, 0), (100, 0), (60, 181)):
            with self.assertRaises(berserk.exceptions.ResponseError) as e:
                a.challenges.create(bn, rated=False, clock_limit=limit, clock_increment=inc)
            self.assertEqual(e.exception.status_code, 400, (limit, inc))
            self.assertIn("10800 s", str(e.exception))
        status, body = raw_json(SERVER.token(an, "challenge:write"), "POST", f"/api/challenge/{bn}",
                                data={"days": 3})
        self.assertEqual(status, 400)
        self.assertIn("Correspondence", body["error"])
        self.assertEqual(a.challenges.get_mine()["out"], [])

    def test_arena_at_half_a_minute_and_swiss_at_ninety_plus_thirty(self):
        an = self.name("clk")
        a, token = player(an, SWISS_SCOPES)
        start = int(time.time() * 1000) + 600_000
        arena = a.tournaments.create_arena(clockTime=0.5, clockIncrement=0, minutes=30,
                                           name="Half minute", startDate=start, rated=False)
        self.assertEqual(arena["clock"], {"limit": 30, "increment": 0})
        self.assertEqual(a.tournaments.get_tournament(arena["id"])["clock"], {"limit": 30, "increment": 0})
        for clock_time, inc in ((0.25, 0), (3, 8), (9, 0), (3, 61)):
            with self.assertRaises(berserk.exceptions.ResponseError) as e:
                a.tournaments.create_arena(clockTime=clock_time, clockIncrement=inc, minutes=30)
            self.assertEqual(e.exception.status_code, 400, (clock_time, inc))
        status, team = raw_json(token, "POST", "/api/team", json={"name": f"OTB {an}", "open": True})
        self.assertEqual(status, 201, team)
        swiss = a.tournaments.create_swiss(team["id"], clockLimit=5400, clockIncrement=30, nbRounds=5,
                                           name="OTB", startsAt=start, rated=True)
        self.assertEqual(swiss["clock"], {"limit": 5400, "increment": 30})
        for limit, inc in ((15, 0), (5500, 30), (5400, 121)):
            with self.assertRaises(berserk.exceptions.ResponseError) as e:
                a.tournaments.create_swiss(team["id"], clockLimit=limit, clockIncrement=inc, nbRounds=5)
            self.assertEqual(e.exception.status_code, 400, (limit, inc))
            self.assertIn("clock.limit", str(e.exception))


def raw_json(token, method, path, **kw):
    """A call outside berserk (for what berserk has no call for, and to
    see statuses): the status and the parsed answer."""
    r = requests.request(method, SERVER.base + path, headers={"Authorization": f"Bearer {token}"},
                         timeout=30, **kw)
    return r.status_code, r.json()


class Tv(Base):
    def test_tv_channel_features_a_chess960_game_and_its_feed_follows_the_moves(self):
        wn, bn = self.name("tvw"), self.name("tvb")
        (w, _), (b, _) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        c = w.challenges.create(bn, rated=False, clock_limit=1200, clock_increment=0, color="white",
                                variant="chess960")
        gid = c["id"]
        b_events.until(is_type("challenge", "challenge", gid), what="the challenge")
        b.challenges.accept(gid)
        w_events.until(is_type("gameStart", "game", gid), what="gameStart")
        # The channels list it on the Chess960 channel within a few seconds.
        deadline = time.monotonic() + 10
        while True:
            channels = w.tv.get_current_games()
            if channels.get("chess960", {}).get("gameId") == gid:
                break
            self.assertLess(time.monotonic(), deadline, channels)
            time.sleep(0.3)
        entry = channels["chess960"]
        self.assertEqual((entry["color"], entry["rating"], entry["user"]["name"]), ("white", 1500, wn))
        # The feed: the game featured, then each move as a fen line.
        feed = Feed(berserk.Client(base_url=SERVER.base).tv.stream_current_game_of_channel("chess960"))
        first = feed.next()
        self.assertEqual((first["t"], first["d"]["id"], first["d"]["orientation"]), ("featured", gid, "white"))
        names = [p["user"]["name"] for p in first["d"]["players"]]
        self.assertEqual(names, [wn, bn])
        self.assertEqual([p["seconds"] for p in first["d"]["players"]], [1200, 1200])
        start_fen = first["d"]["fen"]
        state = Feed(w.board.stream_game_state(gid))
        full = state.next()
        self.assertEqual(full["initialFen"], start_fen)
        for i, uci in enumerate(["e2e4", "e7e5", "d2d3"]):
            (w if i % 2 == 0 else b).board.make_move(gid, uci)
            line, _ = feed.until(lambda l: l.get("t") == "fen", what="a fen line")
            self.assertEqual(line["d"]["lm"], uci)
            self.assertNotEqual(line["d"]["fen"], start_fen)
            self.assertTrue(all(isinstance(line["d"][k], int) for k in ("wc", "bc")), line)
            if i == 0:
                # The clocks start with Black's first move.
                self.assertEqual((line["d"]["wc"], line["d"]["bc"]), (1200, 1200))
        r = requests.get(SERVER.base + "/api/tv/atomic/feed", timeout=30)
        self.assertEqual(r.status_code, 404)
        self.assertIn("No such channel", r.json()["error"])
        w.board.resign_game(gid)


class Preferences(Base):
    def test_preferences_set_on_the_site_read_through_berserk(self):
        name = self.name("prefs")
        session = web(name)
        token = SERVER.token(name, "preference:read")
        c = client(token)
        prefs = c.account.get_preferences()["prefs"]
        self.assertEqual((prefs["theme"], prefs["pieceSet"], prefs["autoQueen"], prefs["premove"],
                          prefs["confirmResign"], prefs["zen"], prefs["coords"]),
                         ("brown", "cburnett", 2, True, 1, 0, 1))
        r = session.post(SERVER.base + "/api/prefs", json={"theme": "blue", "pieceSet": "noto",
                                                          "autoQueen": "always", "zen": True,
                                                          "confirmResign": False}, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        self.assertEqual(r.json()["theme"], "blue")
        prefs = c.account.get_preferences()["prefs"]
        self.assertEqual((prefs["theme"], prefs["pieceSet"], prefs["autoQueen"], prefs["zen"],
                          prefs["confirmResign"]), ("blue", "noto", 3, 1, 0))
        # Unknown values and keys are refused, and nothing of the change is kept.
        for bad, word in (({"theme": "purple", "zen": False}, "theme"), ({"colour": "red"}, "colour"),
                          ({"premove": "yes"}, "premove")):
            r = session.post(SERVER.base + "/api/prefs", json=bad, timeout=30)
            self.assertEqual(r.status_code, 400, bad)
            self.assertIn(word, r.json()["error"]["message"])
        self.assertEqual(c.account.get_preferences()["prefs"]["zen"], 1)
        # Another scope does not read them; a page without an account has none here.
        other = client(SERVER.token(name, "board:play"))
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            other.account.get_preferences()
        self.assertEqual(e.exception.status_code, 403)
        self.assertEqual(requests.get(SERVER.base + "/api/prefs", timeout=30).status_code, 401)


class GameSearch(Base):
    def test_games_of_a_player_by_opponent_colour_and_perf(self):
        an, bn, cn = self.name("find"), self.name("foe"), self.name("other")
        (a, at), (b, _), (c, _) = player(an), player(bn), player(cn)
        a_events = Feed(a.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        c_events = Feed(c.board.stream_incoming_events())
        # A plays White against B and Black against C (5+3 casual games, blitz).
        vs_b = self.challenge_game(a, b, bn, a_events, b_events, color="white")
        vs_c = self.challenge_game(a, c, cn, a_events, c_events, color="black")
        for gid in (vs_b, vs_c):
            a.board.resign_game(gid)
        time.sleep(0.3)

        def ids(**kw):
            return [g["id"] for g in a.games.export_by_player(an, as_pgn=False, **kw)]

        self.assertEqual(ids(), [vs_c, vs_b])
        self.assertEqual(ids(vs=bn), [vs_b])
        self.assertEqual(ids(vs=cn.upper()), [vs_c])
        self.assertEqual(ids(color="white"), [vs_b])
        self.assertEqual(ids(color="black"), [vs_c])
        self.assertEqual(ids(vs=bn, color="black"), [])
        self.assertEqual(ids(perf_type="blitz"), [vs_c, vs_b])
        self.assertEqual(ids(perf_type="bullet,rapid"), [])
        self.assertEqual(ids(rated=True), [])
        self.assertEqual(ids(rated=False, max=1), [vs_c])
        self.assertEqual(ids(analysed=True), [])
        self.assertEqual(ids(vs="nobody" + secrets.token_hex(3)), [])
        # The exported games are the right ones, seen from their players.
        [g] = list(a.games.export_by_player(an, as_pgn=False, vs=bn))
        self.assertEqual(g["players"]["white"]["user"]["name"], an)
        self.assertEqual(g["players"]["black"]["user"]["name"], bn)
        # Bad filters are refused with a clear error.
        for query, word in (("color=purple", "color"), ("perfType=speedy", "perfType"),
                            ("rated=maybe", "rated"), ("analysed=2", "analysed")):
            status, body = raw_json(at, "GET", f"/api/games/user/{an}?{query}")
            self.assertEqual(status, 400, query)
            self.assertIn(word, body["error"], query)


class Teams(Base):
    def test_open_and_closed_clubs_through_berserk(self):
        lead_name, a_name, b_name = self.name("lead"), self.name("ann"), self.name("ben")
        lead, lead_token = player(lead_name, TEAM_SCOPES)
        ann, ann_token = player(a_name, TEAM_SCOPES)
        ben, _ = player(b_name, "team:read")
        status, open_team = raw_json(lead_token, "POST", "/api/team",
                                     json={"name": f"Open {lead_name}", "description": "all welcome",
                                           "open": True})
        self.assertEqual(status, 201, open_team)
        status, closed = raw_json(lead_token, "POST", "/api/team",
                                  json={"name": f"Closed {lead_name}", "open": False})
        self.assertEqual(status, 201, closed)
        tid, cid = open_team["id"], closed["id"]
        self.assertEqual(open_team["leaders"][0]["name"], lead_name)

        # An open club: joined at once; twice is refused; a token without
        # team:write is refused.
        ann.teams.join(tid)
        with self.assertRaises(berserk.exceptions.ResponseError) as twice:
            ann.teams.join(tid)
        self.assertEqual(twice.exception.status_code, 400)
        with self.assertRaises(berserk.exceptions.ResponseError) as scope:
            ben.teams.join(tid)
        self.assertEqual(scope.exception.status_code, 403)
        self.assertEqual(lead.teams.get_team(tid)["nbMembers"], 2)
        members = list(lead.teams.get_members(tid))
        self.assertEqual([m["name"] for m in members], [a_name, lead_name])
        self.assertIn(tid, [t["id"] for t in ann.teams.teams_of_player(a_name)])

        # A closed club: a message is needed, then the leader decides.
        with self.assertRaises(berserk.exceptions.ResponseError) as bare:
            ann.teams.join(cid)
        self.assertEqual(bare.exception.status_code, 403)
        ann.teams.join(cid, message="I would like to play on Tuesdays")
        requests_ = lead.teams.get_join_requests(cid)
        self.assertEqual([r["request"]["userId"] for r in requests_], [a_name.lower()])
        with self.assertRaises(berserk.exceptions.ResponseError) as not_leader:
            ann.teams.accept_join_request(cid, a_name)
        self.assertEqual(not_leader.exception.status_code, 403)
        lead.teams.accept_join_request(cid, a_name)
        self.assertEqual(lead.teams.get_join_requests(cid), [])
        self.assertTrue(ann.teams.get_team(cid)["joined"])

        # Kick, quit, the only leader stays, lists and search.
        lead.teams.kick_member(tid, a_name)
        self.assertEqual(lead.teams.get_team(tid)["nbMembers"], 1)
        ann.teams.leave(cid)
        with self.assertRaises(berserk.exceptions.ResponseError) as only:
            lead.teams.leave(cid)
        self.assertEqual(only.exception.status_code, 400)
        found = ann.teams.search(lead_name)
        self.assertEqual(sorted(t["id"] for t in found["currentPageResults"]), sorted([tid, cid]))
        self.assertEqual(found["nbResults"], 2)
        self.assertGreaterEqual(ann.teams.get_popular()["nbResults"], 2)
        with self.assertRaises(berserk.exceptions.ResponseError) as missing:
            ann.teams.get_team("no-such-club-here")
        self.assertEqual(missing.exception.status_code, 404)


SAMPLE_PUZZLES = os.path.join(ROOT, "..", "shared", "data", "puzzles", "lichess-sample.csv")
PUZZLES_IMPORTED = []


def import_puzzles():
    """lichess's sample puzzles into the test server's database, once
    (`plyyard puzzles import`, as an operator does)."""
    if PUZZLES_IMPORTED:
        return PUZZLES_IMPORTED[0]
    out = subprocess.run([SERVER.binary, "puzzles", "import", SAMPLE_PUZZLES, "--db", SERVER.db],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    import json
    report = json.loads(out.stdout.strip().splitlines()[-1])
    PUZZLES_IMPORTED.append(report)
    return report


class Puzzles(Base):
    def test_daily_batch_solve_rated_once_and_errors(self):
        report = import_puzzles()
        self.assertEqual(report["rows"], 1499)
        self.assertEqual(report["imported"] + report["refused"] + report["already"], 1499)
        name = self.name("solver")
        solver, token = player(name, "puzzle:read,puzzle:write")
        daily = solver.puzzles.get_daily()
        self.assertEqual(set(daily), {"game", "puzzle"})
        p = daily["puzzle"]
        for key in ("id", "rating", "plays", "solution", "themes", "initialPly"):
            self.assertIn(key, p)
        self.assertEqual(len(p["solution"]) % 2, 1)
        self.assertIn("pgn", daily["game"])
        one = solver.puzzles.get("000rZ")
        self.assertEqual(one["puzzle"]["solution"], ["d6h2"])
        self.assertEqual(one["puzzle"]["initialPly"], 24)

        status, batch = raw_json(token, "GET", "/api/puzzle/batch/mix?nb=5")
        self.assertEqual(status, 200, batch)
        self.assertEqual(len(batch["puzzles"]), 5)
        self.assertTrue(batch["glicko"]["provisional"])
        ids = [b["puzzle"]["id"] for b in batch["puzzles"]]
        status, solved = raw_json(token, "POST", "/api/puzzle/batch/mix?nb=3",
                                  json={"solutions": [{"id": ids[0], "win": True, "rated": True},
                                                      {"id": ids[1], "win": False, "rated": True}]})
        self.assertEqual(status, 200, solved)
        self.assertEqual([r["id"] for r in solved["rounds"]], ids[:2])
        self.assertGreater(solved["rounds"][0]["ratingDiff"], 0)
        self.assertLess(solved["rounds"][1]["ratingDiff"], 0)
        self.assertEqual(len(solved["puzzles"]), 3)
        self.assertFalse({b["puzzle"]["id"] for b in solved["puzzles"]} & set(ids))
        # The same puzzle again: recorded, not rated.
        status, again = raw_json(token, "POST", "/api/puzzle/batch/mix?nb=1",
                                 json={"solutions": [{"id": ids[0], "win": True, "rated": True}]})
        self.assertEqual(status, 200, again)
        self.assertNotIn("ratingDiff", again["rounds"][0])
        account = solver.account.get()
        self.assertEqual(account["perfs"]["puzzle"]["games"], 2)
        activity = list(solver.puzzles.get_puzzle_activity())
        self.assertEqual(len(activity), 2)
        dash = solver.puzzles.get_puzzle_dashboard(30)
        self.assertEqual(dash["global"]["nb"], 2)
        # The failed one is to replay, by lichess's replay path (berserk has
        # no call for it); under a theme it lacks, nothing.
        status, replay = raw_json(token, "GET", "/api/puzzle/replay/30/mix")
        self.assertEqual(status, 200, replay)
        self.assertEqual(replay["replay"], {"days": 30, "theme": "mix", "nb": 1, "remaining": [ids[1]]})
        self.assertEqual(replay["angle"]["key"], "mix")
        failed_themes = batch["puzzles"][1]["puzzle"]["themes"]
        status, by_theme = raw_json(token, "GET", f"/api/puzzle/replay/30/{failed_themes[0]}")
        self.assertEqual((status, by_theme["replay"]["remaining"]), (200, [ids[1]]), by_theme)
        other = next(t for t in ("mateIn1", "fork", "pin", "endgame", "middlegame") if t not in failed_themes)
        status, none = raw_json(token, "GET", f"/api/puzzle/replay/30/{other}")
        self.assertEqual((status, none["replay"]["nb"], none["replay"]["remaining"]), (200, 0, []))
        # Played again: no longer remaining, still counted; never rated.
        status, replayed = raw_json(token, "POST", "/api/puzzle/batch/mix?nb=1",
                                    json={"solutions": [{"id": ids[1], "win": True, "rated": True}]})
        self.assertEqual(status, 200, replayed)
        self.assertNotIn("ratingDiff", replayed["rounds"][0])
        status, replay = raw_json(token, "GET", "/api/puzzle/replay/30/mix")
        self.assertEqual((replay["replay"]["nb"], replay["replay"]["remaining"]), (1, []))
        for path, code in (("/api/puzzle/replay/0/mix", 400), ("/api/puzzle/replay/91/mix", 400),
                           ("/api/puzzle/replay/30/noSuchTheme", 404)):
            self.assertEqual(raw_json(token, "GET", path)[0], code, path)

        # Bad input: never served, nb out of range, unknown angle and id,
        # and a token without puzzle:write.
        status, err = raw_json(token, "POST", "/api/puzzle/batch/mix",
                               json={"solutions": [{"id": "zzzzz", "win": True}]})
        self.assertEqual(status, 400, err)
        self.assertIn("error", err)
        self.assertEqual(raw_json(token, "GET", "/api/puzzle/batch/mix?nb=51")[0], 400)
        self.assertEqual(raw_json(token, "GET", "/api/puzzle/batch/noSuchTheme")[0], 404)
        self.assertEqual(raw_json(token, "GET", "/api/puzzle/zzzzz")[0], 404)
        _, reader = player(self.name("reader"), "puzzle:read")
        status, _ = raw_json(reader, "POST", "/api/puzzle/batch/mix", json={"solutions": []})
        self.assertEqual(status, 403)


    def test_storm_runs_and_lichess_storm_dashboard(self):
        name = self.name("storm")
        runner, token = player(name, "puzzle:read,puzzle:write")
        empty = runner.puzzles.get_storm_dashboard(name)
        self.assertEqual(empty, {"high": {"allTime": 0, "day": 0, "month": 0, "week": 0}, "days": []})
        runs = [{"score": 12, "moves": 30, "errors": 2, "combo": 7, "time": 180, "highest": 1650},
                {"score": 17, "moves": 41, "errors": 1, "combo": 11, "time": 186, "highest": 1840},
                {"score": 9, "moves": 25, "errors": 3, "combo": 5, "time": 171, "highest": 1500}]
        for run in runs:
            status, done = raw_json(token, "POST", "/api/storm", json=run)
            self.assertEqual(status, 200, done)
            self.assertTrue(done["recorded"])
            time.sleep(0.01)
        self.assertEqual(done["high"], {"allTime": 17, "day": 17, "month": 17, "week": 17})
        dash = runner.puzzles.get_storm_dashboard(name, days=7)
        self.assertEqual(dash["high"], {"allTime": 17, "day": 17, "month": 17, "week": 17})
        self.assertEqual(len(dash["days"]), 1)
        today = dash["days"][0]
        best = dict(runs[1], runs=3)
        self.assertEqual({k: today[k] for k in best}, best)
        y, m, d = today["_id"].split("/")
        self.assertEqual(datetime.date(int(y), int(m), int(d)), datetime.datetime.now(datetime.timezone.utc).date())
        # Public, by any name case; bad input refused, nothing stored.
        self.assertEqual(requests.get(f"{SERVER.base}/api/storm/dashboard/{name.upper()}", timeout=10).json()["high"]["allTime"], 17)
        for bad in ({**runs[0], "combo": 13}, {**runs[0], "moves": 5}, {**runs[0], "time": 9999},
                    {**runs[0], "score": -1}, {"score": 3}):
            status, err = raw_json(token, "POST", "/api/storm", json=bad)
            self.assertEqual(status, 400, (bad, err))
            self.assertIn("error", err)
        # A visitor without an account (same origin, so past the cross-site guard): 401.
        anon = requests.post(f"{SERVER.base}/api/storm", json=runs[0], headers={"Origin": SERVER.base}, timeout=10)
        self.assertEqual(anon.status_code, 401, anon.text)
        _, reader = player(self.name("sread"), "puzzle:read")
        self.assertEqual(raw_json(reader, "POST", "/api/storm", json=runs[0])[0], 403)
        self.assertEqual(requests.get(f"{SERVER.base}/api/storm/dashboard/nobody_here_at_all", timeout=10).status_code, 404)
        self.assertEqual(requests.get(f"{SERVER.base}/api/storm/dashboard/{name}?days=400", timeout=10).status_code, 400)
        self.assertEqual(runner.puzzles.get_storm_dashboard(name)["days"][0]["runs"], 3)


def first_lines(token, path, until_empty, timeout):
    """Opens an NDJSON stream with http.client and reads it byte by byte:
    the lines up to and including the first empty one, each with the
    seconds since the stream opened."""
    u = urllib.parse.urlsplit(SERVER.base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    resp = conn.getresponse()
    assert resp.status == 200, resp.status
    assert resp.getheader("Content-Type", "").startswith("application/x-ndjson"), resp.getheaders()
    opened = time.monotonic()
    lines, buf = [], b""
    try:
        while True:
            ch = resp.read(1)
            if not ch:
                break
            if ch != b"\n":
                buf += ch
                continue
            lines.append((buf.decode(), time.monotonic() - opened))
            if until_empty and buf == b"":
                break
            buf = b""
    finally:
        conn.close()
    return lines


class Streams(Base):
    def test_keep_alive_within_seven_seconds(self):
        wn, bn = self.name("kaw"), self.name("kab")
        (w, wt), (b, _) = player(wn), player(bn)
        w_events = Feed(w.board.stream_incoming_events())
        b_events = Feed(b.board.stream_incoming_events())
        gid = self.challenge_game(w, b, bn, w_events, b_events)
        got = {}

        def read(key, path):
            try:
                got[key] = first_lines(wt, path, True, 10)
            except Exception as e:  # noqa: BLE001 - checked below
                got[key] = e

        threads = [threading.Thread(target=read, args=a) for a in
                   (("event", "/api/stream/event"), ("game", f"/api/board/game/stream/{gid}"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        for key in ("event", "game"):
            lines = got.get(key)
            self.assertIsInstance(lines, list, f"{key} stream: {lines}")
            text, at = lines[-1]
            self.assertEqual(text, "", f"{key} stream: no empty line: {lines}")
            self.assertLess(at, 7.0, f"{key} stream: the keep-alive came after {at:.1f} s")
        self.assertIn('"gameStart"', got["event"][0][0])
        self.assertIn('"gameFull"', got["game"][0][0])
        w.board.abort_game(gid)

    def test_new_event_stream_ends_the_old_one(self):
        name = self.name("one")
        a, _ = player(name)
        first = Feed(a.board.stream_incoming_events())
        time.sleep(0.5)
        second = Feed(a.board.stream_incoming_events())
        self.assertEqual(first.end(), [])
        self.assertFalse(second.ended)


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class OAuth(Base):
    def test_pkce_flow(self):
        name = self.name("oauth")
        session = web(name)
        verifier, challenge = pkce_pair()
        request = {
            "response_type": "code", "client_id": "api-tests", "redirect_uri": "http://127.0.0.1:9/back",
            "code_challenge_method": "S256", "code_challenge": challenge,
            "scope": "board:play challenge:read", "state": "st4te",
        }
        r = session.get(SERVER.base + "/api/oauth/request", params=request, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        # Approving takes the player's session and the site's Origin.
        r = requests.post(SERVER.base + "/api/oauth/approve", json={**request, "approve": True},
                          cookies=session.cookies, timeout=30)
        self.assertEqual(r.status_code, 403, r.text)
        r = session.post(SERVER.base + "/api/oauth/approve", json={**request, "approve": True}, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        back = urllib.parse.urlsplit(r.json()["redirect"])
        self.assertEqual(f"{back.scheme}://{back.netloc}{back.path}", request["redirect_uri"])
        q = dict(urllib.parse.parse_qsl(back.query))
        self.assertEqual(q["state"], "st4te")
        exchange = {"grant_type": "authorization_code", "code": q["code"], "code_verifier": verifier,
                    "redirect_uri": request["redirect_uri"], "client_id": "api-tests"}
        # A wrong verifier fails and uses the code up.
        r = requests.post(SERVER.base + "/api/token", data={**exchange, "code_verifier": "x" * 43}, timeout=30)
        self.assertEqual((r.status_code, r.json()["error"]), (400, "invalid_grant"))
        r = requests.post(SERVER.base + "/api/token", data=exchange, timeout=30)
        self.assertEqual((r.status_code, r.json()["error"]), (400, "invalid_grant"))
        # A fresh code, exchanged with the right verifier (no cookie, no Origin).
        r = session.post(SERVER.base + "/api/oauth/approve", json={**request, "approve": True}, timeout=30)
        exchange["code"] = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(r.json()["redirect"]).query))["code"]
        r = requests.post(SERVER.base + "/api/token", data=exchange, timeout=30)
        self.assertEqual(r.status_code, 200, r.text)
        body = r.json()
        self.assertEqual(body["token_type"], "Bearer")
        self.assertTrue(body["access_token"].startswith("lio_"))
        self.assertEqual(body["expires_in"], 31536000)
        token = body["access_token"]
        c = client(token)
        self.assertEqual(c.account.get()["username"], name)
        tested = c.oauth.test_tokens(token)[token]
        self.assertEqual(set(tested["scopes"].split(",")), {"board:play", "challenge:read"})
        self.assertIsNotNone(tested["expires"])
        r = requests.post(SERVER.base + "/api/token", data=exchange, timeout=30)
        self.assertEqual(r.status_code, 400, "a code works once")
        # Refusing sends the player back with access_denied.
        r = session.post(SERVER.base + "/api/oauth/approve", json={**request, "approve": False}, timeout=30)
        self.assertIn("error=access_denied", r.json()["redirect"])
        r = requests.delete(SERVER.base + "/api/token", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        self.assertEqual(r.status_code, 204)
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            c.account.get()
        self.assertEqual(e.exception.status_code, 401)


ARENA_SCOPES = "board:play,challenge:read,tournament:write"


class Arenas(Base):
    def test_arena_pairs_two_players_and_scores_the_winner(self):
        a_name, b_name, c_name = self.name("arna"), self.name("arnb"), self.name("arnc")
        (ann, ann_token), (bob, bob_token) = player(a_name, ARENA_SCOPES), player(b_name, ARENA_SCOPES)
        cy, cy_token = player(c_name, ARENA_SCOPES)
        a_events = Feed(ann.board.stream_incoming_events())
        b_events = Feed(bob.board.stream_incoming_events())

        # Absurd settings are refused, each with a JSON error; nothing is made.
        with self.assertRaises(berserk.exceptions.ResponseError) as long_one:
            ann.tournaments.create_arena(clockTime=3, clockIncrement=2, minutes=24 * 60 + 1)
        self.assertEqual(long_one.exception.status_code, 400)
        self.assertIn("24 h", str(long_one.exception))
        with self.assertRaises(berserk.exceptions.ResponseError) as too_fast:
            ann.tournaments.create_arena(clockTime=0.25, clockIncrement=0, minutes=20)
        self.assertEqual(too_fast.exception.status_code, 400)

        start = int(time.time() * 1000) + 2000
        arena = ann.tournaments.create_arena(clockTime=3, clockIncrement=2, minutes=20,
                                             name="Sunday", startDate=start, rated=False)
        tid = arena["id"]
        self.assertEqual(len(tid), 8)
        self.assertEqual((arena["fullName"], arena["system"], arena["minutes"]), ("Sunday Arena", "arena", 20))
        self.assertEqual(arena["clock"], {"limit": 180, "increment": 2})
        self.assertEqual(arena["createdBy"], a_name.lower())
        self.assertIsInstance(arena["startsAt"], datetime.datetime)
        self.assertIn(tid, [t["id"] for t in ann.tournaments.get()["created"]])

        ann.tournaments.join_arena(tid)
        bob.tournaments.join_arena(tid)
        with self.assertRaises(berserk.exceptions.ResponseError) as twice:
            bob.tournaments.join_arena(tid)
        self.assertEqual(twice.exception.status_code, 400)
        self.assertIn("already", str(twice.exception))

        # The Arena starts and pairs the two: both hear of the same game.
        a_start, _ = a_events.until(is_type("gameStart"), timeout=20, what="gameStart")
        gid = a_start["game"]["gameId"]
        b_events.until(is_type("gameStart", "game", gid), what="the same gameStart")
        shown = ann.tournaments.get_tournament(tid)
        self.assertEqual((shown["nbPlayers"], shown["isStarted"], shown["isFinished"]), (2, True, False))
        self.assertIn("secondsToFinish", shown)
        self.assertEqual(sorted(p["name"] for p in shown["standing"]["players"]), sorted([a_name, b_name]))
        # Ours: the viewer's place and current game, and the Arena of a game.
        status, mine = raw_json(ann_token, "GET", f"/api/tournament/{tid}")
        self.assertEqual(status, 200, mine)
        self.assertEqual((mine["me"]["gameId"], mine["me"]["username"]), (gid, a_name))
        self.assertNotIn("withdraw", mine["me"])
        status, outsider = raw_json(cy_token, "GET", f"/api/tournament/{tid}")
        self.assertNotIn("me", outsider)
        status, of = raw_json(cy_token, "GET", f"/api/tournament/of-game/{gid}")
        self.assertEqual((status, of), (200, {"id": tid, "fullName": "Sunday Arena", "berserkable": True}))
        status, none = raw_json(cy_token, "GET", "/api/tournament/of-game/nosuchgame")
        self.assertEqual(status, 404, none)
        # Ours: the Arena's chat (on by default), for any logged-in account.
        self.assertTrue(shown["hasChat"])
        status, said = raw_json(cy_token, "POST", f"/api/tournament/{tid}/chat", json={"text": "good luck"})
        self.assertEqual(status, 200, said)
        status, blank = raw_json(cy_token, "POST", f"/api/tournament/{tid}/chat", json={"text": "  "})
        self.assertEqual(status, 400, blank)
        self.assertIn("error", blank)
        status, lines = raw_json(bob_token, "GET", f"/api/tournament/{tid}/chat")
        self.assertEqual([(l["user"], l["text"]) for l in lines], [(c_name, "good luck")])

        # Played to mate through the Board API: Black mates.
        full = Feed(ann.board.stream_game_state(gid)).next()
        self.assertEqual(full["type"], "gameFull")
        self.assertEqual(full["clock"], {"initial": 180000, "increment": 2000})
        white_name = full["white"]["name"]
        white, black = (ann, bob) if white_name == a_name else (bob, ann)
        black_name = b_name if white_name == a_name else a_name
        for i, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
            (white if i % 2 == 0 else black).board.make_move(gid, uci)
        for feed in (a_events, b_events):
            feed.until(is_type("gameFinish", "game", gid), what="gameFinish")

        deadline = time.monotonic() + WAIT
        while True:
            results = list(ann.tournaments.stream_results(tid, sheet=True))
            if results and results[0]["score"] == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual([(r["rank"], r["username"], r["score"]) for r in results],
                         [(1, black_name, 2), (2, white_name, 0)])
        self.assertEqual(results[0]["sheet"], {"scores": "2"})
        self.assertEqual(results[1]["sheet"], {"scores": "0"})
        games = list(ann.tournaments.export_arena_games(tid))
        self.assertEqual([g["id"] for g in games], [gid])
        self.assertEqual(games[0]["winner"], "black")

        # Only the creator terminates; a finished Arena is listed as one.
        with self.assertRaises(berserk.exceptions.ResponseError) as not_mine:
            cy.tournaments.terminate_arena(tid)
        self.assertEqual(not_mine.exception.status_code, 403)
        with self.assertRaises(berserk.exceptions.ResponseError) as unknown:
            ann.tournaments.get_tournament("nosuchid")
        self.assertEqual(unknown.exception.status_code, 404)
        bob.tournaments.withdraw_arena(tid)
        status, paused = raw_json(bob_token, "GET", f"/api/tournament/{tid}")
        self.assertTrue(paused["me"]["withdraw"])
        self.assertEqual([p.get("withdraw", False) for p in paused["standing"]["players"]
                          if p["name"] == b_name], [True])
        ann.tournaments.terminate_arena(tid)
        done = ann.tournaments.get_tournament(tid)
        self.assertEqual((done["isFinished"], done["status"]), (True, 30))
        self.assertEqual(done["podium"][0]["name"], black_name)
        self.assertIn(tid, [t["id"] for t in ann.tournaments.get()["finished"]])
        status, body = raw_json(ann_token, "POST", f"/api/tournament/{tid}/join")
        self.assertEqual(status, 400, body)
        self.assertIn("error", body)

    def test_berserk_halves_the_clock_and_adds_a_point_to_a_long_win(self):
        a_name, b_name, c_name = self.name("bska"), self.name("bskb"), self.name("bskc")
        (ann, ann_token), (bob, bob_token) = player(a_name, ARENA_SCOPES), player(b_name, ARENA_SCOPES)
        _, cy_token = player(c_name, ARENA_SCOPES)
        a_events = Feed(ann.board.stream_incoming_events())
        b_events = Feed(bob.board.stream_incoming_events())
        arena = ann.tournaments.create_arena(clockTime=3, clockIncrement=2, minutes=20, name="Berserk",
                                             startDate=int(time.time() * 1000) + 1000, rated=False)
        tid = arena["id"]
        self.assertTrue(arena["berserkable"])
        ann.tournaments.join_arena(tid)
        bob.tournaments.join_arena(tid)
        a_start, _ = a_events.until(is_type("gameStart"), timeout=20, what="gameStart")
        gid = a_start["game"]["gameId"]
        b_events.until(is_type("gameStart", "game", gid), what="the same gameStart")
        feed = Feed(ann.board.stream_game_state(gid))
        full = feed.next()
        white_is_ann = full["white"]["name"] == a_name
        w_token, b_token = (ann_token, bob_token) if white_is_ann else (bob_token, ann_token)
        white, black = (ann, bob) if white_is_ann else (bob, ann)
        white_name = a_name if white_is_ann else b_name

        # Only a player of an Arena game may go berserk.
        status, body = raw_json(cy_token, "POST", f"/api/board/game/{gid}/berserk")
        self.assertEqual(status, 403, body)
        status, body = raw_json(w_token, "POST", "/api/board/game/nosuchgm/berserk")
        self.assertEqual(status, 404, body)
        # White goes berserk before moving: half of 3 minutes, no increment.
        status, body = raw_json(w_token, "POST", f"/api/board/game/{gid}/berserk")
        self.assertEqual((status, body), (200, {"ok": True}))
        state, _ = feed.until(lambda e: e.get("type") == "gameState" and e.get("wberserk"), what="wberserk")
        sec = datetime.timedelta(seconds=1)
        self.assertEqual((state["wtime"], state["winc"], state["btime"], state["binc"]), (90 * sec, 0 * sec, 180 * sec, 2 * sec))
        status, body = raw_json(w_token, "POST", f"/api/board/game/{gid}/berserk")
        self.assertEqual(status, 400, body)
        self.assertIn("already", body["error"])
        # Black moves first, then it is too late for Black.
        moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5",
                 "c2c3", "d7d6", "b1d2", "a7a6", "h2h3", "h7h6"]
        white.board.make_move(gid, moves[0])
        black.board.make_move(gid, moves[1])
        status, body = raw_json(b_token, "POST", f"/api/board/game/{gid}/berserk")
        self.assertEqual(status, 400, body)
        self.assertIn("first move", body["error"])
        for i, uci in enumerate(moves[2:], start=2):
            (white if i % 2 == 0 else black).board.make_move(gid, uci)
        # White's increment is gone: its time only goes down.
        state, _ = feed.until(lambda e: e.get("type") == "gameState" and len(e["moves"].split()) == 14,
                              what="14 plies")
        self.assertLessEqual(state["wtime"], 90 * sec)
        self.assertEqual(state["winc"], 0 * sec)
        black.board.resign_game(gid)
        for f in (a_events, b_events):
            f.until(is_type("gameFinish", "game", gid), what="gameFinish")

        # A berserk win of 14 plies: 2 points and the berserk point.
        deadline = time.monotonic() + WAIT
        while True:
            results = list(ann.tournaments.stream_results(tid, sheet=True))
            if results and results[0]["score"] == 3 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual((results[0]["username"], results[0]["score"], results[0]["sheet"]["scores"]),
                         (white_name, 3, "3"))
        self.assertEqual(ann.tournaments.get_tournament(tid)["stats"]["berserks"], 1)


SWISS_SCOPES = "board:play,challenge:read,tournament:write,team:write"


def first_game_start(feeds, timeout=30):
    """The first `gameStart` any of `feeds` hears: (index, line)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i, feed in enumerate(feeds):
            try:
                line, _ = feed.until(is_type("gameStart"), timeout=0.5, what="gameStart")
                return i, line
            except AssertionError:
                continue
    raise AssertionError(f"no gameStart within {timeout} s")


class Swiss(Base):
    def test_swiss_for_a_club_pairs_a_round_with_a_bye_and_exports_trf(self):
        names = [self.name("swa"), self.name("swb"), self.name("swc"), self.name("swd")]
        clients = [player(n, SWISS_SCOPES) for n in names]
        (lead, lead_token), (bob, bob_token), (cy, _), (dee, dee_token) = clients
        status, team = raw_json(lead_token, "POST", "/api/team",
                                json={"name": f"Swiss {names[0]}", "open": True})
        self.assertEqual(status, 201, team)
        club = team["id"]
        bob.teams.join(club)
        cy.teams.join(club)
        feeds = [Feed(c.board.stream_incoming_events()) for c, _ in clients[:3]]

        # Refused with a JSON error, nothing made: a non-leader, too many rounds.
        with self.assertRaises(berserk.exceptions.ResponseError) as not_leader:
            bob.tournaments.create_swiss(club, clockLimit=180, clockIncrement=2, nbRounds=3)
        self.assertEqual(not_leader.exception.status_code, 403)
        with self.assertRaises(berserk.exceptions.ResponseError) as long_one:
            lead.tournaments.create_swiss(club, clockLimit=180, clockIncrement=2, nbRounds=101)
        self.assertEqual(long_one.exception.status_code, 400)
        self.assertIn("nbRounds", str(long_one.exception))
        self.assertEqual(list(lead.tournaments.swiss_by_team(club)), [])

        start = int(time.time() * 1000) + 3000
        swiss = lead.tournaments.create_swiss(club, clockLimit=180, clockIncrement=2, nbRounds=3,
                                              name="Tuesday", startsAt=start, roundInterval=99999999,
                                              rated=False, chatFor=20)
        sid = swiss["id"]
        self.assertEqual((swiss["name"], swiss["nbRounds"], swiss["status"]), ("Tuesday", 3, "created"))
        self.assertEqual(swiss["clock"], {"limit": 180, "increment": 2})
        for c in (lead, bob, cy):
            c.tournaments.join_swiss(sid)
        with self.assertRaises(berserk.exceptions.ResponseError) as twice:
            bob.tournaments.join_swiss(sid)
        self.assertEqual(twice.exception.status_code, 400)
        with self.assertRaises(berserk.exceptions.ResponseError) as outsider:
            dee.tournaments.join_swiss(sid)
        self.assertEqual(outsider.exception.status_code, 403)
        self.assertEqual([s["id"] for s in lead.tournaments.swiss_by_team(club)], [sid])

        # Round one: one game, one bye; the game is played to mate.
        i, begun = first_game_start(feeds)
        gid = begun["game"]["gameId"]
        full = Feed(clients[i][0].board.stream_game_state(gid)).next()
        white_name, black_name = full["white"]["name"], full["black"]["name"]
        by_name = dict(zip(names, (c for c, _ in clients)))
        for k, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
            by_name[white_name if k % 2 == 0 else black_name].board.make_move(gid, uci)
        shown = lead.tournaments.get_swiss(sid)
        self.assertEqual((shown["round"], shown["status"]), (1, "started"))

        deadline = time.monotonic() + WAIT
        while True:
            results = list(lead.tournaments.stream_swiss_results(sid))
            if sum(r["points"] for r in results) == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual(sum(r["points"] for r in results), 2, results)
        self.assertEqual(results[0]["rank"], 1)
        self.assertEqual({r["username"] for r in results}, set(names[:3]))
        loser = next(r for r in results if r["username"] == white_name)
        self.assertEqual((loser["points"], loser["rank"]), (0, 3))
        for r in results:
            self.assertIn("tieBreak", r)
            self.assertIn("rating", r)
        # The winner: one point, and Buchholz the loser's score (none).
        winner = next(r for r in results if r["username"] == black_name)
        self.assertEqual((winner["points"], winner["buchholz"]), (1, 0))
        self.assertIn("performance", next(r for r in results if r["username"] == black_name))
        games = list(lead.tournaments.export_swiss_games(sid))
        self.assertEqual([g["id"] for g in games], [gid])

        # The TRF: three rounds announced, one played, a game and a bye.
        deadline = time.monotonic() + WAIT
        while True:
            trf = lead.tournaments.export_swiss_trf(sid)
            if " U" in trf or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertIn("XXR 3", trf)
        lines = [l for l in trf.splitlines() if l.startswith("001")]
        self.assertEqual(len(lines), 3)
        self.assertEqual(sorted(l[91:101].strip()[-1] for l in lines), ["0", "1", "U"])

        # Manual rounds: only a leader schedules; then only a leader ends it.
        status, body = raw_json(bob_token, "POST", f"/api/swiss/{sid}/schedule-next-round")
        self.assertEqual(status, 403, body)
        with self.assertRaises(berserk.exceptions.ResponseError) as not_mine:
            bob.tournaments.terminate_swiss(sid)
        self.assertEqual(not_mine.exception.status_code, 403)
        lead.tournaments.terminate_swiss(sid)
        self.assertEqual(lead.tournaments.get_swiss(sid)["status"], "finished")
        status, body = raw_json(dee_token, "POST", f"/api/swiss/{sid}/join")
        self.assertEqual(status, 400, body)
        self.assertIn("error", body)
        status, body = raw_json(dee_token, "GET", "/api/swiss/nosuchid")
        self.assertEqual(status, 404, body)


FOLLOW_SCOPES = "follow:read,follow:write,challenge:write,challenge:read"


class Relations(Base):
    def test_follow_list_unfollow_and_block_through_berserk(self):
        an, bn, cn = self.name("fan"), self.name("star"), self.name("idol")
        ann, _ = player(an, FOLLOW_SCOPES)
        bob, bob_token = player(bn, FOLLOW_SCOPES)
        player(cn, FOLLOW_SCOPES)
        ann.relations.follow(bn)
        ann.relations.follow(cn)
        ann.relations.follow(bn)  # again: nothing changes
        followed = list(ann.relations.get_users_followed())
        self.assertEqual([u["username"] for u in followed], [cn, bn])
        self.assertEqual(followed[1]["id"], bn.lower())
        self.assertIn("perfs", followed[1])
        self.assertIsInstance(followed[1]["createdAt"], datetime.datetime)
        ann.relations.unfollow(cn)
        self.assertEqual([u["username"] for u in ann.relations.get_users_followed()], [bn])

        # Bob blocks Ann (berserk 0.14 has no call for it): her follow of
        # him ends, and her challenges to him are refused.
        status, body = raw_json(bob_token, "POST", f"/api/rel/block/{an}")
        self.assertEqual((status, body), (200, {"ok": True}))
        self.assertEqual(list(ann.relations.get_users_followed()), [])
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            ann.relations.follow(bn)
        self.assertEqual(e.exception.status_code, 403)
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            ann.challenges.create(bn, rated=False, clock_limit=300, clock_increment=3)
        self.assertEqual(e.exception.status_code, 400)
        self.assertEqual(bob.challenges.get_mine()["in"], [])
        status, body = raw_json(bob_token, "POST", f"/api/rel/unblock/{an}")
        self.assertEqual((status, body), (200, {"ok": True}))
        c = ann.challenges.create(bn, rated=False, clock_limit=300, clock_increment=3)
        self.assertEqual(c["status"], "created")
        ann.challenges.cancel(c["id"])

    def test_follow_oneself_or_nobody_and_scopes(self):
        name = self.name("lone")
        me, _ = player(name, FOLLOW_SCOPES)
        for dest, status in ((name, 400), ("nosuchplayer42", 404)):
            for call in (me.relations.follow, me.relations.unfollow):
                with self.assertRaises(berserk.exceptions.ResponseError) as e:
                    call(dest)
                self.assertEqual(e.exception.status_code, status)
                self.assertIn("error", e.exception.cause)
        _, token = player(self.name("noscope"), "challenge:read")
        for method, path in (("POST", f"/api/rel/follow/{name}"), ("GET", "/api/rel/following"),
                             ("POST", f"/api/rel/block/{name}")):
            status, body = raw_json(token, method, path)
            self.assertEqual(status, 403, (path, body))
            self.assertIn("follow:", body["error"])

MSG_SCOPES = "msg:write,follow:write,follow:read"


def inbox_json(token, path):
    """`GET path` as a program asks for it (`Accept: application/json`)."""
    r = requests.get(SERVER.base + path, headers={"Authorization": f"Bearer {token}",
                                                  "Accept": "application/json"}, timeout=30)
    return r.status_code, r.json()


class Messaging(Base):
    def test_a_message_through_berserk_and_the_conversation_as_json(self):
        an, bn = self.name("writer"), self.name("reader")
        ann, ann_token = player(an, MSG_SCOPES)
        bob, bob_token = player(bn, MSG_SCOPES)
        # Both accounts are new: Ann may not write to Bob, a stranger.
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            ann.messaging.send(bn, "hello")
        self.assertEqual(e.exception.status_code, 403)
        self.assertIn("first hour", e.exception.cause["error"])
        # Once Bob follows her, she may.
        bob.relations.follow(an)
        ann.messaging.send(bn, "Hello <b>Bob</b>\nsecond line")
        status, inbox = inbox_json(bob_token, f"/inbox/{an}")
        self.assertEqual(status, 200, inbox)
        self.assertEqual(inbox["me"]["id"], bn.lower())
        self.assertEqual([c["user"]["name"] for c in inbox["contacts"]], [an])
        convo = inbox["convo"]
        self.assertEqual(convo["user"]["name"], an)
        self.assertEqual([(m["user"], m["text"]) for m in convo["msgs"]],
                         [(an.lower(), "Hello <b>Bob</b>\nsecond line")])
        self.assertIsInstance(convo["msgs"][0]["date"], int)
        self.assertEqual(convo["relations"], {"out": True})
        self.assertTrue(convo["postable"])
        # Bob answers with a form, as lichess's API takes it; Ann reads it.
        r = requests.post(SERVER.base + f"/inbox/{an}", data={"text": "hi Ann"},
                          headers={"Authorization": f"Bearer {bob_token}"}, timeout=30)
        self.assertEqual((r.status_code, r.json()), (200, {"ok": True}))
        status, inbox = inbox_json(ann_token, "/inbox")
        self.assertEqual(status, 200, inbox)
        last = inbox["contacts"][0]["lastMsg"]
        self.assertEqual((last["text"], last["user"], last["read"]), ("hi Ann", bn.lower(), False))

    def test_bad_messages_are_refused_and_nothing_is_stored(self):
        an, bn = self.name("loud"), self.name("quiet")
        ann, ann_token = player(an, MSG_SCOPES)
        bob, bob_token = player(bn, MSG_SCOPES)
        bob.relations.follow(an)
        for who, text, status in ((an, "to me", 400), (bn, "x" * 8001, 400), (bn, "  ", 400),
                                  ("nosuchplayer42", "hi", 404)):
            with self.assertRaises(berserk.exceptions.ResponseError) as e:
                ann.messaging.send(who, text)
            self.assertEqual(e.exception.status_code, status, (who, len(text)))
            self.assertIn("error", e.exception.cause)
        ann.messaging.send(bn, "\u00e9" * 8000)
        # Bob blocks Ann: her messages are refused.
        status, _ = raw_json(bob_token, "POST", f"/api/rel/block/{an}")
        self.assertEqual(status, 200)
        with self.assertRaises(berserk.exceptions.ResponseError) as e:
            ann.messaging.send(bn, "still there?")
        self.assertEqual(e.exception.status_code, 403)
        status, inbox = inbox_json(bob_token, f"/inbox/{an}")
        self.assertEqual([len(m["text"]) for m in inbox["convo"]["msgs"]], [8000])
        status, inbox = inbox_json(ann_token, f"/inbox/{bn}")
        self.assertEqual((inbox["convo"]["postable"], inbox["convo"]["refusal"]), (False, "blocked"))
        # Without msg:write, a token can neither write nor read.
        _, token = player(self.name("mute"), "follow:read")
        status, body = raw_json(token, "POST", f"/inbox/{bn}", data={"text": "hi"})
        self.assertEqual(status, 403, body)
        status, body = inbox_json(token, "/inbox")
        self.assertEqual(status, 403, body)


def main():
    global SERVER
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=BIN, help="the plyyard binary (default: target/debug/plyyard or $PLYYARD_BIN)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("tests", nargs="*", help="test names (unittest patterns) to run")
    args = p.parse_args()
    print(f"berserk {berserk.__version__}, requests {requests.__version__}, server {args.bin}")

    def too_long(_sig, _frame):
        raise TimeoutError(f"the API tests took over {RUN_DEADLINE_SECS} s")

    signal.signal(signal.SIGALRM, too_long)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.alarm(RUN_DEADLINE_SECS)
    SERVER = Server(args.bin)
    ok = False
    try:
        SERVER.start()
        print(f"server at {SERVER.base}")
        loader = unittest.TestLoader()
        if args.tests:
            loader.testNamePatterns = [f"*{t}*" for t in args.tests]
        suite = loader.loadTestsFromModule(sys.modules[__name__])
        result = unittest.TextTestRunner(verbosity=2 if args.verbose else 1).run(suite)
        ok = result.wasSuccessful()
        failed = len(result.failures) + len(result.errors)
        print(f"{result.testsRun - failed} passed, {failed} failed")
        if not ok:
            print("--- server log (end) ---\n" + SERVER.log())
    finally:
        signal.alarm(0)
        SERVER.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
