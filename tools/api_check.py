#!/usr/bin/env python3
"""Plays a short Board-API game on a Ply Yard server with berserk, a real
lichess client, and checks what berserk makes of every answer.

    pip install berserk==0.14.0
    python3 tools/api_check.py http://127.0.0.1:8080 lip_A lip_B --password PW
    python3 tools/api_check.py http://127.0.0.1:8080 lip_A lip_B --game ID

Both tokens need `board:play`. With `--password` (both accounts' password)
the first account logs in, opens a casual 5+3 table and the second sits at
it (tables are opened from the web app, with a session); `--game` names
an ongoing game of the two accounts with no move played instead. The two players stream the game (`board.stream_game_state`), play
1. e4 e5 2. Nf3 Nc6 (castling-free), see the game in
`games.get_ongoing`, then Black resigns; the script checks each line
berserk parses (times as `timedelta`, i.e. integers in ms on the wire),
the end of the stream, and the exported game. Exit status 0 when every
check passed, 1 otherwise.
"""

import argparse
import datetime
import http.cookiejar
import json
import sys
import urllib.request

import berserk

FAILED = []


def check(what, ok, detail=""):
    """Records and prints one check."""
    print(("ok   " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILED.append(what)


def next_state(stream):
    """The stream's next gameState, passing over (and printing) the
    opponentGone lines a stream sends while the other player's stream is
    not open yet."""
    for line in stream:
        if line.get("type") == "opponentGone":
            print(f"     (opponentGone: {line})")
            continue
        return line
    return None


def web_session(base, username, password):
    """A logged-in web session (cookies, same origin): a function that
    POSTs JSON and returns the parsed answer."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def post(path, body):
        req = urllib.request.Request(
            base + path,
            data=json.dumps(body).encode(),
            headers={"Origin": base, "Content-Type": "application/json"},
            method="POST",
        )
        with opener.open(req, timeout=10) as resp:
            return json.loads(resp.read() or b"{}")

    post("/api/account/login", {"username": username, "password": password})
    return post


def open_table(base, names, password):
    """A new casual 5+3 table game between the two accounts: its id."""
    host, guest = (web_session(base, n, password) for n in names)
    table = host("/api/tables", {"minutes": 5, "increment": 3, "rules": "plyyard", "rated": False,
                                 "public": False})
    return guest(f"/api/tables/{table['code']}/join", {})["game_id"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base_url")
    p.add_argument("token_a")
    p.add_argument("token_b")
    p.add_argument("--game", help="an ongoing game of the two accounts, no move played yet")
    p.add_argument("--password", help="both accounts' password, to open a table for the game")
    args = p.parse_args()
    base = args.base_url.rstrip("/")
    print(f"berserk {berserk.__version__} against {base}")

    clients = [berserk.Client(berserk.TokenSession(t), base_url=base) for t in (args.token_a, args.token_b)]
    names = [c.account.get()["username"] for c in clients]
    check("account.get gives both usernames", all(names), str(names))
    if not args.game and not args.password:
        p.error("give --game or --password")
    game_id = args.game or open_table(base, names, args.password)
    print(f"game {game_id}")

    streams = [c.board.stream_game_state(game_id) for c in clients]
    fulls = [next(s) for s in streams]
    full = fulls[0]
    check("the first line is gameFull", full.get("type") == "gameFull", full)
    check("gameFull.createdAt becomes a datetime", isinstance(full.get("createdAt"), datetime.datetime),
          repr(full.get("createdAt")))
    check("gameFull.state has type gameState", full["state"].get("type") == "gameState", full["state"])
    check("gameFull.state times are ints (ms)",
          all(isinstance(full["state"][k], int) for k in ("wtime", "btime", "winc", "binc")), full["state"])
    check("gameFull.clock is in ms", full.get("clock") == {"initial": 300000, "increment": 3000}, full.get("clock"))
    check("variant name", full["variant"]["name"] == "Standard", full["variant"])
    white = 0 if full["white"]["name"].lower() == names[0].lower() else 1
    check("the players are the two accounts",
          {full["white"]["name"].lower(), full["black"]["name"].lower()} == {n.lower() for n in names},
          (full["white"], full["black"]))
    order = [white, 1 - white]

    played = []
    for i, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
        mover = clients[order[i % 2]]
        mover.board.make_move(game_id, uci)
        played.append(uci)
        for s in streams:
            st = next_state(s)
            ok = (st.get("type") == "gameState" and st.get("moves") == " ".join(played)
                  and st.get("status") == "started")
            check(f"gameState after {uci}", ok, st)
            check(f"wtime/btime after {uci} become timedeltas",
                  isinstance(st.get("wtime"), datetime.timedelta) and isinstance(st.get("btime"), datetime.timedelta),
                  st)

    ongoing = clients[0].games.get_ongoing()
    check("games.get_ongoing lists the game", any(g.get("gameId") == game_id for g in ongoing), ongoing)

    clients[order[1]].board.resign_game(game_id)
    for s in streams:
        st = next_state(s)
        check("the last gameState is a resignation",
              st.get("status") == "resign" and st.get("winner") == "white", st)
        rest = list(s)
        check("the stream ends after the game", rest == [], rest)

    exported = clients[0].games.export(game_id)
    check("games.export gives the game", exported.get("id") == game_id and exported.get("status") == "resign",
          exported)
    check("games.export createdAt becomes a datetime", isinstance(exported.get("createdAt"), datetime.datetime),
          repr(exported.get("createdAt")))

    try:
        clients[order[0]].board.make_move(game_id, "d2d4")
        check("a late move is refused", False, "accepted")
    except berserk.exceptions.ResponseError as e:
        check("a late move is refused with a 4xx", 400 <= e.status_code < 500, e)

    print(f"{'all checks passed' if not FAILED else f'{len(FAILED)} checks failed'}")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
