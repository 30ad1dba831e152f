#!/usr/bin/env python3
"""The depth (and nodes, time) position learning gains on the learned-position test of
tests/test_learning.py: learn the WAC position after a two-move dance in one process,
then search it to depth 12 in a fresh process with and without the learning file and
report where the learned move first becomes the best.

usage: python3 tools/measure/learn-gain.py ENGINE
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))
from enginepipe import EnginePipe  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TACTIC = "7Q/ppp2q2/3p2k1/P2Ppr1N/1PP5/7R/5rP1/6K1 b - - 0 1"
DANCE = ["f2e2", "g1h1", "e2f2", "h1g1"]


def engine(learn_file, *options):
    e = EnginePipe(ENGINE)
    e.send("uci")
    e.expect(lambda l: l == "uciok", 60)
    e.send("setoption name LearningFile value " + learn_file)
    for name, value in options:
        e.send("setoption name %s value %s" % (name, value))
    return e


def search(e, position, limit):
    e.send("position " + position)
    e.send("go " + limit)
    return e.expect(lambda l: l.startswith("bestmove"), 600)


def first(lines, move):
    for line in lines:
        m = re.match(r"info depth (\d+) .*multipv 1 .*nodes (\d+) .*time (\d+) pv (\S+)", line)
        if m and "bound" not in line and m.group(4) == move:
            return int(m.group(1)), int(m.group(2)), int(m.group(3))
    return None


tmp = tempfile.mkdtemp()
f = os.path.join(tmp, "gain.lrn")
target = "fen %s moves %s" % (TACTIC, " ".join(DANCE))
e = engine(f, ("Learning Threshold", "10"))
e.send("ucinewgame")
search(e, "fen %s moves %s" % (TACTIC, " ".join(DANCE[:2])), "depth 1")
move = search(e, target, "depth 12")[-1].split()[1]
e.send("quit")
e.close()
with_file = engine(f)
a = first(search(with_file, target, "depth 12"), move)
with_file.close()
without = engine(os.path.join(tmp, "none.lrn"), ("Learning", "false"))
b = first(search(without, target, "depth 12"), move)
without.close()
print("learned move %s: with the file first best at depth %d (%d nodes, %d ms); without at depth %d (%d nodes, %d ms)"
      % (move, a[0], a[1], a[2], b[0], b[1], b[2]))
print("depth gained: %d plies" % (b[0] - a[0]))
