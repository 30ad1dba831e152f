#!/usr/bin/env bash
# A search or evaluation change against the commit before it: builds the engine from two
# commits (git archive, so the working tree is left alone), checks that each gives the
# bench its commit message states, and plays them with the match runner MATCH_RUNNER
# names (fastchess, cutechess-cli or the node match tool: match-common.sh) from the
# openings MATCH_OPENINGS names, an SPRT elo0=0 elo1=10 at 10+0.1 by default.
#   bash tools/recipes/sprt.sh BASE [NEW [OUT_DIR]]     (NEW: HEAD by default)
#   env: TC (default 10+0.1), GAMES (default 3000, the SPRT stops earlier), SPRT
#        ("elo0=0 elo1=10"; empty for a fixed number of games), SEED (1), CONCURRENCY (2),
#        HASH (MB for each engine, 16), BUILD_ONLY=1 to stop after building
# Run it on an otherwise idle machine: it uses both cores for hours. Both engines play
# without book and learning: the openings come from the file.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 BASE [NEW [OUT_DIR]]" >&2
    exit 2
fi
DEFAULT_TC=10+0.1 DEFAULT_GAMES=3000
source "$(dirname "$0")/match-common.sh"
[ -n "${BUILD_ONLY:-}" ] || check_match_setup
base=$(git -C "$root" rev-parse --short "$1^{commit}") || match_fail "no commit $1"
new=$(git -C "$root" rev-parse --short "${2:-HEAD}^{commit}") || match_fail "no commit ${2:-HEAD}"
out=$(make_dir "${3:-$root/build/sprt-$new-$base}")
for side in "$base" "$new"; do
    rm -rf "$out/tree-$side"
    mkdir -p "$out/tree-$side"
    git -C "$root" archive "$side" | tar -x -C "$out/tree-$side"
    make -C "$out/tree-$side" -j2 EXE="$out/saavedra-$side" "$out/saavedra-$side" >/dev/null
    stated=$(git -C "$root" log --format=%B "$side" | grep -m1 -E '^Bench: [0-9]+' | awk '{print $2}' || true)
    measured=$("$out/saavedra-$side" bench 2>&1 | tail -1 | awk '{print $1}')
    echo "$side: bench $measured${stated:+ (its log states $stated)}"
    [ -z "$stated" ] || [ "$stated" = "$measured" ] || match_fail "$side: bench $measured, but its log states $stated"
done
[ -n "${BUILD_ONLY:-}" ] && exit 0
rules=(option.Hash=${HASH:-16} option.OwnBook=false option.Learning=false)
play_match "$out" --engine cmd="$out/saavedra-$new" name="$new" "${rules[@]}" \
    --engine cmd="$out/saavedra-$base" name="$base" "${rules[@]}"
