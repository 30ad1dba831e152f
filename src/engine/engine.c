/* Engine controller: see engine.h. Searches, book moves and perft run on thread 0 of the
 * thread pool through engine/main_thread.c; the book is engine/ownbook.c, the position with its
 * history and opening engine/game.c. */
#include "engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/game.h"
#include "learning/learner.h"
#include "engine/ownbook.h"
#include "engine/param_options.h"
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
    if (!learner_resolve_path(options_str(&e->options, "LearningFile"), path, sizeof path)) {
        snprintf(err, size, "LearningFile: the executable's directory is unknown; give a full path");
        return false;
    }
    learner_configure(e->learner, options_bool(&e->options, "Learning"), path,
                      (int)options_int(&e->options, "Learning Threshold"));
    learner_set_results(e->learner, options_bool(&e->options, "Learning Results"));
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
    tt_clear(&e->tt, (int)options_int(&e->options, "Threads"));
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
        snprintf(err, size, "UCI_Opponent: expected '<title|none> <rating|none> <computer|human> <name>'");
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
        snprintf(err, size, "EvalFile: %s not found beside the executable; the net in use stays", opt->str);
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
        snprintf(err, size, "Use NNUE: no net (this build has none built in and EvalFile names none); "
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

static void register_options(Engine *e)
{
    Options *o = &e->options;
    options_init(o);
    option_add_spin(o, "Hash", ENGINE_DEFAULT_HASH_MB, TT_MIN_MB, TT_MAX_MB, on_hash, e);
    option_add_spin(o, "Threads", 1, 1, POOL_MAX_THREADS, on_threads, e);
    option_add_combo(o, "SMP Mode", "YBWC", "YBWC|Lazy", NULL, e);
    option_add_spin(o, "MultiPV", 1, 1, MAX_MOVES, NULL, e);
    option_add_check(o, "Ponder", false, NULL, e);
    option_add_spin(o, "Move Overhead", 50, 0, 5000, NULL, e);
    option_add_button(o, "Clear Hash", on_clear_hash, e);
    option_add_spin(o, "Contempt", 0, -100, 100, NULL, e);
    option_add_check(o, "UCI_AnalyseMode", false, NULL, e);
    option_add_check(o, "UCI_Chess960", false, on_chess960, e);
    option_add_check(o, "UCI_ShowWDL", false, NULL, e); /* read by the UCI front end */
    option_add_string(o, "UCI_Opponent", "", on_opponent, e);
    option_add_check(o, "UCI_LimitStrength", false, NULL, e);
    /* GUIs offer ratings from their own range (Stockfish's reaches 2850): cut, not refuse. */
    option_add_spin(o, "UCI_Elo", 1500, STRENGTH_MIN_ELO, STRENGTH_MAX_ELO, NULL, e)->clamp = true;
    option_add_string(o, "SyzygyPath", "", on_syzygy_path, e);
    option_add_spin(o, "SyzygyProbeDepth", 1, 1, 100, NULL, e);
    option_add_spin(o, "SyzygyProbeLimit", SYZYGY_MAX_PIECES, 0, SYZYGY_MAX_PIECES, NULL, e);
    option_add_check(o, "Syzygy50MoveRule", true, NULL, e);
    option_add_check(o, "Learning", true, on_learning, e);
    option_add_string(o, "LearningFile", LEARN_DEFAULT_FILE, on_learning, e);
    option_add_spin(o, "Learning Threshold", LEARN_DEFAULT_THRESHOLD, 10, 2000, on_learning, e);
    option_add_check(o, "Learning Results", true, on_learning, e);
    /* Learned wins are replayed with the book; this replays them with OwnBook off too. */
    option_add_check(o, "Replay Without Book", false, NULL, e);
    ownbook_add_options(o, on_book_file, e);
    /* A build with a net plays with it; one without has only the hand-written evaluation. */
    option_add_check(o, "Use NNUE", e->builtin_net != NULL, on_use_nnue, e);
    option_add_string(o, "EvalFile", "", on_eval_file, e);
    /* The search's margins were tuned on the hand-written evaluation's scale; a net on
     * another scale is brought to it here (eval-loss measures both). */
    option_add_spin(o, "NNUE Scale", 100, 10, 400, NULL, e);
    param_options_add(o, &e->run); /* the tuning build's search parameters */
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
    on_learning(e, options_find(&e->options, "Learning"), err, sizeof err);
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

void engine_new_game(Engine *e)
{
    engine_stop(e);
    engine_wait(e);
    tt_clear(&e->tt, (int)options_int(&e->options, "Threads"));
    runner_clear(&e->run);
    game_new(&e->game, options_bool(&e->options, "UCI_Chess960"));
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
    if (!game_set(&e->game, fen, moves, move_count, options_bool(&e->options, "UCI_Chess960"),
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
    if (options_bool(&e->options, "UCI_AnalyseMode"))
        return 0;
    int own = e->own_rating;
    if (!own && options_bool(&e->options, "UCI_LimitStrength"))
        own = (int)options_int(&e->options, "UCI_Elo");
    return contempt_for_opponent((int)options_int(&e->options, "Contempt"), own, &e->opponent);
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
    int64_t now = time_now_ms();
    sh->limits = *limits;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->stop_requested, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->ponderhit_ms, now);
    timeman_init(&sh->tm, limits, e->game.pos.side, fullmove_number(&e->game.pos),
                 (int)options_int(&e->options, "Move Overhead"), now);
    sh->tt = &e->tt;
    sh->multipv = (int)options_int(&e->options, "MultiPV");
    sh->contempt = engine_contempt(e);
    sh->limit_strength = options_bool(&e->options, "UCI_LimitStrength");
    sh->elo = (int)options_int(&e->options, "UCI_Elo");
    sh->node_limit = limits->nodes;
    if (sh->limit_strength) {
        uint64_t cap = strength_node_limit(sh->elo);
        if (cap && (!sh->node_limit || cap < sh->node_limit))
            sh->node_limit = cap;
    }
    int tb_pieces = e->tb_loaded ? syzygy_largest() : 0;
    int tb_limit = (int)options_int(&e->options, "SyzygyProbeLimit");
    sh->tb.pieces = tb_pieces < tb_limit ? tb_pieces : tb_limit;
    /* Limited strength plays with the hand-written evaluation: its levels were
     * calibrated with it (docs/search.md). */
    sh->net = options_bool(&e->options, "Use NNUE") && !sh->limit_strength ? engine_net(e) : NULL;
    sh->net_scale = (int)options_int(&e->options, "NNUE Scale");
    sh->tb.probe_depth = (int)options_int(&e->options, "SyzygyProbeDepth");
    sh->tb.rule50 = options_bool(&e->options, "Syzygy50MoveRule");
    syzygy_rank_root(&sh->tb, &e->game.pos, -sh->contempt, &sh->tb_root);
    char tb_fault[300]; /* a probe failed (in this root ranking or an earlier search) */
    if (syzygy_take_fault(tb_fault, sizeof tb_fault)) {
        add_message(e, tb_fault);
        sh->tb.pieces = 0;
    }
    const Option *mode = options_find_const(&e->options, "SMP Mode");
    sh->smp_mode = mode && !strcasecmp(mode->str, "Lazy") ? SMP_LAZY : SMP_YBWC;
    atomic_store(&sh->helpers_stop, false);
}

/* Result learning (learner_result_go) for a game move: true when a learned move is
 * played at once (may_answer: the go may be answered without a search, and OwnBook or
 * Replay Without Book is on); otherwise *limits may point at a copy that counts the
 * moves learned to lose as worse than their score. */
static bool follow_results(Engine *e, const SearchLimits **limits, bool may_answer, const SearchReporter *rep)
{
    const Options *o = &e->options;
    bool game_move = !options_bool(o, "UCI_AnalyseMode") && !options_bool(o, "UCI_LimitStrength");
    bool may_replay = may_answer && (options_bool(o, "OwnBook") || options_bool(o, "Replay Without Book"));
    char detail[200];
    Move replay = MOVE_NONE;
    switch (learner_result_go(e->learner, &e->game.pos, game_move, may_replay, *limits, &e->learned_limits,
                              &replay, detail, sizeof detail, rep)) {
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
                         !limits->infinite && !options_bool(&e->options, "UCI_AnalyseMode"));
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
