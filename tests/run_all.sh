#!/usr/bin/env bash
# Runs every test of Saavedra: the C unit-test binaries (the engine's, then any others
# such as the tuner's), then each tests/test_*.py protocol script (given the engine path
# as argv[1]). Each prints "N passed, N failed" as its last line; this sums them and
# prints the total the same way. Exits non-zero on any failure.
#   usage: bash tests/run_all.sh ENGINE UNIT_TESTS [MORE_UNIT_TESTS...]
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 ENGINE UNIT_TESTS [MORE_UNIT_TESTS...]" >&2
    exit 2
fi
engine=$1
shift
cd "$(dirname "$0")/.." || exit 2
case $engine in /*) ;; *) engine="$PWD/${engine#./}" ;; esac
unit_binaries=()
for u in "$@"; do
    case $u in /*) ;; *) u="$PWD/${u#./}" ;; esac
    unit_binaries+=("$u")
done

total_passed=0
total_failed=0
broken=0

# Runs one suite, echoes its output and adds its last-line counts to the totals. A suite
# that crashes or does not end with the summary line counts as one failure.
run_suite() {
    local label=$1
    shift
    local out status last start elapsed
    echo "== $label"
    start=$(date +%s)
    out=$("$@" 2>&1)
    status=$?
    elapsed=$(( $(date +%s) - start ))
    printf '%s\n' "$out"
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        total_passed=$((total_passed + BASH_REMATCH[1]))
        total_failed=$((total_failed + BASH_REMATCH[2]))
        if [ "$status" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
            echo "== $label exited with status $status"
            total_failed=$((total_failed + 1))
        fi
    else
        echo "== $label did not finish with a summary line (exit status $status)"
        total_failed=$((total_failed + 1))
        broken=1
    fi
    echo "== $label: ${elapsed}s"
}

for u in "${unit_binaries[@]}"; do
    run_suite "unit tests ($(basename "$u"))" "$u"
done
for script in tests/test_*.py; do
    [ -e "$script" ] || continue
    run_suite "$script" python3 "$script" "$engine"
done

echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ] && [ "$broken" -eq 0 ]
