#!/usr/bin/env python3
"""Checks the include structure of src/: no include cycles between modules, and no
module that includes one from a higher layer.

A module is a source file and its header (src/board/position.c + .h = board/position).
A module depends on every module whose header its .c or .h includes. Layers, lowest
first, are listed in LAYERS; a folder may use its own layer and every lower one.

    python3 tools/ci/check-includes.py [SRC_DIR]     (exit status 1 on any problem)
    python3 tools/ci/check-includes.py --graph       (prints the module graph)
"""
import os
import re
import sys

# Lowest first. Folders on one line share a rank and may not include each other. A
# subfolder listed here (nnue/train) is a layer of its own, apart from its parent.
LAYERS = [
    ["util"],
    ["board"],
    ["eval", "formats", "nnue", "tablebase"],
    ["search", "opening"],
    ["learning"],
    ["engine", "tune", "nnue/train"],
    ["toolkit"],
    ["commands"],
    ["protocol"],
    [""],  # src/main.c
]
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(src):
    deps = {}
    for root, dirs, files in os.walk(src):
        # Third-party code kept as published (src/external/fathom) is not ours to layer.
        if os.path.relpath(root, src) == ".":
            dirs[:] = [d for d in dirs if d != "external"]
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            module = os.path.relpath(path, src)[:-2]
            with open(path, encoding="utf-8", errors="replace") as f:
                included = [inc[:-2] for inc in INCLUDE.findall(f.read()) if inc.endswith(".h")]
            deps.setdefault(module, set()).update(m for m in included if m != module)
    return deps


def cycles(deps):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(deps.get(v, ())):
            if w not in deps:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return result


def folder(module):
    """The module's folder as LAYERS names it: the longest listed prefix (nnue/train
    before nnue), else the first path component."""
    parts = module.split("/")[:-1]
    for n in range(len(parts), 0, -1):
        if "/".join(parts[:n]) in RANK:
            return "/".join(parts[:n])
    return parts[0] if parts else ""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
    deps = modules(src)
    if "--graph" in sys.argv:
        for m in sorted(deps):
            print(f"{m}: {' '.join(sorted(deps[m]))}")
        return 0
    problems = 0
    for missing in sorted({d for ds in deps.values() for d in ds if d not in deps}):
        print(f"unknown include: {missing}.h")
        problems += 1
    for component in cycles(deps):
        print("include cycle: " + " <-> ".join(component))
        problems += 1
    for m in sorted(deps):
        fm = folder(m)
        if fm not in RANK:
            print(f"{m}: folder '{fm}' has no layer in tools/ci/check-includes.py")
            problems += 1
            continue
        for d in sorted(deps[m]):
            fd = folder(d)
            if fd in RANK and fd != fm and RANK[fd] >= RANK[fm]:
                print(f"layer violation: {m} ({fm or 'main'}) includes {d} ({fd})")
                problems += 1
    print(f"{len(deps)} modules, {sum(len(d) for d in deps.values())} dependencies, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
