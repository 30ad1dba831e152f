#!/usr/bin/env python3
"""Opening-book play over both protocols: book moves from the start position until the
book ends, bk, the searches that never use the book, damaged and missing books, book
files found beside the executable, Polyglot books.

usage: python3 tests/test_book.py ENGINE
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginepipe import EnginePipe  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "book", "book.bin")
POLYGLOT = os.path.join(ROOT, "tests", "data", "book", "nakamura-polyglot-p12.bin")
TIME_SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))
results = []
# A game move on a clock, the only search a book answers, that thinks briefly once out of book.
QUICK_CLOCK = "go wtime 3000 btime 3000"


class Uci(EnginePipe):
    def __init__(self, engine=ENGINE, cwd=None):
        EnginePipe.__init__(self, engine) if cwd is None else self._start(engine, cwd)
        self.send("uci")
        self.expect(lambda l: l == "uciok", 60.0)

    def _start(self, engine, cwd):
        old = os.getcwd()
        os.chdir(cwd)
        try:
            EnginePipe.__init__(self, engine)
        finally:
            os.chdir(old)

    def go(self, command="go wtime 60000 btime 60000"):
        self.send(command)
        return self.expect(lambda l: l.startswith("bestmove"), 30.0 * TIME_SCALE)

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 10.0 * TIME_SCALE)


class Xboard(EnginePipe):
    def __init__(self):
        EnginePipe.__init__(self, ENGINE, merge_stderr=False)
        self.send("xboard")
        self.send("protover 2")
        self.features = self.expect(lambda l: l == "feature done=1", 60.0)

    def ping(self, n):
        self.send("ping %d" % n)
        return self.expect(lambda l: l == "pong %d" % n, 30.0 * TIME_SCALE)

    def bk(self):
        self.send("bk")
        return self.expect(lambda l: l == "", 10.0 * TIME_SCALE)


def test(fn):
    try:
        fn()
        results.append(True)
        print("ok   %s" % fn.__name__)
    except Exception as exc:  # noqa: BLE001 - a failed check or a time-out
        results.append(False)
        print("FAIL %s: %s: %s" % (fn.__name__, type(exc).__name__, exc))
    return fn


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def bestmove(lines):
    return lines[-1].split()[1]


def book_lines(lines):
    return [l for l in lines if l.startswith("info string book move")]


@test
def uci_plays_the_book_then_searches():
    """Self-play from the start position: book moves (each announced with its weight and
    games), then the book ends and the search takes over. Variety 0 follows the main line,
    which is at least 4 plies long (with variety a rare move may leave the book at once)."""
    with Uci() as e:
        e.send("setoption name Book Variety value 0")
        moves, book_plies = [], 0
        for ply in range(60):
            e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
            lines = e.go(QUICK_CLOCK)
            announced = book_lines(lines)
            searched = [l for l in lines if l.startswith("info depth")]
            move = bestmove(lines)
            check(re.match(r"^[a-h][1-8][a-h][1-8][nbrq]?$", move), "bestmove %r" % move)
            if not announced:
                check(searched, "ply %d: neither a book move nor a search: %s" % (ply, lines))
                break
            check(not searched, "ply %d: book move after a search: %s" % (ply, lines))
            check(len(announced) == 1 and announced[0].startswith("info string book move %s: " % move)
                  and re.search(r"weight \d+", announced[0]), "ply %d: %s" % (ply, announced))
            book_plies += 1
            moves.append(move)
        check(book_plies >= 4, "only %d book plies: %s" % (book_plies, moves))
        check(book_plies <= 40, "book beyond Book Depth 40: %d plies" % book_plies)


@test
def uci_book_depth_and_options():
    with Uci() as e:
        e.send("uci")
        opts = e.expect(lambda l: l == "uciok")
        for want in ["option name OwnBook type check default true",
                     "option name BookFile type string default book.bin",
                     "option name Book Variety type spin default 50 min 0 max 100",
                     "option name Book Depth type spin default 40 min 0 max 1000"]:
            check(want in opts, "missing %r" % want)
        e.send("setoption name Book Depth value 2")
        e.send("position startpos moves e2e4 e7e5")
        lines = e.go(QUICK_CLOCK)
        check(not book_lines(lines), "book used past Book Depth: %s" % lines)
        e.send("setoption name Book Depth value 40")
        e.send("setoption name OwnBook value false")
        e.send("position startpos")
        check(not book_lines(e.go(QUICK_CLOCK)), "book used with OwnBook off")


@test
def uci_variety_zero_always_gives_the_top_move():
    with Uci() as e:
        e.send("setoption name Book Variety value 0")
        seen = set()
        for _ in range(5):
            e.send("position startpos")
            lines = e.go()
            check(book_lines(lines), "no book move: %s" % lines)
            seen.add(bestmove(lines))
        check(len(seen) == 1, "variety 0 gave %s" % seen)


@test
def uci_no_book_in_analysis_infinite_ponder_searchmoves():
    with Uci() as e:
        for setup, command in [("", "go infinite"), ("", "go ponder wtime 10000 btime 10000"),
                               ("", "go searchmoves e2e4 d2d4 wtime 6000 btime 6000"),
                               ("setoption name UCI_AnalyseMode value true", QUICK_CLOCK)]:
            if setup:
                e.send(setup)
            e.send("position startpos")
            e.send(command)
            if "infinite" in command or "ponder" in command:
                got = e.expect(lambda l: l.startswith("info depth 3"), 20.0 * TIME_SCALE)
                e.send("stop")
                got += e.expect(lambda l: l.startswith("bestmove"), 10.0 * TIME_SCALE)
            else:
                got = e.expect(lambda l: l.startswith("bestmove"), 30.0 * TIME_SCALE)
            check(not book_lines(got), "%s: book used: %s" % (command, got))
            check(any(l.startswith("info depth") for l in got), "%s: no search" % command)
            if "searchmoves" in command:
                check(bestmove(got) in ("e2e4", "d2d4"), "searchmoves ignored: %s" % got[-1])


def damaged_copies(d):
    with open(SHIPPED, "rb") as f:
        data = f.read()
    files = {}
    for name, content in [("cut.bin", data[:len(data) // 2]), ("header.bin", data[:40]),
                          ("flipped.bin", data[:1000] + bytes([data[1000] ^ 1]) + data[1001:]),
                          ("random.bin", os.urandom(12345)), ("empty.bin", b"")]:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(content)
        files[name] = path
    files["missing.bin"] = os.path.join(d, "missing.bin")
    files["directory"] = d
    return files


@test
def uci_damaged_or_missing_book_warns_once_and_plays_on():
    with tempfile.TemporaryDirectory() as d:
        for name, path in damaged_copies(d).items():
            with Uci() as e:
                e.send("setoption name BookFile value " + path)
                lines = e.sync()
                warnings = [l for l in lines if l.startswith("info string warning")]
                check(len(warnings) == 1, "%s: warnings %s" % (name, lines))
                for _ in range(2):
                    e.send("position startpos")
                    lines = e.go(QUICK_CLOCK)
                    check(not book_lines(lines) and any(l.startswith("info depth") for l in lines),
                          "%s: %s" % (name, lines))
                    check(not any("warning" in l for l in lines), "%s: warned again: %s" % (name, lines))


@test
def uci_default_book_missing_warns_once():
    """An engine copied away from its book: the first go warns, naming the place beside
    the executable (not the working directory), and the engine searches."""
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "saavedra")
        shutil.copy(ENGINE, exe)
        with Uci(exe, cwd=ROOT) as e:
            e.send("position startpos")
            lines = e.go(QUICK_CLOCK)
            warnings = [l for l in lines if "warning" in l]
            check(len(warnings) == 1 and os.path.join(d, "book.bin") in warnings[0], "%s" % lines)
            check(any(l.startswith("info depth") for l in lines), "no search")
            lines = e.go(QUICK_CLOCK)
            check(not any("warning" in l for l in lines), "warned twice")
        # Beside the executable, the book is found from any working directory.
        shutil.copy(SHIPPED, os.path.join(d, "book.bin"))
        with Uci(exe, cwd="/") as e:
            e.send("position startpos")
            check(book_lines(e.go()), "book beside the executable not used")


@test
def uci_polyglot_book():
    with Uci() as e:
        e.send("setoption name BookFile value " + POLYGLOT)
        check(not any("warning" in l for l in e.sync()), "Polyglot book refused")
        e.send("position startpos")
        lines = e.go()
        check(book_lines(lines), "no Polyglot book move: %s" % lines)
        check(re.search(r"weight \d+$", book_lines(lines)[0]), "weight not shown: %s" % lines)


@test
def xboard_plays_the_book_then_leaves_it():
    with Xboard() as e:
        lines = e.bk()
        check(any(re.match(r"^ e4 weight \d+, \d+ games", l) for l in lines), "bk: %s" % lines)
        e.send("new")
        e.send("post")
        e.send("level 0 1 0")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30.0 * TIME_SCALE)
        book = [l for l in lines if l.startswith("0 0 0 0 (book) ")]
        check(len(book) == 1, "no book thinking line: %s" % lines)
        first = lines[-1].split()[1]
        # An answer the book does not know: the book ends and the engine searches.
        e.send("force")
        e.send("usermove h7h5" if first != "h2h4" else "usermove a7a5")
        after = e.bk()
        check(any("no book moves" in l for l in after), "still in book: %s" % after)
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30.0 * TIME_SCALE)
        check(not any("(book)" in l for l in lines), "book after it ended: %s" % lines)
        check(any(re.match(r"^\d+ -?\d+ \d+ \d+ ", l) and not l.startswith("0 0 0 0") for l in lines),
              "no search output: %s" % lines)


@test
def xboard_damaged_book_and_options():
    with Xboard() as e:
        for opt in ['feature option="OwnBook -check 1"', 'feature option="BookFile -file book.bin"',
                    'feature option="Book Variety -spin 50 0 100"', 'feature option="Book Depth -spin 40 0 1000"']:
            check(any(opt in l for l in e.features), "missing %s" % opt)
        with tempfile.TemporaryDirectory() as d:
            bad = damaged_copies(d)["random.bin"]
            e.send("option BookFile=" + bad)
            lines = e.ping(1)
            check(len([l for l in lines if "warning" in l]) == 1, "%s" % lines)
            check(any(" warning" in l or "no book moves" in l for l in e.bk()), "bk with a bad book")
            e.send("new")
            e.send("level 0 1 0")
            e.send("go")
            lines = e.expect(lambda l: l.startswith("move "), 30.0 * TIME_SCALE)
            check(not any("(book)" in l for l in lines), "%s" % lines)


passed = sum(results)
failed = len(results) - passed
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
