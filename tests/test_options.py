#!/usr/bin/env python3
"""The engine's options as GUIs and engine.rc see them, against transcripts kept in
tests/data/options/ (recorded from the engine, so that a rework of the options keeps them):
the `uci` option lines in their order, xboard's feature options, the answers to setoption,
xboard's option, memory, cores and egtpath (errors, warnings, and the values kept after a
refusal), engine.rc keys and the -H/-c flags with their warnings; and the tuning build's
options, the same list with a spin option per row of src/search/params.h after NNUE Scale.

usage: python3 tests/test_options.py ENGINE   ($SAAVEDRA_SPSA_ENGINE: the tuning build)
       python3 tests/test_options.py ENGINE --record   writes the transcripts anew, for
       a change to the options that is meant
The last line is "N passed, N failed".
"""
import os
import re
import sys

import testkit
from testkit import check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
RECORD = "--record" in sys.argv[2:]
SPSA_ENGINE = os.environ.get("SAAVEDRA_SPSA_ENGINE", "")
DATA = os.path.join(testkit.ROOT, "tests", "data", "options")
TMP = testkit.temp_dir("options")
# Nothing of the user's configuration: only the engine.rc a test names.
ENV = dict(os.environ, XDG_CONFIG_HOME="/nonexistent-saavedra-test", HOME="/nonexistent-saavedra-test")

UCI_SCRIPT = """uci
setoption name hash value 64
setoption name Hash value 999999
setoption name Hash value 12x
setoption name Nonexistent value 3
setoption name Ponder value maybe
setoption name ponder
setoption name SMP MODE value ybwc
setoption name SMP Mode value ABDADA
setoption name UCI_Elo value 3000
setoption name UCI_Opponent value nonsense
setoption name UCI_Opponent value GM 2800 human Magnus Carlsen
setoption name EvalFile value /nonexistent/net.nnue
setoption name BookFile value /nonexistent/book.bin
setoption name SyzygyPath value /nonexistent/tables
setoption name Clear Hash
setoption name Threads value 0
setoption name Move Overhead value 0
setoption name Book Variety value -1
setoption name Learning value off
setoption name UCI_ShowWDL value on
setoption name Resign Moves value 65
uci
quit
"""

XBOARD_SCRIPT = """xboard
protover 2
option Hash=64
option Nonexistent=3
option Ponder=maybe
option SMP Mode=YBWC
option Clear Hash
option Contempt=500
option Contempt=-20
option =3
option Draw Offers=0
memory 32
memory abc
cores 2
cores 0
egtpath syzygy /nonexistent/tables
egtpath syzygy /nonexistent/tables
egtpath gaviota /nonexistent/tables
ping 1
protover 2
quit
"""

RC_FILE = """# keys are option names, loosely
hash = 32
move_overhead = 10
MOVE-OVERHEAD = 20
clear hash = 1
nonexistent = 5
threads = abc
smp mode = ybwc
uci_elo = 5000
learning = off
syzygyprobelimit = 9
book variety = 7
"""


def normalise(text):
    """The transcript without what differs between builds of the same options: the
    version, and whether a net is built in (the default of Use NNUE)."""
    lines = []
    for line in text.replace("\r", "").splitlines():
        if line.startswith("id name "):
            continue
        line = re.sub(r'myname="[^"]*"', 'myname="VERSION"', line)
        line = re.sub(r"^(option name Use NNUE type check default )(true|false)$", r"\1BUILD", line)
        line = re.sub(r'^(feature option="Use NNUE -check )[01]"$', r'\1BUILD"', line)
        lines.append(line.replace(TMP, "TMP"))
    return "\n".join(lines) + "\n"


def compare(name, text):
    path = os.path.join(DATA, name)
    got = normalise(text)
    if RECORD:
        os.makedirs(DATA, exist_ok=True)
        with open(path, "w") as f:
            f.write(got)
        return
    want = open(path).read()
    check(got == want, "%s: %s" % (name, first_difference(got.splitlines(), want.splitlines())))


def first_difference(got, want):
    at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return "line %d: want %r, got %r" % (at + 1, want[at] if at < len(want) else "(end)",
                                         got[at] if at < len(got) else "(end)")


def engine(args, stdin, exe=ENGINE):
    rc, out, err = testkit.run([exe, *args], stdin=stdin, timeout=120, env=ENV)
    check(rc == 0, "exit status %d: %s" % (rc, err[-400:]))
    return out, err


@test
def uci_lists_the_same_options_in_the_same_order():
    out, _ = engine(["-rc", "/dev/null"], "uci\nquit\n")
    compare("uci.txt", out)


@test
def xboard_lists_the_same_feature_options():
    out, _ = engine(["-rc", "/dev/null"], "xboard\nprotover 2\nquit\n")
    compare("xboard.txt", out)


@test
def setoption_answers_and_keeps_state_as_before():
    out, _ = engine(["-rc", "/dev/null"], UCI_SCRIPT)
    compare("setoption.txt", out)


@test
def xboard_option_commands_answer_as_before():
    out, _ = engine(["-rc", "/dev/null"], XBOARD_SCRIPT)
    compare("xboard-option.txt", out)


@test
def engine_rc_and_flags_apply_as_before():
    rc_path = os.path.join(TMP, "engine.rc")
    with open(rc_path, "w") as f:
        f.write(RC_FILE)
    out, err = engine(["-rc", rc_path, "-H", "48", "-c", "300"], "uci\nsetoption name Hash value 8\nuci\nquit\n")
    compare("engine-rc.txt", "stderr:\n%s\nstdout:\n%s" % (err, out))


@test
def tuning_build_adds_a_row_per_search_parameter_after_nnue_scale():
    if RECORD:
        return
    if not SPSA_ENGINE or not os.path.exists(SPSA_ENGINE):
        print("(no tuning build: $SAAVEDRA_SPSA_ENGINE, which make test builds, is not set)")
        return
    header = open(os.path.join(testkit.ROOT, "src", "search", "params.h")).read()
    rows = ["option name %s type spin default %s min %s max %s" % row
            for row in re.findall(r"X\((\w+), (-?\d+), (-?\d+), (-?\d+)\)", header)]
    check(len(rows) >= 30, "%d rows in params.h" % len(rows))
    want = open(os.path.join(DATA, "uci.txt")).read().splitlines()
    at = want.index("option name NNUE Scale type spin default 100 min 10 max 400") + 1
    want = want[:at] + rows + want[at:]
    out, _ = engine(["-rc", "/dev/null"], "uci\nquit\n", exe=SPSA_ENGINE)
    got = normalise(out).splitlines()
    check(got == want, "tuning build: %s" % first_difference(got, want))


testkit.finish()
