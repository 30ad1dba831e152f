# The long runs that make data or figures: the opening book, the tuner's chain, the net's
# chain, SPRT matches, the learning benchmark and perft speed. Included by the Makefile.

.PHONY: book tune-data tune-run tune-match nnue-data nnue-status nnue-train nnue-match sprt spsa-engine spsa learning-bench bench-perft

# The shipped opening book: the annotated source first, then the master games (-p cuts
# only the game files). Rebuilding gives the same bytes.
BOOK_FLAGS ?= -m 2 -p 30
book: $(BUILD)/tools/makebook
	gzip -dc book/arasan_basic.pgn.gz > $(BUILD)/book-arasan_basic.pgn
	gzip -dc book/masters-2500.pgn.gz > $(BUILD)/book-masters-2500.pgn
	$(BUILD)/tools/makebook $(BOOK_FLAGS) -o book/book.bin $(BUILD)/book-arasan_basic.pgn $(BUILD)/book-masters-2500.pgn

# The tuner's training set (long, both cores: see docs/tuning.md); SAAVEDRA_TEST_DATA names
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

# The neural evaluation's chain (docs/nnue.md): self-play data (resumable, the same games
# for the same seed; without NNUE_DATA into the generation's folder under the data root,
# $$SAAVEDRA_DATA or ~/.local/share/saavedra/data), a net trained on it, the net against
# the hand-written evaluation (SPRT), then make EVALFILE=$(NNUE_OUT)/net.nnue.
# DATAGEN_NET=builtin|FILE generates the next data with a net; make nnue-train trains on
# every generation folder of the data root (datastatus --folders), NNUE_DATA=DIR1:DIR2 on
# those folders; NNUE_INIT=builtin|FILE starts training from a net's weights (with a
# smaller NNUE_LR); NNUE_TRAIN_ARGS passes other nnuetrain options. make nnue-status
# reports every folder of the data root (or of NNUE_DATA).
NNUE_DATA   ?=
NNUE_GAMES  ?= 100000
NNUE_NODES  ?= 1500
NNUE_SEED   ?= 1
NNUE_OUT    ?= build/nnue
NNUE_EPOCHS ?= 15
DATAGEN_NET ?=
NNUE_INIT   ?=
NNUE_LR     ?=
NNUE_TRAIN_ARGS ?=
nnue-data: $(BUILD)/tools/datagen
	$(BUILD)/tools/datagen $(if $(NNUE_DATA),-o $(NNUE_DATA)) -games $(NNUE_GAMES) -nodes $(NNUE_NODES) -c 2 \
	    -book book/book.bin --seed $(NNUE_SEED) $(if $(DATAGEN_NET),-net $(DATAGEN_NET))

nnue-status: $(BUILD)/tools/datastatus
	$(BUILD)/tools/datastatus $(subst :, ,$(NNUE_DATA))

nnue-train: $(BUILD)/tools/nnuetrain $(BUILD)/tools/datastatus
	@mkdir -p $(NNUE_OUT)
	data="$(NNUE_DATA)"; test -n "$$data" || data=$$($(BUILD)/tools/datastatus --folders) || exit 2; \
	echo "nnue-train: $$data"; \
	$(BUILD)/tools/nnuetrain -d "$$data" -o $(NNUE_OUT)/net.nnue -epochs $(NNUE_EPOCHS) -c 2 \
	    --plot $(NNUE_OUT)/loss.png $(if $(NNUE_INIT),-init $(NNUE_INIT)) $(if $(NNUE_LR),-lr $(NNUE_LR)) \
	    $(NNUE_TRAIN_ARGS)

nnue-match:
	bash tools/recipes/nnue-match.sh $(NNUE_OUT)/net.nnue $(NNUE_OUT)/match

# A search or evaluation change (NEW, default HEAD) against the commit before it (BASE):
# both built from git, an SPRT elo0=0 elo1=10 at 10+0.1 (tools/recipes/sprt.sh; long).
sprt:
	@test -n "$(BASE)" || { echo "sprt: set BASE=COMMIT (and NEW=COMMIT; default HEAD)" >&2; exit 2; }
	bash tools/recipes/sprt.sh $(BASE) $(or $(NEW),HEAD)

# The tuning build: every row of src/search/params.h a variable behind a UCI option of its
# name (docs/spsa.md), in a folder of its own (the options table is larger). make spsa runs
# SPSA with it (tools/recipes/spsa.py; long, both cores): SPSA_OUT holds the state (the same
# command resumes), SPSA_ARGS passes --iterations, --params, --option, --tc, --pairs, ...
SPSA_BUILD ?= $(BUILD)/spsa
SPSA_EXE   ?= $(SPSA_BUILD)/saavedra
SPSA_OUT   ?= build/spsa-run
SPSA_ARGS  ?=
spsa-engine:
	@$(MAKE) --no-print-directory BUILD=$(SPSA_BUILD) EXE=$(SPSA_EXE) \
	    EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DSEARCH_TUNE -DOPTIONS_MAX=96" $(SPSA_EXE)
spsa: spsa-engine
	python3 tools/recipes/spsa.py --engine $(SPSA_EXE) --out $(SPSA_OUT) $(SPSA_ARGS)

# What learning wins in games (docs/learning.md): LEARN_BENCH=repeated (default), book or
# cost; LEARN_BENCH_ARGS passes options (--tc, --rounds, --arms, --opponent, ...). Needs
# a match runner (MATCH_RUNNER: fastchess, cutechess-cli or SAAVEDRA_MATCH's node tool)
# and Debian's ethereal-chess (book: and polyglot).
LEARN_BENCH ?= repeated
learning-bench: $(EXE)
	python3 tools/measure/learning-bench.py $(LEARN_BENCH) --engine ./$(EXE) $(LEARN_BENCH_ARGS)

bench-perft: $(EXE)
	bash tools/measure/bench-perft.sh ./$(EXE)
