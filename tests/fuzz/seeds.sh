#!/usr/bin/env bash
# Builds the seed corpora of the fuzz harnesses from the project's test data:
#   bash tests/fuzz/seeds.sh OUTDIR      (OUTDIR/<harness>/ one input per file)
# fen: the FENs of perftsuite.epd; epd: the records of every suite in tests/data; move:
# a position byte and the moves of games in tests/data/pgn; pgn: every PGN of tests/data
# (split into games, at most 200 per file); rc: engine.rc and its lines; uci / xboard: the
# sessions in tests/fuzz/sessions plus one per perftsuite position; book: slices of the
# Polyglot test book and of the shipped book; learn: a bare header and a few records' worth
# of bytes (the records carry checksums the fuzzer rarely gets right); tbfile: the
# Syzygy tables under 8 KB with their name byte; eco, bookbuild: the PGN seeds; tuneset:
# the EPD seeds with a result.
set -euo pipefail
out=$1
cd "$(dirname "$0")/../.."
rm -rf "$out"
mkdir -p "$out"/{fen,epd,move,pgn,rc,uci,xboard,book,learn,tbfile}

python3 - "$out" <<'PY'
import glob, os, re, sys
out = sys.argv[1]
def put(kind, name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(out, kind, name), mode) as f:
        f.write(data)

fens = []
for line in open("tests/data/perftsuite.epd"):
    fen = line.split(";")[0].strip()
    if fen:
        fens.append(fen)
for i, fen in enumerate(fens):
    put("fen", "perft%03d" % i, fen)
    put("uci", "perft%03d" % i, "uci\nisready\nposition fen %s moves\ngo depth 2\nisready\nstop\n" % fen)
    put("xboard", "perft%03d" % i, "xboard\nprotover 2\nforce\nsetboard %s\nsd 2\ngo\nping 1\n" % fen)

n = 0
for path in sorted(glob.glob("tests/data/*.epd") + glob.glob("tests/data/epd/*.epd")):
    for line in open(path, errors="replace"):
        if line.strip() and n < 600:
            put("epd", "epd%04d" % n, line.rstrip("\n"))
            n += 1

games = 0
for path in sorted(glob.glob("tests/data/pgn/*.pgn") + glob.glob("tests/data/pgn_bad/*.pgn")):
    text = open(path, "rb").read()
    parts = re.split(rb"\n(?=\[Event )", text)
    base = os.path.basename(path)[:-4]
    for k, game in enumerate(parts[:200]):
        put("pgn", "%s-%03d" % (base, k), game)
        if k < 20:
            body = re.sub(rb"\[[^\]]*\]", b"", game)
            body = re.sub(rb"\{[^}]*\}", b"", body)
            words = [w for w in body.split() if not re.match(rb"^\d+\.+$", w)]
            put("move", "%s-%03d" % (base, k), bytes([games % 8]) + b" ".join(words[:120]))
            games += 1

for path in sorted(glob.glob("tests/data/book/*.bin") + glob.glob("book/*.bin")):
    data = open(path, "rb").read()
    base = os.path.basename(path)[:-4]
    for k, start in enumerate([0, len(data) // 2]):
        start -= start % 16
        put("book", "%s-%d" % (base, k), data[start:start + 8192])
put("learn", "empty", b"")
put("learn", "header", b"\x01")
put("learn", "bytes", b"\x01" + bytes(range(256)))
put("learn", "encoded", b"\x03" + bytes(range(0, 120, 1)) + b"\x05\x00")

# tbfile: the name byte (fuzz_tbfile.c's NAMES) and the table, all of them under 8 KB
tb_names = ["KBvK.rtbw", "KBvK.rtbz", "KRvK.rtbw", "KQvK.rtbw", "KNvKN.rtbw", "KRRvK.rtbw", "KBvKN.rtbw",
            "KRvKR.rtbz", "KPvK.rtbz", "KRPvK.rtbw", "KQvK.rtbz", "KBvKP.rtbz", "KQvKB.rtbw", "KQvKQ.rtbz",
            "KQQvK.rtbw", "KPvK.rtbw"]
for i, name in enumerate(tb_names):
    put("tbfile", name, bytes([i]) + open("tests/data/syzygy/" + name, "rb").read())

rc = open("engine.rc").read()
put("rc", "engine.rc", rc)
settings = [re.sub(r"^#\s*", "", l) for l in rc.splitlines() if re.match(r"^#?\s*[A-Za-z_ -]+ = ", l)]
for k, line in enumerate(settings):
    put("rc", "line%02d" % k, line + "\n")
put("rc", "all", "\n".join(settings) + "\n")
put("rc", "hand", 'contempt = "5"\nmove overhead=  100 # ms\nbad line\n = 3\nUCI_Elo = "2000\nlog file = \n')
PY
cp tests/fuzz/sessions/uci-* "$out/uci/"
cp tests/fuzz/sessions/xboard-* "$out/xboard/"
printf '\x00e4 e5 Nf3 Nc6 Bb5 a6 O-O Nf6 Re1 b5 Bb3 O-O c3 d5' > "$out/move/hand-castle"
printf '\x03b7 a8=Q axb8=N b2b1q bxa1=R e1g1 O-O-O' > "$out/move/hand-promote"
printf '\x05exd6 e5d6 e.p. d6 Rh2 h1 Kd2 0-0 O-O e1g1' > "$out/move/hand-ep"
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4; id "start"; c0 "a;b";' > "$out/epd/hand-quoted"
# eco and bookbuild read PGN (bookbuild's first byte chooses the annotated rules);
# tuneset reads EPD lines with a c2 result.
mkdir -p "$out"/{eco,bookbuild,tuneset}
cp "$out"/pgn/* "$out/eco/"
for f in "$out"/pgn/*; do { printf '\x01'; cat "$f"; } > "$out/bookbuild/$(basename "$f")"; done
k=0
for f in "$out"/epd/*; do
    { printf '\x05\n'; sed 's/$/ c2 "1.0";/' "$f"; printf '\n8/8/8/8/8/8/8/K6k w - - 0 1 c2 "0.5";\n'; } > "$out/tuneset/epd$k"
    k=$((k + 1))
done
echo "seeds: $(for d in "$out"/*/; do printf '%s %s  ' "$(basename "$d")" "$(ls "$d" | wc -l)"; done)"
