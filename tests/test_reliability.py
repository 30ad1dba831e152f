#!/usr/bin/env python3
"""Reliability at the protocol level: nothing lost, nothing hung.

Checks: a stop (or quit, ucinewgame) right after `go` still answers with a move of a
complete depth-1 search; a Hash size that cannot be had is refused with one line and the
old table kept; `-l` naming a FIFO or a folder does not hang or stop the start, and a
log that cannot be written warns once.

usage: python3 tests/test_reliability.py ENGINE
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testkit  # noqa: E402
from testkit import check, test  # noqa: E402
from enginepipe import EnginePipe  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("reliability")
SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))


class Uci(EnginePipe):
    def __init__(self, *args):
        super().__init__(ENGINE, *args)
        self.send("uci")
        self.expect(lambda l: l == "uciok", 60.0 * SCALE)
        self.send("setoption name OwnBook value false")
        self.send("setoption name Learning value false")
        self.sync()

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 30.0 * SCALE)


@test
def stop_at_once_plays_a_searched_move():
    with Uci() as e:
        for stopper in ["stop"] * 8 + ["ucinewgame", "ucinewgame"]:
            e.send("position startpos")
            # One write: the stop reaches the engine as the search starts.
            e.send("go wtime 100000 btime 100000\n" + stopper)
            seen = e.expect(lambda l: l.startswith("bestmove"), 30.0 * SCALE)
            depths = [l for l in seen if l.startswith("info depth")]
            check(depths, "after go + %s: bestmove with no complete iteration: %s" % (stopper, seen))
            e.sync()
    # quit at once: still a move, and a searched one.
    p = subprocess.run([ENGINE], input="uci\nsetoption name OwnBook value false\nposition startpos\ngo wtime 100000 btime 100000\nquit\n",
                       capture_output=True, text=True, timeout=60 * SCALE)
    out = p.stdout.splitlines()
    best = [i for i, l in enumerate(out) if l.startswith("bestmove")]
    check(best and any(l.startswith("info depth") for l in out[:best[0]]), "quit: %s" % out[-5:])


@test
def hash_that_cannot_be_had_is_refused_and_old_table_kept():
    with Uci() as e:
        e.send("setoption name Hash value 65536")
        seen = e.sync()
        errors = [l for l in seen if l.startswith("info string") and "hash" in l.lower()]
        check(len(errors) == 1 and "memory" in errors[0], "no clear refusal: %s" % seen)
        e.send("position startpos")
        e.send("go depth 4")
        seen = e.expect(lambda l: l.startswith("bestmove"), 60.0 * SCALE)
        check(any(l.startswith("info depth 4") for l in seen), "no search after the refusal: %s" % seen[-3:])
        # A large size that can be had answers at once: the new table is not cleared.
        start = time.time()
        e.send("setoption name Hash value 1024")
        e.sync()
        check(time.time() - start < 5.0 * SCALE, "1 GB Hash took %.1f s" % (time.time() - start))


@test
def log_to_a_fifo_or_device_is_refused_at_once():
    fifo = os.path.join(TMP, "log.fifo")
    os.mkfifo(fifo)
    for target in (fifo, "/dev/full"):
        try:
            p = subprocess.run([ENGINE, "-l", target], input="uci\nquit\n", capture_output=True, text=True,
                               timeout=30 * SCALE)
        except subprocess.TimeoutExpired:
            raise AssertionError("-l %s hung the start" % target)
        check(p.returncode != 0 and "not a regular file" in p.stderr and "\n" == p.stderr[-1:],
              "-l %s: status %d, stderr %r" % (target, p.returncode, p.stderr))


testkit.finish()
