#!/usr/bin/env python3
"""tools/measure/clock-use.py: how the engines of a match spent their clock.

usage: python3 tests/test_clock_use.py ENGINE   (the engine is not used)
Checks, on a hand-written match PGN: the time per searched move and the clock left at the
end per engine (book moves and untimed comments ignored), time forfeits counted against
the side that lost on time, the by-move table, and refusals of a missing or untimed file.
The last line printed is "N passed, N failed".
"""
import os
import sys

import testkit
from testkit import check, test

SCRIPT = os.path.join(testkit.ROOT, "tools", "measure", "clock-use.py")
TMP = testkit.temp_dir("clock-use")
PGN = os.path.join(TMP, "match.pgn")

with open(PGN, "w") as f:
    f.write('[White "new"]\n[Black "old"]\n[Result "1-0"]\n[TimeControl "5+0.1"]\n'
            '[Termination "adjudication"]\n\n'
            '1. e4 {book} 1... e5 {book} 2. Nf3 {+0.10/12 0.500s} 2... Nc6 {-0.20/11 0.300s}\n'
            '3. Bb5 {+0.30/12 1.500s} 3... a6 {-0.10/11 0.100s} 1-0\n\n'
            '[White "old"]\n[Black "new"]\n[Result "1-0"]\n[TimeControl "5+0.1"]\n'
            '[Termination "time forfeit"]\n\n'
            '1. d4 {+0.00/10 0.200s} 1... d5 {no time here} 2. c4 {+0.10/10 0.200s}\n'
            '2... e6 {+0.00/10 4.900s} 1-0\n')


def clock_use(*args):
    return testkit.run([sys.executable, SCRIPT, *args])


@test
def per_engine_time_and_clock_left():
    rc, out, err = clock_use(PGN)
    check(rc == 0, err)
    lines = out.splitlines()
    check(lines[0] == "2 games", out)
    # new: game 1 moves of 0.5 and 1.5 s (clock left 5 + 0.2 - 2.0 = 3.2); game 2 one
    # timed move of 4.9 s (left 5 + 0.1 - 4.9 = 0.2): per-move means 1.0 and 4.9.
    new = next(l for l in lines if l.startswith("new:"))
    check("2.950 s per move" in new and "clock left at the end 1.70 s" in new, new)
    check("time forfeits 1" in new, new)
    # old: 0.3 and 0.1 s (left 4.8), then 0.2 and 0.2 s (left 4.8).
    old = next(l for l in lines if l.startswith("old:"))
    check("0.200 s per move" in old and "clock left at the end 4.80 s" in old and "time forfeits 0" in old, old)


@test
def by_move_table():
    rc, out, err = clock_use(PGN, "--bucket", "2")
    check(rc == 0, err)
    row = next(l for l in out.splitlines() if l.startswith("  1-2"))
    # moves 1-2: new 0.5 (2. Nf3) and 4.9 (2... e6); old 0.3 (2... Nc6), 0.2 and 0.2.
    check("2.700 (   2)" in row and "0.233 (   3)" in row, row)
    row = next(l for l in out.splitlines() if l.startswith("  3-4"))
    check("1.500 (   1)" in row and "0.100 (   1)" in row, row)


@test
def bad_input_is_refused():
    rc, _, err = clock_use(os.path.join(TMP, "missing.pgn"))
    check(rc == 1 and "clock-use:" in err, err)
    untimed = os.path.join(TMP, "untimed.pgn")
    with open(untimed, "w") as f:
        f.write('[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 *\n')
    rc, _, err = clock_use(untimed)
    check(rc == 1 and "no timed games" in err, err)


testkit.finish()
