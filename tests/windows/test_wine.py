#!/usr/bin/env python3
"""What only the Windows build can get wrong, checked on saavedra.exe under wine (make
test-windows): files found beside the .exe from any working directory, a SyzygyPath of
';'-separated folders with drive letters, and quit / end of input ending the program at
once in both protocols (the xboard reader thread cannot be cancelled on Windows).
    python3 tests/windows/test_wine.py saavedra.exe     (wine from $WINE or PATH)"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import enginepipe  # noqa: E402
import testkit  # noqa: E402
from testkit import ROOT, check, test  # noqa: E402

EXE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "saavedra.exe")
WINE = os.environ.get("WINE") or shutil.which("wine") or shutil.which("wine64") or "/usr/lib/wine/wine64"
enginepipe.WRAPPER = [WINE]
TIME_SCALE = max(1.0, float(os.environ.get("SAAVEDRA_TIME_SCALE", "1")))
KQKR = "3k4/8/8/8/8/8/6r1/1QK5 w - - 0 1"


def windows_path(path):
    """wine's Z: drive is the Linux root: /a/b is Z:\\a\\b."""
    return "Z:" + path.replace("/", "\\")


class Uci(enginepipe.EnginePipe):
    def __init__(self, exe, cwd=None):
        super().__init__(exe, cwd=cwd)
        self.send("uci")
        self.expect(lambda l: l == "uciok", 60)

    def go(self, command):
        self.send(command)
        return self.expect(lambda l: l.startswith("bestmove"), 30 * TIME_SCALE)


@test
def book_beside_the_exe_from_any_folder():
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "saavedra.exe")
        shutil.copy(EXE, exe)
        shutil.copy(os.path.join(ROOT, "book", "book.bin"), os.path.join(d, "book.bin"))
        e = Uci(exe, cwd="/")
        try:
            e.send("position startpos")
            # A clock, not movetime: a search asked for by time or depth is always searched.
            lines = e.go("go wtime 60000 btime 60000")
            check(any(l.startswith("info string book move") for l in lines), "book not used: %s" % lines[-3:])
        finally:
            e.close()


@test
def rc_file_beside_the_exe_is_read():
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "saavedra.exe")
        shutil.copy(EXE, exe)
        with open(os.path.join(d, "engine.rc"), "w") as f:
            f.write("hash = 3\n")
        e = Uci(exe, cwd="/")
        try:
            e.send("uci")
            lines = e.expect(lambda l: l == "uciok", 30)
            hash_line = [l for l in lines if l.startswith("option name Hash ")]
            check(hash_line and " default 3 " in hash_line[0], "engine.rc beside the .exe not read: %s" % hash_line)
        finally:
            e.close()


@test
def syzygy_path_with_semicolons_and_drive_letters():
    tables = windows_path(os.path.join(ROOT, "tests", "data", "syzygy"))
    e = Uci(EXE)
    try:
        e.send("setoption name SyzygyPath value C:\\no\\such\\folder;%s" % tables)
        e.send("isready")
        lines = e.expect(lambda l: l == "readyok", 60 * TIME_SCALE)
        check(not any("no Syzygy tables" in l or "no tables found" in l for l in lines), "tables not found: %s" % lines)
        e.send("position fen " + KQKR)
        lines = e.go("go movetime 300")
        info = [l for l in lines if " tbhits " in l]
        check(info and int(re.search(r" tbhits (\d+)", info[-1]).group(1)) > 0, "no tbhits: %s" % lines[-3:])
    finally:
        e.close()


def ends_promptly(first_lines, how):
    """Starts the engine, sends first_lines, then quit or end of input; seconds to exit."""
    p = subprocess.Popen([WINE, EXE], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    p.stdin.write(first_lines)
    p.stdin.flush()
    time.sleep(3)  # wine's start, then a search running
    start = time.time()
    if how == "quit":
        p.stdin.write("quit\n")
        p.stdin.flush()
    else:
        p.stdin.close()
    try:
        p.wait(timeout=10 * TIME_SCALE)
    except subprocess.TimeoutExpired:
        p.kill()
        return None
    return time.time() - start


@test
def quit_and_end_of_input_end_at_once():
    for proto, lines in [("uci", "uci\nposition startpos\ngo infinite\n"),
                         ("xboard", "xboard\nprotover 2\nnew\npost\nanalyze\n")]:
        for how in ["quit", "end of input"]:
            took = ends_promptly(lines, how)
            check(took is not None and took < 2.0 * TIME_SCALE, "%s, %s: %s" % (proto, how, took))


@test
def full_windows_paths_in_file_options():
    """C:\\x and Z:/x name files as they are, not beside the executable."""
    book = windows_path(os.path.join(ROOT, "tests", "data", "book", "nakamura-polyglot-p12.bin"))
    e = Uci(EXE)
    try:
        e.send("setoption name BookFile value " + book)
        e.send("setoption name EvalFile value Z:/no/such/net.nnue")
        e.send("isready")
        lines = e.expect(lambda l: l == "readyok", 60 * TIME_SCALE)
        check(any("cannot open Z:/no/such/net.nnue" in l for l in lines), lines)
        check(not any("not found" in l for l in lines), lines)
        e.send("position startpos")
        lines = e.go("go wtime 60000 btime 60000")
        check(any(l.startswith("info string book move") for l in lines), "book not used: %s" % lines[-3:])
    finally:
        e.close()


def run_exe(args, text, cwd=None):
    p = subprocess.run([WINE, EXE] + args, input=text, capture_output=True, text=True, cwd=cwd,
                       timeout=120 * TIME_SCALE)
    return p.returncode, p.stdout.replace("\r", ""), p.stderr.replace("\r", "")


def log_lines(path):
    """The protocol log's lines without their times: '< uci', '> uciok', '-- log closed'."""
    with open(path) as f:
        return [l.rstrip("\r\n").split(None, 2)[2] for l in f if len(l.split(None, 2)) == 3]


@test
def protocol_log_with_l_and_no_warning_at_start():
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "uci.log")
        rc, out, err = run_exe(["-l", windows_path(log)], "uci\nisready\nposition startpos\ngo depth 4\n")
        check(rc == 0 and "bestmove" in out, "%d %r" % (rc, err))
        check(err.strip() == "", "stderr at start: %r" % err)
        lines = log_lines(log)
        for want in ("< uci", "> uciok", "< isready", "> readyok", "< go depth 4"):
            check(want in lines, "%r not in the log: %s" % (want, lines))
        # Everything written before the end of input reached the log and the output.
        best = [l for l in lines if l.startswith("> bestmove")]
        check(best and best[0][2:] in out and lines[-1] == "-- log closed", lines[-4:])
        rc, out, err = run_exe(["-l", windows_path(os.path.join(d, "xb.log"))], "xboard\nprotover 2\nquit\n")
        lines = log_lines(os.path.join(d, "xb.log"))
        check(rc == 0 and "< protover 2" in lines and "> feature done=1" in lines and "< quit" in lines,
              "%d %r %s" % (rc, err, lines))


@test
def debug_log_file_option_starts_a_log_mid_session():
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "option.log")
        e = Uci(EXE)
        try:
            e.send("setoption name Debug Log File value " + windows_path(log))
            e.send("isready")
            lines = e.expect(lambda l: l == "readyok", 60 * TIME_SCALE)
            check(not any("cannot" in l for l in lines), lines)
            e.send("position startpos")
            e.go("go depth 3")
        finally:
            e.close()
        lines = log_lines(log)
        # The lines read with the option's own line may be missing; what follows is there.
        check("-- log opened" in lines and "> readyok" in lines and "< go depth 3" in lines
              and any(l.startswith("> bestmove") for l in lines), lines)
        check("> uciok" not in lines, "logged before the option: %s" % lines)


# A stand-in gnuplot.exe: reads the script, complains on its standard error, fails.
FAKE_GNUPLOT = r"""#include <stdio.h>
int main(void) { long n = 0; while (getchar() != EOF) n++;
fprintf(stderr, "unknown terminal type after %ld bytes\n", n); return 1; }
"""


@test
def annotate_plot_runs_gnuplot_and_reads_its_complaint():
    pgn = '[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n'
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "g.pgn"), "w") as f:
            f.write(pgn)
        args = [WINE, EXE, "annotate", "g.pgn", "-n", "300", "-o", "out.pgn", "--plot", "plots"]
        p = subprocess.run(args, cwd=d, capture_output=True, text=True, timeout=120 * TIME_SCALE)
        check(p.returncode == 1 and "gnuplot not found in PATH" in p.stderr, "%d %r" % (p.returncode, p.stderr))
        check(os.path.exists(os.path.join(d, "out.pgn")), "games not written: %r" % p.stderr)
        mingw = shutil.which("x86_64-w64-mingw32-gcc")
        if not mingw:
            print("skip the failing gnuplot: no x86_64-w64-mingw32-gcc")
            return
        with open(os.path.join(d, "fake.c"), "w") as f:
            f.write(FAKE_GNUPLOT)
        subprocess.run([mingw, "-o", os.path.join(d, "gnuplot.exe"), os.path.join(d, "fake.c")], check=True)
        p = subprocess.run(args, cwd=d, capture_output=True, text=True, timeout=120 * TIME_SCALE)
        check(p.returncode == 1 and re.search(r"could not draw .*unknown terminal type after [1-9]\d* bytes", p.stderr),
              "%d %r" % (p.returncode, p.stderr))
        check(os.listdir(os.path.join(d, "plots")) == [], "files left: %s" % os.listdir(os.path.join(d, "plots")))


testkit.finish()
