"""Reading what a learning benchmark's games say: scores per game and per quarter with
Elo and 95% error (pentanomial pairs), the lines each game played after its opening,
losses that repeat an earlier loss, and the engine's learning lines in a protocol log.
Used by learning-bench.py; no match is played here."""
import math
import re

HITS = re.compile(r"info string learned positions hit (\d+) times")
REPLAY = "from the learning file:"          # result learning played a won move again
LEFT_OUT = "info string learned: "  # ... or counted a lost move less (or left it out)


# ---- statistics ------------------------------------------------------------------------

def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def rate(pairs):
    """Elo and its 95% half-width from pair scores (each the mean of a pair's games, 0..1)."""
    n = len(pairs)
    if n == 0:
        return None
    mean = sum(pairs) / n
    var = sum((p - mean) ** 2 for p in pairs) / (n - 1) if n > 1 else 0.25
    se = math.sqrt(var / n)
    lo, hi = elo_of(mean - 1.96 * se), elo_of(mean + 1.96 * se)
    return mean, se, elo_of(mean), (hi - lo) / 2


# ---- games -----------------------------------------------------------------------------

def read_pgn_games(path):
    """The games of a PGN file as (tags, movetext) in file order."""
    with open(path, encoding="latin-1") as f:
        text = f.read().replace("\r\n", "\n")
    games, tags, moves = [], {}, []
    for line in text.split("\n"):
        m = re.match(r'\[(\w+) "(.*)"\]\s*$', line)
        if m:
            if moves:
                games.append((tags, " ".join(moves)))
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            moves.append(line.strip())
    if tags or moves:
        games.append((tags, " ".join(moves)))
    return games


def engine_scores(pgn_path, name):
    """{game number: the named engine's score (1, 0.5, 0)} from the match tool's PGN."""
    scores = {}
    for tags, _ in read_pgn_games(pgn_path):
        result = tags.get("Result")
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        if points is None or "Round" not in tags:
            continue
        if tags.get("White") == name:
            scores[int(tags["Round"])] = points
        elif tags.get("Black") == name:
            scores[int(tags["Round"])] = 1.0 - points
    return scores


def played_lines(pgn_path, name, plies=12):
    """{game number: (the engine's colour, the opening's moves, the first `plies` moves
    played after it, the engine's score)} from the match tool's PGN, whose opening moves
    carry {book} comments."""
    lines = {}
    for tags, movetext in read_pgn_games(pgn_path):
        result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
        if result is None or "Round" not in tags or name not in (tags.get("White"), tags.get("Black")):
            continue
        book, played = [], []
        for move, comment in re.findall(r"(?:\d+\.(?:\.\.)?\s*)?([^\s{}]+)\s*(?:\{([^}]*)\})?", movetext):
            if move in ("1-0", "0-1", "1/2-1/2", "*"):
                break
            (book if comment.startswith("book") and not played else played).append(move)
        white = tags.get("White") == name
        lines[int(tags["Round"])] = ("w" if white else "b", " ".join(book), " ".join(played[:plies]),
                                     result if white else 1.0 - result)
    return lines


def repeated_losses(lines):
    """Losses, and losses that repeat an earlier loss of the same opening and colour move
    for move over the first plies after the opening (the trap fallen into again)."""
    lost, losses, repeats = set(), 0, 0
    for g in sorted(lines):
        colour, opening, played, score = lines[g]
        if score == 0.0:
            losses += 1
            if (colour, opening, played) in lost:
                repeats += 1
            lost.add((colour, opening, played))
    return losses, repeats


def all_pairs(scores, games):
    return [p for q in quarters(scores, games) for p in q]


def quarters(scores, games):
    """Per quarter of the schedule: the pair scores of its complete pairs."""
    out = []
    for q in range(4):
        first, last = q * games // 4 + 1, (q + 1) * games // 4
        pairs = []
        for g in range(first + (first + 1) % 2, last + 1, 2):  # pairs are (odd, even)
            if g in scores and g + 1 in scores and g + 1 <= last:
                pairs.append((scores[g] + scores[g + 1]) / 2)
        out.append(pairs)
    return out


def log_counts(log):
    """What learning did, from the engine's lines in a protocol log: learned-position hits
    and the searches that met any, result-learning replays and left-out moves."""
    counts = {"hits": 0, "searches": 0, "replays": 0, "left_out": 0}
    with open(log, errors="replace") as f:
        for line in f:
            m = HITS.search(line)
            if m:
                counts["hits"] += int(m.group(1))
                counts["searches"] += 1
            counts["replays"] += REPLAY in line
            counts["left_out"] += LEFT_OUT in line
    return counts
