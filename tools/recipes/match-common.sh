# Sourced by the match recipes (tune-match.sh, nnue-match.sh): the settings they share and
# the match they play. Before sourcing, set DEFAULT_TC and DEFAULT_GAMES; afterwards
# root, TC, GAMES, SPRT, SEED, CONCURRENCY, match_dir and openings are set from the
# environment (SAAVEDRA_MATCH: the folder of match.mjs; SAAVEDRA_OPENINGS: an opening file).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TC=${TC:-$DEFAULT_TC}
GAMES=${GAMES:-$DEFAULT_GAMES}
SPRT=${SPRT-elo0=0 elo1=10}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-2}
match_dir=${SAAVEDRA_MATCH:-$root/../shared/tools/match}
openings=${SAAVEDRA_OPENINGS:-$root/../shared/data/openings/8moves_v3.pgn}

# The absolute path of a folder, created if missing.
make_dir() {
    mkdir -p "$1"
    (cd "$1" && pwd)
}

# play_match OUT ENGINE_ARGS...: the two engines' --engine groups, then the shared rules
# (openings in random order from SEED, an SPRT unless SPRT is empty, resignation and draw
# adjudication); the games go to OUT/games.pgn.
play_match() {
    local out=$1
    shift
    local sprt_args=()
    [ -n "$SPRT" ] && sprt_args=(--sprt $SPRT)
    [ -d "$match_dir/node_modules" ] || (cd "$match_dir" && npm ci)
    (cd "$match_dir" && node match.mjs "$@" --each tc="$TC" --games "$GAMES" --concurrency "$CONCURRENCY" \
        --openings "$openings" --order random --seed "$SEED" "${sprt_args[@]}" \
        --resign movecount=3 score=1000 --draw movenumber=40 movecount=8 score=10 \
        --ratinginterval 20 --pgnout "$out/games.pgn")
}
