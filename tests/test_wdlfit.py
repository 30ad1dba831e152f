#!/usr/bin/env python3
"""wdlfit (tools/programs/wdlfit.c): the win/draw/loss model fitted to game results.

usage: python3 tests/test_wdlfit.py ENGINE
wdlfit and pgnselect are taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: on positions of real games the fitted model predicts the held-out fifth better
than the result frequencies alone, no worse than the engine's own constants, and prints
four constants; with -net the scores come
from the net: a net written here from docs/nnue-format.md whose every weight is zero
scores every position 0, so its model can do no better than the frequencies; a file
that is not a net is refused with one line. The last line printed is "N passed, N failed".
"""
import os
import re
import struct
import zlib

import testkit
from testkit import ROOT, check, test

WDLFIT = testkit.tool("wdlfit")
PGNSELECT = testkit.tool("pgnselect")
GAMES = os.path.join(ROOT, "tests", "data", "pgn", "Nakamura.pgn")
TMP = testkit.temp_dir("wdlfit")
EPD = os.path.join(TMP, "labelled.epd")

INPUTS, HIDDEN, BUCKETS, QA, QB, SCALE = 768, 256, 8, 255, 64, 400


def zero_net(path):
    """A net of this engine's shape (docs/nnue-format.md) with every weight and bias 0."""
    body = b"SVNNUE\r\n" + struct.pack("<7I", 1, INPUTS, HIDDEN, BUCKETS, QA, QB, SCALE)
    body += bytes(2 * (INPUTS * HIDDEN + HIDDEN) + 2 * BUCKETS * 2 * HIDDEN + 4 * BUCKETS)
    with open(path, "wb") as f:
        f.write(body + struct.pack("<I", zlib.crc32(body)))


def fit(*args):
    rc, out, err = testkit.run([WDLFIT, *args])
    text = out + err
    loss = re.search(r"log-loss on the held-out fifth: model ([\d.]+), shipped model ([\d.]+), first guess [\d.]+, "
                     r"frequencies only ([\d.]+)",
                     text)
    consts = re.search(r"constants: A0 (\S+) A1 (\S+) B0 (\S+) B1 (\S+)", text)
    return rc, text, loss, consts


def labelled_positions():
    if not os.path.exists(EPD):
        rc, _, err = testkit.run([PGNSELECT, "-d", "4", "-min", "10", "-max", "200", "-o", EPD, GAMES])
        check(rc == 0, err)
    return EPD


@test
def the_model_beats_the_frequencies():
    rc, text, loss, consts = fit(labelled_positions())
    check(rc == 0 and loss and consts, text[-400:])
    if loss:
        model, shipped, freq = (float(loss.group(i)) for i in (1, 2, 3))
        check(model < freq - 0.05, "model %.4f, frequencies %.4f" % (model, freq))
        # The engine's own constants (src/eval/wdl.c) are scored on the same positions; a fit
        # to them cannot be much worse than any fixed set of constants.
        check(shipped < freq and model <= shipped + 0.01, "model %.4f, shipped %.4f" % (model, shipped))


@test
def a_net_of_zeros_scores_nothing():
    net = os.path.join(TMP, "zero.nnue")
    zero_net(net)
    rc, text, loss, consts = fit("-net", net, labelled_positions())
    check(rc == 0 and loss and consts, text[-400:])
    if loss:
        model, freq = float(loss.group(1)), float(loss.group(3))
        check(model > freq - 0.01, "a net of zeros predicts: model %.4f, frequencies %.4f" % (model, freq))


@test
def a_file_that_is_not_a_net_is_refused():
    bad = os.path.join(TMP, "bad.nnue")
    with open(bad, "wb") as f:
        f.write(b"not a net\n")
    rc, text, _, _ = fit("-net", bad, labelled_positions())
    check(rc != 0 and len(text.strip().splitlines()) == 1 and "wdlfit:" in text, text)
    rc, text, _, _ = fit("-net")
    check(rc != 0 and "usage" in text, text)


testkit.finish()
