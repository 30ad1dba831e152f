# Saavedra build.  make [ARCH=native|avx512|bmi2|avx2|popcnt|portable] [EXE=name] [CC=gcc]
#   make           optimised engine ./saavedra (ARCH=native by default)
#   make LTO=1     the same with link-time optimisation (any target: tools and tests too)
#   make pgo       profile-guided engine: instrumented build, profiled on bench, rebuilt
#   make debug     ASan + UBSan build (-O1 -g);  make test-debug  the tests on it
#   make tsan      ThreadSanitizer build;  make test-tsan  threaded tests on it, no reports
#   make test      unit and protocol tests; the last line is "N passed, N failed"
#   make bench     search benchmark signature;  make bench-perft  perft speed vs Stockfish
#   make sprt BASE=COMMIT [NEW=COMMIT]  a search or evaluation change against BASE (SPRT)
#   make perft-full  every perft count to the deepest depth listed (long)
#   make perft-960   every Chess960 perft count of fischer.epd to depth 5 (long)
#   make test-codec-full  move-code round trip of every game under CODEC_PGN (default tests/data/pgn)
#   make tools     the programs of tools/programs, tools/measure and tools/stress
#                  (build/<ARCH>/tools/NAME)
#   make book      book/book.bin from the sources in book/ (docs/book-format.md)
#   make tuner     the Texel tuner (build/<ARCH>/tools/tuner; docs/tuning.md)
#   make tune-data TUNE_GAMES=N TUNE_NODES=N   the tuner's training set (long; docs/tuning.md)
#   make tune-run TUNE_ITERS=N   tune on it;  make tune-match   tuned vs current (SPRT)
#   make nnue-data NNUE_DATA=DIR  self-play training data;  make nnue-train  a net from it;
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

EXE     ?= saavedra
ARCH    ?= native
CC      ?= gcc
PREFIX  ?= /usr/local
WERROR  ?=

ifeq ($(CC),cc)
CC = gcc
endif

CSTD     = -std=gnu11
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes $(WERROR)
OPT      = -O3 -fno-plt -DNDEBUG
LDLIBS   = -lpthread -lm -lfathom

# Syzygy tablebases are probed through Fathom's tbprobe.h and libfathom (tablebase/syzygy.c).
ifeq ($(filter clean windows test-windows static release,$(MAKECMDGOALS))$(filter source,$(FATHOM))$(findstring mingw,$(CC)),)
  ifneq ($(shell printf '\043include <tbprobe.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo ok),ok)
    $(error tbprobe.h not found: install the Fathom library, Debian/Ubuntu package libfathom-dev (apt-get install libfathom-dev))
  endif
endif

ifeq ($(ARCH),native)
  ARCHFLAGS = -march=native
else ifeq ($(ARCH),avx512)
  ARCHFLAGS = -march=x86-64-v4 -mtune=skylake-avx512 -DUSE_PEXT
else ifeq ($(ARCH),bmi2)
  ARCHFLAGS = -march=haswell -DUSE_PEXT
else ifeq ($(ARCH),avx2)
  ARCHFLAGS = -march=x86-64-v3 -mtune=znver2
else ifeq ($(ARCH),popcnt)
  ARCHFLAGS = -march=x86-64 -mpopcnt -msse4.2
else ifeq ($(ARCH),portable)
  ARCHFLAGS = -march=x86-64 -mtune=generic
else
  $(error unknown ARCH=$(ARCH): use native, avx512, bmi2, avx2, popcnt or portable)
endif

CFLAGS  ?= $(OPT)
ALLFLAGS = $(CSTD) $(WARN) $(ARCHFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) $(LTOFLAGS) $(PGOFLAGS) -Isrc -MMD -MP

# Link-time optimisation (LTO=1): the hot calls cross files (movepicker_next, see_ge,
# tt_probe, make_move, evaluate, generate_moves), which only the linker can inline.
# gcc runs its link-time passes in parallel (-flto=auto); clang uses ThinLTO. The flags
# go to every compile and link, so an LTO build must not reuse objects of another one:
# give it its own BUILD (make LTO=1 BUILD=build/lto).
LTO ?=
IS_CLANG = $(findstring clang,$(notdir $(CC)))
ifneq ($(strip $(LTO)),)
  ifneq ($(IS_CLANG),)
    LTOFLAGS = -flto=thin
  else
    LTOFLAGS = -flto=auto
  endif
endif

# Sources live in one folder per layer (src/board, src/eval, src/search, ...; see
# docs/architecture.md); every .c below src/ is part of the engine, main.c only of the binary.
# src/tune/ is not part of the engine: it needs the evaluation's coefficient trace.
# src/toolkit/ (self-play games, the book builder) is linked into the tools and the tests
# only, never into the engine binary.
SRC      = $(sort $(filter-out src/tune/% src/toolkit/% $(NOT_THIS_OS),$(wildcard src/*.c src/*/*.c)))
LIB_SRC  = $(filter-out src/main.c,$(SRC))
TOOLKIT_SRC = $(sort $(wildcard src/toolkit/*.c))
TEST_SRC = $(wildcard tests/*.c)
# tools/ by role (docs/architecture.md): programs/ for users (installed), measure/ for the
# docs' figures, stress/ for robustness runs, recipes/ and ci/ scripts. Each .c file of
# TOOL_DIRS is a program of its own, linked with the engine's objects into
# $(BUILD)/tools/NAME (make tools); the ones in TRACE_TOOLS are linked with the tuner's
# object set instead. A .c file directly in tools/ is built the same way.
TRACE_TOOLS = tuner wdlfit nnuetrain eval_loss
TOOL_DIRS  = tools tools/programs tools/measure tools/stress
TOOL_SRC   = $(foreach d,$(TOOL_DIRS),$(wildcard $(d)/*.c))
TOOL_NAMES = $(notdir $(TOOL_SRC:.c=))
TOOLS      = $(TOOL_NAMES:%=$(BUILD)/tools/%)
# The user programs `make install` puts beside the engine, as saavedra-NAME.
USER_TOOLS = $(notdir $(basename $(wildcard tools/programs/*.c)))
# makeeco is linked without the ECO table it makes (below).
PLAIN_TOOLS = $(filter-out $(TRACE_TOOLS:%=$(BUILD)/tools/%) $(BUILD)/tools/makeeco,$(TOOLS))

BUILD   ?= build/$(ARCH)
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o)
TOOLKIT_OBJ = $(TOOLKIT_SRC:src/%.c=$(BUILD)/%.o)
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/%.o) $(TOOLKIT_OBJ)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)

# The ECO table (src/opening/eco.h) is C generated by tools/programs/makeeco from ECO_SRC, which
# itself is linked without it; docs/eco.md.
ECO_SRC ?= book/eco/arasan.eco $(sort $(wildcard book/eco/*.tsv))
ECO_C    = $(BUILD)/opening/ecodata.c
ECO_OBJ  = $(BUILD)/opening/ecodata.o
OBJ     += $(ECO_OBJ)
LIB_OBJ += $(ECO_OBJ)

# A mingw-w64 compiler (CC=x86_64-w64-mingw32-gcc, as make windows sets) builds for
# Windows: platform_windows.c (with platform_windows_streams.c) and tbguard_windows.c replace their POSIX forms, Fathom is
# compiled from src/external/fathom, and the C library, winpthreads and all are linked
# statically (binmode.o: files open in binary mode, as on POSIX).
# FATHOM=source compiles the pinned Fathom on Linux too (make static); the default links
# Debian's libfathom.
FATHOM ?= system
MINGW  ?= x86_64-w64-mingw32-gcc
ifneq ($(findstring mingw,$(CC)),)
  NOT_THIS_OS = src/util/platform_posix.c src/tablebase/tbguard.c
  FATHOM      = source
  OPT         = -O3 -DNDEBUG -D__USE_MINGW_ANSI_STDIO=1 -Wno-format
  LDLIBS      = -static $(shell $(CC) -print-file-name=binmode.o) -lpthread -lm
  # The unit tests on Windows: those for what Windows lacks (memory streams, resource
  # limits, FIFOs) are left out; the POSIX calls of the rest come from util/platform.h.
  TEST_SRC   := $(filter-out tests/test_iolog.c tests/test_annotate.c tests/test_params.c tests/test_nnue.c,$(wildcard tests/*.c))
  $(BUILD)/tests/%.o: override EXTRA_CFLAGS += -Itests/windows/compat -include tests/windows/compat/posix_tests.h
else
  NOT_THIS_OS = src/util/platform_windows.c src/util/platform_windows_streams.c src/tablebase/tbguard_windows.c
endif
FATHOM_OBJ = $(BUILD)/external/fathom/tbprobe.o
ifeq ($(FATHOM),source)
  EXTRA_CFLAGS += -Isrc/external/fathom
  LDLIBS       := $(filter-out -lfathom,$(LDLIBS))
  OBJ          += $(FATHOM_OBJ)
  LIB_OBJ      += $(FATHOM_OBJ)
endif

# The tuner's object set: the evaluation compiled again with -DEVAL_TRACE (eval/trace.h),
# src/tune/, and every other engine object as it is. The engine never links these.
EVAL_SRC  = $(wildcard src/eval/*.c)
TUNE_SRC  = $(sort $(wildcard src/tune/*.c src/nnue/train/*.c))
TRACE_OBJ = $(EVAL_SRC:src/%.c=$(BUILD)/trace/%.o) $(TUNE_SRC:src/%.c=$(BUILD)/trace/%.o) \
            $(filter-out $(EVAL_SRC:src/%.c=$(BUILD)/%.o),$(LIB_OBJ))
TUNE_TEST_SRC = $(wildcard tests/tune/*.c)
TUNE_TEST_OBJ = $(TUNE_TEST_SRC:tests/tune/%.c=$(BUILD)/trace/tests/%.o) $(BUILD)/trace/tests/test_main.o

# The net built into the engine (src/nnue/embedded.c, docs/nnue.md); make EVALFILE=PATH
# embeds another. Without the file the engine is built without a net.
EVALFILE ?= src/nnue/nets/default.nnue
NNUE_NET  = $(wildcard $(EVALFILE))
ifeq ($(origin EVALFILE),command line)
  ifeq ($(NNUE_NET),)
    $(error EVALFILE=$(EVALFILE): no such file)
  endif
endif

.PHONY: help test-smp-mates test-debug-smp-mates FORCE all debug test test-debug clean install bench bench-perft perft-full tsan test-tsan test-codec-full tools tuner tune-data tune-run tune-match \
        fuzz fuzz-harnesses fuzz-smoke nnue-data nnue-train nnue-match sprt

all: $(EXE)

# The comment block at the top of this file, without its '#'.
help:
	@sed -n '1,/^$$/s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

$(EXE): $(OBJ) $(BUILD)/engine.objs
	$(CC) $(ALLFLAGS) -o $@ $(OBJ) $(LDLIBS)

# Each binary's object list, rewritten only when it changes: adding or deleting a source
# file then relinks the binary even though every remaining object is older than it.
$(BUILD)/engine.objs: FORCE | $(BUILD)
	@echo '$(OBJ)' | cmp -s - $@ || echo '$(OBJ)' > $@

$(BUILD)/unit-tests.objs: FORCE | $(BUILD)
	@echo '$(LIB_OBJ) $(TEST_OBJ)' | cmp -s - $@ || echo '$(LIB_OBJ) $(TEST_OBJ)' > $@

FORCE:

$(BUILD)/%.o: src/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(BUILD)/nnue/embedded.o: override EXTRA_CFLAGS += $(if $(NNUE_NET),-DNNUE_EMBED_FILE='"$(abspath $(NNUE_NET))"')
$(BUILD)/nnue/embedded.o: $(NNUE_NET) $(BUILD)/nnue/evalfile.stamp
$(BUILD)/nnue/evalfile.stamp: FORCE | $(BUILD)
	@mkdir -p $(@D)
	@echo '$(abspath $(NNUE_NET))' | cmp -s - $@ || echo '$(abspath $(NNUE_NET))' > $@

# The version (docs/build.md): a source archive's VERSION file, else git describe; only
# util/version.o is compiled again when it changes.
VERSION := $(patsubst v%,%,$(or $(shell cat VERSION 2>/dev/null),$(shell git describe --tags --always --dirty 2>/dev/null),unknown))
COMMIT  := $(or $(shell git rev-parse --short HEAD 2>/dev/null),unknown)$(if $(findstring dirty,$(VERSION)),-dirty)
$(BUILD)/util/version.o: override EXTRA_CFLAGS += -DSAAVEDRA_VERSION='"$(VERSION)"' -DSAAVEDRA_COMMIT='"$(COMMIT)"'
$(BUILD)/util/version.o: $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE | $(BUILD)
	@echo '$(VERSION) $(COMMIT)' | cmp -s - $@ || echo '$(VERSION) $(COMMIT)' > $@

$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(BUILD)/tools/%.o: tools/programs/%.c | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(BUILD)/tools/%.o: tools/measure/%.c | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(BUILD)/tools/%.o: tools/stress/%.c | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(BUILD)/tools/%.o: tools/%.c | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -c -o $@ $<

$(PLAIN_TOOLS): $(BUILD)/tools/%: $(BUILD)/tools/%.o $(LIB_OBJ)
	$(CC) $(ALLFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

$(BUILD)/trace/%.o: src/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(BUILD)/trace/tests/%.o: tests/tune/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -Itests -c -o $@ $<

$(BUILD)/trace/tests/test_main.o: tests/test_main.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(BUILD)/trace/tools/%.o: tools/programs/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(BUILD)/trace/tools/%.o: tools/measure/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(TRACE_TOOLS:%=$(BUILD)/tools/%): $(BUILD)/tools/%: $(BUILD)/trace/tools/%.o $(TRACE_OBJ) | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -o $@ $< $(TRACE_OBJ) $(LDLIBS)

$(BUILD)/tune-tests: $(TRACE_OBJ) $(TUNE_TEST_OBJ)
	$(CC) $(ALLFLAGS) -o $@ $(TRACE_OBJ) $(TUNE_TEST_OBJ) $(LDLIBS)

tools: $(TOOLS)

$(BUILD)/tools/makeeco: $(BUILD)/tools/makeeco.o $(filter-out $(ECO_OBJ),$(LIB_OBJ))
	$(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

# Regenerated when the sources or what decides keys and moves change (the board layer,
# the key check in eco.o, makeeco itself), not whenever any engine file does.
ifeq ($(ECO_PREBUILT),)
$(ECO_C): $(ECO_SRC) $(BUILD)/tools/makeeco.o $(BUILD)/opening/eco.o $(filter $(BUILD)/board/%,$(LIB_OBJ)) | $(BUILD)/tools/makeeco
	@mkdir -p $(@D)
	@# In sanitizer builds (make debug, test-debug, fuzz) the generator's leaks at exit
	@# would fail the build; a failed run must not leave a partial table behind.
	ASAN_OPTIONS=detect_leaks=0 $(BUILD)/tools/makeeco -o $@ $(ECO_SRC) || { rm -f $@; exit 1; }
endif

$(ECO_OBJ): $(ECO_C)
	$(CC) $(ALLFLAGS) -c -o $@ $<

tuner: $(BUILD)/tools/tuner

# The tuner's training set (long, both cores: see docs/tuning.md); SAAVEDRA_DATA names
# the folder of master games and openings it reads.
TUNE_GAMES ?= 20000
TUNE_NODES ?= 5000
TUNE_OUT   ?= build/tune-data
tune-data: $(BUILD)/tools/selfplay $(BUILD)/tools/pgnselect
	GAMES=$(TUNE_GAMES) NODES=$(TUNE_NODES) bash tools/recipes/tune-data.sh $(BUILD)/tools $(TUNE_OUT)

# A tuning run on that set (TUNE_ARGS="-i $(TUNE_OUT)/x0" continues an earlier one), then
# the match of its params.c against the current one (tools/recipes/tune-match.sh).
TUNE_ITERS ?= 1000
TUNE_ARGS  ?=
tune-run: $(BUILD)/tools/tuner
	$(BUILD)/tools/tuner -c 2 -n $(TUNE_ITERS) -x $(TUNE_OUT)/x0 -f $(TUNE_OUT)/params.c \
	    --csv $(TUNE_OUT)/loss.csv --plot $(TUNE_OUT)/loss.png $(TUNE_ARGS) $(TUNE_OUT)/train.epd
tune-match:
	bash tools/recipes/tune-match.sh $(TUNE_OUT)/params.c $(TUNE_OUT)/match

# The neural evaluation's chain (docs/nnue.md): self-play data into NNUE_DATA (outside
# the repository; resumable, the same games for the same seed), a net trained on it, the
# net against the hand-written evaluation (SPRT), then make EVALFILE=$(NNUE_OUT)/net.nnue.
# DATAGEN_NET=builtin|FILE generates the next data with a net; NNUE_DATA=DIR1:DIR2 trains on
# several folders.
NNUE_DATA   ?= $(SAAVEDRA_DATA)
NNUE_GAMES  ?= 100000
NNUE_NODES  ?= 5000
NNUE_SEED   ?= 1
NNUE_OUT    ?= build/nnue
NNUE_EPOCHS ?= 15
DATAGEN_NET ?=
nnue-data: $(BUILD)/tools/datagen
	@test -n "$(NNUE_DATA)" || { echo "nnue-data: set NNUE_DATA=DIR (or SAAVEDRA_DATA)" >&2; exit 2; }
	$(BUILD)/tools/datagen -o $(NNUE_DATA) -games $(NNUE_GAMES) -nodes $(NNUE_NODES) -c 2 -book book/book.bin --seed $(NNUE_SEED) \
	    $(if $(DATAGEN_NET),-net $(DATAGEN_NET))

nnue-train: $(BUILD)/tools/nnuetrain
	@test -n "$(NNUE_DATA)" || { echo "nnue-train: set NNUE_DATA=DIR (or SAAVEDRA_DATA)" >&2; exit 2; }
	@mkdir -p $(NNUE_OUT)
	$(BUILD)/tools/nnuetrain -d $(NNUE_DATA) -o $(NNUE_OUT)/net.nnue -epochs $(NNUE_EPOCHS) -c 2 --plot $(NNUE_OUT)/loss.png

nnue-match:
	bash tools/recipes/nnue-match.sh $(NNUE_OUT)/net.nnue $(NNUE_OUT)/match

# A search or evaluation change (NEW, default HEAD) against the commit before it (BASE):
# both built from git, an SPRT elo0=0 elo1=10 at 10+0.1 (tools/recipes/sprt.sh; long).
sprt:
	@test -n "$(BASE)" || { echo "sprt: set BASE=COMMIT (and NEW=COMMIT; default HEAD)" >&2; exit 2; }
	bash tools/recipes/sprt.sh $(BASE) $(or $(NEW),HEAD)

.SECONDARY: $(TOOL_NAMES:%=$(BUILD)/tools/%.o)

$(BUILD) $(BUILD)/tests $(BUILD)/tools:
	mkdir -p $@

$(BUILD)/unit-tests: $(LIB_OBJ) $(TEST_OBJ) $(BUILD)/unit-tests.objs
	$(CC) $(ALLFLAGS) -o $@ $(LIB_OBJ) $(TEST_OBJ) $(LDLIBS)

debug:
	$(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined"

# The whole test suite on the sanitizer build (perft depths are cut down automatically).
# The multi-threaded mate-distance check (part of make test) SMP_REPEAT times in a row: its
# failures would be intermittent (docs/smp.md). make test-debug-smp-mates: the same on the
# sanitizer build.
SMP_REPEAT ?= 30
test-smp-mates: $(BUILD)/unit-tests
	@for i in $$(seq $(SMP_REPEAT)); do \
	    out=$$($(BUILD)/unit-tests --filter smp_same_mate 2>&1); \
	    case "$$out" in *" 0 failed"*) echo "run $$i: ok";; *) printf '%s\n' "$$out"; echo "run $$i: FAILED"; exit 1;; esac; \
	done
test-debug-smp-mates:
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined" test-smp-mates


test-debug:
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined" test

TSAN_MAKE = $(MAKE) BUILD=build/tsan EXE=$(EXE)-tsan CFLAGS="-O1 -g -fsanitize=thread" LDLIBS="$(LDLIBS) -fsanitize=thread"
TSAN_LOG  = $(CURDIR)/build/tsan/report
tsan:
	$(TSAN_MAKE)

# ThreadSanitizer run (docs/testing.md): the parallel-search and tablebase unit tests, a
# 4-thread bench in both SMP modes and the UCI and xboard protocol tests on the TSan
# build. Any report (written to build/tsan/report.PID) fails the target.
test-tsan:
	$(TSAN_MAKE) $(EXE)-tsan build/tsan/unit-tests
	rm -f $(TSAN_LOG).*
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" build/tsan/unit-tests --filter smp_ | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" build/tsan/unit-tests --filter syzygy_same | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" ./$(EXE)-tsan bench 10 4 | tail -n 3
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" ./$(EXE)-tsan bench 10 4 16 Lazy | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" SAAVEDRA_TIME_SCALE=4 python3 tests/test_uci.py ./$(EXE)-tsan | tail -n 1
	TSAN_OPTIONS="log_path=$(TSAN_LOG)" SAAVEDRA_TIME_SCALE=4 python3 tests/test_xboard.py ./$(EXE)-tsan | tail -n 1
	@if ls $(TSAN_LOG).* >/dev/null 2>&1; then echo "test-tsan: ThreadSanitizer reports:"; head -n 60 $(TSAN_LOG).*; exit 1; fi
	@echo "test-tsan: no ThreadSanitizer reports"

test: $(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests $(USER_TOOLS:%=$(BUILD)/tools/%)
	@SAAVEDRA_TOOLS=$(abspath $(BUILD)/tools) bash tests/run_all.sh ./$(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests

# The learning file's kill test (docs/testing.md): KILLS SIGKILLs at random moments of an
# engine playing games with learning on; make test runs it with 10.
KILLS ?= 100
.PHONY: killtest
killtest: $(EXE)
	python3 tests/test_killtest.py ./$(EXE) $(KILLS)

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

perft-full: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --perft-full

# Every Chess960 count of tests/data/fischer.epd to depth 5 (4,800 counts, about 1.4 * 10^10 nodes).
.PHONY: perft-960
perft-960: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --filter perft_fischer960 --perft-full

CODEC_PGN ?= tests/data/pgn
test-codec-full: $(EXE)
	./$(EXE) codec $$(find $(CODEC_PGN) -name '*.pgn' | sort)

bench: $(EXE)
	./$(EXE) bench

# Profile-guided optimisation: an instrumented engine in PGO_BUILD plays `bench` (the
# profile), then the objects are compiled again with the profile into $(EXE). Both passes
# use the same object folder: gcc finds an object's profile by the object's path. The
# instrumented build runs makeeco too; its profile is dropped before the bench run.
# Combine with ARCH, CC and LTO=1 as with make; the bench node count stays the same.
PGO_BUILD ?= build/pgo-$(ARCH)
PGO_DIR    = $(abspath $(PGO_BUILD))/profile
LLVM_PROFDATA ?= llvm-profdata
ifneq ($(IS_CLANG),)
  PGO_GEN   = -fprofile-generate=$(PGO_DIR)
  # The profile is keyed by function name: makeeco's main meets the engine's main.
  PGO_USE   = -fprofile-use=$(PGO_DIR)/saavedra.profdata -Wno-backend-plugin \
              -Wno-profile-instr-out-of-date -Wno-profile-instr-unprofiled
  PGO_MERGE = $(LLVM_PROFDATA) merge -output=$(PGO_DIR)/saavedra.profdata $(PGO_DIR)/*.profraw
else
  PGO_GEN   = -fprofile-generate=$(PGO_DIR)
  # -Wclobbered: with the profile's inlining gcc flags pthread_cleanup_push's own setjmp
  # variable (xbio.c's reader), a false positive of that macro.
  PGO_USE   = -fprofile-use=$(PGO_DIR) -fprofile-partial-training -Wno-missing-profile -Wno-clobbered
  PGO_MERGE = true
endif
.PHONY: pgo
pgo:
	rm -rf $(PGO_BUILD)
	$(MAKE) BUILD=$(PGO_BUILD) EXE=$(PGO_BUILD)/saavedra-instrumented PGOFLAGS="$(PGO_GEN)" \
	    $(PGO_BUILD)/saavedra-instrumented
	rm -rf $(PGO_DIR)
	$(PGO_BUILD)/saavedra-instrumented bench > $(PGO_BUILD)/profile-run.txt 2>&1
	$(PGO_MERGE)
	find $(PGO_BUILD) -name '*.o' -delete
	rm -f $(PGO_BUILD)/opening/ecodata.c $(PGO_BUILD)/engine.objs
	$(MAKE) BUILD=$(PGO_BUILD) PGOFLAGS="$(PGO_USE)" $(EXE)
	tail -n 1 $(PGO_BUILD)/profile-run.txt

# What learning wins in games (docs/learning.md): LEARN_BENCH=repeated (default), book or
# cost; LEARN_BENCH_ARGS passes options (--tc, --rounds, --arms, --opponent, ...). Needs
# a match runner (MATCH_RUNNER: fastchess, cutechess-cli or SAAVEDRA_MATCH's node tool)
# and Debian's ethereal-chess (book: and polyglot).
LEARN_BENCH ?= repeated
.PHONY: learning-bench
learning-bench: $(EXE)
	python3 tools/measure/learning-bench.py $(LEARN_BENCH) --engine ./$(EXE) $(LEARN_BENCH_ARGS)

bench-perft: $(EXE)
	bash tools/measure/bench-perft.sh ./$(EXE)

# ---- Windows, static Linux and release builds (docs/build.md) ----
# Fathom is built as Debian builds its library (no locks, no popcnt instruction needed).
$(FATHOM_OBJ): src/external/fathom/tbprobe.c $(wildcard src/external/fathom/*.h) src/external/fathom/tbchess.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 $(ARCHFLAGS) -DNDEBUG -DTB_NO_THREADS -DTB_NO_HW_POP_COUNT -w -Isrc/external/fathom -c -o $@ $<

# make windows [ARCH=...]: saavedra.exe (its objects in build/windows-ARCH). The ECO
# table is generated by the Linux build's makeeco (the .exe cannot run here).
WIN_BUILD ?= build/windows-$(ARCH)
WIN_EXE   ?= saavedra.exe
.PHONY: windows test-windows static release
WIN_ALSO  ?= $(WIN_BUILD)/unit-tests
windows:
	$(MAKE) FATHOM=source BUILD=build/host-$(ARCH) build/host-$(ARCH)/opening/ecodata.c
	@mkdir -p $(WIN_BUILD)/opening
	cmp -s build/host-$(ARCH)/opening/ecodata.c $(WIN_BUILD)/opening/ecodata.c || cp build/host-$(ARCH)/opening/ecodata.c $(WIN_BUILD)/opening/ecodata.c
	$(MAKE) CC=$(MINGW) BUILD=$(WIN_BUILD) EXE=$(WIN_EXE) ECO_PREBUILT=1 $(WIN_EXE) $(WIN_ALSO)

# The unit tests, perft, bench and the protocol tests that apply, under wine.
test-windows: windows
	WINE_BUILD=$(WIN_BUILD) bash tests/windows/run.sh ./$(WIN_EXE) $(WIN_BUILD)/unit-tests

# make static [ARCH=...]: saavedra-static, linked statically with Fathom from source, so
# it runs on any x86-64 Linux. make test-static: no dynamic section, the same tablebase
# results as the libfathom build, and the protocol tests on it.
STATIC_EXE ?= saavedra-static
static:
	$(MAKE) FATHOM=source BUILD=build/static-$(ARCH) EXE=$(STATIC_EXE) LDLIBS="-static -lpthread -lm" $(STATIC_EXE)

test-static: static $(BUILD)/unit-tests
	$(MAKE) FATHOM=source BUILD=build/static-$(ARCH) LDLIBS="-static -lpthread -lm" build/static-$(ARCH)/unit-tests
	! readelf -d $(STATIC_EXE) 2>/dev/null | grep -q NEEDED
	bash tests/static/compare_fathom.sh $(BUILD)/unit-tests build/static-$(ARCH)/unit-tests
	python3 tests/test_uci.py ./$(STATIC_EXE) | tail -n 1
	python3 tests/test_xboard.py ./$(STATIC_EXE) | tail -n 1
	python3 tests/test_syzygy.py ./$(STATIC_EXE) | tail -n 1

# make release: dist/saavedra-VERSION/ with a static Linux binary and a Windows .exe per
# CPU level, book.bin and engine.rc beside them (where the engine looks), the archive's
# README, SHA256SUMS; then its .tar.gz. Long: every level is a full build.
RELEASE_ARCHS ?= portable popcnt avx2 bmi2 avx512
RELEASE_DIR    = dist/saavedra-$(VERSION)
.PHONY: test-static
release:
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	for a in $(RELEASE_ARCHS); do \
	    $(MAKE) static VERSION=$(VERSION) COMMIT=$(COMMIT) ARCH=$$a STATIC_EXE=$(RELEASE_DIR)/saavedra-$(VERSION)-linux-$$a || exit 1; \
	    $(MAKE) windows VERSION=$(VERSION) COMMIT=$(COMMIT) ARCH=$$a WIN_ALSO= WIN_EXE=$(RELEASE_DIR)/saavedra-$(VERSION)-windows-$$a.exe || exit 1; \
	done
	cp book/book.bin engine.rc CHANGELOG.md LICENSE $(RELEASE_DIR)/
	sed 's/@VERSION@/$(VERSION)/g' tools/release/README.txt > $(RELEASE_DIR)/README.txt
	cd $(RELEASE_DIR) && sha256sum $$(ls | grep -v SHA256SUMS) > SHA256SUMS
	tar -C dist -czf $(RELEASE_DIR).tar.gz saavedra-$(VERSION)
	@echo "release: $(RELEASE_DIR) and $(RELEASE_DIR).tar.gz"

# make install PREFIX=DIR: the engine and the user programs (as saavedra-NAME) in
# DIR/bin, the man page in DIR/share/man/man6, the data in DIR/share/saavedra (found from
# the binary's own folder: ../share/saavedra). Data files are listed in DATA_FILES; a data
# file that is built (a book) adds itself with DATA_FILES += FILE, and a listed file that
# does not exist is skipped. The user's own ~/.config/saavedra/engine.rc wins over the
# installed one (README, engine.rc).
DATA_FILES = engine.rc
DATA_FILES += book/book.bin
DATADIR    = $(PREFIX)/share/saavedra
MAN6DIR    = $(PREFIX)/share/man/man6
.PHONY: uninstall

install: $(EXE) $(USER_TOOLS:%=$(BUILD)/tools/%)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR) $(DESTDIR)$(MAN6DIR)
	install -m 755 $(EXE) $(DESTDIR)$(PREFIX)/bin/$(notdir $(EXE))
	for t in $(USER_TOOLS); do install -m 755 $(BUILD)/tools/$$t $(DESTDIR)$(PREFIX)/bin/saavedra-$$t; done
	install -m 644 docs/saavedra.6 $(DESTDIR)$(MAN6DIR)/saavedra.6
	for f in $(DATA_FILES); do if [ -f "$$f" ]; then install -m 644 "$$f" $(DESTDIR)$(DATADIR)/; fi; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(notdir $(EXE)) $(DESTDIR)$(MAN6DIR)/saavedra.6
	for t in $(USER_TOOLS); do rm -f $(DESTDIR)$(PREFIX)/bin/saavedra-$$t; done
	for f in $(DATA_FILES); do rm -f "$(DESTDIR)$(DATADIR)/$${f##*/}"; done
	if [ -d $(DESTDIR)$(DATADIR) ]; then rmdir $(DESTDIR)$(DATADIR) || echo "left $(DESTDIR)$(DATADIR): it holds other files"; fi

# The shipped opening book: the annotated source first, then the master games (-p cuts
# only the game files). Rebuilding gives the same bytes.
.PHONY: book
BOOK_FLAGS ?= -m 2 -p 30
book: $(BUILD)/tools/makebook
	gzip -dc book/arasan_basic.pgn.gz > $(BUILD)/book-arasan_basic.pgn
	gzip -dc book/masters-2500.pgn.gz > $(BUILD)/book-masters-2500.pgn
	$(BUILD)/tools/makebook $(BOOK_FLAGS) -o book/book.bin $(BUILD)/book-arasan_basic.pgn $(BUILD)/book-masters-2500.pgn

clean:
	rm -rf build $(EXE) $(EXE)-debug $(EXE)-tsan $(EXE)-clang $(EXE)-portable saavedra.exe saavedra-static

# A tool's dependency file may still name the tool's source at a place it has left
# (tools/NAME.c); an empty rule for such a name lets make rebuild the object instead of failing.
STALE_TOOL_SRC = $(filter-out $(wildcard tools/*.c),$(TOOL_NAMES:%=tools/%.c))
$(STALE_TOOL_SRC):

-include $(OBJ:.o=.d) $(TOOLKIT_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TOOL_NAMES:%=$(BUILD)/tools/%.d) $(TRACE_OBJ:.o=.d) \
         $(TUNE_TEST_OBJ:.o=.d) $(TRACE_TOOLS:%=$(BUILD)/trace/tools/%.d)
