#!/usr/bin/env python3
"""Checks that no line of the C sources in src/ is longer than 100 characters (the
ColumnLimit of .clang-format): a longer line is cut off in a side-by-side diff and in a
terminal of the usual width. src/external/ (third-party, kept as published) is left out.

    python3 tools/ci/check-lines.py [--max N] [--warn] [PATH...]

PATH is a folder searched for .c and .h files or a file (default: src). Each line over
the limit is printed as FILE:LINE: N characters, then a summary; the exit status is 1 if
there is any. --warn prints the summary alone and exits 0, for a tree whose long lines
are not reflowed yet.
"""
import argparse
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EXTERNAL = os.path.join(ROOT, "src", "external")


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if os.path.join(root, d) != EXTERNAL)
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.join(root, name)


def long_lines(path, limit):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            length = len(line.rstrip("\r\n"))
            if length > limit:
                yield number, length


def main():
    ap = argparse.ArgumentParser(description="C source lines over the length limit")
    ap.add_argument("--max", type=int, default=100, help="longest line allowed (default 100)")
    ap.add_argument("--warn", action="store_true", help="print the summary only and exit 0")
    ap.add_argument("paths", nargs="*", help="folders or files (default: src)")
    args = ap.parse_args()
    paths = [os.path.abspath(p) for p in args.paths] or [os.path.join(ROOT, "src")]
    found, files, checked = 0, 0, 0
    for path in sources(paths):
        checked += 1
        hits = list(long_lines(path, args.max))
        files += bool(hits)
        found += len(hits)
        if not args.warn:
            for number, length in hits:
                print("%s:%d: %d characters" % (os.path.relpath(path, ROOT), number, length))
    note = " (not enforced: --warn)" if args.warn and found else ""
    print("%d files, %d lines over %d characters in %d of them%s"
          % (checked, found, args.max, files, note))
    return 1 if found and not args.warn else 0


if __name__ == "__main__":
    sys.exit(main())
