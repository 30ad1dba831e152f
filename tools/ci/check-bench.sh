#!/usr/bin/env bash
# Checks that the engine's bench node count equals the signature recorded in the newest
# commit message carrying a "Bench: N" line (commits that change search or evaluation
# must state the new count). Only a line that is exactly "Bench: N" counts: "Bench N",
# "Bench: N." or "Bench: N nodes" are prose, not signatures. Passes with a note when no
# commit states one yet (tests/test_ci_checks.py).
#   usage: bash tools/ci/check-bench.sh [ENGINE]      (default ./saavedra)
set -u
cd "$(dirname "$0")/../.." || exit 2
engine=${1:-./saavedra}
if [ ! -x "$engine" ]; then
    echo "check-bench: no engine at $engine (build it first)" >&2
    exit 2
fi
if ! expected_line=$(git log --format=%B 2>/dev/null | grep -m1 -E '^Bench: [0-9]+$'); then
    echo "check-bench: no 'Bench: N' line in the git log (or no git history); nothing to compare"
    exit 0
fi
expected=$(printf '%s\n' "$expected_line" | awk '{print $2}')
output=$("$engine" bench 2>&1)
status=$?
last=$(printf '%s\n' "$output" | tail -n 1)
if [ $status -ne 0 ] || ! [[ $last =~ ^([0-9]+)\ nodes\ ([0-9]+)\ nps$ ]]; then
    printf '%s\n' "$output" | tail -n 5
    echo "check-bench: FAILED: bench did not finish with 'N nodes M nps' (exit status $status)"
    exit 1
fi
actual=${BASH_REMATCH[1]}
if [ "$actual" != "$expected" ]; then
    echo "check-bench: FAILED: bench gives $actual nodes, the last commit signature says Bench: $expected"
    echo "check-bench: (a commit that changes search or evaluation must carry the new count)"
    exit 1
fi
echo "check-bench: ok, $actual nodes ($(printf '%s' "$last" | awk '{print $3}') nps) matches Bench: $expected"
