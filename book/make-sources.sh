#!/usr/bin/env bash
# Regenerates the book's sources in book/ from the master-game collections (run from the
# repository root; needs Debian's pgn-extract and gzip). `make book` then builds
# book/book.bin from them.
#   book/arasan_basic.pgn.gz   Arasan's hand-annotated book source, unchanged
#   book/masters-2500.pgn.gz   master games, both players rated 2500 or more, duplicates
#                              removed, at least 10 plies, cut to their first 30 plies
#                              (the Result tag keeps the game's result), Seven Tag Roster
set -euo pipefail
data=${1:-../shared/data/pgn}
pgn_extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'WhiteElo >= "2500"\nBlackElo >= "2500"\n' > "$tmp/tags"
"$pgn_extract" -s -D -t "$tmp/tags" -pl10 --plylimit 30 --nocomments --novars --nonags -7 -w 10000 \
    -o "$tmp/masters.pgn" "$data"/masters/*.pgn
gzip -9n < "$tmp/masters.pgn" > book/masters-2500.pgn.gz
gzip -9n < "$data/arasan_basic.pgn" > book/arasan_basic.pgn.gz
echo "book/masters-2500.pgn.gz: $(grep -c '^\[Event ' "$tmp/masters.pgn") games"
