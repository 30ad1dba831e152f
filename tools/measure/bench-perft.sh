#!/usr/bin/env bash
# Perft speed of Saavedra against Debian's Stockfish, measured in the same run.
#   tools/measure/bench-perft.sh [ENGINE...]        (default ./saavedra; `make bench-perft`)
# Times `perft 6` from the start position and `perft 5` on Kiwipete, single thread, no
# hash, 3 runs each interleaved with Stockfish's `go perft`, keeps the best time of each
# and prints the ratio stockfish time / our time (above 1.0 = we are faster).
# Start-up is excluded on both sides: Stockfish's time runs from sending `go perft`
# (after isready/readyok) to its "Nodes searched" line; ours is the "Time: N ms" that
# `ENGINE perft N FEN` reports around the enumeration. The wall clock of our whole
# process (start-up included) is printed too. Both node counts are checked.
# Environment: STOCKFISH (default /usr/games/stockfish), RUNS (default 3).
set -euo pipefail
if [ $# -eq 0 ]; then
    set -- ./saavedra
fi
for engine in "$@"; do
    [ -x "$engine" ] || { echo "error: $engine is not an executable (build it with make)" >&2; exit 1; }
done
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
[ -x "$STOCKFISH" ] || { echo "error: $STOCKFISH not found (apt-get install stockfish)" >&2; exit 1; }

exec python3 - "$STOCKFISH" "${RUNS:-3}" "$@" <<'PY'
import re
import subprocess
import sys
import time

stockfish, runs, engines = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
POSITIONS = [
    ("startpos perft 6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("kiwipete perft 5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 1")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("stockfish exited unexpectedly")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        start = time.perf_counter()
        self.send(f"go perft {depth}")
        line = self.wait("Nodes searched")
        elapsed = time.perf_counter() - start
        return int(line.split(":")[1]), elapsed

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def ours(engine, fen, depth):
    """Returns (nodes, reported seconds, wall-clock seconds of the whole process)."""
    start = time.perf_counter()
    r = subprocess.run([engine, "perft", str(depth), *fen.split()], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    nodes = re.search(r"^Nodes searched: (\d+)$", r.stdout, re.M)
    ms = re.search(r"^Time: (\d+) ms$", r.stdout, re.M)
    if not nodes or not ms:
        raise SystemExit(f"error: {engine} printed no 'Time:'/'Nodes searched:' lines")
    return int(nodes.group(1)), max(int(ms.group(1)), 1) / 1000, wall


sf = Stockfish(stockfish)
best = {}  # (who, position) -> seconds
wall = {}  # (engine, position) -> seconds, start-up included
for name, fen, depth, expected in POSITIONS:
    for _ in range(runs):
        for who in ["stockfish", *engines]:
            if who == "stockfish":
                nodes, t = sf.perft(fen, depth)
            else:
                nodes, t, w = ours(who, fen, depth)
                wall[who, name] = min(wall.get((who, name), w), w)
            if nodes != expected:
                raise SystemExit(f"error: {who} counted {nodes} for {name}, expected {expected}")
            best[who, name] = min(best.get((who, name), t), t)
sf.close()

print(f"best of {runs} runs, single thread, no hash; ratio = stockfish time / our time")
for name, _, _, nodes in POSITIONS:
    sf_t = best["stockfish", name]
    print(f"{name} ({nodes} nodes): stockfish {sf_t * 1000:.0f} ms ({nodes / sf_t / 1e6:.0f} Mnps)")
    for e in engines:
        t = best[e, name]
        print(f"  {e}: {t * 1000:.0f} ms ({nodes / t / 1e6:.0f} Mnps)  ratio {sf_t / t:.2f}"
              f"  [whole process {wall[e, name] * 1000:.0f} ms]")
sf_total = sum(best["stockfish", n] for n, *_ in POSITIONS)
worst = None
for e in engines:
    total = sum(best[e, n] for n, *_ in POSITIONS)
    ratio = sf_total / total
    worst = ratio if worst is None else min(worst, ratio)
    print(f"total {e}: {total * 1000:.0f} ms vs stockfish {sf_total * 1000:.0f} ms: ratio {ratio:.2f}")
sys.exit(0 if worst >= 1.0 else 1)
PY
