# Saavedra build.  make [ARCH=native|bmi2|popcnt|portable] [EXE=name] [CC=gcc]
#   make           optimised engine ./saavedra (ARCH=native by default)
#   make debug     ASan + UBSan build (-O1 -g);  make test-debug  the tests on it
#   make tsan      ThreadSanitizer build;  make test-tsan  threaded tests on it, no reports
#   make test      unit and protocol tests; the last line is "N passed, N failed"
#   make bench     search benchmark signature;  make bench-perft  perft speed vs Stockfish
#   make perft-full  every perft count to the deepest depth listed (long)
#   make test-codec-full  move-code round trip of every game in ../shared/data/pgn (long)
#   make tools     the programs in tools/ (build/<ARCH>/tools/NAME)
#   make tuner     the Texel tuner (build/<ARCH>/tools/tuner; docs/tuning.md)
#   make tune-data TUNE_GAMES=N TUNE_NODES=N   the tuner's training set (long; docs/tuning.md)

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

# Syzygy tablebases are probed through Fathom's tbprobe.h and libfathom (syzygy.c).
ifeq ($(filter clean,$(MAKECMDGOALS)),)
  ifneq ($(shell printf '\043include <tbprobe.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo ok),ok)
    $(error tbprobe.h not found: install the Fathom library, Debian/Ubuntu package libfathom-dev (apt-get install libfathom-dev))
  endif
endif

ifeq ($(ARCH),native)
  ARCHFLAGS = -march=native
else ifeq ($(ARCH),bmi2)
  ARCHFLAGS = -march=haswell -DUSE_PEXT
else ifeq ($(ARCH),popcnt)
  ARCHFLAGS = -march=x86-64 -mpopcnt -msse4.2
else ifeq ($(ARCH),portable)
  ARCHFLAGS = -march=x86-64 -mtune=generic
else
  $(error unknown ARCH=$(ARCH): use native, bmi2, popcnt or portable)
endif

CFLAGS  ?= $(OPT)
ALLFLAGS = $(CSTD) $(WARN) $(ARCHFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) -Isrc -MMD -MP

# Sources live in one folder per layer (src/board, src/eval, src/search, ...; see
# docs/architecture.md); every .c below src/ is part of the engine, main.c only of the binary.
# src/tune/ is not part of the engine: it needs the evaluation's coefficient trace.
SRC      = $(sort $(filter-out src/tune/%,$(wildcard src/*.c src/*/*.c)))
LIB_SRC  = $(filter-out src/main.c,$(SRC))
TEST_SRC = $(wildcard tests/*.c)
# Each tools/NAME.c is a program of its own, linked with the engine's objects (make tools);
# the ones in TRACE_TOOLS are linked with the tuner's object set instead.
TRACE_TOOLS = tuner
TOOL_SRC = $(filter-out tools/gen_magics.c,$(wildcard tools/*.c))
TOOLS    = $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)
PLAIN_TOOLS = $(filter-out $(TRACE_TOOLS:%=$(BUILD)/tools/%),$(TOOLS))

BUILD   ?= build/$(ARCH)
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o)
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)

# The tuner's object set: the evaluation compiled again with -DEVAL_TRACE (eval/trace.h),
# src/tune/, and every other engine object as it is. The engine never links these.
EVAL_SRC  = $(wildcard src/eval/*.c)
TUNE_SRC  = $(sort $(wildcard src/tune/*.c))
TRACE_OBJ = $(EVAL_SRC:src/%.c=$(BUILD)/trace/%.o) $(TUNE_SRC:src/%.c=$(BUILD)/trace/%.o) \
            $(filter-out $(EVAL_SRC:src/%.c=$(BUILD)/%.o),$(LIB_OBJ))
TUNE_TEST_SRC = $(wildcard tests/tune/*.c)
TUNE_TEST_OBJ = $(TUNE_TEST_SRC:tests/tune/%.c=$(BUILD)/trace/tests/%.o) $(BUILD)/trace/tests/test_main.o

.PHONY: FORCE all debug test test-debug clean install bench bench-perft perft-full tsan test-tsan test-codec-full tools tuner tune-data

all: $(EXE)

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

$(BUILD)/tests/%.o: tests/%.c | $(BUILD)/tests
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

$(BUILD)/trace/tools/%.o: tools/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(TRACE_TOOLS:%=$(BUILD)/tools/%): $(BUILD)/tools/%: $(BUILD)/trace/tools/%.o $(TRACE_OBJ) | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -o $@ $< $(TRACE_OBJ) $(LDLIBS)

$(BUILD)/tune-tests: $(TRACE_OBJ) $(TUNE_TEST_OBJ)
	$(CC) $(ALLFLAGS) -o $@ $(TRACE_OBJ) $(TUNE_TEST_OBJ) $(LDLIBS)

tools: $(TOOLS)

tuner: $(BUILD)/tools/tuner

# The tuner's training set (long: see docs/tuning.md). Run it under the CPU lock on a
# shared machine: flock /tmp/saavedra-cpu.lock make tune-data
TUNE_GAMES ?= 20000
TUNE_NODES ?= 5000
TUNE_OUT   ?= build/tune-data
tune-data: $(BUILD)/tools/selfplay $(BUILD)/tools/pgnselect
	GAMES=$(TUNE_GAMES) NODES=$(TUNE_NODES) bash tools/tune-data.sh $(BUILD)/tools $(TUNE_OUT)

.SECONDARY: $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%.o)

$(BUILD) $(BUILD)/tests $(BUILD)/tools:
	mkdir -p $@

$(BUILD)/unit-tests: $(LIB_OBJ) $(TEST_OBJ) $(BUILD)/unit-tests.objs
	$(CC) $(ALLFLAGS) -o $@ $(LIB_OBJ) $(TEST_OBJ) $(LDLIBS)

debug:
	$(MAKE) BUILD=build/debug EXE=$(EXE)-debug CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" \
	    LDLIBS="$(LDLIBS) -fsanitize=address,undefined"

# The whole test suite on the sanitizer build (perft depths are cut down automatically).
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

test: $(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests $(BUILD)/tools/pgnselect $(BUILD)/tools/tuner \
      $(BUILD)/tools/selfplay
	@SAAVEDRA_TOOLS=$(abspath $(BUILD)/tools) bash tests/run_all.sh ./$(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests

perft-full: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --perft-full

CODEC_PGN ?= ../shared/data/pgn
test-codec-full: $(EXE)
	./$(EXE) codec $$(find $(CODEC_PGN) -name '*.pgn' | sort)

bench: $(EXE)
	./$(EXE) bench

bench-perft: $(EXE)
	bash tools/bench-perft.sh ./$(EXE)

# make install PREFIX=DIR: the binary alone in DIR/bin, its data in DIR/share/saavedra
# (found from the binary's own folder: ../share/saavedra). Data files are listed in
# DATA_FILES; a data file that is built (a book) adds itself with DATA_FILES += FILE, and
# a listed file that does not exist is skipped. The user's own
# ~/.config/saavedra/engine.rc wins over the installed one (README, engine.rc).
DATA_FILES = engine.rc
DATADIR    = $(PREFIX)/share/saavedra
.PHONY: uninstall

install: $(EXE)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)
	install -m 755 $(EXE) $(DESTDIR)$(PREFIX)/bin/$(notdir $(EXE))
	for f in $(DATA_FILES); do if [ -f "$$f" ]; then install -m 644 "$$f" $(DESTDIR)$(DATADIR)/; fi; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(notdir $(EXE))
	for f in $(DATA_FILES); do rm -f "$(DESTDIR)$(DATADIR)/$${f##*/}"; done
	if [ -d $(DESTDIR)$(DATADIR) ]; then rmdir $(DESTDIR)$(DATADIR) || echo "left $(DESTDIR)$(DATADIR): it holds other files"; fi

clean:
	rm -rf build $(EXE) $(EXE)-debug $(EXE)-tsan $(EXE)-clang $(EXE)-portable

-include $(OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%.d) $(TRACE_OBJ:.o=.d) \
         $(TUNE_TEST_OBJ:.o=.d) $(TRACE_TOOLS:%=$(BUILD)/trace/tools/%.d)
