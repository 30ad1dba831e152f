#!/usr/bin/env bash
# The parallel search in play (docs/smp.md): one engine, built from the work tree, against
# itself with other thread settings, one game at a time so that each side has the cores
# it asks for.
#   bash tools/recipes/smp-match.sh threads|modes|variant [OUT_DIR]
#     threads: THREADS threads (YBWC) against 1 thread, 200 games by default, no SPRT
#     modes:   THREADS threads YBWC against THREADS threads Lazy, an SPRT elo0=-5 elo1=5
#     variant: the engine against BASE_ENGINE (another build, e.g. of another split
#              rule), both THREADS threads YBWC, an SPRT elo0=0 elo1=10
#   env: THREADS (2), TC (10+0.1), GAMES, SPRT, SEED (1), HASH (MB for each engine, 64),
#        CONCURRENCY (1: more games at once would share the cores the threads need),
#        MATCH_RUNNER and MATCH_OPENINGS (match-common.sh), ENGINE (an engine to play
#        instead of building the work tree's)
# Run it on an otherwise idle machine (pause the data generator: datagen-pause.sh run).
# Both play without book and learning: the openings come from the file.
set -euo pipefail
if [ $# -lt 1 ] || { [ "$1" != threads ] && [ "$1" != modes ] && [ "$1" != variant ]; }; then
    echo "usage: $0 threads|modes|variant [OUT_DIR]" >&2
    exit 2
fi
if [ "$1" = variant ] && [ ! -x "${BASE_ENGINE:-}" ]; then
    echo "$0: variant needs BASE_ENGINE, the build to play against" >&2
    exit 2
fi
what=$1
threads=${THREADS:-2}
if [ "$what" = threads ]; then
    DEFAULT_GAMES=200 SPRT=${SPRT-}
elif [ "$what" = variant ]; then
    DEFAULT_GAMES=2000 SPRT=${SPRT-elo0=0 elo1=10}
else
    DEFAULT_GAMES=2000 SPRT=${SPRT-elo0=-5 elo1=5}
fi
DEFAULT_TC=10+0.1 CONCURRENCY=${CONCURRENCY:-1}
source "$(dirname "$0")/match-common.sh"
check_match_setup
out=$(make_dir "${2:-$root/build/smp-match-$what}")
engine=${ENGINE:-}
if [ -z "$engine" ]; then
    engine=$out/saavedra
    make -C "$root" -j2 BUILD="$out/build" EXE="$engine" "$engine" >/dev/null
    echo "commit $(git -C "$root" rev-parse --short HEAD), $("$engine" bench 2>&1 | tail -1)"
fi
rules=(option.Hash=${HASH:-64} option.OwnBook=false option.Learning=false "option.Move Overhead=50")
if [ "$what" = threads ]; then
    second=(--engine cmd="$engine" name=t1 option.Threads=1 "${rules[@]}")
    first_name=t$threads
elif [ "$what" = variant ]; then
    second=(--engine cmd="$BASE_ENGINE" name=base$threads option.Threads=$threads
        "option.SMP Mode=YBWC" "${rules[@]}")
    first_name=new$threads
else
    second=(--engine cmd="$engine" name=lazy$threads option.Threads=$threads
        "option.SMP Mode=Lazy" "${rules[@]}")
    first_name=ybwc$threads
fi
play_match "$out" --engine cmd="$engine" name=$first_name option.Threads=$threads \
    "option.SMP Mode=YBWC" "${rules[@]}" "${second[@]}"
