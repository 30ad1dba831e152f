#!/usr/bin/env python3
"""The parallel-search statistics command and the mate-distance script's invariant count:
`smpstats [reset]` prints the split statistics and says whether the build counts the
search checks, refuses other arguments and keeps the engine working; smp-mates.py
--checks refuses an engine that does not count them, sums what a check build reports per
configuration and fails on any violation or wrong mate (a scripted engine stands in for
the check build, so that a violation can be shown).

usage: python3 tests/test_smp_mates.py ENGINE
"""
import os
import sys

import testkit
from enginepipe import EnginePipe
from testkit import check, run, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("smp-mates")
SCRIPT = os.path.join(testkit.ROOT, "tools", "measure", "smp-mates.py")
CASES = os.path.join(TMP, "cases.epd")
with open(CASES, "w") as f:
    f.write('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - acd 4; dm 1; id "back rank";\n')

# A UCI engine that mates in one at every search and reports STALE stale exclusions
# after the SEARCH-th search (counted from 1) at its next `smpstats`.
FAKE = '''import sys
stale, at, searches, pending = int(sys.argv[1]), int(sys.argv[2]), 0, 0
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("uciok")
    elif cmd[0] == "isready":
        print("readyok")
    elif cmd[0] == "go":
        searches += 1
        pending += stale if searches == at else 0
        print("info depth 4 score mate 1 pv d1d8")
        print("bestmove d1d8")
    elif cmd[0] == "smpstats":
        print("Search checks: %d stale exclusions, 0 wrong double-extension counts, "
              "0 wrong node counts" % pending)
        pending = 0 if cmd[1:] == ["reset"] else pending
    elif cmd[0] == "quit":
        break
    sys.stdout.flush()
'''


def fake_engine(stale, at):
    path = os.path.join(TMP, "fake-%d-%d" % (stale, at))
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexec %s %s %d %d\n" % (sys.executable, os.path.join(TMP, "fake.py"),
                                                 stale, at))
    os.chmod(path, 0o755)
    return path


with open(os.path.join(TMP, "fake.py"), "w") as f:
    f.write(FAKE)


def mates(engine, *extra):
    return run([sys.executable, SCRIPT, "--engine", engine, "--cases-file", CASES, "--runs", "3",
                "--threads", "1,2", "--modes", "YBWC,Lazy", *extra], timeout=120)


def engine_session(steps):
    """Drives ENGINE: each step is (line to send, prefix of the line that ends its answer,
    or None for no answer); returns the lines of every answer."""
    lines = []
    with EnginePipe(ENGINE) as e:
        for send, until in steps:
            e.send(send)
            if until:
                lines += e.expect(lambda l, u=until: l.startswith(u), timeout=60.0)
        e.send("quit")
    return lines


@test
def smpstats_prints_resets_and_refuses():
    out = engine_session([("uci", "uciok"), ("setoption name Threads value 2", None),
                          ("setoption name SMP Mode value YBWC", None),
                          ("position startpos", None), ("go depth 10", "bestmove"),
                          ("smpstats reset", "Search checks:"), ("smpstats", "Search checks:"),
                          ("smpstats now", "info string error"), ("isready", "readyok")])
    splits = [int(l.split()[1]) for l in out if l.startswith("Splits: ")]
    check(len(splits) == 2 and splits[0] > 0 and splits[1] == 0, splits)
    checks = [l for l in out if l.startswith("Search checks: ")]
    # The release build says it does not count them; a check build counts none here.
    check(all(l in ("Search checks: not counted in this build (make checks)",
                    "Search checks: 0 stale exclusions, 0 wrong double-extension counts, "
                    "0 wrong node counts") for l in checks) and len(checks) == 2, checks)
    check("info string error: usage: smpstats [reset]" in out, out[-5:])


@test
def mates_checks_refuses_a_build_without_them():
    if "Search checks: 0" in run([ENGINE], stdin="smpstats\nquit\n")[1]:
        return  # a check build: nothing to refuse
    status, out, err = mates(ENGINE, "--checks")
    check(status != 0 and "--checks needs a check build (make checks)" in err, (status, err))


@test
def mates_checks_sum_nothing_when_clean():
    status, out, err = mates(fake_engine(0, 0), "--checks")
    check(status == 0, (out, err))
    check(out.count("0/3 wrong; checks: 0 stale exclusions") == 3, out)
    check("search checks in all: 0 stale exclusions, 0 wrong double-extension counts, "
          "0 wrong node counts" in out, out)


@test
def mates_checks_fail_on_a_violation():
    # The 5th search is the second one of the second configuration (2 threads YBWC).
    status, out, err = mates(fake_engine(7, 5), "--checks")
    check(status == 1, (status, out, err))
    rows = out.splitlines()
    check("2 threads YBWC: 0/3 wrong; checks: 7 stale exclusions" in rows[1], rows)
    check("checks: 0 stale exclusions" in rows[0] and "checks: 0 stale exclusions" in rows[2],
          rows)
    check("search checks in all: 7 stale exclusions" in out, out)


@test
def mates_without_checks_ignore_them():
    status, out, err = mates(fake_engine(7, 5))
    check(status == 0 and "checks" not in out, (status, out, err))


testkit.finish()
