#!/usr/bin/env bash
# The net against the hand-written evaluation: one engine built with NET embedded (make
# EVALFILE=NET), played with "Use NNUE" on against itself with it off, through the match
# tool, an SPRT elo0=0 elo1=10 by default (docs/nnue.md).
#   bash tools/recipes/nnue-match.sh NET [OUT_DIR]
#   env: TC (default 10+0.1), GAMES (default 2000, the SPRT may stop earlier), SPRT
#        ("elo0=0 elo1=10"; empty for a fixed number of games), SEED (1), CONCURRENCY (2),
#        OPPONENT (a UCI engine to play instead of the hand-written evaluation, e.g.
#        /usr/games/ethereal-chess), BASE_NET (another net, loaded by the same engine
#        through EvalFile: the gate of a net's next generation against the one before),
#        MATCH_RUNNER (fastchess, cutechess, saavedra-match or a path: match-common.sh),
#        MATCH_OPENINGS (an opening file, .pgn or .epd), NNUE_SCALE (the net side's "NNUE Scale", 100),
#        HASH (MB for each engine, 16)
# Both play without book and learning: the openings come from the file.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 NET [OUT_DIR]" >&2
    exit 2
fi
DEFAULT_TC=10+0.1 DEFAULT_GAMES=2000
source "$(dirname "$0")/match-common.sh"
check_match_setup
net=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(make_dir "${2:-$root/build/nnue-match}")
make -C "$root" -j2 EVALFILE="$net" BUILD="$out/build" EXE="$out/saavedra" "$out/saavedra" >/dev/null
echo "commit $(git -C "$root" rev-parse --short HEAD), net $net"
echo "bench hce:  $("$out/saavedra" bench 13 1 16 YBWC HCE 2>&1 | tail -1)"
echo "bench nnue: $("$out/saavedra" bench 13 1 16 YBWC NNUE 2>&1 | tail -1)"
if [ -n "${OPPONENT:-}" ]; then
    second=(--engine cmd="$OPPONENT" option.Hash=${HASH:-16})
elif [ -n "${BASE_NET:-}" ]; then
    base=$(cd "$(dirname "$BASE_NET")" && pwd)/$(basename "$BASE_NET")
    second=(--engine cmd="$out/saavedra" name=base "option.Use NNUE=true" "option.EvalFile=$base" \
        option.OwnBook=false option.Learning=false option.Hash=${HASH:-16})
else
    second=(--engine cmd="$out/saavedra" name=hce "option.Use NNUE=false" option.OwnBook=false option.Learning=false option.Hash=${HASH:-16})
fi
play_match "$out" --engine cmd="$out/saavedra" name=nnue "option.Use NNUE=true" "option.NNUE Scale=${NNUE_SCALE:-100}" \
    option.OwnBook=false option.Learning=false option.Hash=${HASH:-16} "${second[@]}"
