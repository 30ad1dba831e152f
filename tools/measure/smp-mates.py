#!/usr/bin/env python3
"""How often a fixed-depth search misses or lengthens a known mate (docs/smp.md).

Runs the mate-in-N positions of tests/data/smp-mates.epd (the cases of tests/test_smp.c,
smp_same_mate_distance...: acd the depth, dm the mate in moves) RUNS times per
configuration (threads x SMP Mode), each search on a cleared table and histories
(`ucinewgame`), and prints per case and configuration how many results were not the
expected mate and what they were instead.

With --prime EPD the move ordering is disturbed as well: before each search of a case
the engine searches one position of the EPD file (to depth 7, same threads), which leaves
its histories different, the hash table is cleared, and the case is searched; RUNS is then
at most the number of EPD positions. With one thread this shows what the move order
alone does, without a shared table.

  tools/measure/smp-mates.py [--engine ./saavedra] [--runs 200] [--threads 1,2,4,16]
                     [--modes YBWC,Lazy] [--depth N] [--cases 1,2] [--prime EPD]
                     [--cases-file EPD] [--checks]

With --checks the engine must be a check build (`make checks`, ./saavedra-checks): after
each case and configuration the script reads its `smpstats reset` line "Search checks: ..."
and prints the violated search invariants of those searches (src/search/checks.h).

Learning and the own book are switched off. The exit status is 1 if any result was wrong
or, with --checks, any invariant was violated.
"""
import argparse
import collections
import os
import subprocess
import sys

CASES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data", "smp-mates.epd")


def read_cases(path):
    """The cases of the test: (FEN, depth, mate in N moves) from the EPD's acd and dm."""
    cases = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split(None, 4)
            ops = {}
            for op in fields[4].split(";") if len(fields) == 5 else []:
                words = op.split(None, 1)
                if len(words) == 2:
                    ops[words[0]] = words[1].strip().strip('"')
            if len(fields) < 5 or "acd" not in ops or "dm" not in ops:
                sys.exit(f"smp-mates: {path}:{number}: expected a position with acd and dm")
            cases.append((" ".join(fields[:4]) + " 0 1", int(ops["acd"]), int(ops["dm"])))
    return cases


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in (("Learning", "false"), ("OwnBook", "false")):
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("smp-mates: the engine exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def configure(self, threads, mode):
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name SMP Mode value {mode}")
        self.send("isready")
        self.wait("readyok")

    def search(self, fen, depth, prime=None):
        """The score of the last info line: ('mate', N) or ('cp', N)."""
        self.send("ucinewgame")
        if prime:
            self.send("position fen " + prime)
            self.send("go depth 7")
            self.wait("bestmove")
            self.send("setoption name Clear Hash")
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                k = words.index("score")
                score = (words[k + 1], int(words[k + 2]))
        return score

    def checks(self):
        """The search checks since the last call, (stale, double, nodes); None when the
        build does not count them."""
        self.send("smpstats reset")
        line = self.wait("Search checks:")[-1]
        numbers = [int(w) for w in line.replace(",", " ").split() if w.isdigit()]
        if "not counted" in line:
            return None
        if len(numbers) != 3:
            sys.exit(f"smp-mates: cannot read '{line}'")
        return tuple(numbers)

    def close(self):
        self.send("quit")
        self.p.wait()


def progress(text):
    if sys.stderr.isatty():
        sys.stderr.write("\r" + text[:79].ljust(79))
        sys.stderr.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="./saavedra")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--threads", default="1,2,4,16")
    ap.add_argument("--modes", default="YBWC,Lazy")
    ap.add_argument("--depth", type=int, help="search depth for every case (default: the test's)")
    ap.add_argument("--cases", help="case numbers, 1-based (default: all)")
    ap.add_argument("--cases-file", default=CASES_FILE, help="EPD with acd and dm (default: the test's)")
    ap.add_argument("--prime", metavar="EPD", help="histories primed by a search of each position of EPD")
    ap.add_argument("--checks", action="store_true",
                    help="count violated search invariants (a check build: make checks)")
    a = ap.parse_args()

    cases = list(enumerate(read_cases(a.cases_file), 1))
    if a.cases:
        wanted = {int(c) for c in a.cases.split(",")}
        cases = [c for c in cases if c[0] in wanted]
    configs = []
    for t in (int(x) for x in a.threads.split(",")):
        for mode in a.modes.split(","):
            if t > 1 or mode == a.modes.split(",")[0]:
                configs.append((t, mode))
    if a.prime:
        with open(a.prime) as f:
            primes = [" ".join(l.split()[:4]) + " 0 1" for l in f if len(l.split()) >= 4]
        primes = primes[:a.runs]
    eng = Engine(a.engine)
    if a.checks and eng.checks() is None:
        eng.close()
        sys.exit(f"smp-mates: {a.engine} does not count search checks: --checks needs a check "
                 "build (make checks)")
    any_wrong = False
    violations = [0, 0, 0]
    for number, (fen, test_depth, mate) in cases:
        depth = a.depth or test_depth
        for threads, mode in configs:
            eng.configure(threads, mode)
            wrong = collections.Counter()
            runs = primes if a.prime else [None] * a.runs
            for i, prime in enumerate(runs):
                progress(f"case {number} depth {depth} {threads} {mode}: {i + 1}/{len(runs)}")
                score = eng.search(fen, depth, prime)
                if score != ("mate", mate):
                    wrong[f"{score[0]} {score[1]}" if score else "none"] += 1
            progress("")
            what = f"{threads} threads {mode}" + (", primed" if a.prime else "")
            detail = "".join(f" {k}: {v}" for k, v in wrong.most_common())
            if a.checks:
                found = eng.checks()
                violations = [v + f for v, f in zip(violations, found)]
                detail += (f"; checks: {found[0]} stale exclusions, {found[1]} wrong "
                           f"double-extension counts, {found[2]} wrong node counts")
                any_wrong = any_wrong or any(found)
            print(f"case {number} (mate in {mate}) depth {depth} {what}: "
                  f"{sum(wrong.values())}/{len(runs)} wrong{detail}", flush=True)
            any_wrong = any_wrong or bool(wrong)
    eng.close()
    if a.checks:
        print(f"search checks in all: {violations[0]} stale exclusions, {violations[1]} wrong "
              f"double-extension counts, {violations[2]} wrong node counts")
    if sys.stderr.isatty():
        sys.stderr.write("\r" + " " * 79 + "\r")
    return 1 if any_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
