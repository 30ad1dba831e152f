#!/usr/bin/env python3
"""Tablebase probe rate of a UCI engine over EPD suites.

usage: python3 tools/measure/tb-probe-rate.py ENGINE SYZYGY_PATH MOVETIME_MS SUITE.epd...

Searches every position for MOVETIME_MS with the tables at SYZYGY_PATH (Hash 64,
1 thread) and reads the last `info` line before each `bestmove`. Prints, per suite, the
positions that probed at all, the total tbhits, nodes and search time, and the rates
tbhits/s and nodes/s (over all positions and over the probing ones).
"""
import re
import subprocess
import sys


def positions(path):
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                yield " ".join(fields[:4]) + " 0 1"


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    engine, tb_path, movetime, suites = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def read_until(prefix):
        lines = []
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        sys.exit("engine exited")

    send("uci")
    read_until("uciok")
    for opt in ("Hash value 64", "Threads value 1", "SyzygyPath value " + tb_path):
        send("setoption name " + opt)
    send("isready")
    for line in read_until("readyok")[:-1]:
        print("engine:", line)
    print("%-10s %9s %10s %12s %8s %10s %12s %12s" % ("suite", "positions", "probing", "tbhits", "time s",
                                                    "tbhits/s", "probing t/s", "nodes/s"))
    for suite in suites:
        n = probing = 0
        hits = nodes = ms = probing_hits = probing_ms = 0
        for fen in positions(suite):
            send("ucinewgame")
            send("position fen " + fen)
            send("go movetime %d" % movetime)
            infos = [l for l in read_until("bestmove") if l.startswith("info depth")]
            if not infos:
                continue
            last = infos[-1]
            get = lambda k: int(re.search(r" %s (\d+)" % k, last).group(1))
            n += 1
            hits += get("tbhits")
            nodes += get("nodes")
            ms += get("time")
            if get("tbhits") > 0:
                probing += 1
                probing_hits += get("tbhits")
                probing_ms += get("time")
        sec = max(ms, 1) / 1000.0
        print("%-10s %9d %10d %12d %8.1f %10.0f %12.0f %12.0f" % (
            suite.split("/")[-1], n, probing, hits, sec, hits / sec,
            probing_hits / (max(probing_ms, 1) / 1000.0), nodes / sec))
    send("quit")
    proc.wait()


main()
