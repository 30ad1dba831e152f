# Sourced by the match recipes (tune-match.sh, nnue-match.sh): the settings they share and
# the match they play. Before sourcing, set DEFAULT_TC and DEFAULT_GAMES; afterwards
# root, TC, GAMES, SPRT, SEED, CONCURRENCY and openings are set from the environment, and
# find_runner (called by play_match) picks the match runner:
#   MATCH_RUNNER   fastchess, cutechess (cutechess-cli), saavedra-match (the node match
#                  tool, the folder of match.mjs in SAAVEDRA_MATCH), or a runner's path
#                  (its name says which: *fastchess*, *cutechess*, or match.mjs / its
#                  folder); unset: fastchess, then cutechess-cli from PATH, then the node
#                  tool if SAAVEDRA_MATCH (default ../shared/tools/match) has it
#   MATCH_OPENINGS an opening file, .pgn or .epd (SAAVEDRA_OPENINGS is the older name;
#                  default ../shared/data/openings/8moves_v3.pgn beside the project)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TC=${TC:-$DEFAULT_TC}
GAMES=${GAMES:-$DEFAULT_GAMES}
SPRT=${SPRT-elo0=0 elo1=10}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-2}
openings=${MATCH_OPENINGS:-${SAAVEDRA_OPENINGS:-$root/../shared/data/openings/8moves_v3.pgn}}

# The absolute path of a folder, created if missing.
make_dir() {
    mkdir -p "$1"
    (cd "$1" && pwd)
}

match_fail() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

# Sets runner_kind (fastchess, cutechess or saavedra-match) and runner (the program, or
# the node tool's folder) from MATCH_RUNNER, or fails with what to install.
find_runner() {
    local want=${MATCH_RUNNER:-} node_dir=${SAAVEDRA_MATCH:-$root/../shared/tools/match}
    case $want in
    "")
        if runner=$(command -v fastchess); then
            runner_kind=fastchess
        elif runner=$(command -v cutechess-cli); then
            runner_kind=cutechess
        elif [ -f "$node_dir/match.mjs" ]; then
            runner_kind=saavedra-match runner=$node_dir
        else
            match_fail "no match runner found: install fastchess (https://github.com/Disservin/fastchess)" \
                "or cutechess-cli (https://github.com/cutechess/cutechess) in PATH, or set MATCH_RUNNER" \
                "to one's path (or to saavedra-match with SAAVEDRA_MATCH, the folder of match.mjs)"
        fi
        ;;
    fastchess | cutechess | cutechess-cli)
        local program=$want
        [ "$want" = cutechess ] && program=cutechess-cli
        runner=$(command -v "$program") || match_fail "MATCH_RUNNER=$want: $program is not in PATH"
        runner_kind=${want%-cli}
        ;;
    saavedra-match)
        [ -f "$node_dir/match.mjs" ] || match_fail "MATCH_RUNNER=saavedra-match: no match.mjs in $node_dir (set SAAVEDRA_MATCH)"
        runner_kind=saavedra-match runner=$node_dir
        ;;
    *)
        if [ -d "$want" ] && [ -f "$want/match.mjs" ]; then
            runner_kind=saavedra-match runner=$(cd "$want" && pwd)
        elif [ "$(basename "$want")" = match.mjs ] && [ -f "$want" ]; then
            runner_kind=saavedra-match runner=$(cd "$(dirname "$want")" && pwd)
        elif [ -x "$want" ] && [ ! -d "$want" ]; then
            case $(basename "$want") in
            *fastchess*) runner_kind=fastchess ;;
            *cutechess*) runner_kind=cutechess ;;
            *) match_fail "MATCH_RUNNER=$want: cannot tell which runner it is (its name holds neither fastchess nor cutechess)" ;;
            esac
            runner=$want
        else
            match_fail "MATCH_RUNNER=$want: no such program (fastchess, cutechess, saavedra-match or a path)"
        fi
        ;;
    esac
}

# The SPRT settings with the error rates the runners need (fastchess and cutechess-cli
# want alpha and beta; 0.05 each unless SPRT gives them).
sprt_settings() {
    local s=$SPRT
    [[ $s == *alpha=* ]] || s="$s alpha=0.05"
    [[ $s == *beta=* ]] || s="$s beta=0.05"
    echo "$s"
}

# The runner and the openings file, or a message saying what is missing (the recipes
# call it before they build anything).
check_match_setup() {
    find_runner
    [ -f "$openings" ] || match_fail "no openings file $openings: set MATCH_OPENINGS to a .pgn or .epd file" \
        "(e.g. 8moves_v3.pgn from https://github.com/official-stockfish/books)"
}

# play_match OUT ENGINE_ARGS...: the two engines' --engine groups (--engine cmd=... name=...
# option.NAME=VALUE ...), then the shared rules (openings in random order from SEED, an
# SPRT unless SPRT is empty, resignation and draw adjudication), played by the runner
# find_runner picks. The games go to OUT/games.pgn, the runner's output to the terminal
# and OUT/match.log, and its last report is summed up in one line (tools/measure/matchlog.py).
play_match() {
    local out=$1
    shift
    check_match_setup
    local format=pgn
    [[ $openings == *.epd ]] && format=epd
    local sprt=() engines=() cmd=() status=0
    echo "match runner: $runner_kind ($runner), openings $openings"
    if [ "$runner_kind" = saavedra-match ]; then
        [ -n "$SPRT" ] && sprt=(--sprt $SPRT)
        [ -d "$runner/node_modules" ] || (cd "$runner" && npm ci)
        cmd=(node match.mjs "$@" --each tc="$TC" --games "$GAMES" --concurrency "$CONCURRENCY"
            --openings "$openings" --order random --seed "$SEED" "${sprt[@]}"
            --resign movecount=3 score=1000 --draw movenumber=40 movecount=8 score=10
            --ratinginterval 20 --pgnout "$out/games.pgn")
        (cd "$runner" && "${cmd[@]}") 2>&1 | tee "$out/match.log" || status=$?
    else
        local arg
        for arg in "$@"; do
            if [ "$arg" = --engine ]; then
                engines+=(-engine)
                [ "$runner_kind" = cutechess ] && engines+=(proto=uci)
            else
                engines+=("$arg")
            fi
        done
        [ -n "$SPRT" ] && sprt=(-sprt $(sprt_settings))
        local pgnout=("$out/games.pgn")
        [ "$runner_kind" = fastchess ] && pgnout=("file=$out/games.pgn")
        cmd=("$runner" "${engines[@]}" -each tc="$TC" -games 2 -rounds $(((GAMES + 1) / 2)) -repeat
            -concurrency "$CONCURRENCY" -openings file="$openings" format=$format order=random
            -srand "$SEED" "${sprt[@]}" -resign movecount=3 score=1000 -draw movenumber=40 movecount=8 score=10
            -ratinginterval 20 -pgnout "${pgnout[@]}")
        "${cmd[@]}" 2>&1 | tee "$out/match.log" || status=$?
    fi
    [ "$status" -eq 0 ] || match_fail "the match runner failed (exit $status); its output is in $out/match.log"
    echo "result: $(python3 "$root/tools/measure/matchlog.py" "$out/match.log")"
}
