/* Engine controller: see engine.h. The search runs on thread 0 of the thread pool
 * (search/threads.c), created once and resized by the Threads option between searches. */
#include "engine/engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board/movegen.h"
#include "board/notation.h"
#include "board/snapshot.h"
#include "engine/learner.h"
#include "opening/book.h"
#include "board/perft.h"
#include "search/syzygy.h"
#include "search/threads.h"
#include "util/rcfile.h"
#include "util/timeutil.h"
#include "search/transposition.h"

struct Engine {
    Position pos;
    TranspositionTable tt;
    Options options;
    SearchShared shared;
    ThreadPool *pool;
    SearchReporter reporter;
    SearchResult result;
    OpponentInfo opponent;
    int own_rating;
    bool tb_loaded;   /* this engine loaded the (process-wide) tablebases */
    Learner *learner;
    bool learn_reload;            /* the TT lacks the learned positions (start-up, cleared) */
    SearchReporter learn_reporter; /* passes iterations to the learner, then on */
    char messages[4][700];        /* warnings for the protocol (engine_take_message) */
    char last_message[700];
    int message_count;
    const EcoTable *eco_table; /* NULL: openings are not named */
    EcoGame eco;      /* the game's opening so far */
    EcoGame eco_next; /* engine_set_position builds here, kept only on success */

    bool main_running;        /* thread 0 has a search job not yet waited for */
    /* The opening book, opened on first use: book_name is the BookFile value it (or the
     * failure to open it, reported once) belongs to. */
    Book *book;
    bool book_checked;
    char book_name[OPTION_STRING_MAX];
    uint64_t book_rng;
    Move book_best, book_ponder;     /* the book move a go is answering with */
    char book_detail[200];


    /* perft on the search thread (engine_perft) */
    Position *perft_pos;
    int perft_depth;
    FILE *perft_out;
    atomic_bool perft_stop;
    atomic_bool perft_running;
    atomic_bool searching;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

static bool refuse_while_searching(Engine *e, const Option *opt, char *err, size_t size)
{
    if (atomic_load(&e->searching)) {
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
    pthread_mutex_lock(&e->lock);
    if (strcmp(msg, e->last_message) != 0 && e->message_count < 4) {
        snprintf(e->messages[e->message_count++], sizeof e->messages[0], "%s", msg);
        snprintf(e->last_message, sizeof e->last_message, "%s", msg);
    }
    pthread_mutex_unlock(&e->lock);
}

bool engine_take_message(Engine *e, char *out, size_t out_size)
{
    pthread_mutex_lock(&e->lock);
    bool any = e->message_count > 0;
    if (any) {
        snprintf(out, out_size, "%s", e->messages[0]);
        memmove(e->messages[0], e->messages[1], sizeof e->messages[0] * 3);
        e->message_count--;
    }
    pthread_mutex_unlock(&e->lock);
    return any;
}

/* Learning, LearningFile (relative: beside the executable), Learning Threshold. */
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
    if (!pool_resize(e->pool, (int)opt->value)) {
        snprintf(err, size, "could only start %d search threads", pool_size(e->pool));
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

/* ---- the opening book ---- */

/* The book BookFile names, opened on first use; NULL when there is none or it cannot be
 * read, with the reason in warn the first time only ("" otherwise). */
static Book *current_book(Engine *e, char *warn, size_t size)
{
    const char *name = options_str(&e->options, "BookFile");
    warn[0] = '\0';
    if (e->book_checked && !strcmp(e->book_name, name))
        return e->book;
    book_close(e->book);
    e->book = NULL;
    e->book_checked = true;
    snprintf(e->book_name, sizeof e->book_name, "%s", name);
    if (!name[0] || !strcmp(name, "<empty>"))
        return NULL;
    char path[4096], err[400];
    if (!book_locate(name, path, sizeof path)) {
        snprintf(warn, size, "book %s not found (%s): playing without a book", name, path);
        return NULL;
    }
    if (!(e->book = book_open(path, err, sizeof err)))
        snprintf(warn, size, "book not used: %s", err);
    return e->book;
}

/* A new BookFile is opened at once, so that a GUI or engine.rc hears of a bad one now. */
static bool on_book_file(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    e->book_checked = false;
    if (options_bool(&e->options, "OwnBook"))
        current_book(e, err, size);
    return true;
}

int engine_book_moves(Engine *e, BookMove *out, int max, char *warn, size_t warn_size)
{
    Book *book = current_book(e, warn, warn_size);
    int n = book ? book_probe(book, &e->pos, out, max) : 0;
    learner_book_adjust(e->learner, &e->pos, out, n); /* what the engine's games taught */
    return n;
}

/* Whether the book answers this go: fills book_best, book_ponder and book_detail. Only
 * for a game move: not in analysis, infinite, ponder, mate or searchmoves searches. */
static bool choose_book_move(Engine *e, const SearchLimits *limits, const SearchReporter *rep)
{
    if (!options_bool(&e->options, "OwnBook") || options_bool(&e->options, "UCI_AnalyseMode")
        || limits->infinite || limits->ponder || limits->mate || limits->searchmoves_count
        || e->pos.game_ply >= options_int(&e->options, "Book Depth"))
        return false;
    char warn[500];
    BookMove moves[BOOK_MOVES_MAX];
    Book *book = current_book(e, warn, sizeof warn);
    if (warn[0] && rep && rep->on_info) {
        char line[520];
        snprintf(line, sizeof line, "warning: %s", warn);
        rep->on_info(rep->ctx, line);
    }
    int n = book ? book_probe(book, &e->pos, moves, BOOK_MOVES_MAX) : 0;
    learner_book_adjust(e->learner, &e->pos, moves, n); /* what the engine's games taught */
    int pick = book_choose(moves, n, (int)options_int(&e->options, "Book Variety"), &e->book_rng);
    if (pick < 0)
        return false;
    learner_book_played(e->learner, &e->pos, moves[pick].move);
    /* The reply the book likes best is the move to ponder on. */
    static _Thread_local Position scratch_pos; /* large: keep it off the stack */
    Position *scratch = &scratch_pos;
    *scratch = e->pos;
    book_move_describe(scratch, &moves[pick], e->book_detail, sizeof e->book_detail);
    make_move(scratch, moves[pick].move);
    BookMove replies[BOOK_MOVES_MAX];
    int best_reply = book_choose(replies, book_probe(book, scratch, replies, BOOK_MOVES_MAX), 0, &e->book_rng);
    e->book_best = moves[pick].move;
    e->book_ponder = best_reply >= 0 ? replies[best_reply].move : MOVE_NONE;
    return true;
}

static void book_main(SearchThread *t, void *arg)
{
    Engine *e = arg;
    (void)t;
    if (e->reporter.on_book)
        e->reporter.on_book(e->reporter.ctx, e->book_best, e->book_detail);
    pthread_mutex_lock(&e->lock);
    e->result = (SearchResult){ .best = e->book_best, .ponder = e->book_ponder };
    atomic_store(&e->searching, false);
    pthread_mutex_unlock(&e->lock);
    if (e->reporter.on_bestmove)
        e->reporter.on_bestmove(e->reporter.ctx, e->book_best, e->book_ponder);
}

/* Chess960 castling notation (king takes rook, Shredder-FEN) for the game on the board
 * and every position set later. */
static bool on_chess960(void *ctx, const Option *opt, char *err, size_t size)
{
    Engine *e = ctx;
    if (refuse_while_searching(e, opt, err, size))
        return false;
    position_set_chess960(&e->pos, opt->value != 0);
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
    option_add_check(o, "OwnBook", true, NULL, e);
    option_add_string(o, "BookFile", ENGINE_DEFAULT_BOOK, on_book_file, e);
    option_add_spin(o, "Book Variety", 50, 0, 100, NULL, e);
    option_add_spin(o, "Book Depth", 40, 0, 1000, NULL, e);
}

Engine *engine_new(void)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!tt_init(&e->tt, ENGINE_DEFAULT_HASH_MB) || !(e->pool = pool_new(1))
        || !(e->learner = learner_new())) {
        pool_free(e->pool);
        tt_free(&e->tt);
        free(e);
        return NULL;
    }
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->wake, NULL);
    atomic_init(&e->searching, false);
    atomic_init(&e->shared.stop, false);
    atomic_init(&e->shared.stop_requested, false);
    atomic_init(&e->shared.pondering, false);
    atomic_init(&e->shared.ponderhit_ms, 0);
    atomic_init(&e->perft_stop, false);
    atomic_init(&e->perft_running, false);
    e->shared.seed = (uint64_t)time_now_us();
    e->book_rng = e->shared.seed ^ 0xB00C;
    register_options(e);
    char err[160];
    on_learning(e, options_find(&e->options, "Learning"), err, sizeof err);
    position_from_fen(&e->pos, START_FEN, err, sizeof err, NULL);
    e->eco_table = eco_builtin(err, sizeof err);
    eco_game_reset(&e->eco, e->eco_table, pos_key(&e->pos));
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
    pool_free(e->pool);
    learner_free(e->learner);
    book_close(e->book);
    free(e->perft_pos);
    tt_free(&e->tt);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->wake);
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
    for (int i = 0; i < pool_size(e->pool); i++)
        search_thread_clear(pool_thread(e->pool, i));
    char err[160];
    position_from_fen(&e->pos, START_FEN, err, sizeof err, NULL);
    position_set_chess960(&e->pos, options_bool(&e->options, "UCI_Chess960"));
    learner_new_game(e->learner);
    char msg[700];
    learner_load_into(e->learner, &e->tt, msg, sizeof msg);
    add_message(e, msg);
    e->learn_reload = false;
    eco_game_reset(&e->eco, e->eco_table, pos_key(&e->pos));
}

void engine_game_over(Engine *e, int result)
{
    engine_stop(e);
    engine_wait(e);
    char msg[700];
    learner_game_over(e->learner, result, msg, sizeof msg);
    add_message(e, msg);
}

/* Keeps states[] from filling in endless games (past the fifty-move limit, where
 * position_compact cannot drop anything): only the last HISTORY_KEEP entries are kept,
 * which is all that repetition detection looks at in practice. */
#define HISTORY_KEEP 256

static void bound_history(Position *pos)
{
    if (pos->st_index <= MAX_STATES - MAX_PLY - 64)
        return;
    position_compact(pos);
    if (pos->st_index <= MAX_STATES - MAX_PLY - 64)
        return;
    int first = pos->st_index - (HISTORY_KEEP - 1);
    memmove(&pos->states[0], &pos->states[first], HISTORY_KEEP * sizeof(StateInfo));
    pos->st_index = HISTORY_KEEP - 1;
}

bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int move_count,
                         char *err, size_t err_size)
{
    static _Thread_local Position next; /* large: keep it off the stack */
    char why[160];
    if (!position_from_fen(&next, fen ? fen : START_FEN, why, sizeof why, NULL)) {
        snprintf(err, err_size, "bad FEN: %s", why);
        return false;
    }
    position_set_chess960(&next, options_bool(&e->options, "UCI_Chess960"));
    Move *list = malloc(((size_t)move_count + 1) * sizeof *list); /* for the game record */
    eco_game_reset(&e->eco_next, e->eco_table, pos_key(&next));
    for (int i = 0; i < move_count; i++) {
        Move m = move_from_uci(&next, moves[i]);
        if (m == MOVE_NONE) {
            snprintf(err, err_size, "illegal move '%s' (move %d of the list)", moves[i], i + 1);
            free(list);
            return false;
        }
        if (list)
            list[i] = m;
        make_move(&next, m);
        bound_history(&next);
        eco_game_push(&e->eco_next, pos_key(&next));
    }
    position_compact(&next);
    e->pos = next;
    if (list) {
        engine_wait(e); /* the last search's learning has been written */
        char msg[700];
        learner_set_game(e->learner, fen, list, move_count, msg, sizeof msg);
        add_message(e, msg);
        free(list);
    }
    e->eco = e->eco_next;
    return true;
}

void engine_restore_position(Engine *e, const Position *saved)
{
    e->pos = *saved;
    /* The moves before it are not known here: the opening is that of the position. */
    eco_game_reset(&e->eco, e->eco_table, pos_key(&e->pos));
}

bool engine_make_move(Engine *e, Move m)
{
    if (!move_is_legal(&e->pos, m))
        return false;
    make_move(&e->pos, m);
    bound_history(&e->pos);
    learner_push(e->learner, m);
    eco_game_push(&e->eco, pos_key(&e->pos));
    return true;
}

bool engine_undo_move(Engine *e)
{
    if (e->pos.st_index == 0)
        return false;
    unmake_move(&e->pos, pos_state(&e->pos)->move);
    learner_pop(e->learner);
    eco_game_pop(&e->eco);
    return true;
}

const Position *engine_position(const Engine *e)
{
    return &e->pos;
}

const EcoEntry *engine_opening(const Engine *e, const EcoEntry **here)
{
    if (here)
        *here = eco_entry(e->eco_table, eco_game_current(&e->eco));
    return eco_entry(e->eco_table, eco_game_best(&e->eco));
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

static void learn_on_iteration(void *ctx, const SearchReport *report)
{
    Engine *e = ctx;
    learner_on_iteration(e->learner, report);
    if (e->reporter.on_iteration)
        e->reporter.on_iteration(e->reporter.ctx, report);
}

static void learn_on_currmove(void *ctx, int depth, Move move, int number)
{
    Engine *e = ctx;
    if (e->reporter.on_currmove)
        e->reporter.on_currmove(e->reporter.ctx, depth, move, number);
}

static void search_main(SearchThread *t, void *arg)
{
    Engine *e = arg;
    SearchResult r = search_run(t);
    /* Infinite and ponder searches keep their move until told to give it. */
    pthread_mutex_lock(&e->lock);
    while (!atomic_load(&e->shared.stop)
           && (atomic_load(&e->shared.pondering) || e->shared.limits.infinite))
        pthread_cond_wait(&e->wake, &e->lock);
    e->result = r;
    learner_search_done(e->learner, &e->pos, &r);
    /* Not searching any more before the move goes out: a GUI may answer the bestmove
     * with `go` at once (engine_go then joins this thread, which ends right after). */
    atomic_store(&e->searching, false);
    pthread_mutex_unlock(&e->lock);
    if (e->reporter.on_bestmove)
        e->reporter.on_bestmove(e->reporter.ctx, r.best, r.ponder);
    char msg[700];
    learner_flush(e->learner, msg, sizeof msg); /* after the move: no time lost */
    add_message(e, msg);
}

bool engine_go(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
               char *err, size_t err_size)
{
    if (atomic_load(&e->searching)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e); /* reap the previous worker */

    if (reporter)
        e->reporter = *reporter;
    else
        memset(&e->reporter, 0, sizeof e->reporter);
    if (choose_book_move(e, limits, reporter)) {
        /* Through thread 0 like a search, so that waiting, stopping and the order of
         * the output are the same. */
        atomic_store(&e->shared.stop, false);
        atomic_store(&e->searching, true);
        e->main_running = true;
        pool_run_main(e->pool, book_main, e);
        return true;
    }

    SearchShared *sh = &e->shared;
    int64_t now = time_now_ms();
    sh->limits = *limits;
    atomic_store(&sh->stop, false);
    atomic_store(&sh->stop_requested, false);
    atomic_store(&sh->pondering, limits->ponder);
    atomic_store(&sh->ponderhit_ms, now);
    timeman_init(&sh->tm, limits, e->pos.side, (int)options_int(&e->options, "Move Overhead"), now);
    sh->tt = &e->tt;
    e->learn_reporter = (SearchReporter){ learn_on_iteration, learn_on_currmove, NULL, e, NULL, NULL };
    sh->reporter = &e->learn_reporter;
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
    sh->tb.probe_depth = (int)options_int(&e->options, "SyzygyProbeDepth");
    sh->tb.rule50 = options_bool(&e->options, "Syzygy50MoveRule");
    syzygy_rank_root(&sh->tb, &e->pos, -sh->contempt, &sh->tb_root);
    const Option *mode = options_find_const(&e->options, "SMP Mode");
    sh->smp_mode = mode && !strcasecmp(mode->str, "Lazy") ? SMP_LAZY : SMP_YBWC;
    atomic_store(&sh->helpers_stop, false);
    if (e->learn_reload) {
        char msg[700];
        learner_load_into(e->learner, &e->tt, msg, sizeof msg);
        add_message(e, msg);
        e->learn_reload = false;
    }
    learner_search_start(e->learner, &e->pos,
                         !limits->infinite && !options_bool(&e->options, "UCI_AnalyseMode"));
    tt_new_search(&e->tt);
    SearchThread *main_thread = pool_thread(e->pool, 0);
    position_copy_used(&main_thread->pos, &e->pos);
    main_thread->shared = sh;

    atomic_store(&e->searching, true);
    e->main_running = true;
    pool_run_main(e->pool, search_main, e);
    return true;
}

static void perft_main(SearchThread *t, void *arg)
{
    (void)t;
    Engine *e = arg;
    perft_divide_until(e->perft_pos, e->perft_depth, e->perft_out, &e->perft_stop);
    /* Idle before the totals are seen: a GUI may send its next command at once. */
    atomic_store(&e->perft_running, false);
    atomic_store(&e->searching, false);
    fflush(e->perft_out);
}

bool engine_perft(Engine *e, int depth, FILE *out, char *err, size_t err_size)
{
    if (atomic_load(&e->searching)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e);
    if (!e->perft_pos && !(e->perft_pos = malloc(sizeof *e->perft_pos))) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    *e->perft_pos = e->pos; /* perft plays moves on its board: the game stays */
    e->perft_depth = depth;
    e->perft_out = out;
    atomic_store(&e->perft_stop, false);
    atomic_store(&e->perft_running, true);
    atomic_store(&e->searching, true);
    e->main_running = true;
    pool_run_main(e->pool, perft_main, e);
    return true;
}

bool engine_perft_running(Engine *e)
{
    return atomic_load(&e->perft_running);
}

void engine_stop(Engine *e)
{
    atomic_store(&e->perft_stop, true);
    pthread_mutex_lock(&e->lock);
    atomic_store(&e->shared.stop_requested, true);
    atomic_store(&e->shared.stop, true);
    pthread_cond_broadcast(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

void engine_ponderhit(Engine *e)
{
    pthread_mutex_lock(&e->lock);
    atomic_store(&e->shared.ponderhit_ms, time_now_ms());
    atomic_store(&e->shared.pondering, false);
    pthread_cond_broadcast(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

void engine_wait(Engine *e)
{
    if (e->main_running) {
        pool_wait_main(e->pool);
        e->main_running = false;
    }
}

bool engine_is_searching(Engine *e)
{
    return atomic_load(&e->searching);
}

void engine_smp_stats(Engine *e, SplitStats *sum, bool reset)
{
    pool_stats(e->pool, sum);
    if (reset)
        pool_reset_stats(e->pool);
}

SearchResult engine_last_result(Engine *e)
{
    pthread_mutex_lock(&e->lock);
    SearchResult r = e->result;
    pthread_mutex_unlock(&e->lock);
    return r;
}
