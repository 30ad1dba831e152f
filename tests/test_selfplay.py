#!/usr/bin/env python3
"""selfplay (tools/programs/selfplay.c): fixed-node self-play games for the tuner's data.

usage: python3 tests/test_selfplay.py ENGINE
selfplay and pgnselect are taken from $SAAVEDRA_TOOLS (make test sets it).
Checks: a few games from the opening file are written as PGN that pgnselect reads in
full (no skipped game), each with its FEN tag from the openings, a result matching the
reason in its closing comment; the same arguments give the same file with one thread or
two; another seed gives other games; bad arguments are refused.
The last line printed is "N passed, N failed".
"""
import os
import re

import testkit
from testkit import check, test

SELFPLAY = testkit.tool("selfplay")
PGNSELECT = testkit.tool("pgnselect")
TMP = testkit.temp_dir("selfplay")
OPENINGS = os.path.join(TMP, "openings.epd")


def selfplay(*args):
    rc, _, err = testkit.run([SELFPLAY, *args])
    return rc, err


with open(OPENINGS, "w") as f:
    f.write("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3\n"
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3\n"
            "# a comment\nnot a position\n"
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n")


@test
def games_parse_and_carry_their_results():
    out = os.path.join(TMP, "a.pgn")
    rc, err = selfplay("-o", out, "-games", "6", "-nodes", "400", "-c", "2", "-openings", OPENINGS)
    check(rc == 0, err)
    check("not a position" in err or ":4:" in err, "bad opening line not reported: %r" % err)
    text = open(out).read()
    games = text.split("[Event ")[1:]
    check(len(games) == 6, "%d games" % len(games))
    fens = {l.split(" 0 ")[0] for l in open(OPENINGS) if "/" in l}
    for g in games:
        fen = re.search(r'\[FEN "([^"]+)"\]', g).group(1)
        check(any(fen.startswith(f.rsplit(" ", 1)[0]) for f in fens), "FEN %s not from the openings" % fen)
        result = re.search(r'\[Result "([^"]+)"\]', g).group(1)
        reason = re.search(r"\{([^}]+)\} (\S+)\s*$", g.strip())
        check(reason and reason.group(2) == result, "result %s at the end: %r" % (result, g[-80:]))
        decisive = reason.group(1) in ("mate", "adjudicated win")
        check(decisive == (result != "1/2-1/2"), "%s with %s" % (result, reason.group(1)))
    _, sel_out, sel_err = testkit.run([PGNSELECT, "-min", "0", "-d", "1", "-s", "1", out])
    check("6 games (0 skipped, 0 without result)" in sel_err, sel_err)
    plies = sum(int(m) for m in re.findall(r'\[PlyCount "(\d+)"\]', text))
    check(len(sel_out.splitlines()) >= min(plies, 150 * 6) // 2, "only %d positions" % len(sel_out.splitlines()))


@test
def same_arguments_same_games():
    a, b, c = (os.path.join(TMP, n) for n in ("s1.pgn", "s2.pgn", "s3.pgn"))
    for path, threads, seed in ((a, "1", "5"), (b, "2", "5"), (c, "2", "6")):
        rc, err = selfplay("-o", path, "-games", "4", "-nodes", "300", "-c", threads, "--seed", seed,
                           "-openings", OPENINGS, "-random", "2")
        check(rc == 0, err)
    check(open(a).read() == open(b).read(), "one thread and two threads differ")
    check(open(a).read() != open(c).read(), "another seed, the same games")


@test
def bad_arguments():
    for args in (["-games", "3"], ["-o", os.path.join(TMP, "x.pgn"), "-nodes", "0"],
                 ["-o", os.path.join(TMP, "x.pgn"), "-c", "x"], ["-o", TMP],
                 ["-o", os.path.join(TMP, "x.pgn"), "-openings", "/nonexistent"]):
        rc, err = selfplay(*args)
        check(rc != 0 and err.strip(), "%s: rc %d" % (args, rc))


testkit.finish()
