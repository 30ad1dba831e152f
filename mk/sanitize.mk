# Sanitizer, check and fuzzing builds, each in a folder of its own: debug (ASan + UBSan),
# tsan (ThreadSanitizer), checks (search invariants counted), fuzz (libFuzzer harnesses),
# and their test runs. Included by the Makefile.

.PHONY: debug test-debug test-debug-smp-mates tsan test-tsan checks fuzz fuzz-harnesses fuzz-smoke

debug:
	$(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined"

# The whole test suite on the sanitizer build (perft depths are cut down automatically).
test-debug:
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined" test

# make test-smp-mates (mk/test.mk) on the sanitizer build.
test-debug-smp-mates:
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined" test-smp-mates

TSAN_MAKE = $(MAKE) BUILD=build/tsan EXE=$(EXE)-tsan CFLAGS="-O1 -g -fsanitize=thread" LDLIBS="$(LDLIBS) -fsanitize=thread"
TSAN_LOG  = $(CURDIR)/build/tsan/report
tsan:
	$(TSAN_MAKE)

# ThreadSanitizer run (docs/testing.md): the parallel-search and tablebase unit tests, a
# 4-thread bench in both SMP modes and the UCI and xboard protocol tests on the TSan
# build. Any report (written to build/tsan/report.PID) fails the target, and so does any
# violated search invariant the benches count (src/search/checks.h).
TSAN_BENCH_CHECKS = grep '^Search checks: 0 stale exclusions, 0 wrong double-extension counts, 0 wrong node counts$$'
test-tsan:
	$(TSAN_MAKE) $(EXE)-tsan build/tsan/unit-tests
	rm -f $(TSAN_LOG).*
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" build/tsan/unit-tests --filter smp_ | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" build/tsan/unit-tests --filter syzygy_same | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" ./$(EXE)-tsan bench 10 4 16 YBWC > build/tsan/bench.out; tail -n 4 build/tsan/bench.out
	$(TSAN_BENCH_CHECKS) build/tsan/bench.out >/dev/null
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" ./$(EXE)-tsan bench 10 4 16 Lazy > build/tsan/bench.out; tail -n 4 build/tsan/bench.out
	$(TSAN_BENCH_CHECKS) build/tsan/bench.out >/dev/null
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" SAAVEDRA_TIME_SCALE=4 python3 tests/test_uci.py ./$(EXE)-tsan | grep -v '^ok '
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" SAAVEDRA_TIME_SCALE=4 python3 tests/test_xboard.py ./$(EXE)-tsan | grep -v '^ok '
	@if ls $(TSAN_LOG).* >/dev/null 2>&1; then echo "test-tsan: ThreadSanitizer reports:"; head -n 60 $(TSAN_LOG).*; exit 1; fi
	@echo "test-tsan: no ThreadSanitizer reports"

# The engine at full optimisation with the search invariants of src/search/checks.h
# counted: its bench prints them, for thread counts and depths beyond the check tests'.
checks:
	$(MAKE) BUILD=build/checks EXE=$(EXE)-checks EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DSEARCH_CHECKS=1"

# Fuzzing (docs/testing.md): libFuzzer from clang (Debian clang + libclang-rt-dev), with
# ASan and UBSan; every UBSan finding is fatal. Harnesses are tests/fuzz/fuzz_*.c, each
# linked with the engine's objects into build/fuzz/fuzz_NAME.
FUZZ_SRC    = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES  = $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
# Inputs per harness in the smoke run: a fixed count, so every run fuzzes the same inputs.
FUZZ_SMOKE ?= fen=30000 epd=30000 move=20000 pgn=20000 rc=20000 uci=6000 xboard=6000 book=20000 learn=20000 tbfile=20000 \
              eco=10000 bookbuild=3000 tuneset=10000

# Build-time generators (makeeco) run sanitized too: their leaks at exit are not findings.
fuzz:
	ASAN_OPTIONS=detect_leaks=0 $(MAKE) BUILD=build/fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined" fuzz-harnesses
	bash tests/fuzz/seeds.sh build/fuzz/seeds

fuzz-harnesses: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(LDLIBS)

# The tuner's reader lives in src/tune/, linked with the tuner's object set.
$(BUILD)/fuzz/fuzz_tuneset: tests/fuzz/fuzz_tuneset.c $(wildcard tests/fuzz/*.h) $(TRACE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -fsanitize=fuzzer -o $@ $< $(TRACE_OBJ) $(LDLIBS)

# A short deterministic run of every harness (fixed seed and run count) from the seeds.
fuzz-smoke: fuzz
	bash tests/fuzz/smoke.sh build/fuzz $(FUZZ_SMOKE)
