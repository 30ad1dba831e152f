#!/usr/bin/env python3
"""tools/measure/sprt-sum.py: the pentanomial SPRT over the sum of several match runs.

usage: python3 tests/test_sprt_sum.py ENGINE   (the engine is not used)
Checks: the counts of several logs (the last Ptnml line of each) and of --ptnml add; the
LLR agrees with an independent implementation (the match tool's, values noted below) and
with the normal approximation on a large sample; it moves the right way with the results;
the verdicts at the bounds; the --plan figures against the test's error rates and a
simulated test; refusals of bad input. The last line is "N passed, N failed".
"""
import importlib.util
import math
import os
import random
import sys

import testkit
from testkit import check, test

SCRIPT = os.path.join(testkit.ROOT, "tools", "measure", "sprt-sum.py")
TMP = testkit.temp_dir("sprt-sum")
spec = importlib.util.spec_from_file_location("sprt_sum", SCRIPT)
sprt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sprt)


def write_log(name, *ptnml_lines):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write("Score of a vs b: 1 - 0 - 1 [0.750] 2\n")
        for line in ptnml_lines:
            f.write("Ptnml(0-2): [%s] (a's pair scores 0, 0.5, 1, 1.5, 2)\n" % line)
        f.write("Finished: 1 wins, 0 losses, 1 draws\n")
    return path


def sprt_sum(*args):
    return testkit.run([sys.executable, SCRIPT, *args])


@test
def logs_and_counts_add_up():
    # Only the last Ptnml line of a log counts (the match tool prints one per interval).
    a = write_log("a.log", "1, 1, 1, 1, 1", "2, 10, 30, 20, 3")
    b = write_log("b.log", "0, 5, 12, 9, 1")
    rc, out, err = sprt_sum(a, b, "--ptnml", "1,0,0,0,0")
    check(rc == 0, err)
    check("pairs 93 (186 games), pentanomial [3, 15, 42, 29, 4]" in out, out)
    # --ptnml counts carry no games, so the per-game line is left out.
    check("games " not in out, out)


@test
def games_of_the_logs_add_up():
    # Each log's last Score line counts: 1-0-1 twice, plus an unfinished log's 3-1-2.
    a = write_log("ga.log", "0, 0, 1, 0, 0")
    b = write_log("gb.log", "0, 0, 0, 1, 0")
    c = os.path.join(TMP, "gc.log")
    with open(c, "w") as f:
        f.write("Score of a vs b: 2 - 1 - 1 [0.625] 4\nPtnml(0-2): [0, 1, 0, 1, 0]\n"
                "Score of a vs b: 3 - 1 - 2 [0.667] 6\n")
    rc, out, err = sprt_sum(a, b, c)
    check(rc == 0 and "games 10: +5 -1 =4 (70.0%)" in out, (out, err))
    # The per-game error of 29-22-49 (a 100-game match): 53.5%, +24.4 +/- 48.9.
    elo, half = sprt.games_elo_with_error(29, 22, 49)
    check(abs(elo - 24.36) < 0.05 and abs(half - 48.96) < 0.1, (elo, half))


@test
def llr_agrees_with_the_match_tool():
    # Values printed by the match runner's statistics (sprtLlr, eloWithError) for
    # the same counts, elo0 0 and elo1 10: a second implementation of the same test.
    for counts, llr, elo, err in (([13, 57, 143, 107, 15], 3.02, 28.1, 16.7),
                                  ([4, 11, 36, 48, 29], 2.97, 123.0, 34.7),
                                  ([5, 30, 79, 51, 9], 1.74, 29.0, 22.7)):
        check(abs(sprt.llr(counts, 0, 10) - llr) < 0.005, (counts, sprt.llr(counts, 0, 10)))
        e, half = sprt.elo_with_error(counts)
        check(abs(e - elo) < 0.05 and abs(half - err) < 0.05, (counts, e, half))


@test
def llr_near_the_normal_approximation_on_a_large_sample():
    counts = [300, 1400, 3000, 1500, 320]
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, sprt.PAIR_SCORES)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, sprt.PAIR_SCORES)) / n
    s0, s1 = sprt.score_from_elo(0), sprt.score_from_elo(5)
    normal = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    exact = sprt.llr(counts, 0, 5)
    check(abs(exact - normal) < 0.05 * abs(normal) + 0.05, (exact, normal))


@test
def llr_moves_with_the_results():
    even = sprt.llr([10, 40, 100, 40, 10], 0, 10)
    better = sprt.llr([10, 40, 100, 50, 10], 0, 10)
    worse = sprt.llr([10, 50, 100, 40, 10], 0, 10)
    check(worse < even < better, (worse, even, better))
    check(even < 0, even)  # an even score is evidence for elo0 = 0 against elo1 = 10


@test
def verdicts_at_the_bounds():
    rc, out, _ = sprt_sum("--ptnml", "0,20,60,80,40")
    check(rc == 0 and "H1 accepted" in out, out)
    rc, out, _ = sprt_sum("--ptnml", "40,80,60,20,0")
    check(rc == 0 and "H0 accepted" in out, out)
    rc, out, _ = sprt_sum("--ptnml", "1,2,3,2,1")
    check(rc == 0 and "continue" in out, out)
    # Wider bounds (alpha = beta = 0.01) keep the same sample undecided.
    rc, out, _ = sprt_sum("--ptnml", "1,4,12,12,3", "--alpha", "0.01", "--beta", "0.01")
    check(rc == 0 and "bounds -4.60 4.60" in out, out)


SPREAD = [3, 25, 68, 30, 2]  # a real match's pentanomial


@test
def plan_meets_the_error_rates_at_the_hypotheses():
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    _, at_elo0 = sprt.plan(SPREAD, 0, 0, 10, lower, upper)
    _, at_elo1 = sprt.plan(SPREAD, 10, 0, 10, lower, upper)
    _, midway = sprt.plan(SPREAD, 5, 0, 10, lower, upper)
    check(abs(at_elo0 - 0.05) < 1e-3 and abs(at_elo1 - 0.95) < 1e-3, (at_elo0, at_elo1))
    check(abs(midway - 0.5) < 1e-3, midway)  # the scores' midpoint is near Elo 5
    lengths = [sprt.plan(SPREAD, e, 0, 10, lower, upper)[0] for e in (5, 10, 20, 40)]
    check(all(a > b > 0 for a, b in zip(lengths, lengths[1:])), lengths)
    # Narrower bounds on the Elo scale need many more pairs for the same truth.
    check(sprt.plan(SPREAD, 5, 0, 5, lower, upper)[0] > 2 * lengths[1], lengths)
    # Far beyond either bound the test ends quickly either way, without overflow.
    pairs, h1 = sprt.plan(SPREAD, -400, 0, 10, lower, upper)
    check(h1 < 1e-9 and 0 < pairs < 50, (pairs, h1))


@test
def plan_agrees_with_a_simulated_test():
    # The test as a random walk of pair scores drawn from the spread tilted to the true
    # Elo, the LLR advanced by its per-pair normal step; 600 runs from a fixed seed.
    rng = random.Random(7)
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    m0, m1 = sprt.score_from_elo(0), sprt.score_from_elo(10)
    n = sum(SPREAD)
    mean = sum(c * v for c, v in zip(SPREAD, sprt.PAIR_SCORES)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(SPREAD, sprt.PAIR_SCORES)) / n
    truth = sprt.nearest_with_mean([c / n for c in SPREAD], sprt.score_from_elo(8))
    steps = [(m1 - m0) * (v - (m0 + m1) / 2) / var for v in sprt.PAIR_SCORES]
    lengths, wins = [], 0
    for _ in range(600):
        llr, pairs = 0.0, 0
        while lower < llr < upper:
            llr += rng.choices(steps, truth)[0]
            pairs += 1
        lengths.append(pairs)
        wins += llr >= upper
    expected, p_h1 = sprt.plan(SPREAD, 8, 0, 10, lower, upper)
    simulated = sum(lengths) / len(lengths)
    check(abs(simulated - expected) < 0.15 * expected, (simulated, expected))
    check(abs(wins / 600 - p_h1) < 0.06, (wins, p_h1))
    rc, out, err = sprt_sum("--ptnml", ",".join(map(str, SPREAD)), "--plan", "8")
    check(rc == 0 and f"plan: true Elo +8: about {expected:.0f} pairs" in out, (out, err))


@test
def bad_input_is_refused_with_one_line():
    missing = os.path.join(TMP, "missing.log")
    empty = write_log("empty.log")
    for args in ([missing], [empty], ["--ptnml", "1,2,3"], ["--ptnml", "1,2,3,4,x"],
                 ["--ptnml", "0,0,0,0,0"], [], ["--ptnml", "1,1,1,1,1", "--elo0", "5", "--elo1", "0"],
                 ["--ptnml", "0,0,5,0,0", "--plan", "5"]):
        rc, out, err = sprt_sum(*args)
        check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1
              and err.startswith("sprt-sum: "), (args, rc, out, err))


@test
def unbounded_elo_is_said_in_words():
    rc, out, err = sprt_sum("--ptnml", "0,0,0,0,4")
    check(rc == 0 and "Elo unbounded" in out and not any(
        w in out for w in ("nan", "inf")), out)
    check(math.isinf(sprt.elo_from_score(1.0)), "score 1 has no finite Elo")


testkit.finish()
