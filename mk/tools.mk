# make tools and make tuner: the programs of tools/, each linked with the engine's objects
# (mk/build.mk) or with the tuner's object set. Included by the Makefile.

.PHONY: tools tuner

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

$(BUILD)/trace/tools/%.o: tools/programs/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(BUILD)/trace/tools/%.o: tools/measure/%.c | $(BUILD)
	@mkdir -p $(@D)
	$(CC) $(ALLFLAGS) -DEVAL_TRACE -c -o $@ $<

$(TRACE_TOOLS:%=$(BUILD)/tools/%): $(BUILD)/tools/%: $(BUILD)/trace/tools/%.o $(TRACE_OBJ) | $(BUILD)/tools
	$(CC) $(ALLFLAGS) -o $@ $< $(TRACE_OBJ) $(LDLIBS)

tools: $(TOOLS)

tuner: $(BUILD)/tools/tuner

.SECONDARY: $(TOOL_NAMES:%=$(BUILD)/tools/%.o)

# A tool's dependency file may still name the tool's source at a place it has left
# (tools/NAME.c); an empty rule for such a name lets make rebuild the object instead of failing.
STALE_TOOL_SRC = $(filter-out $(wildcard tools/*.c),$(TOOL_NAMES:%=tools/%.c))
$(STALE_TOOL_SRC):
