# The tests and checks run on the engine as built: make test, bench, the long perft and
# move-code runs, the kill test, the repeated SMP mate test, the two Fathoms compared.
# Included by the Makefile.

.PHONY: test test-fathom test-smp-mates killtest perft-full perft-960 test-codec-full bench

test: $(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests $(BUILD)/check-tests $(USER_TOOLS:%=$(BUILD)/tools/%) $(BUILD)/tools/eval_loss spsa-engine
	@SAAVEDRA_TOOLS=$(abspath $(BUILD)/tools) SAAVEDRA_SPSA_ENGINE=$(abspath $(SPSA_EXE)) \
	    bash tests/run_all.sh ./$(EXE) $(BUILD)/unit-tests $(BUILD)/tune-tests $(BUILD)/check-tests

# The check build (src/search/checks.h): src/search/ compiled again with its invariants
# counted (-DSEARCH_CHECKS=1, at full optimisation), every other engine object as it is,
# and the tests of tests/check/, which fail on any violation.
CHECK_SEARCH_SRC = $(wildcard src/search/*.c)
CHECK_OBJ        = $(CHECK_SEARCH_SRC:src/%.c=$(BUILD)/check/%.o) \
                   $(filter-out $(CHECK_SEARCH_SRC:src/%.c=$(BUILD)/%.o),$(LIB_OBJ))
CHECK_TEST_SRC   = $(wildcard tests/check/*.c)
CHECK_TEST_OBJ   = $(CHECK_TEST_SRC:tests/check/%.c=$(BUILD)/check/tests/%.o)

$(BUILD)/check/%.o: src/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DSEARCH_CHECKS=1 -c -o $@ $<

$(BUILD)/check/tests/%.o: tests/check/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DSEARCH_CHECKS=1 -Itests -c -o $@ $<

$(BUILD)/check-tests: $(CHECK_OBJ) $(CHECK_TEST_OBJ) $(BUILD)/tests/test_main.o $(BUILD)/tests/engine_fixture.o
	$(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

# The two Fathoms (docs/build.md, "Fathom: system or pinned"): the unit tests linked from
# the same objects with the system libfathom and with the pinned copy give the same
# tablebase digest. Then an engine made as on a machine without tbprobe.h (the header probe
# given no include path at all) says it uses the pinned copy, needs no libfathom and passes
# the Syzygy script.
PINNED_TESTS  = $(BUILD)/unit-tests-pinned-fathom
NO_HEADER_EXE = $(BUILD)/saavedra-no-fathom-header
ifneq ($(filter test-fathom,$(MAKECMDGOALS)),)
  ifneq ($(FATHOM_USED),system)
    $(error test-fathom compares the pinned Fathom with the system's: install libfathom-dev)
  endif
endif
test-fathom: $(BUILD)/unit-tests $(PINNED_TESTS)
	bash tests/static/compare_fathom.sh $(BUILD)/unit-tests $(PINNED_TESTS)
	rm -f $(NO_HEADER_EXE)
	$(MAKE) --no-print-directory FATHOM=auto FATHOM_PROBE_FLAGS=-nostdinc EXE=$(NO_HEADER_EXE) $(NO_HEADER_EXE) \
	    > $(BUILD)/no-fathom-header.log || { cat $(BUILD)/no-fathom-header.log; exit 1; }
	grep -x 'Fathom: the pinned copy, src/external/fathom (no system tbprobe.h)' $(BUILD)/no-fathom-header.log
	! readelf -d $(NO_HEADER_EXE) | grep 'NEEDED.*libfathom'
	python3 tests/test_syzygy.py ./$(NO_HEADER_EXE) > $(BUILD)/no-fathom-header.log \
	    || { cat $(BUILD)/no-fathom-header.log; exit 1; }
	tail -n 1 $(BUILD)/no-fathom-header.log

$(PINNED_TESTS): $(LIB_OBJ) $(TEST_OBJ) $(FATHOM_OBJ)
	$(CC) $(ALLFLAGS) -o $@ $(LIB_OBJ) $(FATHOM_OBJ) $(TEST_OBJ) $(filter-out -lfathom,$(LDLIBS))

# The multi-threaded mate-distance check (part of make test) SMP_REPEAT times in a row: its
# failures would be intermittent (docs/smp.md). make test-debug-smp-mates (mk/sanitize.mk)
# does the same on the sanitizer build.
SMP_REPEAT ?= 30
test-smp-mates: $(BUILD)/unit-tests
	@for i in $$(seq $(SMP_REPEAT)); do \
	    out=$$($(BUILD)/unit-tests --filter smp_same_mate 2>&1); \
	    case "$$out" in *" 0 failed"*) echo "run $$i: ok";; *) printf '%s\n' "$$out"; echo "run $$i: FAILED"; exit 1;; esac; \
	done

# The learning file's kill test (docs/testing.md): KILLS SIGKILLs at random moments of an
# engine playing games with learning on; make test runs it with 10.
KILLS ?= 100
killtest: $(EXE)
	python3 tests/test_killtest.py ./$(EXE) $(KILLS)

perft-full: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --perft-full

# Every Chess960 count of tests/data/fischer.epd to depth 5 (4,800 counts, about 1.4 * 10^10 nodes).
perft-960: $(BUILD)/unit-tests
	$(BUILD)/unit-tests --filter perft_fischer960 --perft-full

CODEC_PGN ?= tests/data/pgn
test-codec-full: $(EXE)
	./$(EXE) codec $$(find $(CODEC_PGN) -name '*.pgn' | sort)

bench: $(EXE)
	./$(EXE) bench
