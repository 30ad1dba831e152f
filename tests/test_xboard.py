#!/usr/bin/env python3
"""xboard (CECP v2) protocol tests: drives the engine over pipes like xboard would.

usage: python3 tests/test_xboard.py ENGINE
The last line printed is "N passed, N failed"; the exit status is non-zero on failure.
Expected moves come from chess knowledge written here (the 20 legal first moves, known
mates and stalemates), never from the engine itself.

Timing: every wait for a line is scaled by SAAVEDRA_TIME_SCALE (default 1; CI sets it
higher on slow or loaded machines). Promptness is checked against the search's own limit
(prompt_limit): an answer that did not wait for the search comes within a small part of
it, so a busy machine does not fail the test while a waiting engine still does.
"""
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginepipe import EnginePipe  # noqa: E402

ENGINE = sys.argv[1] if len(sys.argv) > 1 else "./saavedra"
TIME_SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))
results = []

WHITE_FIRST_MOVES = {"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3",
                     "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4", "b1a3", "b1c3",
                     "g1f3", "g1h3"}
# Black's replies to 1.e4: the mirror of White's first moves (no black move is blocked).
BLACK_REPLIES_TO_E4 = {m[0] + str(9 - int(m[1])) + m[2] + str(9 - int(m[3])) for m in WHITE_FIRST_MOVES}
THINKING = re.compile(r"^-?\d+ -?\d+ \d+ \d+ ")


def prompt_limit(search_seconds):
    """Seconds within which an answer that does not wait for a search of search_seconds
    must come: a twentieth of the search's limit (scaled), never more than half of it."""
    return min(search_seconds / 20 * TIME_SCALE, search_seconds / 2)


class Engine(EnginePipe):
    def __init__(self, *args):
        super().__init__(ENGINE, *args, merge_stderr=False)
        self.send("xboard")
        self.send("protover 2")
        self.features = self.expect(lambda l: l == "feature done=1", 60.0)
        # These tests are about the search: the opening book (tests/test_book.py) is off.
        self.send("option OwnBook=0")

    def expect(self, predicate, timeout=10.0):
        """As EnginePipe.expect, the time-out scaled by SAAVEDRA_TIME_SCALE."""
        return super().expect(predicate, timeout * TIME_SCALE)

    def ping(self, n, timeout=10.0):
        """Sends ping n and returns every line up to its pong."""
        self.send("ping %d" % n)
        return self.expect(lambda l: l == "pong %d" % n, timeout)

    def quiet_for(self, seconds):
        """Lines that arrive within the given time (the engine should be silent)."""
        return self.lines_within(seconds)


def moves_in(lines):
    return [l.split()[1] for l in lines if l.startswith("move ")]


def test(fn):
    name = fn.__name__
    try:
        fn()
        results.append((name, True, ""))
        print("ok   %s" % name)
    except Exception as exc:  # a failed check or a protocol timeout
        results.append((name, False, str(exc)))
        print("FAIL %s: %s" % (name, exc))
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


@test
def protover_features():
    with Engine() as e:
        feats = [l for l in e.features if l.startswith("feature ")]
        check(feats[0] == "feature done=0", "first feature line must be done=0: %s" % feats[:1])
        check(feats[-1] == "feature done=1", "last feature line must be done=1")
        text = " ".join(feats)
        for f in ["ping=1", "setboard=1", "playother=1", "usermove=1", "time=1", "draw=1", "sigint=0",
                  "sigterm=0", "reuse=1", "analyze=1", "colors=0", "name=1", "ics=1", "memory=1",
                  "smp=1", 'egt="syzygy"', "debug=1", "exclude=1", 'variants="normal,fischerandom"']:
            check(f in text.split() or (" " + f) in text, "feature %s missing" % f)
        check(re.search(r'myname="Saavedra[^"]*"', text), "myname missing")
        options = [l for l in feats if l.startswith("feature option=")]
        check(len(options) >= 3, "expected option= lines, got %d" % len(options))
        check(any("Move Overhead -spin" in l for l in options), "Move Overhead option missing")
        check(all(re.match(r'feature option="[^"]+ -(spin|check|string|button|combo|path|file)', l)
                  for l in options), "malformed option line")


@test
def new_go_plays_legal_move():
    with Engine() as e:
        e.send("new")
        e.send("level 0 0:10 0")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 15)
        move = moves_in(lines)[0]
        check(move in WHITE_FIRST_MOVES, "illegal first move %s" % move)


@test
def usermove_sequence_and_illegal_move():
    with Engine() as e:
        e.send("new")
        e.send("st 0.3")
        e.send("usermove e2e4")
        reply = moves_in(e.expect(lambda l: l.startswith("move "), 15))[0]
        check(reply in BLACK_REPLIES_TO_E4, "illegal reply %s" % reply)
        e.send("usermove e2e5")
        lines = e.ping(1)
        check(any(l.startswith("Illegal move") and l.endswith("e2e5") for l in lines),
              "no 'Illegal move ...: e2e5' in %s" % lines)
        check(not moves_in(lines), "engine moved after an illegal move")
        # State unchanged: a legal white move is still accepted and answered.
        e.send("usermove g1f3")
        lines = e.expect(lambda l: l.startswith("move ") or l.startswith("Illegal"), 15)
        check(lines[-1].startswith("move "), "g1f3 not accepted: %s" % lines[-3:])
        e.send("xyzzy")
        lines = e.ping(2)
        check("Error (unknown command): xyzzy" in lines, "unknown command not reported: %s" % lines)
        e.send("usermove e9e4")
        lines = e.ping(3)
        check(any(l.startswith("Illegal move") or l.startswith("Error") for l in lines), "bad move text accepted")


@test
def undo_and_remove():
    with Engine() as e:
        e.send("new")
        e.send("force")
        for m in ["e2e4", "e7e5", "g1f3"]:
            e.send("usermove " + m)
        e.send("undo")                      # takes back g1f3
        e.send("usermove g1f3")             # legal again only if undo worked
        e.send("undo")
        e.send("remove")                    # takes back e7e5 and e2e4
        e.send("usermove e7e5")             # black move while White is to move: illegal
        lines = e.ping(1)
        check(not any("g1f3" in l for l in lines if l.startswith("Illegal")), "undo failed: %s" % lines)
        check(any(l.startswith("Illegal move") and "e7e5" in l for l in lines),
              "remove did not take back two moves: %s" % lines)
        e.send("usermove d2d4")
        lines = e.ping(2)
        check(not any(l.startswith("Illegal") for l in lines), "d2d4 rejected after remove: %s" % lines)
        e.send("new")
        e.send("undo")
        lines = e.ping(3)
        check(any(l.startswith("Error") for l in lines), "undo at the start not refused: %s" % lines)


@test
def setboard_bad_fen_keeps_state():
    with Engine() as e:
        e.send("new")
        e.send("force")
        e.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        e.send("setboard 8/8/8 w - - 0 1")
        e.send("setboard 4k3/8/8/8/8/8/8/4K2K w - - 0 1")
        lines = e.ping(1)
        errors = [l for l in lines if l.startswith("Error")]
        check(len(errors) == 2, "expected two errors for bad FENs: %s" % lines)
        # Still the first position: this king walk is legal only there (in the start
        # position e8d8 is blocked by the queen).
        e.send("usermove e2e4")
        e.send("usermove e8d8")
        e.send("usermove e4e5")
        e.send("usermove d8c8")
        e.send("usermove e5e6")
        e.send("usermove c8b8")
        e.send("usermove e6e7")
        lines = e.ping(2)
        check(not any(l.startswith("Illegal") for l in lines), "position changed by bad setboard: %s" % lines)


@test
def move_now_during_search():
    with Engine() as e:
        e.send("new")
        e.send("st 60")
        e.send("go")
        early = e.lines_within(0.5)
        check(not moves_in(early), "moved before ?: %s" % early[-3:])
        t0 = time.time()
        e.send("?")
        move = moves_in(e.expect(lambda l: l.startswith("move "), 5))[0]
        elapsed = time.time() - t0
        check(move in WHITE_FIRST_MOVES, "illegal move %s" % move)
        check(elapsed < prompt_limit(60), "move came %.2fs after ? (st 60)" % elapsed)


@test
def cores_4_search_and_move_now():
    # `cores 4` sets Threads: the search still moves at once on `?` and plays legally,
    # in both SMP modes.
    with Engine() as e:
        for mode in ["YBWC", "Lazy"]:
            e.send("cores 4")
            e.send("option SMP Mode=%s" % mode)
            e.send("new")
            e.send("st 60")
            e.send("go")
            early = e.lines_within(0.5)
            check(not any(l.startswith("Error") for l in early), "%s: %s" % (mode, early[-3:]))
            check(not moves_in(early), "%s: moved before ?: %s" % (mode, early[-3:]))
            t0 = time.time()
            e.send("?")
            move = moves_in(e.expect(lambda l: l.startswith("move "), 5))[0]
            elapsed = time.time() - t0
            check(move in WHITE_FIRST_MOVES, "%s: illegal move %s" % (mode, move))
            check(elapsed < prompt_limit(60), "%s: move came %.2fs after ? (st 60)" % (mode, elapsed))


@test
def ping_waits_for_pending_move():
    with Engine() as e:
        e.send("new")
        e.send("easy")
        lines = e.ping(1, 5)                # idle: answered at once
        check(lines[-1] == "pong 1", "idle ping not answered")
        e.send("st 1")
        e.send("go")
        e.send("ping 2")
        lines = e.expect(lambda l: l == "pong 2", 10)
        mv = [i for i, l in enumerate(lines) if l.startswith("move ")]
        check(mv and mv[0] < len(lines) - 1, "pong 2 came before the move: %s" % lines[-4:])
        # force while thinking: no move, and the ping held behind the search is answered.
        e.send("st 30")
        e.send("go")
        e.send("ping 4")
        time.sleep(0.3)
        e.send("force")
        lines = e.expect(lambda l: l == "pong 4", 5)
        check(not moves_in(lines), "moved after force: %s" % lines[-3:])
        # Ponder (hard): a ping while pondering is answered at once.
        # (A ponder search has no end of its own: a held-back ping would never come.)
        e.send("new")
        e.send("hard")
        e.send("st 60")
        e.send("usermove e2e4")
        e.send("?")
        e.expect(lambda l: l.startswith("move "), 10)
        time.sleep(0.3)
        t0 = time.time()
        lines = e.ping(3, 5)
        elapsed = time.time() - t0
        check(not moves_in(lines), "pondering ended before the pong: %s" % lines[-3:])
        check(elapsed < prompt_limit(60), "ping while pondering answered after %.2fs" % elapsed)


@test
def ponder_hit_and_miss():
    with Engine("-t") as e:
        e.send("new")
        e.send("hard")
        e.send("post")
        e.send("st 0.5")
        e.send("usermove e2e4")
        e.expect(lambda l: l.startswith("move "), 10)
        e.expect(lambda l: l.startswith("# pondering on "), 5)
        e.send("hint")
        hint = e.expect(lambda l: l.startswith("Hint: "), 5)[-1].split()[1]
        # Thinking output while pondering shows the predicted move first.
        e.expect(lambda l: THINKING.match(l) is not None and "(%s)" % hint in l, 5)
        e.send("usermove " + hint)        # the expected reply: the ponder search goes on
        lines = e.expect(lambda l: l.startswith("move "), 10)
        check("# ponder hit" in lines, "no ponder hit on the predicted %s: %s" % (hint, lines[-4:]))
        e.expect(lambda l: l.startswith("# pondering on "), 5)
        # A move other than the predicted one: the ponder search is dropped and a fresh
        # search answers. (Pawn moves that are legal in nearly every early position;
        # an Illegal answer just tries the next.)
        e.send("hint")
        second_hint = e.expect(lambda l: l.startswith("Hint: "), 5)[-1].split()[1]
        answered = False
        for m in ["a2a3", "h2h3", "b2b3", "g2g3", "a2a4", "h2h4"]:
            if second_hint in (m, m[2:]):
                continue
            e.send("usermove " + m)
            lines = e.expect(lambda l: l.startswith("move ") or l.startswith("Illegal"), 10)
            if lines[-1].startswith("move "):
                check("# ponder hit" not in lines, "ponder hit on a move that was not predicted")
                answered = True
                break
        check(answered, "no reply after a ponder miss")
        e.send("undo")
        e.send("undo")
        # Stopping the ponder search must leave the game as it was: e2e4, reply, hint,
        # reply; two undos go back to before the hinted move, which is legal again.
        e.send("force")
        e.send("undo")
        e.send("undo")
        e.send("usermove " + hint)
        lines = e.ping(1)
        check(not any(l.startswith("Illegal") or l.startswith("Error") for l in lines),
              "game position damaged by stopping the ponder search: %s" % lines)


@test
def analyze_mode():
    with Engine() as e:
        e.send("new")
        e.send("post")
        e.send("analyze")
        lines = e.expect(lambda l: THINKING.match(l) is not None, 10)
        e.send(".")
        lines = e.expect(lambda l: l.startswith("stat01:"), 5)
        check(re.match(r"stat01: \d+ \d+ \d+ \d+ 20", lines[-1]), "bad stat01 line %s" % lines[-1])
        e.send("usermove e2e4")             # analysis goes on in the new position
        e.ping(1)
        e.send(".")
        stat = e.expect(lambda l: l.startswith("stat01:"), 5)[-1]
        check(stat.split()[5] == "20", "stat01 after e2e4 should count Black's 20 moves: %s" % stat)
        e.send("exit")
        e.ping(2)
        late = e.quiet_for(0.5)
        check(not any(THINKING.match(l) or l.startswith("move ") for l in late),
              "output after exit: %s" % late[:3])


@test
def claims_mate_and_stalemate():
    with Engine() as e:
        e.send("new")
        e.send("setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        e.send("st 1")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("1-0") or l.startswith("0-1") or l.startswith("1/2"), 10)
        check("move a1a8" in lines, "mate in one not played: %s" % lines[-3:])
        check(lines[-1] == "1-0 {White mates}", "bad mate claim %s" % lines[-1])
        # The opponent's move stalemates the engine (playing Black after new).
        e.send("new")
        e.send("setboard 7k/5Q2/8/6K1/8/8/8/8 w - - 0 1")
        e.send("usermove g5g6")
        lines = e.expect(lambda l: l.startswith("1/2") or l.startswith("move "), 10)
        check(lines[-1] == "1/2-1/2 {Stalemate}", "bad stalemate claim %s" % lines[-1])
        # Mated by the opponent's move.
        e.send("new")
        e.send("setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        e.send("usermove a1a8")
        lines = e.expect(lambda l: l.startswith("1-0") or l.startswith("move "), 10)
        check(lines[-1] == "1-0 {White mates}", "mate by the opponent not claimed: %s" % lines[-1])


def trace_limits(lines):
    out = []
    for l in lines:
        m = re.match(r"# thinking: time (-?\d+) ms, movestogo (\d+)", l)
        if m:
            out.append((int(m.group(1)), int(m.group(2))))
    return out


@test
def level_repeating_control():
    with Engine("-t") as e:
        e.send("new")
        e.send("level 40 5 0")
        e.send("sd 4")                     # depth cap: quick moves, same time limits
        e.send("time 30000")
        e.send("otim 30000")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30)
        limits = trace_limits(lines)
        check(limits and limits[0] == (300000, 40), "first move of 40/5': %s" % limits)
        # A short session: the engine plays both sides (go after each move); each side's
        # moves to go must run 3, 2, 1 and start again at 3.
        e.send("new")
        e.send("level 3 0:30 0")
        e.send("sd 3")
        seen = []
        for _ in range(8):
            e.send("go")
            lines = e.expect(lambda l: l.startswith("move ") or l[:3] in ("1-0", "0-1", "1/2"), 30)
            seen += trace_limits(lines)
        mtg = [m for _, m in seen]
        check(mtg == [3, 3, 2, 2, 1, 1, 3, 3], "moves to go per move: %s" % mtg)


@test
def test_command_keeps_the_game():
    # The EPD test used to leave the engine at the start position while the game record
    # still held the moves: the next move went onto the wrong board.
    with Engine() as e, tempfile.NamedTemporaryFile("w", suffix=".epd") as bad:
        bad.write("garbage\n")
        bad.flush()
        e.send("new")
        e.send("force")
        e.send("e2e4")
        e.send("e7e5")
        e.send("test %s -d 1" % bad.name)
        e.send("f1c4")                     # legal only after 1.e4
        e.send("undo")
        e.send("undo")
        e.send("e7e6")                     # legal only if the undos found the game
        lines = e.ping(1, 30.0)
        check(not any(l.startswith("Illegal") or l.startswith("Error") or l.startswith("tellusererror")
                      for l in lines), "game lost after test: %s" % lines)


TWO_POSITIONS = ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "start";\n'
                 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "spanish";\n')


@test
def test_command_stopped_by_xboard_commands():
    # In xboard mode a running `test` ignored ?, force, new and quit until its end (30 s a
    # position here). They end it now; its summary prints; force and new then take effect,
    # and a ping sent meanwhile is answered after the summary.
    with tempfile.NamedTemporaryFile("w", suffix=".epd") as suite:
        suite.write(TWO_POSITIONS)
        suite.flush()
        for stopper in ("?", "force", "new"):
            with Engine() as e:
                e.send("new")
                e.send("sd 2")
                e.send("e2e4")              # the engine plays Black and answers at once
                e.expect(lambda l: l.startswith("move "), 30)
                e.send("test %s -t 30" % suite.name)
                time.sleep(0.5)
                start = time.time()
                e.send(stopper)
                e.send("ping 7")
                lines = e.expect(lambda l: l == "pong 7", 10.0)
                took = time.time() - start
                check(took < 5.0 * TIME_SCALE, "%s ended the test after %.1f s" % (stopper, took))
                check("stopped by the user after 1 position" in lines, "%s: no stop note: %s" % (stopper, lines[-6:]))
                summary = [i for i, l in enumerate(lines) if re.match(r"^correct: \d/1$", l)]
                check(summary and summary[0] < len(lines) - 1, "%s: no summary before pong: %s" % (stopper, lines[-6:]))
                # ? and force: the game goes on (1.e4 and our reply), with force the engine
                # no longer moves; new: a fresh game, where e2e4 is legal again.
                e.send("e2e4" if stopper == "new" else "g1f3")
                if stopper == "force":
                    lines = e.ping(8)
                    check(not moves_in(lines + e.quiet_for(1.0)), "force: the engine moved after the test")
                else:
                    lines = e.expect(lambda l: l.startswith("move ") or l.startswith("Illegal"), 30)
                check(not any(l.startswith("Illegal") or l.startswith("Error") for l in lines),
                      "%s: move after the test refused: %s" % (stopper, lines))
        with Engine() as e:
            e.send("test %s -t 30" % suite.name)
            time.sleep(0.5)
            start = time.time()
            e.send("quit")
            lines = e.expect(lambda l: re.match(r"^correct: \d/1$", l), 10.0)
            e.proc.wait(timeout=5 * TIME_SCALE)
            check(time.time() - start < 5.0 * TIME_SCALE, "quit ended the test after %.1f s" % (time.time() - start))
            check("stopped by the user after 1 position" in lines, "quit: no stop note: %s" % lines[-6:])


@test
def huge_clock_is_cut_not_wrapped():
    # time in centiseconds * 10 overflowed (UB) and wrapped to an "unknown" clock.
    with Engine("-t") as e:
        e.send("new")
        e.send("force")
        e.send("sd 2")
        e.send("time 9223372036854775807")
        e.send("otim 100")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30)
        check(trace_limits(lines)[:1] == [(10 ** 12, 40)], "huge clock: %s" % trace_limits(lines))
        e.send("time -5")                  # flag down: a zero clock, still a move
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 30)
        check(trace_limits(lines)[:1] == [(0, 40)], "negative clock: %s" % trace_limits(lines))


@test
def edit_mode_sets_position():
    with Engine() as e:
        e.send("new")
        e.send("force")
        e.send("edit")
        for c in ["#", "Ke1", "Pe2", "Ra1", "c", "Ke8", "Pd7", "."]:
            e.send(c)
        e.send("usermove e1c1")            # castling: king and rook on their home squares
        e.send("usermove d7d5")
        e.send("usermove e2e4")
        lines = e.ping(1)
        check(not any(l.startswith("Illegal") or l.startswith("Error") for l in lines),
              "edited position wrong: %s" % lines)
        e.send("usermove b1c3")            # no knight in the edited position
        lines = e.ping(2)
        check(any(l.startswith("Illegal move") for l in lines), "knight move accepted: %s" % lines)


@test
def edit_mode_answers_ping_and_quit():
    # quit and ping used to be taken for bad edit commands.
    with Engine() as e:
        e.send("new")
        e.send("force")
        e.send("edit")
        e.send("#")
        lines = e.ping(4)
        check(not any(l.startswith("Error") for l in lines), "ping in edit mode: %s" % lines)
        for c in ["Ke1", "c", "Ke8", "."]:   # the edit went on across the ping
            e.send(c)
        e.send("usermove e1d1")
        lines = e.ping(5)
        check(not any(l.startswith("Illegal") or l.startswith("Error") for l in lines), "edit lost: %s" % lines)
        e.send("edit")
        e.send("quit")
        e.proc.wait(timeout=5)
        check(e.proc.returncode == 0, "quit in edit mode: exit status %s" % e.proc.returncode)
    with Engine() as e:                    # new in the middle of an edit: a new game
        e.send("new")
        e.send("force")
        e.send("edit")
        e.send("#")
        e.send("new")
        e.send("force")
        e.send("usermove e2e4")
        lines = e.ping(1)
        check(not any(l.startswith("Illegal") or l.startswith("Error") for l in lines), "new in edit: %s" % lines)


@test
def go_after_invalid_edit_says_why():
    # After an edit that gave no legal position, go and analyze did nothing and said nothing.
    with Engine() as e:
        e.send("new")
        e.send("force")
        e.send("edit")
        for c in ["#", "Ke1", "."]:       # no black king
            e.send(c)
        e.send("go")
        lines = e.ping(1)
        check(any(l.startswith("tellusererror") for l in lines), "invalid edit not reported: %s" % lines)
        check(any(l.startswith("Error") and l.endswith(": go") for l in lines), "go silent: %s" % lines)
        e.send("post")
        e.send("analyze")
        lines = e.ping(2)
        check(any(l.startswith("Error") and l.endswith(": analyze") for l in lines), "analyze silent: %s" % lines)
        # A valid position then starts the analysis that was asked for.
        e.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        e.expect(lambda l: THINKING.match(l) is not None, 10)
        e.send("exit")
        e.ping(3)


@test
def numbers_with_junk_refused():
    # memory 12abc was taken as 12, rating used atoi, console errors were bare "error:".
    with Engine() as e:
        for cmd in ["memory 12abc", "cores 1x", "rating 2100 abc", "rating x 1800", "perft 1junk",
                    "bench abc"]:
            e.send(cmd)
            lines = e.ping(1)
            check(len(lines) == 2 and lines[0].startswith("Error (") and lines[0].endswith("): " + cmd),
                  "%s: %s" % (cmd, lines))


@test
def overlong_numbers_refused_and_ping_echoed_whole():
    # Arguments were cut to 63 characters: "sd 000...05" read as sd 0, a long ping token
    # came back cut.
    with Engine() as e:
        cmd = "sd " + "0" * 70 + "5"
        e.send(cmd)
        lines = e.ping(1)
        check(len(lines) == 2 and lines[0] == "Error (argument too long): " + cmd, "%s" % lines)
        token = "p" * 70
        e.send("ping " + token)
        lines = e.expect(lambda l: l.startswith("pong"))
        check(lines[-1] == "pong " + token, "pong cut: %s" % lines)
        e.send("setboard r1b1k1nr/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/R1B1K1NR w KQkq - 0 1")
        lines = e.ping(2)
        check(not any(l.startswith("Error") or l.startswith("tellusererror") for l in lines),
              "long FEN field refused: %s" % lines)


@test
def ponder_scores_are_from_the_engines_side():
    # Black, a queen down, thinks and then ponders: xboard wants every score from the
    # engine's side, so the pondering lines must stay negative like its own search's.
    with Engine() as e:
        e.send("new")
        e.send("force")
        e.send("setboard rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        e.send("hard")
        e.send("post")
        e.send("st 0.3")
        e.send("go")
        own = e.expect(lambda l: l.startswith("move "), 10)
        # The first pondering line (the predicted move first, in brackets), then whatever
        # else comes in the next moment.
        ponder = e.expect(lambda l: THINKING.match(l) is not None and " (" in l, 10)
        ponder += e.lines_within(0.5)
        own_scores = [int(l.split()[1]) for l in own if THINKING.match(l)]
        ponder_scores = [int(l.split()[1]) for l in ponder if THINKING.match(l) and " (" in l]
        check(own_scores and max(own_scores) < -500, "own search scores: %s" % own_scores[-3:])
        check(ponder_scores and max(ponder_scores) < -500, "pondering scores: %s" % ponder_scores[-3:])


@test
def server_manners():
    with Engine("-t") as e:
        # Contempt follows the rating difference: positive against a weaker opponent,
        # negative against a stronger one.
        e.send("rating 2400 1600")
        lines = e.expect(lambda l: "contempt" in l, 5)
        weaker = int(re.search(r"contempt (-?\d+)", lines[-1]).group(1))
        e.send("rating 1600 2400")
        lines = e.expect(lambda l: "contempt" in l, 5)
        stronger = int(re.search(r"contempt (-?\d+)", lines[-1]).group(1))
        check(weaker > 0 > stronger, "contempt %d vs weaker, %d vs stronger" % (weaker, stronger))
        e.send("rating 0 0")
        # Resignation is off by default: a hopeless position is played on.
        e.send("new")
        e.send("setboard 4k3/8/8/8/8/8/8/QQ2K3 b - - 0 40")
        e.send("sd 6")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move ") or l == "resign", 15)
        check(lines[-1].startswith("move "), "resigned although resigning is off")
        # With a threshold it resigns instead of moving.
        e.send("new")
        e.send("option Resign Threshold=500")
        e.send("option Resign Moves=1")
        e.send("setboard 4k3/8/8/8/8/8/8/QQ2K3 b - - 0 40")
        e.send("sd 6")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move ") or l == "resign", 15)
        check(lines[-1] == "resign", "did not resign: %s" % lines[-1])
        # A draw offer in a level rook ending is accepted, in a won one declined.
        e.send("new")
        e.send("option Resign Threshold=0")
        e.send("setboard 8/8/4k3/8/2r5/4K3/8/5R2 w - - 0 60")
        e.send("sd 8")
        e.send("go")
        e.expect(lambda l: l.startswith("move "), 15)
        e.send("draw")
        lines = e.ping(1)
        check("offer draw" in lines, "level ending: draw offer not accepted: %s" % lines)
        e.send("new")
        e.send("setboard 8/8/4k3/8/8/4K3/8/5Q2 w - - 0 60")
        e.send("sd 8")
        e.send("go")
        e.expect(lambda l: l.startswith("move "), 15)
        e.send("draw")
        lines = e.ping(2)
        check("offer draw" not in lines, "accepted a draw with an extra queen")


@test
def last_thinking_line_before_the_move():
    # A search cut by the clock ended without a last thinking line: the GUI showed the
    # depth, time and nodes of the last finished iteration.
    with Engine() as e:
        e.send("post")
        e.send("setboard r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        e.send("st 1")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 5.0)
        check(THINKING.match(lines[-2]), "line before the move: %s" % lines[-2])
        check(int(lines[-2].split()[2]) >= 75, "last thinking line at %s cs of 100" % lines[-2].split()[2])


@test
def variant_fischerandom():
    # Mate in one only by a Chess960 castling (king stays on c1, rook b1 jumps to d1).
    with Engine() as e:
        check(any('variants="normal,fischerandom"' in l for l in e.features), "fischerandom not offered")
        e.send("new")
        e.send("variant fischerandom")
        e.send("setboard 2rkr3/2p1p3/8/8/8/8/8/1RK5 w B - 0 1")
        e.send("sd 3")
        e.send("go")
        lines = e.expect(lambda l: l.startswith("move "), 10.0)
        check(lines[-1] == "move O-O-O", "castling mate not sent as O-O-O: %s" % lines[-1])
        # The GUI's O-O is taken; after new the variant is normal again.
        e.send("new")
        e.send("variant fischerandom")
        e.send("setboard r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1")
        e.send("force")
        e.send("usermove O-O")
        e.send("usermove O-O-O")
        lines = e.ping(1)
        check(not any(l.startswith(("Illegal", "Error")) for l in lines), "O-O refused: %s" % lines)
        e.send("variant crazyhouse")
        lines = e.ping(2)
        check(any(l.startswith("Error (unsupported variant)") for l in lines), "crazyhouse taken: %s" % lines)


@test
def egtpath_repeated_warns_once():
    with Engine() as e:
        if not any("SyzygyPath" in l for l in e.features):
            return  # built without tablebase support
        for _ in range(3):  # xboard sends it before every game
            e.send("egtpath syzygy /nonexistent/saavedra-tb")
        lines = e.ping(1)
        # A missing directory is a warning ("#" line, once), not a command refused.
        check(not any(l.startswith("Error") for l in lines), "Error for a missing egtpath: %s" % lines)
        warnings = [l for l in lines if l.startswith("#") and "saavedra-tb" in l]
        check(len(warnings) == 1, "expected one warning for a repeated bad egtpath: %s" % lines)


@test
def end_of_input_ends_a_long_think():
    # EOF while thinking under `sd 100` waited for the whole search: end of input means
    # quit, at once (the move cut short is still played).
    e = Engine()
    try:
        e.send("new")
        e.send("sd 100")
        e.send("st 1000")
        e.send("go")
        time.sleep(0.3)
        e.proc.stdin.close()
        start = time.time()
        e.proc.wait(timeout=5 * TIME_SCALE)
        check(time.time() - start < 1.0 * TIME_SCALE, "exit slow after EOF")
    finally:
        e.proc.kill()


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@test
def one_line_policy_with_uci():
    # xboard read lines of any length (a 2 GB line took 1.9 GB of memory) and cut a line at
    # a NUL (`usermove e2e4\0junk` was played); the same reader as UCI now refuses both.
    e = Engine()
    try:
        e.send("force")
        e.ping(1)
        before = rss_kb(e.proc.pid)
        chunk = "x" * (1 << 20)
        for _ in range(40):
            e.proc.stdin.write(chunk)
        e.send("")
        lines = e.ping(2, 30.0)
        grown = rss_kb(e.proc.pid) - before
        check(any(l == "Error (line too long): ignored" for l in lines), "no error for a 40 MB line: %s" % [l[:80] for l in lines[-3:]])
        check(grown < 8 * 1024, "memory grew by %d kB for one long line" % grown)
        e.send("usermove e2e4\0junk")
        lines = e.ping(3)
        check(any(l.startswith("Error (NUL") for l in lines), "NUL line not refused: %s" % lines)
        e.send("usermove e2e4")   # still White to move: the refused line changed nothing
        lines = e.ping(4)
        check(not any("Illegal" in l or "Error" in l for l in lines), "e2e4 refused: %s" % lines)
    finally:
        e.close()


def main():
    passed = sum(1 for _, ok, _ in results if ok)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


main()
