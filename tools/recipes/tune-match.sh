#!/usr/bin/env bash
# A tuned params.c against the current one: builds the engine twice from the committed
# tree (HEAD, and HEAD with PARAMS_C in place of src/eval/params.c) and plays them with the
# match runner MATCH_RUNNER names (fastchess, cutechess-cli or the node match tool:
# match-common.sh) from the openings MATCH_OPENINGS names, an SPRT elo0=0 elo1=10 by
# default.
#   bash tools/recipes/tune-match.sh PARAMS_C [OUT_DIR]
#   env: TC (default 5+0.05), GAMES (default 800, the SPRT may stop earlier), SPRT
#        ("elo0=0 elo1=10"; empty for a fixed number of games), SEED (1), CONCURRENCY (2),
#        BUILD_ONLY=1 to stop after building the two engines
# Run it on an otherwise idle machine: it uses both cores for a long time.
# Both play without book and learning: the openings come from the file, and two engines in
# one directory would otherwise share (and both write) one learning file.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 PARAMS_C [OUT_DIR]" >&2
    exit 2
fi
DEFAULT_TC=5+0.05 DEFAULT_GAMES=800
source "$(dirname "$0")/match-common.sh"
[ -n "${BUILD_ONLY:-}" ] || check_match_setup
params=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(make_dir "${2:-$root/build/tune-match}")
# Both engines from the committed tree (HEAD), the tuned one with PARAMS_C.
for side in base tuned; do
    rm -rf "$out/tree-$side"
    mkdir -p "$out/tree-$side"
    git -C "$root" archive HEAD | tar -x -C "$out/tree-$side"
done
cp "$params" "$out/tree-tuned/src/eval/params.c"
echo "commit $(git -C "$root" rev-parse --short HEAD), tuned params.c: $params"
for side in base tuned; do
    make -C "$out/tree-$side" -j2 EXE="$out/saavedra-$side" "$out/saavedra-$side" >/dev/null
done
[ -n "${BUILD_ONLY:-}" ] && exit 0
echo "bench base:  $("$out/saavedra-base" bench 2>&1 | tail -1)"
echo "bench tuned: $("$out/saavedra-tuned" bench 2>&1 | tail -1)"
rules=(option.Hash=16 option.OwnBook=false option.Learning=false)
play_match "$out" --engine cmd="$out/saavedra-tuned" name=tuned "${rules[@]}" \
    --engine cmd="$out/saavedra-base" name=base "${rules[@]}"
