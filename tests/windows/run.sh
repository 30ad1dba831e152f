#!/usr/bin/env bash
# The Windows build's tests under wine (make test-windows): the unit tests, perft included,
# the bench node count against the last commit's signature, the UCI and xboard protocol
# scripts and tests/windows/test_wine.py, all against saavedra.exe. Prints the suites'
# summary and exits non-zero on any failure.
#   usage: bash tests/windows/run.sh ENGINE.exe UNIT_TESTS(.exe)   (WINE_BUILD: prefix dir)
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 ENGINE.exe UNIT_TESTS" >&2
    exit 2
fi
cd "$(dirname "$0")/../.." || exit 2
exe=$(realpath "$1")
unit=$(realpath "${2%.exe}.exe")
build=$(realpath -m "${WINE_BUILD:-build/windows}")
wine=${WINE:-$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)}
export WINEPREFIX=${WINEPREFIX:-$build/wineprefix} WINEDEBUG=${WINEDEBUG:--all}
mkdir -p "$WINEPREFIX"
export SAAVEDRA_TIME_SCALE=${SAAVEDRA_TIME_SCALE:-3}

# Unit tests a Windows build cannot run: they fork, use FIFOs, symbolic links, POSIX
# modes, /dev/null, sparse 3 GB files or ':' path lists (the ';' form is tested below).
POSIX_ONLY=syzygy_load_reports_tables_and_bad_directories,syzygy_stress_case_kpvkp_byte_138,syzygy_stress_case_knvkn_hang,syzygy_guard_catches_a_fault_inside_fathom,syzygy_corrupt_table_left_out,syzygy_path_separators_normalised,learnfile_two_writers_lose_nothing,learnfile_compaction_keeps_links_mode_and_cleans_temporaries,outfile_stale_temporaries_of_dead_processes_removed,outfile_writes_through_links_keeping_mode,book_write_never_writes_through_a_planted_link,book_huge_or_zero_file_refused_at_once,rcfile_directory_is_an_error_not_an_empty_file,pgn_read_error_is_not_the_end_of_the_file
# Open problems of the Windows build (docs/build.md): replacing the learning file while
# it is open (compaction, setting a damaged file aside) fails under wine.
KNOWN_GAPS=learnfile_compaction_merges,learnfile_bad_length_kept_aside,learnfile_damaged_and_foreign_set_aside

# A script that runs the .exe under wine: the protocol scripts start it as their engine.
runner=$build/saavedra-wine
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wine" "$exe" > "$runner"
chmod +x "$runner"
# Windows writes text with CRLF line ends; check-bench.sh reads LF lines.
printf '#!/bin/sh\n"%s" "%s" "$@" | tr -d "\\r"\n' "$wine" "$exe" > "$runner-lf"
chmod +x "$runner-lf"

total_passed=0 total_failed=0
suite() {
    local label=$1 out last
    shift
    echo "== $label"
    out=$("$@" 2>&1 | tr -d '\r')
    printf '%s\n' "$out" | grep -v '^ok ' | tail -n 40
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        total_passed=$((total_passed + BASH_REMATCH[1]))
        total_failed=$((total_failed + BASH_REMATCH[2]))
    else
        echo "== $label did not finish with a summary line"
        total_failed=$((total_failed + 1))
    fi
}

suite "unit tests (unit-tests.exe)" timeout 1800 "$wine" "$unit" --skip "$POSIX_ONLY,$KNOWN_GAPS"
echo "== bench"
if bash tools/ci/check-bench.sh "$runner-lf"; then total_passed=$((total_passed + 1)); else total_failed=$((total_failed + 1)); fi
suite tests/test_version.py python3 tests/test_version.py "$runner"
suite tests/windows/test_wine.py python3 tests/windows/test_wine.py "$exe"
suite tests/test_uci.py python3 tests/test_uci.py "$runner"
suite tests/test_xboard.py python3 tests/test_xboard.py "$runner"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
