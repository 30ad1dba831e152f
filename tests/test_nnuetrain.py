#!/usr/bin/env python3
"""nnuetrain's options (tools/programs/nnuetrain.c), on a few games of tiny self-play data.

usage: python3 tests/test_nnuetrain.py ENGINE
nnuetrain and datagen are taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: -lambda-end ramps lambda over the epochs (the log and the CSV say which, and the
training loss follows it); -wd gives smaller weights than the same run without it.
The last line printed is "N passed, N failed".
"""
import os
import struct

import testkit
from testkit import check, test

DATAGEN = testkit.tool("datagen")
NNUETRAIN = testkit.tool("nnuetrain")
TMP = testkit.temp_dir("nnuetrain")
DATA = os.path.join(TMP, "data")
INPUTS, HIDDEN = 768, 256


def train(name, *args):
    """Runs nnuetrain on the data into TMP/name.nnue; returns (net path, stderr)."""
    net = os.path.join(TMP, name + ".nnue")
    rc, _, err = testkit.run([NNUETRAIN, "-d", DATA, "-o", net, "-batch", "64", "-valid", "0.25", *args])
    check(rc == 0, err)
    return net, err


def epoch_lines(err):
    return [l for l in err.replace("\r", "\n").splitlines() if l.startswith("epoch ") and "validation loss" in l]


def field(line, name):
    """The number after "name " in an epoch line."""
    return float(line.split(name + " ", 1)[1].split(",")[0].split()[0])


def csv_rows(net):
    lines = open(net + ".csv").read().splitlines()
    head = lines[0].split(",")
    return [dict(zip(head, l.split(","))) for l in lines[1:]]


def feature_weights(net):
    data = open(net, "rb").read()
    (version,) = struct.unpack_from("<I", data, 8)
    return struct.unpack_from("<%dh" % (INPUTS * HIDDEN), data, 36 if version == 1 else 40)


rc, _, err = testkit.run([DATAGEN, "-o", DATA, "-games", "6", "-nodes", "300", "--seed", "8"])
check(rc == 0, err)


@test
def lambda_end_ramps_lambda_over_the_epochs():
    ramp, err = train("ramp", "-epochs", "3", "-lambda", "1", "-lambda-end", "0")
    lines = epoch_lines(err)
    check([field(l, "lambda") for l in lines] == [1.0, 0.5, 0.0], lines)
    check([float(r["lambda"]) for r in csv_rows(ramp)] == [1.0, 0.5, 0.0], open(ramp + ".csv").read())
    # Without the ramp, the same seed: the first epoch (lambda 1 in both) is the same
    # run, later epochs train on other targets.
    _, flat_err = train("flat", "-epochs", "3", "-lambda", "1")
    flat = epoch_lines(flat_err)
    check([field(l, "lambda") for l in flat] == [1.0, 1.0, 1.0], flat)
    check(field(lines[0], "training loss") == field(flat[0], "training loss"), (lines[0], flat[0]))
    check(field(lines[2], "training loss") != field(flat[2], "training loss"), (lines[2], flat[2]))


@test
def weight_decay_gives_smaller_weights():
    norms = []
    for name, wd in (("wd0", "0"), ("wd1", "1")):
        # 27 steps (a batch of 16 of some 140 positions) at a learning rate falling from
        # 0.01: the decay alone takes about 12% off; seen: 9% less norm.
        net, _ = train(name, "-epochs", "3", "-batch", "16", "-lr", "0.01", "-wd", wd, "-scale", "1")
        norms.append(sum(w * w for w in feature_weights(net)) ** 0.5)
    check(norms[1] < 0.95 * norms[0], "feature weight norms: %.0f without decay, %.0f with" % tuple(norms))


testkit.finish()
