#!/usr/bin/env python3
"""A search when one is asked for: the book and learned replays answer only a game move
on a clock, over both protocols. Depth, nodes, mate, movetime, searchmoves (UCI) and sd,
st, analyze (xboard) always search; with OwnBook off no move comes from the learning
file without a search unless Replay Without Book is on; a learned win is replayed only
with the evidence docs/learning.md names (one won game is not enough).

usage: python3 tests/test_asked_search.py ENGINE
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testkit  # noqa: E402
from enginepipe import EnginePipe  # noqa: E402
from testkit import check, test  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
TIME_SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))
TMP = testkit.temp_dir("asked-search")
CLOCK = "go wtime 60000 btime 60000"
THINKING = re.compile(r"^\s*\d+\s+-?\d+\s+\d+\s+\d+\s")


class Uci(EnginePipe):
    def __init__(self, learn_file, *options):
        super().__init__(ENGINE)
        self.send("uci")
        self.options = self.expect(lambda l: l == "uciok", 60.0)
        self.send("setoption name LearningFile value " + learn_file)
        for name, value in options:
            self.send("setoption name %s value %s" % (name, value))
        self.sync()

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 30.0 * TIME_SCALE)

    def go(self, position, command):
        self.send("position " + position)
        self.send(command)
        return self.expect(lambda l: l.startswith("bestmove"), 60.0 * TIME_SCALE)


class Xboard(EnginePipe):
    def __init__(self, learn_file, *options):
        super().__init__(ENGINE, merge_stderr=False)
        self.send("xboard")
        self.send("protover 2")
        self.features = self.expect(lambda l: l == "feature done=1", 60.0)
        self.send("option LearningFile=" + learn_file)
        for name, value in options:
            self.send("option %s=%s" % (name, value))

    def move(self):
        return self.expect(lambda l: l.startswith("move "), 60.0 * TIME_SCALE)


def path(name):
    return os.path.join(TMP, name)


def searched(lines):
    return any(l.startswith("info depth") for l in lines)


def answered_without_search(lines):
    return [l for l in lines if l.startswith("info string book move")]


def fools_mate_won_as_black(learn_file, games):
    """games won by the engine as Black with Fool's mate (the GUI plays the moves; the
    engine searches Black's), recorded in learn_file."""
    for _ in range(games):
        e = Uci(learn_file, ("OwnBook", "false"))
        e.send("ucinewgame")
        e.go("startpos moves f2f3", "go depth 2")
        e.go("startpos moves f2f3 e7e5 g2g4", "go depth 2")
        e.send("position startpos moves f2f3 e7e5 g2g4 d8h4")
        e.send("ucinewgame")
        e.sync()
        e.close()


ONE_WIN, TWO_WINS = path("one-win.lrn"), path("two-wins.lrn")
fools_mate_won_as_black(ONE_WIN, 1)
fools_mate_won_as_black(TWO_WINS, 2)
AFTER_F3 = "startpos moves f2f3"
REPLAY_LINE = "info string book move e7e5: from the learning file: won 2, drew 0, lost 0 games here"


@test
def uci_limits_other_than_a_clock_search_and_skip_the_book():
    with Uci(path("book.lrn")) as e:
        for command in ["go depth 3", "go nodes 20000", "go movetime 200",
                        "go depth 3 wtime 60000 btime 60000", "go nodes 20000 wtime 60000 btime 60000",
                        "go movetime 200 wtime 60000 btime 60000",
                        "go wtime 60000 btime 60000 searchmoves e2e4 d2d4"]:
            lines = e.go("startpos", command)
            check(searched(lines) and not answered_without_search(lines), "%s: %s" % (command, lines[-4:]))
        lines = e.go("startpos moves f2f3 e7e5 g2g4", "go mate 1 wtime 60000 btime 60000")
        check(searched(lines) and lines[-1].split()[1] == "d8h4", "mate: %s" % lines[-4:])
        # A plain clock search is a game move: the book answers it as ever.
        lines = e.go("startpos", CLOCK)
        check(answered_without_search(lines) and not searched(lines), "clock search: %s" % lines[-4:])


@test
def uci_one_won_game_is_not_replayed():
    with Uci(ONE_WIN, ("BookFile", "<empty>")) as e:
        lines = e.go(AFTER_F3, CLOCK)
        check(searched(lines) and not answered_without_search(lines), lines[-4:])


@test
def uci_replay_needs_the_book_or_its_own_option():
    with Uci(TWO_WINS, ("BookFile", "<empty>")) as e:
        check("option name Replay Without Book type check default false" in e.options, "option not shown")
        lines = e.go(AFTER_F3, CLOCK)
        check(REPLAY_LINE in lines and lines[-1].split()[1] == "e7e5", "OwnBook on: %s" % lines[-4:])
        for command in ["go depth 2", "go nodes 5000", "go movetime 100"]:
            lines = e.go(AFTER_F3, command)
            check(searched(lines) and not answered_without_search(lines), "%s: %s" % (command, lines[-4:]))
    with Uci(TWO_WINS, ("OwnBook", "false")) as e:
        lines = e.go(AFTER_F3, CLOCK)
        check(searched(lines) and not answered_without_search(lines), "OwnBook off: %s" % lines[-4:])
        e.send("setoption name Replay Without Book value true")
        lines = e.go(AFTER_F3, CLOCK)
        check(REPLAY_LINE in lines, "Replay Without Book: %s" % lines[-4:])
        lines = e.go(AFTER_F3, "go depth 2")
        check(searched(lines) and not answered_without_search(lines), "depth: %s" % lines[-4:])


def xboard_book_lines(lines):
    return [l for l in lines if "(book)" in l]


@test
def xboard_sd_st_and_analyze_search():
    with Xboard(path("xbook.lrn")) as e:
        check(any("Replay Without Book -check 0" in l for l in e.features), "option not a feature")
        for setup in [["sd 3", "level 0 1 0"], ["st 1"]]:
            e.send("new")
            e.send("post")
            for command in setup:
                e.send(command)
            e.send("go")
            lines = e.move()
            check(not xboard_book_lines(lines) and any(THINKING.match(l) for l in lines),
                  "%s: %s" % (setup, lines[-4:]))
        e.send("new")
        e.send("post")
        e.send("analyze")
        lines = e.expect(lambda l: THINKING.match(l) is not None, 20.0 * TIME_SCALE)
        check(not xboard_book_lines(lines), "analyze: %s" % lines)
        e.send("exit")
        # A game on a clock: the book answers.
        e.send("new")
        e.send("post")
        e.send("level 0 1 0")
        e.send("go")
        lines = e.move()
        check(xboard_book_lines(lines), "clock: %s" % lines[-4:])


@test
def xboard_learned_replay_with_ownbook_off_needs_its_option():
    def black_after_f3(e, *limits):
        e.send("new")
        e.send("post")
        e.send("force")
        e.send("usermove f2f3")
        e.send("level 0 1 0")
        for command in limits:
            e.send(command)
        e.send("go")
        return e.move()
    with Xboard(TWO_WINS, ("OwnBook", "0")) as e:
        lines = black_after_f3(e)
        check(not xboard_book_lines(lines) and any(THINKING.match(l) for l in lines), lines[-4:])
        e.send("option Replay Without Book=1")
        lines = black_after_f3(e)
        check(any("(book) from the learning file: won 2" in l for l in lines) and lines[-1] == "move e7e5",
              lines[-4:])
        for limit in ["sd 2", "st 1"]:
            lines = black_after_f3(e, limit)
            check(not xboard_book_lines(lines) and any(THINKING.match(l) for l in lines),
                  "%s: %s" % (limit, lines[-4:]))


testkit.finish()
