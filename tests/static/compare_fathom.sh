#!/usr/bin/env bash
# The unit-test binaries of two builds, one linking Debian's libfathom and one with
# Fathom compiled from src/external/fathom, print the same tablebase digest
# (tests/test_tbdigest.c: WDL and DTZ root ranks over random positions of every table).
#   usage: bash tests/static/compare_fathom.sh UNIT_TESTS_A UNIT_TESTS_B
set -u
cd "$(dirname "$0")/../.." || exit 2
digest() {
    "$1" --filter syzygy_probe_digest | grep -o 'tablebase digest [0-9a-f]* over [0-9]* positions ([0-9]* ranked)'
}
a=$(digest "$1") b=$(digest "$2")
echo "$1: $a"
echo "$2: $b"
if [ -n "$a" ] && [ "$a" = "$b" ]; then
    echo "1 passed, 0 failed"
else
    echo "compare_fathom: the two builds give different tablebase answers"
    echo "0 passed, 1 failed"
    exit 1
fi
