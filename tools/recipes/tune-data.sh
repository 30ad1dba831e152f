#!/usr/bin/env bash
# The tuner's training set, reproducibly (docs/tuning.md):
#   1. self-play: GAMES games of Saavedra against itself at NODES nodes per move, from the
#      openings in $SAAVEDRA_TEST_DATA/openings/noob_2moves.epd (a random one per game) plus
#      RANDOM_PLIES random plies, on THREADS threads  -> OUT/selfplay.pgn
#   2. pgnselect on the master games ($SAAVEDRA_TEST_DATA/pgn/masters/*.pgn)  -> OUT/masters.epd
#   3. pgnselect on the self-play games                                  -> OUT/selfplay.epd
#   4. both together                                                     -> OUT/train.epd
# SAAVEDRA_TEST_DATA is the measurement data folder (docs/data-licences.md; default ../shared/data
# beside the repository). Each step's count and time go to OUT/recipe.log. Run through `make tune-data`, or:
#   bash tools/recipes/tune-data.sh TOOLS_DIR OUT_DIR   (env GAMES NODES THREADS RANDOM_PLIES SEED MIN MAX GAP_MIN GAP_MAX)
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 TOOLS_DIR OUT_DIR" >&2
    exit 2
fi
tools=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${SAAVEDRA_TEST_DATA:-$root/../shared/data}
GAMES=${GAMES:-20000}
NODES=${NODES:-5000}
THREADS=${THREADS:-2}
RANDOM_PLIES=${RANDOM_PLIES:-2}
SEED=${SEED:-1}
MIN=${MIN:-12}
MAX=${MAX:-250}
GAP_MIN=${GAP_MIN:-2}
GAP_MAX=${GAP_MAX:-5}
for t in selfplay pgnselect; do
    [ -x "$tools/$t" ] || { echo "error: $tools/$t not built (make tools)" >&2; exit 1; }
done
[ -d "$data/pgn/masters" ] || { echo "error: no master games in $data/pgn/masters (set SAAVEDRA_TEST_DATA)" >&2; exit 1; }
mkdir -p "$out"
log=$out/recipe.log
: > "$log"
note() { echo "$*" | tee -a "$log"; }
timed() { # label, command...
    local label=$1 start end
    shift
    start=$(date +%s)
    "$@" 2> >(tee -a "$log" >&2)
    end=$(date +%s)
    note "$label: $((end - start)) s"
}
note "tune-data: $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
note "GAMES=$GAMES NODES=$NODES THREADS=$THREADS RANDOM_PLIES=$RANDOM_PLIES SEED=$SEED MIN=$MIN MAX=$MAX GAP=$GAP_MIN..$GAP_MAX"
select_opts=(-min "$MIN" -max "$MAX" -d "$GAP_MIN" -s "$GAP_MAX")
if [ "$GAMES" -gt 0 ]; then
    timed "self-play ($GAMES games)" "$tools/selfplay" -o "$out/selfplay.pgn" -games "$GAMES" -nodes "$NODES" \
        -c "$THREADS" -openings "$data/openings/noob_2moves.epd" -random "$RANDOM_PLIES" --seed "$SEED"
    timed "pgnselect self-play" "$tools/pgnselect" "${select_opts[@]}" --seed "$((SEED + 1))" \
        -o "$out/selfplay.epd" "$out/selfplay.pgn"
else
    : > "$out/selfplay.epd"
fi
timed "pgnselect masters" "$tools/pgnselect" "${select_opts[@]}" --seed "$SEED" -o "$out/masters.epd" \
    $(ls "$data"/pgn/masters/*.pgn | sort)
cat "$out/masters.epd" "$out/selfplay.epd" > "$out/train.epd.tmp"
mv "$out/train.epd.tmp" "$out/train.epd"
note "positions: masters $(wc -l < "$out/masters.epd"), self-play $(wc -l < "$out/selfplay.epd"), total $(wc -l < "$out/train.epd") in $out/train.epd"
