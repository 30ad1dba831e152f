/* The thread pool: N search threads created once and kept until the size changes
 * (between searches only). Thread 0 runs the main search of each `go`; threads 1..N-1
 * are helpers. A thread without work blocks on its condition variable (no spinning).
 *
 * The three operations of the Arasan guide: checkOut (pool_checkout_locked) takes an idle
 * helper and marks it working, start (pool_start_locked) gives it a job, and the thread
 * checks itself in (idle again) when the job returns. Split points (split.c) and Lazy SMP
 * (search.c) are built on them. */
#ifndef SAAVEDRA_THREADS_H
#define SAAVEDRA_THREADS_H

#include "search/thread.h"

#define POOL_MAX_THREADS 256

typedef struct ThreadPool ThreadPool;

/* One thread's search state (created by the pool; exposed for tests). */
SearchThread *search_thread_new(int id);
void search_thread_free(SearchThread *t);
/* Forgets everything learnt (histories, pawn cache): a new game. */
void search_thread_clear(SearchThread *t);

/* A pool of n threads (1..POOL_MAX_THREADS); NULL when out of memory. */
ThreadPool *pool_new(int n);
/* Ends every thread (none may be working) and frees the pool. */
void pool_free(ThreadPool *p);
/* Changes the number of threads; only between searches. Helpers keep their histories.
 * On failure (out of memory) the pool keeps as many threads as it could create. */
bool pool_resize(ThreadPool *p, int n);
int pool_size(const ThreadPool *p);
SearchThread *pool_thread(ThreadPool *p, int index);

/* Runs fn(thread 0, arg) on thread 0; returns at once. */
void pool_run_main(ThreadPool *p, PoolJob fn, void *arg);
/* Waits until the job of thread 0 has returned. */
void pool_wait_main(ThreadPool *p);
/* Waits until every helper is idle (a Lazy SMP search has ended). */
void pool_wait_helpers(ThreadPool *p);

/* The pool lock guards the threads' job, idle, waiting_at and assigned fields and the
 * helper counts of split points. It is taken per split, never per node. */
void pool_lock(ThreadPool *p);
void pool_unlock(ThreadPool *p);
/* checkOut: an idle helper, now marked working, or NULL. Pool lock held. */
SearchThread *pool_checkout_locked(ThreadPool *p);
/* start: gives the checked-out thread t its job; it runs fn(t, arg) and is idle again
 * (checked in) when fn returns. Pool lock held. */
void pool_start_locked(ThreadPool *p, SearchThread *t, PoolJob fn, void *arg);
/* Idle helpers: a hint read without the lock, to skip a split cheaply when nobody can
 * help (owners waiting at split points are found through the split points themselves). */
int pool_available(const ThreadPool *p);
/* Blocks the calling thread t on its condition variable (pool lock held) for at most
 * timeout_us microseconds. */
void pool_wait_locked(ThreadPool *p, SearchThread *t, int64_t timeout_us);

/* Sums over the threads, for reports and node limits. */
uint64_t pool_nodes(const ThreadPool *p);
uint64_t pool_tbhits(const ThreadPool *p);
uint64_t pool_learned_hits(const ThreadPool *p);
void pool_stats(const ThreadPool *p, SplitStats *sum);
void pool_reset_stats(ThreadPool *p);

#endif
