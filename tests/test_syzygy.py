#!/usr/bin/env python3
"""Syzygy tablebases over the protocols (UCI, xboard) and from engine.rc, with the 3- and
4-piece tables in tests/data/syzygy.

usage: python3 tests/test_syzygy.py ENGINE
Checks: the options, one `info string` warning for a bad path and a search that still
works, a TB win with tbhits > 0 (KQvKR), reloading without noise, a KQvK game played out
to mate over UCI, searchmoves showing the searched move's own value, xboard's
`egtpath syzygy`, and the engine.rc key. The last line printed
is "N passed, N failed"; the exit status is non-zero on failure.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginepipe import EnginePipe, info_score  # noqa: E402

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
TB_WIN_MIN = 31743          # VALUE_TB_WIN - MAX_PLY: any tablebase win scores above
KQKR = "3k4/8/8/8/8/8/6r1/1QK5 w - - 0 1"   # won for White (Stockfish 15.1 agrees)
results = []


class Engine(EnginePipe):
    """The engine over pipes; stderr is merged so that stray messages are seen too."""

    def __init__(self, *args, xboard=False):
        super().__init__(ENGINE, *args)
        if xboard:
            self.send("xboard")
            self.send("protover 2")
            self.expect(lambda l: l == "feature done=1", 60.0)
        else:
            self.send("uci")
            self.options = self.expect(lambda l: l == "uciok", 60.0)

    def sync(self):
        """Lines before the readyok of an isready (UCI)."""
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 30.0)[:-1]


def test(fn):
    try:
        fn()
        results.append((fn.__name__, True))
        print("ok   %s" % fn.__name__)
    except Exception as exc:  # a failed check or a protocol timeout
        results.append((fn.__name__, False))
        print("FAIL %s: %s: %s" % (fn.__name__, type(exc).__name__, exc))
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def go(e, fen, limit, moves=()):
    """Searches fen (+ moves); returns (last info line with a score, bestmove)."""
    e.send("position fen %s%s" % (fen, " moves " + " ".join(moves) if moves else ""))
    e.send("go " + limit)
    lines = e.expect(lambda l: l.startswith("bestmove"), 30.0)
    infos = [l for l in lines if l.startswith("info depth") and " score " in l]
    return (infos[-1] if infos else ""), lines[-1].split()[1]


def score_of(info):
    score = info_score(info)
    check(score, "no score in %r" % info)
    return score


def tbhits_of(info):
    m = re.search(r" tbhits (\d+)", info)
    check(m, "no tbhits in %r" % info)
    return int(m.group(1))


def is_tb_win(info):
    kind, value = score_of(info)
    return value > 0 if kind == "mate" else value >= TB_WIN_MIN


@test
def uci_options():
    with Engine() as e:
        for line in ["option name SyzygyPath type string default <empty>",
                     "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
                     "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
                     "option name Syzygy50MoveRule type check default true"]:
            check(line in e.options, "missing: %s" % line)


@test
def wrong_path_warns_once_and_searches():
    with Engine() as e:
        e.send("setoption name SyzygyPath value /nonexistent/syzygy")
        lines = e.sync()
        check(len(lines) == 1 and lines[0].startswith("info string ") and "/nonexistent/syzygy" in lines[0],
              "expected one info string naming the path, got %s" % lines)
        info, best = go(e, KQKR, "depth 6")
        check(re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", best), "no move: %s" % best)
        check(tbhits_of(info) == 0 and not is_tb_win(info), "no tables, yet: %s" % info)
        # The same bad path set again: the same single warning, nothing else.
        e.send("setoption name SyzygyPath value /nonexistent/syzygy")
        check(len(e.sync()) == 1, "second warning missing or doubled")


@test
def tables_give_the_win_and_tbhits():
    with Engine() as e:
        # Loading, and reloading (which re-reads the directory), is silent.
        for _ in range(3):
            e.send("setoption name SyzygyPath value %s" % TABLES)
            lines = e.sync()
            check(lines == [], "unexpected output on loading: %s" % lines)
            info, _ = go(e, KQKR, "movetime 200")
        check(is_tb_win(info), "KQvKR not reported as a TB win: %s" % info)
        check(tbhits_of(info) > 0, "tbhits 0: %s" % info)
        # A draw is scored 0 (KRvKP, Stockfish 15.1 agrees).
        info, _ = go(e, "K7/8/8/8/8/8/1pk5/7R w - - 0 1", "depth 8")
        check(score_of(info) == ("cp", 0), "draw not 0: %s" % info)
        # Turning the tables off with the probe limit.
        e.send("setoption name SyzygyProbeLimit value 0")
        info, _ = go(e, KQKR, "depth 4")
        check(tbhits_of(info) == 0 and not is_tb_win(info), "probe limit 0 still probes: %s" % info)


@test
def searchmoves_reports_the_searched_moves_value():
    """With searchmoves, every line shows the searched move's own tablebase value: Qc2+
    hangs the queen (Kxc2 leaves KvK), so it is a draw although the position is won."""
    kqk = "8/8/8/8/8/2k5/8/K2Q4 w - - 0 1"
    with Engine() as e:
        e.send("setoption name SyzygyPath value %s" % TABLES)
        check(e.sync() == [], "tables not loaded silently")
        info, best = go(e, kqk, "depth 6 searchmoves d1c2")
        check(best == "d1c2", "searchmoves not obeyed: %s" % best)
        check(score_of(info) == ("cp", 0), "hanging the queen not scored as a draw: %s" % info)
        info, best = go(e, kqk, "depth 6")
        check(best != "d1c2" and is_tb_win(info), "the won position is not a TB win: %s %s" % (best, info))


@test
def kqk_game_to_mate_over_uci():
    """Saavedra plays both sides from a KQvK position, 40 ms a move; the game must end
    with the defender having no move, after White's move, within the fifty-move rule."""
    fen = "8/8/3k4/8/8/8/8/Q6K w - - 0 1"    # 17 plies to mate with best play
    with Engine() as e:
        e.send("setoption name SyzygyPath value %s" % TABLES)
        check(e.sync() == [], "tables not loaded silently")
        moves = []
        while len(moves) < 60:
            info, best = go(e, fen, "movetime 40", moves)
            if best == "0000":
                break
            moves.append(best)
        check(best == "0000", "no end after %d plies: %s" % (len(moves), " ".join(moves)))
        check(len(moves) % 2 == 1 and len(moves) < 100, "game ended after %d plies" % len(moves))
        check(score_of(info) == ("mate", 0), "final position not reported as mate: %s" % info)


@test
def xboard_egtpath():
    with Engine(xboard=True) as e:
        e.send("egtpath syzygy /nonexistent/syzygy")
        e.send("ping 1")
        lines = e.expect(lambda l: l == "pong 1")
        warnings = [l for l in lines if l.startswith("# warning") and "/nonexistent/syzygy" in l]
        check(len(warnings) == 1 and not any(l.startswith("Error") for l in lines),
              "expected one warning, no Error: %s" % lines)
        e.send("egtpath syzygy %s" % TABLES)
        e.send("ping 2")
        lines = e.expect(lambda l: l == "pong 2")
        check(lines == ["pong 2"], "unexpected output: %s" % lines)
        e.send("force")
        e.send("post")
        e.send("setboard %s" % KQKR)
        e.send("sd 6")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30.0)
        thinking = [l for l in lines if re.match(r"^\d+ -?\d+ \d+ \d+ ", l)]
        check(thinking, "no thinking output: %s" % lines[-5:])
        score = int(thinking[-1].split()[1])
        check(score >= TB_WIN_MIN, "xboard score %d is not a TB win" % score)


@test
def engine_rc_key():
    with tempfile.TemporaryDirectory() as d:
        rc = os.path.join(d, "tb.rc")
        with open(rc, "w") as f:
            f.write("syzygy_path = %s\nsyzygy_probe_depth = 2\n" % TABLES)
        with Engine("-rc", rc) as e:
            check("option name SyzygyProbeDepth type spin default 2 min 1 max 100" in e.options,
                  "rc value not applied")
            info, _ = go(e, KQKR, "depth 4")
            check(is_tb_win(info), "tables from engine.rc not used: %s" % info)
        with open(rc, "w") as f:
            f.write("syzygy_path = /nonexistent/syzygy\n")
        with Engine("-rc", rc) as e:
            warnings = [l for l in e.options if "/nonexistent/syzygy" in l and not l.startswith("option")]
            check(len(warnings) == 1 and "warning" in warnings[0], "rc warning: %s" % e.options[:3])
            info, _ = go(e, KQKR, "depth 4")
            check(tbhits_of(info) == 0, "bad rc path probes: %s" % info)


@test
def tbcheck_command_names_damaged_files():
    # The on-demand check: one line per file and a summary; `full` decodes every block.
    # A damaged copy (KQvK.rtbz: a symbol made its own child) is named with the reason;
    # what is loaded does not change.
    import shutil
    with tempfile.TemporaryDirectory() as d:
        for name in ("KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"):
            shutil.copy(os.path.join(TABLES, name), d)
        with Engine() as e:
            e.send("tbcheck full %s" % TABLES)
            lines = e.expect(lambda l: l.startswith("tbcheck:"), 60.0)
            check(re.search(r"^tbcheck: 70 table files in .* 0 left out .*every block decoded", lines[-1]),
                  "summary: %s" % lines[-1])
            check(sum(1 for l in lines if l.endswith(": ok")) == 70, "per-file lines: %s" % lines[:3])
            path = os.path.join(d, "KQvK.rtbz")
            data = bytearray(open(path, "rb").read())
            # KQvK.rtbz: magic and flags (5 bytes), order and 3 piece bytes, padded to 10:
            # the sub-table header. Point the first pair symbol's first child at itself.
            first = 10
            min_len, max_len = data[first + 9], data[first + 8]
            h = max_len - min_len + 1
            syms = data[first + 10 + 2 * h] | data[first + 11 + 2 * h] << 8
            table = first + 12 + 2 * h
            pair = next(k for k in range(syms)
                        if (data[table + 3 * k + 2] << 4 | data[table + 3 * k + 1] >> 4) != 0xfff)
            data[table + 3 * pair] = pair & 0xff
            data[table + 3 * pair + 1] = (data[table + 3 * pair + 1] & 0xf0) | (pair >> 8)
            open(path, "wb").write(bytes(data))
            e.send("tbcheck %s" % d)
            lines = e.expect(lambda l: l.startswith("tbcheck:"), 60.0)
            bad = [l for l in lines if "KQvK.rtbz" in l]
            check(bad and "cycle" in bad[0], "damaged file not named: %s" % lines)
            check("4 table files" in lines[-1] and "1 left out (1 by the structure check)" in lines[-1],
                  "summary: %s" % lines[-1])
            e.send("setoption name SyzygyPath value %s" % d)
            warn = [l for l in e.sync() if "warning" in l]
            check(len(warn) == 1 and "KQvK.rtbz" in warn[0] and "cycle" in warn[0] and "KRvK" not in warn[0],
                  "load warning: %s" % warn)


def main():
    passed = sum(1 for _, ok in results if ok)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    sys.exit(0 if passed == len(results) else 1)


main()
