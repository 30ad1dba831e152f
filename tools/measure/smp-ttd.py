#!/usr/bin/env python3
"""Time to depth of a UCI engine with several thread settings (docs/smp.md).

For each position of the bench list (taken from `ENGINE bench 1`), each configuration
searches `go depth D` from a fresh `ucinewgame`; the time is the engine's own `time` of
its last `info depth D` line before bestmove, and its node count that line's `nodes`.
Configurations are interleaved per position and the whole set is repeated `--runs`
times. Prints per-configuration medians (over positions of the per-position median
over runs), the speedup of each configuration against the first, and node ratios.

    python3 tools/measure/smp-ttd.py --engine ./saavedra --depth 16 --runs 3 \
        --config "Threads=1" --config "Threads=2,SMP Mode=YBWC" --config "Threads=2,SMP Mode=Lazy"

A configuration's `engine=PATH` item runs another binary (a build of a variant) with the
other items as its options, so that variants are timed in the same interleaved run.

Run it on an otherwise idle machine: other load changes the times.
"""
import argparse
import statistics
import subprocess
import sys
import time


def bench_fens(engine):
    out = subprocess.run([engine, "bench", "1"], capture_output=True, text=True, timeout=120).stdout
    fens = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and "/" in parts[0] and parts[0].split("/")[0].strip().isdigit():
            fens.append(parts[3].strip())
    return fens


class Engine:
    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith(word):
                return line

    def search(self, fen, depth):
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send("isready")
        self.wait_for("readyok")
        self.send("go depth %d" % depth)
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith("info depth %d " % depth) and " pv " in line:
                last = line.split()
            if line.startswith("bestmove"):
                break
        if last is None:
            return None
        ms = int(last[last.index("time") + 1])
        nodes = int(last[last.index("nodes") + 1])
        return ms, nodes

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def parse_config(text, default_engine):
    """(engine path, [(option, value)]) of a configuration "Name=value,...,engine=PATH"."""
    engine, opts = default_engine, [("Hash", "64")]
    for item in text.split(","):
        name, value = item.split("=", 1)
        if name.strip() == "engine":
            engine = value.strip()
        else:
            opts.append((name.strip(), value.strip()))
    return engine, opts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="./saavedra")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--positions", type=int, default=0, help="first N bench positions (0: all)")
    ap.add_argument("--config", action="append", required=True)
    args = ap.parse_args()
    fens = bench_fens(args.engine)
    if args.positions:
        fens = fens[:args.positions]
    engines = [Engine(*parse_config(c, args.engine)) for c in args.config]
    times = {c: {i: [] for i in range(len(fens))} for c in args.config}
    nodes = {c: {i: [] for i in range(len(fens))} for c in args.config}
    tty = sys.stderr.isatty()
    start = time.time()
    for run in range(args.runs):
        for i, fen in enumerate(fens):
            for c, e in zip(args.config, engines):
                r = e.search(fen, args.depth)
                if r:
                    times[c][i].append(r[0])
                    nodes[c][i].append(r[1])
            if tty:
                sys.stderr.write("\rrun %d/%d position %d/%d  %.0f s" % (run + 1, args.runs, i + 1, len(fens), time.time() - start))
    if tty:
        sys.stderr.write("\n")
    for e in engines:
        e.close()
    base = args.config[0]
    print("depth %d, %d positions, %d runs, engine %s" % (args.depth, len(fens), args.runs, args.engine))
    for c in args.config:
        t = [statistics.median(times[c][i]) for i in range(len(fens)) if times[c][i] and times[base][i]]
        b = [statistics.median(times[base][i]) for i in range(len(fens)) if times[c][i] and times[base][i]]
        n = [statistics.median(nodes[c][i]) for i in range(len(fens)) if nodes[c][i] and nodes[base][i]]
        nb = [statistics.median(nodes[base][i]) for i in range(len(fens)) if nodes[c][i] and nodes[base][i]]
        speedups = [bb / max(tt, 1) for bb, tt in zip(b, t)]
        print("%-28s total %8.1f s  speedup: total %.2f, median per position %.2f  nodes x%.2f (total)"
              % (c, sum(t) / 1000, sum(b) / max(sum(t), 1), statistics.median(speedups), sum(n) / max(sum(nb), 1)))


if __name__ == "__main__":
    main()
