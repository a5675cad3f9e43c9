#!/usr/bin/env python3
"""The crate rules of docs/architecture.md, checked on the real crate graph.

Each rule names workspace crates and the crates they must never reach
through their normal (non-dev, non-build) dependencies, with their own
default features, as `cargo tree -p CRATE -e normal` resolves them. The
rules:

- the rules core and the engine know no async runtime, web framework or
  database;
- the pure domain crates (review, learn, exercises, rating, i18n) and the
  wire types know no runtime, framework or database (the wire types reach axum only
  through their `axum` feature, which the server turns on);
- storage knows no web framework; live games know no web framework;
- the bus between nodes knows no web framework, no database and no chess;
- nothing but the binary and the test kit depends on the server crate
  (nothing imports the HTTP layer).

Exit status 1 when a rule is broken, naming the crate and the forbidden
dependency. `--self-test` checks the rule engine on a made-up graph.
"""

from __future__ import annotations

import json
import subprocess
import sys

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
    "plyyard-i18n": RUNTIME,
    "plyyard-store": {"axum", "hyper", "tower-http", "plyyard-server"},
    "plyyard-live": {"axum", "hyper", "tower-http", "plyyard-server"},
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


def reached(crate: str) -> set[str]:
    """Every crate `crate` reaches through normal dependencies."""
    out = subprocess.run(
        ["cargo", "tree", "-p", crate, "-e", "normal", "--prefix", "none", "--offline"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()} - {crate}


def workspace_crates() -> dict[str, set[str]]:
    """Workspace members and the workspace crates each declares as a
    normal dependency."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    names = {p["name"] for p in meta["packages"]}
    return {
        p["name"]: {
            d["name"]
            for d in p["dependencies"]
            if d["name"] in names and d.get("kind") is None
        }
        for p in meta["packages"]
    }


def violations(
    members: dict[str, set[str]], reach: dict[str, set[str]]
) -> list[str]:
    """The broken rules, given each member's declared workspace dependencies
    and what each ruled crate reaches."""
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
    print("crate_rules self-test: ok")


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        self_test()
        return 0
    members = workspace_crates()
    reach = {c: reached(c) for c in RULES if c in members}
    found = violations(members, reach)
    for v in found:
        print(f"crate rule broken: {v}")
    checked = sorted(c for c in RULES if c in members)
    print(f"crate rules: {len(checked)} crates checked ({', '.join(checked)}), {len(found)} broken")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
