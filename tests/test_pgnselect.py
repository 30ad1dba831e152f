#!/usr/bin/env python3
"""pgnselect (tools/programs/pgnselect.c): sampled EPD positions with the games' results.

usage: python3 tests/test_pgnselect.py ENGINE
pgnselect is taken from $SAAVEDRA_TOOLS (make test sets it to build/<ARCH>/tools).
Checks: every line parses (four FEN fields, c2 of the game's result); sampling every
ply reproduces each game's positions (checked against a hand-played game and the
engine's own FEN output); sampled plies lie within -min/-max with gaps within -d/-s;
-r positions are one legal move (from the engine's move list) after the game position;
the same --seed gives the same output and another seed another; unfinished games give
nothing and a broken game is skipped with a message while the others are kept; -o
writes through a temporary file. The last line printed is "N passed, N failed".
"""
import os
import re
import sys
import tempfile

import testkit
from testkit import ROOT, check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
PGNSELECT = testkit.tool("pgnselect")
GAMES = os.path.join(ROOT, "tests", "data", "pgn", "Nakamura.pgn")
TMP = testkit.temp_dir("pgnselect")

SMALL_PGN = """[Event "scholar"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "broken"]
[Result "0-1"]

1. e4 e5 2. Ke3 Nc6 0-1

[Event "unfinished"]
[Result "*"]

1. d4 d5 2. c4 *

[Event "black wins"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "draw"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2
"""
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
BEFORE_MATE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -"
LINE = re.compile(r'^(\S+ [wb] \S+ \S+)(?: id "(\d+):(\d+)";)? c2 "(1\.0|0\.5|0\.0)";$')


def select(args, stdin=None):
    return testkit.run([PGNSELECT, *args], stdin=stdin)


def parse(out):
    rows = []
    for line in out.splitlines():
        m = LINE.match(line)
        check(m, "unparsable line %r" % line)
        rows.append((m.group(1), int(m.group(2)) if m.group(2) else None,
                     int(m.group(3)) if m.group(3) else None, m.group(4)))
    return rows


def every_ply(path):
    rc, out, err = select(["-min", "0", "-max", "100000", "-d", "1", "-s", "1", "--id", path])
    check(rc == 0, "pgnselect failed: %s" % err)
    return {(g, p): (fen, res) for fen, g, p, res in parse(out)}


def engine(commands):
    # No `quit`: it would end a `go perft` at once; end of input lets a perft finish.
    return testkit.run([ENGINE], stdin="\n".join(commands) + "\n", timeout=120)[1]


@test
def small_games_every_ply():
    rc, out, err = select(["-min", "0", "-max", "1000", "-d", "1", "-s", "1", "--id"], stdin=SMALL_PGN)
    check(rc == 0, "exit %d: %s" % (rc, err))
    rows = parse(out)
    by_game = {}
    for fen, g, p, res in rows:
        by_game.setdefault(g, []).append((p, fen, res))
    check(sorted(by_game) == [1, 4, 5], "games %s (2 is broken, 3 unfinished)" % sorted(by_game))
    check([p for p, _, _ in by_game[1]] == list(range(7)), "scholar plies %s" % by_game[1])
    check(by_game[1][0][1] == START and by_game[1][6][1] == BEFORE_MATE, "scholar positions %s" % by_game[1])
    check({r for _, _, r in by_game[1]} == {"1.0"}, "scholar results")
    check([p for p, _, _ in by_game[4]] == list(range(4)) and {r for _, _, r in by_game[4]} == {"0.0"},
          "fool's mate %s" % by_game[4])
    check(len(by_game[5]) == 8 and {r for _, _, r in by_game[5]} == {"0.5"}, "draw %s" % by_game[5])
    check("game 2" in err or "Ke3" in err, "no message about the broken game: %r" % err)
    check("5 games (1 skipped, 1 without result), 19 positions" in err, "summary %r" % err)


@test
def positions_match_the_engine():
    table = every_ply(GAMES)
    # Replay game 3's first moves with the engine and compare FENs ply by ply.
    keys = sorted(k for k in table if k[0] == 3)[:12]
    check(len(keys) == 12, "game 3 too short")
    for (g, p) in keys[1:]:
        before = table[(g, p - 1)][0]
        out = engine(["position fen %s 0 1" % before, "go perft 1"])
        moves = re.findall(r"^([a-h][1-8][a-h][1-8][qrbn]?): 1$", out, re.M)
        fens = set()
        out = engine(sum([["position fen %s 0 1 moves %s" % (before, m), "d"] for m in moves], []))
        for f in re.findall(r"^FEN: (.*)$", out, re.M):
            fens.add(" ".join(f.split()[:4]))
        check(table[(g, p)][0] in fens, "ply %d of game %d does not follow ply %d" % (p, g, p - 1))


@test
def sampling_respects_ply_options():
    table = every_ply(GAMES)
    rc, out, err = select(["-min", "10", "-max", "40", "-d", "3", "-s", "7", "--id", "--seed", "9", GAMES])
    check(rc == 0, err)
    rows = parse(out)
    check(len(rows) > 1000, "only %d positions" % len(rows))
    last = {}
    for fen, g, p, res in rows:
        check(10 <= p <= 40, "ply %d outside 10..40" % p)
        check(table[(g, p)] == (fen, res), "game %d ply %d: %s %s is not the game's" % (g, p, fen, res))
        if g in last:
            check(3 <= p - last[g] <= 7, "gap %d in game %d" % (p - last[g], g))
        else:
            check(p <= 10 + 7 - 3, "first sample of game %d at ply %d" % (g, p))
        last[g] = p
    results_seen = {r for _, _, _, r in rows}
    check(results_seen == {"1.0", "0.5", "0.0"}, "results %s" % results_seen)


@test
def random_move_positions_are_one_legal_move_on():
    table = every_ply(GAMES)
    rc, out, err = select(["-r", "--id", "--seed", "3", GAMES])
    check(rc == 0, err)
    rows = parse(out)
    check(len(rows) > 1000, "only %d positions" % len(rows))
    changed = 0
    for fen, g, p, res in rows[::len(rows) // 15]:
        base, base_res = table[(g, p)]
        check(res == base_res, "result of game %d changed" % g)
        out = engine(["position fen %s 0 1" % base, "go perft 1"])
        moves = re.findall(r"^([a-h][1-8][a-h][1-8][qrbn]?): 1$", out, re.M)
        out = engine(sum([["position fen %s 0 1 moves %s" % (base, m), "d"] for m in moves], []))
        fens = {" ".join(f.split()[:4]) for f in re.findall(r"^FEN: (.*)$", out, re.M)}
        check(fen in fens, "%s is not one move after %s" % (fen, base))
        changed += fen != base
    check(changed > 10, "random moves changed only %d positions" % changed)


@test
def seed_determines_output():
    a = select(["-r", "--seed", "42", GAMES])[1]
    b = select(["-r", "--seed", "42", GAMES])[1]
    c = select(["-r", "--seed", "43", GAMES])[1]
    check(a == b and a, "same seed, different output")
    check(a != c, "different seeds, same output")


TRAINING_PGN = """[Event "lost on time a queen up"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Qg5 4. Nxg5 Nd4 0-1

[Event "won a queen up"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Qg5 4. Nxg5 Nd4 1-0

[Event "drawn a queen up"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Qg5 4. Nxg5 Nd4 1/2-1/2

[Event "mated"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "level draw"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1/2-1/2
"""


@test
def training_filter_keeps_games_whose_result_fits():
    # A game lost on time (or drawn) a queen up teaches the wrong label: --agree drops it;
    # --min-plies drops short games.
    path = os.path.join(TMP, "training.pgn")
    with open(path, "w") as f:
        f.write(TRAINING_PGN)
    base = ["-min", "0", "-d", "1", "-s", "1", "--id"]
    rc, out, err = select(base + [path])
    check(rc == 0, err)
    check({g for _, g, _, _ in parse(out)} == {1, 2, 3, 4, 5}, "without the filter: %s" % out[:200])
    rc, out, err = select(base + ["--agree", "300", "--agree-nodes", "3000", path])
    check(rc == 0, err)
    kept = {g for _, g, _, _ in parse(out)}
    check(kept == {2, 4, 5}, "kept games %s" % sorted(kept))
    check("2 disagreeing" in err, err)
    rc, out, err = select(base + ["--min-plies", "8", path])
    check(rc == 0, err)
    kept = {g for _, g, _, _ in parse(out)}
    check(kept == {1, 2, 3, 5}, "kept games %s" % sorted(kept))
    check("1 short" in err, err)
    rc, out, err = select(base + ["--agree-nodes", "0", "--agree", "100", path])
    check(rc == 2 and "agree-nodes" in err, err)


@test
def output_file_and_bad_arguments():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.epd")
        rc, out, err = select(["-o", path, "--seed", "4", GAMES])
        check(rc == 0 and out == "", "rc %d out %r" % (rc, out[:80]))
        with open(path) as f:
            check(f.read() == select(["--seed", "4", GAMES])[1], "-o differs from standard output")
        check(os.listdir(d) == ["out.epd"], "left behind %s" % os.listdir(d))
        rc, _, err = select(["-o", d, GAMES])
        check(rc != 0 and "not a regular file" in err, "directory as output: %d %r" % (rc, err))
    for args in (["-d", "0"], ["-d", "5", "-s", "4"], ["-min", "x"], ["--bogus"]):
        rc, _, err = select(args + [GAMES])
        check(rc == 2 and err.strip(), "%s accepted" % args)
    rc, _, err = select(["/nonexistent/file.pgn"])
    check(rc == 1 and "file.pgn" in err, "missing file: %d %r" % (rc, err))


testkit.finish()
