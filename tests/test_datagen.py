#!/usr/bin/env python3
"""datagen (tools/programs/datagen.c): self-play training data in the training-data format.

usage: python3 tests/test_datagen.py ENGINE
datagen is taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: the files parse with an independent reader of docs/training-data.md (header,
record lengths, CRC-32s, counts, results); the same seed gives the same bytes with one
thread or two and another seed other games; a run resumes (a missing file is made again,
byte for byte, and existing files are left alone); the chain closes: nnuetrain trains a
net on the data, datagen plays with that net and records its id, and nnuetrain refines
that net (-init); bad arguments are refused.
The last line printed is "N passed, N failed".
"""
import os
import struct
import zlib

import testkit
from testkit import check, test

DATAGEN = testkit.tool("datagen")
NNUETRAIN = testkit.tool("nnuetrain")
TMP = testkit.temp_dir("datagen")
BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "book", "book.bin")


def datagen(*args, env=None):
    rc, _, err = testkit.run([DATAGEN, *args], env=env)
    return rc, err


def read_file(path):
    """An independent reader: returns (header fields, games as dicts)."""
    data = open(path, "rb").read()
    check(data[:8] == b"SVTRAIN\x1a", "magic of %s" % path)
    version, mc_version, nodes, seed, first, games, eval_id, _ = struct.unpack_from("<HHIQQIII", data, 8)
    (crc,) = struct.unpack_from("<I", data, 44)
    check(crc == zlib.crc32(data[:44]), "header CRC")
    check(version == 1 and mc_version == 1, "versions %d %d" % (version, mc_version))
    pos, out = 48, []
    while pos < len(data):
        (length,) = struct.unpack_from("<H", data, pos)
        body = data[pos + 2:pos + 2 + length]
        check(len(body) == length, "record cut short")
        check(struct.unpack_from("<I", body, length - 4)[0] == zlib.crc32(body[:-4]), "record CRC")
        flags, p = body[0], 1
        fen = None
        if flags & 1:
            n = body[p]
            fen = body[p + 1:p + 1 + n].decode()
            p += 1 + n
        result = body[p]
        plies, first_scored = struct.unpack_from("<HH", body, p + 1)
        p += 5
        codes = body[p:p + plies]
        p += plies
        scores = list(struct.unpack_from("<%dh" % (plies - first_scored), body, p))
        p += 2 * (plies - first_scored)
        check(p == length - 4, "record length %d, fields end at %d" % (length, p))
        check(result in (0, 1, 2), "result %d" % result)
        out.append({"fen": fen, "result": result, "plies": plies, "first": first_scored,
                    "codes": codes, "scores": scores})
        pos += 2 + length
    check(len(out) == games, "%d records, header says %d" % (len(out), games))
    return (nodes, seed, first, games, eval_id), out


def files(folder):
    return sorted(os.listdir(folder))


@test
def files_parse_with_an_independent_reader():
    d = os.path.join(TMP, "a")
    rc, err = datagen("-o", d, "-games", "5", "-chunk", "2", "-nodes", "400", "-book", BOOK, "--seed", "3")
    check(rc == 0, err)
    check(files(d) == ["s3-000000000.svt", "s3-000000002.svt", "s3-000000004.svt"], files(d))
    scored = 0
    for i, name in enumerate(files(d)):
        (nodes, seed, first, games, eval_id), games_read = read_file(os.path.join(d, name))
        check((nodes, seed, first, eval_id) == (400, 3, 2 * i, 0), (nodes, seed, first, eval_id))
        for g in games_read:
            check(g["fen"] is None, "a game from the start position stores no FEN")
            check(1 <= g["first"] <= 40, "opening plies %d" % g["first"])
            usable = [s for s in g["scores"] if s != -32768]
            scored += len(usable)
            check(all(abs(s) < 30000 for s in usable), "a mate score kept")
    check(scored > 20, "only %d scored positions" % scored)
    check("positions/s" in err and "bytes/position" in err, err)


@test
def same_seed_same_bytes_and_resume():
    a, b, c = (os.path.join(TMP, n) for n in ("s1", "s2", "s3"))
    for folder, threads, seed in ((a, "1", "5"), (b, "2", "5"), (c, "2", "6")):
        rc, err = datagen("-o", folder, "-games", "4", "-chunk", "2", "-nodes", "300", "-c", threads,
                          "--seed", seed)
        check(rc == 0, err)
    for name in files(a):
        check(open(os.path.join(a, name), "rb").read() == open(os.path.join(b, name), "rb").read(),
              "one thread and two threads differ in %s" % name)
    check(open(os.path.join(a, files(a)[0]), "rb").read()[48:] != open(os.path.join(c, files(c)[0]), "rb").read()[48:],
          "another seed, the same games")
    # Resume: the missing file is made again, the other is not touched.
    first, second = (os.path.join(a, n) for n in files(a))
    kept = open(second, "rb").read()
    before = os.stat(first).st_mtime_ns
    os.remove(second)
    rc, err = datagen("-o", a, "-games", "4", "-chunk", "2", "-nodes", "300", "--seed", "5")
    check(rc == 0, err)
    check(os.stat(first).st_mtime_ns == before, "an existing file was written again")
    check(open(second, "rb").read() == kept, "the file made again differs")
    check("2 to play" in err, err)
    check(not [n for n in files(a) if not n.endswith(".svt")], "temporary files left: %s" % files(a))


@test
def output_folder_from_the_environment():
    d = os.path.join(TMP, "env")
    env = dict(os.environ, SAAVEDRA_DATA=d)
    rc, err = datagen("-games", "1", "-nodes", "200", env=env)
    check(rc == 0 and files(d) == ["s1-000000000.svt"], err)


@test
def a_net_trained_on_the_data_generates_the_next_data():
    d, net = os.path.join(TMP, "chain"), os.path.join(TMP, "chain.nnue")
    rc, err = datagen("-o", d, "-games", "6", "-nodes", "300", "--seed", "8")
    check(rc == 0, err)
    rc, _, err = testkit.run([NNUETRAIN, "-d", d, "-o", net, "-epochs", "2", "-batch", "64", "-valid", "0.2"])
    check(rc == 0 and "epoch 2/2" in err and "validation loss" in err, err)
    data = open(net, "rb").read()
    check(data[:8] == b"SVNNUE\r\n" and len(data) == 401992, "net file: %d bytes" % len(data))
    (net_id,) = struct.unpack_from("<I", data, len(data) - 4)
    check(net_id == zlib.crc32(data[:-4]), "net checksum")
    check(os.path.exists(net + ".ckpt") and os.path.exists(net + ".csv"), "no checkpoint or log")
    rc, err = datagen("-o", os.path.join(TMP, "next"), "-games", "1", "-nodes", "300", "-net", net)
    check(rc == 0, err)
    header, games = read_file(os.path.join(TMP, "next", "s1-000000000.svt"))
    check(header[4] == net_id, "eval id %08x, net %08x" % (header[4], net_id))
    rc, err = datagen("-o", os.path.join(TMP, "bad"), "-games", "1", "-net", os.path.join(TMP, "chain", files(d)[0]))
    check(rc != 0 and "net" in err, err)
    # Training goes on from that net (-init): it says so, and a smaller step keeps the
    # refined net nearer to it than a net trained from random weights is.
    again = os.path.join(TMP, "again.nnue")
    rc, _, err = testkit.run([NNUETRAIN, "-d", d, "-o", again, "-epochs", "1", "-batch", "64", "-valid", "0.2",
                              "-lr", "0.00001", "-init", net])
    check(rc == 0 and ("starting from net %08x" % net_id) in err, err)
    fresh = os.path.join(TMP, "fresh.nnue")
    rc, _, err = testkit.run([NNUETRAIN, "-d", d, "-o", fresh, "-epochs", "1", "-batch", "64", "-valid", "0.2",
                              "-lr", "0.00001", "--seed", "5"])
    check(rc == 0, err)

    def weights(path):
        return struct.unpack_from("<%dh" % (768 * 256), open(path, "rb").read(), 36)

    base = weights(net)
    near = sum(abs(a - b) for a, b in zip(weights(again), base))
    far = sum(abs(a - b) for a, b in zip(weights(fresh), base))
    check(near * 10 < far, "distance to the starting net: refined %d, from random %d" % (near, far))
    for bad in (os.path.join(TMP, "chain", files(d)[0]), os.path.join(TMP, "missing.nnue")):
        rc, _, err = testkit.run([NNUETRAIN, "-d", os.path.join(TMP, "missing"), "-o", again, "-init", bad])
        check(rc == 1 and err.startswith("nnuetrain: -init ") and len(err.splitlines()) == 1, err)


@test
def bad_arguments():
    env = {k: v for k, v in os.environ.items() if k != "SAAVEDRA_DATA"}
    rc, err = datagen("-games", "1", env=env)
    check(rc == 2 and "SAAVEDRA_DATA" in err, err)
    # One line naming the option, then the usage; exit status 2.
    for args in (["-o", TMP, "-nodes", "0"], ["-o", TMP, "-c", "x"], ["-o", TMP, "-games"], ["-o", TMP, "-colour", "w"],
                 ["-o", TMP, "stray"]):
        rc, err = datagen(*args)
        first = err.splitlines()[0] if err.strip() else ""
        check(rc == 2 and first.startswith("datagen: ") and args[-2 if len(args) == 4 else -1] in first
              and "usage: datagen" in err, "%s: rc %d, %r" % (args, rc, err))
    rc, err = datagen("-o", TMP, "-book", "/nonexistent")
    check(rc != 0 and err.strip(), "a missing book: rc %d" % rc)


testkit.finish()
