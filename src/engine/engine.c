/* Engine controller: see engine.h. Searches, book moves and perft run on thread 0 of the
 * thread pool through engine/main_thread.c; the book is engine/ownbook.c, the position with its
 * history and opening engine/game.c. */
#include "engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "learning/learner.h"
#include "engine/ownbook.h"
#include "engine/resign_draw.h"
#include "engine/main_thread.h"
#include "search/transposition.h"
#include "tablebase/syzygy.h"
#include "util/platform.h"
#include "util/rcfile.h"
#include "util/timeutil.h"

struct Engine {
    Game game;        /* the position with its history, and the opening */
    TranspositionTable tt;
    Options options;
    Runner run;       /* thread 0's jobs: search, book move, perft */
    OwnBook book;
    OpponentInfo opponent;
    int own_rating;
    bool tb_loaded;   /* this engine loaded the (process-wide) tablebases */
    Learner *learner;
    Network *builtin_net;         /* the net built into the binary (NULL: none) */
    Network *file_net;            /* EvalFile's net (NULL: the built-in one) */
    bool learn_reload;            /* the TT lacks the learned positions (start-up, cleared) */
    SearchLimits learned_limits;  /* a go's limits with what result learning adds */
    char messages[4][700];        /* warnings for the protocol (engine_take_message) */
    char last_message[700];
    int message_count;
    pthread_mutex_t message_lock;
};

static bool refuse_while_searching(Engine *e, const Option *opt, char *err, size_t size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, size, "option '%s' cannot change during a search", opt->name);
        return true;
    }
    return false;
}

/* A warning for the protocol to show; the same one twice in a row (a learning file that
 * cannot be written, at every game end) is shown once. */
static void add_message(Engine *e, const char *msg)
{
    if (!msg[0])
        return;
    pthread_mutex_lock(&e->message_lock);
    if (strcmp(msg, e->last_message) != 0 && e->message_count < 4) {
        snprintf(e->messages[e->message_count++], sizeof e->messages[0], "%s", msg);
        snprintf(e->last_message, sizeof e->last_message, "%s", msg);
    }
    pthread_mutex_unlock(&e->message_lock);
}

bool engine_take_message(Engine *e, char *out, size_t out_size)
{
    pthread_mutex_lock(&e->message_lock);
    bool any = e->message_count > 0;
    if (any) {
        snprintf(out, out_size, "%s", e->messages[0]);
        memmove(e->messages[0], e->messages[1], sizeof e->messages[0] * 3);
        e->message_count--;
    }
    pthread_mutex_unlock(&e->message_lock);
    return any;
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

int engine_book_moves(Engine *e, BookMove *out, int max, char *warn, size_t warn_size)
{
    return ownbook_moves(&e->book, &e->options, e->learner, &e->game.pos, out, max, warn,
                         warn_size);
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

Engine *engine_new(void)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!tt_init(&e->tt, ENGINE_DEFAULT_HASH_MB) || !runner_init(&e->run)
        || !(e->learner = learner_new())) {
        if (e->run.pool)
            runner_free(&e->run);
        tt_free(&e->tt);
        free(e);
        return NULL;
    }
    pthread_mutex_init(&e->message_lock, NULL);
    ownbook_init(&e->book, e->run.shared.seed ^ 0xB00C);
    char err[160];
    e->builtin_net = network_default(err, sizeof err);
    register_options(e);
    on_learning(e, &e->options.items[OPT_LEARNING], err, sizeof err);
    const EcoTable *eco_table = eco_builtin(err, sizeof err);
    game_init(&e->game, eco_table);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    engine_wait(e);
    if (e->tb_loaded)
        syzygy_load("", NULL, 0); /* the next engine of this process starts without them */
    runner_free(&e->run);
    learner_free(e->learner);
    ownbook_close(&e->book);
    network_free(e->file_net);
    network_free(e->builtin_net);
    tt_free(&e->tt);
    pthread_mutex_destroy(&e->message_lock);
    free(e);
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

void engine_new_game(Engine *e)
{
    engine_stop(e);
    engine_wait(e);
    tt_clear(&e->tt, (int)option_int(&e->options, OPT_THREADS));
    runner_clear(&e->run);
    game_new(&e->game, option_bool(&e->options, OPT_UCI_CHESS960));
    learner_new_game(e->learner);
    char msg[700];
    learner_load_into(e->learner, &e->tt, msg, sizeof msg);
    add_message(e, msg);
    e->learn_reload = false;
}

void engine_game_over(Engine *e, int result)
{
    engine_stop(e);
    engine_wait(e);
    char msg[700];
    learner_game_over(e->learner, result, msg, sizeof msg);
    add_message(e, msg);
}

bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int move_count,
                         char *err, size_t err_size)
{
    /* The last search's thread may still be sending its move (which reads the game's
     * position) and writing what it learned: it ends before the game changes. */
    engine_wait(e);
    Move *list = malloc(((size_t)move_count + 1) * sizeof *list); /* for the game record */
    if (!game_set(&e->game, fen, moves, move_count, option_bool(&e->options, OPT_UCI_CHESS960),
                  list, err, err_size)) {
        free(list);
        return false;
    }
    if (list) {
        char msg[700];
        learner_set_game(e->learner, fen, list, move_count, msg, sizeof msg);
        add_message(e, msg);
        free(list);
    }
    return true;
}

void engine_restore_position(Engine *e, const Position *saved)
{
    game_restore(&e->game, saved);
}

bool engine_make_move(Engine *e, Move m)
{
    if (!game_make_move(&e->game, m))
        return false;
    learner_push(e->learner, m);
    return true;
}

bool engine_undo_move(Engine *e)
{
    if (!game_undo_move(&e->game))
        return false;
    learner_pop(e->learner);
    return true;
}

const Position *engine_position(const Engine *e)
{
    return &e->game.pos;
}

const EcoEntry *engine_opening(const Engine *e, const EcoEntry **here)
{
    return game_opening(&e->game, here);
}

void engine_set_opponent(Engine *e, const OpponentInfo *opp, int own_rating)
{
    if (opp)
        e->opponent = *opp;
    else
        memset(&e->opponent, 0, sizeof e->opponent);
    e->own_rating = own_rating;
}

int engine_contempt(const Engine *e)
{
    if (option_bool(&e->options, OPT_UCI_ANALYSE_MODE))
        return 0;
    int own = e->own_rating;
    if (!own && option_bool(&e->options, OPT_UCI_LIMIT_STRENGTH))
        own = (int)option_int(&e->options, OPT_UCI_ELO);
    return contempt_for_opponent((int)option_int(&e->options, OPT_CONTEMPT), own, &e->opponent);
}

/* What the learner hears of a search (main_thread.h). */
static void learn_on_iteration(void *ctx, const SearchReport *report)
{
    Engine *e = ctx;
    learner_on_iteration(e->learner, report);
}

static void learn_on_result(void *ctx, const SearchResult *result)
{
    Engine *e = ctx;
    learner_search_done(e->learner, &e->game.pos, result);
}

static void learn_after_move(void *ctx)
{
    Engine *e = ctx;
    char msg[700];
    learner_flush(e->learner, msg, sizeof msg);
    add_message(e, msg);
}

/* The shared search state from the limits, the options and the game. */
static void set_up_search(Engine *e, const SearchLimits *limits)
{
    SearchShared *sh = &e->run.shared;
    const Options *o = &e->options;
    int64_t now = time_now_ms();
    sh->limits = *limits;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->stop_requested, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->ponderhit_ms, now);
    timeman_init(&sh->tm, limits, e->game.pos.side, fullmove_number(&e->game.pos),
                 (int)option_int(o, OPT_MOVE_OVERHEAD), now);
    sh->tt = &e->tt;
    sh->multipv = (int)option_int(o, OPT_MULTIPV);
    sh->contempt = engine_contempt(e);
    sh->limit_strength = option_bool(o, OPT_UCI_LIMIT_STRENGTH);
    sh->elo = (int)option_int(o, OPT_UCI_ELO);
    sh->node_limit = limits->nodes;
    if (sh->limit_strength) {
        uint64_t cap = strength_node_limit(sh->elo);
        if (cap && (!sh->node_limit || cap < sh->node_limit))
            sh->node_limit = cap;
    }
    int tb_pieces = e->tb_loaded ? syzygy_largest() : 0;
    int tb_limit = (int)option_int(o, OPT_SYZYGY_PROBE_LIMIT);
    sh->tb.pieces = tb_pieces < tb_limit ? tb_pieces : tb_limit;
    /* Limited strength plays with the hand-written evaluation: its levels were
     * calibrated with it (docs/search.md). */
    sh->net = option_bool(o, OPT_USE_NNUE) && !sh->limit_strength ? engine_net(e) : NULL;
    sh->net_scale = (int)option_int(o, OPT_NNUE_SCALE);
    sh->tb.probe_depth = (int)option_int(o, OPT_SYZYGY_PROBE_DEPTH);
    sh->tb.rule50 = option_bool(o, OPT_SYZYGY_50_MOVE_RULE);
    syzygy_rank_root(&sh->tb, &e->game.pos, -sh->contempt, &sh->tb_root);
    char tb_fault[300]; /* a probe failed (in this root ranking or an earlier search) */
    if (syzygy_take_fault(tb_fault, sizeof tb_fault)) {
        add_message(e, tb_fault);
        sh->tb.pieces = 0;
    }
    sh->smp_mode =
        option_int(o, OPT_SMP_MODE) == SMP_LAZY ? SMP_LAZY : SMP_YBWC; /* SmpMode's order */
    atomic_store(&sh->helpers_stop, false);
}

/* Result learning (learner_result_go) for a game move: true when a learned move is
 * played at once (may_answer: the go may be answered without a search, and OwnBook or
 * Replay Without Book is on); otherwise *limits may point at a copy that counts the
 * moves learned to lose as worse than their score. */
static bool follow_results(Engine *e, const SearchLimits **limits, bool may_answer,
                           const SearchReporter *rep)
{
    const Options *o = &e->options;
    bool game_move =
        !option_bool(o, OPT_UCI_ANALYSE_MODE) && !option_bool(o, OPT_UCI_LIMIT_STRENGTH);
    bool may_replay =
        may_answer && (option_bool(o, OPT_OWN_BOOK) || option_bool(o, OPT_REPLAY_WITHOUT_BOOK));
    char detail[200];
    Move replay = MOVE_NONE;
    switch (learner_result_go(e->learner, &e->game.pos, game_move, may_replay, *limits,
                              &e->learned_limits, &replay, detail, sizeof detail, rep)) {
    case LEARN_GO_REPLAY:
        runner_book_move(&e->run, replay, MOVE_NONE, detail, rep);
        return true;
    case LEARN_GO_PENALIZED:
        *limits = &e->learned_limits;
        return false;
    default:
        return false;
    }
}

bool engine_go(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
               char *err, size_t err_size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e); /* reap the previous worker */

    if (ownbook_choose(&e->book, &e->options, e->learner, &e->game.pos, limits, reporter)) {
        runner_book_move(&e->run, e->book.best, e->book.ponder, e->book.detail, reporter);
        return true;
    }
    if (e->learn_reload) {
        char msg[700];
        learner_load_into(e->learner, &e->tt, msg, sizeof msg);
        add_message(e, msg);
        e->learn_reload = false;
    }
    if (follow_results(e, &limits, ownbook_may_answer(&e->options, &e->game.pos, limits), reporter))
        return true;
    set_up_search(e, limits);
    learner_search_start(e->learner, &e->game.pos,
                         !limits->infinite && !option_bool(&e->options, OPT_UCI_ANALYSE_MODE));
    tt_new_search(&e->tt);
    RunnerHooks hooks = { learn_on_iteration, learn_on_result, learn_after_move, e };
    runner_search(&e->run, &e->game.pos, reporter, &hooks);
    return true;
}

bool engine_perft(Engine *e, int depth, Writer *out, char *err, size_t err_size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e);
    return runner_perft(&e->run, &e->game.pos, depth, out, err, err_size);
}

bool engine_perft_running(Engine *e)
{
    return runner_perft_running(&e->run);
}

void engine_stop(Engine *e)
{
    runner_stop(&e->run);
}

void engine_ponderhit(Engine *e)
{
    runner_ponderhit(&e->run);
}

void engine_wait(Engine *e)
{
    runner_wait(&e->run);
}

bool engine_is_searching(Engine *e)
{
    return runner_busy(&e->run);
}

void engine_smp_stats(Engine *e, SplitStats *sum, bool reset)
{
    runner_stats(&e->run, sum, reset);
}

SearchResult engine_last_result(Engine *e)
{
    return runner_last_result(&e->run);
}

bool engine_search(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
                   char *err, size_t err_size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e); /* reap the previous worker */
    set_up_search(e, limits);
    tt_new_search(&e->tt);
    RunnerHooks no_hooks = { NULL, NULL, NULL, NULL };
    runner_search(&e->run, &e->game.pos, reporter, &no_hooks);
    return true;
}
