#!/usr/bin/env python3
"""Command line, engine.rc and the `test` command.

usage: python3 tests/test_cli.py ENGINE
Checks: flag parsing (--help, --version, -H, -c, -t, -l, bad flags), engine.rc lookup
(-rc, beside the executable, $XDG_CONFIG_HOME) and precedence (rc < command line <
setoption), bad rc lines warned with their line numbers, and `test` on a small suite of
known mates (tests/data/mate5.epd: five positions with a forced mate, so any working
search solves all of them). The last line printed is "N passed, N failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import testkit
from testkit import ROOT, check, test

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
MATES = os.path.join(ROOT, "tests", "data", "mate5.epd")


def run(args, stdin="", env=None, exe=ENGINE, timeout=120):
    full_env = dict(os.environ)
    # Keep the user's own config out of the tests unless a test sets it.
    full_env["XDG_CONFIG_HOME"] = "/nonexistent-saavedra-test"
    full_env["HOME"] = "/nonexistent-saavedra-test"
    if env:
        full_env.update(env)
    return testkit.run([exe, *args], stdin=stdin, timeout=timeout, env=full_env)


def uci_values(stdout):
    """Current option values from `uci` output (the default field is the current value)."""
    values = {}
    for line in stdout.splitlines():
        m = re.match(r"option name (.+?) type (\w+)(?: default (\S*))?", line)
        if m:
            values[m.group(1)] = m.group(3)
    return values


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def start_contempt(exe, env=None):
    """The Contempt the engine at exe starts with: what an engine.rc set."""
    _, out, _ = run([], stdin="uci\nquit\n", exe=exe, env=env)
    return uci_values(out).get("Contempt")


def user_rc(config_home, text):
    """Writes the user's engine.rc under config_home ($XDG_CONFIG_HOME or ~/.config)."""
    os.makedirs(os.path.join(config_home, "saavedra"))
    write(os.path.join(config_home, "saavedra", "engine.rc"), text)


@test
def help_and_version():
    rc, out, _ = run(["--help"])
    check(rc == 0 and "usage:" in out and "-rc FILE" in out and "test FILE.epd" in out, "bad --help")
    # The lookup order --help states is the one rcfile.c follows (and the README states).
    lookup = " ".join(out[out.find("engine.rc is looked up"):].split())
    order = [lookup.find(s) for s in ("XDG_CONFIG_HOME", "beside the executable", "share/saavedra")]
    check(min(order) >= 0 and order == sorted(order), "--help engine.rc lookup order: %r" % lookup)
    rc, out, _ = run(["--version"])
    check(rc == 0 and re.match(r"Saavedra \S+", out.strip()), "bad --version: %r" % out)


@test
def bad_flags_rejected():
    for args, word in [(["-H", "lots"], "-H"), (["-c"], "-c"), (["--frobnicate"], "--frobnicate"),
                       (["-rc", "/nonexistent/engine.rc"], "engine.rc")]:
        rc, out, err = run(args, stdin="quit\n")
        check(rc != 0, "%s accepted" % args)
        check(word in err, "%s: error does not name it: %r" % (args, err))


@test
def overlong_fen_arguments_refused():
    # Past 255 characters the FEN buffer used to overflow (a crash on the words below).
    for args in (["eval", "a" * 300, "b" * 8], ["perft", "1", "a" * 300, "b" * 20000]):
        rc, out, err = run(args)
        check(rc == 1, "%s...: exit status %d" % (args[0], rc))
        check("FEN too long" in err and len(err.splitlines()) == 1, "%s...: %r" % (args[0], err[:200]))
    rc, out, err = run(["perft", "1", "8/8/8/4k3/8/8/3PK3/8", "w", "-", "-", "0", "1"])
    check(rc == 0 and "Nodes searched: 9" in out, "FEN from words broken: %r" % out[-200:])


@test
def overlong_console_line_refused_whole():
    # Console lines were cut at 4095 bytes and the tail ran as a command (here: quit).
    rc, out, err = run([], stdin="x" * 4095 + "quit\nisready\n")
    check("readyok" in out, "tail of a long line ran as a command: %r" % out[-200:])
    rc, out, err = run([], stdin="x" * 70000 + "quit\nisready\n")
    check("line too long" in out and "readyok" in out, "over-long line not refused: %r" % out[-200:])


@test
def rc_precedence_rc_cmdline_setoption():
    with tempfile.TemporaryDirectory() as d:
        rcfile = os.path.join(d, "my.rc")
        write(rcfile, "# test settings\nhash = 32\nmove_overhead = 123\ncontempt = 7\n")
        rc, out, _ = run(["-rc", rcfile], stdin="uci\nquit\n")
        v = uci_values(out)
        check(v.get("Hash") == "32" and v.get("Move Overhead") == "123" and v.get("Contempt") == "7",
              "rc values not applied: %s" % v)
        # The command line beats the rc file.
        rc, out, _ = run(["-rc", rcfile, "-H", "64"], stdin="uci\nquit\n")
        v = uci_values(out)
        check(v.get("Hash") == "64" and v.get("Contempt") == "7", "-H did not win over rc: %s" % v)
        # setoption beats both.
        rc, out, _ = run(["-rc", rcfile, "-H", "64"],
                         stdin="uci\nsetoption name Hash value 8\nsetoption name Contempt value 3\nuci\nquit\n")
        second = out[out.index("uciok") + 5:]
        v = uci_values(second)
        check(v.get("Hash") == "8" and v.get("Contempt") == "3" and v.get("Move Overhead") == "123",
              "setoption did not win: %s" % v)
        # xboard's option command is a GUI setting too.
        rc, out, _ = run(["-rc", rcfile], stdin="xboard\nprotover 2\noption Contempt=5\nping 1\nquit\n")
        check("pong 1" in out and "Error" not in out, "xboard option failed: %s" % out[-200:])


@test
def rc_found_beside_executable_and_in_config_dir():
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "saavedra")
        shutil.copy(ENGINE, exe)
        write(os.path.join(d, "engine.rc"), "contempt = 11\n")
        check(start_contempt(exe) == "11", "engine.rc beside the executable not read")
        os.remove(os.path.join(d, "engine.rc"))
        conf = os.path.join(d, "conf")
        user_rc(conf, "contempt = 12\n")
        check(start_contempt(exe, {"XDG_CONFIG_HOME": conf}) == "12", "$XDG_CONFIG_HOME/saavedra/engine.rc not read")


@test
def users_rc_wins_over_the_shipped_one():
    # engine.rc beside the executable (as `make install` put it) hid the user's own file.
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "saavedra")
        shutil.copy(ENGINE, exe)
        write(os.path.join(d, "engine.rc"), "contempt = 11\n")
        conf = os.path.join(d, "conf")
        user_rc(conf, "contempt = 12\n")
        check(start_contempt(exe, {"XDG_CONFIG_HOME": conf}) == "12", "the user's engine.rc lost to the shipped one")
        home = os.path.join(d, "home")
        user_rc(os.path.join(home, ".config"), "contempt = 14\n")
        check(start_contempt(exe, {"HOME": home}) == "14", "~/.config/saavedra/engine.rc lost to the shipped one")


@test
def make_install_and_uninstall():
    # The engine and the user programs (saavedra-NAME) in PREFIX/bin, the man page in
    # PREFIX/share/man/man6, data in PREFIX/share/saavedra, found from the binary.
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "prefix")
        # -o: install the binary under test as it is (never rebuilt with other flags); the
        # programs from the build the tests run on (make test has built them).
        tools = os.environ.get("SAAVEDRA_TOOLS")
        build = ["BUILD=" + os.path.dirname(tools)] if tools else []
        make = ["make", "-s", "-C", ROOT, "-o", ENGINE, "EXE=" + ENGINE, "PREFIX=" + prefix] + build
        p = subprocess.run(make + ["install"], capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, "make install failed: %s" % p.stderr[-300:])
        name = os.path.basename(ENGINE)
        programs = [f[:-2] for f in os.listdir(os.path.join(ROOT, "tools", "programs")) if f.endswith(".c")]
        expected = sorted([name] + ["saavedra-" + t for t in programs])
        installed = sorted(os.listdir(os.path.join(prefix, "bin")))
        check(len(programs) >= 7 and installed == expected, "bin holds %s" % installed)
        check(os.path.isfile(os.path.join(prefix, "share", "man", "man6", "saavedra.6")), "no man page")
        shared = os.path.join(prefix, "share", "saavedra", "engine.rc")
        check(os.path.isfile(shared), "no share/saavedra/engine.rc")
        with open(shared, "a") as f:
            f.write("contempt = 13\n")
        exe = os.path.join(prefix, "bin", name)
        check(start_contempt(exe) == "13", "installed engine.rc not read")
        conf = os.path.join(d, "conf")
        user_rc(conf, "contempt = 12\n")
        check(start_contempt(exe, {"XDG_CONFIG_HOME": conf}) == "12", "the user's engine.rc lost to the installed one")
        p = subprocess.run(make + ["uninstall"], capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, "make uninstall failed: %s" % p.stderr[-300:])
        left = [os.path.join(r, f) for r, _, fs in os.walk(prefix) for f in fs]
        check(not left and not os.path.exists(os.path.dirname(shared)), "left after uninstall: %s" % left)


@test
def extra_cflags_keep_the_built_in_net():
    # A build for an experiment (make EXTRA_CFLAGS=-DNAME=VALUE) still embeds the default
    # net: the flags given on the command line add to the embedding flag, not replace it.
    net = os.path.join(ROOT, "src", "nnue", "nets", "default.nnue")
    if not os.path.isfile(net):
        return
    with tempfile.TemporaryDirectory() as d:
        target = os.path.join(d, "nnue", "embedded.o")
        p = subprocess.run(["make", "-n", "-B", "-C", ROOT, "BUILD=" + d, "EXTRA_CFLAGS=-DSAAVEDRA_EXPERIMENT=1", target],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, "make -n failed: %s" % p.stderr[-300:])
        line = [l for l in p.stdout.splitlines() if "embedded.c" in l]
        check(line and "-DSAAVEDRA_EXPERIMENT=1" in line[0] and "NNUE_EMBED_FILE" in line[0] and net in line[0],
              "the compile of embedded.c: %s" % line)


@test
def bad_rc_lines_warned_with_line_numbers():
    with tempfile.TemporaryDirectory() as d:
        rcfile = os.path.join(d, "bad.rc")
        write(rcfile, "hash = 16\nthis is not a setting\nno_such_option = 3\nhash = banana\n"
                      "contempt = 9\n")
        rc, out, err = run(["-rc", rcfile], stdin="uci\nquit\n")
        check(rc == 0, "engine did not run with a bad rc file")
        for n in (2, 3, 4):
            check(re.search(r"bad\.rc:%d:" % n, err), "no warning for line %d: %r" % (n, err))
        check(not re.search(r"bad\.rc:[15]:", err), "good lines warned: %r" % err)
        v = uci_values(out)
        check(v.get("Hash") == "16" and v.get("Contempt") == "9", "good lines not applied: %s" % v)


def norm(key):
    return re.sub(r"[ _-]", "", key).lower()


@test
def engine_rc_documents_every_option():
    """The shipped engine.rc: its settings map onto real options with valid defaults,
    and every user-facing option is documented there."""
    text = open(os.path.join(ROOT, "engine.rc")).read()
    current, future = [], []
    section_future = False
    for line in text.splitlines():
        if line.startswith("# ---"):
            section_future = "arrives with" in line or "arrive with" in line
        m = re.match(r"#([a-z0-9_]+) = (\S+)", line)
        if m:
            (future if section_future else current).append((m.group(1), m.group(2)))
    check(len(current) >= 8, "too few documented settings: %s" % current)
    keys = {norm(k) for k, _ in current + future}
    for wanted in ["bookfile", "bookvariety", "learning", "learningfile", "syzygypath",
                   "syzygyprobedepth", "resignthreshold", "contempt", "logfile", "hash",
                   "threads", "ponder", "moveoverhead"]:
        check(wanted in keys, "engine.rc does not document %s" % wanted)
    with tempfile.TemporaryDirectory() as d:
        rcfile = os.path.join(d, "all.rc")
        write(rcfile, "".join("%s = %s\n" % kv for kv in current if kv[0] != "log_file"))
        rc, out, err = run(["-rc", rcfile], stdin="uci\nquit\n")
        check("warning" not in err, "documented settings rejected: %r" % err)
        rc, out, err = run(["-rc", "/dev/null"], stdin="uci\nquit\n")
        values = uci_values(out)   # the built-in defaults
        for k, v in current:
            if k == "log_file":
                continue
            name = [n for n in values if norm(n) == norm(k)]
            check(name, "%s is not an option" % k)
            check(values[name[0]] == v, "default of %s: engine.rc says %s, engine %s" % (k, v, values[name[0]]))
        # Every option a user sets (buttons and UCI protocol internals aside) is there.
        for n in values:
            if n in ("Clear Hash", "UCI_AnalyseMode", "UCI_Opponent"):
                continue
            check(norm(n) in keys, "option %s missing from engine.rc" % n)


@test
def protocol_log_and_trace():
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "proto.log")
        rc, out, _ = run(["-l", log, "-t"], stdin="xboard\nprotover 2\nnew\nsd 2\ngo\nping 9\n")
        check("pong 9" in out, "no pong")
        check(any(l.startswith("# ") for l in out.splitlines()), "-t gave no '#' trace lines")
        text = open(log).read()
        check(re.search(r"^\d\d:\d\d:\d\d\.\d{3} +\d+ < protover 2$", text, re.M), "input not logged")
        check(re.search(r"^\d\d:\d\d:\d\d\.\d{3} +\d+ > pong 9$", text, re.M), "output not logged")
        check(text.index("< ping 9") < text.index("> pong 9"), "log out of order")
        # The same log from engine.rc's `log file` key.
        rcfile = os.path.join(d, "log.rc")
        log2 = os.path.join(d, "rc.log")
        write(rcfile, "log_file = %s\n" % log2)
        rc, out, _ = run(["-rc", rcfile], stdin="uci\nisready\nquit\n")
        check(os.path.exists(log2) and "> readyok" in open(log2).read(), "log_file key ignored")


@test
def debug_log_file_option():
    """UCI's Debug Log File writes the log of -l: set, moved, ended, refused with a reason;
    a relative name is beside the executable, not in the working directory."""
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "bin", "saavedra")
        os.makedirs(os.path.dirname(exe))
        shutil.copy(ENGINE, exe)
        work = os.path.join(d, "work")
        os.makedirs(work)
        first, second = os.path.join(d, "first.log"), os.path.join(d, "second.log")
        p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, bufsize=1, cwd=work)

        def say(line, until):
            p.stdin.write(line + "\n")
            p.stdin.flush()
            got = []
            while True:
                out = p.stdout.readline()
                check(out, "engine ended; got %s" % got)
                got.append(out.rstrip("\n"))
                if got[-1].startswith(until):
                    return got
        options = say("uci", "uciok")
        check("option name Debug Log File type string default <empty>" in options, "option not shown")
        p.stdin.write("setoption name Debug Log File value %s\n" % first)
        say("isready", "readyok")
        say("go depth 2", "bestmove")
        p.stdin.write("setoption name Debug Log File value %s\n" % second)
        say("isready", "readyok")
        p.stdin.write("setoption name Debug Log File value relative.log\n")
        say("isready", "readyok")
        p.stdin.write("setoption name Debug Log File value\n")
        say("isready", "readyok")
        refused = say("setoption name Debug Log File value /nonexistent/d/x.log", "info string")
        p.stdin.write("quit\n")
        p.stdin.close()
        p.wait(timeout=30)
        text = open(first).read()
        check(re.search(r"^\d\d:\d\d:\d\d\.\d{3} +\d+ < go depth 2$", text, re.M), "input not logged: %s" % text)
        check(re.search(r"> info depth 2 ", text) and "> readyok" in text, "output not logged: %s" % text)
        check("isready" not in open(second).read().split("log opened", 1)[0], "second log")
        check("> readyok" in open(second).read(), "moved log not written")
        beside = os.path.join(d, "bin", "relative.log")
        check(os.path.exists(beside) and not os.path.exists(os.path.join(work, "relative.log")),
              "relative log not beside the executable: %s" % os.listdir(os.path.join(d, "bin")))
        check(open(beside).read().rstrip().endswith("log closed"), "empty value did not end the log")
        check("x.log" in refused[-1] and "error" in refused[-1], "bad path: %s" % refused)


@test
def readme_install_line_and_bot_options():
    """The README's one install line holds what `make test` needs and nothing more: a
    compiler and make, python3, gnuplot (Fathom is the system's only when installed, else
    the pinned copy). The options its lichess-bot section names are the engine's."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    m = re.search(r"`apt-get install ([^`]*)`", readme)
    check(m, "no apt-get line in README.md")
    packages = set(m.group(1).split())
    check(packages == {"build-essential", "python3", "gnuplot-nox"},
          "README install line is not build-essential python3 gnuplot-nox: %s" % sorted(packages))
    section = readme.split("### Under lichess-bot", 1)
    check(len(section) == 2, "no lichess-bot section")
    named = re.findall(r"`([A-Z][A-Za-z ]+)`", re.split(r"\n##+ ", section[1], maxsplit=1)[0])
    rc, out, _ = run([], stdin="uci\nquit\n")
    options = uci_values(out)
    for name in named:
        check(name in options, "README names option %r, which the engine lacks" % name)
    check({"Debug Log File", "Replay Without Book", "OwnBook"} <= set(named), named)


@test
def bad_log_file_in_rc_is_a_warning():
    # A log path from engine.rc that cannot be opened used to stop the engine starting.
    with tempfile.TemporaryDirectory() as d:
        rcfile = os.path.join(d, "l.rc")
        write(rcfile, "log file = /nonexistent/d/x.log\ncontempt = 6\n")
        rc, out, err = run(["-rc", rcfile], stdin="uci\nquit\n")
        check(rc == 0 and "uciok" in out, "engine did not start: rc %d %r" % (rc, err))
        check(uci_values(out).get("Contempt") == "6", "rc settings lost")
        check("warning" in err and "/nonexistent/d/x.log" in err, "no warning: %r" % err)
        # On the command line (-l) it is still an error: the user asked for that log.
        rc, out, err = run(["-l", "/nonexistent/d/x.log"], stdin="uci\nquit\n")
        check(rc != 0 and "x.log" in err, "-l with a bad path accepted: rc %d %r" % (rc, err))


@test
def threads_flag_and_hash_flag():
    rc, out, err = run(["-H", "1G"], stdin="uci\nquit\n")
    check(uci_values(out).get("Hash") == "1024", "-H 1G not applied: %s" % uci_values(out).get("Hash"))
    rc, out, err = run(["-c", "1"], stdin="uci\nquit\n")
    check(uci_values(out).get("Threads") == "1", "-c 1 not applied")


@test
def test_command_on_known_mates():
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "suite.epd")
        with open(MATES) as f:
            text = f.read()
        # One malformed record: skipped with a message, not counted.
        write(suite, text + "not a fen at all; id \"broken\";\n")
        outfile = os.path.join(d, "result.txt")
        # Depth 12: the deepest of the five (WAC.001) is a mate by depth 9 to 11.
        rc, out, err = run(["test", suite, "-d", "12", "-o", outfile])
        check(rc == 0, "test failed: %s" % err)
        check(re.search(r"^correct: 5/5$", out, re.M), "expected correct: 5/5 in:\n%s" % out[-600:])
        check("skipped" in out and ":6:" in out, "bad record not reported with its line")
        check("solution times" in out, "no solution-time grid")
        check(os.path.exists(outfile) and "correct: 5/5" in open(outfile).read(), "-o file missing")
        # Fixed time per position, and from the console.
        rc, out, err = run([], stdin="test %s -t 0.2 -x 2\n" % MATES)
        check(re.search(r"^correct: 5/5$", out, re.M), "console test failed:\n%s" % out[-400:])
        rc, out, err = run(["test", suite])
        check(rc != 0 and "-d" in err, "missing -d/-t not refused on stderr")
        rc, out, err = run(["test", "/tmp", "-d", "1"])   # a directory is not an empty suite
        check(rc != 0 and "cannot read /tmp" in err and "correct:" not in out, "directory read as a suite: %r" % out)
        rc, out, err = run(["codec", "/tmp"])             # the same for a PGN file
        check(rc != 0 and "read error" in err, "codec on a directory: rc %d %r" % (rc, err))
        rc, out, err = run(["bench", "1", "2", "3", "4"])
        check(rc != 0 and "usage: bench" in err and not out, "bench with 4 arguments: %r %r" % (out, err))


@test
def test_command_reads_whole_records():
    # Lines over 4,095 characters were split (the tail ran as a ghost record and every
    # later line number was one off), a NUL cut a record silently, and records after the
    # 20,000th were dropped without a word.
    mate = 'k7/8/1K6/8/8/8/8/7R w - - bm Rh8#; id "corner";'
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "long.epd")
        write(suite, 'k7/8/1K6/8/8/8/8/7R w - - bm Rh8#; c0 "%s";\n' % ("x" * 5000)
              + mate + "\nnot a record\n" + mate.replace("Rh8#;", "Rh8#;\0junk") + "\n")
        rc, out, err = run(["test", suite, "-d", "1"])
        check(rc == 0, "test failed: %s" % err)
        # The over-long record is refused whole (the EPD reader's limit), with its number.
        check(re.search(r"^correct: 1/1$", out, re.M), "expected 1/1:\n%s" % out[-600:])
        skipped = [l.strip() for l in out.splitlines() if "skipped" in l and ".epd:" in l]
        check(len(skipped) == 3 and ":1:" in skipped[0] and "too long" in skipped[0] and ":3:" in skipped[1]
              and ":4:" in skipped[2] and "NUL" in skipped[2], "skipped lines: %s" % skipped)
        many = os.path.join(d, "many.epd")
        write(many, (mate + "\n") * 20003)
        rc, out, err = run(["test", many, "-d", "1"], timeout=600)
        check(rc == 0 and re.search(r"^correct: 20003/20003$", out, re.M), "20,003 records: %s" % out[-300:])


@test
def test_output_never_replaces_what_is_not_a_file():
    # -o wrote a temporary file and renamed it over PATH: a symbolic link became a regular
    # file, a device node was replaced, and -o naming the suite overwrote it.
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "suite.epd")
        with open(MATES) as f:
            text = f.read()
        write(suite, text)
        target = os.path.join(d, "report.txt")
        write(target, "old\n")
        link = os.path.join(d, "link.txt")
        os.symlink(target, link)
        rc, out, err = run(["test", suite, "-d", "2", "-o", link])
        check(rc == 0, "test -o link failed: %s" % err)
        check(os.path.islink(link), "the link was replaced by a file")
        check("correct: " in open(target).read(), "the report did not go through the link")
        rc, out, err = run(["test", suite, "-d", "2", "-o", suite])
        check(rc != 0 and "suite" in err, "-o naming the suite not refused: %r" % err)
        check(open(suite).read() == text, "the suite was overwritten")
        rc, out, err = run(["test", suite, "-d", "2", "-o", os.path.join(d, ".", "suite.epd")])
        check(rc != 0 and open(suite).read() == text, "the suite was overwritten through another name")
        rc, out, err = run(["test", suite, "-d", "1", "-o", "/dev/null"])
        check(rc == 0 and os.path.exists("/dev/null") and not os.path.isfile("/dev/null"), "/dev/null replaced")
        check(not [n for n in os.listdir(d) if ".tmp" in n], "temporary file left: %s" % os.listdir(d))


def run_on_terminal(text):
    """Runs the engine with a pseudo-terminal as its input and output, as a person at a
    console would; returns what it printed."""
    import pty
    import select
    master, slave = pty.openpty()
    env = dict(os.environ, XDG_CONFIG_HOME="/nonexistent-saavedra-test", HOME="/nonexistent-saavedra-test")
    p = subprocess.Popen([ENGINE], stdin=slave, stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    os.write(master, text.encode())
    out = b""
    deadline = time.time() + 30
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=10)
    os.close(master)
    return out.decode(errors="replace").replace("\r\n", "\n")


@test
def banner_on_a_terminal_only():
    # On a terminal the protocol loop says who is answering.
    out = run_on_terminal("quit\n")
    lines = [l for l in out.splitlines() if l.strip() and l.strip() != "quit"]
    check(lines and re.match(r"^Saavedra \S+ by ", lines[0]), "no banner on a terminal: %r" % out[:200])
    rc, vout, _ = run(["--version"])
    # --version adds "(commit ..., system, built-in net ...)" after "Saavedra VERSION".
    check(lines[0].startswith(vout.split(" (")[0] + " "), "banner %r does not name version %r" % (lines[0], vout))
    # Through pipes (a GUI, a server) the first line is the handshake's: a strict client
    # may take anything before it as an error.
    rc, out, _ = run([], stdin="uci\nquit\n")
    check(out.splitlines()[0].startswith("id name ") and "by the" not in out, out[:200])
    rc, out, _ = run([], stdin="xboard\nprotover 2\nquit\n")
    check(out.splitlines() and out.splitlines()[0].startswith("feature ") and "by the" not in out, out[:200])
    rc, out, _ = run([], stdin="quit\n")
    check(out == "", "output through a pipe before any command: %r" % out[:200])
    # Subcommands print only their own output.
    rc, out, _ = run(["perft", "1"])
    check("by the" not in out, "banner in perft output")


QUIET = ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "start";\n'
         'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "spanish";\n')


@test
def test_command_searches_the_time_asked():
    # Move Overhead was taken off -t: 0.3 s became 0.05 s with an overhead of 250.
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "quiet.epd")
        write(suite, QUIET)
        rc, out, err = run([], stdin="setoption name Move Overhead value 250\ntest %s -t 0.3 -v\n" % suite)
        m = re.search(r"^total time: ([\d.]+) s", out, re.M)
        check(m, "no summary:\n%s" % out[-400:])
        check(float(m.group(1)) >= 0.55, "2 positions at -t 0.3 took %s s in all" % m.group(1))
        # Each position's last iteration ends near 0.3 s, not near 0.05 s.
        times = [float(t) for t in re.findall(r"^\s+\d+/\d+\s+\S+\s+([\d.]+)\s", out, re.M)]
        check(times and max(times) > 0.1, "iterations ended by %s s" % (max(times) if times else None))


def start_long_test(suite):
    """The console running `test` on suite for 30 s a position, half a second in."""
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, XDG_CONFIG_HOME="/nonexistent-saavedra-test"))
    p.stdin.write("test %s -t 30\n" % suite)
    p.stdin.flush()
    time.sleep(0.5)
    return p


@test
def test_command_stopped_from_the_console():
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "quiet.epd")
        write(suite, QUIET)
        # stop ends the run (summary printed) and the console goes on (d prints the board).
        p = start_long_test(suite)
        start = time.time()
        out, _ = p.communicate("stop\nd\n", timeout=20)
        check(time.time() - start < 10, "stop took %.1f s" % (time.time() - start))
        check("stopped by the user after 1 position" in out, "no stop note:\n%s" % out[-500:])
        check(re.search(r"^correct: \d/1$", out, re.M), "no summary after stop:\n%s" % out[-500:])
        check("FEN: rnbqkbnr" in out, "console did not go on after stop")
        # quit ends the test and the program: nothing after it runs.
        for proto in ("", "uci\n"):
            rc, out, _ = run([], stdin="%stest %s -t 30\nquit\nd\n" % (proto, suite), timeout=20)
            check("stopped by the user" in out and "FEN:" not in out, "quit in %r: %s" % (proto, out[-300:]))


@test
def test_command_reads_typed_lines_with_the_protocol_policy():
    # A line typed during `test` was read with a 4096-byte buffer: `stop` followed by 5000
    # blanks (a valid line, the loops take up to 64 KB) was taken as too long and dropped,
    # so the test ran on. Now it stops the test; a line over 64 KB is refused whole.
    with tempfile.TemporaryDirectory() as d:
        suite = os.path.join(d, "quiet.epd")
        write(suite, QUIET)
        p = start_long_test(suite)
        start = time.time()
        out, _ = p.communicate("x" * 70000 + " stop\n" + "stop" + " " * 5000 + "\nd\n", timeout=40)
        check(time.time() - start < 10, "stop took %.1f s:\n%s" % (time.time() - start, out[-300:]))
        check("error: line too long, ignored" in out, "over-long line not refused:\n%s" % out[-500:])
        check("stopped by the user after 1 position" in out, "no stop note:\n%s" % out[-500:])
        check("FEN: rnbqkbnr" in out, "console did not go on after stop")


testkit.finish()
