#!/usr/bin/env python3
"""The library's module graph from its `use` lines: circles and imports
that run back up.

    tools/imports.py [--edges] [--check]

Reads every `src/**/*.rs` but the binary (`src/bin`) and test files
(`tests.rs`, `tests/`, and a file's `#[cfg(test)] mod` at its end), takes
each top-level `use crate::...`, `use super::...` and `use self::...`
and each path written out in code (`crate::options::Options::new()`,
`super::stream::Noted`; comments and `$crate` in macros left out), and
follows each imported name to the file that defines it, through `pub
use` re-exports, except the crate root's: what the compiler sees of
`use crate::Schema` below the root is an import of `src/lib.rs`, which
re-exports it. Then it prints:

- every circle between files (a strongly connected set of two or more
  files),
- every import that runs back up: a file importing an item defined in a
  file of an enclosing module (`src/lib.rs` encloses everything,
  `src/scan/mod.rs` encloses `src/scan/*`). Importing a child module's
  items through its parent's re-export is not back up: the edge goes to
  the child that defines the item. An import of the root's re-exports
  is one, named apart ("root re-export").

It also names every source file over 1,500 lines (`src/**/*.rs`, the
binary and test files included: issue #33's bar).

`--edges` lists every edge; `--check` exits 1 on a circle, on an import
of the root's re-exports below the root (issue #33's bar), on more
than one import running back up (issue #23's bar), or on a file over
1,500 lines.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
MAX_LINES = 1500


def module_files():
    """Module path (tuple) -> file, for every library source file."""
    files = {}
    for path in SRC.rglob("*.rs"):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "bin" or "tests" in rel.parts[:-1] or rel.name == "tests.rs":
            continue
        parts = list(rel.with_suffix("").parts)
        if parts == ["lib"]:
            parts = []
        elif parts[-1] == "mod":
            parts = parts[:-1]
        files[tuple(parts)] = path
    return files


USE = re.compile(r"^(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", re.M | re.S)


def expand(tree):
    """`a::{b, c::{d, e as f}}` -> [['a','b'], ['a','c','d'], ['a','c','e']]."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, text):
        if text.startswith("{") and text.endswith("}"):
            depth, start, inner = 0, 0, text[1:-1]
            for i, ch in enumerate(inner + ","):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    part = inner[start:i]
                    if part:
                        walk(prefix, part)
                    start = i + 1
            return
        brace = text.find("{")
        if brace >= 0:
            head = [p for p in text[:brace].split("::") if p]
            walk(prefix + head, text[brace:])
            return
        out.append(prefix + [p for p in text.split("::") if p])

    walk([], tree)
    return out


PATH = re.compile(r"(?<![\w$:])((?:crate|super|self)(?:::\w+)+)")
COMMENT = re.compile(r"//[^\n]*")
TEST_TAIL = re.compile(r"^#\[cfg\(test\)\]\s*\nmod\s", re.M)


def uses(path):
    """Top-level `use` lines of a file and the paths its code writes out,
    outside a `#[cfg(test)]` module at its end: (public, paths, line)."""
    text = path.read_text()
    tail = TEST_TAIL.search(text)
    if tail:
        text = text[: tail.start()]
    found = []
    spans = []
    for m in USE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if m.start() != line_start:
            continue
        spans.append((m.start(), m.end()))
        found.append((bool(m.group(1)), expand(m.group(2)), text.count("\n", 0, m.start()) + 1))
    # Paths written out in code: comments blanked (same length), `use`
    # lines skipped.
    code = COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    for m in PATH.finditer(code):
        if any(a <= m.start() < b for a, b in spans):
            continue
        parts = m.group(1).split("::")
        found.append((False, [parts], code.count("\n", 0, m.start()) + 1))
    return found


def main():
    args = sys.argv[1:]
    files = module_files()
    raw = {mod: uses(path) for mod, path in files.items()}

    def absolute(mod, path):
        if path[0] == "crate":
            return list(path[1:])
        base = list(mod)
        while path and path[0] in ("super", "self"):
            if path[0] == "super":
                base = base[:-1]
            path = path[1:]
        return base + list(path)

    # Re-exports: (module, name) -> absolute path it names.
    reexports = {}
    for mod, entries in raw.items():
        for public, paths, _ in entries:
            if public:
                for p in paths:
                    if p and p[0] in ("crate", "super", "self"):
                        reexports[(mod, p[-1])] = absolute(mod, p)

    def owner(path, seen=0):
        """The module (file) that defines the item `path` names."""
        for cut in range(len(path), -1, -1):
            mod = tuple(path[:cut])
            if mod in files:
                rest = path[cut:]
                if rest and (mod, rest[0]) in reexports and seen < 10:
                    # The root's re-exports are the root to the compiler.
                    if mod == () and seen == 0:
                        return mod
                    return owner(reexports[(mod, rest[0])] + rest[1:], seen + 1)
                return mod
        return None

    edges = {}
    for mod, entries in raw.items():
        for public, paths, line in entries:
            for p in paths:
                if not p or p[0] not in ("crate", "super", "self"):
                    continue
                target = owner(absolute(mod, p))
                if target is None or target == mod:
                    continue
                edges.setdefault((mod, target), []).append((line, "::".join(p)))

    def name(mod):
        return str(files[mod].relative_to(ROOT))

    if "--edges" in args:
        for (a, b), where in sorted(edges.items()):
            print(f"{name(a)} -> {name(b)}: {', '.join(w for _, w in where)}")

    # Imports that run back up: the target encloses the importer; those
    # of the root's re-exports apart.
    up = [(a, b, w) for (a, b), w in edges.items() if a[: len(b)] == b and b != ()]
    root = [(a, b, w) for (a, b), w in edges.items() if b == ()]
    # Circles: Tarjan's strongly connected components.
    graph = {m: [] for m in files}
    for a, b in edges:
        graph[a].append(b)
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
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
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)

    for comp in sccs:
        inner = [f"{name(a)} -> {name(b)} ({', '.join(w for _, w in edges[(a, b)])})"
                 for a in comp for b in comp if (a, b) in edges]
        print("circle: " + "; ".join(inner))
    for a, b, w in sorted(up):
        print(f"back up: {name(a)} -> {name(b)} ({', '.join(x for _, x in w)})")
    for a, b, w in sorted(root):
        where = ", ".join(f"{x} (line {line})" for line, x in w)
        print(f"root re-export: {name(a)} -> {name(b)}: {where}")
    long = []
    for path in sorted(SRC.rglob("*.rs")):
        with open(path, encoding="utf-8") as f:
            count = sum(1 for _ in f)
        if count > MAX_LINES:
            long.append(path)
            print(f"too long: {path.relative_to(ROOT)} has {count} lines (at most {MAX_LINES})")
    print(f"{len(files)} files, {len(edges)} edges, {len(sccs)} circles, "
          f"{len(up)} imports back up, {len(root)} files importing the root's re-exports, "
          f"{len(long)} files over {MAX_LINES} lines")
    if "--check" in args and (sccs or root or len(up) > 1 or long):
        sys.exit(1)


if __name__ == "__main__":
    main()
