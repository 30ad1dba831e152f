#!/usr/bin/env python3
"""The opening named by the engine, and the ecocoder tool.

usage: python3 tests/test_eco.py ENGINE   (ecocoder is taken from $SAAVEDRA_TOOLS, which
                                            make test sets to build/<ARCH>/tools)
Checks: UCI `info string opening ...` before a search in a known position and none out of
it; the xboard thinking line with post; the console `eco` command (two move orders, one
code); ecocoder adds tags, corrects wrong ones, --keep, --check, keeps every other byte
(CRLF too), leaves unclassifiable and unreadable games unchanged, writes -o atomically.
The last line printed is "N passed, N failed".
"""
import os
import re
import subprocess
import sys
import tempfile

ENGINE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./saavedra")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.environ.get("SAAVEDRA_TOOLS", os.path.join(ROOT, "build", "native", "tools"))
ECOCODER = os.path.join(TOOLS, "ecocoder")
MAKEECO = os.path.join(TOOLS, "makeeco")
results = []


def check(ok, what):
    results.append(bool(ok))
    if not ok:
        print("FAIL:", what)


def engine(script, timeout=60):
    p = subprocess.run([ENGINE], input=script, capture_output=True, text=True, timeout=timeout)
    return p.stdout


def ecocoder(args, data=b"", timeout=60):
    p = subprocess.run([ECOCODER, *args], input=data, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("latin-1")


def test_uci_names_the_opening():
    out = engine("uci\nposition startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6\n"
                 "go depth 1\nisready\nquit\n")
    m = re.search(r"^info string opening (\S+) (.+)$", out, re.M)
    check(m and m.group(1) == "B90" and "Najdorf" in m.group(2), "no Najdorf info string: %r" % out[-300:])
    out = engine("uci\nposition startpos moves a2a3 h7h6 h2h3 a7a6 b2b3\ngo depth 1\nisready\nquit\n")
    check("bestmove" in out and "info string opening" not in out, "opening named out of book: %r" % out[-300:])


def test_xboard_thinking_line():
    out = engine("xboard\nprotover 2\npost\nnew\nforce\ne2e4\ne7e6\nd2d4\nd7d5\nsd 1\ngo\nping 1\n", timeout=60)
    check(re.search(r"^0 0 0 0 \(C\d\d French", out, re.M), "no opening thinking line: %r" % out[-400:])
    out = engine("xboard\nprotover 2\nnopost\nnew\nforce\ne2e4\ne7e6\nsd 1\ngo\nping 1\n", timeout=60)
    check(not re.search(r"^0 0 0 0 \(", out, re.M), "opening line without post")


def test_console_eco_command():
    a = engine("position startpos moves d2d4 g8f6 c2c4 e7e6 g1f3 d7d5 b1c3\neco\nquit\n")
    b = engine("position startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 g1f3\neco\nquit\n")
    check("position: D37" in a and "game: D37" in a, "eco command: %r" % a)
    check(a == b, "two move orders, different output: %r %r" % (a, b))
    # Out of book after known positions: the game keeps its code, the position has none.
    c = engine("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 a2a3 h7h6 h2h3\neco\nquit\n")
    check("position: not in the ECO table" in c and "game: C" in c, "left book: %r" % c)


GAMES = (b'[Event "one"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n'
         b'1.d4 Nf6 2.c4 e6 3.Nf3 d5 4.Nc3 {a comment} 1-0\n\n'
         b'[Event "two"]\r\n[ECO "A00"]\r\n[Opening "Wrong"]\r\n[Variation "Wrong too"]\r\n\r\n'
         b'1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Nf3 (4.Bg5 Be7) Be7 *\r\n\r\n'
         b'[Event "unknown"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/4K2R w K - 0 1"]\n\n1.Rh5+ Kd4 *\n\n'
         b'[Event "broken"]\n[ECO "Z99"]\n\n1.e4 e5 2.Ke3 *\n')


def strip_eco_lines(data):
    return re.sub(rb"(?m)^\[(ECO|Opening|Variation) [^\n]*\n", b"", data)


def test_ecocoder_adds_and_corrects():
    rc, out, err = ecocoder([], GAMES)
    check(rc == 0, "ecocoder failed: %s" % err)
    check(b'[Result "1-0"]\n[ECO "D37"]\n[Opening "Queen\'s Gambit Declined"]\n' in out,
          "tags not added after the last tag: %r" % out[:300])
    check(b'[ECO "D37"]\r\n' in out and b"Wrong" not in out.split(b'"unknown"')[0], "wrong tags not corrected: %r" % out)
    check(strip_eco_lines(out) == strip_eco_lines(GAMES), "bytes other than the ECO tag lines changed")
    check(out.endswith(b'[Event "broken"]\n[ECO "Z99"]\n\n1.e4 e5 2.Ke3 *\n'), "unreadable game changed")
    check("game 4" in err and "Ke3" in err, "unreadable game not reported: %r" % err)
    check(b'[Event "unknown"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/4K2R w K - 0 1"]\n\n1.Rh5+' in out,
          "unclassifiable game changed")
    rc2, again, _ = ecocoder([], out)
    check(again == out, "a second pass changes the output")


def test_ecocoder_games_without_tags():
    data = b"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 *\n\n1.d4 d5 2.c4 1-0 1.c4 e5 *\n"
    rc, out, err = ecocoder([], data)
    check(out.startswith(b'[ECO "C') and strip_eco_lines(out) == data,
          "game without tags: %r" % out)
    # The third game starts on the second one's line: no room for tags, left alone.
    check(out.count(b"[ECO ") == 2, "tags put inside a line: %r" % out)


def test_ecocoder_keep_and_check():
    rc, out, err = ecocoder(["--keep"], GAMES)
    check(b'[ECO "A00"]\r\n[Opening "Wrong"]' in out, "--keep changed existing tags")
    check(b'[Result "1-0"]\n[ECO "D37"]' in out, "--keep did not add missing tags")
    rc, out, err = ecocoder(["--check"], GAMES)
    text = out.decode()
    check('ECO "A00", computed "D37"' in text and 'ECO "", computed "D37"' in text and "[Event" not in text,
          "--check report: %r" % text)
    check(re.search(r"3 games, 2 classified, 1 with an ECO tag, 0 of these agree", text), "--check summary: %r" % text)


def test_ecocoder_files_and_untouched_input():
    with tempfile.TemporaryDirectory() as d:
        # A file with nothing to classify comes out byte-for-byte.
        src = os.path.join(ROOT, "tests", "data", "pgn")
        plain = (b'[Event "x"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1.e4 Kd7 2.e5 1/2-1/2\n'
                 b'%escape line\n\n{between games}\n[Event "tags only"]\n\n*\n')
        rc, out, err = ecocoder([], plain)
        check(out == plain, "unclassifiable file changed: %r" % out)
        inp = os.path.join(d, "in.pgn")
        outp = os.path.join(d, "out.pgn")
        with open(inp, "wb") as f:
            f.write(GAMES)
        rc, out, err = ecocoder(["-o", outp, inp])
        check(rc == 0 and out == b"" and os.path.exists(outp), "-o failed: %s" % err)
        check(sorted(os.listdir(d)) == ["in.pgn", "out.pgn"], "temporary file left: %s" % os.listdir(d))
        rc2, piped, _ = ecocoder([inp])
        check(open(outp, "rb").read() == piped, "-o and stdout differ")
        rc, out, err = ecocoder([os.path.join(d, "missing.pgn")])
        check(rc != 0 and "missing.pgn" in err, "missing file not reported")
        del src


def test_ecocoder_on_test_files():
    """Every test PGN (variations, comments, BOM, CRLF, FEN games, Chess960, UCI moves):
    apart from the ECO tag lines the output is the input, so games and moves are the same."""
    folder = os.path.join(ROOT, "tests", "data", "pgn")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".pgn"):
            continue
        data = open(os.path.join(folder, name), "rb").read()
        rc, out, err = ecocoder([], data, timeout=120)
        check(strip_eco_lines(out) == strip_eco_lines(data), "%s: other bytes changed" % name)
        rc, again, _ = ecocoder(["--keep"], out, timeout=120)
        check(again == out, "%s: --keep on the output changes it" % name)


def makeeco(files, args=()):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in files:
            paths.append(os.path.join(d, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        out = os.path.join(d, "table.c")
        p = subprocess.run([MAKEECO, *args, "-o", out, *paths], capture_output=True, text=True, timeout=60)
        table = open(out).read() if os.path.exists(out) else ""
        left = sorted(os.listdir(d))
    return p.returncode, table, p.stderr, left


def test_makeeco_formats():
    scid = ('# comment\nA00a "Start position"  *\n'
            'D37 "Queen\'s Gambit Declined: Three Knights"  1.d4 d5 2.c4 e6 3.Nc3 Nf6\n  4.Nf3 *\n'
            'E99 "Broken"  1.d4 Ke5 *\n')
    rc, table, err, left = makeeco([("t.eco", scid)])
    check(rc == 0 and "2 entries, 8 positions (2 ending an entry), deepest 7 plies, 1 entries left out" in err,
          "scid: %r" % err)
    check("t.eco:4: illegal move 'Ke5'" in err, "illegal move not reported with its line: %r" % err)
    check("Queen's Gambit Declined: Three Knights" in table and "ECO_BUILTIN_TABLE" in table, "scid table")
    check(left == ["t.eco", "table.c"], "temporary file left: %s" % left)
    tsv = ("eco\tname\tpgn\nD37\tQGD\t1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3\n"
           "D37\tQGD by another order\t1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3\n")
    rc, table, err, _ = makeeco([("a.tsv", tsv)])
    # Two entries ending in one position: one key for it, the first entry's.
    check(rc == 0 and "2 entries," in err and "(1 ending an entry)" in err, "tsv: %r" % err)
    arasan = 'A00\t1. e3 "Van\'t Kruijs Opening"\nB2\t1. e4 c5 "bad code"\nC20\t1 e4 e5;\n\nA40\t1. d4 1-0\n'
    rc, table, err, _ = makeeco([("eco", arasan)])
    check(rc == 0 and "3 entries" in err and "eco:2: 'B2' is not an ECO code" in err, "arasan: %r" % err)
    rc, table, err, _ = makeeco([("eco", arasan)], ["--format", "tsv"])
    check("expected eco<TAB>name<TAB>pgn" in err, "forced format not used: %r" % err)
    p = subprocess.run([MAKEECO, "/nonexistent/eco"], capture_output=True, text=True, timeout=60)
    check(p.returncode != 0 and "cannot open /nonexistent/eco" in p.stderr, "missing input: %r" % p.stderr)


for name, fn in list(globals().items()):
    if name.startswith("test_") and callable(fn):
        try:
            fn()
        except Exception as e:  # a crash or time-out is one failure, not the end
            check(False, "%s raised %r" % (name, e))

passed = sum(results)
print("%d passed, %d failed" % (passed, len(results) - passed))
sys.exit(0 if passed == len(results) else 1)
