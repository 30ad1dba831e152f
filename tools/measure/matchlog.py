#!/usr/bin/env python3
"""The result of a two-engine match from the log of the runner that played it: fastchess,
cutechess-cli (or fastchess with `-output format=cutechess`), or the node match tool
(SAAVEDRA_MATCH, whose lines are cutechess's). The last report in the log counts:

- games: fastchess `Games: N, Wins: W, Losses: L, Draws: D, ...`; cutechess
  `Score of A vs B: W - L - D  [0.500] N`;
- Elo: fastchess `Elo: X +/- Y, nElo: ...`; cutechess `Elo difference: X +/- Y, ...`;
- pentanomial: `Ptnml(0-2): [LL, LD, DD+WL, WD, WW]` (either runner, when it prints one);
- SPRT: fastchess `LLR: X (P%) (LOWER, UPPER) [ELO0, ELO1]`; cutechess `SPRT: llr X (P%),
  lbound L, ubound U[ - H1 was accepted]`; the verdict follows from the bounds.

usage: python3 tools/measure/matchlog.py LOG     prints one summary line; exit status 0,
       or 2 when the log holds no result (the runner's output is then worth reading).
"""
import re
import sys

FLOAT = r"[-+]?(?:\d+(?:\.\d*)?|inf|nan)"
FAST_GAMES = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
CUTE_SCORE = re.compile(r"Score of .* vs .*?:\s*(\d+)\s*-\s*(\d+)\s*-\s*(\d+)\s*\[[^\]]*\]\s*(\d+)")
FAST_ELO = re.compile(r"^Elo: (%s) \+/- (%s)" % (FLOAT, FLOAT), re.M)
CUTE_ELO = re.compile(r"Elo difference: (%s) \+/- (%s)" % (FLOAT, FLOAT))
PTNML = re.compile(r"Ptnml\(0-2\):\s*\[([^\]]*)\]")
FAST_LLR = re.compile(r"LLR: (%s) \([^)]*\) \((%s), (%s)\)" % (FLOAT, FLOAT, FLOAT))
CUTE_LLR = re.compile(r"SPRT: llr (%s) \([^)]*\), lbound (%s), ubound (%s)" % (FLOAT, FLOAT, FLOAT))


def last(pattern, text):
    found = None
    for found in pattern.finditer(text):
        pass
    return found


def parse(text):
    """A dict with games, wins, losses, draws (when reported), elo and elo_error, ptnml (a
    list of five counts), llr, lower, upper and verdict ('H1', 'H0' or 'continue'), each
    present only when the log states it."""
    r = {}
    fast, cute = last(FAST_GAMES, text), last(CUTE_SCORE, text)
    # Both kinds can appear (fastchess's cutechess output): the later report counts.
    if fast and (not cute or fast.start() > cute.start()):
        r.update(games=int(fast.group(1)), wins=int(fast.group(2)), losses=int(fast.group(3)),
                 draws=int(fast.group(4)))
    elif cute:
        r.update(wins=int(cute.group(1)), losses=int(cute.group(2)), draws=int(cute.group(3)),
                 games=int(cute.group(4)))
    elo = max((m for m in (last(FAST_ELO, text), last(CUTE_ELO, text)) if m), key=lambda m: m.start(),
              default=None)
    if elo:
        r.update(elo=float(elo.group(1)), elo_error=float(elo.group(2)))
    p = last(PTNML, text)
    if p:
        counts = [int(x) for x in re.findall(r"\d+", p.group(1))]
        if len(counts) == 5:
            r["ptnml"] = counts
    llr = max((m for m in (last(FAST_LLR, text), last(CUTE_LLR, text)) if m), key=lambda m: m.start(),
              default=None)
    if llr:
        value, lower, upper = (float(llr.group(i)) for i in (1, 2, 3))
        r.update(llr=value, lower=lower, upper=upper,
                 verdict="H1" if value >= upper else "H0" if value <= lower else "continue")
    return r


def summary(r):
    parts = []
    if "games" in r:
        parts.append("%d games: +%d -%d =%d" % (r["games"], r["wins"], r["losses"], r["draws"]))
    if "elo" in r:
        parts.append("Elo %+.1f +/- %.1f" % (r["elo"], r["elo_error"]))
    if "ptnml" in r:
        parts.append("ptnml %s" % r["ptnml"])
    if "llr" in r:
        parts.append("SPRT llr %.2f (%.2f, %.2f): %s" % (r["llr"], r["lower"], r["upper"],
                                                         {"H1": "H1 accepted", "H0": "H0 accepted",
                                                          "continue": "no decision yet"}[r["verdict"]]))
    return ", ".join(parts)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: %s LOG\n" % sys.argv[0])
        return 2
    try:
        with open(sys.argv[1], errors="replace") as f:
            text = f.read()
    except OSError as e:
        sys.stderr.write("matchlog: cannot read %s: %s\n" % (sys.argv[1], e.strerror))
        return 2
    r = parse(text)
    if "games" not in r:
        sys.stderr.write("matchlog: no match result in %s\n" % sys.argv[1])
        return 2
    print(summary(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
