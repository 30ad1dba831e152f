#!/usr/bin/env python3
"""ECO agreement: recomputes the [ECO] tags of PGN files with ecocoder and with Debian's
pgn-extract (-e with its shipped eco.pgn) from the same input with the ECO tags removed,
and reports, for each, the share of games whose three-character code equals the original
tag, and the speed in games/s (wall clock, best of RUNS runs each). docs/eco.md.

  python3 tools/measure/eco-agreement.py ECOCODER FILE.pgn... [--runs N] [--pgn-extract PATH]

Games are matched by order: both tools keep every game in input order (checked: the game
counts must agree with the input's). Speeds are comparable only within one run."""
import os
import re
import subprocess
import sys
import tempfile
import time

ECO_TAG = re.compile(rb'^\[ECO\s+"([^"]*)"\]\s*$', re.M)
GAME_START = re.compile(rb'^\[Event\s', re.M)


def split_games(data):
    starts = [m.start() for m in GAME_START.finditer(data)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


def eco_of(game):
    m = ECO_TAG.search(game)
    return m.group(1).decode('latin-1')[:3] if m else ''


def timed(cmd, runs, stdin_path, out_path):
    best = None
    for _ in range(runs):
        with open(stdin_path, 'rb') as fin, open(out_path, 'wb') as fout:
            t0 = time.perf_counter()
            subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL, check=True)
            dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def main():
    args = sys.argv[1:]
    runs = 3
    pgn_extract = '/usr/games/pgn-extract'
    if '--runs' in args:
        i = args.index('--runs')
        runs = int(args[i + 1])
        del args[i:i + 2]
    if '--pgn-extract' in args:
        i = args.index('--pgn-extract')
        pgn_extract = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    ecocoder, files = args[0], args[1:]
    original = b''.join(open(f, 'rb').read() for f in files)
    games = split_games(original)
    want = [eco_of(g) for g in games]
    stripped = ECO_TAG.sub(b'', original)
    # A removed tag leaves its line ending; drop that now-empty line inside tag sections.
    stripped = re.sub(rb'(\]\r?\n)\r?\n(?=\[)', rb'\1', stripped)
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, 'in.pgn')
        open(inp, 'wb').write(stripped)
        assert len(split_games(stripped)) == len(games)
        eco_file = '/usr/share/pgn-extract/eco.pgn'
        tools = [
            ('ecocoder', [ecocoder]),
            ('pgn-extract -e', [pgn_extract, '-e' + eco_file, '-s']),
        ]
        print(f'{len(games)} games, {sum(1 for w in want if w)} with an [ECO] tag; best of {runs} runs')
        for name, cmd in tools:
            out = os.path.join(tmp, 'out.pgn')
            secs = timed(cmd, runs, inp, out)
            got = [eco_of(g) for g in split_games(open(out, 'rb').read())]
            if len(got) != len(games):
                print(f'{name}: {len(got)} games out of {len(games)}: cannot match by order')
                continue
            tagged = [(w, g) for w, g in zip(want, got) if w]
            agree = sum(1 for w, g in tagged if w == g)
            unclassified = sum(1 for w, g in tagged if not g)
            print(f'{name}: {agree}/{len(tagged)} agree = {100.0 * agree / len(tagged):.2f}%, '
                  f'{unclassified} unclassified; {secs:.2f} s = {len(games) / secs:.0f} games/s')


if __name__ == '__main__':
    main()
