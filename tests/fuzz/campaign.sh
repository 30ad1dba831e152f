#!/usr/bin/env bash
# A fuzzing campaign: every harness (or those named) in turn for SECONDS each, growing a
# corpus kept in BUILD_DIR/corpus/<name> from the seeds (with tests/fuzz/<name>.dict as
# the dictionary where there is one). Stops at the first finding, whose
# input libFuzzer writes to BUILD_DIR/<name>-crash-... (or -leak-, -timeout-, -oom-).
#   bash tests/fuzz/campaign.sh BUILD_DIR SECONDS [NAME ...]
# FUZZ_TIMEOUT (seconds, default 10) is libFuzzer's per-input limit, measured in wall
# time: raise it on a loaded machine, where a starved process is not a slow input.
# It keeps a core busy: on a shared machine run it in slices, e.g.
#   bash tests/fuzz/campaign.sh build/fuzz 170
set -u
build=$1
seconds=$2
shift 2
cd "$(dirname "$0")/../.."
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for src in tests/fuzz/fuzz_*.c; do
        n=$(basename "$src" .c)
        names+=("${n#fuzz_}")
    done
fi
status=0
for name in "${names[@]}"; do
    mkdir -p "$build/corpus/$name"
    log="$build/campaign-$name.log"
    dict=(); [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    "$build/fuzz/fuzz_$name" "${dict[@]}" -max_total_time="$seconds" -max_len=8192 -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/$name-" "$build/corpus/$name" "$build/seeds/$name" >"$log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "ok   fuzz_$name: ${runs:-?} runs in ${seconds} s, $cov, corpus $(ls "$build/corpus/$name" | wc -l)"
    else
        echo "FAIL fuzz_$name (see $log):"
        grep -E "ERROR|invariant|SUMMARY|runtime error|Test unit written" "$log" | head -20
        status=1
        break
    fi
done
exit $status
