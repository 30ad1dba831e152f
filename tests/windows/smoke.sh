#!/usr/bin/env bash
# A short check of saavedra.exe under wine, for CI: the UCI (with no warning at start)
# and xboard handshakes, the bench node count against the last commit's signature, and a
# short search.
#   usage: bash tests/windows/smoke.sh saavedra.exe     (WINEPREFIX: build/wineprefix)
set -u
cd "$(dirname "$0")/../.." || exit 2
exe=$(realpath "${1:-saavedra.exe}")
wine=${WINE:-$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)}
export WINEPREFIX=${WINEPREFIX:-$PWD/build/wineprefix} WINEDEBUG=${WINEDEBUG:--all}
mkdir -p "$WINEPREFIX"
runner=$(dirname "$WINEPREFIX")/saavedra-wine
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wine" "$exe" > "$runner"
chmod +x "$runner"
# Windows writes text with CRLF line ends; check-bench.sh reads LF lines. wine's own
# messages (a prefix being set up) go to stderr and must not end the bench's output.
printf '#!/bin/sh\n"%s" "%s" "$@" 2>/dev/null | tr -d "\\r"\n' "$wine" "$exe" > "$runner-lf"
chmod +x "$runner-lf"
fail=0
out=$(printf 'uci\nisready\nposition startpos moves e2e4\ngo movetime 500\n' | timeout 120 "$runner" 2>&1)
if printf '%s\n' "$out" | grep -q '^id name Saavedra ' && printf '%s\n' "$out" | grep -q '^uciok' \
   && printf '%s\n' "$out" | grep -q '^bestmove [a-h][1-8][a-h][1-8]' \
   && ! printf '%s\n' "$out" | grep -q '^warning'; then
    echo "ok   UCI handshake and go movetime 500, no warning at start"
else
    echo "FAIL UCI: $(printf '%s\n' "$out" | tail -n 3)"; fail=1
fi
out=$(printf 'xboard\nprotover 2\nnew\nst 1\ne2e4\n' | timeout 120 "$runner" 2>&1)
if printf '%s\n' "$out" | grep -q 'feature .*myname="Saavedra ' && printf '%s\n' "$out" | grep -q '^move '; then
    echo "ok   xboard handshake and a move"
else
    echo "FAIL xboard: $(printf '%s\n' "$out" | tail -n 3)"; fail=1
fi
if bash tools/ci/check-bench.sh "$runner-lf"; then echo "ok   bench"; else fail=1; fi
exit $fail
