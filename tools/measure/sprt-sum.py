#!/usr/bin/env python3
"""Adds the game pairs of several match runs and tests the sum with a pentanomial SPRT.

A long SPRT is often played in parts (the machine is needed for something else). Each part's log ends with its pentanomial line, `Ptnml(0-2): [LL, LD, DD+WL, WD, WW]`
(the match runner, cutechess and fastchess print the same); the
parts' counts add, and the sum is tested as one sequential test. Watching the sum after
every few pairs is still a sequential test as long as one stops at the first crossing.

usage: python3 tools/measure/sprt-sum.py [--elo0 E] [--elo1 E] [--alpha A] [--beta B]
                                 [--plan ELO ...] [--ptnml LL,LD,D,WD,WW ...] [LOG ...]
Prints the pairs, the pentanomial, the Elo with its 95% error, the log-likelihood ratio,
its bounds, and the verdict (H1, H0 or continue). When every part is a log, also the
games' wins, losses and draws (each log's last `Score of A vs B: W - L - D` line, odd
games of an unfinished pair included) and their Elo with a per-game 95% error. Exit
status 0, or 2 on bad input.

--plan ELO: how long a fresh test with these bounds would run if the true difference
were ELO, with the spread of pair scores the given pairs show: the expected number of
pairs to a verdict and the chance that it is H1 (Wald's approximations for a test whose
steps are normal; the overshoot at the bounds is left out, so real tests run a little
longer). A match that plays P pairs an hour needs about that many pairs / P hours.

The LLR is the generalised SPRT of fishtest (Michel Van den Bergh's formulation): the
empirical distribution of the pair scores (0, 1/4, ..., 1; an empty bin counts 0.001),
for each hypothesis the distribution nearest to it that has the hypothesis' mean score
(logistic Elo), and LLR = N * sum p_i log(p1_i / p0_i).
"""
import argparse
import math
import re
import sys

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
PTNML_LINE = re.compile(r"Ptnml\(0-2\):\s*\[([^\]]*)\]")
SCORE_LINE = re.compile(r"^Score of .*:\s*(\d+)\s*-\s*(\d+)\s*-\s*(\d+)\b", re.M)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def nearest_with_mean(probs, mean):
    """The distribution on PAIR_SCORES of the given mean that maximises the likelihood of
    probs: p_i / (1 + x (v_i - mean)), where x makes the mean right. The constraint's
    left side falls as x grows, so x is found by bisection between its poles."""
    shifted = [v - mean for v in PAIR_SCORES]
    lo, hi = -1.0 / max(shifted), -1.0 / min(shifted)

    def excess(x):
        return sum(p * a / (1.0 + x * a) for p, a in zip(probs, shifted))

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if excess(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2.0
    weights = [p / (1.0 + x * a) for p, a in zip(probs, shifted)]
    total = sum(weights)
    return [w / total for w in weights]


def llr(counts, elo0, elo1):
    counts = [c if c > 0 else 1e-3 for c in counts]
    n = sum(counts)
    probs = [c / n for c in counts]
    p0 = nearest_with_mean(probs, score_from_elo(elo0))
    p1 = nearest_with_mean(probs, score_from_elo(elo1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, p0, p1))


def pair_mean_variance(counts):
    """Mean and variance of the pair scores counted in counts."""
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, PAIR_SCORES)) / n
    return mean, sum(c * (v - mean) ** 2 for c, v in zip(counts, PAIR_SCORES)) / n


def elo_with_error(counts):
    """Elo of the mean pair score and the half-width of its 95% interval."""
    n = sum(counts)
    mean, variance = pair_mean_variance(counts)
    se = math.sqrt(variance / n)
    lo, hi = elo_from_score(mean - 1.959964 * se), elo_from_score(mean + 1.959964 * se)
    return elo_from_score(mean), (hi - lo) / 2.0


def games_elo_with_error(wins, losses, draws):
    """Elo of the per-game score and the half-width of its 95% interval (games taken as
    independent, which the pentanomial figure does not assume)."""
    n = wins + losses + draws
    mean = (wins + 0.5 * draws) / n
    variance = (wins * (1 - mean) ** 2 + losses * mean ** 2 + draws * (0.5 - mean) ** 2) / n
    se = math.sqrt(variance / n)
    lo, hi = elo_from_score(mean - 1.959964 * se), elo_from_score(mean + 1.959964 * se)
    return elo_from_score(mean), (hi - lo) / 2.0


def plan(counts, elo, elo0, elo1, lower, upper):
    """(expected pairs, chance of H1) of a test with these bounds when the true Elo is elo
    and the pair scores spread as in counts. Per pair the LLR moves by about
    (m1 - m0) (x - (m0 + m1) / 2) / var for a pair score x: a random walk with drift d
    and variance v, whose exit chances and mean time Wald's identities give."""
    _, var = pair_mean_variance(counts)
    m0, m1, m = score_from_elo(elo0), score_from_elo(elo1), score_from_elo(elo)
    drift = (m1 - m0) * (m - (m0 + m1) / 2.0) / var
    step_var = (m1 - m0) ** 2 / var
    if abs(drift) < 1e-9 * step_var:
        return -lower * upper / step_var, -lower / (upper - lower)
    # exp(h L) is a martingale for h = -2 d / v: the chance of the lower bound follows;
    # both exponentials are scaled by the larger one so that neither overflows.
    h = -2.0 * drift / step_var
    top = max(h * upper, h * lower, 0.0)
    p_lower = (math.exp(h * upper - top) - math.exp(-top)) / (math.exp(h * upper - top) - math.exp(h * lower - top))
    pairs = (p_lower * lower + (1.0 - p_lower) * upper) / drift
    return pairs, 1.0 - p_lower


def games_of_log(path):
    """(wins, losses, draws) of the first engine from a log's last Score line, or None."""
    with open(path, encoding="utf-8", errors="replace") as f:
        found = SCORE_LINE.findall(f.read())
    return tuple(int(x) for x in found[-1]) if found else None


def parse_counts(text):
    counts = [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    if len(counts) != 5 or min(counts) < 0:
        raise ValueError("a pentanomial is five counts >= 0")
    return counts


def counts_of_log(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        found = PTNML_LINE.findall(f.read())
    if not found:
        raise ValueError("no Ptnml(0-2) line")
    return parse_counts(found[-1])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="*", metavar="LOG", help="match log; its last Ptnml line counts")
    ap.add_argument("--ptnml", action="append", default=[], help="counts given directly: LL,LD,D,WD,WW")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--plan", type=float, action="append", default=[], metavar="ELO",
                    help="expected length and verdict of a test if the truth were ELO")
    args = ap.parse_args(argv)

    total = [0] * 5
    parts = [(f"--ptnml {p}", p, parse_counts) for p in args.ptnml]
    parts += [(path, path, counts_of_log) for path in args.logs]
    if not parts:
        print("sprt-sum: give match logs or --ptnml counts", file=sys.stderr)
        return 2
    for label, source, read in parts:
        try:
            counts = read(source)
        except (OSError, ValueError) as e:
            print(f"sprt-sum: {label}: {e}", file=sys.stderr)
            return 2
        total = [a + b for a, b in zip(total, counts)]
    if not (args.elo0 < args.elo1 and 0 < args.alpha < 1 and 0 < args.beta < 1):
        print("sprt-sum: need elo0 < elo1 and 0 < alpha, beta < 1", file=sys.stderr)
        return 2
    pairs = sum(total)
    if pairs == 0:
        print("sprt-sum: no game pairs", file=sys.stderr)
        return 2

    if args.plan and sum(1 for c in total if c > 0) < 2:
        print("sprt-sum: --plan needs pairs of at least two different scores", file=sys.stderr)
        return 2

    lower = math.log(args.beta / (1.0 - args.alpha))
    upper = math.log((1.0 - args.beta) / args.alpha)
    ratio = llr(total, args.elo0, args.elo1)
    elo, error = elo_with_error(total)
    verdict = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "continue"
    print(f"pairs {pairs} ({2 * pairs} games), pentanomial [{', '.join(map(str, total))}]")
    if math.isfinite(elo) and math.isfinite(error):
        print(f"Elo {elo:+.1f} +/- {error:.1f}")
    else:
        print("Elo unbounded (every pair has the same extreme score)")
    print(f"LLR {ratio:.2f} (bounds {lower:.2f} {upper:.2f}, elo0 {args.elo0:g} elo1 {args.elo1:g}): {verdict}")
    for elo in args.plan:
        pairs_needed, p_h1 = plan(total, elo, args.elo0, args.elo1, lower, upper)
        print(f"plan: true Elo {elo:+g}: about {pairs_needed:.0f} pairs ({2 * pairs_needed:.0f} games) "
              f"to a verdict, H1 with chance {p_h1:.2f}")
    games = [games_of_log(path) for path in args.logs] if not args.ptnml else [None]
    if games and None not in games:
        w, l, d = (sum(g[i] for g in games) for i in range(3))
        if w + l + d:
            elo, error = games_elo_with_error(w, l, d)
            shown = f"Elo {elo:+.1f} +/- {error:.1f}" if math.isfinite(elo) and math.isfinite(error) else "Elo unbounded"
            print(f"games {w + l + d}: +{w} -{l} ={d} ({100.0 * (w + 0.5 * d) / (w + l + d):.1f}%), {shown} (per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
