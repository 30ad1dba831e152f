#!/usr/bin/env python3
"""What learning wins in games: the benchmarks of docs/learning.md.

  learning-bench.py repeated [options]   a small opening set played again and again
                                         against a fixed opponent, learning on and off
  learning-bench.py book [options]       from the start position with the book on against
                                         an opponent with its own book, learning on and off
  learning-bench.py cost [options]       nodes per second with 100,000 learned positions
                                         loaded against an empty file (and, with --games,
                                         a match between the two)

Each learning arm starts from an empty learning file in OUT/ARM/ and plays the same
schedule (same openings, same order, same seed). Games go through the match runner
MATCH_RUNNER names (fastchess, cutechess-cli, or the node match tool in SAAVEDRA_MATCH,
default ../shared/tools/match beside the project; unset: the first found, matchrunner.py).
With cutechess-cli the learning counts come from its -debug lines. The report gives the
score of each quarter with its Elo and 95% error (pentanomial: the two games of a pair
share an opening), the difference on - off per quarter, how often the engine's searches
met learned positions (its "info string learned positions hit N times"), how often
result learning replayed a won move or counted a lost one less, and
OUT/learning-bench.png: the running score of each arm (gnuplot).
"""
import argparse
import hashlib
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matchrunner  # noqa: E402
from learnstats import (all_pairs, elo_of, engine_scores, log_counts, played_lines, quarters,  # noqa: E402
                        rate, read_pgn_games, repeated_losses)

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def program(name):
    """A program on PATH or in /usr/games (where Debian puts chess engines and polyglot)."""
    return shutil.which(name) or shutil.which(name, path="/usr/games")


def fail(message):
    sys.stderr.write("learning-bench: %s\n" % message)
    sys.exit(1)


# ---- running the match tool --------------------------------------------------------------

def match_runner():
    """The match runner (matchrunner.py: MATCH_RUNNER, else fastchess, cutechess-cli or the
    node tool), the node tool's packages installed when it is the one."""
    try:
        kind, where = matchrunner.find()
    except matchrunner.RunnerError as e:
        fail(str(e))
    if kind == "saavedra-match" and not os.path.isdir(os.path.join(where, "node_modules")):
        subprocess.run(["npm", "ci"], cwd=where, check=True, stdout=subprocess.DEVNULL)
    return kind, where


def run_key(cmd, arm_dir, files=()):
    """What makes two runs of an arm the same: the match command and the content of every
    file it names outside the arm's folder (engines, openings, the polyglot set-up) and of
    `files`. The arm's own files (its learning file, PGN, log) are named, not read."""
    h = hashlib.sha256()
    inside = os.path.abspath(arm_dir) + os.sep
    paths = [t.partition("=")[2] if t.startswith(("cmd=", "arg=")) else t for t in cmd] + list(files)
    for token, path in zip(list(cmd) + list(files), paths):
        h.update(token.encode() + b"\0")
        if path and os.path.isfile(path) and not os.path.abspath(path).startswith(inside):
            with open(path, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
    return h.hexdigest()


def finished_run(arm_dir, key):
    """The learning counts of a finished run of this arm with the same key, else None."""
    try:
        with open(os.path.join(arm_dir, "finished.json")) as f:
            done = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(done, dict) or done.get("key") != key or not isinstance(done.get("counts"), dict) \
            or not os.path.isfile(os.path.join(arm_dir, "games.pgn")):
        return None
    return done["counts"]


def mark_finished(arm_dir, key, counts):
    write_json(os.path.join(arm_dir, "finished.json"), {"key": key, "counts": counts})


def write_json(path, value):
    with open(path + ".tmp", "w") as f:
        json.dump(value, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(path + ".tmp", path)


def copy_synced(src, dst):
    shutil.copyfile(src, dst + ".tmp")
    with open(dst + ".tmp", "rb+") as f:
        os.fsync(f.fileno())
    os.replace(dst + ".tmp", dst)


def read_progress(arm_dir, key, chunk):
    """The parts of an unfinished run with this key and part size that were played (and
    the learning counts so far), if their saved state is all there; else None."""
    try:
        with open(os.path.join(arm_dir, "progress.json")) as f:
            done = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(done, dict) or done.get("key") != key or done.get("chunk") != chunk \
            or not isinstance(done.get("done"), int) or not isinstance(done.get("counts"), dict):
        return None
    if not all(os.path.isfile(part_pgn(arm_dir, i)) for i in range(done["done"])):
        return None
    return done


def part_pgn(arm_dir, part):
    return os.path.join(arm_dir, "games-part%03d.pgn" % (part + 1))


def snapshot(path, part):
    return "%s.after-part%03d" % (path, part)


def renumbered(pgn_path, offset):
    """The PGN text with each Round tag (the game number) moved on by offset."""
    with open(pgn_path, encoding="latin-1") as f:
        text = f.read()
    return re.sub(r'^\[Round "(\d+)"\]', lambda m: '[Round "%d"]' % (int(m.group(1)) + offset), text,
                  flags=re.M)


def play(arm_dir, first, second, args, games, label, fresh=False, scratch=(), files=(), chunk=None):
    """Plays one arm through the match tool; echoes its progress; returns the PGN path and
    the learned-position hits seen in the protocol log. A run already finished with the
    same command, engines and files is reused unless `fresh` (so that a long benchmark can
    be run an arm at a time); `scratch` files (the arm's learning file) are removed before
    a run is played. With `chunk`, the run is played in parts of that many games (the same
    command each time, so a part must hold whole rounds of the openings); after each part
    the scratch files are saved, and a run stopped halfway goes on from its last whole
    part, with the scratch files as that part left them."""
    os.makedirs(arm_dir, exist_ok=True)
    pgn = os.path.join(arm_dir, "games.pgn")
    log = os.path.join(arm_dir, "protocol.log")
    base = ["node", "match.mjs"] + first + second + args
    cmd = base + ["--games", str(games), "--pgnout", pgn, "--log", log, "--ratinginterval", "50"]
    key = run_key(cmd, arm_dir, files)
    counts = None if fresh else finished_run(arm_dir, key)
    if counts is not None:
        print("%s: reusing the finished run in %s (same command, engines and files; --fresh plays it again)"
              % (label, arm_dir))
        return pgn, counts
    chunk = chunk if chunk and 0 < chunk < games and games % chunk == 0 and chunk % 2 == 0 else games
    parts = games // chunk
    progress = None if fresh else read_progress(arm_dir, key, chunk)
    if progress and progress["done"] and not all(
            os.path.isfile(snapshot(f, progress["done"])) or not os.path.exists(f) for f in scratch):
        progress = None
    if progress:
        done, counts = progress["done"], progress["counts"]
        for f in scratch:
            if os.path.isfile(snapshot(f, done)):
                copy_synced(snapshot(f, done), f)
            elif done == 0 and os.path.exists(f):
                os.unlink(f)
        print("%s: going on from game %d of %d in %s" % (label, done * chunk + 1, games, arm_dir))
    else:
        done, counts = 0, {"hits": 0, "searches": 0, "replays": 0, "left_out": 0}
        stale = [pgn, log, os.path.join(arm_dir, "finished.json"), os.path.join(arm_dir, "progress.json")]
        stale += [os.path.join(arm_dir, n) for n in os.listdir(arm_dir)
                  if n.startswith("games-part") or ".after-part" in n]
        for p in stale + list(scratch):
            if os.path.exists(p):
                os.unlink(p)
    with open(os.path.join(arm_dir, "command.txt"), "w") as f:
        f.write(" ".join("'%s'" % c if " " in c else c for c in cmd) + "\n")
        if parts > 1:
            f.write("played in %d parts of %d games, each: --games %d --pgnout games-partNNN.pgn\n"
                    % (parts, chunk, chunk))
    start, first_game = time.time(), done * chunk
    out = open(os.path.join(arm_dir, "match.txt"), "a" if done else "w")
    for part in range(done, parts):
        target = pgn if parts == 1 else part_pgn(arm_dir, part)
        for p in (target, log):
            if os.path.exists(p):
                os.unlink(p)
        run_match(base + ["--games", str(chunk), "--pgnout", target, "--log", log, "--ratinginterval", "50"],
                  out, label, part * chunk, games, start, first_game)
        for name, value in log_counts(log).items():
            counts[name] = counts.get(name, 0) + value
        os.unlink(log)  # large; the counts are all that is kept
        if parts > 1:
            for f in scratch:
                if os.path.exists(f):
                    copy_synced(f, snapshot(f, part + 1))
            write_json(os.path.join(arm_dir, "progress.json"),
                       {"key": key, "chunk": chunk, "done": part + 1, "counts": counts})
            for f in scratch:
                if os.path.exists(snapshot(f, part)):
                    os.unlink(snapshot(f, part))
    out.close()
    if parts > 1:
        with open(pgn + ".tmp", "w", encoding="latin-1") as f:
            for part in range(parts):
                f.write(renumbered(part_pgn(arm_dir, part), part * chunk))
            f.flush()
            os.fsync(f.fileno())
        os.replace(pgn + ".tmp", pgn)
    mark_finished(arm_dir, key, counts)
    for n in os.listdir(arm_dir):
        if n.startswith("games-part") or ".after-part" in n or n == "progress.json":
            os.unlink(os.path.join(arm_dir, n))
    return pgn, counts


def run_match(cmd, out, label, offset, games, start, first_game):
    """One match run (cmd in the node tool's words, translated for the runner in use); its
    output goes to out, its progress to the terminal (game numbers moved on by offset, the
    time left over the whole run of games)."""
    kind, where = match_runner()
    argv, cwd = matchrunner.command(kind, where, cmd[2:])
    log = cmd[cmd.index("--log") + 1] if "--log" in cmd else None
    debug = open(log, "w") if log and kind == "cutechess" else None  # its -debug lines
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    for line in proc.stdout:
        if debug and matchrunner.debug_line(kind, line):
            debug.write(line)
            continue
        out.write(line)
        finished = matchrunner.games_done(line)
        if finished is not None:
            done = offset + finished
            eta = (time.time() - start) / max(done - first_game, 1) * (games - done)
            shown = "%s (game %d of %d)" % (line.strip(), done, games) if offset else line.strip()
            if sys.stdout.isatty():
                sys.stdout.write("\r%s: %s  ETA %d min   " % (label, shown, eta / 60))
            elif done % 25 == 0:
                sys.stdout.write("%s: %s  ETA %d min\n" % (label, shown, eta / 60))
            sys.stdout.flush()
        elif line.startswith(("Elo difference", "Finished:", "Elo:")):
            sys.stdout.write("\n%s: %s" % (label, line))
    proc.wait()
    if debug:
        debug.close()
    out.flush()
    sys.stdout.write("\n")
    if proc.returncode != 0:
        fail("the match runner (%s) failed (exit %d), see %s" % (kind, proc.returncode, out.name))
    if log and not os.path.exists(log):
        open(log, "w").close()  # a runner that logged nothing: no learning counts


def saavedra(engine, name, learning, learn_file, book, hash_mb, extra=()):
    return ["--engine", "cmd=" + engine, "name=" + name, "option.Learning=%s" % str(learning).lower(),
            "option.LearningFile=" + learn_file, "option.OwnBook=%s" % str(book).lower(),
            "option.Hash=%d" % hash_mb] + list(extra)


def opponent_args(a, out):
    return opponent_engine(a, out) + (["tc=" + a.opponent_tc] if a.opponent_tc else [])


def opponent_engine(a, out):
    if a.opponent_book:
        ini = os.path.join(out, "opponent.ini")
        with open(ini, "w") as f:
            f.write("[PolyGlot]\nEngineCommand = %s\nEngineDir = %s\nBook = true\nBookFile = %s\n"
                    "[Engine]\nHash = %d\n" % (a.opponent, out, a.opponent_book, a.hash))
        return ["--engine", "cmd=" + program("polyglot"), "arg=" + ini, "proto=xboard",
                "name=" + os.path.basename(a.opponent)]
    return ["--engine", "cmd=" + a.opponent, "name=" + os.path.basename(a.opponent),
            "option.Hash=%d" % a.hash]


def opponent_label(a):
    name = os.path.basename(a.opponent)
    return name + (" at " + a.opponent_tc if a.opponent_tc else "")


def common_match_args(a):
    return ["--each", "tc=" + a.tc, "--concurrency", str(a.concurrency),
            "--resign", "movecount=3", "score=1000", "--draw", "movenumber=40", "movecount=8", "score=10"]


# ---- reports -----------------------------------------------------------------------------

def report(arms, games, out, title):
    lines = ["%s, %d games an arm" % (title, games), ""]
    header = "%-12s" % "arm" + "".join("%20s" % ("quarter %d" % (q + 1)) for q in range(4)) + "%20s" % "all"
    lines.append(header)
    rated = {}
    for arm, (scores, _, _) in arms.items():
        qs = quarters(scores, games)
        every = all_pairs(scores, games)
        row = "%-12s" % arm
        rated[arm] = [rate(q) for q in qs] + [rate(every)]
        for r in rated[arm]:
            row += "%20s" % ("-" if r is None else "%.1f%% %+.0f+/-%.0f" % (100 * r[0], r[2], r[3]))
        lines.append(row)
    for arm in [n for n in rated if n != "off" and "off" in rated]:
        row = "%-12s" % (arm + " - off")
        for q in range(5):
            a, b = rated[arm][q], rated["off"][q]
            if a is None or b is None:
                row += "%20s" % "-"
                continue
            # independent samples: the errors add in quadrature
            row += "%20s" % ("%+.0f+/-%.0f" % (a[2] - b[2], math.hypot(a[3], b[3])))
        lines.append(row)
    lines.append("")
    for arm, (scores, c, (losses, repeats)) in arms.items():
        lines.append("%s: %d games, %d searches met learned positions, %d hits in all; %d won moves replayed, "
                     "%d searches with a lost move counted less; %d losses, %d of them the same 12 plies after the opening as an "
                     "earlier loss with that opening and colour"
                     % (arm, len(scores), c["searches"], c["hits"], c["replays"], c["left_out"], losses, repeats))
    text = "\n".join(lines) + "\n"
    sys.stdout.write("\n" + text)
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    plot(arms, games, out, title)


def plot(arms, games, out, title):
    csv = os.path.join(out, "running.csv")
    names = list(arms)
    with open(csv, "w") as f:
        f.write("game " + " ".join(names) + "\n")
        total = {n: 0.0 for n in names}
        count = {n: 0 for n in names}
        for g in range(1, games + 1):
            row = [str(g)]
            for n in names:
                s = arms[n][0].get(g)
                if s is not None:
                    total[n] += s
                    count[n] += 1
                row.append("%.4f" % (100 * total[n] / count[n]) if count[n] else "NaN")
            f.write(" ".join(row) + "\n")
    if not shutil.which("gnuplot"):
        return
    png = os.path.join(out, "learning-bench.png")
    series = ", ".join("'%s' using 1:%d with lines lw 2 title 'learning %s'" % (csv, i + 2, n)
                       for i, n in enumerate(names))
    script = ("set terminal pngcairo size 900,500; set output '%s'; set title '%s';"
              "set xlabel 'games'; set ylabel 'running score of Saavedra (%%)'; set grid;"
              "set key bottom right; set yrange [0:100];"
              "plot 50 with lines dt 2 lc rgb 'gray' notitle, %s" % (png, title, series))
    subprocess.run(["gnuplot", "-e", script], check=False)
    print("plot: %s" % png)


# ---- the benchmarks ------------------------------------------------------------------------

def pick_openings(a, out):
    games = read_pgn_games(a.openings)
    if len(games) < a.lines:
        fail("%s has %d games, %d wanted" % (a.openings, len(games), a.lines))
    chosen = random.Random(a.seed).sample(range(len(games)), a.lines)
    path = os.path.join(out, "openings.pgn")
    with open(path, "w") as f:
        for i in chosen:
            tags, moves = games[i]
            f.write("".join('[%s "%s"]\n' % kv for kv in tags.items()) + "\n" + moves + "\n\n")
    return path


def run_arms(a, out, first_extra, match_extra, games, title, chunk):
    arms = {}
    for spec in a.arms.split(","):
        # "on", "off", or "LABEL=ENGINE": another build with learning on
        arm, _, engine = spec.partition("=")
        engine = os.path.abspath(engine) if engine else a.engine
        arm_dir = os.path.join(out, arm)
        os.makedirs(arm_dir, exist_ok=True)
        learn_file = os.path.join(arm_dir, "learn.lrn")
        options = ["option." + o.split(":", 1)[1] for o in a.arm_option if o.split(":", 1)[0] == arm]
        first = saavedra(engine, "saavedra", arm != "off", learn_file, a.mode == "book", a.hash,
                         list(first_extra) + options)
        inputs = [f for f in (a.opponent_book, a.book if a.mode == "book" else None) if f]
        pgn, counts = play(arm_dir, first, opponent_args(a, out), common_match_args(a) + match_extra, games,
                           "learning " + arm, a.fresh, [learn_file], inputs, chunk)
        arms[arm] = (engine_scores(pgn, "saavedra"), counts, repeated_losses(played_lines(pgn, "saavedra")))
    report(arms, games, out, title)


def repeated(a, out):
    openings = pick_openings(a, out)
    games = a.lines * 2 * a.rounds
    run_arms(a, out, [], ["--openings", openings, "--order", "sequential"], games,
             "Repeated openings: %d lines x 2 colours x %d rounds at %s against %s"
             % (a.lines, a.rounds, a.tc, opponent_label(a)), 2 * a.lines)  # a part: one round


def book(a, out):
    if not program("polyglot"):
        fail("the book benchmark needs polyglot (apt-get install polyglot)")
    if not a.opponent_book:
        pgn = a.book_pgn or a.openings
        a.opponent_book = os.path.join(out, "opponent-book.bin")
        subprocess.run([program("polyglot"), "make-book", "-pgn", pgn, "-bin", a.opponent_book, "-max-ply", "16",
                        "-min-game", "1"], check=True, stdout=subprocess.DEVNULL)
    # The engine finds BookFile beside itself; a copied engine has no book there.
    run_arms(a, out, ["option.BookFile=" + a.book], [], a.games,
             "Book learning from the start position at %s against %s with its own book"
             % (a.tc, opponent_label(a)), 50)


def learning_file_with(path, engine, positions, seed):
    """A learning file holding `positions` position records with random keys: the header is
    taken from a file the engine writes, the records are written as docs/learning-format.md
    describes (the benchmark doubles as a check that the format can be written by others)."""
    if os.path.exists(path):
        os.unlink(path)
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\nsetoption name LearningFile value %s\nsetoption name OwnBook value false\n"
                  "ucinewgame\nposition startpos moves e2e4\ngo depth 1\n" % path)
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
    p.communicate("quit\n", timeout=60)  # the game is written at quit
    with open(path, "rb") as f:
        header = f.read(32)
    if len(header) != 32 or not header.startswith(b"SAAVLRN\x1a"):
        fail("the engine wrote no learning file at %s" % path)
    rng = random.Random(seed)
    body = bytearray()
    for _ in range(positions):
        payload = struct.pack("<QBBhB", rng.getrandbits(64), 0, 0, rng.randint(-300, 300), rng.randint(10, 20))
        rec = struct.pack("<BBH", ord("P"), 0, 8 + len(payload)) + payload
        body += rec + struct.pack("<I", zlib.crc32(rec) & 0xFFFFFFFF)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header + body)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def nps_run(engine, learn_file, fens, depth):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send = lambda s: p.stdin.write(s + "\n")
    send("uci")
    send("setoption name LearningFile value " + learn_file)
    send("setoption name OwnBook value false")
    send("setoption name Hash value 16")
    send("isready")
    nodes = ms = 0
    for line in p.stdout:
        if line.strip() == "readyok":
            break
    for fen in fens:
        send("ucinewgame")
        send("position fen " + fen)
        send("go depth %d" % depth)
        last = None
        for line in p.stdout:
            if line.startswith("info depth"):
                last = line
            if line.startswith("bestmove"):
                break
        n = re.search(r" nodes (\d+)", last or "")
        t = re.search(r" time (\d+)", last or "")
        if n and t:
            nodes += int(n.group(1))
            ms += int(t.group(1))
    send("quit")
    p.wait()
    return nodes, ms


def cost(a, out):
    big = os.path.join(out, "learned-%d.lrn" % a.positions)
    learning_file_with(big, a.engine, a.positions, a.seed)
    with open(os.path.join(ROOT, "epd", "wacnew.epd")) as f:
        fens = [" ".join(l.split()[:4]) + " 0 1" for l in f if l.strip()][: a.fens]
    rows = {"empty": [], "loaded": []}
    runs = []
    for r in range(a.runs):
        for name in ("empty", "loaded") if r % 2 == 0 else ("loaded", "empty"):
            empty = os.path.join(out, "empty-%d.lrn" % r)
            if os.path.exists(empty):
                os.unlink(empty)
            nodes, ms = nps_run(a.engine, big if name == "loaded" else empty, fens, a.depth)
            rows[name].append(nodes * 1000 // max(ms, 1))
            runs.append("run %d %-6s %d nodes %d ms %d nps" % (r + 1, name, nodes, ms, rows[name][-1]))
            print(runs[-1])
    med = {k: sorted(v)[len(v) // 2] for k, v in rows.items()}
    text = "\n".join(runs) + "\n" + ("Cost of %d learned positions (random keys) in a 16 MB table: %d positions of epd/wacnew.epd"
            " to depth %d, %d interleaved runs each\nmedian nps empty %d, loaded %d, ratio %.3f\n"
            % (a.positions, len(fens), a.depth, a.runs, med["empty"], med["loaded"], med["loaded"] / med["empty"]))
    if a.games:
        empty = os.path.join(out, "match-empty.lrn")
        if os.path.exists(empty):
            os.unlink(empty)
        first = saavedra(a.engine, "loaded", True, big, False, a.hash)
        second = saavedra(a.engine, "empty", True, empty, False, a.hash)
        pgn, _ = play(os.path.join(out, "match"), first, second,
                      common_match_args(a) + ["--openings", a.openings, "--order", "random", "--seed", str(a.seed)],
                      a.games, "loaded vs empty", a.fresh)
        scores = engine_scores(pgn, "loaded")
        r = rate(all_pairs(scores, a.games))
        if r:
            text += "match at %s, %d games: loaded scores %.1f%%, %+.1f +/- %.1f Elo\n" % (
                a.tc, len(scores), 100 * r[0], r[2], r[3])
    sys.stdout.write(text)
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["repeated", "book", "cost"])
    ap.add_argument("--engine", default=os.path.join(ROOT, "saavedra"))
    ap.add_argument("--opponent", default="/usr/games/ethereal-chess")
    ap.add_argument("--opponent-book", help="the opponent's Polyglot book (book: default, made from --book-pgn)")
    ap.add_argument("--book", default=os.path.join(ROOT, "book", "book.bin"),
                    help="book: Saavedra's book (default: the tree's book/book.bin)")
    ap.add_argument("--book-pgn", help="PGN for the opponent's book (default: --openings)")
    ap.add_argument("--openings", default=os.environ.get(
        "SAAVEDRA_OPENINGS", os.path.join(SHARED, "data", "openings", "8moves_v3.pgn")))
    ap.add_argument("--lines", type=int, default=25, help="repeated: opening lines (default 25)")
    ap.add_argument("--rounds", type=int, default=8, help="repeated: times each line is played (8)")
    ap.add_argument("--games", type=int, default=None, help="book: games an arm (400); cost: match games (0)")
    ap.add_argument("--tc", default=None, help="clock (5+0.05; cost: 10+0.1)")
    ap.add_argument("--opponent-tc", default=None,
                    help="the opponent's own clock (time odds that bring the score near 50%%; default --tc)")
    ap.add_argument("--arms", default="on,off",
                    help="arms to play: on, off, LABEL=ENGINE (that build, learning on); default on,off")
    ap.add_argument("--arm-option", action="append", default=[], metavar="LABEL:NAME=VALUE",
                    help="an engine option for one arm, e.g. 't75:Learning Threshold=75' (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--positions", type=int, default=100000, help="cost: learned positions (100000)")
    ap.add_argument("--fens", type=int, default=100, help="cost: positions searched a run (100)")
    ap.add_argument("--depth", type=int, default=15, help="cost: search depth (15)")
    ap.add_argument("--runs", type=int, default=7, help="cost: runs of each (7)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--fresh", action="store_true",
                    help="play every arm again (default: reuse an arm's finished run with the same set-up)")
    a = ap.parse_args()
    a.tc = a.tc or ("10+0.1" if a.mode == "cost" else "5+0.05")
    if a.games is None:
        a.games = 400 if a.mode == "book" else 0
    a.engine = os.path.abspath(a.engine)
    if not os.access(a.engine, os.X_OK):
        fail("no engine at %s (make first)" % a.engine)
    if a.mode != "cost" and not (os.access(a.opponent, os.X_OK) or program(a.opponent)):
        fail("no opponent %s (apt-get install ethereal-chess, or --opponent)" % a.opponent)
    a.opponent = program(a.opponent) or a.opponent
    a.book = os.path.abspath(a.book)
    if a.mode == "book" and not os.path.isfile(a.book):
        fail("no book at %s (--book)" % a.book)
    out = os.path.abspath(a.out or os.path.join(ROOT, "build", "learning-bench", a.mode))
    os.makedirs(out, exist_ok=True)
    # The engine does not carry its commit: name the tree's, which is the engine's only
    # when it was built from it (a copied engine may be older).
    print("learning-bench %s: engine %s, source tree at %s, out %s" % (
        a.mode, a.engine, subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                         capture_output=True, text=True).stdout.strip(), out))
    {"repeated": repeated, "book": book, "cost": cost}[a.mode](a, out)


if __name__ == "__main__":
    main()
