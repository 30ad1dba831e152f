#!/usr/bin/env bash
# UCI_Elo calibration: Saavedra with UCI_LimitStrength at setting E plays Stockfish with
# its own UCI_LimitStrength at the same E (Stockfish fits its scale to CCRL ratings), for
# each E given. One line per setting: games, W-L-D, and the Elo difference with its error
# bar; a calibrated mapping gives differences near 0 at every setting.
#   usage: bash tools/measure/calibrate-elo.sh [-g GAMES] [-t TC] [-j JOBS] [-s SEED] [-r] [-n] ENGINE ELO...
#   e.g.   bash tools/measure/calibrate-elo.sh -g 60 -t 10+0.1 ./saavedra 1400 1800 2200
# An ELO of the form S:E plays Saavedra at setting S against Stockfish at E (S may be
# `full`: Saavedra without the limit), to place a level where Stockfish's scale is near
# it. -r adjudicates a game as lost once both engines agree, for 3 moves each, that one
# side is 10 pawns down (shorter games, the same results in practice).
# -n gives Saavedra no clock: it searches until its node cap ends the search (a level's
# strength whenever the clock allows its nodes, and no waiting out its thinking time),
# while Stockfish keeps the clock -t. Not for `full`, which has no cap. Stockfish stays
# on a clock because its scale was fitted so: it picks its move at depth 1 + level but
# goes on searching, and the deeper hash entries make the next move's shallow pick much
# better; limited to its pick depth instead it played 160-460 Elo below its setting
# (docs/search.md).
# Needs Node and ../shared/tools/match (npm ci there), and Debian's stockfish.
# Stockfish 15.1 accepts UCI_Elo 1350..2850, but above about 2300 it does not reach its
# pick depth at 10+0.1 s, so its scale is compressed there (docs/search.md). Games and
# logs go to $OUT (default /tmp/saavedra-calibrate).
set -u
cd "$(dirname "$0")/../.." || exit 2
games=60 tc=10+0.1 jobs=2 seed=1 adjudicate=() by_nodes=0
while getopts g:t:j:s:rn opt; do
    case $opt in
        g) games=$OPTARG ;;
        t) tc=$OPTARG ;;
        j) jobs=$OPTARG ;;
        s) seed=$OPTARG ;;
        r) adjudicate=(--resign movecount=3 score=1000 twosided=true) ;;
        n) by_nodes=1 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: bash tools/measure/calibrate-elo.sh [-g GAMES] [-t TC] [-j JOBS] [-s SEED] [-r] [-n] ENGINE ELO|S:E..." >&2
    exit 2
fi
engine=$(realpath "$1"); shift
match=$(realpath ../shared/tools/match/match.mjs 2>/dev/null)
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
openings=$(realpath ../shared/data/openings/8moves_v3.pgn 2>/dev/null)
out=${OUT:-/tmp/saavedra-calibrate}
for need in "$engine" "$match" "$stockfish" "$openings"; do
    [ -e "$need" ] || { echo "calibrate-elo: missing $need" >&2; exit 2; }
done
mkdir -p "$out"
clock="tc $tc"
[ $by_nodes = 1 ] && clock="Saavedra to its node cap, Stockfish at tc $tc"
echo "setting  games  W-L-D      Elo difference (Saavedra at S minus Stockfish at E), $clock"
for elo in "$@"; do
    ours=${elo%%:*} theirs=${elo##*:}
    if [ "$ours" = full ]; then
        limit=(option.UCI_LimitStrength=false)
    else
        limit=(option.UCI_LimitStrength=true option.UCI_Elo="$ours")
    fi
    ours_limit=()
    if [ $by_nodes = 1 ]; then
        [ "$ours" = full ] && { echo "calibrate-elo: -n needs a setting, not full" >&2; exit 2; }
        ours_limit=(nodes=1000000000)
    fi
    log="$out/elo-$ours-$theirs.log"
    node "$match" \
        --engine cmd="$engine" name="Saavedra-$ours" "${limit[@]}" "${ours_limit[@]}" \
        --engine cmd="$stockfish" name="Stockfish-$theirs" option.UCI_LimitStrength=true option.UCI_Elo="$theirs" \
        --each tc="$tc" option.Hash=16 option.Threads=1 --games "$games" --concurrency "$jobs" \
        --openings "$openings" --order random --seed "$seed" "${adjudicate[@]}" \
        --pgnout "$out/elo-$ours-$theirs.pgn" > "$log" 2>&1
    result=$(grep -m1 '^Finished:' "$log")
    if [[ $result =~ ([0-9]+)\ wins,\ ([0-9]+)\ losses,\ ([0-9]+)\ draws\;\ Elo\ (.*)$ ]]; then
        w=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]} d=${BASH_REMATCH[3]}
        printf '%7s  %5d  %-9s  %s\n' "$elo" $((w + l + d)) "$w-$l-$d" "${BASH_REMATCH[4]}"
    else
        printf '%7s  match failed, see %s\n' "$elo" "$log"
    fi
done
