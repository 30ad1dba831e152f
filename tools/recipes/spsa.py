#!/usr/bin/env python3
"""SPSA over the search parameters (src/search/params.h): the tuning build (make
spsa-engine) shows each row as a UCI spin option; every iteration plays a few game pairs
between the engine with all rows moved one way (theta + c_k * delta) and the other way
(theta - c_k * delta), delta a random +-1 per row, and moves theta towards the side that
scored more. docs/spsa.md says how it works and what its figures are.

  python3 tools/recipes/spsa.py --engine build/spsa/saavedra --out DIR [--iterations N]
      [--params NAME,NAME,...] [--option "NAME[=MIN:MAX]" ...] [--tc 5+0.05] [--pairs 2]
      [--concurrency 2] [--seed 1] [--openings FILE] [--hash 16]

--option tunes an engine spin option beside the rows (repeatable), such as "NNUE
Scale=70:140": the range, within the option's own, sets the steps as a row's does.

The state (theta and the counts) is DIR/state.json, rewritten after every iteration: the
same command resumes a stopped run where it stopped (its settings must match). DIR also
gets spsa.csv (one row an iteration), spsa.png (gnuplot, when installed), the games of
the last iteration (last.pgn) and the runner's output (runner.log). The match runner is
chosen as by the match recipes (MATCH_RUNNER: fastchess, cutechess-cli or the node match
tool; MATCH_OPENINGS the openings)."""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "measure"))
import learnstats  # noqa: E402
import matchrunner  # noqa: E402

STATE_VERSION = 1
PARAM_NAME = re.compile(r"^[A-Z][A-Z0-9_]+$")
OPTION_LINE = re.compile(r"^option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)\s*$")
OPTION_ARG = re.compile(r"^(.+?)(?:=(-?\d+):(-?\d+))?$")
# Spin options the driver sets itself for every game.
DRIVER_OPTIONS = ("Hash",)
# Fishtest's SPSA constants: the step sizes fall as k^-gamma, the learning rate as
# (A + k)^-alpha, A a tenth of the run.
ALPHA, GAMMA = 0.602, 0.101


def fail(message):
    sys.stderr.write("spsa: %s\n" % message)
    sys.exit(2)


def engine_spins(engine):
    """{name: (default, min, max)} of every spin option of the engine; fails unless some
    are search-parameter rows (the tuning build)."""
    try:
        out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        fail("cannot run %s: %s" % (engine, e))
    params = {}
    for line in out.splitlines():
        m = OPTION_LINE.match(line.strip())
        if m:
            params[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    if not any(PARAM_NAME.match(n) for n in params):
        fail("%s shows no search parameters: build the tuning engine with make spsa-engine" % engine)
    return params


def option_ranges(args, shown):
    """{name: (min, max)} of the --option arguments, each range within the option's own."""
    ranges = {}
    for arg in args.option:
        m = OPTION_ARG.match(arg.strip())
        name = m.group(1).strip() if m else ""
        if name not in shown or PARAM_NAME.match(name) or name in DRIVER_OPTIONS:
            fail("--option %s: not a spin option of this engine that the driver can tune" % arg)
        default, lo, hi = shown[name]
        if m.group(2) is not None:
            lo2, hi2 = int(m.group(2)), int(m.group(3))
            if not lo <= lo2 <= default <= hi2 <= hi or lo2 == hi2:
                fail("--option %s: the range must hold the default %d and lie within %d..%d" % (
                    arg, default, lo, hi))
            lo, hi = lo2, hi2
        ranges[name] = (lo, hi)
    return ranges


def new_state(args, shown):
    rows = [n for n in shown if PARAM_NAME.match(n)]
    names = rows if not args.params else [n.strip() for n in args.params.split(",") if n.strip()]
    unknown = [n for n in names if n not in rows]
    if unknown:
        fail("not a parameter of this engine: %s" % ", ".join(unknown))
    ranges = option_ranges(args, shown)
    params = {}
    for n in names + list(ranges):
        default, lo, hi = shown[n]
        lo, hi = ranges.get(n, (lo, hi))
        # The last step a twentieth of the range (at least 1: the engine takes integers),
        # a learning rate that moves a row by about one step per 500 decisive games.
        c_end = max((hi - lo) / 20.0, 1.0)
        params[n] = {"theta": float(default), "start": default, "min": lo, "max": hi,
                     "c_end": c_end, "r_end": 0.002}
    return {"version": STATE_VERSION, "iterations": args.iterations, "tc": args.tc, "pairs": args.pairs,
            "seed": args.seed, "params": params, "k": 0, "wins": 0, "losses": 0, "draws": 0}


def write_atomic(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_state(path):
    try:
        with open(path) as f:
            state = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: unreadable state (%s); move it away to start again" % (path, e))
    row_keys = ("theta", "start", "min", "max", "c_end", "r_end")
    ok = (isinstance(state, dict) and state.get("version") == STATE_VERSION and isinstance(state.get("params"), dict)
          and all(isinstance(state.get(k), int) for k in ("iterations", "pairs", "seed", "k", "wins", "losses", "draws"))
          and isinstance(state.get("tc"), str)
          and all(isinstance(p, dict) and all(isinstance(p.get(k), (int, float)) for k in row_keys)
                  for p in state["params"].values()))
    if not ok:
        fail("%s: not a state file of this version; move it away to start again" % path)
    return state


def steps(state, p, k):
    """(c_k, a_k) of row p at iteration k (1-based)."""
    n, big_a = state["iterations"], state["iterations"] / 10.0
    c = p["c_end"] * n ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** ALPHA
    return c / k ** GAMMA, a / (big_a + k) ** ALPHA


def clamp(v, p):
    return min(max(v, p["min"]), p["max"])


def engine_args(engine, name, values, hash_mb):
    return (["--engine", "cmd=" + engine, "name=" + name, "option.Hash=%d" % hash_mb, "option.OwnBook=false",
             "option.Learning=false"] + ["option.%s=%d" % (n, v) for n, v in values.items()])


def play(args, runner, state, k, plus, minus):
    """(wins, losses, draws) of plus against minus in 2 * pairs games."""
    kind, where = runner
    pgn = os.path.join(args.out, "last.pgn")
    if os.path.exists(pgn):
        os.unlink(pgn)
    node_args = (engine_args(args.engine, "plus", plus, args.hash) + engine_args(args.engine, "minus", minus, args.hash)
                 + ["--each", "tc=" + state["tc"], "--games", str(2 * state["pairs"]),
                    "--concurrency", str(args.concurrency), "--openings", args.openings, "--order", "random",
                    "--seed", str(state["seed"] * 1000003 + k), "--resign", "movecount=3", "score=1000",
                    "--draw", "movenumber=40", "movecount=8", "score=10", "--pgnout", pgn])
    argv, cwd = matchrunner.command(kind, where, node_args)
    with open(os.path.join(args.out, "runner.log"), "w") as log:
        code = subprocess.run(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT).returncode
    if code != 0:
        fail("the match runner (%s) failed (exit %d), see %s" % (kind, code, log.name))
    wins = losses = draws = 0
    for tags, _ in learnstats.read_pgn_games(pgn) if os.path.exists(pgn) else []:
        result = tags.get("Result")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == (tags.get("White") == "plus"):
            wins += 1
        else:
            losses += 1
    if wins + losses + draws != 2 * state["pairs"]:
        fail("iteration %d: %d results in %s, %d games were played" % (k, wins + losses + draws, pgn,
                                                                      2 * state["pairs"]))
    return wins, losses, draws


def csv_header(names):
    return "iteration,games,wins,losses,draws," + ",".join(names) + "\n"


def trim_csv(path, names, k):
    """The CSV with the header and the rows of iterations 1..k (a stopped run may have
    written one more row than its state holds)."""
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            lines = f.readlines()
        if lines and lines[0] == csv_header(names):
            rows = [ln for ln in lines[1:] if ln.split(",")[0].isdigit() and int(ln.split(",")[0]) <= k]
    write_atomic(path, csv_header(names) + "".join(rows))


def plot(out, names, state):
    """Each row's theta against the iterations, as a share of its range from its start."""
    if not shutil.which("gnuplot"):
        sys.stdout.write("spsa: gnuplot not installed, no plot\n")
        return
    csv, png = os.path.join(out, "spsa.csv"), os.path.join(out, "spsa.png")
    lines = []
    for i, n in enumerate(names):
        p = state["params"][n]
        lines.append("'%s' using 1:(($%d-%d)/%d.0) with lines title '%s'" % (
            csv, 6 + i, p["start"], p["max"] - p["min"], n.replace("_", "\\\\_")))
    script = ("set terminal png size 1200,700; set output '%s'; set datafile separator ','; "
              "set key outside right; set xlabel 'iteration'; set ylabel 'theta - start (share of range)'; "
              "plot %s" % (png, ", ".join(lines)))
    subprocess.run(["gnuplot", "-e", script], check=False)


def params_rows(state):
    """The rows in params.h's form, then each tuned option as the command that sets it."""
    return "\n".join("    X(%s, %d, %d, %d)" % (n, round(p["theta"]), p["min"], p["max"]) if PARAM_NAME.match(n)
                     else "setoption name %s value %d" % (n, round(p["theta"]))
                     for n, p in state["params"].items())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="the tuning build (make spsa-engine)")
    ap.add_argument("--out", required=True, help="folder of the state, CSV, plot and last games")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--params", default="", help="comma-separated rows to tune (default: all)")
    ap.add_argument("--option", action="append", default=[],
                    help='an engine spin option to tune too, "NAME" or "NAME=MIN:MAX" (repeatable)')
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--pairs", type=int, default=2, help="game pairs an iteration (default 2)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--openings", default=os.environ.get(
        "MATCH_OPENINGS", os.path.join(os.path.dirname(ROOT), "shared", "data", "openings", "8moves_v3.pgn")))
    args = ap.parse_args()
    if args.iterations < 1 or args.pairs < 1 or args.concurrency < 1:
        fail("--iterations, --pairs and --concurrency must be at least 1")
    if not os.path.isfile(args.openings):
        fail("no openings file %s: give --openings or MATCH_OPENINGS" % args.openings)
    args.engine = os.path.abspath(args.engine)
    args.openings = os.path.abspath(args.openings)
    os.makedirs(args.out, exist_ok=True)
    try:
        runner = matchrunner.find()
    except matchrunner.RunnerError as e:
        fail(str(e))
    if runner[0] == "saavedra-match" and not os.path.isdir(os.path.join(runner[1], "node_modules")):
        subprocess.run(["npm", "ci"], cwd=runner[1], check=True, stdout=subprocess.DEVNULL)

    shown = engine_spins(args.engine)
    state_path = os.path.join(args.out, "state.json")
    if os.path.exists(state_path):
        state = load_state(state_path)
        if args.option:
            ranges = option_ranges(args, shown)
            if any(n not in state["params"] or (state["params"][n]["min"], state["params"][n]["max"]) != r
                   for n, r in ranges.items()):
                fail("%s holds a run with other options: use its settings or another --out" % state_path)
        for key in ("iterations", "tc", "pairs", "seed"):
            if state[key] != getattr(args, key):
                fail("%s holds a run with %s %s, not %s: use its settings or another --out" % (
                    state_path, key, state[key], getattr(args, key)))
        missing = [n for n in state["params"] if n not in shown]
        if missing:
            fail("the engine lacks rows of the run: %s" % ", ".join(missing))
        sys.stdout.write("spsa: resuming at iteration %d of %d\n" % (state["k"] + 1, state["iterations"]))
    else:
        state = new_state(args, shown)
        write_atomic(state_path, json.dumps(state, indent=1))
    names = list(state["params"])
    csv_path = os.path.join(args.out, "spsa.csv")
    trim_csv(csv_path, names, state["k"])

    started, first_k = time.time(), state["k"]
    while state["k"] < state["iterations"]:
        k = state["k"] + 1
        rng = random.Random(state["seed"] * 7919 + k)  # the same deltas when resumed
        plus, minus, deltas, ks = {}, {}, {}, {}
        for n in names:
            p = state["params"][n]
            c_k, a_k = steps(state, p, k)
            deltas[n] = rng.choice((-1, 1))
            ks[n] = (c_k, a_k)
            plus[n] = int(round(clamp(p["theta"] + c_k * deltas[n], p)))
            minus[n] = int(round(clamp(p["theta"] - c_k * deltas[n], p)))
        wins, losses, draws = play(args, runner, state, k, plus, minus)
        result = wins - losses
        for n in names:
            p = state["params"][n]
            c_k, a_k = ks[n]
            p["theta"] = clamp(p["theta"] + a_k / c_k * result * deltas[n], p)
        state["k"] = k
        state["wins"] += wins
        state["losses"] += losses
        state["draws"] += draws
        write_atomic(state_path, json.dumps(state, indent=1))
        games = state["wins"] + state["losses"] + state["draws"]
        with open(csv_path, "a") as f:
            f.write("%d,%d,%d,%d,%d,%s\n" % (k, games, wins, losses, draws,
                                              ",".join("%.3f" % state["params"][n]["theta"] for n in names)))
        done = k - first_k
        eta = (time.time() - started) / done * (state["iterations"] - k)
        line = "iteration %d/%d, %d games (+%d -%d =%d), ETA %d min" % (
            k, state["iterations"], games, state["wins"], state["losses"], state["draws"], eta / 60)
        if sys.stdout.isatty():
            sys.stdout.write("\r" + line + "   ")
        elif k % 25 == 0 or k == state["iterations"]:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    sys.stdout.write("\n")
    plot(args.out, names, state)
    sys.stdout.write("spsa: %d iterations, %d games; the rows (theta rounded):\n%s\n" % (
        state["k"], state["wins"] + state["losses"] + state["draws"], params_rows(state)))


if __name__ == "__main__":
    main()
