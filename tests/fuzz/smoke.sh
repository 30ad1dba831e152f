#!/usr/bin/env bash
# The fuzz smoke run: every harness of tests/fuzz/ for a fixed number of inputs from a
# fixed seed (-seed=1), starting from the seed corpora (left untouched: new inputs go to a
# scratch directory). A crash, sanitizer report, leak, time-out (10 s per input) or failed
# invariant fails it; the input is then kept in BUILD_DIR.
#   bash tests/fuzz/smoke.sh BUILD_DIR [NAME=RUNS ...]     (10000 runs unless given)
# Prints "N passed, N failed" last, as the other suites do.
set -u
build=$1
shift
cd "$(dirname "$0")/../.."
declare -A runs_of
for arg in "$@"; do
    runs_of[${arg%%=*}]=${arg#*=}
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0
for src in tests/fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    name=${name#fuzz_}
    runs=${runs_of[$name]:-10000}
    mkdir -p "$scratch/$name"
    start=$(date +%s)
    dict=(); [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    if "$build/fuzz/fuzz_$name" "${dict[@]}" -seed=1 -runs="$runs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
            -artifact_prefix="$scratch/$name-" "$scratch/$name" "$build/seeds/$name" >"$scratch/$name.log" 2>&1; then
        echo "ok   fuzz_$name ($runs runs, $(( $(date +%s) - start )) s)"
        passed=$((passed + 1))
    else
        echo "FAIL fuzz_$name:"
        grep -E "ERROR|invariant|SUMMARY|runtime error|Test unit written" "$scratch/$name.log" | head -20
        for a in "$scratch/$name"-*; do
            [ -e "$a" ] && cp "$a" "$build/" && echo "     input kept as $build/$(basename "$a")"
        done
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
