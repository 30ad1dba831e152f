#!/usr/bin/env python3
"""The `saavedra perft DEPTH [FEN]` subcommand: divide lines, the summary lines, and
one-line errors for bad input. Usage: test_perft_cli.py ENGINE; last line "N passed, N failed"."""
import re
import subprocess
import sys

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def run(engine, *args):
    return subprocess.run([engine, *args], capture_output=True, text=True, timeout=120)


def check_divide(engine, name, args, depth1_moves, total):
    r = run(engine, "perft", *args)
    lines = r.stdout.rstrip("\n").split("\n")
    moves = {}
    for line in lines:
        m = re.fullmatch(r"([a-h][1-8][a-h][1-8][nbrq]?): (\d+)", line)
        if m:
            moves[m.group(1)] = int(m.group(2))
    check(f"{name}: exit status 0", r.returncode == 0, r.stderr)
    check(f"{name}: one line per root move", len(moves) == depth1_moves, f"{len(moves)} != {depth1_moves}")
    check(f"{name}: divide counts sum to the total", sum(moves.values()) == total, str(sum(moves.values())))
    check(f"{name}: last line", lines[-1] == f"Nodes searched: {total}", repr(lines[-1]))
    check(f"{name}: time and speed before it",
          len(lines) >= 3 and re.fullmatch(r"Time: \d+ ms", lines[-3]) is not None
          and re.fullmatch(r"Nodes/second: \d+", lines[-2]) is not None, repr(lines[-3:]))


def check_error(engine, name, args):
    r = run(engine, "perft", *args)
    err = r.stderr.strip().split("\n")
    check(f"{name}: rejected with one line", r.returncode != 0 and len(err) == 1 and err[0] != "",
          f"status {r.returncode}, stderr {r.stderr!r}")
    check(f"{name}: nothing on stdout", "Nodes searched" not in r.stdout, r.stdout[-80:])


def main():
    engine = sys.argv[1]
    check_divide(engine, "start position depth 4", ["4"], 20, 197281)
    check_divide(engine, "Kiwipete depth 3 (FEN as words)", ["3", *KIWIPETE.split()], 48, 97862)
    check_divide(engine, "Kiwipete depth 3 (FEN as one argument)", ["3", KIWIPETE], 48, 97862)
    check_divide(engine, "ep pin position depth 2", ["2", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1"], 4, 68)
    check_divide(engine, "promotions depth 1", ["1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"], 24, 24)
    check_error(engine, "bad FEN", ["3", "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"])
    check_error(engine, "side not to move in check", ["3", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"])
    check_error(engine, "depth not a number", ["x"])
    check_error(engine, "negative depth", ["-2"])
    check_error(engine, "missing depth", [])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
