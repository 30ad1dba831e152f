#!/usr/bin/env python3
"""The tuning build and the SPSA driver (tools/recipes/spsa.py, docs/spsa.md).

usage: python3 tests/test_spsa.py ENGINE   ($SAAVEDRA_SPSA_ENGINE: the tuning build, which
make test builds)
Checks: the tuning build searches exactly as the engine with its defaults and differently
with a row changed, refuses a value out of range and keeps its own; the normal engine
shows no rows and the driver says so. The driver against a made-up match (a stand-in
runner in which the side with the larger LMR_BASE wins) moves that row up and not a
row the games ignore beyond its noise; a run stopped by a failed match resumes where it
stopped and ends with one CSV row an iteration; a resumed run with other settings is
refused; an engine option named with --option (NNUE Scale) is tuned within the range given
and reaches the games, and an option the driver cannot tune is refused. The last line is
"N passed, N failed".
"""
import json
import os
import re
import sys

import testkit
from testkit import check, run, test

ENGINE = os.path.abspath(sys.argv[1])
SPSA_ENGINE = os.environ.get("SAAVEDRA_SPSA_ENGINE", "")
SCRIPT = os.path.join(testkit.ROOT, "tools", "recipes", "spsa.py")
TMP = testkit.temp_dir("spsa")
OPENINGS = os.path.join(TMP, "openings.pgn")
with open(OPENINGS, "w") as f:
    f.write('[Event "?"]\n\n1. e4 e5 *\n')

# A stand-in for fastchess: the games' results follow LMR_BASE alone (the larger wins, equal
# draw), one PGN game per game asked for; it fails when the call count reaches $FAIL_AT.
FAKE_RUNNER = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
engines, games, pgn = [], 0, None
i = 0
while i < len(args):
    if args[i] == "-engine":
        j = i + 1
        opts = {}
        while j < len(args) and not args[j].startswith("-"):
            key, _, value = args[j].partition("=")
            opts[key] = value
            j += 1
        engines.append(opts)
        i = j
        continue
    if args[i] == "-rounds":
        games = 2 * int(args[i + 1])
    if args[i] == "-pgnout":
        pgn = args[i + 1].split("=", 1)[1]
    i += 1
counter = os.environ["FAKE_COUNTER"]
calls = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
open(counter, "w").write(str(calls))
if str(calls) == os.environ.get("FAIL_AT"):
    sys.exit(3)
a, b = engines
with open(os.environ["FAKE_COUNTER"] + "-options", "a") as f:
    f.write("%s %s\n" % (a.get("option.NNUE Scale"), b.get("option.NNUE Scale")))
va, vb = int(a["option.LMR_BASE"]), int(b["option.LMR_BASE"])
with open(pgn, "w") as f:
    for g in range(games):
        white, black = (a, b) if g % 2 == 0 else (b, a)
        vw, vb2 = (va, vb) if g % 2 == 0 else (vb, va)
        result = "1-0" if vw > vb2 else "0-1" if vw < vb2 else "1/2-1/2"
        f.write('[Event "?"]\n[Round "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "%s"]\n\n1. e4 %s\n\n'
                % (g + 1, white["name"], black["name"], result, result))
print("Finished game %d" % games)
'''
# A stand-in tuning engine: two rows, nothing else.
FAKE_ENGINE = r'''#!/usr/bin/env python3
import sys
for line in sys.stdin:
    if line.strip() == "uci":
        print("id name fake")
        print("option name Hash type spin default 16 min 1 max 1024")
        print("option name LMR_BASE type spin default 70 min 0 max 150")
        print("option name RFP_PER_DEPTH type spin default 85 min 40 max 200")
        print("option name NNUE Scale type spin default 100 min 10 max 400")
        print("uciok", flush=True)
    elif line.strip() == "quit":
        break
'''


def write_exe(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


BIN = os.path.join(TMP, "bin")
os.makedirs(BIN)
os.symlink(write_exe("fake-runner.py", FAKE_RUNNER), os.path.join(BIN, "fastchess"))
FAKE = write_exe("fake-engine.py", FAKE_ENGINE)


def spsa(out, *extra, fail_at=None, engine=FAKE):
    env = dict(os.environ, PATH=BIN + ":/usr/bin:/bin", MATCH_RUNNER="fastchess",
               FAKE_COUNTER=os.path.join(out + "-calls"))
    env.pop("FAIL_AT", None)
    if fail_at:
        env["FAIL_AT"] = str(fail_at)
    return run([sys.executable, SCRIPT, "--engine", engine, "--out", out, "--openings", OPENINGS] + list(extra),
               env=env, timeout=600)


def bench(engine, setoptions=()):
    script = "".join("setoption name %s value %s\n" % kv for kv in setoptions) + "bench 7\nquit\n"
    rc, out, err = run([engine], stdin="uci\n" + script, timeout=300)
    m = re.search(r"^(\d+) nodes", out + err, re.M)
    return (int(m.group(1)) if m else None), out + err


@test
def tuning_build_searches_as_the_engine_and_follows_its_rows():
    check(SPSA_ENGINE and os.path.isfile(SPSA_ENGINE), "no tuning build: SAAVEDRA_SPSA_ENGINE=%r" % SPSA_ENGINE)
    plain, out = bench(ENGINE)
    check(plain, out)
    tuned, out = bench(SPSA_ENGINE)
    check(tuned == plain, "tuning build %s nodes, engine %s" % (tuned, plain))
    changed, out = bench(SPSA_ENGINE, [("LMR_DIVISOR", "300"), ("LMR_BASE", "20")])
    check(changed and changed != plain, "LMR rows changed, bench still %s" % changed)
    # Out of range: refused with a message, the row keeps its value (the same search).
    kept, out = bench(SPSA_ENGINE, [("LMR_BASE", "5000")])
    check("LMR_BASE" in out and "range" in out, out[-400:])
    check(kept == plain, "after a refused value: %s nodes, not %s" % (kept, plain))


@test
def tuning_build_refuses_a_row_change_during_a_search():
    script = ("uci\nisready\ngo infinite\nsetoption name LMR_BASE value 20\nstop\nisready\n"
              "setoption name LMR_BASE value 5000\nquit\n")
    rc, out, _ = run([SPSA_ENGINE], stdin=script, timeout=60)
    check("cannot change during a search" in out and "bestmove" in out, out[-600:])


@test
def tuning_build_lists_every_row_with_its_range():
    rc, out, _ = run([SPSA_ENGINE], stdin="uci\nquit\n", timeout=60)
    rows = re.findall(r"^option name ([A-Z][A-Z0-9_]+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$", out, re.M)
    check(len(rows) >= 30, "%d rows" % len(rows))
    header = open(os.path.join(testkit.ROOT, "src", "search", "params.h")).read()
    table = re.findall(r"X\((\w+), (-?\d+), (-?\d+), (-?\d+)\)", header)
    check(sorted(rows) == sorted(table), "options %s\nparams.h %s" % (rows, table))
    for name, value, lo, hi in rows:
        check(int(lo) <= int(value) <= int(hi), "%s %s outside %s..%s" % (name, value, lo, hi))


@test
def normal_engine_has_no_rows_and_the_driver_says_so():
    out_dir = os.path.join(TMP, "normal")
    rc, out, err = spsa(out_dir, "--iterations", "2", engine=ENGINE)
    check(rc == 2 and "make spsa-engine" in err, (rc, out, err))


@test
def driver_moves_the_row_that_wins_games():
    out_dir = os.path.join(TMP, "climb")
    rc, out, err = spsa(out_dir, "--iterations", "150", "--pairs", "1", "--seed", "5")
    check(rc == 0, (rc, out[-500:], err[-500:]))
    state = json.load(open(os.path.join(out_dir, "state.json")))
    lmr, rfp = state["params"]["LMR_BASE"], state["params"]["RFP_PER_DEPTH"]
    check(state["k"] == 150, state["k"])
    check(state["wins"] + state["losses"] + state["draws"] == 300, state)
    # Every iteration is decisive for LMR_BASE's side: it climbs about 0.015 * 2 * its
    # step sum; RFP_PER_DEPTH only random-walks on the same results.
    check(lmr["theta"] > 70 + 5, "LMR_BASE %.2f did not move up" % lmr["theta"])
    check(abs(rfp["theta"] - 85) < lmr["theta"] - 70, "RFP_PER_DEPTH %.2f moved as much" % rfp["theta"])
    rows = open(os.path.join(out_dir, "spsa.csv")).read().splitlines()
    check(rows[0].startswith("iteration,games,wins,losses,draws,") and len(rows) == 151, rows[:2])
    check("X(LMR_BASE, %d, 0, 150)" % round(lmr["theta"]) in out, out[-300:])


@test
def stopped_run_resumes_where_it_stopped():
    out_dir = os.path.join(TMP, "resume")
    rc, out, err = spsa(out_dir, "--iterations", "30", "--pairs", "1", fail_at=12)
    check(rc == 2 and "failed" in err, (rc, err))
    state = json.load(open(os.path.join(out_dir, "state.json")))
    check(state["k"] == 11, "state after the failed 12th match: k=%s" % state["k"])
    # A stray row past the state (a run killed between the two writes) is dropped.
    with open(os.path.join(out_dir, "spsa.csv"), "a") as f:
        f.write("12,24,1,1,0,1,1\n")
    rc, out, err = spsa(out_dir, "--iterations", "30", "--pairs", "1")
    check(rc == 0 and "resuming at iteration 12" in out, (rc, out[-300:], err[-300:]))
    rows = open(os.path.join(out_dir, "spsa.csv")).read().splitlines()[1:]
    check([int(r.split(",")[0]) for r in rows] == list(range(1, 31)), rows)
    # The same run from scratch takes the same steps: resuming changed nothing.
    fresh = os.path.join(TMP, "fresh")
    rc, out, err = spsa(fresh, "--iterations", "30", "--pairs", "1")
    check(rc == 0, err)
    a = json.load(open(os.path.join(out_dir, "state.json")))["params"]
    b = json.load(open(os.path.join(fresh, "state.json")))["params"]
    check(a == b, "resumed %s, fresh %s" % (a, b))


@test
def resume_with_other_settings_is_refused():
    out_dir = os.path.join(TMP, "resume")
    rc, out, err = spsa(out_dir, "--iterations", "30", "--pairs", "2")
    check(rc == 2 and "pairs" in err, (rc, err))
    with open(os.path.join(out_dir, "state.json"), "w") as f:
        f.write("{not json")
    rc, out, err = spsa(out_dir, "--iterations", "30", "--pairs", "1")
    check(rc == 2 and "unreadable state" in err, (rc, err))
    with open(os.path.join(out_dir, "state.json"), "w") as f:
        json.dump({"version": 1, "params": {"LMR_BASE": {"theta": "high"}}}, f)
    rc, out, err = spsa(out_dir, "--iterations", "30", "--pairs", "1")
    check(rc == 2 and "not a state file" in err and "Traceback" not in err, (rc, err))


@test
def option_is_tuned_within_its_range():
    out_dir = os.path.join(TMP, "option")
    rc, out, err = spsa(out_dir, "--iterations", "40", "--pairs", "1", "--params", "LMR_BASE",
                        "--option", "NNUE Scale=70:140")
    check(rc == 0, (rc, out[-500:], err[-500:]))
    state = json.load(open(os.path.join(out_dir, "state.json")))
    scale = state["params"].get("NNUE Scale")
    check(scale is not None and list(state["params"]) == ["LMR_BASE", "NNUE Scale"], state["params"])
    check(scale["min"] == 70 and scale["max"] == 140 and scale["start"] == 100, scale)
    check(scale["c_end"] == 3.5, scale)  # a twentieth of the range given, not of 10..400
    # Every game had both sides' values, a step apart around theta and within the range.
    seen = [line.split() for line in open(out_dir + "-calls-options").read().splitlines()]
    check(len(seen) == 40 and all(p != "None" and m != "None" for p, m in seen), seen[:3])
    check(all(70 <= int(v) <= 140 for pair in seen for v in pair), seen)
    check(all(abs(int(p) - int(m)) >= 2 for p, m in seen), seen)
    check("setoption name NNUE Scale value %d" % round(scale["theta"]) in out, out[-300:])
    rows = open(os.path.join(out_dir, "spsa.csv")).read().splitlines()
    check(rows[0] == "iteration,games,wins,losses,draws,LMR_BASE,NNUE Scale" and len(rows) == 41, rows[:2])
    # Resumed with another range: refused.
    rc, out, err = spsa(out_dir, "--iterations", "40", "--pairs", "1", "--params", "LMR_BASE",
                        "--option", "NNUE Scale=60:140")
    check(rc == 2 and "other options" in err, (rc, err))


@test
def options_the_driver_cannot_tune_are_refused():
    for arg in ("No Such Option", "Hash", "LMR_BASE", "NNUE Scale=5:140", "NNUE Scale=110:140",
                "NNUE Scale=100:100"):
        rc, out, err = spsa(os.path.join(TMP, "badopt"), "--iterations", "2", "--option", arg)
        check(rc == 2 and "--option" in err and "Traceback" not in err, (arg, rc, err))
        check(not os.path.exists(os.path.join(TMP, "badopt", "state.json")), arg)


@test
def unknown_rows_are_refused():
    rc, out, err = spsa(os.path.join(TMP, "unknown"), "--params", "LMR_BASE,NO_SUCH_ROW")
    check(rc == 2 and "NO_SUCH_ROW" in err, (rc, err))


testkit.finish()
