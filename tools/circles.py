#!/usr/bin/env python3
"""Import circles between the modules of every Rust crate under crates/*/src.

A module is a file (`lib.rs`, `main.rs` and `mod.rs` stand for their
directory's module), found by following `mod name;` from each crate root
(`lib.rs`, `main.rs`, `bin/*.rs`). An edge A -> B means code in A's file
names something in B: a `use` of `crate::…`, `super::…`, `self::…` or a
child module, or such a path written in the code. The target of a path is
the deepest module it names; an item named in a module that only brings it
in (`mod child; pub use child::X`, or any `use`) is followed to where it is
defined, so a child reaching `super::X` re-exported from itself is no edge
to its parent, while a child using `super::Thing` defined in the parent is.
Comments, strings and `mod` declarations make no edges; an inline
`mod tests { use super::*; }` stays inside its file.

Prints every strongly connected component of more than one module (Tarjan)
with one circle through it (and, when the crate root is in it, the circles
that remain without the root), and exits 1 if there is any. Test modules
count like any other.

Folders: the same pass on each crate's graph folded to its top-level
modules (`foo/bar/baz` and `foo/qux` are both `foo`; `foo.rs` and
`foo/mod.rs` are `foo` too; the crate root is its own node). An edge of the
folded graph is any file edge between two different top-level modules,
resolved as above (so `crate::X` re-exported by the root leads to where X
is defined, not to the root). Two files in different folders that name
each other's folder make a knot even when no file circle exists. Each knot
is printed with its folders, one circle through it and, for every two-way
pair, one file edge each way (with the path that made it): where to cut;
a folder in no two-way pair gets a circle through it, a file edge a step.

    python3 tools/circles.py [--root DIR]   # files, then folders; DIR holds crates/ (default: the repository)
    python3 tools/circles.py --folders      # the folder-level check alone
    python3 tools/circles.py --self-test    # tiny crates, some with circles or knots: only they are reported
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

Mod = tuple[str, ...]

ITEM_KINDS = r"fn|struct|enum|type|trait|const|static|union"
TOKENS = re.compile(
    r"(?P<mod>\bmod\s+(?P<modname>[A-Za-z_]\w*)\s*(?P<modend>[;{]))"
    r"|(?P<use>\buse\s+(?P<tree>[^;]+);)"
    rf"|(?P<def>\b(?:{ITEM_KINDS})\s+(?P<defname>(?!(?:fn|unsafe|async|extern)\b)[A-Za-z_]\w*)|\bmacro_rules!\s*(?P<macname>[A-Za-z_]\w*))"
    r"|(?P<path>(?<![\w:$])(?:r#)?[A-Za-z_]\w*(?:\s*::\s*(?:[A-Za-z_]\w*|\*))+)"
    r"|(?P<open>\{)|(?P<close>\})"
)


def strip(src: str) -> str:
    """`src` with comments, strings and char literals blanked (newlines kept)."""
    out: list[str] = []
    i, n = 0, len(src)

    def blank(s: str) -> str:
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(src[i:j]))
            i = j
        elif (m := re.compile(r'b?r(#*)"').match(src, i)) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(blank(src[i:j]))
            i = j
        elif c == '"' or (c == "b" and src.startswith('b"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(blank(src[i : j + 1]))
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{1F600}'), or a lifetime ('a), left as it is.
            m = re.compile(r"'(?:\\(?:u\{[0-9A-Fa-f]+\}|x[0-9A-Fa-f]{2}|.)|[^\\'\n])'").match(src, i)
            if m:
                out.append(blank(m.group(0)))
                i = m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_top(s: str) -> list[str]:
    """`s` split at the commas outside braces."""
    parts, depth, cur = [], 0, []
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def use_paths(tree: str, prefix: list[str] | None = None) -> list[tuple[list[str], str | None]]:
    """The paths of a `use` tree with the name each brings in (None for `*`)."""
    prefix = prefix or []
    tree = re.sub(r"\s+", " ", tree).strip()
    if tree.startswith("::"):
        return []  # an external crate by absolute path
    out: list[tuple[list[str], str | None]] = []
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        head = [s.strip() for s in tree[:brace].split("::") if s.strip()]
        for part in split_top(tree[brace + 1 : -1]):
            out += use_paths(part, prefix + head)
        return out
    alias = None
    if " as " in tree:
        tree, alias = (x.strip() for x in tree.split(" as ", 1))
    segs = prefix + [s.strip() for s in tree.split("::") if s.strip()]
    if not segs:
        return []
    if segs[-1] == "*":
        return [(segs, None)]
    if segs[-1] == "self":
        segs = segs[:-1]
    if not segs:
        return []
    name = alias or segs[-1]
    return [(segs, None if name == "_" else name)]


@dataclass
class ModFile:
    """A module backed by a file, as parsed."""

    path: Path
    # Paths named in code and in `use` trees: (inline module stack, segments).
    paths: list[tuple[Mod, list[str]]] = field(default_factory=list)
    # File-level `use` names: name -> segments; glob sources.
    uses: dict[str, list[str]] = field(default_factory=dict)
    globs: list[list[str]] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)
    children: list[str] = field(default_factory=list)  # `mod x;` at file level
    inline: set[Mod] = field(default_factory=set)  # inline module stacks seen


def parse(path: Path) -> ModFile:
    text = strip(path.read_text(encoding="utf-8", errors="replace"))
    mf = ModFile(path)
    depth = 0
    stack: list[tuple[str, int]] = []  # inline modules: (name, depth inside them)
    for m in TOKENS.finditer(text):
        inner: Mod = tuple(name for name, _ in stack)
        if m.group("mod"):
            if m.group("modend") == ";":
                if not stack:
                    mf.children.append(m.group("modname"))
            else:
                depth += 1
                stack.append((m.group("modname"), depth))
                mf.inline.add(tuple(name for name, _ in stack))
        elif m.group("use"):
            for segs, name in use_paths(m.group("tree")):
                mf.paths.append((inner, segs))
                if depth == 0:
                    if name is None:
                        mf.globs.append(segs[:-1])
                    else:
                        mf.uses[name] = segs
        elif m.group("def"):
            if depth == 0:
                mf.defined.add(m.group("defname") or m.group("macname"))
        elif m.group("path"):
            segs = [s.strip().removeprefix("r#") for s in m.group("path").split("::")]
            mf.paths.append((inner, segs))
        elif m.group("open"):
            depth += 1
        elif m.group("close"):
            if stack and stack[-1][1] == depth:
                stack.pop()
            depth -= 1
    return mf


class Tree:
    """The modules of one crate root and the edges between their files."""

    def __init__(self, src: Path, root: Path):
        self.src = src
        self.files: dict[Mod, ModFile] = {}
        self._load((), root)

    def _load(self, mod: Mod, path: Path) -> None:
        if mod in self.files:
            return
        mf = parse(path)
        self.files[mod] = mf
        base = path.parent if path.name in ("lib.rs", "main.rs", "mod.rs") or mod == () else path.parent / path.stem
        for child in mf.children:
            for cand in (base / f"{child}.rs", base / child / "mod.rs"):
                if cand.is_file():
                    self._load(mod + (child,), cand)
                    break

    def name(self, mod: Mod) -> str:
        return self.files[mod].path.relative_to(self.src).with_suffix("").as_posix()

    def is_mod(self, mod: Mod) -> bool:
        """A module, backed by a file or inline in one."""
        if mod in self.files:
            return True
        for k in range(len(mod) - 1, -1, -1):
            if mod[:k] in self.files:
                return mod[k:] in self.files[mod[:k]].inline
        return False

    def file_of(self, mod: Mod) -> Mod:
        while mod not in self.files:
            mod = mod[:-1]
        return mod

    def start(self, cur: Mod, segs: list[str]) -> tuple[Mod, list[str]] | None:
        """Where a path starts: `crate`, `self`, `super`, or a child module of `cur`."""
        head = segs[0]
        if head in ("crate", "$crate"):
            return (), segs[1:]
        if head == "self":
            return cur, segs[1:]
        if head == "super":
            i = 0
            while i < len(segs) and segs[i] == "super":
                cur, i = cur[:-1], i + 1
            return cur, segs[i:]
        if self.is_mod(cur + (head,)):
            return cur, segs
        return None

    def resolve(self, cur: Mod, segs: list[str], seen: frozenset = frozenset()) -> Mod | None:
        """The module a path written in module `cur` names, following `use`s to where an item is defined."""
        s = self.start(cur, segs)
        if s is None:
            return None
        mod, rest = s
        for seg in rest:
            if seg in ("*", "self"):
                break
            if seg == "super":
                mod = mod[:-1]
                continue
            if self.is_mod(mod + (seg,)):
                mod = mod + (seg,)
                continue
            return self.item(mod, seg, seen)
        return mod

    def item(self, mod: Mod, name: str, seen: frozenset) -> Mod | None:
        """Where item `name`, reached through module `mod`, is defined (None: in another crate)."""
        key = (mod, name)
        mf = self.files.get(mod)
        if mf is None or key in seen or name in mf.defined:
            return mod
        seen = seen | {key}
        if name in mf.uses:
            return self.resolve(mod, mf.uses[name], seen)
        for g in mf.globs:
            src = self.resolve(mod, g, seen) if g else None
            if src is not None and src != mod and src in self.files:
                found = self.item(src, name, seen)
                if found in self.files and name in self.files[found].defined:
                    return found
        return mod

    def edges(self) -> dict[Mod, set[Mod]]:
        """File -> the files it names; `self.why[(a, b)]` is the first path that made a -> b."""
        out: dict[Mod, set[Mod]] = {m: set() for m in self.files}
        self.why: dict[tuple[Mod, Mod], str] = {}
        for mod, mf in self.files.items():
            for inner, segs in mf.paths:
                target = self.resolve(mod + inner, segs)
                if target is None:
                    continue
                target = self.file_of(target)
                if target != mod:
                    out[mod].add(target)
                    self.why.setdefault((mod, target), "::".join(segs))
        return out

    def folder_name(self, top: Mod) -> str:
        """A node of the folded graph: the crate root's file, or a top-level module."""
        return self.name(()) if top == () else top[0]


def fold(graph: dict[Mod, set[Mod]]) -> tuple[dict[Mod, set[Mod]], dict[tuple[Mod, Mod], tuple[Mod, Mod]]]:
    """`graph` folded to top-level modules, and one file edge (the first in
    order) behind each folded edge."""
    out: dict[Mod, set[Mod]] = {m[:1]: set() for m in graph}
    example: dict[tuple[Mod, Mod], tuple[Mod, Mod]] = {}
    for a in sorted(graph):
        for b in sorted(graph[a]):
            fa, fb = a[:1], b[:1]
            if fa != fb:
                out[fa].add(fb)
                example.setdefault((fa, fb), (a, b))
    return out, example


def tarjan(graph: dict[Mod, set[Mod]]) -> list[list[Mod]]:
    index: dict[Mod, int] = {}
    low: dict[Mod, int] = {}
    on: set[Mod] = set()
    stack: list[Mod] = []
    comps: list[list[Mod]] = []

    def visit(v: Mod) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

    sys.setrecursionlimit(max(10_000, 4 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def one_circle(graph: dict[Mod, set[Mod]], comp: list[Mod]) -> list[Mod]:
    """A shortest circle through the component's first module."""
    members, first = set(comp), comp[0]
    prev: dict[Mod, Mod] = {}
    queue = deque([first])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v] & members):
            if w == first:
                path = [v]
                while path[-1] != first:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [first]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def roots(crate: Path) -> list[tuple[str, Path]]:
    src = crate / "src"
    found = [(crate.name, src / "lib.rs"), (f"{crate.name} (main.rs)", src / "main.rs")]
    bins = src / "bin"
    if bins.is_dir():
        for p in sorted(bins.iterdir()):
            main = p if p.suffix == ".rs" else p / "main.rs"
            found.append((f"{crate.name} (bin/{p.name})", main))
    return [(name, path) for name, path in found if path.is_file()]


def crates(root: Path) -> list[Path]:
    return sorted(p for p in (root / "crates").iterdir() if (p / "src").is_dir())


def check(root: Path, out=sys.stdout) -> list[tuple[str, list[str]]]:
    """Prints the circles of every crate under `root/crates`; answers them as (crate, module names)."""
    found = []
    for crate in crates(root):
        for label, path in roots(crate):
            tree = Tree(crate / "src", path)
            graph = tree.edges()
            for comp in tarjan(graph):
                if len(comp) < 2:
                    continue
                names = [tree.name(m) for m in comp]
                circle = " -> ".join(tree.name(m) for m in one_circle(graph, comp))
                print(f"{label}: {len(comp)} modules in a circle: {', '.join(names)}", file=out)
                print(f"    e.g. {circle}", file=out)
                found.append((label, names))
                without_root(graph, comp, tree.name, out)
    if not found:
        print("no import circles between modules", file=out)
    return found


def without_root(graph: dict[Mod, set[Mod]], comp: list[Mod], name, out) -> None:
    """When the crate root ties a component together: the circles beneath it."""
    if () not in comp or len(comp) <= 2:
        return
    members = set(comp) - {()}
    rest = {m: graph[m] & members for m in members}
    for sub in tarjan(rest):
        if len(sub) > 1:
            path = " -> ".join(name(m) for m in one_circle(rest, sub))
            print(f"    without {name(())}: {', '.join(name(m) for m in sub)}; e.g. {path}", file=out)


def edge_line(tree: Tree, edge: tuple[Mod, Mod]) -> str:
    """A file edge as `from -> to  (the path that made it)`."""
    return f"{tree.name(edge[0])} -> {tree.name(edge[1])}  ({tree.why[edge]})"


def check_folders(root: Path, out=sys.stdout) -> list[tuple[str, list[str]]]:
    """Prints the knots between the top-level modules of every crate under
    `root/crates`; answers them as (crate, folder names)."""
    found = []
    for crate in crates(root):
        for label, path in roots(crate):
            tree = Tree(crate / "src", path)
            graph, example = fold(tree.edges())
            name = tree.folder_name
            for comp in tarjan(graph):
                if len(comp) < 2:
                    continue
                names = [name(m) for m in comp]
                circle = " -> ".join(name(m) for m in one_circle(graph, comp))
                print(f"{label}: {len(comp)} folders in a knot: {', '.join(names)}", file=out)
                print(f"    e.g. {circle}", file=out)
                found.append((label, names))
                paired = set()
                for a in comp:
                    for b in sorted(graph[a] & set(comp)):
                        if a < b and a in graph[b]:
                            paired |= {a, b}
                            print(f"    {name(a)} <-> {name(b)}:", file=out)
                            for edge in (example[(a, b)], example[(b, a)]):
                                print(f"        {edge_line(tree, edge)}", file=out)
                for a in comp:
                    if a not in paired:
                        # Tied in only by a longer circle: that circle, a file edge per step.
                        circle = one_circle(graph, [a] + [m for m in comp if m != a])
                        print(f"    {name(a)} (in no two-way pair): {' -> '.join(name(m) for m in circle)}", file=out)
                        for step in zip(circle, circle[1:]):
                            print(f"        {edge_line(tree, example[step])}", file=out)
                without_root(graph, comp, name, out)
    if not found:
        print("no import knots between folders", file=out)
    return found


SELF_TEST = {
    # Two circles: x <-> y (through crate:: and super:: paths), and lib <-> z
    # (the root calls z, z uses a type defined in the root).
    "cyclic/src/lib.rs": "mod x;\nmod y;\nmod z;\npub struct Root;\npub fn make() -> Root { z::make() }\n",
    "cyclic/src/x.rs": "use crate::y::Y;\npub struct X(pub Y);\n",
    "cyclic/src/y.rs": "pub struct Y;\npub fn back() -> super::x::X { super::x::X(Y) }\n",
    "cyclic/src/z.rs": "use super::Root;\npub fn make() -> Root { Root }\n",
    # No circle: re-exports followed to their definition, an inline test
    # module's `super`, paths in strings and comments, a glob re-export.
    "acyclic/src/lib.rs": (
        "mod shapes;\nmod util;\nmod wide;\npub use shapes::Circle;\npub use wide::*;\n"
        "pub fn area() -> f64 { shapes::Circle::new().r }\n"
    ),
    "acyclic/src/shapes.rs": (
        "use crate::util::half;\n#[allow(unused_imports)]\nuse crate::Circle as _Again;\n"
        "#[allow(unused_imports)]\nuse super::Wide as _W;\n"
        "pub struct Circle { pub r: f64 }\n"
        'impl Circle { pub fn new() -> Self { let _s = "crate::area super::area"; Circle { r: half(2.0) } } }\n'
        "// crate::area() would be a circle\n/* super::area */\n"
    ),
    "acyclic/src/util.rs": (
        "pub fn half(x: f64) -> f64 { x / 2.0 }\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn halves() { assert_eq!(half(2.0), 1.0); }\n}\n"
    ),
    "acyclic/src/wide.rs": "pub struct Wide;\nimpl Wide { pub fn c(&self) -> char { '{' } }\n",
    # No file circle, but a folder knot: a/x -> b/q and b/p -> a/y, so a <-> b.
    "knotted/src/lib.rs": "mod a;\nmod b;\n",
    "knotted/src/a/mod.rs": "mod x;\nmod y;\n",
    "knotted/src/a/x.rs": "use crate::b::q::Q;\npub fn x() -> Q { Q }\n",
    "knotted/src/a/y.rs": "pub struct Y;\n",
    "knotted/src/b/mod.rs": "pub mod p;\npub mod q;\n",
    "knotted/src/b/p.rs": "pub fn p() -> crate::a::y::Y { crate::a::y::Y }\n",
    "knotted/src/b/q.rs": "pub struct Q;\n",
}


def self_test() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, text in SELF_TEST.items():
            p = root / "crates" / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
        buf = io.StringIO()
        found = sorted((label, sorted(names)) for label, names in check(root, out=buf))
        folders = sorted((label, sorted(names)) for label, names in check_folders(root, out=buf))
    want = [("cyclic", ["lib", "z"]), ("cyclic", ["x", "y"])]
    want_folders = [("cyclic", ["lib", "z"]), ("cyclic", ["x", "y"]), ("knotted", ["a", "b"])]
    if found != want:
        print(f"self-test FAILED: found {found}, want {want}\n{buf.getvalue()}", file=sys.stderr)
        return 1
    if folders != want_folders:
        print(f"self-test FAILED: folders found {folders}, want {want_folders}\n{buf.getvalue()}", file=sys.stderr)
        return 1
    for line in ("a/x -> b/q  (crate::b::q::Q)", "b/p -> a/y  (crate::a::y::Y)"):
        if line not in buf.getvalue():
            print(f"self-test FAILED: no example edge {line!r}\n{buf.getvalue()}", file=sys.stderr)
            return 1
    print(
        "self-test passed: the circles of the cyclic crate, none in the acyclic one; "
        "the folder knot of the knotted crate (a <-> b, no file circle), with an edge each way"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--folders", action="store_true", help="only the folder-level check (the default runs both)")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    files = [] if args.folders else check(args.root)
    folders = check_folders(args.root)
    return 1 if files or folders else 0


if __name__ == "__main__":
    sys.exit(main())
