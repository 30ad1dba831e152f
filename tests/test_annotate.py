#!/usr/bin/env python3
"""saavedra annotate (src/commands/annotate*.c) from the command line.

usage: python3 tests/test_annotate.py ENGINE
Checks: a game that drops its queen gets ?? on that move, an eval comment on every move
and a better line; its tags come back byte for byte with an Annotator tag; a game the
reader cannot follow comes out exactly as it went in, with one line on stderr; -o may
name the input itself (written through a temporary file); a Chess960 game reads back;
--plot draws a PNG; bad arguments are refused with nothing written; Ctrl-C writes the
games finished annotated and the rest unchanged. Searches are depth or node limited.
The last line printed is "N passed, N failed".
"""
import os
import re
import signal
import subprocess
import sys
import time

import testkit
from testkit import ROOT, check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("annotate")
ENV = dict(os.environ, XDG_CONFIG_HOME="/nonexistent-saavedra-test", HOME="/nonexistent-saavedra-test")

BLUNDER = """[Event  "Club game"]
[Site "?"]
[White "Alpha"]
[Black "Beta"]
[Annotator "old"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Qg5 4. Nxg5 Nd4 5. Nxf7 1-0
"""

BROKEN = """[Event "Broken"]
[White "X"]
[Black "Y"]
[Result "*"]

1. e4 {a comment} e5 2. Ke3 Nf6 *

"""


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def annotate(args, timeout=300):
    return testkit.run([ENGINE, "annotate", *args], timeout=timeout, env=ENV)


@test
def queen_blunder_marked_with_a_better_line():
    path = write("blunder.pgn", BLUNDER + "\n" + BROKEN)
    rc, out, err = annotate([path, "-d", "7"])
    check(rc == 0, err)
    game, rest = out.split('[Event "Broken"]', 1)
    check(re.search(r"3\.\.\. Qg5\?\? \{\[%eval \d+\.\d\d\] Blunder", game), game)
    check(re.search(r"\} \(3\.\.\. [A-Z]?[a-h]?[1-8]?x?[a-h][1-8]", game), "no better line: %s" % game)
    check(len(re.findall(r"\[%eval -?\d+\.\d\d\]|\[%eval #-?\d+\]", game)) == 9, game)
    check("White: 5 moves" in game and "Black: 4 moves" in game and "blunders 1." in game, game)
    # Tags byte for byte (the odd spacing too), an old Annotator replaced.
    tags = [l for l in BLUNDER.splitlines() if l.startswith("[") and "Annotator" not in l]
    check(game.splitlines()[:len(tags)] == tags, game[:300])
    check('[Annotator "Saavedra ' in game and '"old"' not in game, game[:300])
    # The broken game comes out exactly as it went in, with one line on stderr.
    check('[Event "Broken"]' + rest == BROKEN, "broken game changed: %r" % rest)
    lines = [l for l in err.splitlines() if l.strip()]
    check(len(lines) == 1 and "game 2" in lines[0], err)


@test
def only_one_side_and_from_a_move():
    path = write("side.pgn", BLUNDER)
    rc, out, err = annotate([path, "-d", "5", "--side", "white", "--from", "3"])
    check(rc == 0, err)
    check("Black:" not in out and "White: 3 moves" in out, out)
    check(len(re.findall(r"\[%eval", out)) == 3, out)


@test
def output_may_be_the_input():
    path = write("inplace.pgn", BLUNDER)
    rc, out, err = annotate([path, "-n", "2000", "-o", path])
    check(rc == 0 and out == "", err)
    text = open(path).read()
    check("[%eval" in text and text.startswith('[Event  "Club game"]'), text[:200])
    check(not [n for n in os.listdir(TMP) if ".tmp" in n], "temporary file left: %s" % os.listdir(TMP))


@test
def chess960_game_reads_back():
    src = os.path.join(ROOT, "tests", "data", "pgn", "cutechess-fischerrandom.pgn")
    text = open(src).read()
    first = "[Event" + text.split("[Event")[1]
    path = write("960.pgn", first)
    out_path = os.path.join(TMP, "960-out.pgn")
    rc, out, err = annotate([path, "-n", "1500", "--from", "50", "-o", out_path])
    check(rc == 0, err)
    rc, out, err = testkit.run([ENGINE, "codec", out_path], env=ENV)
    check(rc == 0 and "games: 1 " in out and "roundtrip-errors: 0" in out, out + err)
    check('[Variant "fischerandom"]' in open(out_path).read(), "tags lost")


@test
def plot_draws_a_png():
    path = write("plot.pgn", BLUNDER)
    plots = os.path.join(TMP, "plots")
    os.mkdir(plots)
    rc, out, err = annotate([path, "-n", "1000", "--plot", plots])
    if not testkit.have("gnuplot", "the graph's PNG"):
        check(rc != 0 and "gnuplot not found" in err, err)
        return
    check(rc == 0, err)
    png = os.path.join(plots, "game-1.png")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", os.listdir(plots))
    check(os.listdir(plots) == ["game-1.png"], "files left: %s" % os.listdir(plots))


@test
def plot_folder_is_created():
    """A --plot folder that does not exist is made, as -o makes its file."""
    path = write("newdir.pgn", BLUNDER)
    plots = os.path.join(TMP, "new", "graphs") + "/"
    out_path = os.path.join(TMP, "newdir-out.pgn")
    rc, out, err = annotate([path, "-n", "1000", "-o", out_path, "--plot", plots])
    check(os.path.isdir(plots), "folder not created: %r" % err)
    check(os.path.exists(out_path), "games not written: %r" % err)
    if testkit.have("gnuplot", "the graph in the created folder"):
        check(rc == 0 and os.listdir(plots) == ["game-1.png"], "rc %d %r %s" % (rc, err, os.listdir(plots)))


@test
def plot_failures_say_why_and_fail():
    path = write("plotfail.pgn", BLUNDER + "\n" + BLUNDER)
    out_path = os.path.join(TMP, "plotfail-out.pgn")
    # The folder cannot be made (a file stands in the way): refused before any work.
    blocker = write("blocker", "")
    rc, out, err = annotate([path, "-n", "500", "-o", out_path, "--plot", os.path.join(blocker, "g")])
    check(rc != 0 and "cannot create folder" in err and len(err.splitlines()) == 1, "%d %r" % (rc, err))
    check(not os.path.exists(out_path), "output written after a refusal")
    # gnuplot missing: the games are written, the reason said once, the exit status 1.
    rc, out, err = testkit.run([ENGINE, "annotate", path, "-n", "500", "-o", out_path, "--plot",
                                os.path.join(TMP, "nogp")], env=testkit.env_without_path_programs(ENV))
    lines = err.splitlines()
    check(rc == 1 and sum("gnuplot not found" in l for l in lines) == 1, "%d %r" % (rc, err))
    check(lines[-1] == "error: annotate: 1 of 2 graphs not drawn (reasons above)", lines)
    check(open(out_path).read().count("[Annotator") == 2, "games not written")
    # gnuplot fails: its own complaint is shown, for each game.
    fake = os.path.join(TMP, "fakebin")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "gnuplot"), "w") as f:
        f.write("#!/bin/sh\n/bin/cat >/dev/null\necho 'unknown terminal type' >&2\nexit 1\n")
    os.chmod(os.path.join(fake, "gnuplot"), 0o755)
    rc, out, err = testkit.run([ENGINE, "annotate", path, "-n", "500", "-o", out_path, "--plot",
                                os.path.join(TMP, "fakegp")], env=dict(ENV, PATH=fake))
    check(rc == 1 and err.count("unknown terminal type") == 2 and "2 of 2 graphs not drawn" in err, "%d %r" % (rc, err))
    check(os.listdir(os.path.join(TMP, "fakegp")) == [], "files left: %s" % os.listdir(os.path.join(TMP, "fakegp")))
    # An output in a folder that does not exist: refused with the reason.
    rc, out, err = annotate([path, "-n", "500", "-o", os.path.join(TMP, "no", "such", "out.pgn")])
    check(rc != 0 and "cannot" in err and len(err.splitlines()) == 1, "%d %r" % (rc, err))


@test
def bad_arguments_refused():
    path = write("args.pgn", BLUNDER)
    out_path = os.path.join(TMP, "never.pgn")
    for args in (["-d", "0"], ["-t", "-1"], ["--side", "red"], ["--bogus", "1"], []):
        rc, out, err = annotate(([path] if args else []) + args + ["-o", out_path])
        check(rc != 0 and err.startswith("error: ") and len(err.splitlines()) == 1, "%s: %r" % (args, err))
    rc, out, err = annotate([os.path.join(TMP, "missing.pgn"), "-o", out_path])
    check(rc != 0 and "cannot open" in err, err)
    check(not os.path.exists(out_path), "output written after a refusal")


@test
def ctrl_c_writes_what_is_done():
    # -t is wall-clock time: game 1 (two positions) ends after about 1 s, game 2 (nine)
    # after about 5.5 s; the signal comes in between.
    short = '[Event  "game 1"]\n[Result "1-0"]\n\n1. e4 1-0\n'
    games = short + "\n" + "\n".join(BLUNDER.replace("Club game", "game %d" % i) for i in range(2, 4))
    path = write("long.pgn", games)
    out_path = os.path.join(TMP, "long-out.pgn")
    p = subprocess.Popen([ENGINE, "annotate", path, "-t", "0.5", "-o", out_path], env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    check(p.returncode == 0 and "stopped" in err, "status %d: %s" % (p.returncode, err))
    text = open(out_path).read()
    annotated = text.count('[Annotator "Saavedra')
    check(annotated == 1, "%d games annotated" % annotated)
    # The games not annotated are written as they were.
    tail = text.split('[Event  "game %d"]' % (annotated + 1), 1)[1]
    check(games.endswith(tail), "unfinished games changed")


testkit.finish()
