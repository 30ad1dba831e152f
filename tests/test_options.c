/* Tests of the option tables (util/options.h) and of the engine's (engine/option_table.h):
 * parsing, ranges, combos, source priority, hooks that refuse, temporary overrides, and
 * every EngineOption naming the option at its index. */
#include <string.h>

#include "engine/engine.h"
#include "search/thread.h"
#include "test.h"
#include "util/options.h"

enum { T_HASH, T_PONDER, T_STYLE, T_ELO, T_NAME, T_COUNT };

static int hook_calls;

/* Refuses "refuse" and warns of "warn". */
static bool name_hook(void *ctx, const Option *opt, char *err, size_t size)
{
    CHECK(ctx == &hook_calls);
    hook_calls++;
    if (!strcmp(opt->str, "refuse")) {
        snprintf(err, size, "refused");
        return false;
    }
    if (!strcmp(opt->str, "warn"))
        snprintf(err, size, "warned");
    return true;
}

static const OptionSpec SPECS[T_COUNT] = {
    [T_HASH] = { .name = "Hash", OPTION_SPIN(16, 1, 1024) },
    [T_PONDER] = { .name = "Ponder", OPTION_CHECK(false) },
    [T_STYLE] = { .name = "Style", OPTION_COMBO("Normal", "Solid|Normal|Risky") },
    [T_ELO] = { .name = "Elo", OPTION_SPIN_CUT(1500, 1000, 2400) },
    [T_NAME] = { .name = "Player Name", OPTION_STRING("anon"), .hook = name_hook },
};

static bool make(Options *o)
{
    return CHECK(options_init(o, SPECS, T_COUNT, &hook_calls)) && CHECK_EQ(o->count, T_COUNT);
}

TEST(options_parse_and_priority)
{
    Options o;
    if (!make(&o))
        return;
    char err[160];
    CHECK_EQ(option_int(&o, T_HASH), 16);
    CHECK(!option_bool(&o, T_PONDER));
    CHECK_STR_EQ(option_str(&o, T_NAME), "anon");
    CHECK(options_set(&o, "hash", "64", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(&o, T_HASH), 64);
    CHECK(!options_set(&o, "Hash", "2048", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "option 'Hash': value out of range 1..1024");
    CHECK(!options_set_id(&o, T_HASH, "12x", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "option 'Hash': '12x' is not a number");
    CHECK_EQ(option_int(&o, T_HASH), 64);
    CHECK(!options_set(&o, "Nonsense", "1", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "unknown option 'Nonsense'");
    CHECK(options_set(&o, "PONDER", "true", OPT_SOURCE_GUI, err, sizeof err));
    CHECK(option_bool(&o, T_PONDER));
    CHECK(!options_set_id(&o, T_PONDER, "maybe", OPT_SOURCE_GUI, err, sizeof err));
    CHECK(option_bool(&o, T_PONDER));
    /* engine.rc (lower priority) cannot override the GUI... */
    CHECK(options_set_id(&o, T_HASH, "128", OPT_SOURCE_RC, err, sizeof err));
    CHECK_EQ(option_int(&o, T_HASH), 64);
    /* ...but the GUI overrides engine.rc. */
    Options fresh;
    if (!make(&fresh))
        return;
    CHECK(options_set_id(&fresh, T_HASH, "128", OPT_SOURCE_RC, err, sizeof err));
    CHECK_EQ(fresh.items[T_HASH].source, OPT_SOURCE_RC);
    CHECK(options_set_id(&fresh, T_HASH, "32", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(&fresh, T_HASH), 32);
}

TEST(options_combo_choice_and_cut_range)
{
    Options o;
    if (!make(&o))
        return;
    char err[160];
    CHECK_EQ(option_int(&o, T_STYLE), 1); /* "Normal", the second choice */
    CHECK(options_set(&o, "style", "risky", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(option_str(&o, T_STYLE), "Risky"); /* the list's spelling */
    CHECK_EQ(option_int(&o, T_STYLE), 2);
    CHECK(!options_set_id(&o, T_STYLE, "Wild", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(option_str(&o, T_STYLE), "Risky");
    CHECK_EQ(option_int(&o, T_STYLE), 2);
    /* A cut spin takes a value out of range as its nearest end, with a warning. */
    CHECK(options_set_id(&o, T_ELO, "2850", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(&o, T_ELO), 2400);
    CHECK_STR_EQ(err, "option 'Elo': 2850 cut to 2400 (range 1000..2400)");
    CHECK(options_set_id(&o, T_ELO, "1200", OPT_SOURCE_GUI, err, sizeof err) && !err[0]);
    CHECK_EQ(option_int(&o, T_ELO), 1200);
    /* A combo whose default is not one of its choices makes a bad table. */
    const OptionSpec bad[] = { SPECS[T_HASH], { .name = "Bad", OPTION_COMBO("Other", "A|B") } };
    CHECK(!options_init(&o, bad, 2, NULL));
    CHECK_EQ(o.count, 1);
    CHECK_EQ(options_index(&o, "Bad"), -1);
}

TEST(options_hook_refusal_keeps_value_and_source)
{
    Options o;
    if (!make(&o))
        return;
    char err[160];
    hook_calls = 0;
    CHECK(options_set_id(&o, T_NAME, "Alice", OPT_SOURCE_RC, err, sizeof err) && !err[0]);
    CHECK(!options_set(&o, "player name", "refuse", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "refused");
    CHECK_STR_EQ(option_str(&o, T_NAME), "Alice");
    CHECK_EQ(o.items[T_NAME].source, OPT_SOURCE_RC);
    CHECK(options_set_id(&o, T_NAME, "warn", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "warned");
    CHECK_STR_EQ(option_str(&o, T_NAME), "warn");
    CHECK_EQ(hook_calls, 3);
    /* A hook given later (the table could not name it) is called from then on. */
    options_set_hook(&o, T_HASH, name_hook, &hook_calls);
    CHECK(options_set_id(&o, T_HASH, "8", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(hook_calls, 4);
}

TEST(options_override_and_restore)
{
    Options o;
    if (!make(&o))
        return;
    char err[160];
    CHECK(options_set_id(&o, T_HASH, "100", OPT_SOURCE_RC, err, sizeof err));
    CHECK(options_set_id(&o, T_STYLE, "Solid", OPT_SOURCE_GUI, err, sizeof err));
    OptionOverrides ov = { 0 };
    options_override(&o, &ov, T_HASH, "8");
    options_override(&o, &ov, T_STYLE, "Risky");
    options_override(&o, &ov, T_PONDER, "true");
    CHECK_EQ(option_int(&o, T_HASH), 8);
    CHECK_EQ(option_int(&o, T_STYLE), 2);
    CHECK(option_bool(&o, T_PONDER));
    options_restore(&o, &ov);
    CHECK_EQ(ov.count, 0);
    CHECK_EQ(option_int(&o, T_HASH), 100);
    CHECK_EQ(o.items[T_HASH].source, OPT_SOURCE_RC); /* engine.rc's: a GUI may still set it */
    CHECK_STR_EQ(option_str(&o, T_STYLE), "Solid");
    CHECK_EQ(option_int(&o, T_STYLE), 0);
    CHECK(!option_bool(&o, T_PONDER));
    CHECK_EQ(o.items[T_PONDER].source, OPT_SOURCE_DEFAULT);
}

/* The engine's table: each EngineOption is the index of the option it names, whatever
 * the case of the name a GUI sends, and a set by name and by id reach the same option. */
TEST(engine_options_are_indexed_by_their_ids)
{
    Engine *e = engine_new();
    if (!CHECK(e))
        return;
    Options *o = engine_options(e);
    CHECK_EQ(o->count, ENGINE_OPTION_COUNT);
    for (int id = 0; id < o->count; id++) {
        char lower[OPTION_NAME_MAX];
        snprintf(lower, sizeof lower, "%s", o->items[id].name);
        for (char *c = lower; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        CHECK_MSG(options_index(o, o->items[id].name) == id && options_index(o, lower) == id,
                  "option %d (%s) is not found at its index", id, o->items[id].name);
    }
    CHECK_STR_EQ(o->items[OPT_HASH].name, "Hash");
    CHECK_STR_EQ(o->items[OPT_NNUE_SCALE].name, "NNUE Scale");
    CHECK_STR_EQ(o->items[OPT_DEBUG_LOG_FILE].name, "Debug Log File");
    char err[256];
    CHECK(engine_set_option(e, "move overhead", "123", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(o, OPT_MOVE_OVERHEAD), 123);
    CHECK(engine_set_option_id(e, OPT_MOVE_OVERHEAD, "7", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(o, OPT_MOVE_OVERHEAD), 7);
    CHECK(!engine_set_option(e, "Move Overhed", "7", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_STR_EQ(err, "unknown option 'Move Overhed'");
    /* SMP Mode's choices are counted in SmpMode's order: the search reads the index. */
    CHECK(engine_set_option_id(e, OPT_SMP_MODE, "lazy", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(o, OPT_SMP_MODE), SMP_LAZY);
    CHECK(engine_set_option_id(e, OPT_SMP_MODE, "YBWC", OPT_SOURCE_GUI, err, sizeof err));
    CHECK_EQ(option_int(o, OPT_SMP_MODE), SMP_YBWC);
    engine_free(e);
}
