/* Thread 0's jobs for the engine: see main_thread.h. */
#include "engine/main_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/perft.h"
#include "board/position_copy.h"
#include "util/timeutil.h"

bool runner_init(Runner *r)
{
    memset(r, 0, sizeof *r);
    if (!(r->pool = pool_new(1)))
        return false;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->wake, NULL);
    atomic_init(&r->searching, false);
    atomic_init(&r->shared.stop, false);
    atomic_init(&r->shared.stop_requested, false);
    atomic_init(&r->shared.pondering, false);
    atomic_init(&r->shared.ponderhit_ms, 0);
    atomic_init(&r->perft_stop, false);
    atomic_init(&r->perft_running, false);
    r->shared.seed = (uint64_t)time_now_us();
    return true;
}

void runner_free(Runner *r)
{
    runner_stop(r);
    runner_wait(r);
    pool_free(r->pool);
    free(r->perft_pos);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->wake);
}

bool runner_resize(Runner *r, int threads)
{
    return pool_resize(r->pool, threads);
}

int runner_threads(const Runner *r)
{
    return pool_size(r->pool);
}

void runner_clear(Runner *r)
{
    for (int i = 0; i < pool_size(r->pool); i++)
        search_thread_clear(pool_thread(r->pool, i));
}

static void set_reporter(Runner *r, const SearchReporter *rep)
{
    if (rep)
        r->reporter = *rep;
    else
        memset(&r->reporter, 0, sizeof r->reporter);
}

static void relay_iteration(void *ctx, const SearchReport *report)
{
    Runner *r = ctx;
    if (r->hooks.on_iteration)
        r->hooks.on_iteration(r->hooks.ctx, report);
    if (r->reporter.on_iteration)
        r->reporter.on_iteration(r->reporter.ctx, report);
}

static void relay_currmove(void *ctx, int depth, Move move, int number)
{
    Runner *r = ctx;
    if (r->reporter.on_currmove)
        r->reporter.on_currmove(r->reporter.ctx, depth, move, number);
}

static void search_main(SearchThread *t, void *arg)
{
    Runner *r = arg;
    SearchResult res = search_run(t);
    /* Infinite and ponder searches keep their move until told to give it. */
    pthread_mutex_lock(&r->lock);
    while (!atomic_load(&r->shared.stop)
           && (atomic_load(&r->shared.pondering) || r->shared.limits.infinite))
        pthread_cond_wait(&r->wake, &r->lock);
    r->result = res;
    if (r->hooks.on_result)
        r->hooks.on_result(r->hooks.ctx, &res);
    /* Not searching any more before the move goes out: a GUI may answer the bestmove
     * with `go` at once (the engine then joins this thread, which ends right after). */
    atomic_store(&r->searching, false);
    pthread_mutex_unlock(&r->lock);
    if (res.learned_hits && r->reporter.on_info) {
        char line[64];
        snprintf(line, sizeof line, "learned positions hit %llu times",
                 (unsigned long long)res.learned_hits);
        r->reporter.on_info(r->reporter.ctx, line);
    }
    if (r->reporter.on_bestmove)
        r->reporter.on_bestmove(r->reporter.ctx, res.best, res.ponder);
    if (r->hooks.after_move)
        r->hooks.after_move(r->hooks.ctx); /* after the move: no time lost */
}

void runner_search(Runner *r, const Position *pos, const SearchReporter *rep,
                   const RunnerHooks *hooks)
{
    set_reporter(r, rep);
    r->hooks = *hooks;
    r->relay = (SearchReporter){ relay_iteration, relay_currmove, NULL, r, NULL, NULL };
    r->shared.reporter = &r->relay;
    SearchThread *main_thread = pool_thread(r->pool, 0);
    position_copy_used(&main_thread->pos, pos);
    main_thread->shared = &r->shared;

    atomic_store(&r->searching, true);
    r->main_running = true;
    pool_run_main(r->pool, search_main, r);
}

static void book_main(SearchThread *t, void *arg)
{
    Runner *r = arg;
    (void)t;
    if (r->reporter.on_book)
        r->reporter.on_book(r->reporter.ctx, r->book_best, r->book_detail);
    pthread_mutex_lock(&r->lock);
    r->result = (SearchResult){ .best = r->book_best, .ponder = r->book_ponder };
    atomic_store(&r->searching, false);
    pthread_mutex_unlock(&r->lock);
    if (r->reporter.on_bestmove)
        r->reporter.on_bestmove(r->reporter.ctx, r->book_best, r->book_ponder);
}

void runner_book_move(Runner *r, Move best, Move ponder, const char *detail,
                      const SearchReporter *rep)
{
    set_reporter(r, rep);
    r->book_best = best;
    r->book_ponder = ponder;
    snprintf(r->book_detail, sizeof r->book_detail, "%s", detail);
    /* Through thread 0 like a search, so that waiting, stopping and the order of the
     * output are the same. */
    atomic_store(&r->shared.stop, false);
    atomic_store(&r->searching, true);
    r->main_running = true;
    pool_run_main(r->pool, book_main, r);
}

static void perft_main(SearchThread *t, void *arg)
{
    (void)t;
    Runner *r = arg;
    perft_divide_until(r->perft_pos, r->perft_depth, r->perft_out, &r->perft_stop);
    atomic_store(&r->perft_running, false);
    atomic_store(&r->searching, false);
}

bool runner_perft(Runner *r, const Position *pos, int depth, Writer *out, char *err,
                  size_t err_size)
{
    if (!r->perft_pos && !(r->perft_pos = malloc(sizeof *r->perft_pos))) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    *r->perft_pos = *pos; /* perft plays moves on its board: the game stays */
    r->perft_depth = depth;
    r->perft_out = out;
    atomic_store(&r->perft_stop, false);
    atomic_store(&r->perft_running, true);
    atomic_store(&r->searching, true);
    r->main_running = true;
    pool_run_main(r->pool, perft_main, r);
    return true;
}

bool runner_busy(Runner *r)
{
    return atomic_load(&r->searching);
}

bool runner_perft_running(Runner *r)
{
    return atomic_load(&r->perft_running);
}

void runner_stop(Runner *r)
{
    atomic_store(&r->perft_stop, true);
    pthread_mutex_lock(&r->lock);
    atomic_store(&r->shared.stop_requested, true);
    atomic_store(&r->shared.stop, true);
    pthread_cond_broadcast(&r->wake);
    pthread_mutex_unlock(&r->lock);
}

void runner_ponderhit(Runner *r)
{
    pthread_mutex_lock(&r->lock);
    atomic_store(&r->shared.ponderhit_ms, time_now_ms());
    atomic_store(&r->shared.pondering, false);
    pthread_cond_broadcast(&r->wake);
    pthread_mutex_unlock(&r->lock);
}

void runner_wait(Runner *r)
{
    if (r->main_running) {
        pool_wait_main(r->pool);
        r->main_running = false;
    }
}

void runner_stats(Runner *r, SplitStats *sum, bool reset)
{
    pool_stats(r->pool, sum);
    if (reset)
        pool_reset_stats(r->pool);
}

SearchResult runner_last_result(Runner *r)
{
    pthread_mutex_lock(&r->lock);
    SearchResult res = r->result;
    pthread_mutex_unlock(&r->lock);
    return res;
}
