#!/usr/bin/env python3
"""The match recipes' runner choice (tools/recipes/match-common.sh) and the reading of each
runner's results (tools/measure/matchlog.py), without playing a game: a fake runner
(tests/fake-match-runner) records its arguments and prints a runner's recorded output
(tests/data/match/).

usage: python3 tests/test_match_recipes.py ENGINE   (the engine is not used)
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
"""
import importlib.util
import os
import subprocess

import testkit
from testkit import ROOT, check, test

TMP = testkit.temp_dir("match-recipes")
DATA = os.path.join(ROOT, "tests", "data", "match")
FAKE = os.path.join(ROOT, "tests", "fake-match-runner")
COMMON = os.path.join(ROOT, "tools", "recipes", "match-common.sh")
spec = importlib.util.spec_from_file_location("matchlog", os.path.join(ROOT, "tools", "measure", "matchlog.py"))
matchlog = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matchlog)
spec = importlib.util.spec_from_file_location("matchrunner", os.path.join(ROOT, "tools", "measure", "matchrunner.py"))
matchrunner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matchrunner)
OPENINGS = os.path.join(TMP, "openings.pgn")
with open(OPENINGS, "w") as f:
    f.write('[Event "?"]\n\n1. e4 e5 *\n')


def runner_named(name):
    """The fake runner under a runner's name, in a folder of its own."""
    d = os.path.join(TMP, "bin-" + name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    if not os.path.exists(path):
        os.symlink(FAKE, path)
    return d, path


def recipe(env_extra, sample="fastchess.log", status=0):
    """Runs play_match as the recipes do; returns (exit status, output, the runner's args)."""
    out = os.path.join(TMP, "out")
    os.makedirs(out, exist_ok=True)
    args_file = os.path.join(TMP, "args")
    if os.path.exists(args_file):
        os.remove(args_file)
    env = dict(os.environ, FAKE_RUNNER_ARGS=args_file, FAKE_RUNNER_OUTPUT=os.path.join(DATA, sample),
               FAKE_RUNNER_STATUS=str(status), MATCH_OPENINGS=OPENINGS, SAAVEDRA_MATCH="/nonexistent",
               PATH="/usr/bin:/bin")
    env.pop("MATCH_RUNNER", None)
    env.update(env_extra)
    script = ('set -euo pipefail; DEFAULT_TC=1+0.01 DEFAULT_GAMES=4; source "%s"; '
              'play_match "%s" --engine cmd=/e/one name=one option.Hash=16 "option.Use NNUE=true" '
              '--engine cmd=/e/two name=two option.Hash=16' % (COMMON, out))
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, env=env)
    got = open(args_file).read().splitlines() if os.path.exists(args_file) else None
    return p.returncode, p.stdout + p.stderr, got


def after(args, flag, count):
    i = args.index(flag)
    return args[i + 1:i + 1 + count]


@test
def fastchess_by_name_in_path_and_by_path():
    d, path = runner_named("fastchess")
    for env in ({"PATH": d + ":/usr/bin:/bin"}, {"MATCH_RUNNER": "fastchess", "PATH": d + ":/usr/bin:/bin"},
                {"MATCH_RUNNER": path}):
        rc, out, args = recipe(env)
        check(rc == 0 and args, "%s: %d %s" % (env, rc, out))
        check(args[:5] == ["-engine", "cmd=/e/one", "name=one", "option.Hash=16", "option.Use NNUE=true"],
              args[:5])
        check(after(args, "-sprt", 4) == ["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"], args)
        check(after(args, "-openings", 3) == ["file=" + OPENINGS, "format=pgn", "order=random"], args)
        check(after(args, "-rounds", 1) == ["2"] and "-repeat" in args and after(args, "-each", 1) == ["tc=1+0.01"],
              args)
        check(after(args, "-pgnout", 1) == ["file=" + os.path.join(TMP, "out", "games.pgn")], args)
        check("result: 2 games: +1 -0 =1, Elo +190.8" in out and "no decision yet" in out, out)


@test
def cutechess_gets_its_own_syntax():
    d, path = runner_named("cutechess-cli")
    rc, out, args = recipe({"MATCH_RUNNER": "cutechess", "PATH": d + ":/usr/bin:/bin"}, "cutechess.log")
    check(rc == 0 and args, "%d %s" % (rc, out))
    check(args[:3] == ["-engine", "proto=uci", "cmd=/e/one"], args[:3])
    check(args.count("proto=uci") == 2, args)
    check(after(args, "-pgnout", 1) == [os.path.join(TMP, "out", "games.pgn")], args)
    check("result: 2 games: +1 -1 =0" in out, out)


@test
def clear_messages_when_nothing_is_found():
    rc, out, args = recipe({})
    check(rc == 2 and "no match runner found" in out and "fastchess" in out and args is None, "%d %s" % (rc, out))
    rc, out, args = recipe({"MATCH_RUNNER": "fastchess"})
    check(rc == 2 and "fastchess is not in PATH" in out, "%d %s" % (rc, out))
    rc, out, args = recipe({"MATCH_RUNNER": "/nonexistent/fastchess"})
    check(rc == 2 and "no such program" in out, "%d %s" % (rc, out))
    rc, out, args = recipe({"MATCH_RUNNER": "saavedra-match"})
    check(rc == 2 and "no match.mjs" in out, "%d %s" % (rc, out))
    d, path = runner_named("fastchess")
    rc, out, args = recipe({"MATCH_RUNNER": path, "MATCH_OPENINGS": "/nonexistent/o.pgn"})
    check(rc == 2 and "MATCH_OPENINGS" in out and args is None, "%d %s" % (rc, out))
    rc, out, args = recipe({"MATCH_RUNNER": path}, status=3)
    check(rc == 2 and "failed (exit 3)" in out, "%d %s" % (rc, out))


@test
def results_of_each_runner_are_read():
    def parsed(name):
        with open(os.path.join(DATA, name)) as f:
            return matchlog.parse(f.read())
    fast = parsed("fastchess.log")
    check(fast["games"] == 2 and (fast["wins"], fast["losses"], fast["draws"]) == (1, 0, 1), fast)
    check(fast["elo"] == 190.85 and fast["llr"] == 0.03 and fast["verdict"] == "continue", fast)
    check(fast["ptnml"] == [0, 0, 0, 1, 0] and (fast["lower"], fast["upper"]) == (-2.94, 2.94), fast)
    cute = parsed("cutechess.log")
    check(cute["games"] == 2 and (cute["wins"], cute["losses"], cute["draws"]) == (1, 1, 0), cute)
    check(cute["elo"] == 0 and cute["llr"] == 0 and cute["verdict"] == "continue" and "ptnml" not in cute, cute)
    node = parsed("saavedra-match.log")
    check(node["games"] == 2 and (node["wins"], node["losses"], node["draws"]) == (0, 2, 0), node)
    check(node["ptnml"] == [1, 0, 0, 0, 0] and node["lower"] == -2.94 and node["upper"] == 2.94, node)
    # A decided SPRT in either form.
    check(matchlog.parse("LLR: 2.97 (100.9%) (-2.94, 2.94) [0.00, 10.00]\n")["verdict"] == "H1", "fastchess H1")
    check(matchlog.parse("SPRT: llr -2.95 (-100.3%), lbound -2.94, ubound 2.94 - H0 was accepted\n")["verdict"]
          == "H0", "cutechess H0")
    rc, out, err = testkit.run(["python3", os.path.join(ROOT, "tools", "measure", "matchlog.py"),
                                os.path.join(TMP, "openings.pgn")])
    check(rc == 2 and "no match result" in err, err)


@test
def learning_bench_commands_translate_for_each_runner():
    """learning-bench.py writes the node tool's words; fastchess and cutechess-cli get theirs."""
    args = ["--engine", "cmd=/e/s", "name=saavedra", "option.Replay Without Book=true",
            "--engine", "cmd=/usr/bin/polyglot", "arg=x.ini", "proto=xboard", "name=opp", "tc=10+0.1",
            "--each", "tc=5+0.05", "--concurrency", "1", "--resign", "movecount=3", "score=1000",
            "--openings", "/o/lines.pgn", "--order", "sequential", "--games", "50", "--pgnout", "/a/g.pgn",
            "--log", "/a/p.log", "--ratinginterval", "50"]
    cmd, cwd = matchrunner.command("fastchess", "/bin/fastchess", args)
    check(cwd is None and cmd[0] == "/bin/fastchess", cmd)
    check(cmd[1:5] == ["-engine", "cmd=/e/s", "name=saavedra", "option.Replay Without Book=true"], cmd)
    check(after(cmd, "-openings", 3) == ["file=/o/lines.pgn", "format=pgn", "order=sequential"], cmd)
    check(after(cmd, "-games", 4) == ["2", "-rounds", "25", "-repeat"], cmd)
    check(after(cmd, "-pgnout", 1) == ["file=/a/g.pgn"] and after(cmd, "-log", 1) == ["file=/a/p.log"], cmd)
    check(after(cmd, "-resign", 2) == ["movecount=3", "score=1000"] and "--each" not in cmd, cmd)
    cmd, _ = matchrunner.command("cutechess", "/bin/cutechess-cli", args)
    check(cmd[1:3] == ["-engine", "proto=uci"] and "proto=xboard" in cmd and cmd.count("proto=uci") == 1, cmd)
    check("-debug" in cmd and "-log" not in cmd and after(cmd, "-pgnout", 1) == ["/a/g.pgn"], cmd)
    check(matchrunner.debug_line("cutechess", "1234 <saavedra(0): info string learned positions hit 3 times"),
          "debug line not recognised")
    cmd, cwd = matchrunner.command("saavedra-match", "/m", args)
    check(cmd == ["node", "match.mjs"] + args and cwd == "/m", cmd)
    check(matchrunner.games_done("Score of a vs b: 0 - 2 - 0 [0.000] 2") == 2, "cutechess progress")
    check(matchrunner.games_done("Finished game 7 (a vs b): 1-0 {White mates}") == 7, "fastchess progress")
    d, path = runner_named("fastchess")
    check(matchrunner.find({"PATH": d}) == ("fastchess", os.path.join(d, "fastchess")), "fastchess not found")
    for env, words in [({"PATH": "/nonexistent", "SAAVEDRA_MATCH": "/nonexistent"}, "no match runner found"),
                       ({"PATH": "/nonexistent", "MATCH_RUNNER": "cutechess"}, "not in PATH")]:
        try:
            matchrunner.find(env)
            check(False, "%s: found a runner" % env)
        except matchrunner.RunnerError as e:
            check(words in str(e), str(e))


@test
def sprt_recipe_refuses_unknown_commits_before_building():
    env = dict(os.environ, FAKE_RUNNER_ARGS=os.path.join(TMP, "args"), MATCH_OPENINGS=OPENINGS,
               MATCH_RUNNER=runner_named("fastchess")[1])
    out = os.path.join(TMP, "sprt-out")
    p = subprocess.run(["bash", os.path.join(ROOT, "tools", "recipes", "sprt.sh"), "no-such-commit", "HEAD", out],
                       capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 2 and "no commit no-such-commit" in p.stderr, (p.returncode, p.stderr[-300:]))
    check(not os.path.exists(os.path.join(out, "tree-HEAD")), "built before checking the commits")
    p = subprocess.run(["bash", os.path.join(ROOT, "tools", "recipes", "sprt.sh")],
                       capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 2 and "usage" in p.stderr, p.stderr)


@test
def smp_recipe_plays_one_game_at_a_time():
    d, fast = runner_named("fastchess")
    args_file = os.path.join(TMP, "args")
    env = dict(os.environ, FAKE_RUNNER_ARGS=args_file, MATCH_OPENINGS=OPENINGS, MATCH_RUNNER=fast,
               FAKE_RUNNER_OUTPUT=os.path.join(DATA, "fastchess.log"), FAKE_RUNNER_STATUS="0",
               ENGINE="/e/saavedra", THREADS="4")
    script = os.path.join(ROOT, "tools", "recipes", "smp-match.sh")
    for what in ("threads", "modes"):
        if os.path.exists(args_file):
            os.remove(args_file)
        p = subprocess.run(["bash", script, what, os.path.join(TMP, "smp-" + what)],
                           capture_output=True, text=True, timeout=60, env=env)
        check(p.returncode == 0, (what, p.stdout[-300:], p.stderr[-300:]))
        args = open(args_file).read().splitlines()
        check(after(args, "-concurrency", 1) == ["1"], args)
        first = args[args.index("-engine") + 1:args.index("-engine", args.index("-engine") + 1)]
        check("cmd=/e/saavedra" in first and "option.Threads=4" in first
              and "option.SMP Mode=YBWC" in first and "option.OwnBook=false" in first, first)
        if what == "threads":
            check("-sprt" not in args and after(args, "-rounds", 1) == ["100"], args)
            check("option.Threads=1" in args, args)
        else:
            check(after(args, "-sprt", 2) == ["elo0=-5", "elo1=5"], args)
            check(args.count("option.Threads=4") == 2 and "option.SMP Mode=Lazy" in args, args)
    p = subprocess.run(["bash", script, "lazy"], capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 2 and "usage" in p.stderr, p.stderr)
    p = subprocess.run(["bash", script, "variant"], capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 2 and "BASE_ENGINE" in p.stderr, p.stderr)


@test
def smp_variant_plays_two_builds_at_the_same_threads():
    d, fast = runner_named("fastchess")
    args_file = os.path.join(TMP, "args")
    base = os.path.join(TMP, "base-engine")
    with open(base, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(base, 0o755)
    env = dict(os.environ, FAKE_RUNNER_ARGS=args_file, MATCH_OPENINGS=OPENINGS, MATCH_RUNNER=fast,
               FAKE_RUNNER_OUTPUT=os.path.join(DATA, "fastchess.log"), FAKE_RUNNER_STATUS="0",
               ENGINE="/e/saavedra", BASE_ENGINE=base, THREADS="2")
    if os.path.exists(args_file):
        os.remove(args_file)
    script = os.path.join(ROOT, "tools", "recipes", "smp-match.sh")
    p = subprocess.run(["bash", script, "variant", os.path.join(TMP, "smp-variant")],
                       capture_output=True, text=True, timeout=60, env=env)
    check(p.returncode == 0, (p.stdout[-300:], p.stderr[-300:]))
    args = open(args_file).read().splitlines()
    check(after(args, "-concurrency", 1) == ["1"] and after(args, "-sprt", 2) == ["elo0=0", "elo1=10"], args)
    second = args.index("-engine", args.index("-engine") + 1)
    check("cmd=/e/saavedra" in args[:second] and "cmd=" + base in args[second:], args)
    check(args.count("option.Threads=2") == 2 and args.count("option.SMP Mode=YBWC") == 2, args)


testkit.finish()
