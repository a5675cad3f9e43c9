#!/usr/bin/env python3
"""The crate rules of docs/architecture.md, checked on the real crate graph.

Reach rules. Each names workspace crates and the crates they must never
reach through their normal (non-dev, non-build) dependencies, with their
own default features, as `cargo tree -p CRATE -e normal` resolves them:

- the rules core and the engine know no async runtime, web framework or
  database;
- the pure domain crates (review, learn, exercises, rating, i18n, arena,
  puzzle, swiss, moderation) and the
  wire types know no runtime, framework or database (the wire types reach axum only
  through their `axum` feature, which the server turns on);
- storage knows no web framework; live games know no web framework;
- pairing, social, clubs, tournaments, the puzzle trainer and the
  fair-play watch (domains beside the server) know no web
  framework and not the server; engine time (the engine pool, reviews,
  analyses) knows neither, nor the live games that ask it; accounts (name
  and password rules, hashing) know no framework and no database;
- the bus between nodes knows no web framework, no database and no chess;
- nothing but the binary and the test kit depends on the server crate
  (nothing imports the HTTP layer).

Declaration rules, on what each member's Cargo.toml declares as a normal
dependency (`cargo metadata --no-deps`, kind null: dev and build
dependencies are not counted):

- only the store and the test kit declare `sqlx` (all SQL lives in the
  store; so pairing and social never declare it);
- only the cluster bus, pairing, social and the test kit declare `redis`;
- only the crates listed in DECLARERS declare `shakmaty`: a new domain
  crate reaches the rules through `plyyard-game`.

One rules core: in the normal dependency tree of the binary `plyyard`, the
only chess rules library is shakmaty at exactly RULES_CORE's version, save
the libraries of RULES_EXCEPTIONS, each only through the crates named
there; a crate named like a chess crate that is on neither list of this
file is reported, so that someone classifies it.

One write path: every change of a live game goes through its actor's
commit, so no crate but `plyyard-live` (and the store that defines them)
names the store's game writes (GAME_WRITES) in its `src/`.

Exit status 1 when a rule is broken, naming the crate and the forbidden
dependency, declaration, library or call. `--self-test` shows each rule
failing on a made-up graph or source.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

RUNTIME = {"tokio", "axum", "hyper", "sqlx", "tower-http"}

# crate -> the crates it must never reach
RULES: dict[str, set[str]] = {
    "plyyard-game": RUNTIME,
    "plyyard-engine": RUNTIME,
    "plyyard-wire": RUNTIME,
    "plyyard-review": RUNTIME,
    "plyyard-learn": RUNTIME,
    "plyyard-exercises": RUNTIME,
    "plyyard-rating": RUNTIME,
    "plyyard-swiss": RUNTIME,
    "plyyard-i18n": RUNTIME,
    "plyyard-arena": RUNTIME,
    "plyyard-puzzle": RUNTIME,
    "plyyard-moderation": RUNTIME,
    "plyyard-store": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-live": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-pairing": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-social": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-clubs": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-trainer": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-tournaments": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-fairplay": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-accounts": {"axum", "hyper", "tower-http", "sqlx", "plyyard-server"},
    # Engine time serves live games, reviews and analyses: below all of them.
    "plyyard-engine-time": {"axum", "hyper", "tower-http", "plyyard-server", "plyyard-live"},
    "plyyard-cluster": {
        "axum",
        "hyper",
        "tower-http",
        "sqlx",
        "plyyard-server",
        "plyyard-game",
        "plyyard-store",
    },
}

# Only these may depend on the server crate.
SERVER = "plyyard-server"
SERVER_USERS = {"plyyard", "plyyard-testkit"}

# crate -> the only members that may declare it as a normal dependency.
DECLARERS: dict[str, set[str]] = {
    "sqlx": {"plyyard-store", "plyyard-testkit"},
    "redis": {"plyyard-cluster", "plyyard-pairing", "plyyard-social", "plyyard-testkit"},
    # Today's users of shakmaty's types. A new domain crate (pairing,
    # social, and any later one) reaches the rules through plyyard-game,
    # and is not added here.
    "shakmaty": {
        "plyyard-game",
        "plyyard-engine",
        "plyyard-wire",
        "plyyard-learn",
        "plyyard-review",
        "plyyard-server",
        "plyyard",
        "plyyard-testkit",
    },
}
# Why, printed with a broken declaration rule.
DECLARE_WHY = {
    "sqlx": "all SQL lives in plyyard-store",
    "redis": "the bus is plyyard-cluster's",
    "shakmaty": "other crates reach the rules through plyyard-game",
}

# The binary whose whole normal tree has one rules core, and that core
# (pinned `shakmaty = "=0.30.1"` in the workspace Cargo.toml).
BINARY = "plyyard"
RULES_CORE = ("shakmaty", "0.30.1")
# Chess rules libraries (move generation, legality, positions): none but
# RULES_CORE in the binary's tree, save RULES_EXCEPTIONS.
RULES_LIBS = {
    "shakmaty",
    "chess",
    "chess-engine",
    "chess-move-gen",
    "chessie",
    "cozy-chess",
    "cozy-chess-types",
    "owlchess",
    "pleco",
    "pleco_engine",
    "timecat",
}
# Chess crates that are no rules core: UCI and PGN parsers, tablebase
# probing on shakmaty (a second shakmaty they bring is caught all the same).
NOT_RULES = {"vampirc-uci", "pgn-reader", "shakmaty-syzygy", "shakmaty-uci"}
# A rules library allowed in the binary's tree -> the only crates that may
# bring it in.
RULES_EXCEPTIONS: dict[str, set[str]] = {
    # esca (plyyard-review's ECO catalogue) only names openings; it is built
    # on cozy-chess. Our games' rules stay shakmaty's: nothing of ours may
    # declare cozy-chess or use it but through esca's opening names.
    "cozy-chess": {"esca"},
    "cozy-chess-types": {"cozy-chess"},
}
CHESS_NAMED = re.compile(r"chess|shakmaty")

# The store's game-write path: the writes of a live game's moves and state,
# fenced by its version and lease epoch and committed by the group-commit
# writer (crates/store/src/games.rs over writer.rs). Not here: inserting a
# new game (`insert_game`, and the table, challenge and review inserts),
# which happens before any actor owns the game.
GAME_WRITES = ("append_moves", "truncate_moves", "update_game")
WRITE_CALL = re.compile(rf"(?:\.|::)\s*({'|'.join(GAME_WRITES)})\b")
# The crates that may name them in their src/.
WRITERS = {"plyyard-store", "plyyard-live"}


def cargo(*args: str) -> str:
    return subprocess.run(
        ["cargo", *args, "--offline"], check=True, capture_output=True, text=True
    ).stdout


def reached(crate: str) -> set[str]:
    """Every crate `crate` reaches through normal dependencies."""
    out = cargo("tree", "-p", crate, "-e", "normal", "--prefix", "none")
    return {line.split()[0] for line in out.splitlines() if line.strip()} - {crate}


def metadata() -> dict:
    return json.loads(cargo("metadata", "--format-version", "1", "--no-deps"))


def declared(meta: dict) -> dict[str, set[str]]:
    """Workspace members and every crate each declares as a normal dependency."""
    return {
        p["name"]: {d["name"] for d in p["dependencies"] if d.get("kind") is None}
        for p in meta["packages"]
    }


def parse_tree(text: str) -> dict[tuple[str, str], set[str]]:
    """`cargo tree --prefix depth` output as (name, version) -> the names of
    the crates that bring it in."""
    parents: dict[tuple[str, str], set[str]] = {}
    stack: list[str] = []
    for line in text.splitlines():
        m = re.match(r"(\d+)(\S+) v(\S+)", line)
        if not m:
            continue
        depth, node = int(m.group(1)), (m.group(2), m.group(3))
        del stack[depth:]
        parents.setdefault(node, set())
        if stack:
            parents[node].add(stack[-1])
        stack.append(node[0])
    return parents


def binary_tree() -> dict[tuple[str, str], set[str]]:
    return parse_tree(cargo("tree", "-p", BINARY, "-e", "normal", "--prefix", "depth"))


def sources(meta: dict) -> dict[str, dict[str, str]]:
    """Each member's `src/**/*.rs`, path (from the workspace root) -> text."""
    root = Path(meta["workspace_root"])
    out = {}
    for p in meta["packages"]:
        src = Path(p["manifest_path"]).parent / "src"
        out[p["name"]] = {
            f.relative_to(root).as_posix(): f.read_text(encoding="utf-8", errors="replace")
            for f in sorted(src.rglob("*.rs"))
        }
    return out


def reach_violations(members: dict[str, set[str]], reach: dict[str, set[str]]) -> list[str]:
    found = []
    for crate, forbidden in sorted(RULES.items()):
        if crate not in members:
            continue
        for bad in sorted(reach.get(crate, set()) & forbidden):
            found.append(f"{crate} depends on {bad}")
    for crate, deps in sorted(members.items()):
        if SERVER in deps and crate not in SERVER_USERS:
            found.append(f"{crate} depends on {SERVER} (only {sorted(SERVER_USERS)} may)")
    return found


def declare_violations(members: dict[str, set[str]]) -> list[str]:
    found = []
    for crate, deps in sorted(members.items()):
        for dep in sorted(deps & DECLARERS.keys()):
            if crate not in DECLARERS[dep]:
                found.append(
                    f"{crate} declares {dep} in its Cargo.toml [dependencies] "
                    f"(only {sorted(DECLARERS[dep])} may: {DECLARE_WHY[dep]})"
                )
    return found


def core_violations(tree: dict[tuple[str, str], set[str]]) -> list[str]:
    """The rules libraries of the binary's tree besides the one core."""
    if not tree:
        return []
    core_name, core_version = RULES_CORE
    found = []
    if RULES_CORE not in tree:
        found.append(f"{BINARY} does not reach {core_name} {core_version}, the one rules core")
    for (name, version), parents in sorted(tree.items()):
        via = ", ".join(sorted(parents))
        allowed = RULES_EXCEPTIONS.get(name)
        if (name, version) == RULES_CORE:
            continue
        if name == core_name:
            found.append(
                f"{BINARY} reaches {name} v{version} through {via} "
                f"(the rules core is {core_name} ={core_version} alone)"
            )
        elif name in RULES_LIBS and not (allowed and parents <= allowed):
            only = f"; {name} only through {sorted(allowed)}" if allowed else ""
            found.append(
                f"{BINARY} reaches the chess rules library {name} v{version} through {via} "
                f"(the one rules core is {core_name} {core_version}{only})"
            )
        elif CHESS_NAMED.search(name) and name not in RULES_LIBS | NOT_RULES:
            found.append(
                f"{BINARY} reaches {name} v{version} through {via}, a chess crate on neither "
                "RULES_LIBS nor NOT_RULES of tools/crate_rules.py: classify it"
            )
    return found


def code(text: str) -> str:
    """`text` with its comments blanked (offsets and lines kept)."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def write_violations(srcs: dict[str, dict[str, str]]) -> list[str]:
    """Calls of the store's game writes outside WRITERS."""
    found = []
    for crate, files in sorted(srcs.items()):
        if crate in WRITERS:
            continue
        for path, text in sorted(files.items()):
            for m in WRITE_CALL.finditer(code(text)):
                line = text.count("\n", 0, m.start()) + 1
                found.append(
                    f"{crate} calls the store's game write {m.group(1)} at {path}:{line} "
                    f"(only {sorted(WRITERS - {'plyyard-store'})} may: every change of a "
                    "live game goes through its actor's commit)"
                )
    return found


def violations(
    members: dict[str, set[str]],
    reach: dict[str, set[str]],
    tree: dict[tuple[str, str], set[str]] | None = None,
    srcs: dict[str, dict[str, str]] | None = None,
) -> list[str]:
    """The broken rules, given each member's declared normal dependencies,
    what each ruled crate reaches, the binary's tree and the members' sources."""
    return (
        reach_violations(members, reach)
        + declare_violations(members)
        + core_violations(tree or {})
        + write_violations(srcs or {})
    )


SELF_TEST_TREE = """\
0plyyard v0.1.0 (/x/crates/plyyard)
1plyyard-review v0.1.0 (/x/crates/review)
2esca v0.4.0
3cozy-chess v0.3.4
4cozy-chess-types v0.2.2
2shakmaty v0.30.1
3arrayvec v0.7.8
1plyyard-game v0.1.0 (/x/crates/game)
2shakmaty v0.30.1 (*)
2pgn-reader v0.29.0
3shakmaty v0.30.1 (*)
"""


def self_test() -> None:
    members = {
        "plyyard-game": set(),
        "plyyard-engine": {"plyyard-game"},
        "plyyard-store": {"plyyard-wire"},
        "plyyard-wire": set(),
        "plyyard-live": {"plyyard-server"},
    }
    reach = {
        "plyyard-game": {"shakmaty"},
        "plyyard-engine": {"plyyard-game", "tokio"},
        "plyyard-store": {"sqlx", "tokio"},
        "plyyard-wire": {"http", "serde"},
        "plyyard-live": {"plyyard-server", "axum"},
    }
    got = violations(members, reach)
    want = [
        "plyyard-engine depends on tokio",
        "plyyard-live depends on axum",
        "plyyard-live depends on plyyard-server",
        "plyyard-live depends on plyyard-server (only ['plyyard', 'plyyard-testkit'] may)",
    ]
    assert got == want, got
    assert violations({"plyyard-game": set()}, {"plyyard-game": {"serde"}}) == []

    # Pairing and social: no web framework, no server.
    got = violations(
        {"plyyard-pairing": {"plyyard-live"}, "plyyard-social": set()},
        {"plyyard-pairing": {"plyyard-live", "hyper"}, "plyyard-social": {"tower-http", "redis"}},
    )
    assert got == ["plyyard-pairing depends on hyper", "plyyard-social depends on tower-http"], got

    # Declarations: sqlx, redis, shakmaty.
    ok = {
        "plyyard-store": {"sqlx"},
        "plyyard-testkit": {"sqlx", "redis", "shakmaty"},
        "plyyard-cluster": {"redis"},
        "plyyard-pairing": {"redis", "plyyard-game"},
        "plyyard-game": {"shakmaty"},
    }
    assert declare_violations(ok) == [], declare_violations(ok)
    got = declare_violations(
        {"plyyard-server": {"sqlx", "redis"}, "plyyard-social": {"sqlx", "shakmaty"}}
    )
    assert [g.split(" (")[0] for g in got] == [
        "plyyard-server declares redis in its Cargo.toml [dependencies]",
        "plyyard-server declares sqlx in its Cargo.toml [dependencies]",
        "plyyard-social declares shakmaty in its Cargo.toml [dependencies]",
        "plyyard-social declares sqlx in its Cargo.toml [dependencies]",
    ], got
    assert "only ['plyyard-store', 'plyyard-testkit'] may" in got[1], got

    # One rules core: esca's cozy-chess passes; a second library, another
    # shakmaty, cozy-chess not through esca, an unknown chess crate do not.
    tree = parse_tree(SELF_TEST_TREE)
    assert tree[("cozy-chess", "0.3.4")] == {"esca"}, tree
    assert tree[("shakmaty", "0.30.1")] == {"plyyard-review", "plyyard-game", "pgn-reader"}, tree
    assert core_violations(tree) == [], core_violations(tree)
    bad = parse_tree(
        SELF_TEST_TREE
        + "1pleco v0.5.0\n1plyyard-learn v0.1.0 (/x)\n2shakmaty v0.31.0\n"
        + "2cozy-chess v0.3.4 (*)\n2chess-board v1.0.0\n"
    )
    got = core_violations(bad)
    assert [g.split(" (")[0].split(",")[0] for g in got] == [
        "plyyard reaches chess-board v1.0.0 through plyyard-learn",
        "plyyard reaches the chess rules library cozy-chess v0.3.4 through esca",
        "plyyard reaches the chess rules library pleco v0.5.0 through plyyard",
        "plyyard reaches shakmaty v0.31.0 through plyyard-learn",
    ], got
    got = core_violations(parse_tree("0plyyard v0.1.0 (/x)\n1chess v3.2.0\n"))
    assert got[0] == "plyyard does not reach shakmaty 0.30.1, the one rules core", got
    assert got[1].startswith("plyyard reaches the chess rules library chess v3.2.0"), got

    # One write path: live and the store may name the game writes; a call
    # elsewhere is found, one in a comment is not.
    srcs = {
        "plyyard-live": {"crates/live/src/actor.rs": "store.append_moves(id, v, rows, s).await"},
        "plyyard-store": {"crates/store/src/games.rs": "self.update_game(id, v, s)"},
        "plyyard-pairing": {
            "crates/pairing/src/tables.rs": (
                "// store.append_moves(..) is live's\n/* update_game( */\n"
                "fn f() {\n    store\n        .truncate_moves(id, v, 0, &s);\n}\n"
            )
        },
        "plyyard-testkit": {"crates/testkit/src/lib.rs": "let f = Store::update_game;"},
    }
    got = write_violations(srcs)
    assert [g.split(" (")[0] for g in got] == [
        "plyyard-pairing calls the store's game write truncate_moves at crates/pairing/src/tables.rs:5",
        "plyyard-testkit calls the store's game write update_game at crates/testkit/src/lib.rs:1",
    ], got
    assert violations({}, {}, tree, {"plyyard-live": srcs["plyyard-live"]}) == []
    print("crate_rules self-test: ok (reach, server users, declarations, one rules core, one write path)")


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        self_test()
        return 0
    meta = metadata()
    members = declared(meta)
    reach = {c: reached(c) for c in RULES if c in members}
    tree = binary_tree() if BINARY in members else {}
    srcs = sources(meta)
    found = violations(members, reach, tree, srcs)
    for v in found:
        print(f"crate rule broken: {v}")
    checked = sorted(c for c in RULES if c in members)
    chess = sorted(f"{n} {v}" for n, v in tree if n in RULES_LIBS | NOT_RULES or CHESS_NAMED.search(n))
    files = sum(len(f) for c, f in srcs.items() if c not in WRITERS)
    print(
        f"crate rules: {len(checked)} crates checked ({', '.join(checked)}); "
        f"{len(members)} members' declarations of {', '.join(sorted(DECLARERS))}; "
        f"{BINARY}'s chess crates: {', '.join(chess)}; "
        f"game writes looked for in {files} source files outside {', '.join(sorted(WRITERS))}; "
        f"{len(found)} broken"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
