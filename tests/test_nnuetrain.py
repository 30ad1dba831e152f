#!/usr/bin/env python3
"""nnuetrain's options (tools/programs/nnuetrain.c), on a few games of tiny self-play data.

usage: python3 tests/test_nnuetrain.py ENGINE
nnuetrain, datagen and eval_loss are taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: -lambda-end ramps lambda over the epochs (the log and the CSV say which, and the
training loss follows it); -wd gives smaller weights than the same run without it; -best
leaves in NET the net of the epoch the CSV shows with the lowest validation loss and the
last epoch's in NET.last.nnue, across -resume too; -hm 1 trains an HM net, written as a
version 2 file that eval_loss scores as the trainer does and the engine plays with,
-mirror does not touch it, and -init and -resume keep or convert the mapping as told.
The last line printed is "N passed, N failed".
"""
import os
import shutil
import struct
import zlib

import testkit
from testkit import check, test

DATAGEN = testkit.tool("datagen")
NNUETRAIN = testkit.tool("nnuetrain")
EVAL_LOSS = testkit.tool("eval_loss")
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


def net_id(path):
    data = open(path, "rb").read()
    check(struct.unpack_from("<I", data, len(data) - 4)[0] == zlib.crc32(data[:-4]), "%s: checksum" % path)
    return "%08x" % zlib.crc32(data[:-4])


def epoch_ids(err):
    return [l.split(" net ", 1)[1][:8] for l in epoch_lines(err)]


def best_epochs(net):
    """The epochs (1-based) whose validation loss in the CSV is the lowest."""
    losses = [float(r["validation loss"]) for r in csv_rows(net)]
    return [i + 1 for i, x in enumerate(losses) if x == min(losses)]


def header(net):
    """(version, input mapping, file size)."""
    data = open(net, "rb").read()
    (version,) = struct.unpack_from("<I", data, 8)
    return version, struct.unpack_from("<I", data, 36)[0] if version == 2 else 0, len(data)


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
    # Without -best the net is the last epoch's, and there is no other.
    check(net_id(ramp) == epoch_ids(err)[-1] and not os.path.exists(os.path.join(TMP, "ramp.last.nnue")), err)


@test
def weight_decay_gives_smaller_weights():
    norms = []
    for name, wd in (("wd0", "0"), ("wd1", "1")):
        # 27 steps (a batch of 16 of some 140 positions) at a learning rate falling from
        # 0.01: the decay alone takes about 12% off; seen: 9% less norm.
        net, _ = train(name, "-epochs", "3", "-batch", "16", "-lr", "0.01", "-wd", wd, "-scale", "1")
        norms.append(sum(w * w for w in feature_weights(net)) ** 0.5)
    check(norms[1] < 0.95 * norms[0], "feature weight norms: %.0f without decay, %.0f with" % tuple(norms))


@test
def best_keeps_the_epoch_of_the_lowest_validation_loss():
    # Some 140 training positions overfit within a few epochs: the validation loss turns up.
    net, err = train("best", "-epochs", "4", "-batch", "16", "-lr", "0.02", "-best", "1")
    last = os.path.join(TMP, "best.last.nnue")
    ids = epoch_ids(err)
    best = best_epochs(net)
    check(len(ids) == 4 and net_id(net) in [ids[e - 1] for e in best], (best, ids, err))
    check(net_id(last) == ids[-1], err)
    check(("best.nnue is epoch %d's net (%s)" % (best[0], net_id(net))) in err, err)
    # Resumed with a learning rate that wrecks the net: later epochs are worse, so NET
    # keeps the earlier best (which the checkpoint remembers) and .last moves on.
    _, err = train("best", "-epochs", "6", "-batch", "16", "-lr", "0.5", "-best", "1", "-resume")
    ids += epoch_ids(err)
    best = best_epochs(net)
    check(len(ids) == 6 and max(best) <= 4, "the premise: epochs 5-6 are worse (%s)" % open(net + ".csv").read())
    check(net_id(net) in [ids[e - 1] for e in best] and net_id(last) == ids[-1], (best, ids, err))
    # A NET that no longer holds the best epoch's net: the choice starts again.
    shutil.copy(last, net)
    _, err = train("best", "-epochs", "7", "-batch", "16", "-lr", "0.5", "-best", "1", "-resume")
    check("does not hold epoch" in err and net_id(net) == epoch_ids(err)[0] == net_id(last), err)
    # Nothing held out, nothing to choose by.
    rc, _, err = testkit.run([NNUETRAIN, "-d", DATA, "-o", os.path.join(TMP, "none.nnue"), "-valid", "0", "-best", "1"])
    check(rc == 1 and "-valid" in err and not os.path.exists(os.path.join(TMP, "none.nnue")), err)


@test
def hm_nets_train_load_and_are_scored():
    # Small batches at a high rate: a net whose scores are far from zero, so that the
    # mapping it is read with matters.
    args = ["-batch", "16", "-lr", "0.01", "-hm", "1", "-scale", "1"]
    net, err = train("hm", "-epochs", "3", *args)
    check("an HM net" in err and "-mirror changes none" in err, err)
    check(header(net) == (2, 1, 401996), header(net))
    net_id(net)
    # eval_loss reads the mapping from the file and scores the held-out positions as the
    # trainer's validation loss did (the same games held out; quantised, so not equal);
    # the same weights read as a plain net (version 1) score otherwise.
    trained = field(epoch_lines(err)[-1], "validation loss")
    data = open(net, "rb").read()
    as_plain = bytearray(data[:36] + data[40:-4])
    struct.pack_into("<I", as_plain, 8, 1)
    plain_net = os.path.join(TMP, "hm-read-as-plain.nnue")
    open(plain_net, "wb").write(bytes(as_plain) + struct.pack("<I", zlib.crc32(bytes(as_plain))))
    scored = {}
    for path, kind in ((net, "HM"), (plain_net, "plain")):
        rc, out, err2 = testkit.run([EVAL_LOSS, "-d", DATA, "-valid", "0.25", "-net", path])
        check(rc == 0 and ("%s inputs)" % kind) in out, out + err2)
        scored[kind] = float(out.split("%s inputs)" % kind, 1)[1].split("loss ", 1)[1].split(",")[0])
    check(abs(scored["HM"] - trained) < 0.02 * trained < abs(scored["plain"] - trained),
          "eval_loss %s, the trainer %.6f" % (scored, trained))
    # The engine plays with it (datagen plays its games with the net and records its id).
    games = os.path.join(TMP, "hm-games")
    rc, _, err2 = testkit.run([DATAGEN, "-o", games, "-games", "1", "-nodes", "300", "-net", net])
    check(rc == 0, err2)
    data = open(os.path.join(games, "s1-000000000.svt"), "rb").read()
    check("%08x" % struct.unpack_from("<I", data, 36)[0] == net_id(net), "the games' net id")
    # An HM net sees a board and its mirror image alike: -mirror is not applied.
    other, _ = train("hm-unmirrored", "-epochs", "3", *args, "-mirror", "0")
    check(open(other, "rb").read() == open(net, "rb").read(), "-mirror changed an HM net")
    # Resuming keeps the checkpoint's mapping and refuses another.
    rc, _, err2 = testkit.run([NNUETRAIN, "-d", DATA, "-o", net, "-epochs", "4", "-resume", "-hm", "0"])
    check(rc == 1 and "asks for the other kind" in err2, err2)
    _, err2 = train("hm", "-epochs", "4", "-resume", "-scale", "1")
    check(header(net)[:2] == (2, 1) and len(epoch_lines(err2)) == 1, err2)
    # -init keeps the net's mapping, or converts it when -hm says so.
    for name, args, mapping in (("from-hm", [], 1), ("hm-to-plain", ["-hm", "0"], 0)):
        out_net, err2 = train(name, "-epochs", "1", "-init", net, *args)
        check(("starting from net %s (HM inputs)" % net_id(net)) in err2 and header(out_net)[1] == mapping, err2)
    plain = os.path.join(TMP, "ramp.nnue")
    out_net, err2 = train("plain-to-hm", "-epochs", "1", "-init", plain, "-hm", "1")
    check("(plain inputs), trained as a net with HM inputs" in err2 and header(out_net)[:2] == (2, 1), err2)


testkit.finish()
