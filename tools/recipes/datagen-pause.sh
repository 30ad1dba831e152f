#!/usr/bin/env bash
# Pauses the training-data generator around work that needs both cores (a match, a
# timing), and lets it go on afterwards:
#   bash tools/recipes/datagen-pause.sh stop|cont|list
#   bash tools/recipes/datagen-pause.sh run COMMAND [ARG...]   (stop, COMMAND, cont)
# It acts on this user's processes whose name starts with "datagen" or
# "saavedra-datagen" (DATAGEN_PATTERN, a pgrep pattern, names others). A stopped generator
# loses nothing: it carries on mid-game. "stop" and "run" return (or start COMMAND) once
# every thread of every generator is stopped, or after 5 s at most. "run" lets it go on
# even when COMMAND fails or is interrupted, and exits with COMMAND's status.
set -uo pipefail

pids() {
    pgrep -u "$(id -u)" "${DATAGEN_PATTERN:-^(saavedra-)?datagen}" || true
}

signal_all() {
    local sig=$1 n=0
    for pid in $(pids); do
        kill -"$sig" "$pid" 2>/dev/null && n=$((n + 1))
    done
    echo "datagen-pause: SIG$sig to $n generator process(es)" >&2
}

# Waits until every thread of every generator shows state T (a signal takes effect when the
# process is next scheduled, which on busy cores may take a while).
wait_stopped() {
    local tries=0 running
    while [ $tries -lt 100 ]; do
        running=0
        for pid in $(pids); do
            for stat in /proc/"$pid"/task/*/stat; do
                [ -r "$stat" ] || continue
                state=$(sed 's/.*) //' "$stat" 2>/dev/null | cut -d' ' -f1)
                case "$state" in T|t|Z|X|"") ;; *) running=1 ;; esac
            done
        done
        [ $running -eq 0 ] && return 0
        sleep 0.05
        tries=$((tries + 1))
    done
    echo "datagen-pause: a generator has not stopped after 5 s" >&2
}

case "${1:-}" in
    stop) signal_all STOP; wait_stopped ;;
    cont) signal_all CONT ;;
    list)
        for pid in $(pids); do
            echo "$pid $(ps -o stat= -p "$pid") $(tr '\0' ' ' < /proc/"$pid"/cmdline 2>/dev/null)"
        done
        ;;
    run)
        shift
        [ $# -gt 0 ] || { echo "usage: datagen-pause.sh run COMMAND [ARG...]" >&2; exit 2; }
        signal_all STOP
        wait_stopped
        trap 'signal_all CONT' EXIT
        trap 'exit 130' INT TERM
        "$@"
        exit $?
        ;;
    *)
        echo "usage: datagen-pause.sh stop|cont|list|run COMMAND [ARG...]" >&2
        exit 2
        ;;
esac
