/* What the engine runs on thread 0 of the thread pool (search/threads.c: created once,
 * resized by the Threads option between searches): a search, a book move or a perft, one
 * at a time, so that the protocol loop keeps reading stop, isready, ponderhit and quit
 * while it works. The engine fills the shared search state (shared) and says through
 * RunnerHooks what its game record wants to hear; the runner starts the job, holds an
 * infinite or ponder search's move until it is told to give it, reports the best move,
 * stops and waits. */
#ifndef SAAVEDRA_MAIN_THREAD_H
#define SAAVEDRA_MAIN_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "search/search.h"
#include "search/threads.h"
#include "util/writer.h"

typedef struct {
    /* Each iteration's report, before the protocol's reporter sees it. */
    void (*on_iteration)(void *ctx, const SearchReport *report);
    /* The finished search's result, before the runner counts as idle (its lock held). */
    void (*on_result)(void *ctx, const SearchResult *result);
    /* After the best move went out: work no one should wait for. */
    void (*after_move)(void *ctx);
    void *ctx;
} RunnerHooks;

typedef struct {
    ThreadPool *pool;
    SearchShared shared;      /* what the search threads share: set up before runner_search */
    SearchReporter reporter;  /* the protocol's, for the current job */
    SearchReporter relay;     /* what the search reports to: the hooks, then reporter */
    RunnerHooks hooks;
    SearchResult result;      /* of the last finished job (lock) */
    Move book_best, book_ponder;
    char book_detail[200];
    Position *perft_pos;      /* perft plays on its own board */
    int perft_depth;
    Writer *perft_out;
    atomic_bool perft_stop;
    atomic_bool perft_running;
    atomic_bool searching;    /* a job runs and has not given its move (or totals) yet */
    bool main_running;        /* thread 0 has a job not yet waited for */
    pthread_mutex_t lock;
    pthread_cond_t wake;      /* stop or ponderhit, for a search holding its move */
} Runner;

/* One thread; false (nothing to free) when it cannot be had. shared.seed is set from
 * the clock. */
bool runner_init(Runner *r);
/* Stops and waits for the job first. */
void runner_free(Runner *r);

/* The Threads option; only between jobs. False: out of memory, with runner_threads
 * threads kept. */
bool runner_resize(Runner *r, int threads);
int runner_threads(const Runner *r);
/* A new game: every thread forgets its histories and pawn cache. */
void runner_clear(Runner *r);

/* Starts a search of pos (copied) with shared set up. rep may be NULL. */
void runner_search(Runner *r, const Position *pos, const SearchReporter *rep,
                   const RunnerHooks *hooks);
/* Answers the go with a book move through the same path: rep's on_book, then
 * on_bestmove. detail is copied. */
void runner_book_move(Runner *r, Move best, Move ponder, const char *detail,
                      const SearchReporter *rep);
/* Counts pos's move paths to depth into out (perft_divide's format); false (err) when
 * out of memory. */
bool runner_perft(Runner *r, const Position *pos, int depth, Writer *out, char *err,
                  size_t err_size);

/* Whether a job runs (until its best move or perft totals are out). */
bool runner_busy(Runner *r);
bool runner_perft_running(Runner *r);
/* Ends the job as soon as possible; a search then reports its best move. */
void runner_stop(Runner *r);
/* The ponder search becomes a normal one. */
void runner_ponderhit(Runner *r);
/* Waits until thread 0's job has returned. */
void runner_wait(Runner *r);

/* Parallel-search counters summed over the threads (read them between jobs). */
void runner_stats(Runner *r, SplitStats *sum, bool reset);
SearchResult runner_last_result(Runner *r);

#endif
