# Saavedra build.  make [ARCH=native|avx512|bmi2|avx2|popcnt|portable] [EXE=name] [CC=gcc]
#                       [FATHOM=auto|system|source]
#   make           optimised engine ./saavedra (ARCH=native by default); Fathom from the
#                  system (libfathom-dev) if its tbprobe.h is found, else the pinned copy
#   make LTO=1     the same with link-time optimisation (any target: tools and tests too)
#   make pgo       profile-guided engine: instrumented build, profiled on bench, rebuilt
#   make debug     ASan + UBSan build (-O1 -g);  make test-debug  the tests on it
#   make tsan      ThreadSanitizer build;  make test-tsan  threaded tests on it, no reports
#   make checks    ./saavedra-checks: optimised, the search invariants counted (bench prints them)
#   make test      unit and protocol tests; the last line is "N passed, N failed"
#   make test-fathom  the system and the pinned Fathom give the same tablebase digest, and
#                  a build without tbprobe.h installed uses the pinned copy
#   make bench     search benchmark signature;  make bench-perft  perft speed vs Stockfish
#   make sprt BASE=COMMIT [NEW=COMMIT]  a search or evaluation change against BASE (SPRT)
#   make spsa-engine  the tuning build (search parameters as UCI options, build/<ARCH>/spsa/)
#   make spsa SPSA_ARGS=...  SPSA over the search parameters with it (long; docs/spsa.md)
#   make perft-full  every perft count to the deepest depth listed (long)
#   make perft-960   every Chess960 perft count of fischer.epd to depth 5 (long)
#   make test-codec-full  move-code round trip of every game under CODEC_PGN (default tests/data/pgn)
#   make tools     the programs of tools/programs, tools/measure and tools/stress
#                  (build/<ARCH>/tools/NAME)
#   make book      book/book.bin from the sources in book/ (docs/book-format.md)
#   make tuner     the Texel tuner (build/<ARCH>/tools/tuner; docs/tuning.md)
#   make tune-data TUNE_GAMES=N TUNE_NODES=N   the tuner's training set (long; docs/tuning.md)
#   make tune-run TUNE_ITERS=N   tune on it;  make tune-match   tuned vs current (SPRT)
#   make nnue-data [NNUE_DATA=DIR]  self-play training data (resumable; default folder under
#                  $SAAVEDRA_DATA or ~/.local/share/saavedra/data);  make nnue-status  what
#                  every data folder holds;  make nnue-train NNUE_DATA=DIR  a net from it;
#   make nnue-match  the net vs the hand-written evaluation;  make EVALFILE=NET  embed a net
#   make fuzz      libFuzzer harnesses of tests/fuzz/ (clang, ASan + UBSan) in build/fuzz/
#   make fuzz-smoke  each harness for a fixed number of runs from a fixed seed (about a minute)
#   make fuzz-harnesses  the harnesses alone, in the current BUILD (make fuzz sets it up)
#   make killtest  the learning file under 100 SIGKILLs (KILLS=N); make test runs 10
#   make test-smp-mates  the multi-thread mate-distance test SMP_REPEAT (30) times in a row;
#                  make test-debug-smp-mates  the same on the sanitizer build
#   make learning-bench  what learning wins in games (LEARN_BENCH=repeated|book|cost; long)
#   make install   engine, user programs, data and man page under PREFIX (DESTDIR honoured)
#   make windows   saavedra.exe (mingw-w64);  make test-windows  its tests under wine
#   make static    a static Linux binary (Fathom from source);  make test-static  its tests
#   make release   static Linux and Windows binaries per CPU level in dist/ (docs/build.md)
#   make uninstall  removes what make install put under PREFIX
#   make clean     removes build/ and the engine binaries
#   make help      this list

# The variables a user sets most; the others are at the top of the fragment that uses them
# (TUNE_*, NNUE_*, KILLS, FUZZ_SMOKE, WIN_*, RELEASE_ARCHS, ...).
EXE     ?= saavedra
ARCH    ?= native
CC      ?= gcc
PREFIX  ?= /usr/local
WERROR  ?=
LTO     ?=
BUILD   ?= build/$(ARCH)

ifeq ($(CC),cc)
CC = gcc
endif

.PHONY: all help clean FORCE

all: $(EXE)

# The comment block at the top of this file, without its '#'.
help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# The rules, one file per family of targets (docs/build.md, "The Makefile").
include mk/build.mk
include mk/tools.mk
include mk/test.mk
include mk/sanitize.mk
include mk/recipes.mk
include mk/release.mk

clean:
	rm -rf build $(EXE) $(EXE)-debug $(EXE)-tsan $(EXE)-checks $(EXE)-clang $(EXE)-portable saavedra.exe saavedra-static

-include $(OBJ:.o=.d) $(TOOLKIT_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TOOL_NAMES:%=$(BUILD)/tools/%.d) $(TRACE_OBJ:.o=.d) \
         $(TUNE_TEST_OBJ:.o=.d) $(TRACE_TOOLS:%=$(BUILD)/trace/tools/%.d) \
         $(CHECK_SEARCH_SRC:src/%.c=$(BUILD)/check/%.d) $(CHECK_TEST_OBJ:.o=.d)
