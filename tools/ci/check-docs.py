#!/usr/bin/env python3
"""Checks that the reference pages stay reference: no lab notes outside docs/results.md.

A reference page says how a part works, why, and its current figures with the command and
commit that reproduce them. When a figure was measured and what ran on the machine beside
it belong to the results log, docs/results.md. This script looks through README.md, the
Markdown pages of docs/ (all but results.md) and the Makefile with its fragments (mk/*.mk) for

  - dates (2026-11-26),
  - load averages and notes on machine load ("load 6-8", "under load"),
  - nice levels ("nice 10", "nice -n 19") and what ran beside a measurement,
  - "at the time of writing", "sessions" of work, campaign timetables,
  - table lines over 200 characters (split such a table: short cells, long notes below),

and checks that `make help` (the comment block at the top of the Makefile) names every
target the Makefile and its fragments define. It prints FILE:LINE: what for each finding.

    python3 tools/ci/check-docs.py [ROOT]     (exit status 1 on any finding)
"""
import glob
import os
import re
import sys

MAX_TABLE_LINE = 200

# Each pattern names a kind of lab note. "session" as a word is flagged; file names such as
# tests/fuzz/sessions/ or fuzz_session.h are not (a '/' '_' '.' or '-' next to the word).
PATTERNS = [
    ("date", re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")),
    ("machine load", re.compile(r"\bload averages?\b|\bload (?:\d|above|of \d)|\bunder load\b|\bloaded machine\b", re.I)),
    ("nice level", re.compile(r"\bnice\b(?:[- ]+(?:-n )?\d+)?", re.I)),
    ("time of writing", re.compile(r"\bat the time of writing\b|\bat present\b|\bas of today\b", re.I)),
    ("session", re.compile(r"(?<![/_.\-\w])sessions?(?![/_\-\w]|\.\w)", re.I)),
    ("what ran beside", re.compile(r"\b(?:ran|running|run|runs)\b[^.|]{0,40}\bbeside (?:it|the|other|them)\b|\bbeside other (?:work|jobs|builds)\b", re.I)),
    ("timetable", re.compile(r"\bran from \d|\bcampaign \d+ ran\b", re.I)),
    ("lab machine", re.compile(r"\b(?:the )?(?:build|project)(?:'s build)? machine\b", re.I)),
    ("earlier layout", re.compile(r"\bbuilds made before\b|\bthe old layout\b", re.I)),
]


def makefiles(root):
    """The Makefile and the fragments it includes (mk/*.mk)."""
    return [os.path.join(root, "Makefile")] + sorted(glob.glob(os.path.join(root, "mk", "*.mk")))


def files(root):
    found = [os.path.join(root, "README.md")] + makefiles(root)
    found += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    return [f for f in found if os.path.isfile(f) and os.path.basename(f) != "results.md"]


def check_file(path, root):
    problems = []
    name = os.path.relpath(path, root)
    is_makefile = os.path.basename(path) == "Makefile" or path.endswith(".mk")
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if is_makefile:
                # Only the Makefile's comments are prose; recipes may call nice or date.
                if not line.lstrip().startswith("#"):
                    continue
            for what, pattern in PATTERNS:
                match = pattern.search(line)
                if match:
                    problems.append(f"{name}:{number}: {what}: '{match.group(0)}'")
            if not is_makefile and line.startswith("|") and len(line) > MAX_TABLE_LINE:
                problems.append(f"{name}:{number}: table line of {len(line)} characters (over {MAX_TABLE_LINE})")
    return problems


TARGET = re.compile(r"^([a-z][a-z0-9_-]*)\s*:(?![=:])", re.M)


def check_make_help(root):
    """Every plain target of the Makefile and its fragments is named as `make TARGET` in
    the Makefile's top comment block, which `make help` prints (`all` is plain `make`)."""
    path = os.path.join(root, "Makefile")
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        header = f.read().split("\n\n", 1)[0]
    documented = set(re.findall(r"\bmake ([a-z][a-z0-9_-]*)", header)) | {"all"}
    problems = []
    for makefile in makefiles(root):
        with open(makefile, encoding="utf-8") as f:
            text = f.read()
        for match in TARGET.finditer(text):
            name = match.group(1)
            if name not in documented:
                line = text.count("\n", 0, match.start()) + 1
                where = os.path.relpath(makefile, root)
                problems.append(f"{where}:{line}: target '{name}' is not in make help (the comment block at the top)")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    root = os.path.normpath(root)
    problems = []
    checked = files(root)
    for path in checked:
        problems += check_file(path, root)
    problems += check_make_help(root)
    for p in problems:
        print(p)
    print(f"{len(checked)} files, {len(problems)} lab notes outside docs/results.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
