/* The engine's option hooks (engine.h, option_table.h): what each option changes in the
 * Engine when it is set, and the OptionSpec table built from the rows of option_table.h,
 * where the hooks the rows name are visible. */
#include "engine/engine.h"

#include <stdio.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "engine/main_thread.h"
#include "engine/ownbook.h"
#include "engine/resign_draw.h"
#include "learning/learner.h"
#include "search/transposition.h"
#include "tablebase/syzygy.h"
#include "util/platform.h"
#include "util/rcfile.h"

static bool refuse_while_searching(Engine *e, const Option *opt, char *err, size_t size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, size, "option '%s' cannot change during a search", opt->name);
        return true;
    }
    return false;
}

/* Learning, LearningFile (relative: beside the executable), Learning Threshold,
 * Learning Results. */
static bool on_learning(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    engine_wait(e); /* the last search may still be writing what it learned */
    char path[1024];
    if (!learner_resolve_path(option_str(&e->options, OPT_LEARNING_FILE), path, sizeof path)) {
        snprintf(err, size,
                 "LearningFile: the executable's directory is unknown; give a full path");
        return false;
    }
    learner_configure(e->learner, option_bool(&e->options, OPT_LEARNING), path,
                      (int)option_int(&e->options, OPT_LEARNING_THRESHOLD));
    learner_set_results(e->learner, option_bool(&e->options, OPT_LEARNING_RESULTS));
    e->learn_reload = true;
    return true;
}

static bool on_hash(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    if (!tt_resize(&e->tt, (size_t)opt->value)) {
        snprintf(err, size, "not enough memory for a %lld MB hash table", (long long)opt->value);
        return false;
    }
    e->learn_reload = true;
    return true;
}

static bool on_clear_hash(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    tt_clear(&e->tt, (int)option_int(&e->options, OPT_THREADS));
    e->learn_reload = true;
    return true;
}

static bool on_threads(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    engine_wait(e);
    if (!runner_resize(&e->run, (int)opt->value)) {
        snprintf(err, size, "could only start %d search threads", runner_threads(&e->run));
        return false;
    }
    return true;
}

static bool on_opponent(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    OpponentInfo info;
    if (opt->str[0] == '\0') {
        memset(&e->opponent, 0, sizeof e->opponent);
        return true;
    }
    if (!opponent_parse(opt->str, &info)) {
        snprintf(err, size,
                 "UCI_Opponent: expected '<title|none> <rating|none> <computer|human> <name>'");
        return false;
    }
    e->opponent = info;
    return true;
}

/* Missing tables are not an error: the warning goes back in err and the engine searches
 * on without them. Setting the path again reloads it (new files are then found). */
static bool on_syzygy_path(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    e->tb_loaded = syzygy_load(opt->str, err, size) > 0;
    return true;
}

/* A new BookFile is opened at once, so that a GUI or engine.rc hears of a bad one now. */
static bool on_book_file(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    ownbook_changed(&e->book, &e->options, err, size);
    return true;
}

/* EvalFile: another net, read and checked at once; a file that cannot be used leaves
 * the net in use as it was. An empty name goes back to the built-in net. Relative names
 * are looked for beside the executable (then in ../share/saavedra from it). */
static bool on_eval_file(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    if (!opt->str[0] || !strcmp(opt->str, "<empty>")) {
        network_free(e->file_net);
        e->file_net = NULL;
        return true;
    }
    char path[4096], why[600];
    if (pf_path_is_absolute(opt->str))
        snprintf(path, sizeof path, "%s", opt->str);
    else if (!data_file_locate(opt->str, path, sizeof path)) {
        snprintf(err, size, "EvalFile: %s not found beside the executable; the net in use stays",
                 opt->str);
        return false;
    }
    Network *net = network_load(path, why, sizeof why);
    if (!net) {
        snprintf(err, size, "EvalFile: %s; the net in use stays", why);
        return false;
    }
    network_free(e->file_net);
    e->file_net = net;
    return true;
}

static bool on_use_nnue(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    if (opt->value && !engine_net(e))
        snprintf(err, size,
                 "Use NNUE: no net (this build has none built in and EvalFile names none); "
                 "the hand-written evaluation stays");
    return true;
}

const Network *engine_net(const Engine *e)
{
    return e->file_net ? e->file_net : e->builtin_net;
}

/* Chess960 castling notation (king takes rook, Shredder-FEN) for the game on the board
 * and every position set later. */
static bool on_chess960(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    position_set_chess960(&e->game.pos, opt->value != 0);
    return true;
}

#ifdef SEARCH_TUNE
/* A row of the search parameter table (the tuning build's options): its variable is set
 * and what the search derives from the rows recomputed. */
static bool on_search_param(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    if (!search_param_set(opt->name, (int)opt->value)) {
        snprintf(err, size, "%s: not a search parameter of this build", opt->name);
        return false;
    }
    search_init(); /* the reduction table is computed from the rows */
    return true;
}
#endif

/* The rows of option_table.h: option i is row i, so EngineOption indexes e->options. */
static void register_options(Engine *e)
{
#define ENGINE_OPTION_SPEC(id_, name_, kind_, hook_) \
    [id_] = { .name = name_, kind_, .hook = hook_ },
#define ENGINE_PARAM_OPTION_SPEC(name_, value_, min_, max_) \
    [OPT_##name_] = { .name = #name_, OPTION_SPIN(value_, min_, max_), .hook = on_search_param },
    OptionSpec specs[] = { ENGINE_OPTIONS(ENGINE_OPTION_SPEC, ENGINE_PARAM_OPTION_SPEC) };
#undef ENGINE_OPTION_SPEC
#undef ENGINE_PARAM_OPTION_SPEC
    _Static_assert(sizeof specs / sizeof *specs == ENGINE_OPTION_COUNT, "a row per EngineOption");
    _Static_assert(ENGINE_OPTION_COUNT <= OPTIONS_MAX, "OPTIONS_MAX is too small for the table");
    /* A build with a net plays with it; one without has only the hand-written evaluation. */
    specs[OPT_USE_NNUE].def = e->builtin_net != NULL;
    options_init(&e->options, specs, ENGINE_OPTION_COUNT, e);
}

void engine_options_init(Engine *e)
{
    char err[160];
    register_options(e);
    /* options_init runs no hook: the learner hears the learning options' defaults here. */
    on_learning(e, &e->options.items[OPT_LEARNING], err, sizeof err);
}

Options *engine_options(Engine *e)
{
    return &e->options;
}

bool engine_set_option(Engine *e, const char *name, const char *value, OptionSource source,
                       char *err, size_t err_size)
{
    return options_set(&e->options, name, value, source, err, err_size);
}

bool engine_set_option_id(Engine *e, EngineOption id, const char *value, OptionSource source,
                          char *err, size_t err_size)
{
    return options_set_id(&e->options, id, value, source, err, err_size);
}
