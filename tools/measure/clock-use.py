#!/usr/bin/env python3
"""How engines spent their clock in a match: reads the PGN the match tool writes (move
comments "{score/depth TIMEs}", book moves "{book}") and prints, per engine, the mean
time per searched move, the clock left at the end of the game (base + increments - time
used), time forfeits, and the mean time per move by move number.

    python3 tools/measure/clock-use.py games.pgn [--bucket 10]
"""
import argparse
import collections
import re
import signal
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# a move number (with "..." for Black), the SAN, and its comment
MOVE = re.compile(r'(\d+)\.(\.\.)?\s*([^\s{}]+)\s*\{([^}]*)\}')
TIME = re.compile(r'([\d.]+)s\s*$')


def games(text):
    tags, body = {}, []
    for line in text.splitlines():
        m = TAG.match(line)
        if m:
            if body:
                yield tags, ' '.join(body)
                tags, body = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            body.append(line.strip())
    if tags:
        yield tags, ' '.join(body)


def parse_tc(tc):
    m = re.fullmatch(r'([\d.]+)\+([\d.]+)', tc or '')
    return (float(m.group(1)), float(m.group(2))) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('pgn')
    ap.add_argument('--bucket', type=int, default=10, help='moves per row of the by-move table')
    args = ap.parse_args()
    try:
        text = open(args.pgn, encoding='utf-8', errors='replace').read()
    except OSError as e:
        print(f'clock-use: {e}', file=sys.stderr)
        return 1
    per_move = collections.defaultdict(list)
    left = collections.defaultdict(list)
    forfeits = collections.Counter()
    by_move = collections.defaultdict(lambda: collections.defaultdict(list))
    count = 0
    for tags, body in games(text):
        tc = parse_tc(tags.get('TimeControl'))
        if not tc:
            continue
        count += 1
        names = (tags.get('White', 'White'), tags.get('Black', 'Black'))
        used, moves = [0.0, 0.0], [0, 0]
        for num, dots, _san, comment in MOVE.findall(body):
            t = TIME.search(comment)
            if not t:
                continue
            side = 1 if dots else 0
            used[side] += float(t.group(1))
            moves[side] += 1
            by_move[names[side]][(int(num) - 1) // args.bucket].append(float(t.group(1)))
        for side in (0, 1):
            if moves[side]:
                per_move[names[side]].append(used[side] / moves[side])
                left[names[side]].append(tc[0] + tc[1] * moves[side] - used[side])
        if 'time' in tags.get('Termination', '').lower():
            loser = {'1-0': 1, '0-1': 0}.get(tags.get('Result'))
            if loser is not None:
                forfeits[names[loser]] += 1
    if not count:
        print('clock-use: no timed games found', file=sys.stderr)
        return 1
    print(f'{count} games')
    for name in sorted(per_move):
        pm, lf = per_move[name], left[name]
        print(f'{name}: {sum(pm) / len(pm):.3f} s per move, clock left at the end {sum(lf) / len(lf):.2f} s '
              f'(mean), time forfeits {forfeits[name]}')
    names = sorted(by_move)
    print('moves    ' + ''.join(f'{n[:14]:>15}' for n in names))
    for b in sorted({b for n in names for b in by_move[n]}):
        cells = []
        for n in names:
            ts = by_move[n].get(b, [])
            cells.append(f'{sum(ts) / len(ts):>9.3f} ({len(ts):>4})' if ts else ' ' * 15)
        print(f'{b * args.bucket + 1:>3}-{(b + 1) * args.bucket:<4} ' + ''.join(cells))
    return 0


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    sys.exit(main())
