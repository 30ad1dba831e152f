#!/usr/bin/env bash
# Opening-book measurements for docs/book-format.md: makebook against Debian's
# `polyglot make-book` on the same games (3 runs each, alternating; wall time), book sizes,
# the shipped book's build time and probe times (tools/measure/bookbench.c). Run from the
# repository root after `make tools`, on an otherwise idle machine:
#     bash tools/measure/book-measure.sh
set -euo pipefail
arch=${ARCH:-native}
makebook=build/$arch/tools/makebook
bookbench=build/$arch/tools/bookbench
polyglot=$(command -v polyglot || echo /usr/games/polyglot)
data=${DATA:-../shared/data/pgn}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$data"/masters/*.pgn > "$tmp/masters.pgn"
gzip -dc book/masters-2500.pgn.gz > "$tmp/masters-2500.pgn"

secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }

for set in masters masters-2500; do
    pgn=$tmp/$set.pgn
    games=$(grep -c '^\[Event ' "$pgn")
    echo "== $set.pgn: $games games ($(du -k "$pgn" | cut -f1) KB), 30 plies, every move kept"
    for run in 1 2 3; do
        a=$(secs "$makebook" -m 1 -p 30 -o "$tmp/own.bin" /dev/null "$pgn")
        b=$(secs "$polyglot" make-book -pgn "$pgn" -bin "$tmp/poly.bin" -max-ply 30 -min-game 1)
        printf 'run %d: makebook %.2f s (%.0f games/s)   polyglot make-book %.2f s (%.0f games/s)\n' \
            "$run" "$a" "$(echo "$games / $a" | bc -l)" "$b" "$(echo "$games / $b" | bc -l)"
    done
    "$makebook" -m 1 -p 30 -o "$tmp/own.bin" /dev/null "$pgn" 2>/dev/null | tail -1
    poly_bytes=$(stat -c %s "$tmp/poly.bin")
    echo "polyglot: $((poly_bytes / 16)) entries, $poly_bytes bytes (16.00 bytes per entry)"
done

echo "== make book (the shipped book)"
t=$(secs make book)
echo "make book: $t s; $(stat -c %s book/book.bin) bytes"

echo "== probe times, shipped book"
"$bookbench" book/book.bin "$tmp/masters.pgn" 100000 1
echo "== probe times, Polyglot book of the same 2500+ games (polyglot make-book -max-ply 30 -min-game 1)"
"$polyglot" make-book -pgn "$tmp/masters-2500.pgn" -bin "$tmp/poly.bin" -max-ply 30 -min-game 1 > /dev/null 2>&1
"$bookbench" "$tmp/poly.bin" "$tmp/masters.pgn" 100000 1
