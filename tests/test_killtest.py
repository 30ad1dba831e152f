#!/usr/bin/env python3
"""Kill test of the learning file: an engine plays short games with learning on and is
killed with SIGKILL at random moments; after every kill the file must still load, keep
every game the engine had acknowledged, and leave no temporary file behind.

The file starts just over the compaction size (6 MB) with synthetic games, so every game
end both appends (with fsync) and compacts (temporary file, rename): kills land in
appends, compactions and searches alike.

After each kill the script checks, reading the bytes itself (docs/learning-format.md):
- the header is the engine's and every record's checksum holds; only the very last
  record may be cut short (a torn append, which the next load cuts off);
- every game acknowledged before the kill (its `ucinewgame` answered by `readyok`) is
  in the file, byte for byte;
then starts the next engine on the file and checks that it loads without a warning other
than a dropped torn tail, sets nothing aside (`.bad-*`) and that no temporary file
remains.

usage: python3 tests/test_killtest.py ENGINE [KILLS] [SEED]    (KILLS default 10;
       make killtest: 100)
The last line printed is "N passed, N failed" (one test per kill).
"""
import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testkit  # noqa: E402
from enginepipe import EnginePipe  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
KILLS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 25
SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))
TMP = testkit.temp_dir("killtest")
LEARN = os.path.join(TMP, "kill.lrn")
HEADER_SIZE = 32
SYNTHETIC_FEN = b"8/8/8/8/8/8/8/K6k w - - 0 1"
OPENINGS = ["e2e4", "d2d4", "c2c4", "g1f3", "b2b3", "g2g3", "e2e3", "d2d3", "b1c3", "f2f4"]


def parse(data):
    """(records, torn): the intact records as (kind, bytes), and whether a cut-short last
    record follows them. Raises on anything else (a bad checksum before the end...)."""
    records, off = [], HEADER_SIZE
    while off < len(data):
        left = len(data) - off
        if left < 4:
            return records, True
        kind, zero, length = data[off], data[off + 1], struct.unpack_from("<H", data, off + 2)[0]
        if zero != 0 or length < 8:
            raise AssertionError("bad record header at byte %d" % off)
        if length > left:
            return records, True
        rec = data[off:off + length]
        if struct.unpack_from("<I", rec, length - 4)[0] != zlib.crc32(rec[:-4]):
            if off + length == len(data):
                return records, True
            raise AssertionError("checksum fails at byte %d, before the end" % off)
        records.append((kind, bytes(rec)))
        off += length
    return records, False


def game_record(result, own_side, fen, codes):
    payload = bytes([result, own_side, 0 if fen else 1, len(fen)]) + fen + struct.pack("<H", len(codes)) + codes
    body = bytes([ord("G"), 0]) + struct.pack("<H", len(payload) + 8) + payload
    return body + struct.pack("<I", zlib.crc32(body))


class Uci(EnginePipe):
    def __init__(self):
        super().__init__(ENGINE)
        self.send("uci")
        self.expect(lambda l: l == "uciok", 60.0 * SCALE)
        for name, value in (("LearningFile", LEARN), ("OwnBook", "false"), ("Hash", "8"), ("Threads", "1")):
            self.send("setoption name %s value %s" % (name, value))

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 60.0 * SCALE)


def header_of_engine():
    """The header this build writes: from one short game in a scratch file."""
    scratch = os.path.join(TMP, "header.lrn")
    e = EnginePipe(ENGINE)
    e.send("uci")
    e.send("setoption name LearningFile value " + scratch)
    e.send("setoption name OwnBook value false")
    e.send("position startpos moves e2e4")
    e.send("go depth 1")
    e.expect(lambda l: l.startswith("bestmove"), 60.0 * SCALE)
    e.send("ucinewgame")
    e.send("isready")
    e.expect(lambda l: l == "readyok", 60.0 * SCALE)
    e.close()
    with open(scratch, "rb") as f:
        return f.read(HEADER_SIZE)


def prefill(header, rng):
    """Synthetic games to just over the compaction size."""
    out = bytearray(header)
    while len(out) < (6 << 20) + 300000:
        codes = rng.randbytes(1200)
        out += game_record(0, 2, SYNTHETIC_FEN, codes)
    with open(LEARN, "wb") as f:
        f.write(out)


def engine_games(records):
    """The games the engine played (not the synthetic ones), as bytes."""
    return [r for k, r in records if k == ord("G") and SYNTHETIC_FEN not in r[:8 + len(SYNTHETIC_FEN)]]


class Player:
    """Plays short games on one engine until it is killed; remembers what was
    acknowledged."""

    def __init__(self, rng):
        self.rng = rng
        self.acked = []          # engine games known to be in the file
        self.engine = Uci()
        self.engine.send("ucinewgame")  # loads (and repairs) the learning file
        self.warnings = [l for l in self.engine.sync() if l.startswith("info string learning")]

    def play(self, stop):
        e = self.engine
        try:
            while not stop.is_set():
                e.send("ucinewgame")
                moves = [self.rng.choice(OPENINGS)]
                for _ in range(self.rng.randrange(2, 7)):
                    e.send("position startpos moves " + " ".join(moves))
                    e.send("go depth %d" % self.rng.randrange(2, 6))
                    seen = e.expect(lambda l: l.startswith("bestmove"), 60.0 * SCALE)
                    move = seen[-1].split()[1]
                    if move == "(none)":
                        break
                    moves.append(move)
                e.send("position startpos moves " + " ".join(moves))
                e.send("ucinewgame")   # the game is written (fsync) and compacted here
                e.sync()
                with open(LEARN, "rb") as f:
                    records, _ = parse(f.read())
                self.acked = engine_games(records)
        except (EOFError, TimeoutError, BrokenPipeError, OSError, ValueError):
            pass  # killed


def one_kill(rng, number, state):
    player = Player(rng)
    bad = [w for w in player.warnings if "dropped a record cut short" not in w]
    testkit.check(not bad, "load after kill %d warned: %s" % (number - 1, bad))
    no_leftovers(number - 1)
    player.acked = state["acked"]
    stop = threading.Event()
    t = threading.Thread(target=player.play, args=(stop,), daemon=True)
    t.start()
    time.sleep(rng.uniform(0.05, 2.5))
    os.kill(player.engine.proc.pid, signal.SIGKILL)
    stop.set()
    player.engine.proc.wait()
    t.join(30)
    if any(n.startswith("kill.lrn.tmp") for n in os.listdir(TMP)):
        state["in_compaction"] += 1  # the next load must remove it
    with open(LEARN, "rb") as f:
        data = f.read()
    testkit.check(data[:HEADER_SIZE] == state["header"], "kill %d: header changed" % number)
    records, torn = parse(data)
    present = set(engine_games(records))
    lost = [g for g in player.acked if g not in present]
    testkit.check(not lost, "kill %d: %d acknowledged games lost" % (number, len(lost)))
    state["acked"] = player.acked
    state["torn"] += torn
    state["games"] = len(present)


def no_leftovers(number):
    names = os.listdir(TMP)
    aside = [n for n in names if ".bad-" in n]
    temps = [n for n in names if n.startswith("kill.lrn.tmp")]
    testkit.check(not aside, "after kill %d: set aside: %s" % (number, aside))
    testkit.check(not temps, "after kill %d: temporary files remain: %s" % (number, temps))


def main():
    rng = random.Random(SEED)
    state = {"header": header_of_engine(), "acked": [], "torn": 0, "games": 0, "in_compaction": 0}
    prefill(state["header"], rng)
    start = time.time()
    for k in range(1, KILLS + 1):
        def kill_once(k=k):
            one_kill(rng, k, state)
        kill_once.__name__ = "kill_%03d" % k
        testkit.test(kill_once)
    # The last load: cleans up after the last kill; then nothing may be left over.
    e = Uci()
    e.send("ucinewgame")
    bad = [l for l in e.sync() if l.startswith("info string learning") and "dropped a record cut short" not in l]
    e.close()

    def final_load_clean():
        testkit.check(not bad, "final load warned: %s" % bad)
        no_leftovers(KILLS)
    testkit.test(final_load_clean)
    print("# %d kills in %.0f s, %d engine games kept, %d torn tails seen, %d kills during a "
          "compaction (its temporary file left, then removed)" %
          (KILLS, time.time() - start, state["games"], state["torn"], state["in_compaction"]))
    testkit.finish()


main()
