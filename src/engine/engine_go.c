/* Starting and stopping the engine's searches (engine.h): engine_go asks the book and
 * result learning first, then sets up the shared search state from the limits, the options
 * and the game and starts thread 0 (engine/main_thread.c); engine_search does without book
 * and learner; perft, stop, ponderhit and wait act on the same thread. */
#include "engine/engine.h"

#include <stdio.h>

#include "engine/engine_internal.h"
#include "engine/main_thread.h"
#include "engine/ownbook.h"
#include "learning/learner.h"
#include "search/transposition.h"
#include "tablebase/syzygy.h"
#include "util/timeutil.h"

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
    engine_add_message(e, msg);
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
        engine_add_message(e, tb_fault);
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

/* False (with err) while a search runs; otherwise the previous worker is reaped. */
static bool ready_to_search(Engine *e, char *err, size_t err_size)
{
    if (runner_busy(&e->run)) {
        snprintf(err, err_size, "a search is already running");
        return false;
    }
    engine_wait(e);
    return true;
}

bool engine_go(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
               char *err, size_t err_size)
{
    if (!ready_to_search(e, err, err_size))
        return false;

    if (ownbook_choose(&e->book, &e->options, e->learner, &e->game.pos, limits, reporter)) {
        runner_book_move(&e->run, e->book.best, e->book.ponder, e->book.detail, reporter);
        return true;
    }
    if (e->learn_reload) {
        char msg[700];
        learner_load_into(e->learner, &e->tt, msg, sizeof msg);
        engine_add_message(e, msg);
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
    if (!ready_to_search(e, err, err_size))
        return false;
    set_up_search(e, limits);
    tt_new_search(&e->tt);
    RunnerHooks no_hooks = { NULL, NULL, NULL, NULL };
    runner_search(&e->run, &e->game.pos, reporter, &no_hooks);
    return true;
}
