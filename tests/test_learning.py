#!/usr/bin/env python3
"""Learning tests (docs/learning-format.md): game records in UCI and xboard, position
learning that makes a fresh process find the learned move sooner, damaged files, and two
engine processes writing one learning file at once.

usage: python3 tests/test_learning.py ENGINE
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
"""
import os
import re
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testkit  # noqa: E402
from enginepipe import EnginePipe, info_score  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TMP = testkit.temp_dir("learning")

# A WAC position (Black to move) where the search changes its mind often; after two
# moves each that bring the board back to it, a depth-12 search picks 1...Rf1+, which a
# search without learning shows first at depth 12. That is the hand-written evaluation's
# search (the net's sees the move at once), so these tests play with it: what they test,
# learned positions in the hash table, is the same with either evaluation.
HCE = ("Use NNUE", "false")
TACTIC = "7Q/ppp2q2/3p2k1/P2Ppr1N/1PP5/7R/5rP1/6K1 b - - 0 1"
DANCE = ["f2e2", "g1h1", "e2f2", "h1g1"]
TACTIC_AGAIN = "fen %s moves %s" % (TACTIC, " ".join(DANCE))


class Uci(EnginePipe):
    def __init__(self, learn_file, *options):
        super().__init__(ENGINE)
        self.send("uci")
        self.expect(lambda l: l == "uciok", 60.0)
        self.send("setoption name LearningFile value " + learn_file)
        # Searched games: book moves (tests/test_book.py) are not searches the learner sees.
        self.send("setoption name OwnBook value false")
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.sync()

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 60.0)

    def search(self, position, limit):
        self.send("position " + position)
        self.send("go " + limit)
        return self.expect(lambda l: l.startswith("bestmove"), 120.0)


class Xboard(EnginePipe):
    def __init__(self, learn_file, *options):
        super().__init__(ENGINE)
        self.send("xboard")
        self.send("protover 2")
        self.expect(lambda l: "done=1" in l, 60.0)
        self.send("option LearningFile=" + learn_file)
        for name, value in options:
            self.send("option %s=%s" % (name, value))


def path(name):
    return os.path.join(TMP, name)


def dump(learn_file):
    out = subprocess.run([ENGINE, "learn", learn_file], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def summary(learn_file):
    first = dump(learn_file).splitlines()[0]
    m = re.search(r"(\w[\w ]*): (\d+) positions, (\d+) games, (\d+) book results", first)
    assert m, first
    return m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))


def new_game(learn_file, *options):
    """An engine on learn_file told that a new game starts."""
    e = Uci(learn_file, *options)
    e.send("ucinewgame")
    return e


def test_uci_mate_recorded_on_ucinewgame():
    f = path("uci-mate.lrn")
    e = new_game(f)
    # Fool's mate: the engine plays Black's moves.
    e.search("startpos moves f2f3", "depth 2")
    e.search("startpos moves f2f3 e7e5 g2g4", "depth 3")
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4")
    e.send("ucinewgame")
    e.sync()
    text = dump(f)
    assert '[Result "0-1"]' in text and '[Black "Saavedra"]' in text, text
    assert "1. f3 e5 2. g4 Qh4# 0-1" in text, text
    # quit ends a game too; a game the engine never searched in is not recorded.
    e.search("startpos moves e2e4 e7e5 g1f3", "depth 2")
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 e4d5 f6d5 g5f7 e8f7 d1f3 f7e6 "
           "b1c3 c6b4 a2a3 b4c2 e1d1 c2a1 c3d5 d8d5 c4d5 e6d6 d5g8 h8g8")
    e.send("quit")
    e.close()
    status, positions, games, books = summary(f)
    assert games == 2, dump(f)
    assert '[Result "*"]' in dump(f), "an undecided game at quit is recorded as '*'"
    e = Uci(f)
    e.send("position startpos moves e2e4")
    e.send("ucinewgame")
    e.send("quit")
    e.close()
    assert summary(f)[2] == 2, "a game without an own search was recorded"


def test_uci_result_from_scores():
    # Queen up, ending not on the board: the last two own scores decide (a win).
    f = path("uci-scores.lrn")
    e = new_game(f)
    fen = "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"
    e.search("fen " + fen, "depth 6")
    e.search("fen %s moves a1a7 e8d8" % fen, "depth 6")
    e.send("ucinewgame")
    e.sync()
    e.close()
    text = dump(f)
    assert '[Result "1-0"]' in text and '[White "Saavedra"]' in text, text


def fools_mate_game(learn_file, engine_side):
    """Fool's mate with the engine searching for one side (the GUI plays the moves)."""
    e = new_game(learn_file)
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    for ply in range(4):
        if (ply % 2 == 0) == (engine_side == "white"):
            e.search("startpos moves " + " ".join(moves[:ply]), "depth 2")
    e.send("position startpos moves " + " ".join(moves))
    e.send("ucinewgame")
    e.sync()
    e.close()


def test_result_learning_replays_wins_and_counts_losses_less():
    won, lost = path("results-won.lrn"), path("results-lost.lrn")
    fools_mate_game(won, "black")
    fools_mate_game(won, "black")  # two wins: evidence enough to replay (docs/learning.md)
    fools_mate_game(lost, "white")
    on = [("Learning Results", "true")]
    clock = "wtime 60000 btime 60000"
    replay = [("Replay Without Book", "true")]  # these engines play with OwnBook off
    # Off: searched as ever, no word of it.
    e = new_game(won, ("Learning Results", "false"), *replay)
    lines = e.search("startpos moves f2f3", clock)
    assert not any("learning file" in l for l in lines), lines
    e.close()
    # On (the default): the move that won is played again at once, in a game on a clock
    # only (not in analysis).
    e = new_game(won, *replay)
    lines = e.search("startpos moves f2f3", clock)
    assert lines[-1].split()[1] == "e7e5", lines
    assert "info string book move e7e5: from the learning file: won 2, drew 0, lost 0 games here" in lines, lines
    e.send("setoption name UCI_AnalyseMode value true")
    lines = e.search("startpos moves f2f3", clock)
    assert not any("learning file" in l for l in lines), lines
    e.close()
    # On: the moves that lost count less, and the engine says so.
    e = new_game(lost, *on)
    lines = e.search("startpos", "depth 3")
    assert lines[-1].split()[1] != "f2f3", lines
    assert "info string learned: f2f3 counts 50 cp less (won 0, drew 0, lost 1 games here)" in lines, lines
    lines = e.search("startpos moves f2f3 e7e5", "depth 3")
    assert lines[-1].split()[1] != "g2g4" and any("g2g4 counts 50 cp less" in l for l in lines), lines
    e.close()


def xboard_game_lost(learn_file, fen, depth):
    """A game in which the engine, White, plays one searched move from fen (the start
    position when None) and then resigns; returns that move."""
    e = Xboard(learn_file, ("OwnBook", "0"))
    e.send("new")
    e.send("force")
    if fen:
        e.send("setboard " + fen)
    e.send("sd %d" % depth)
    e.send("go")
    move = e.expect(lambda l: l.startswith("move "), 60.0)[-1].split()[1]
    e.send("result 0-1 {White resigns}")
    e.send("ping 1")
    e.expect(lambda l: l == "pong 1", 30.0)
    e.send("quit")
    e.close()
    return move


def test_result_learning_turns_from_a_lost_move_only_when_another_is_as_good():
    on = [("Learning Results", "true")]
    # From the start position several moves score alike: the one that lost gives way.
    f = path("results-opening.lrn")
    first = xboard_game_lost(f, None, 6)
    e = new_game(f, *on)
    lines = e.search("startpos", "depth 6")
    assert "info string learned: %s counts 50 cp less (won 0, drew 0, lost 1 games here)" % first in lines, lines
    assert lines[-1].split()[1] != first, (first, lines)
    e.close()
    # Taking a free queen lost once: still far the best move, and played again.
    f = path("results-queen.lrn")
    fen = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"
    first = xboard_game_lost(f, fen, 6)
    assert first == "e4d5", first
    e = new_game(f, *on)
    lines = e.search("fen " + fen, "depth 6")
    assert any(l.startswith("info string learned: e4d5 counts 50 cp less") for l in lines), lines
    assert lines[-1].split()[1] == "e4d5", lines
    e.close()


def test_xboard_result_recorded():
    f = path("xboard.lrn")
    e = Xboard(f, ("OwnBook", "0"))
    e.send("new")
    e.send("force")
    for m in ["e2e4", "e7e5", "d2d4"]:
        e.send(m)
    e.send("go")
    e.expect(lambda l: l.startswith("move "), 60.0)
    e.send("result 1/2-1/2 {agreed}")
    e.send("ping 7")
    e.expect(lambda l: l == "pong 7", 30.0)
    e.send("quit")
    e.close()
    text = dump(f)
    assert '[Result "1/2-1/2"]' in text and '[Black "Saavedra"]' in text, text
    assert "1. e4 e5 2. d4" in text, text


def found_at(lines, move):
    """The first depth whose complete iteration has move as its best (None if none)."""
    for line in lines:
        m = re.match(r"info depth (\d+) .*multipv 1 .* pv (\S+)", line)
        if m and "bound" not in line and m.group(2) == move:
            return int(m.group(1))
    return None


def scores(lines):
    """The reported scores of a search in centipawns, a mate counting as 100,000."""
    found = [info_score(line) for line in lines]
    return [value if kind == "cp" else 100000 * (1 if value > 0 else -1) for kind, value in filter(None, found)]


def tactic_game(learn_file, threshold):
    """A game in which an own search of TACTIC expects little (depth 1) and the next own
    one, two plies later, finds the win (depth 12). Returns that search's output and how
    far its scores moved from the first one's at most."""
    e = new_game(learn_file, ("Learning Threshold", threshold), HCE)
    first = e.search("fen %s moves %s" % (TACTIC, " ".join(DANCE[:2])), "depth 1")
    lines = e.search(TACTIC_AGAIN, "depth 12")
    e.send("quit")
    e.close()
    expected = scores(first)[-1]
    return lines, max(abs(score - expected) for score in scores(lines))


def test_learned_position_found_sooner():
    f = path("positions.lrn")
    lines, change = tactic_game(f, "10")
    move = lines[-1].split()[1]
    status, positions, games, books = summary(f)
    assert positions == 2, dump(f)  # the position and the one after its best move
    # A fresh process, with and without the file.
    with_file = Uci(f, HCE)
    with_lines = with_file.search(TACTIC_AGAIN, "depth 12")
    learned = found_at(with_lines, move)
    with_file.close()
    without = Uci(path("none.lrn"), ("Learning", "false"), HCE)
    plain_lines = without.search(TACTIC_AGAIN, "depth 12")
    plain = found_at(plain_lines, move)
    without.close()
    # The search says how often it met a learned entry, and only when it did.
    hits = [l for l in with_lines if l.startswith("info string learned positions hit")]
    assert len(hits) == 1 and int(hits[0].split()[5]) > 0, with_lines[-3:]
    assert not any("learned positions hit" in l for l in plain_lines), plain_lines[-3:]
    print("     learned move %s found at depth %s with the file, %s without" % (move, learned, plain))
    assert learned is not None and plain is not None and learned < plain, (learned, plain)
    # A threshold above the score change learns nothing; the largest threshold still
    # learns a change beyond it (the search may find a mate here).
    g = path("positions-high.lrn")
    tactic_game(g, str(min(change, 2000)))
    assert summary(g)[1] == (0 if change <= 2000 else 2), dump(g)


def test_damaged_file_set_aside_with_one_warning():
    f = path("damaged.lrn")
    with open(f, "wb") as out:
        out.write(b"SAAVLRN\x1a" + os.urandom(2992))
    e = new_game(f)
    lines = e.sync()
    warnings = [l for l in lines if l.startswith("info string") and "set aside" in l]
    assert len(warnings) == 1, lines
    e.search("startpos", "depth 3")  # plays on
    e.send("quit")
    e.close()
    aside = [n for n in os.listdir(TMP) if n.startswith("damaged.lrn.bad-")]
    assert len(aside) == 1 and os.path.getsize(os.path.join(TMP, aside[0])) == 3000, aside
    assert summary(f)[0] == "intact"


def test_other_file_refused_with_one_warning_and_kept():
    f = path("engine-copy.rc")
    content = b"# not a learning file\nhash = 16\n" + os.urandom(500)
    with open(f, "wb") as out:
        out.write(content)
    e = Uci(f)
    warnings = []
    for game in range(2):
        e.send("ucinewgame")
        warnings += [l for l in e.sync() if l.startswith("info string") and "learn" in l]
        e.search("startpos moves e2e4", "depth 2")
        e.send("position startpos moves e2e4 e7e5 g1f3")
        e.send("ucinewgame")
        warnings += [l for l in e.sync() if l.startswith("info string") and "learn" in l]
    e.send("quit")
    e.close()
    assert len(warnings) == 1 and "not a Saavedra learning file" in warnings[0], warnings
    with open(f, "rb") as got:
        assert got.read() == content
    assert not [n for n in os.listdir(TMP) if n.startswith("engine-copy.rc.")], os.listdir(TMP)


def test_game_saved_when_the_gui_closes_our_output():
    """A GUI that dies (or closes its end of our output) mid-game: the next write fails;
    that is the end of the session, and the game is saved, not lost to SIGPIPE."""
    f = path("gui-died.lrn")
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    p.stdin.write("uci\nsetoption name LearningFile value %s\nsetoption name OwnBook value false\n" % f)
    p.stdin.write("ucinewgame\nposition startpos moves e2e4\ngo depth 3\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("bestmove"):
            break
    p.stdout.close()
    # Input stays open: only the failed write tells the engine the GUI is gone.
    p.stdin.write("position startpos moves e2e4 e7e5 g1f3\nisready\nisready\n")
    p.stdin.flush()
    try:
        status = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        raise AssertionError("the engine went on after its output was closed")
    p.stdin.close()
    assert status == 0, "exit status %d" % status
    assert summary(f)[2] == 1, dump(f)


def test_unwritable_file_warns_once_and_plays_on():
    f = path("no-such-dir/learn.lrn")
    e = Uci(f)
    warnings = []
    for game in range(3):
        e.send("ucinewgame")
        e.search("startpos moves e2e4", "depth 2")
        e.send("position startpos moves e2e4 e7e5 g1f3")
        e.send("ucinewgame")
        warnings += [l for l in e.sync() if l.startswith("info string") and "learn" in l]
    e.send("quit")
    e.close()
    assert len(warnings) == 1 and "cannot open" in warnings[0], warnings


def book_lines(e):
    """The `bk` answer for the current position: {san: (weight, games)}."""
    e.send("bk")
    e.send("ping 3")
    lines = e.expect(lambda l: l == "pong 3", 30.0)
    moves = {}
    for line in lines:
        m = re.match(r" (\S+) weight (\d+)(?:, (\d+) games)?", line)
        if m:
            moves[m.group(1)] = (int(m.group(2)), int(m.group(3) or 0))
    return moves


def book_game(f, result):
    """One xboard game from the start position in which the engine (White) plays its book
    move at Book Variety 0 (the heaviest) and then gets result. Returns the move and the
    book as `bk` shows it afterwards (after `new`, which reloads the learning file)."""
    e = Xboard(f, ("Book Variety", "0"))
    e.send("new")
    e.send("go")
    move = e.expect(lambda l: l.startswith("move "), 60.0)[-1].split()[1]
    e.send("result " + result)
    e.send("new")
    after = book_lines(e)
    e.send("quit")
    e.close()
    return move, after


def test_book_move_that_loses_is_played_less():
    f = path("book.lrn")
    e = Xboard(f)
    e.send("new")
    before = book_lines(e)
    e.send("quit")
    e.close()
    assert len(before) >= 2, "no book with two start moves: %s" % before
    top = max(before, key=lambda k: before[k][0])
    move, after = book_game(f, "0-1")
    assert before[top][0] > 0 and top in after, (top, before, after)
    # One loss: the weight halves ((0 + 1) / (1 + 1)) and the games count grows by one.
    assert after[top][0] == (before[top][0] + 1) // 2 and after[top][1] == before[top][1] + 1, \
        (top, before[top], after[top])
    runner_up = max(w for k, (w, g) in before.items() if k != top)
    if runner_up > after[top][0]:
        second, _ = book_game(f, "0-1")
        assert second != move, "the move that lost is still the heaviest: %s" % second
    # Wins raise a move: two wins for the same first move of another file.
    g = path("book-won.lrn")
    move, after = book_game(g, "1-0")
    move, after = book_game(g, "1-0")
    assert after[top][0] == before[top][0] * 3 and after[top][1] == before[top][1] + 2, (before[top], after[top])


def test_installed_engine_learns_in_user_data_dir():
    # An engine whose folder the user cannot write (make install): the learning file goes
    # to $XDG_DATA_HOME/saavedra (here ~/.local/share/saavedra), never the working directory.
    if os.geteuid() != 0 or not shutil.which("runuser"):
        print("     (skipped: needs root and runuser to run the engine as another user)")
        return
    ro, home = path("installed"), path("home")
    os.makedirs(ro)
    os.makedirs(home)
    shutil.copy(ENGINE, ro)
    os.chmod(ro, 0o755)
    os.chmod(TMP, 0o755)
    shutil.chown(home, "nobody")
    script = ("uci\nsetoption name OwnBook value false\nucinewgame\nposition startpos moves e2e4\ngo depth 2\n"
              "isready\nposition startpos moves e2e4 e7e5 g1f3\nucinewgame\nisready\nquit\n")
    # runuser resets HOME to the user's own: set it after.
    out = subprocess.run(["runuser", "-u", "nobody", "--", "env", "HOME=" + home, "XDG_DATA_HOME=",
                          os.path.join(ro, os.path.basename(ENGINE))],
                         input=script, capture_output=True, text=True, timeout=120, cwd=home)
    assert "bestmove" in out.stdout, out.stdout + out.stderr
    f = os.path.join(home, ".local", "share", "saavedra", "saavedra.lrn")
    assert os.path.isfile(f), os.listdir(home)
    assert summary(f)[2] == 1, dump(f)
    assert not [n for n in os.listdir(ro) if n.endswith(".lrn")], os.listdir(ro)


def play_games(learn_file, count, seed, failures):
    try:
        e = Uci(learn_file)
        for i in range(count):
            e.send("ucinewgame")
            moves = []
            for ply in range(6):
                line = e.search("startpos moves " + " ".join(moves) if moves else "startpos", "nodes %d" % (200 + seed * 31 + i * 7 + ply))
                moves.append(line[-1].split()[1])
            e.send("position startpos moves " + " ".join(moves))
        e.send("ucinewgame")
        e.send("quit")
        e.close()
    except Exception as exc:  # noqa: BLE001
        failures.append(exc)


def test_a_lock_held_elsewhere_does_not_hang_the_engine():
    # Another process holding the file's lock (stopped, or compacting a large file) costs
    # a bounded wait and one warning; isready is still answered and the game plays on.
    import fcntl
    import time
    f = path("held.lrn")
    e = Uci(f)
    e.search("startpos moves e2e4", "depth 2")
    e.send("ucinewgame")  # the game is written: the file exists
    e.sync()
    with open(f, "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        start = time.time()
        e.send("ucinewgame")
        lines = e.sync()
        waited = time.time() - start
        e.search("startpos", "depth 3")
    assert waited < 5 * max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1"))), waited
    assert any(l.startswith("info string") and "locked" in l for l in lines), lines
    e.send("quit")
    e.close()


def test_two_engines_share_one_file():
    f = path("shared.lrn")
    failures = []
    games = 25
    threads = [threading.Thread(target=play_games, args=(f, games, s, failures)) for s in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    status, positions, recorded, books = summary(f)
    assert status == "intact", status
    assert recorded == 2 * games, (recorded, 2 * games)


for t in [test_uci_mate_recorded_on_ucinewgame, test_uci_result_from_scores, test_xboard_result_recorded,
          test_result_learning_replays_wins_and_counts_losses_less,
          test_result_learning_turns_from_a_lost_move_only_when_another_is_as_good,
          test_learned_position_found_sooner, test_damaged_file_set_aside_with_one_warning,
          test_other_file_refused_with_one_warning_and_kept, test_game_saved_when_the_gui_closes_our_output,
          test_unwritable_file_warns_once_and_plays_on, test_book_move_that_loses_is_played_less,
          test_installed_engine_learns_in_user_data_dir, test_a_lock_held_elsewhere_does_not_hang_the_engine,
          test_two_engines_share_one_file]:
    testkit.test(t)
testkit.finish()
