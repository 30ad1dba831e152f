#!/usr/bin/env python3
"""The tuner binary (tools/programs/tuner.c): weight files, params.c output, a short run.

usage: python3 tests/test_tuner.py ENGINE
tuner and pgnselect are taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: -d writes the defaults, and -d -f reproduces src/eval/params.c exactly apart
from the "Tuned by" comment (one line from the tuner, more when a note was added by
hand); weight files and params.c tables read back with
-i to the same weights; a short run on pgnselect's positions of tests/data/pgn writes a
CSV of decreasing loss, a PNG plot (gnuplot), the weights and a params.c that reads
back; -H reports a held-out loss; -p keeps the other weights fixed; -V finds the analytic gradient equal to finite
differences; bad arguments and files give one message and a non-zero status.
The last line printed is "N passed, N failed".
"""
import os

import testkit
from testkit import ROOT, check, test

TUNER = testkit.tool("tuner")
PGNSELECT = testkit.tool("pgnselect")
PARAMS_C = os.path.join(ROOT, "src", "eval", "params.c")
GAMES = os.path.join(ROOT, "tests", "data", "pgn", "Nakamura.pgn")
TMP = testkit.temp_dir("tuner")


def tuner(*args):
    return testkit.run([TUNER, *args], timeout=600, cwd=TMP)


def path(name):
    return os.path.join(TMP, name)


def read(name):
    with open(path(name)) as f:
        return f.read()


def weights(name):
    out = {}
    for line in read(name).splitlines():
        if line and not line.startswith("#"):
            k, v = line.split()
            out[k] = float(v)
    return out


def training_set():
    if not os.path.exists(path("train.epd")):
        rc, _, err = testkit.run([PGNSELECT, "-o", path("train.epd"), "--seed", "2", GAMES],
                                 timeout=120)
        check(rc == 0, "pgnselect: %s" % err)
    return path("train.epd")


@test
def defaults_and_params_c_round_trip():
    rc, _, err = tuner("-d", "-x", "x.txt", "-f", "params.c", "--template", PARAMS_C)
    check(rc == 0, err)
    w = weights("x.txt")
    check(len(w) > 1200 and w["piece_value[1].mg"] > 0, "%d weights" % len(w))
    with open(PARAMS_C) as f:
        # the committed params.c carries the comment of the run that tuned it, with any
        # note added by hand on the lines up to the comment's end
        source, in_comment = [], False
        for l in f.read().splitlines():
            in_comment = in_comment or "Tuned by tools/tuner" in l
            if not in_comment:
                source.append(l)
            elif "*/" in l:
                in_comment = False
    written = read("params.c").splitlines()
    extra = [l for l in written if "Tuned by tools/tuner" in l]
    check(len(extra) == 1, "no single 'Tuned by' line")
    check([l for l in written if l not in extra] == source, "params.c differs from the source")
    for start in ("x.txt", "params.c"):
        rc, _, err = tuner("-i", start, "-d", "-x", "again.txt")
        check(rc == 0 and weights("again.txt") == w, "-i %s does not read back: %s" % (start, err))


@test
def short_run_writes_curve_plot_and_weights():
    data = training_set()
    rc, _, err = tuner("-n", "8", "-c", "2", "--csv", "loss.csv", "--plot", "loss.png", "-x", "run.txt",
                       "-f", "run.c", "--template", PARAMS_C, data)
    plotted = testkit.have("gnuplot", "the loss curve's PNG")
    check(rc == 0 if plotted else rc != 0 and "gnuplot not found" in err, err)
    check("K " in err and "positions read" in err and "->" in err, "summary missing: %r" % err)
    rows = [l.split(",") for l in read("loss.csv").splitlines()[1:]]
    check(len(rows) == 9, "%d CSV rows" % len(rows))
    losses = [float(r[1]) for r in rows]
    check(all(b < a for a, b in zip(losses, losses[1:])), "loss not decreasing: %s" % losses)
    if plotted:
        with open(path("loss.png"), "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "loss.png is not a PNG")
    tuner("-d", "-x", "defaults.txt")
    w0, w1 = weights("defaults.txt"), weights("run.txt")
    check(sum(abs(w1[k] - w0[k]) > 0.5 for k in w1) > 100, "weights did not move")
    rc, _, err = tuner("-i", "run.c", "-d", "-x", "back.txt")
    check(rc == 0, "the written params.c does not read back: %s" % err)
    back = weights("back.txt")
    check(all(abs(back[k] - w1[k]) <= 0.5 + 1e-6 for k in w1), "params.c is not the rounded weights")


@test
def held_out_positions_are_reported():
    rc, _, err = tuner("-n", "4", "-H", "5", "--csv", "h.csv", "-x", "h.txt", training_set())
    check(rc == 0, err)
    check("held out (every 5th)" in err and "held-out loss" in err, "no held-out lines: %r" % err)
    lines = read("h.csv").splitlines()
    check(lines[0] == "iteration,loss,seconds,recomputed,heldout" and len(lines) == 6, "CSV %r" % lines[:2])
    held = [float(l.split(",")[4]) for l in lines[1:]]
    train = [float(l.split(",")[1]) for l in lines[1:]]
    check(all(h > 0 for h in held) and held != train, "held-out column %s" % held)


@test
def prefixes_keep_other_weights_fixed():
    data = training_set()
    rc, _, err = tuner("-d", "-x", "d.txt")
    rc, _, err = tuner("-n", "3", "-p", "piece_value,mobility_", "-x", "p.txt", "--csv", "p.csv", data)
    check(rc == 0, err)
    d, p = weights("d.txt"), weights("p.txt")
    moved = {k for k in d if abs(d[k] - p[k]) > 1e-9}
    check(moved and all(k.startswith(("piece_value", "mobility_")) for k in moved), "moved: %s" % sorted(moved)[:5])
    rc, _, err = tuner("-n", "1", "-p", "nonsense", data)
    check(rc == 2 and "no weight" in err, "empty selection: %d %r" % (rc, err))


@test
def gradient_check_passes():
    rc, out, err = tuner("-V", "-m", "3000", training_set())
    check(rc == 0 and ", 0 differ" in out, "rc %d: %s %s" % (rc, out, err))


@test
def plot_failures_are_reported():
    """A curve that cannot be drawn says why and fails the run; the weights are still written."""
    data = training_set()
    rc, _, err = testkit.run([TUNER, "-n", "2", "--plot", "nogp.png", "-x", "nogp.txt", data], timeout=600,
                             cwd=TMP, env=testkit.env_without_path_programs())
    check(rc != 0 and "gnuplot not found in PATH" in err, "%d %r" % (rc, err[-300:]))
    check(os.path.exists(path("nogp.txt")) and not os.path.exists(path("nogp.png")), os.listdir(TMP))
    rc, _, err = tuner("-n", "2", "--plot", "/nonexistent/dir/loss.png", "-x", "nodir.txt", data)
    check(rc != 0 and "/nonexistent/dir/loss.png" in err, "%d %r" % (rc, err[-300:]))


@test
def bad_input_is_reported():
    for args, what in ((["-o", "sgd", "x.epd"], "method"), (["-O", "hinge", "x.epd"], "objective"),
                       (["-n", "-3", "x.epd"], "-n"), ([], "no training file"),
                       (["/nonexistent/t.epd"], "/nonexistent/t.epd"), (["-i", "/nonexistent/w", "-d"], "/nonexistent/w")):
        rc, _, err = tuner(*args)
        check(rc != 0 and what in err, "%s: rc %d, %r" % (args, rc, err))
    with open(path("bad-weights"), "w") as f:
        f.write("piece_value[1].mg 300\nno_such_weight 4\n")
    rc, _, err = tuner("-i", "bad-weights", "-d", "-x", "y.txt")
    check(rc != 0 and "no_such_weight" in err, "unknown weight accepted: %r" % err)
    with open(path("labels.epd"), "w") as f:
        f.write("8/8/8/8/8/8/8/8 w - - c2 \"1.0\";\nnot a line\n")
    rc, _, err = tuner("-n", "1", "labels.epd")
    check(rc != 0 and "labels.epd:1" in err and "labels.epd:2" in err, "bad lines: %d %r" % (rc, err))


testkit.finish()
