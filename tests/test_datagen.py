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
import shutil
import struct
import zlib

import testkit
from testkit import check, test

DATAGEN = testkit.tool("datagen")
NNUETRAIN = testkit.tool("nnuetrain")
TMP = testkit.temp_dir("datagen")
BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "book", "book.bin")
HEADER_BYTES = 48   # docs/training-data.md: the file header before the first game


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
    pos, out = HEADER_BYTES, []
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
    """The folder's files but the run's lock and record."""
    return sorted(n for n in os.listdir(folder) if n not in ("datagen.lock", "datagen-run.txt"))


def first_file_games(folder):
    """The games of the folder's first data file, without its header."""
    with open(os.path.join(folder, files(folder)[0]), "rb") as f:
        return f.read()[HEADER_BYTES:]


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
    check(first_file_games(a) != first_file_games(c),
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


def env_without_data_variables(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("SAAVEDRA_DATA", "XDG_DATA_HOME", "HOME")}
    env.update(extra)
    return env


@test
def default_folder_is_the_generation_under_the_data_root():
    # $SAAVEDRA_DATA, else $XDG_DATA_HOME/saavedra/data, else ~/.local/share/saavedra/data;
    # in it, one folder per generation: what played the games and how deep.
    d = os.path.join(TMP, "env")
    rc, err = datagen("-games", "1", "-nodes", "200", env=env_without_data_variables(SAAVEDRA_DATA=d))
    check(rc == 0 and files(os.path.join(d, "hce-n200")) == ["s1-000000000.svt"], err)
    xdg = os.path.join(TMP, "xdg")
    rc, err = datagen("-games", "1", "-nodes", "200", env=env_without_data_variables(XDG_DATA_HOME=xdg))
    check(rc == 0 and os.path.exists(os.path.join(xdg, "saavedra", "data", "hce-n200", "s1-000000000.svt")), err)
    home = os.path.join(TMP, "home")
    rc, err = datagen("-games", "1", "-nodes", "200", env=env_without_data_variables(HOME=home, XDG_DATA_HOME="rel"))
    check(rc == 0 and os.path.exists(os.path.join(home, ".local", "share", "saavedra", "data", "hce-n200",
                                                  "s1-000000000.svt")), err)
    rc, err = datagen("-games", "1", "-nodes", "200", env=env_without_data_variables())
    check(rc == 2 and err.startswith("datagen: no data folder") and len(err.splitlines()) == 1, err)


def reference(name, games, chunk, seed, nodes="400"):
    """An uninterrupted run's folder, the bytes a resumed run must reproduce."""
    d = os.path.join(TMP, name)
    rc, err = datagen("-o", d, "-games", str(games), "-chunk", str(chunk), "-nodes", nodes, "--seed", str(seed))
    check(rc == 0, err)
    return d


def svt(folder):
    return [n for n in files(folder) if n.endswith(".svt")]


def same_files(folder, ref):
    check(svt(folder) == svt(ref), "%s against %s" % (files(folder), files(ref)))
    for name in svt(ref):
        check(open(os.path.join(folder, name), "rb").read() == open(os.path.join(ref, name), "rb").read(),
              "%s differs from an uninterrupted run's" % name)
    check(not [n for n in files(folder) if n.endswith(".part") or ".tmp-" in n], "left: %s" % files(folder))


def read_records(data):
    """The whole records after the header of a file that may end inside one."""
    pos, out = HEADER_BYTES, []
    while pos + 2 <= len(data):
        (length,) = struct.unpack_from("<H", data, pos)
        body = data[pos + 2:pos + 2 + length]
        if len(body) < length or struct.unpack_from("<I", body, length - 4)[0] != zlib.crc32(body[:-4]):
            break
        out.append(body)
        pos += 2 + length
    return out


@test
def a_killed_run_resumes_after_its_last_whole_game():
    import signal
    import subprocess
    import time
    ref = reference("kill-ref", 120, 60, 11)
    d = os.path.join(TMP, "kill")
    p = subprocess.Popen([DATAGEN, "-o", d, "-games", "120", "-chunk", "60", "-nodes", "400", "--seed", "11",
                          "-c", "2"], stderr=subprocess.DEVNULL)
    # Killed once both files hold some whole games and neither is finished.
    deadline = time.time() + 60
    while time.time() < deadline:
        parts = [n for n in (files(d) if os.path.isdir(d) else []) if n.endswith(".part")]
        if len(parts) == 2 and all(os.path.getsize(os.path.join(d, n)) > 1500 for n in parts):
            break
        time.sleep(0.01)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    parts = [n for n in files(d) if n.endswith(".part")]
    check(len(parts) == 2, "killed too late to be mid-file: %s" % files(d))
    whole = 0
    for name in parts:
        data = open(os.path.join(d, name), "rb").read()
        whole += len(read_records(data))
    check(whole > 0, "no whole game before the kill")
    rc, err = datagen("-o", d, "-games", "120", "-chunk", "60", "-nodes", "400", "--seed", "11")
    check(rc == 0 and ("%d to play" % (120 - whole)) in err and "resum" in err, err)
    same_files(d, ref)


@test
def a_torn_part_is_cut_back_to_its_last_whole_game():
    ref = reference("torn-ref", 8, 8, 12)
    d = os.path.join(TMP, "torn")
    os.makedirs(d)
    data = open(os.path.join(ref, "s12-000000000.svt"), "rb").read()
    records = read_records(data)
    cut = HEADER_BYTES + sum(2 + len(r) for r in records[:3]) + 7   # three whole games and a torn one
    open(os.path.join(d, "s12-000000000.svt.part"), "wb").write(data[:cut])
    rc, err = datagen("-o", d, "-games", "8", "-chunk", "8", "-nodes", "400", "--seed", "12")
    check(rc == 0 and "5 to play" in err, err)
    same_files(d, ref)


@test
def damaged_files_are_set_aside_and_played_again():
    ref = reference("damage-ref", 12, 3, 13)
    d = os.path.join(TMP, "damage")
    shutil.copytree(ref, d)
    names = svt(d)
    flipped, cut, grown = (os.path.join(d, n) for n in names[:3])
    data = bytearray(open(flipped, "rb").read())
    data[100] ^= 0x10
    open(flipped, "wb").write(bytes(data))
    open(cut, "r+b").truncate(os.path.getsize(cut) - 5)
    open(grown, "ab").write(b"\0\1")
    kept = os.stat(os.path.join(d, names[3])).st_mtime_ns
    rc, err = datagen("-o", d, "-games", "12", "-chunk", "3", "-nodes", "400", "--seed", "13")
    check(rc == 0 and "9 to play" in err, err)
    for name in names[:3]:
        check(("%s: " % name) in err and "moved to damaged/" in err, err)
    check(sorted(os.listdir(os.path.join(d, "damaged"))) == names[:3], os.listdir(os.path.join(d, "damaged")))
    check(os.stat(os.path.join(d, names[3])).st_mtime_ns == kept, "a whole file was written again")
    shutil.rmtree(os.path.join(d, "damaged"))
    same_files(d, ref)


@test
def one_run_a_folder():
    import fcntl
    d = os.path.join(TMP, "locked")
    os.makedirs(d)
    with open(os.path.join(d, "datagen.lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        rc, err = datagen("-o", d, "-games", "1", "-nodes", "200")
        check(rc == 1 and "another run is writing" in err and not svt(d), err)
    rc, err = datagen("-o", d, "-games", "1", "-nodes", "200")
    check(rc == 0 and svt(d) == ["s1-000000000.svt"], err)


@test
def status_counts_what_an_independent_reader_counts():
    root = os.path.join(TMP, "status")
    a = reference(os.path.join("status", "hce-n400"), 6, 2, 14)
    b = reference(os.path.join("status", "hce-n300"), 4, 4, 15, nodes="300")
    expect = {}
    for folder in (a, b):
        games = positions = 0
        for name in svt(folder):
            header, read = read_file(os.path.join(folder, name))
            games += len(read)
            positions += sum(1 for g in read for s in g["scores"] if s != -32768)
        expect[folder] = (games, positions)
    rc, out, err = testkit.run([testkit.tool("datastatus")], env=dict(os.environ, SAAVEDRA_DATA=root))
    check(rc == 0, err)
    for folder, (games, positions) in expect.items():
        check(("%s games" % games) in out and ("%s positions" % format(positions, ",")) in out, out)
    check("2 folders, 10 games" in out and "last run:" in out and "per CPU second" in out, out)
    # A file cut short under its final name fails the check; a .part counts its whole games.
    name = svt(a)[0]
    data = open(os.path.join(a, name), "rb").read()
    open(os.path.join(a, name), "wb").write(data[:-3])
    os.rename(os.path.join(b, svt(b)[0]), os.path.join(b, svt(b)[0] + ".part"))
    rc, out, err = testkit.run([testkit.tool("datastatus"), a, b])
    check(rc == 1 and ("fails its check: %s" % name) in out and "cut short (.part) with 4 whole games" in out, out)


@test
def every_generation_is_listed_for_the_trainer():
    root = os.path.join(TMP, "generations")
    a = reference(os.path.join("generations", "hce-n400"), 4, 2, 16)
    b = reference(os.path.join("generations", "hce-n300"), 4, 2, 17, nodes="300")
    os.makedirs(os.path.join(root, "empty"))
    rc, out, err = testkit.run([testkit.tool("datastatus"), "--folders"],
                               env=dict(os.environ, SAAVEDRA_DATA=root))
    check(rc == 0 and out.strip() == "%s:%s" % (b, a), "%r %r" % (out, err))
    rc, _, err = testkit.run([NNUETRAIN, "-d", out.strip(), "-o", os.path.join(TMP, "all.nnue"),
                              "-epochs", "1", "-batch", "64", "-valid", "0.2"])
    check(rc == 0 and "8 games in 4 files" in err, err)
    rc, out, err = testkit.run([testkit.tool("datastatus"), "--folders", os.path.join(root, "empty")])
    check(rc == 1 and out.strip() == "" and "no folder with training data" in err, "%r %r" % (out, err))


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
def the_pause_recipe_stops_and_continues_the_generator():
    import subprocess
    import time
    fake = os.path.join(TMP, "zzfakegen")
    shutil.copy("/bin/sleep", fake)
    p = subprocess.Popen([fake, "60"])
    env = dict(os.environ, DATAGEN_PATTERN="^zzfakegen")
    script = os.path.join(testkit.ROOT, "tools", "recipes", "datagen-pause.sh")

    def state():
        return open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()[0]

    def going():
        """Running or sleeping again within 5 s: SIGCONT takes effect when it is scheduled."""
        for _ in range(100):
            if state() in "RS":
                return True
            time.sleep(0.05)
        return False

    try:
        # stop returns once the process is stopped, not merely signalled.
        rc, _, err = testkit.run(["bash", script, "stop"], env=env)
        check(rc == 0 and state() == "T" and "to 1 generator" in err, err)
        rc, _, err = testkit.run(["bash", script, "cont"], env=env)
        check(rc == 0 and going(), err)
        # run: stopped while the command runs, going again after it, even when it fails.
        rc, out, err = testkit.run(["bash", script, "run", "sh", "-c", "cat /proc/%d/stat; exit 3" % p.pid], env=env)
        check(rc == 3 and out.rsplit(")", 1)[1].split()[0] == "T" and going(), (rc, out, err))
    finally:
        p.kill()
        p.wait()


@test
def the_hash_size_reaches_the_search():
    # One game of 20,000-node searches overflows a 1 MB table but not a 64 MB one: were
    # -hash not passed to the engine, both would be the same game.
    games = []
    for mb in ("1", "64"):
        folder = os.path.join(TMP, "hash" + mb)
        rc, err = datagen("-o", folder, "-games", "1", "-chunk", "1", "-nodes", "20000", "-c", "1",
                          "--seed", "5", "-hash", mb)
        check(rc == 0, err)
        games.append(first_file_games(folder))
    check(games[0] != games[1], "-hash 1 and -hash 64 played the same game")


@test
def bad_arguments():
    # One line naming the option, then the usage; exit status 2.
    for args in (["-o", TMP, "-nodes", "0"], ["-o", TMP, "-c", "x"], ["-o", TMP, "-games"], ["-o", TMP, "-colour", "w"],
                 ["-o", TMP, "stray"], ["-o", TMP, "-hash", "0"]):
        rc, err = datagen(*args)
        first = err.splitlines()[0] if err.strip() else ""
        check(rc == 2 and first.startswith("datagen: ") and args[-2 if len(args) == 4 else -1] in first
              and "usage: datagen" in err, "%s: rc %d, %r" % (args, rc, err))
    rc, err = datagen("-o", TMP, "-book", "/nonexistent")
    check(rc != 0 and err.strip(), "a missing book: rc %d" % rc)


testkit.finish()
